package schema_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// Schema shapes of data-client's own tests (issue 22, item 5): an
// Invalidate of a union, unions with members that are not entities, a
// polymorphic All, and a Query over an object of schemas.

// pets returns entities Cat, Dog and Person, each with a type member, and
// a union of them chosen by it (declared Cat, dogs, people).
func pets() (cat, dog, person *schema.Entity, union *schema.Union) {
	mk := func(key string) *schema.Entity {
		return &schema.Entity{Key: key, Defaults: value.MustParse(`{"id":null,"type":""}`)}
	}
	cat, dog, person = mk("Cat"), mk("Dog"), mk("Person")
	union = &schema.Union{
		Schemas:   map[string]schema.Schema{"Cat": cat, "dogs": dog, "people": person},
		Names:     []string{"Cat", "dogs", "people"},
		Attribute: "type",
	}
	return cat, dog, person, union
}

// storeWrite is the store write of n, a response of s stored under key.
func storeWrite(key string, s schema.Schema, n *schema.Normalized) *store.Write {
	return &store.Write{Key: key, Schema: s, Result: n.Result, Entities: n.Entities}
}

// writes lists a normalization's writes as "Key:pk" (with "!" when
// deleted).
func writes(n *schema.Normalized) []string {
	out := []string{}
	for _, w := range n.Entities {
		s := w.Entity.Key + ":" + w.PK
		if w.Deleted {
			s += "!"
		}
		out = append(out, s)
	}
	return out
}

func TestInvalidateUnion(t *testing.T) {
	_, _, _, union := pets()
	byFunc := &schema.Union{Schemas: union.Schemas, AttributeFunc: func(in, _ value.Value, _ string) string {
		return in.Get("type").Str()
	}}
	for _, c := range []struct {
		name   string
		schema schema.Schema
		in     string
		result string
		writes []string
	}{
		{"by attribute", schema.InvalidateOfUnion(union), `{"id":"1","type":"Cat"}`, `{"id":"1","schema":"Cat"}`, []string{"Cat:1!"}},
		{"by function", schema.InvalidateOfUnion(byFunc), `{"id":2,"type":"dogs"}`, `{"id":"2","schema":"dogs"}`, []string{"Dog:2!"}},
		{"in a list", schema.ArrayOf(schema.InvalidateOfUnion(union)), `[{"id":"1","type":"Cat"},{"id":"2","type":"people"}]`,
			`[{"id":"1","schema":"Cat"},{"id":"2","schema":"people"}]`, []string{"Cat:1!", "Person:2!"}},
		{"no member: kept", schema.InvalidateOfUnion(union), `{"id":"1","type":"robot"}`, `{"id":"1","type":"robot"}`, []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, schema.Check(c.schema))
			n, err := schema.Normalize(c.schema, value.MustParse(c.in))
			require.NoError(t, err)
			assert.JSONEq(t, c.result, n.Result.JSON())
			assert.Equal(t, c.writes, writes(n))
		})
	}

	// Reading it back: the entity is deleted, as Invalidate of an entity
	// reads it (data-client's INVALID); alive, it reads as its record.
	st, res := fill(t, schema.InvalidateOfUnion(union), `{"id":"1","type":"Cat"}`)
	v, status := schema.Denormalize(schema.InvalidateOfUnion(union), res, st, nil, st.Version())
	assert.Equal(t, schema.Deleted, status)
	assert.True(t, v.IsUndefined())
	st, res = fill(t, union, `{"id":"1","type":"Cat"}`)
	v, status = schema.Denormalize(schema.InvalidateOfUnion(union), res, st, nil, st.Version())
	assert.Equal(t, schema.Found, status)
	assert.JSONEq(t, `{"id":"1","type":"Cat"}`, v.JSON())

}

// TestUnionMemberNotAnEntity: a union member may be any schema (as
// data-client's schema.Object({}) for the records that are not
// entities): its value is normalized by it and kept as the id.
func TestUnionMemberNotAnEntity(t *testing.T) {
	cat, _, _, _ := pets()
	owner := newUser()
	union := &schema.Union{
		Schemas: map[string]schema.Schema{
			"Cat":  cat,
			"dogs": schema.ObjectOf(schema.Nested("owner", owner)),
		},
		AttributeFunc: func(in, _ value.Value, _ string) string {
			if t, ok := in.Get("type").Text(); ok {
				return t
			}
			return "dogs"
		},
	}
	list := schema.ArrayOf(union)
	in := `[{"type":"Cat","id":"1"},{"id":"789","name":"fido","owner":{"id":"u1","name":"Ann"}}]`
	n, err := schema.Normalize(list, value.MustParse(in))
	require.NoError(t, err)
	assert.JSONEq(t, `[{"id":"1","schema":"Cat"},{"id":{"id":"789","name":"fido","owner":"u1"},"schema":"dogs"}]`, n.Result.JSON())
	assert.Equal(t, []string{"Cat:1", "User:u1"}, writes(n))

	st, res := fill(t, list, in)
	v, status := schema.Denormalize(list, res, st, nil, st.Version())
	assert.Equal(t, schema.Found, status)
	assert.JSONEq(t, `[{"id":"1","type":"Cat"},{"id":"789","name":"fido","owner":{"id":"u1","name":"Ann"}}]`, v.JSON())
	require.NoError(t, schema.CheckNormalized(list, res))
	var refs []string
	schema.Refs(list, res, func(e *schema.Entity, pk string) { refs = append(refs, e.Key+":"+pk) })
	assert.Equal(t, []string{"Cat:1", "User:u1"}, refs)
}

// TestAllOfUnion: a polymorphic All lists the tables of the union's
// entities in the union's member order (each entity once), leaving out
// deleted ones (an entity named twice is listed twice, as data-client
// does); as an endpoint's schema it normalizes as a list of the union.
func TestAllOfUnion(t *testing.T) {
	cat, _, _, union := pets()
	twice := &schema.Union{Schemas: map[string]schema.Schema{"Cat": cat, "kitten": cat}, Names: []string{"Cat", "kitten"}, Attribute: "type"}
	data := `[{"id":"2","type":"Cat"},{"id":"1","type":"people"},{"id":"1","type":"Cat"},{"id":"1","type":"dogs"},{"id":"3","type":"Cat"}]`
	for _, c := range []struct {
		name string
		all  *schema.All
		want string
	}{
		{"member order", schema.AllOfUnion(union),
			`[{"id":"1","type":"Cat"},{"id":"2","type":"Cat"},{"id":"1","type":"dogs"},{"id":"1","type":"people"}]`},
		{"one entity under two names", schema.AllOfUnion(twice),
			`[{"id":"1","type":"Cat"},{"id":"2","type":"Cat"},{"id":"1","type":"Cat"},{"id":"2","type":"Cat"}]`},
		{"only the members named", schema.AllOfUnion(&schema.Union{Schemas: union.Schemas, Names: []string{"people", "Cat"}, Attribute: "type"}),
			`[{"id":"1","type":"people"},{"id":"1","type":"Cat"},{"id":"2","type":"Cat"}]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, res := fill(t, c.all, data)
			assert.Equal(t, `{"id":"2","schema":"Cat"}`, res.Elems()[0].JSON(), "normalized as a list of the union")
			n, err := schema.Normalize(schema.InvalidateOf(cat), value.MustParse(`"3"`))
			require.NoError(t, err)
			st.Apply(storeWrite("del", schema.InvalidateOf(cat), n))
			read, input, ok, err := schema.QueryInput(c.all, nil)
			require.NoError(t, err)
			require.True(t, ok)
			v, status := schema.Denormalize(read, input, st, nil, st.Version())
			assert.Equal(t, schema.Found, status)
			assert.JSONEq(t, c.want, v.JSON())
		})
	}
}

// TestQueryOverObject: a Query (or Controller.Get) reads an object of
// queryable schemas, each member with the same args, defaults filled; a
// member that finds nothing, or that a read from the cache cannot start,
// makes the read nothing.
func TestQueryOverObject(t *testing.T) {
	user := newUser()
	st, _ := fill(t, schema.ArrayOf(user), `[{"id":"2","name":"b"},{"id":"1","name":"a"}]`)
	page := schema.ObjectOf(schema.Nested("results", schema.AllOf(user)), schema.Default("nextPage", value.Str("")))
	for _, c := range []struct {
		name   string
		schema schema.Schema
		args   string
		want   string // "" when the read finds nothing
	}{
		{"All in an object", page, `[]`, `{"results":[{"id":"1","name":"a"},{"id":"2","name":"b"}],"nextPage":""}`},
		{"a Query over it", schema.QueryOf(page, nil), `[]`, `{"results":[{"id":"1","name":"a"},{"id":"2","name":"b"}],"nextPage":""}`},
		{"an entity by the args", schema.ObjectOf(schema.Nested("user", user), schema.Nested("all", schema.AllOf(user))), `[{"id":"2"}]`,
			`{"user":{"id":"2","name":"b"},"all":[{"id":"1","name":"a"},{"id":"2","name":"b"}]}`},
		{"nested objects", schema.ObjectOf(schema.Nested("a", schema.ObjectOf(schema.Nested("u", user)))), `[{"id":"1"}]`, `{"a":{"u":{"id":"1","name":"a"}}}`},
		{"an entity the args do not name", schema.ObjectOf(schema.Nested("user", user)), `[{"other":1}]`, ``},
		{"an entity not stored", schema.ObjectOf(schema.Nested("user", user)), `[{"id":"9"}]`, ``},
		{"a list is not read from the cache", schema.ObjectOf(schema.Nested("users", schema.ArrayOf(user))), `[]`, ``},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, read := readQuery(t, c.schema, c.args, st)
			if c.want == "" {
				assert.True(t, v.IsUndefined(), "read nothing, got %s", v.JSON())
				return
			}
			assert.JSONEq(t, c.want, v.JSON())
			assert.Equal(t, read, schema.ReadSchema(read))
		})
	}
}

// TestUnionUnknown: what a union keeps because no member takes it is
// told to Unknown (data-client warns): on a normalize, a record whose
// attribute names no member, with that attribute; on a read, a value
// that names no member and whose attribute names none, unless it is
// falsy. A record never normalized is read by the member its attribute
// names.
func TestUnionUnknown(t *testing.T) {
	_, _, _, union := pets()
	var told []string
	union.Unknown = func(v value.Value, attr string, reading bool) {
		told = append(told, fmt.Sprintf("%s %q %v", v.JSON(), attr, reading))
	}
	n, err := schema.Normalize(schema.ArrayOf(union), value.MustParse(`[{"id":"1","type":"Cat"},{"id":"2","type":"robot"}]`))
	require.NoError(t, err)
	assert.JSONEq(t, `[{"id":"1","schema":"Cat"},{"id":"2","type":"robot"}]`, n.Result.JSON())
	assert.Equal(t, []string{`{"id":"2","type":"robot"} "robot" false`}, told)

	st, _ := fill(t, schema.ArrayOf(union), `[{"id":"1","type":"Cat"}]`)
	for _, c := range []struct {
		name, in, want string
		told           []string
	}{
		{"normalized", `{"id":"1","schema":"Cat"}`, `{"id":"1","type":"Cat"}`, nil},
		{"a record, inferred", `{"id":"9","type":"people"}`, `{"id":"9","type":"people"}`, nil},
		{"a record no member takes", `{"id":"2","type":"robot"}`, `{"id":"2","type":"robot"}`, []string{`{"id":"2","type":"robot"} "" true`}},
		{"a string", `"1"`, `"1"`, []string{`"1" "" true`}},
		{"falsy: no report", `""`, `""`, nil},
		{"null: no report", `null`, `null`, nil},
		{"an unknown schema name: kept, no report", `{"id":"1","schema":"robot"}`, `{"id":"1","schema":"robot"}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			told = nil
			v, status := schema.Denormalize(union, value.MustParse(c.in), st, nil, st.Version())
			assert.Equal(t, schema.Found, status)
			assert.JSONEq(t, c.want, v.JSON())
			assert.Equal(t, c.told, told)
		})
	}
}

// TestAllNull: an All that holds null (a field stored as null, a response
// of null) reads as null, as data-client's; any list reads as the table,
// and a query (QueryInput) reads the table.
func TestAllNull(t *testing.T) {
	filling := &schema.Entity{Key: "Filling", Defaults: value.MustParse(`{"id":""}`)}
	taco := &schema.Entity{Key: "Taco", Defaults: value.MustParse(`{"id":"","fillings":[]}`),
		Schema: map[string]schema.Schema{"fillings": schema.AllOf(filling)}}
	st := storeOf(t, `{"Filling":{"1":{"id":"1"}},"Taco":{"a":{"id":"a","fillings":null},"b":{"id":"b","fillings":["x"]},"c":{"id":"c"}}}`, filling, taco)
	for pk, want := range map[string]string{
		"a": `{"id":"a","fillings":null}`,
		"b": `{"id":"b","fillings":[{"id":"1"}]}`,
		"c": `{"id":"c","fillings":[{"id":"1"}]}`,
	} {
		v, status := schema.Denormalize(taco, value.Str(pk), st, nil, st.Version())
		assert.Equal(t, schema.Found, status, pk)
		assert.JSONEq(t, want, v.JSON(), pk)
	}
	v, _ := schema.Denormalize(schema.AllOf(filling), value.NullV, st, nil, st.Version())
	assert.True(t, v.IsNull(), "a response of null")
	read, input, ok, err := schema.QueryInput(schema.AllOf(filling), nil)
	require.NoError(t, err)
	require.True(t, ok)
	v, _ = schema.Denormalize(read, input, st, nil, st.Version())
	assert.JSONEq(t, `[{"id":"1"}]`, v.JSON(), "a query")
}

// readQuery reads the queryable schema s from st with the JSON array args,
// as ctrl.get does, and returns what it read (undefined when it finds
// nothing) and the schema the read was made by.
func readQuery(t *testing.T, s schema.Schema, args string, st *store.Store) (value.Value, schema.Schema) {
	t.Helper()
	read, input, ok, err := schema.QueryInput(s, value.MustParse(args).Elems())
	require.NoError(t, err)
	if !ok {
		return value.Undef, read
	}
	v, status := schema.Denormalize(read, input, st, nil, st.Version())
	if status != schema.Found {
		return value.Undef, read
	}
	return v, read
}
