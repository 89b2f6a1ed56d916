package df

import (
	"fmt"
	"reflect"
	"sync"
	"time"
	"unicode"
	"unsafe"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// planKind says how one Go type is decoded from and encoded to a value.
type planKind uint8

const (
	kValue   planKind = iota // value.Value, as it is
	kUnknown                 // Unknown: the members no field names
	kAny                     // interface{}: v.Go()
	kString                  // string kinds
	kBool                    // bool kinds
	kInt                     // signed integer kinds
	kUint                    // unsigned integer kinds
	kFloat                   // float kinds
	kTime                    // time.Time: epoch ms or an ISO-8601 string
	kStruct                  // a struct: an object, field by field
	kPtr                     // a pointer: null or the pointed-to type
	kSlice                   // a slice: an array
	kMap                     // a map with string keys: an object
)

// plan is how values of one Go type are decoded and encoded: worked out
// once per type by reflection, then followed by decode with unsafe field
// offsets and no reflection per field.
type plan struct {
	t    reflect.Type
	kind planKind
	size uintptr

	// Structs.
	fields []field
	byName map[string]int
	// unknown is the offset of the struct's Unknown field; hasUnknown says
	// whether it has one.
	unknown    uintptr
	hasUnknown bool
	// entity is the struct's schema when it is an entity (it has a pk);
	// nil for a plain struct.
	entity *schema.Entity

	// elem is the element of a pointer, slice or map.
	elem *plan
	// cache remembers decoded pointers and slices of pointers by the
	// identity of the value they were decoded from; nil for other kinds.
	cache *idCache
	// shape is the schema of the type's values (an entity, a list of them,
	// an object with some, a Date); nil when nothing in it is normalized.
	shape schema.Schema
}

// field is one struct field that maps to a member.
type field struct {
	name      string // the member's name
	goName    string // the Go field's name, for errors
	off       uintptr
	plan      *plan
	omitEmpty bool
	pk        bool
	// collection is the collection tag option: the field's list (or map)
	// of entities is a schema.Collection, which Push and the other
	// derived endpoints add to.
	collection bool
}

var (
	valueType   = reflect.TypeFor[value.Value]()
	unknownType = reflect.TypeFor[Unknown]()
	timeType    = reflect.TypeFor[time.Time]()
	keyerType   = reflect.TypeFor[interface{ EntityKey() string }]()
)

// plans holds every finished plan by type; planMu serializes building them.
var (
	plans  sync.Map // reflect.Type → *plan
	planMu sync.Mutex
)

// planOf returns the plan of t, building it (and the plans of the types it
// holds) on first use. An error names the type and field that cannot be
// decoded, such as a func field.
func planOf(t reflect.Type) (*plan, error) {
	if p, ok := plans.Load(t); ok {
		return p.(*plan), nil
	}
	planMu.Lock()
	defer planMu.Unlock()
	b := &builder{building: map[reflect.Type]*plan{}}
	p, err := b.plan(t, t.String())
	if err != nil {
		return nil, err
	}
	// Schemas are filled in once every plan of the group exists, so that
	// entities that refer to each other (an Article's author, a User's
	// articles) point at each other's schema.
	for _, q := range b.order {
		q.shape = b.shapeOf(q)
	}
	for _, q := range b.order {
		if q.entity != nil {
			fillEntity(q)
		}
	}
	for t, q := range b.building {
		plans.Store(t, q)
	}
	return p, nil
}

// builder builds the plans of one type and those it holds.
type builder struct {
	building map[reflect.Type]*plan
	order    []*plan
	shapes   map[*plan]schema.Schema
}

func (b *builder) plan(t reflect.Type, where string) (*plan, error) {
	if p, ok := plans.Load(t); ok {
		return p.(*plan), nil
	}
	if p, ok := b.building[t]; ok {
		return p, nil
	}
	p := &plan{t: t, size: t.Size()}
	b.building[t] = p
	b.order = append(b.order, p)
	switch {
	case t == valueType:
		p.kind = kValue
		return p, nil
	case t == unknownType:
		p.kind = kUnknown
		return p, nil
	case t == timeType:
		p.kind = kTime
		return p, nil
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return nil, fmt.Errorf("df: %s: cannot decode into %s, an interface with methods", where, t)
		}
		p.kind = kAny
	case reflect.String:
		p.kind = kString
	case reflect.Bool:
		p.kind = kBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind = kInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.kind = kUint
	case reflect.Float32, reflect.Float64:
		p.kind = kFloat
	case reflect.Pointer:
		p.kind = kPtr
		elem, err := b.plan(t.Elem(), where)
		if err != nil {
			return nil, err
		}
		p.elem = elem
		if elem.kind == kStruct {
			p.cache = newIDCache()
		}
	case reflect.Slice:
		p.kind = kSlice
		elem, err := b.plan(t.Elem(), where+"[]")
		if err != nil {
			return nil, err
		}
		p.elem = elem
		if elem.kind == kPtr && elem.elem.kind == kStruct {
			p.cache = newIDCache()
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("df: %s: cannot decode into %s: map keys must be strings", where, t)
		}
		p.kind = kMap
		elem, err := b.plan(t.Elem(), where+"[]")
		if err != nil {
			return nil, err
		}
		p.elem = elem
	case reflect.Struct:
		p.kind = kStruct
		if err := b.structFields(p, t, 0, where); err != nil {
			return nil, err
		}
		if err := b.entityOf(p, t); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("df: %s: cannot decode into %s", where, t)
	}
	return p, nil
}

// structFields adds the fields of struct t, at offset base in the outer
// struct, to p. Embedded structs without a name of their own are flattened,
// as encoding/json does.
func (b *builder) structFields(p *plan, t reflect.Type, base uintptr, where string) error {
	if p.byName == nil {
		p.byName = map[string]int{}
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		name, opts, skip := fieldTag(sf)
		if skip {
			continue
		}
		if sf.Type == unknownType {
			if p.hasUnknown {
				return fmt.Errorf("df: %s: two Unknown fields", where)
			}
			p.unknown, p.hasUnknown = base+sf.Offset, true
			continue
		}
		if sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct && sf.Type != timeType {
			if err := b.structFields(p, sf.Type, base+sf.Offset, where); err != nil {
				return err
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = memberName(sf.Name)
		}
		if _, dup := p.byName[name]; dup {
			return fmt.Errorf("df: %s: two fields named %q", where, name)
		}
		fp, err := b.plan(sf.Type, where+"."+sf.Name)
		if err != nil {
			return err
		}
		f := field{name: name, goName: sf.Name, off: base + sf.Offset, plan: fp}
		f.pk = hasOpt(opts, "pk")
		f.omitEmpty = hasOpt(opts, "omitempty") || hasOpt(opts, "omitzero")
		if f.collection = hasOpt(opts, "collection"); f.collection && !isCollectionType(sf.Type) {
			return fmt.Errorf("df: %s.%s: tagged collection, but %s is not a slice or map of entity pointers", where, sf.Name, sf.Type)
		}
		p.byName[name] = len(p.fields)
		p.fields = append(p.fields, f)
	}
	return nil
}

// entityOf makes p an entity when its struct has a primary key: a field
// tagged pk, or else one named "id".
func (b *builder) entityOf(p *plan, t reflect.Type) error {
	pk := -1
	for i, f := range p.fields {
		if f.pk {
			if pk >= 0 {
				return fmt.Errorf("df: %s: two pk fields, %s and %s", t, p.fields[pk].goName, f.goName)
			}
			pk = i
		}
	}
	if pk < 0 {
		if i, ok := p.byName["id"]; ok {
			pk = i
		}
	}
	if pk < 0 {
		return nil
	}
	p.fields[pk].pk = true
	key := t.Name()
	if reflect.PointerTo(t).Implements(keyerType) {
		key = reflect.New(t).Interface().(interface{ EntityKey() string }).EntityKey()
	}
	if key == "" {
		return fmt.Errorf("df: %s: an entity needs a named type or an EntityKey method", t)
	}
	p.entity = &schema.Entity{Key: key, PK: p.fields[pk].name}
	return nil
}

// shapeOf returns the schema of p's values, from the plans of its parts:
// an entity is its own shape (its fields are in the entity's Schema), a
// pointer that of what it points to, a slice or map of something with a
// shape a list or values of it, a plain struct an object of its fields that
// have one. nil means nothing in the values is normalized. A type that holds
// itself without an entity in between (a tree of plain nodes) is plain.
func (b *builder) shapeOf(p *plan) schema.Schema {
	if p.entity != nil {
		return p.entity
	}
	if _, inGroup := b.building[p.t]; !inGroup {
		return p.shape // a finished plan of an earlier group
	}
	if s, done := b.shapes[p]; done {
		return s
	}
	if b.shapes == nil {
		b.shapes = map[*plan]schema.Schema{}
	}
	b.shapes[p] = nil // while visiting: a cycle back here is plain
	var s schema.Schema
	switch p.kind {
	case kTime:
		s = schema.Date
	case kPtr:
		s = b.shapeOf(p.elem)
	case kSlice:
		if e := b.shapeOf(p.elem); e != nil {
			s = schema.ArrayOf(e)
		}
	case kMap:
		if e := b.shapeOf(p.elem); e != nil {
			s = schema.ValuesOf(e)
		}
	case kStruct:
		var fs []schema.Field
		for _, f := range p.fields {
			if e := b.shapeOf(f.plan); e != nil {
				if f.collection {
					e = schema.CollectionOf(e)
				}
				fs = append(fs, schema.Nested(f.name, e))
			}
		}
		if len(fs) > 0 {
			s = schema.ObjectOf(fs...)
		}
	}
	b.shapes[p] = s
	return s
}

// isCollectionType reports whether a field of type t can be tagged
// collection: a slice or a string-keyed map of pointers to structs (which
// must be entities: shapeOf then gives a list or values of them).
func isCollectionType(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
		if t.Kind() == reflect.Map && t.Key().Kind() != reflect.String {
			return false
		}
		e := t.Elem()
		return e.Kind() == reflect.Pointer && e.Elem().Kind() == reflect.Struct && e.Elem() != timeType
	}
	return false
}

// fillEntity completes p's entity: defaults for every field (the zero
// value of scalars, null for the rest) and the nested schemas.
func fillEntity(p *plan) {
	members := make([]value.Member, 0, len(p.fields))
	nested := map[string]schema.Schema{}
	for _, f := range p.fields {
		def := value.NullV
		if !f.pk {
			switch f.plan.kind {
			case kString:
				def = value.Str("")
			case kBool:
				def = value.False
			case kInt, kUint, kFloat:
				def = value.Int(0)
			}
		}
		members = append(members, value.M(f.name, def))
		if s := f.plan.shape; s != nil {
			nested[f.name] = s
		} else if f.plan.kind == kStruct && f.plan.entity != nil {
			nested[f.name] = f.plan.entity
		}
	}
	p.entity.Defaults = value.Obj(members...)
	if len(nested) > 0 {
		p.entity.Schema = nested
	}
}

// memberName is the member a field is named by when no tag names it: the
// Go name with its leading capitals lowered, as JSON APIs spell names
// ("Title" is "title", "ID" is "id", "URLPath" is "urlPath").
func memberName(goName string) string {
	r := []rune(goName)
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) {
		n-- // the last capital starts the next word: URLPath → urlPath
	}
	for i := range n {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

// ptrAt returns the address off bytes into p.
func ptrAt(p unsafe.Pointer, off uintptr) unsafe.Pointer { return unsafe.Add(p, off) }
