// Package schema declares the shapes of responses (Entity, Array, Object,
// Values, Union, Invalidate, Date) and turns responses into normalized
// entity records and back.
//
// Normalization replaces each entity inside a response by its primary key and
// lists the records to store; denormalization rebuilds the response from the
// stored records, memoized so that an unchanged read returns the identical
// value. Everything that depends on what a schema is lives here; the store
// only keeps records and versions.
package schema

import (
	"errors"
	"sync/atomic"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Schema is a response shape. The set of schemas is closed: the types of this
// package are all there are, so the store and the bridge can reason about
// them.
type Schema interface {
	normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error)
	denormalize(v value.Value, d *denormalizer) (value.Value, Status)
	// describe names the schema in error messages.
	describe() string
}

// Status tells what a denormalized value stands on.
type Status uint8

const (
	// Found means the value is complete.
	Found Status = iota
	// Missing means a required entity is not in the store.
	Missing
	// Deleted means a required entity was deleted (by Invalidate); a read
	// must fetch again.
	Deleted
)

// worse returns the status that matters more to a reader.
func worse(a, b Status) Status {
	if b > a {
		return b
	}
	return a
}

// Array is a list of Of. Members that are missing or deleted are left out
// when read.
type Array struct{ Of Schema }

// ArrayOf returns the schema of a list of s.
func ArrayOf(s Schema) *Array { return &Array{Of: s} }

func (a *Array) describe() string { return "[" + a.Of.describe() + "]" }

// ListShape is how a response's schema holds a list that can be stored
// element by element (ElementWise).
type ListShape struct {
	// List is the list's schema, Item the one Entity it lists.
	List *Array
	Item *Entity
	// Table, for a Collection, is the entity table its lists are stored
	// in: the result (or its Field) is then the collection's key.
	Table *Entity
	// Field, for an Object, names the member that holds the list; "" when
	// the response is the list.
	Field string
}

// ElementWise reports whether s stores a list element by element, each
// alone, and how it holds it: s is a list (or a Collection of one) of an
// Entity whose keys do not come from a PKFunc that reads its parent (the
// list, for its records), or an Object whose one nested schema is such a
// list. Normalizing a run of elements by List, as a list of its own, then
// gives the records that normalizing the whole response gives for them,
// each element's own record last, its source the element's text: a
// response that changes a few elements can be stored by normalizing those
// alone (store.ReapplyElem).
func ElementWise(s Schema) (ListShape, bool) {
	switch s := s.(type) {
	case *Object:
		if s == nil {
			return ListShape{}, false
		}
		var shape ListShape
		found := false
		for _, f := range s.Fields {
			if f.Schema == nil {
				continue
			}
			inner, ok := ElementWise(f.Schema)
			if !ok || found || inner.Field != "" {
				return ListShape{}, false
			}
			shape, found = inner, true
			shape.Field = f.Name
		}
		return shape, found
	case *Collection:
		if s == nil {
			return ListShape{}, false
		}
		if shape, ok := ElementWise(s.Of); ok && shape.Table == nil && shape.Field == "" {
			shape.Table = s.entity()
			return shape, true
		}
	case *Array:
		if s == nil {
			return ListShape{}, false
		}
		if e, ok := s.Of.(*Entity); ok && e != nil && (e.PKFunc == nil || e.PKIgnoresParent) {
			return ListShape{List: s, Item: e}, true
		}
	}
	return ListShape{}, false
}

// Field is one member of an Object schema: a nested Schema, or when Schema
// is nil a Default that a read fills in where the member is absent.
type Field struct {
	Name    string
	Schema  Schema
	Default value.Value
}

// Object is a fixed-shape object whose named members have schemas or
// defaults; other members pass through unchanged.
type Object struct {
	Fields []Field
	// plain caches IsPlain: 0 not known yet, 1 plain, 2 not.
	plain atomic.Int32
}

// ObjectOf returns an Object schema with fields.
func ObjectOf(fields ...Field) *Object { return &Object{Fields: fields} }

// Nested returns a Field holding schema s.
func Nested(name string, s Schema) Field { return Field{Name: name, Schema: s} }

// Default returns a Field with a plain default value.
func Default(name string, v value.Value) Field { return Field{Name: name, Default: v} }

func (o *Object) describe() string { return "object" }

// Values is a string-keyed map of Of.
type Values struct{ Of Schema }

// ValuesOf returns the schema of a map of s.
func ValuesOf(s Schema) *Values { return &Values{Of: s} }

func (v *Values) describe() string { return "values(" + v.Of.describe() + ")" }

// Union is a polymorphic value: the member Attribute of each record (or
// AttributeFunc, when set) names which schema of Schemas it is, usually an
// entity, but any schema may be a member (as data-client allows: an Object
// for values that are not records; an Invalidate, for data-client's
// Invalidate of a union, see InvalidateOfUnion). Names lists the member
// names in the order they were declared, which an All over the union lists
// its tables in.
type Union struct {
	Schemas       map[string]Schema
	Names         []string
	Attribute     string
	AttributeFunc func(in, parent value.Value, key string) string
	// Unknown, when set, is told of a value the union keeps as it is
	// because no member takes it, so that it can be reported (data-client
	// warns): on a normalize, a record whose attribute (attr) names no
	// member; on a read (reading), a value that neither names a member
	// (as a normalized {id, schema} does) nor is a record whose attribute
	// names one.
	Unknown func(v value.Value, attr string, reading bool)
}

func (u *Union) describe() string { return "union" }

// Invalidate normalizes a record (or a bare pk) of Entity and marks that
// entity deleted; reading it then requires a fetch.
type Invalidate struct{ Entity *Entity }

// InvalidateOf returns the Invalidate schema of e.
func InvalidateOf(e *Entity) *Invalidate { return &Invalidate{Entity: e} }

// InvalidateOfUnion returns the schema of data-client's Invalidate of a
// union (new Invalidate({a: A, b: B}, attr)): u with each entity member
// replaced by its Invalidate. A record is deleted as the entity its
// attribute names, and its result is the union's {id, schema}; one that
// no member takes is kept as it is, as a union keeps it.
func InvalidateOfUnion(u *Union) *Union {
	out := *u
	out.Schemas = make(map[string]Schema, len(u.Schemas))
	for name, m := range u.Schemas {
		if e, ok := m.(*Entity); ok {
			m = InvalidateOf(e)
		}
		out.Schemas[name] = m
	}
	return &out
}

func (i *Invalidate) describe() string { return "invalidate(" + i.Entity.Key + ")" }

// Date marks a date field. ISO-8601 strings and epoch-millisecond numbers are
// both accepted; the store keeps epoch milliseconds, so dates from servers
// and from Date.now() compare as numbers.
var Date Schema = dateSchema{}

type dateSchema struct{}

func (dateSchema) describe() string { return "Date" }

// IsDate reports whether s is the Date schema. Bridges use it to turn stored
// milliseconds into their language's date type.
func IsDate(s Schema) bool { _, ok := s.(dateSchema); return ok }

// pathElem is a linked path from the response root to the value being
// normalized, built only on the stack so it costs nothing until an error
// names it.
type pathElem struct {
	parent *pathElem
	key    string
	index  int // -1 when key names an object member
	depth  int // of parent, plus one; 0 at the root
}

func (p *pathElem) String() string {
	if p == nil {
		return "$"
	}
	if p.index >= 0 {
		return fmtlite.Sprintf("%s[%d]", p.parent, p.index)
	}
	return p.parent.String() + "." + p.key
}

// Error is a normalize failure: what was wrong and where in the response.
type Error struct {
	// Path locates the value in the response, as $.results[3].author.
	Path string
	// Schema names the schema that refused it, as an entity key.
	Schema string
	Msg    string
	// Err is the error Msg reports, when it is a sentinel such as ErrNoPK.
	Err error
}

func (e *Error) Error() string {
	return fmtlite.Sprintf("normalize %s at %s: %s", e.Schema, e.Path, e.Msg)
}

// Unwrap returns Err, so errors.Is(err, ErrNoPK) finds a missing key.
func (e *Error) Unwrap() error { return e.Err }

func errorAt(p *pathElem, s Schema, format string, args ...any) *Error {
	return &Error{Path: p.String(), Schema: s.describe(), Msg: fmtlite.Sprintf(format, args...)}
}

// Check reports the first configuration error anywhere in s: an entity with
// no key or no defaults, a list or map of nothing, a union or invalidation
// without its entities. Endpoints check their schema when they are made, so
// the mistake is reported where it was written, not at the first response.
func Check(s Schema) error {
	if tooDeep(s, 0, map[*Entity]bool{}) {
		return fmtlite.Errorf("schema nests deeper than %d levels", maxSchemaDepth)
	}
	return check(s, map[*Entity]bool{})
}

// maxSchemaDepth bounds how deep a schema may nest. No real schema comes
// near it; one that does would make the recursive walks over it overflow
// the small, fixed call stack of WebAssembly.
const maxSchemaDepth = 256

// tooDeep reports whether s nests deeper than maxSchemaDepth, each entity
// followed once (so a schema that names itself ends), as check follows it.
func tooDeep(s Schema, depth int, seen map[*Entity]bool) bool {
	if depth > maxSchemaDepth {
		return true
	}
	depth++
	switch s := s.(type) {
	case *Entity:
		if s == nil || seen[s] {
			return false
		}
		seen[s] = true
		for _, f := range s.Schema {
			if tooDeep(f, depth, seen) {
				return true
			}
		}
	case *Array:
		return s != nil && tooDeep(s.Of, depth, seen)
	case *Values:
		return s != nil && tooDeep(s.Of, depth, seen)
	case *Object:
		for i := 0; s != nil && i < len(s.Fields); i++ {
			if s.Fields[i].Schema != nil && tooDeep(s.Fields[i].Schema, depth, seen) {
				return true
			}
		}
	case *Union:
		if s == nil {
			return false
		}
		for _, e := range s.Schemas {
			if tooDeep(e, depth, seen) {
				return true
			}
		}
	case *Invalidate:
		return s != nil && tooDeep(s.Entity, depth, seen)
	case *All:
		return s != nil && tooDeep(s.Entity, depth, seen)
	case *Query:
		return s != nil && s.Schema != nil && tooDeep(s.Schema, depth, seen)
	case *Collection:
		return s != nil && tooDeep(s.Of, depth, seen)
	case *CollectionAdd:
		return s != nil && s.Collection != nil && tooDeep(s.Collection, depth, seen)
	case *Lazy:
		return s != nil && tooDeep(s.Of, depth, seen)
	case *LazyQuery:
		return s != nil && tooDeep(s.Of, depth, seen)
	}
	return false
}

func check(s Schema, seen map[*Entity]bool) error {
	switch s := s.(type) {
	case nil:
		return errors.New("schema is nil")
	case *Entity:
		if s == nil || seen[s] {
			return s.Validate()
		}
		seen[s] = true
		if err := s.Validate(); err != nil {
			return err
		}
		for name, f := range s.Schema {
			if err := check(f, seen); err != nil {
				return fmtlite.Errorf("entity %s: field %s: %w", s.Key, name, err)
			}
		}
	case *Array:
		return check(s.Of, seen)
	case *Values:
		return check(s.Of, seen)
	case *Object:
		for _, f := range s.Fields {
			if f.Schema == nil {
				continue
			}
			if err := check(f.Schema, seen); err != nil {
				return fmtlite.Errorf("field %s: %w", f.Name, err)
			}
		}
	case *Union:
		if len(s.Schemas) == 0 {
			return errors.New("union has no schemas")
		}
		if s.Attribute == "" && s.AttributeFunc == nil {
			return errors.New("union has no attribute to choose its schema by")
		}
		for name, e := range s.Schemas {
			if err := check(e, seen); err != nil {
				return fmtlite.Errorf("union member %s: %w", name, err)
			}
		}
	case *Invalidate:
		return check(s.Entity, seen)
	case *All:
		return check(s.readSchema(), seen)
	case *Query:
		return check(s.Schema, seen)
	case *Collection:
		return s.check(seen)
	case *CollectionAdd:
		if s.Collection == nil {
			return errors.New("collection operation has no collection")
		}
		return s.Collection.check(seen)
	case *Lazy:
		return check(s.Of, seen)
	case *LazyQuery:
		return check(s.Of, seen)
	}
	return nil
}

// IsPlain reports whether values of s are plain JSON: no entity positions
// (Entity, Invalidate, Union) and no Dates anywhere in them, so that a
// writer of their denormalized form need not look inside. A Lazy is plain:
// it reads as its stored form. An Object's
// answer is worked out once: schemas are immutable once used.
func IsPlain(s Schema) bool {
	switch s := s.(type) {
	case nil:
		return true
	case *Entity, *Invalidate, *Union, *All, *Query, *Collection, *CollectionAdd, *Scalar, *LazyQuery:
		return false
	case *Array:
		return IsPlain(s.Of)
	case *Values:
		return IsPlain(s.Of)
	case *Object:
		switch s.plain.Load() {
		case 1:
			return true
		case 2:
			return false
		}
		plain := true
		for _, f := range s.Fields {
			plain = plain && IsPlain(f.Schema)
		}
		if plain {
			s.plain.Store(1)
		} else {
			s.plain.Store(2)
		}
		return plain
	}
	return !IsDate(s)
}
