package schema_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

func TestCollectionPK(t *testing.T) {
	c := schema.CollectionOf(schema.ArrayOf(newUser()))
	for _, tt := range []struct {
		params, want string
	}{
		{`{}`, `{}`},
		{`{"b":2,"a":"x"}`, `{"a":"x","b":"2"}`},
		{`{"userId":5}`, `{"userId":"5"}`},
		{`{"userId":"5"}`, `{"userId":"5"}`},
	} {
		pk, err := c.PK(schema.Args{Params: value.MustParse(tt.params)})
		require.NoError(t, err)
		assert.Equal(t, tt.want, pk, tt.params)
	}
	pk, err := c.PK(schema.Args{})
	require.NoError(t, err)
	assert.Equal(t, `{}`, pk, "no params")

	keyed := &schema.Collection{Of: schema.ArrayOf(newUser()),
		ArgsKey: func(p, b value.Value) (value.Value, error) { return value.Obj(value.M("org", b.Get("org"))), nil }}
	pk, err = keyed.PK(schema.Args{Params: value.MustParse(`{"page":3}`), Body: value.MustParse(`{"org":"x"}`)})
	require.NoError(t, err)
	assert.Equal(t, `{"org":"x"}`, pk)

	bad := &schema.Collection{Of: schema.ArrayOf(newUser()),
		ArgsKey: func(p, b value.Value) (value.Value, error) { return value.Undef, errors.New("nope") }}
	_, err = schema.NormalizeArgs(bad, value.MustParse(`[]`), schema.Args{})
	require.ErrorContains(t, err, "argsKey: nope")
	_, err = schema.NormalizeArgs(&schema.Collection{Of: schema.ArrayOf(newUser()),
		ArgsKey: func(p, b value.Value) (value.Value, error) { return value.Int(3), nil }}, value.MustParse(`[]`), schema.Args{})
	require.ErrorContains(t, err, "collection args must be an object")
}

func TestCollectionCheck(t *testing.T) {
	require.ErrorContains(t, schema.Check(schema.CollectionOf(newUser())), "collection must hold a list")
	require.NoError(t, schema.Check(schema.CollectionOf(schema.ValuesOf(newUser()))))
	assert.False(t, schema.IsPlain(schema.CollectionOf(schema.ArrayOf(newUser()))))
}

// A collection nested in an entity is keyed by NestKey from its parent, so
// two users' lists are two collections, and a read of each is memoized.
func TestCollectionNested(t *testing.T) {
	todo := &schema.Entity{Key: "Todo", Defaults: value.MustParse(`{"id":null,"userId":null}`)}
	todos := &schema.Collection{Of: schema.ArrayOf(todo),
		NestKey: func(parent value.Value, _ string) (value.Value, error) {
			return value.Obj(value.M("userId", parent.Get("id"))), nil
		}}
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"todos":[]}`),
		Schema: map[string]schema.Schema{"todos": todos}}
	s := schema.ArrayOf(user)
	st, res := fill(t, s, `[{"id":"1","todos":[{"id":"a","userId":"1"}]},{"id":"2","todos":[{"id":"b","userId":"2"},{"id":"c","userId":"2"}]}]`)
	assert.NotNil(t, st.Slot(todos.TableKey(), `{"userId":"1"}`))
	assert.NotNil(t, st.Slot(todos.TableKey(), `{"userId":"2"}`))
	var memo schema.Memo
	v, status := schema.Denormalize(s, res, st, &memo, st.Version())
	require.Equal(t, schema.Found, status)
	assert.Equal(t, `[{"id":"1","todos":[{"id":"a","userId":"1"}]},{"id":"2","todos":[{"id":"b","userId":"2"},{"id":"c","userId":"2"}]}]`, v.JSON())

	// A push for user 2 (by body) changes user 2's list only.
	push, err := todos.Adder(schema.Push)
	require.NoError(t, err)
	n, err := schema.NormalizeArgs(push, value.MustParse(`{"id":"d","userId":"2"}`), schema.Args{Body: value.MustParse(`{"userId":2}`)})
	require.NoError(t, err)
	st.Apply(&store.Write{Entities: n.Entities, Collections: n.Collections})
	v2, _ := schema.Denormalize(s, res, st, &memo, st.Version())
	assert.True(t, value.Same(v.Elems()[0], v2.Elems()[0]), "user 1 unchanged: identical")
	assert.Equal(t, `{"id":"2","todos":[{"id":"b","userId":"2"},{"id":"c","userId":"2"},{"id":"d","userId":"2"}]}`, v2.Elems()[1].JSON())
	assert.True(t, value.Same(v.Elems()[1].Get("todos").Elems()[0], v2.Elems()[1].Get("todos").Elems()[0]))
}

func TestCollectionAdders(t *testing.T) {
	list := schema.CollectionOf(schema.ArrayOf(newUser()))
	_, err := list.Adder(schema.Assign)
	require.Error(t, err)
	_, err = schema.CollectionOf(schema.ValuesOf(newUser())).Adder(schema.Push)
	require.Error(t, err)

	st, res := fill(t, list, `[{"id":"1"},{"id":"2"}]`)
	read := func() string {
		v, _ := schema.Denormalize(list, res, st, nil, st.Version())
		out := ""
		for _, e := range v.Elems() {
			out += e.Get("id").Str()
		}
		return out
	}
	for _, tt := range []struct {
		op   schema.CollectionOp
		in   string
		want string
	}{
		{schema.Push, `{"id":"3"}`, "123"},
		{schema.Push, `[{"id":"4"},{"id":"1"}]`, "1234"}, // 1 is in it already
		{schema.Unshift, `{"id":"0"}`, "01234"},
		{schema.Unshift, `{"id":"3"}`, "30124"}, // moved to the front, once
		{schema.Remove, `[{"id":"0"},{"id":"9"}]`, "3124"},
	} {
		a, err := list.Adder(tt.op)
		require.NoError(t, err)
		n, err := schema.NormalizeArgs(a, value.MustParse(tt.in), schema.Args{})
		require.NoError(t, err, tt.op)
		st.Apply(&store.Write{Entities: n.Entities, Collections: n.Collections})
		assert.Equal(t, tt.want, read(), "%s %s", tt.op, tt.in)
	}
}
