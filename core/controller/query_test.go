package controller_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// queryRig is a controller with articles and users stored through
// SetResponse of list endpoints, which tests rewrite at will.
type queryRig struct {
	c                 *controller.Controller
	article, user     *schema.Entity
	articles, users   *funcEndpoint
	deleteArticle     *funcEndpoint
	publishedByTitle  *schema.Query
	processCalls      atomic.Int64
	allArticles       *schema.All
	articlesForAuthor *schema.Query
}

func newQueryRig(t *testing.T) *queryRig {
	t.Helper()
	r := &queryRig{c: controller.New(controller.Options{})}
	r.user = &schema.Entity{Key: "User", Defaults: obj(`{"id":null,"name":""}`)}
	r.article = &schema.Entity{Key: "Article", Defaults: obj(`{"id":null,"title":"","published":false,"author":null}`),
		Schema: map[string]schema.Schema{"author": r.user}}
	r.articles = &funcEndpoint{name: "articles", spec: endpoint.Spec{Name: "articles", Schema: schema.ArrayOf(r.article)}}
	r.users = &funcEndpoint{name: "users", spec: endpoint.Spec{Name: "users", Schema: schema.ArrayOf(r.user)}}
	r.deleteArticle = &funcEndpoint{name: "delete", spec: endpoint.Spec{Name: "delete", Schema: schema.InvalidateOf(r.article), SideEffect: true},
		fetch: func(_ context.Context, p value.Value, _ any) (value.Value, error) { return p, nil }}
	r.allArticles = schema.AllOf(r.article)
	// Published articles sorted by title, with a count.
	r.publishedByTitle = schema.QueryOf(r.allArticles, func(entries value.Value, _ []value.Value) value.Value {
		r.processCalls.Add(1)
		var list []value.Value
		for _, a := range entries.Elems() {
			if a.Get("published").Boolean() {
				list = append(list, a)
			}
		}
		slices.SortFunc(list, func(a, b value.Value) int { return strings.Compare(a.Get("title").Str(), b.Get("title").Str()) })
		return value.Obj(value.M("count", value.Num(float64(len(list)))), value.M("articles", value.Arr(list...)))
	})
	r.articlesForAuthor = schema.QueryOf(r.allArticles, func(entries value.Value, args []value.Value) value.Value {
		want := args[0].Get("author").JSON()
		var list []value.Value
		for _, a := range entries.Elems() {
			if a.Get("author").Get("id").JSON() == want {
				list = append(list, a)
			}
		}
		return value.Arr(list...)
	})
	return r
}

func (r *queryRig) set(t *testing.T, ep *funcEndpoint, params, data string) {
	t.Helper()
	require.NoError(t, r.c.SetResponse(ep, obj(params), obj(data)))
}

func (r *queryRig) get(t *testing.T, s schema.Schema, args ...value.Value) value.Value {
	t.Helper()
	v, err := r.c.Get(s, args...)
	require.NoError(t, err)
	return v
}

// idsJSON lists the ids of a list as JSON (numbers bare, strings quoted).
func idsJSON(v value.Value) []string {
	var out []string
	for _, el := range v.Elems() {
		out = append(out, el.Get("id").JSON())
	}
	return out
}

// TestGetAll: All lists every stored entity of its type in pk order, with
// nested entities read; a deleted entity is left out; the same value comes
// back until the table changes.
func TestGetAll(t *testing.T) {
	r := newQueryRig(t)
	assert.True(t, r.get(t, r.allArticles).IsUndefined(), "nothing ever stored: nothing to list yet, as data-client's")
	assert.True(t, r.get(t, r.publishedByTitle).IsUndefined(), "and a Query over it is not processed")
	page := schema.ObjectOf(schema.Field{Name: "results", Schema: r.allArticles}, schema.Field{Name: "next", Default: value.Str("")})
	assert.True(t, r.get(t, page).IsUndefined(), "an object with such an All member: nothing either")
	r.set(t, r.articles, `{}`, `[{"id":"10","title":"b","author":{"id":"u1","name":"Ann"}},{"id":"2","title":"a"},{"id":"x","title":"c"}]`)
	all := r.get(t, r.allArticles)
	assert.Equal(t, []string{`"2"`, `"10"`, `"x"`}, idsJSON(all), "numeric pks by number, then the others")
	assert.Equal(t, "Ann", all.Elems()[1].Get("author").Get("name").Str(), "nested entity read")
	assert.True(t, value.Same(all, r.get(t, r.allArticles)), "unchanged: the same value")

	// Another result storing the same articles unchanged is no change.
	r.set(t, r.articles, `{"page":1}`, `[{"id":"2","title":"a"}]`)
	assert.True(t, value.Same(all, r.get(t, r.allArticles)), "an equal record stored again")

	// A delete leaves the entity out.
	_, err := r.c.Fetch(context.Background(), r.deleteArticle, obj(`{"id":"2"}`), nil)
	require.NoError(t, err)
	after := r.get(t, r.allArticles)
	assert.Equal(t, []string{`"10"`, `"x"`}, idsJSON(after))
	assert.True(t, value.Same(all.Elems()[1], after.Elems()[0]), "unchanged entities keep their identity")

	// Every one deleted: an empty list (the table was stored).
	for _, id := range []string{"10", "x"} {
		_, err = r.c.Fetch(context.Background(), r.deleteArticle, obj(`{"id":"`+id+`"}`), nil)
		require.NoError(t, err)
	}
	empty := r.get(t, r.allArticles)
	assert.Equal(t, value.Array, empty.Kind())
	assert.Equal(t, 0, empty.Len())
	assert.Equal(t, `{"results":[],"next":""}`, r.get(t, page).JSON())

	// A reset forgets it: nothing stored again.
	r.c.ResetEntireStore()
	assert.True(t, r.get(t, r.allArticles).IsUndefined())
}

// TestGetAllOptimistic: an optimistic create shows in All while its
// request runs, and goes when it fails (rolled back).
func TestGetAllOptimistic(t *testing.T) {
	r := newQueryRig(t)
	r.set(t, r.articles, `{}`, `[{"id":"1","title":"a"}]`)
	before := r.get(t, r.allArticles)
	release := make(chan struct{})
	create := &funcEndpoint{name: "create", spec: endpoint.Spec{Name: "create", Schema: r.article, SideEffect: true,
		GetOptimisticResponse: func(_ endpoint.Snapshot, _ value.Value, _ any) (value.Value, error) {
			return obj(`{"id":"tmp","title":"draft"}`), nil
		}},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			<-release
			return value.Undef, errors.New("refused")
		}}
	done := make(chan error)
	seen := make(chan struct{}, 1)
	stop := r.c.Listen(func() {
		select {
		case seen <- struct{}{}:
		default:
		}
	})
	defer stop()
	go func() {
		_, err := r.c.Fetch(context.Background(), create, obj(`{}`), obj(`{"title":"draft"}`))
		done <- err
	}()
	<-seen // the optimistic write is in
	assert.Equal(t, []string{`"1"`, `"tmp"`}, idsJSON(r.get(t, r.allArticles)))
	close(release)
	require.Error(t, <-done)
	back := r.get(t, r.allArticles)
	assert.Equal(t, []string{`"1"`}, idsJSON(back))
	assert.True(t, value.Same(before.Elems()[0], back.Elems()[0]), "the rolled-back table reads its entities as before")
}

// TestGetQueryMemo: a Query's derived value is the same, and Process is
// not called again, until an entity it read changes; a change to another
// entity type keeps it.
func TestGetQueryMemo(t *testing.T) {
	r := newQueryRig(t)
	r.set(t, r.articles, `{}`, `[{"id":"1","title":"b","published":true},{"id":"2","title":"a","published":true},{"id":"3","title":"c"}]`)
	first := r.get(t, r.publishedByTitle)
	assert.JSONEq(t, `{"count":2,"articles":[{"id":"2","title":"a","published":true,"author":null},{"id":"1","title":"b","published":true,"author":null}]}`, first.JSON())
	assert.True(t, value.Same(first, r.get(t, r.publishedByTitle)))
	assert.EqualValues(t, 1, r.processCalls.Load(), "processed once while unchanged")

	r.set(t, r.users, `{}`, `[{"id":"u9","name":"Zed"}]`)
	assert.True(t, value.Same(first, r.get(t, r.publishedByTitle)), "another type changed: kept")
	assert.EqualValues(t, 1, r.processCalls.Load())

	r.set(t, r.articles, `{"one":true}`, `[{"id":"3","title":"0","published":true}]`)
	second := r.get(t, r.publishedByTitle)
	assert.False(t, value.Same(first, second), "an article changed: derived again")
	assert.EqualValues(t, 2, r.processCalls.Load())
	assert.Equal(t, 3.0, number(second.Get("count")))
	assert.Equal(t, []string{`"3"`, `"2"`, `"1"`}, idsJSON(second.Get("articles")))
}

func number(v value.Value) float64 {
	f, _ := v.Float()
	return f
}

// TestGetArgs: args reach Process, and each args has its own memo.
func TestGetArgs(t *testing.T) {
	r := newQueryRig(t)
	r.set(t, r.articles, `{}`, `[{"id":"1","author":{"id":"a"}},{"id":"2","author":{"id":"b"}},{"id":"3","author":{"id":"a"}}]`)
	byA := r.get(t, r.articlesForAuthor, obj(`{"author":"a"}`))
	byB := r.get(t, r.articlesForAuthor, obj(`{"author":"b"}`))
	assert.Equal(t, []string{`"1"`, `"3"`}, idsJSON(byA))
	assert.Equal(t, []string{`"2"`}, idsJSON(byB))
	assert.True(t, value.Same(byA, r.get(t, r.articlesForAuthor, obj(`{"author":"a"}`))))
	assert.True(t, value.Same(byB, r.get(t, r.articlesForAuthor, obj(`{"author":"b"}`))))
}

// TestGetEntity: an Entity read by pk params, directly or through a
// Query; it depends on that entity only.
func TestGetEntity(t *testing.T) {
	r := newQueryRig(t)
	calls := 0
	title := schema.QueryOf(r.article, func(a value.Value, _ []value.Value) value.Value {
		calls++
		return value.Str(strings.ToUpper(a.Get("title").Str()))
	})
	missing := r.get(t, r.article, obj(`{"id":"1"}`))
	assert.True(t, missing.IsUndefined(), "not stored: undefined")
	assert.True(t, r.get(t, title, obj(`{"id":"1"}`)).IsUndefined())
	assert.Equal(t, 0, calls, "nothing to process")

	r.set(t, r.articles, `{}`, `[{"id":1,"title":"one"},{"id":2,"title":"two"}]`)
	one := r.get(t, r.article, obj(`{"id":"1"}`))
	assert.Equal(t, "one", one.Get("title").Str())
	assert.Equal(t, "ONE", r.get(t, title, obj(`{"id":1}`)).Str())
	r.set(t, r.articles, `{"x":1}`, `[{"id":2,"title":"TWO"}]`)
	assert.True(t, value.Same(one, r.get(t, r.article, obj(`{"id":"1"}`))), "another article changed: kept")
	assert.Equal(t, "ONE", r.get(t, title, obj(`{"id":1}`)).Str())
	assert.Equal(t, 1, calls)

	_, err := r.c.Fetch(context.Background(), r.deleteArticle, obj(`{"id":"1"}`), nil)
	require.NoError(t, err)
	assert.True(t, r.get(t, r.article, obj(`{"id":"1"}`)).IsUndefined(), "deleted: undefined")
	assert.True(t, r.get(t, r.article, obj(`{"slug":"1"}`)).IsUndefined(), "params naming no pk: undefined")
}

// TestGetNotQueryable: schemas a query cannot read are errors naming them.
func TestGetNotQueryable(t *testing.T) {
	r := newQueryRig(t)
	for _, s := range []schema.Schema{schema.ArrayOf(r.article), schema.ValuesOf(r.article), schema.QueryOf(schema.ArrayOf(r.user), nil), nil} {
		t.Run(fmt.Sprintf("%T", s), func(t *testing.T) {
			_, err := r.c.Get(s)
			require.ErrorIs(t, err, schema.ErrNotQueryable)
		})
	}
	_, err := r.c.Get(schema.ArrayOf(r.article))
	assert.ErrorContains(t, err, "[Article]")
	_, err = r.c.Get(r.article)
	assert.ErrorContains(t, err, "needs params naming its pk")
}

// TestListen: a listener hears each change to the store once, outside
// the lock (it may read), and not after it stops.
func TestListen(t *testing.T) {
	r := newQueryRig(t)
	var heard []int
	stop := r.c.Listen(func() { heard = append(heard, r.get(t, r.allArticles).Len()) })
	r.set(t, r.articles, `{}`, `[{"id":"1"}]`)
	r.set(t, r.articles, `{}`, `[{"id":"1"},{"id":"2"}]`)
	stop()
	stop()
	r.set(t, r.articles, `{}`, `[{"id":"3"}]`)
	assert.Equal(t, []int{1, 2}, heard)
}

// TestGetUnion: a union of entities is read by the member its params'
// attribute names (a field or a function), by the pk they name, the same
// value while unchanged; params naming no member, or no pk, read nothing.
func TestGetUnion(t *testing.T) {
	r := newQueryRig(t)
	r.set(t, r.articles, `{}`, `[{"id":"1","title":"a"}]`)
	r.set(t, r.users, `{}`, `[{"id":"1","name":"Ann"}]`)
	schemas := map[string]schema.Schema{"articles": r.article, "users": r.user}
	byField := &schema.Union{Schemas: schemas, Names: []string{"articles", "users"}, Attribute: "type"}
	byFunc := &schema.Union{Schemas: schemas, Names: []string{"articles", "users"},
		AttributeFunc: func(in, _ value.Value, _ string) string { return in.Get("kind").Str() + "s" }}
	cases := []struct {
		name   string
		union  *schema.Union
		params string
		want   string // the read's JSON; "" for nothing
	}{
		{"field names a user", byField, `{"id":"1","type":"users"}`, `"Ann"`},
		{"field names an article", byField, `{"id":"1","type":"articles"}`, `"a"`},
		{"function names a user", byFunc, `{"id":"1","kind":"user"}`, `"Ann"`},
		{"no such member", byField, `{"id":"1","type":"groups"}`, ""},
		{"no pk", byField, `{"type":"users"}`, ""},
		{"not stored", byField, `{"id":"9","type":"users"}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := r.get(t, tc.union, obj(tc.params))
			if tc.want == "" {
				assert.True(t, v.IsUndefined(), "got %s", v.JSON())
				return
			}
			field := "name"
			if v.Has("title") {
				field = "title"
			}
			assert.Equal(t, tc.want, v.Get(field).JSON())
			assert.True(t, value.Same(v, r.get(t, tc.union, obj(tc.params))), "unchanged: the same value")
		})
	}
	_, err := r.c.Get(byField)
	assert.NoError(t, err, "no params: nothing to read, no error")
	_, err = r.c.Get(byField, value.Num(5))
	assert.NoError(t, err)
}

// TestGetLazy: Get reads a Lazy's query with the pks a Lazy field holds
// (or an entity's params), memoized per args, a new value when an entity
// it read changes; the record holding the field keeps its read.
func TestGetLazy(t *testing.T) {
	r := newQueryRig(t)
	shelf := &schema.Entity{Key: "Shelf", Defaults: obj(`{"id":null,"articles":[],"main":null}`),
		Schema: map[string]schema.Schema{"articles": schema.LazyOf(schema.ArrayOf(r.article)), "main": schema.LazyOf(r.article)}}
	shelves := &funcEndpoint{name: "shelves", spec: endpoint.Spec{Name: "shelves", Schema: shelf}}
	require.NoError(t, r.c.SetResponse(shelves, obj(`{"id":"s"}`),
		obj(`{"id":"s","main":{"id":1,"title":"one"},"articles":[{"id":1,"title":"one"},{"id":2,"title":"two"}]}`)))
	held := r.get(t, shelf, obj(`{"id":"s"}`))
	assert.JSONEq(t, `{"id":"s","articles":["1","2"],"main":"1"}`, held.JSON())

	list := shelf.Schema["articles"].(*schema.Lazy).Query()
	pks := held.Get("articles")
	got := r.get(t, list, pks)
	assert.Equal(t, []string{"1", "2"}, idsJSON(got))
	assert.True(t, value.Same(got, r.get(t, list, pks)), "memoized")
	main := shelf.Schema["main"].(*schema.Lazy).Query()
	assert.Equal(t, "one", r.get(t, main, obj(`{"id":"1"}`)).Get("title").Str())
	assert.True(t, r.get(t, list).IsUndefined(), "no args: nothing")

	r.set(t, r.articles, `{}`, `[{"id":2,"title":"TWO"}]`)
	again := r.get(t, list, pks)
	assert.False(t, value.Same(got, again))
	assert.Equal(t, "TWO", again.Elems()[1].Get("title").Str())
	assert.True(t, value.Same(held, r.get(t, shelf, obj(`{"id":"s"}`))), "the shelf keeps its read")
}

// TestGetPanickingHookLeavesTheControllerWorking: caller code that panics
// during Get's read (an Entity's Valid) reaches Get's caller as the panic,
// and the controller's lock is released on the way, so later calls work.
func TestGetPanickingHookLeavesTheControllerWorking(t *testing.T) {
	r := newQueryRig(t)
	r.set(t, r.articles, `{}`, `[{"id":"1","title":"a"}]`)
	var panics atomic.Bool
	panics.Store(true)
	r.article.Valid = func(value.Value) bool {
		if panics.Load() {
			panic("validate failed")
		}
		return true
	}
	all := schema.AllOf(r.article) // a new read: no memo to answer from
	assert.PanicsWithValue(t, "validate failed", func() { _, _ = r.c.Get(all) })
	panics.Store(false)
	done := make(chan value.Value)
	go func() {
		v, _ := r.c.Get(all)
		done <- v
	}()
	assert.Equal(t, []string{`"1"`}, idsJSON(<-done), "the lock was released by the panic")
}
