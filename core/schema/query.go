package schema

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Queries: data read from the entity tables without an endpoint result
// (data-client's schema.All and schema.Query, ctrl.get).
//
// A queryable schema knows the normalized value a read of it starts from,
// given the caller's args: an Entity the pk its params name, All nothing at
// all (it reads its whole table). Query derives data from the read of a
// queryable schema. The controller denormalizes that input with a Memo of
// its own, so a query's read keeps its identity until an entity it read
// changes, as a result's read does.

// queryable is a schema that a Query can read from the cache alone: an
// Entity, All, a Union of entities, an Object of them, and a Collection
// (collection.go).
type queryable interface {
	Schema
	// queryInput returns the normalized value the read of the schema with
	// args starts from; ok false when args name nothing stored (the read
	// is then Undefined). An error says the args are not what the schema
	// takes.
	queryInput(args []value.Value) (input value.Value, ok bool, err error)
	// readSchema is the schema the read's value has, for a writer of it
	// (a bridge walks it for entities and dates).
	readSchema() Schema
}

// ErrNotQueryable is wrapped by the errors of QueryInput for a schema that
// a Query cannot read.
var ErrNotQueryable = errors.New("not queryable")

// QueryInput returns what a read of s with args starts from: the schema to
// denormalize, and the normalized input to denormalize by it (ok false:
// nothing to read, the read is Undefined). s is an Entity (args[0] are
// params naming its pk, as {id: 5}), an All, a Collection (args[0] are the
// params its list is stored for), or a Query over one of them,
// whose own schema is read. It may call an Entity's PKFunc: callers must
// not hold locks that function may need.
func QueryInput(s Schema, args []value.Value) (read Schema, input value.Value, ok bool, err error) {
	if q, isQuery := s.(*Query); isQuery {
		if q == nil || q.Schema == nil {
			return nil, value.Undef, false, fmtlite.Errorf("schema.Query has no schema to read: %w", ErrNotQueryable)
		}
		s = q.Schema
	}
	qs, isQueryable := s.(queryable)
	if !isQueryable || s == nil {
		return nil, value.Undef, false, fmtlite.Errorf("schema %s is %w: a Query reads an Entity by pk, an All, a Collection or an object of them", Describe(s), ErrNotQueryable)
	}
	input, ok, err = qs.queryInput(args)
	return s, input, ok, err
}

// ReadSchema returns the schema of the value a read of the queryable s
// has (All reads as a list of its entity), for writers that walk a read by
// its schema; s itself for any other schema.
func ReadSchema(s Schema) Schema {
	if q, ok := s.(queryable); ok {
		return q.readSchema()
	}
	return s
}

// Describe names s as error messages do (an entity by its key).
func Describe(s Schema) string {
	if s == nil {
		return "<nil>"
	}
	return s.describe()
}

// queryInput takes the pk from the first arg, params as for an endpoint
// of this entity ({id: 5}); params that name no pk read as nothing.
func (e *Entity) queryInput(args []value.Value) (value.Value, bool, error) {
	if len(args) == 0 {
		return value.Undef, false, fmtlite.Errorf("reading entity %s needs params naming its pk, as {%s: ...}", e.Key, e.pkField())
	}
	pk, ok := e.PKFromParams(args[0])
	if !ok {
		return value.Undef, false, nil
	}
	return value.Str(pk), true, nil
}

func (e *Entity) readSchema() Schema { return e }

// queryInput reads an object of schemas (data-client's Query over
// {results: All(User)}): each member that has a schema is read as that
// schema with args. A member that names nothing stored, or whose schema
// a read from the cache alone cannot start (a list, a union), makes the
// whole read nothing, as in data-client. Defaults are filled by the read.
func (o *Object) queryInput(args []value.Value) (value.Value, bool, error) {
	members := make([]value.Member, 0, len(o.Fields))
	for _, f := range o.Fields {
		if f.Schema == nil {
			continue
		}
		q, isQueryable := f.Schema.(queryable)
		if !isQueryable {
			return value.Undef, false, nil
		}
		in, ok, err := q.queryInput(args)
		if err != nil || !ok {
			return value.Undef, false, err
		}
		members = append(members, value.M(f.Name, in))
	}
	return value.Obj(members...), true, nil
}

func (o *Object) readSchema() Schema { return o }

// queryInput reads the member entity args[0] names by the union's
// attribute (data-client's ctrl.get(union, {id, type})), by the pk those
// params name, as the union's normalized {id, schema}. Params that name
// no entity member, or no pk, read as nothing.
func (u *Union) queryInput(args []value.Value) (value.Value, bool, error) {
	if len(args) == 0 || args[0].Kind() != value.Object {
		return value.Undef, false, nil
	}
	name, m := u.choose(args[0], value.Undef, nil)
	e, isEntity := m.(*Entity)
	if !isEntity {
		return value.Undef, false, nil
	}
	pk, ok := e.PKFromParams(args[0])
	if !ok {
		return value.Undef, false, nil
	}
	return value.Obj(value.M("id", value.Str(pk)), value.M("schema", value.Str(name))), true, nil
}

func (u *Union) readSchema() Schema { return u }

// All is every stored entity of Entity that is not deleted, optimistic
// records included, as a list in pk order (numeric pks by number, before
// the others, which are in string order). Read by a Query or
// Controller.Get it depends on the whole table: any record of that type
// stored, changed or removed gives a new list. As an endpoint's schema it
// normalizes as a list of Entity and reads as the whole table.
//
// An All made by AllOfUnion is polymorphic (data-client's new All({a: A,
// b: B}, attr)): it has no Entity, lists the tables of the union's
// entities one after the other, in the union's member order, and
// normalizes as a list of the union.
type All struct {
	Entity *Entity
	list   *Array // the read schema: a list of Entity, or of the union
}

// AllOf returns the All schema of e.
func AllOf(e *Entity) *All { return &All{Entity: e, list: ArrayOf(e)} }

// AllOfUnion returns the polymorphic All schema of u's entities, listed in
// the order of u.Names (members it does not name are not listed).
func AllOfUnion(u *Union) *All { return &All{list: ArrayOf(u)} }

func (a *All) describe() string {
	if a.Entity == nil {
		return "All(union)"
	}
	return "All(" + Describe(a.Entity) + ")"
}

// queryInput has no use for args: the input is the whole table, which
// any list stands for (null reads as null; see denormalize).
func (a *All) queryInput([]value.Value) (value.Value, bool, error) {
	if a.Entity == nil && a.list == nil {
		return value.Undef, false, errors.New("schema.All has no entity")
	}
	return value.Arr(), true, nil
}

func (a *All) readSchema() Schema {
	if a.list == nil {
		return ArrayOf(a.Entity)
	}
	return a.list
}

func (a *All) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	return a.readSchema().normalize(in, parent, path, n)
}

// Entities returns the entities whose tables a lists, in the order it
// lists them: Entity, or the union's entities in the order of its Names
// (as in data-client, an entity named twice is listed twice).
func (a *All) Entities() []*Entity {
	u, isUnion := a.readSchema().(*Array).Of.(*Union)
	if !isUnion {
		return []*Entity{a.Entity}
	}
	var out []*Entity
	for _, name := range u.Names {
		if e, isEntity := u.Schemas[name].(*Entity); isEntity {
			out = append(out, e)
		}
	}
	return out
}

// TableSource is a Source that can list an entity table. A store is one;
// All reads only from one (from another it reads as an empty list).
type TableSource interface {
	Source
	// TablePKs returns the pks of every entity of type key stored (deleted
	// ones included), in pk order (see All). The caller must not change it.
	TablePKs(key string) []string
	// TableVersion changes whenever an entity of type key is stored,
	// changed or removed, and never comes back to an earlier value.
	TableVersion(key string) uint64
}

// tableDep is a table a read listed, at the version it had.
type tableDep struct {
	key     string
	version uint64
}

// denormalize lists the tables whatever list v is (the pks a response of
// it normalized to, or a query's empty list); null (a field or a
// response that held null) reads as null, as data-client's does.
func (a *All) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	if v.IsNull() {
		return v, Found
	}
	ts, ok := d.src.(TableSource)
	if !ok {
		return value.Arr(), Found
	}
	var out []value.Value
	for _, e := range a.Entities() {
		if e == nil {
			continue
		}
		key := e.Key
		r := d.deps.more()
		r.tables = append(r.tables, tableDep{key: key, version: ts.TableVersion(key)})
		pks := ts.TablePKs(key)
		d.deps.kids = slices.Grow(d.deps.kids, len(pks))
		for _, pk := range pks {
			v, st := e.denormalize(value.Str(pk), d)
			if st != Found || v.IsUndefined() {
				continue
			}
			out = append(out, v)
		}
	}
	return value.Arr(out...), Found
}

// Query is data derived from the read of a queryable schema (an Entity by
// pk, an All, a Collection): Process gets that read (Undefined reads are
// not processed: the query reads as Undefined) and the args of the read,
// and returns the derived value, such as the published articles sorted by
// title. Controller.Get memoizes it: Process runs again only when its
// input is a new value (an entity it read changed) or the args differ.
// Process must not change its input, which other reads share. A nil
// Process reads the input as is (the JavaScript bridge runs its process
// on that side).
type Query struct {
	Schema  Schema
	Process func(entries value.Value, args []value.Value) value.Value
}

// QueryOf returns the Query of process over s.
func QueryOf(s Schema, process func(entries value.Value, args []value.Value) value.Value) *Query {
	return &Query{Schema: s, Process: process}
}

func (q *Query) describe() string { return "Query(" + Describe(q.Schema) + ")" }

func (q *Query) normalize(_, _ value.Value, path *pathElem, _ *normalizer) (value.Value, error) {
	return value.Undef, errorAt(path, q, "a Query is read from the cache (Controller.Get), not normalized")
}

// denormalize reads the query's schema; Process is the controller's to
// run, outside its lock.
func (q *Query) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	return q.Schema.denormalize(v, d)
}

// ComparePKs orders pks as All lists them: numeric pks (as JavaScript
// orders an object's integer keys) by number before the others, which
// compare as strings.
func ComparePKs(a, b string) int {
	na, aNum := pkNumber(a)
	nb, bNum := pkNumber(b)
	switch {
	case aNum && bNum:
		if na != nb {
			if na < nb {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	case aNum:
		return -1
	case bNum:
		return 1
	}
	return strings.Compare(a, b)
}

// SortPKs sorts pks in ComparePKs order. Each pk is read as a number once
// rather than at every comparison (ComparePKs parses both of its pks: a
// read of All over 500 articles, once per table version, spent most of
// its time there): it is sorted by a key that compares as bytes, a
// numeric pk as numKey and its value in pkDigits zero-padded digits, any
// other as strKey and itself. Sorting strings reuses the sort the
// package's other string sorts link in, rather than a new one for a
// struct of fields (most of a kilobyte of wasm).
func SortPKs(pks []string) {
	// The keys are written into one buffer, made one string, and sliced
	// from it: one allocation for them all rather than one a pk.
	size := 0
	for _, pk := range pks {
		size += 1 + pkDigits + len(pk)
	}
	b := make([]byte, 0, size)
	ends := make([]int, len(pks))
	for i, pk := range pks {
		if n, num := pkNumber(pk); num {
			b = append(b, numKey)
			for d := pkDigits - 1; d >= 0; d-- {
				b = append(b, '0'+byte(n/pow10[d]%10))
			}
		} else {
			b = append(b, strKey)
		}
		b = append(b, pk...)
		ends[i] = len(b)
	}
	all := string(b)
	keys := make([]string, len(pks))
	start := 0
	for i, end := range ends {
		keys[i], start = all[start:end], end
	}
	slices.Sort(keys)
	for i, k := range keys {
		if k[0] == numKey {
			pks[i] = k[1+pkDigits:]
		} else {
			pks[i] = k[1:]
		}
	}
}

// The sort keys of SortPKs: numeric pks first, with their value in
// pkDigits digits (as many as the largest uint64 has).
const (
	numKey   = '\x00'
	strKey   = '\x01'
	pkDigits = 20
)

// pow10[d] is 10 to the power d, for d < pkDigits.
var pow10 = func() (p [pkDigits]uint64) {
	p[0] = 1
	for d := 1; d < pkDigits; d++ {
		p[d] = p[d-1] * 10
	}
	return p
}()

// pkNumber reads a canonical non-negative integer pk ("0", "42"; not "042").
func pkNumber(s string) (uint64, bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}
