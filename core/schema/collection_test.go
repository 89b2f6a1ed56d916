package schema_test

import (
	"errors"
	"strings"
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

// todoLists stores the lists of todos fetched with each params (JSON
// text) in a new store, and returns it with a reader of the list stored
// for params: its ids, in order.
// applyAdder normalizes in (JSON) through c's adder op with params and
// body (JSON; body may be empty) and applies what it wrote to st.
func applyAdder(t *testing.T, st *store.Store, c *schema.Collection, op schema.CollectionOp, in, params, body string) {
	t.Helper()
	a, err := c.Adder(op)
	require.NoError(t, err)
	args := schema.Args{Params: value.MustParse(params)}
	if body != "" {
		args.Body = value.MustParse(body)
	}
	n, err := schema.NormalizeArgs(a, value.MustParse(in), args)
	require.NoError(t, err)
	st.Apply(&store.Write{Entities: n.Entities, Collections: n.Collections})
}

func todoLists(t *testing.T, c *schema.Collection, lists map[string]string) (*store.Store, func(params string) string) {
	t.Helper()
	st := store.New()
	for _, params := range []string{`{}`, `{"userId":"1"}`, `{"userId":"2"}`, `{"userId":"1","completed":"true"}`, `{"userId":"1","completed":"false"}`, `{"userId":"1","ignoredMe":"5"}`} {
		data, ok := lists[params]
		if !ok {
			continue
		}
		n, err := schema.NormalizeArgs(c, value.MustParse(data), schema.Args{Params: value.MustParse(params)})
		require.NoError(t, err, params)
		st.Apply(&store.Write{Entities: n.Entities, Collections: n.Collections})
		st.Apply(&store.Write{Key: params, Schema: c, Result: n.Result, Entities: n.Entities})
	}
	return st, func(params string) string {
		pk, err := c.PK(schema.Args{Params: value.MustParse(params)})
		require.NoError(t, err)
		v, _ := schema.Denormalize(c, value.Str(pk), st, nil, st.Version())
		out := ""
		switch v.Kind() {
		case value.Array:
			for _, e := range v.Elems() {
				out += e.Get("id").Str() + " "
			}
		case value.Object:
			for _, m := range v.Members() {
				out += m.Key + " "
			}
		}
		return out
	}
}

func newTodo() *schema.Entity {
	return &schema.Entity{Key: "Todo", Defaults: value.MustParse(`{"id":null,"userId":null,"title":""}`)}
}

// A move (data-client's collection.move) takes the entity out of the
// collections its stored record matched and its new values do not, and
// adds it to those it matches now and did not before; the others are
// left alone, the unfiltered one included.
func TestCollectionMove(t *testing.T) {
	twoUsers := map[string]string{
		`{"userId":"1"}`: `[{"id":"10","userId":1},{"id":"11","userId":1}]`,
		`{"userId":"2"}`: `[{"id":"20","userId":2}]`,
		`{}`:             `[{"id":"10","userId":1},{"id":"20","userId":2}]`,
	}
	for _, tt := range []struct {
		name         string
		values       bool
		lists        map[string]string
		in           string
		params, body string
		merge        func(existing, incoming value.Value) value.Value
		want         map[string]string // params -> ids
	}{
		{name: "between lists", lists: twoUsers, in: `{"id":"10","userId":2}`, params: `{"id":"10"}`, body: `{"userId":"2"}`,
			want: map[string]string{`{"userId":"1"}`: "11 ", `{"userId":"2"}`: "20 10 ", `{}`: "10 20 "}},
		{name: "one arg holds all", lists: twoUsers, in: `{"id":"10","userId":2}`, params: `{"id":"10","userId":"2"}`,
			want: map[string]string{`{"userId":"1"}`: "11 ", `{"userId":"2"}`: "20 10 "}},
		{name: "list input", lists: twoUsers, in: `[{"id":"10","userId":2},{"id":"11","userId":2}]`, params: `{}`,
			want: map[string]string{`{"userId":"1"}`: "", `{"userId":"2"}`: "20 10 11 "}},
		{name: "stays", lists: twoUsers, in: `{"id":"10","userId":1,"title":"new"}`, params: `{"id":"10"}`, body: `{"userId":1}`,
			want: map[string]string{`{"userId":"1"}`: "10 11 ", `{"userId":"2"}`: "20 "}},
		{name: "not stored yet: joins only", lists: twoUsers, in: `{"id":"30","userId":2}`, params: `{"id":"30"}`, body: `{"userId":2}`,
			want: map[string]string{`{"userId":"1"}`: "10 11 ", `{"userId":"2"}`: "20 30 ", `{}`: "10 20 30 "}},
		{name: "several args", lists: map[string]string{
			`{"userId":"1","completed":"true"}`:  `[{"id":"10","userId":1,"completed":true}]`,
			`{"userId":"1","completed":"false"}`: `[{"id":"20","userId":1,"completed":false}]`,
			`{"userId":"1"}`:                     `[{"id":"10","userId":1},{"id":"20","userId":1}]`,
			`{"userId":"2"}`:                     `[{"id":"30","userId":2}]`,
		}, in: `{"id":"10","userId":2,"completed":true}`, params: `{"id":"10"}`, body: `{"userId":"2","completed":"true"}`,
			want: map[string]string{`{"userId":"1","completed":"true"}`: "", `{"userId":"1","completed":"false"}`: "20 ",
				`{"userId":"1"}`: "20 ", `{"userId":"2"}`: "30 10 "}},
		{name: "values", values: true, lists: map[string]string{
			`{"userId":"1"}`: `{"10":{"id":"10","userId":1},"11":{"id":"11","userId":1}}`,
			`{"userId":"2"}`: `{"20":{"id":"20","userId":2}}`,
		}, in: `{"id":"10","userId":2}`, params: `{"id":"10"}`, body: `{"userId":"2"}`,
			want: map[string]string{`{"userId":"1"}`: "11 ", `{"userId":"2"}`: "20 10 "}},
		// moveWith(merge): the merge joins; leaving is still a removal.
		{name: "merge: unshift", lists: twoUsers, in: `{"id":"10","userId":2}`, params: `{"id":"10"}`, body: `{"userId":"2"}`,
			merge: func(ex, in value.Value) value.Value { return value.Arr(append(in.Elems(), ex.Elems()...)...) },
			want:  map[string]string{`{"userId":"1"}`: "11 ", `{"userId":"2"}`: "10 20 ", `{}`: "10 20 "}},
		{name: "merge: list input", lists: twoUsers, in: `[{"id":"10","userId":2},{"id":"11","userId":2}]`, params: `{}`,
			merge: func(ex, in value.Value) value.Value { return value.Arr(append(in.Elems(), ex.Elems()...)...) },
			want:  map[string]string{`{"userId":"1"}`: "", `{"userId":"2"}`: "11 10 20 "}},
		{name: "merge: values", values: true, lists: map[string]string{
			`{"userId":"1"}`: `{"10":{"id":"10","userId":1},"11":{"id":"11","userId":1}}`,
			`{"userId":"2"}`: `{"20":{"id":"20","userId":2}}`,
		}, in: `{"id":"10","userId":2}`, params: `{"id":"10"}`, body: `{"userId":"2"}`,
			merge: func(ex, in value.Value) value.Value { return schema.ShallowMerge(in, ex) },
			want:  map[string]string{`{"userId":"1"}`: "11 ", `{"userId":"2"}`: "10 20 "}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var of schema.Schema = schema.ArrayOf(newTodo())
			if tt.values {
				of = schema.ValuesOf(newTodo())
			}
			c := schema.CollectionOf(of)
			st, read := todoLists(t, c, tt.lists)
			if tt.merge == nil {
				applyAdder(t, st, c, schema.Move, tt.in, tt.params, tt.body)
			} else {
				mover, err := c.Adder(schema.Move)
				require.NoError(t, err)
				mover.Merge = tt.merge
				args := schema.Args{Params: value.MustParse(tt.params)}
				if tt.body != "" {
					args.Body = value.MustParse(tt.body)
				}
				n, err := schema.NormalizeArgs(mover, value.MustParse(tt.in), args)
				require.NoError(t, err)
				st.Apply(&store.Write{Entities: n.Entities, Collections: n.Collections})
			}
			for params, want := range tt.want {
				assert.Equal(t, want, read(params), params)
			}
		})
	}
}

// nonFilterArgumentKeys: the args keys NonFilter names do not decide
// which collections a push, a remove or a move changes; without it, keys
// named order* and sort* do not.
func TestCollectionNonFilter(t *testing.T) {
	lists := map[string]string{
		`{"userId":"1"}`:                 `[{"id":"10","userId":1}]`,
		`{"userId":"1","ignoredMe":"5"}`: `[{"id":"10","userId":1}]`,
		`{"userId":"2"}`:                 `[{"id":"20","userId":2}]`,
		`{}`:                             `[{"id":"10","userId":1},{"id":"20","userId":2}]`,
	}
	ignored := func(k string) bool { return strings.HasPrefix(k, "ignored") }
	// filter is a createCollectionFilter that skips ignored* keys and
	// compares the rest with the params, then the body.
	// Values compare as text, as data-client's `${args[0][key]}` === value.
	text := func(v value.Value) string { s, _ := v.Text(); return s }
	filter := func(ca, params, body value.Value) bool {
		for _, m := range ca.Members() {
			if !ignored(m.Key) && text(params.Get(m.Key)) != m.Value.Str() && text(body.Get(m.Key)) != m.Value.Str() {
				return false
			}
		}
		return true
	}
	for _, tt := range []struct {
		name      string
		nonFilter func(string) bool
		filter    func(ca, params, body value.Value) bool
		op        schema.CollectionOp
		in        string
		params    string
		body      string
		want      map[string]string
	}{
		{name: "push", nonFilter: ignored, op: schema.Push, in: `{"id":"30","userId":1}`, params: `{"userId":"1"}`,
			want: map[string]string{`{"userId":"1"}`: "10 30 ", `{"userId":"1","ignoredMe":"5"}`: "10 30 ", `{"userId":"2"}`: "20 ", `{}`: "10 20 30 "}},
		{name: "push, default keys", op: schema.Push, in: `{"id":"30","userId":1}`, params: `{"userId":"1"}`,
			want: map[string]string{`{"userId":"1"}`: "10 30 ", `{"userId":"1","ignoredMe":"5"}`: "10 "}},
		{name: "remove", nonFilter: ignored, op: schema.Remove, in: `{"id":"10"}`, params: `{"userId":"1"}`,
			want: map[string]string{`{"userId":"1"}`: "", `{"userId":"1","ignoredMe":"5"}`: "", `{"userId":"2"}`: "20 ", `{}`: "20 "}},
		{name: "move", nonFilter: ignored, op: schema.Move, in: `{"id":"10","userId":2}`, params: `{"id":"10"}`, body: `{"userId":"2"}`,
			want: map[string]string{`{"userId":"1"}`: "", `{"userId":"1","ignoredMe":"5"}`: "", `{"userId":"2"}`: "20 10 ", `{}`: "10 20 "}},
		// Filter decides alone (createCollectionFilter), NonFilter unused.
		{name: "push, filter", filter: filter, nonFilter: func(string) bool { return true }, op: schema.Push,
			in: `{"id":"30","userId":1}`, params: `{"userId":"1"}`,
			want: map[string]string{`{"userId":"1"}`: "10 30 ", `{"userId":"1","ignoredMe":"5"}`: "10 30 ", `{"userId":"2"}`: "20 ", `{}`: "10 20 30 "}},
		{name: "push, filter by body", filter: filter, op: schema.Push, in: `{"id":"30","userId":2}`, params: `{}`, body: `{"userId":"2"}`,
			want: map[string]string{`{"userId":"1"}`: "10 ", `{"userId":"2"}`: "20 30 ", `{}`: "10 20 30 "}},
		{name: "remove, filter", filter: filter, op: schema.Remove, in: `{"id":"10"}`, params: `{"userId":"1"}`,
			want: map[string]string{`{"userId":"1"}`: "", `{"userId":"1","ignoredMe":"5"}`: "", `{"userId":"2"}`: "20 ", `{}`: "20 "}},
		{name: "move, filter", filter: filter, op: schema.Move, in: `{"id":"10","userId":2}`, params: `{"id":"10"}`, body: `{"userId":"2"}`,
			want: map[string]string{`{"userId":"1"}`: "", `{"userId":"1","ignoredMe":"5"}`: "", `{"userId":"2"}`: "20 10 ", `{}`: "10 20 "}},
		{name: "nothing matches", filter: func(_, _, _ value.Value) bool { return false }, op: schema.Push,
			in: `{"id":"30","userId":1}`, params: `{"userId":"1"}`,
			want: map[string]string{`{"userId":"1"}`: "10 ", `{}`: "10 20 "}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &schema.Collection{Of: schema.ArrayOf(newTodo()), NonFilter: tt.nonFilter, Filter: tt.filter}
			st, read := todoLists(t, c, lists)
			applyAdder(t, st, c, tt.op, tt.in, tt.params, tt.body)
			for params, want := range tt.want {
				assert.Equal(t, want, read(params), params)
			}
		})
	}
}

// TestCollectionRemoveUnion: a collection of a union holds {id, schema}
// refs; remove (and a move out) takes out the ref of the same schema
// and id, as data-client compares them, and no other.
func TestCollectionRemoveUnion(t *testing.T) {
	_, _, _, union := pets()
	c := schema.CollectionOf(schema.ArrayOf(union))
	st := store.New()
	n, err := schema.NormalizeArgs(c, value.MustParse(`[{"id":"1","type":"people"},{"id":"1","type":"Cat"},{"id":"2","type":"Cat"}]`),
		schema.Args{Params: value.MustParse(`{"completed":false}`)})
	require.NoError(t, err)
	st.Apply(&store.Write{Entities: n.Entities, Collections: n.Collections})
	applyAdder(t, st, c, schema.Remove, `{"id":"1","type":"people"}`, `{"completed":false}`, "")
	slot := st.Slot(c.TableKey(), `{"completed":"false"}`)
	require.NotNil(t, slot)
	assert.JSONEq(t, `[{"id":"1","schema":"Cat"},{"id":"2","schema":"Cat"}]`, slot.Value.JSON())
}
