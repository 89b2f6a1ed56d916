package controller_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// todoAPI is a small list server: GET /todos filters by userId and pages
// by cursor (pageSize per page), POST /todos creates (or fails with 500
// when the title is "fail"), PATCH /todos answers the record sent.
type todoAPI struct {
	mu       sync.Mutex
	todos    []map[string]any
	nextID   int
	pageSize int
}

func (a *todoAPI) handle(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.Method {
	case "GET":
		var out []map[string]any
		for _, t := range a.todos {
			if u := r.URL.Query().Get("userId"); u != "" && fmt.Sprint(t["userId"]) != u {
				continue
			}
			out = append(out, t)
		}
		if a.pageSize > 0 {
			page, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
			lo, hi := min(page*a.pageSize, len(out)), min((page+1)*a.pageSize, len(out))
			out = out[lo:hi]
		}
		_ = json.NewEncoder(w).Encode(out)
	case "POST", "PATCH":
		var t map[string]any
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &t)
		if t["title"] == "fail" {
			w.WriteHeader(500)
			_, _ = io.WriteString(w, `{"error":"no"}`)
			return
		}
		if r.Method == "POST" {
			a.nextID++
			t["id"] = strconv.Itoa(100 + a.nextID)
			a.todos = append(a.todos, t)
		}
		_ = json.NewEncoder(w).Encode(t)
	}
}

var todo = &schema.Entity{Key: "Todo", Defaults: value.MustParse(`{"id":null,"userId":null,"title":""}`)}

func todoServer(t *testing.T, pageSize int) (*heldServer, *todoAPI) {
	api := &todoAPI{pageSize: pageSize}
	for i, u := range []int{1, 2, 1} {
		api.todos = append(api.todos, map[string]any{"id": strconv.Itoa(i + 1), "userId": u, "title": fmt.Sprint("t", i+1)})
	}
	return newHeldServer(t, api.handle), api
}

func todoList(t *testing.T, s *heldServer, o rest.Options) *rest.Endpoint {
	o.Path, o.Name = "/todos", "todos"
	if o.Schema == nil {
		o.Schema = schema.CollectionOf(schema.ArrayOf(todo))
	}
	return restEndpoint(t, s, o)
}

// ids returns the ids of a read list.
func ids(v value.Value) []string {
	out := []string{}
	for _, el := range v.Elems() {
		out = append(out, el.Get("id").Str())
	}
	return out
}

func args(s string) value.Value { return value.MustParse(s) }

func TestCollectionPushUnshiftRemoveMatchArgs(t *testing.T) {
	s, _ := todoServer(t, 0)
	list := todoList(t, s, rest.Options{})
	c := controller.New(controller.Options{})
	ctx := context.Background()
	all, user1, user2 := args(`{}`), args(`{"userId":1}`), args(`{"userId":"2"}`)
	for _, p := range []value.Value{all, user1, user2} {
		_, err := c.Fetch(ctx, list, p, nil)
		require.NoError(t, err)
	}
	before := c.GetResponse(list, all).Data
	require.Equal(t, []string{"1", "2", "3"}, ids(before))
	user2Before := c.GetResponse(list, user2).Data

	push, err := list.Push()
	require.NoError(t, err)
	created, err := c.Fetch(ctx, push, value.Undef, args(`{"userId":1,"title":"new"}`))
	require.NoError(t, err)
	assert.Equal(t, "101", created.Get("id").Str(), "push resolves to the created record")
	assert.Equal(t, 1, s.Count("POST /todos"))

	after := c.GetResponse(list, all).Data
	assert.Equal(t, []string{"1", "2", "3", "101"}, ids(after), "{} is a subset of the new record's fields")
	assert.Equal(t, []string{"1", "3", "101"}, ids(c.GetResponse(list, user1).Data), "userId 1 matches the body")
	assert.True(t, value.Same(user2Before, c.GetResponse(list, user2).Data), "userId 2 does not match: unchanged, identical")
	for i := range 3 {
		assert.True(t, value.Same(before.Elems()[i], after.Elems()[i]), "unchanged entity %d keeps its identity", i)
	}
	assert.Equal(t, 3, s.Count("GET /todos"), "no refetch")

	unshift, err := list.Unshift()
	require.NoError(t, err)
	_, err = c.Fetch(ctx, unshift, value.Undef, args(`{"userId":2,"title":"first"}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"102", "1", "2", "3", "101"}, ids(c.GetResponse(list, all).Data))
	assert.Equal(t, []string{"102", "2"}, ids(c.GetResponse(list, user2).Data))
	assert.Equal(t, []string{"1", "3", "101"}, ids(c.GetResponse(list, user1).Data))

	remove, err := list.Remove()
	require.NoError(t, err)
	_, err = c.Fetch(ctx, remove, value.Undef, args(`{"id":"3","userId":1,"title":"t3"}`))
	require.NoError(t, err)
	assert.Equal(t, 1, s.Count("PATCH /todos"))
	assert.Equal(t, []string{"102", "1", "2", "101"}, ids(c.GetResponse(list, all).Data))
	assert.Equal(t, []string{"1", "101"}, ids(c.GetResponse(list, user1).Data))

	// Params match as the body does: a push under {userId: 2} params.
	_, err = c.Fetch(ctx, push, args(`{"userId":2}`), args(`{"title":"by params"}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"102", "2", "103"}, ids(c.GetResponse(list, user2).Data))
	assert.Equal(t, []string{"1", "101"}, ids(c.GetResponse(list, user1).Data))
}

func TestCollectionAssignValues(t *testing.T) {
	byID := schema.CollectionOf(schema.ValuesOf(todo))
	s := newHeldServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "GET" {
			jsonHandler(200, `{"a":{"id":"1","title":"one"}}`)(w, r)
			return
		}
		jsonHandler(200, `{"b":{"id":"2","title":"two"},"a":{"id":"1","title":"uno"}}`)(w, r)
	})
	ep := restEndpoint(t, s, rest.Options{Path: "/map", Name: "map", Schema: byID})
	c := controller.New(controller.Options{})
	ctx := context.Background()
	_, err := c.Fetch(ctx, ep, value.Undef, nil)
	require.NoError(t, err)
	_, err = ep.Push()
	require.ErrorContains(t, err, "assign", "a Values collection has no push")
	assign, err := ep.Assign()
	require.NoError(t, err)
	_, err = c.Fetch(ctx, assign, value.Undef, args(`{}`))
	require.NoError(t, err)
	got := c.GetResponse(ep, value.Undef).Data
	assert.Equal(t, "uno", got.Get("a").Get("title").Str())
	assert.Equal(t, "two", got.Get("b").Get("title").Str())

	_, err = todoList(t, s, rest.Options{}).Assign()
	require.ErrorContains(t, err, "Values", "a list collection has no assign")
	_, err = restEndpoint(t, s, rest.Options{Path: "/x", Schema: schema.ArrayOf(todo)}).Push()
	require.ErrorContains(t, err, "no Collection")
}

// optimisticTodo answers with the body under a temporary id.
func optimisticTodo(_ endpoint.Snapshot, _ value.Value, body any) (value.Value, error) {
	b := body.(value.Value)
	return b.With("id", value.Str("tmp-"+b.Get("title").Str())), nil
}

func TestCollectionOptimisticPush(t *testing.T) {
	s, _ := todoServer(t, 0)
	list := todoList(t, s, rest.Options{})
	c := controller.New(controller.Options{})
	ctx := context.Background()
	_, err := c.Fetch(ctx, list, value.Undef, nil)
	require.NoError(t, err)
	push, err := list.Push()
	require.NoError(t, err)
	push, err = push.Extend(func(o *rest.Options) { o.GetOptimisticResponse = optimisticTodo })
	require.NoError(t, err)

	s.Hold(true)
	type res struct {
		v   value.Value
		err error
	}
	done := make(chan res, 2)
	go func() {
		v, err := c.Fetch(ctx, push, value.Undef, args(`{"userId":1,"title":"a"}`))
		done <- res{v, err}
	}()
	ha := s.Next()
	assert.Equal(t, []string{"1", "2", "3", "tmp-a"}, ids(c.GetResponse(list, value.Undef).Data), "visible before the answer")
	go func() {
		v, err := c.Fetch(ctx, push, value.Undef, args(`{"userId":1,"title":"fail"}`))
		done <- res{v, err}
	}()
	hb := s.Next()
	assert.Equal(t, []string{"1", "2", "3", "tmp-a", "tmp-fail"}, ids(c.GetResponse(list, value.Undef).Data), "two racing creates")

	// The second answers first, with an error: only its entity goes.
	hb.Release(t)
	r := <-done
	require.Error(t, r.err)
	assert.Equal(t, []string{"1", "2", "3", "tmp-a"}, ids(c.GetResponse(list, value.Undef).Data), "rolled back")

	ha.Release(t)
	r = <-done
	require.NoError(t, r.err)
	assert.Equal(t, []string{"1", "2", "3", "101"}, ids(c.GetResponse(list, value.Undef).Data), "the temporary id replaced")
	assert.Equal(t, "a", c.GetResponse(list, value.Undef).Data.Elems()[3].Get("title").Str())
	assert.Equal(t, 1, s.Count("GET /todos"))
}

func TestCollectionOptimisticPushMeetsRefetch(t *testing.T) {
	s, _ := todoServer(t, 0)
	list := todoList(t, s, rest.Options{})
	c := controller.New(controller.Options{})
	ctx := context.Background()
	push, err := list.Push()
	require.NoError(t, err)
	push, err = push.Extend(func(o *rest.Options) { o.GetOptimisticResponse = optimisticTodo })
	require.NoError(t, err)
	_, err = c.Fetch(ctx, list, args(`{"userId":2}`), nil)
	require.NoError(t, err)

	s.Hold(true)
	done := make(chan error, 1)
	go func() {
		_, err := c.Fetch(ctx, push, value.Undef, args(`{"userId":1,"title":"fail"}`))
		done <- err
	}()
	h := s.Next()
	s.Hold(false)
	// A collection fetched while the push is pending shows it too: the
	// push is replayed over it.
	_, err = c.Fetch(ctx, list, args(`{"userId":1}`), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"1", "3", "tmp-fail"}, ids(c.GetResponse(list, args(`{"userId":1}`)).Data))
	assert.Equal(t, []string{"2"}, ids(c.GetResponse(list, args(`{"userId":2}`)).Data))
	h.Release(t)
	require.Error(t, <-done)
	assert.Equal(t, []string{"1", "3"}, ids(c.GetResponse(list, args(`{"userId":1}`)).Data), "rolled back over the newer data")
}

func TestCollectionUpdateFunction(t *testing.T) {
	s, _ := todoServer(t, 0)
	list := todoList(t, s, rest.Options{})
	// Another endpoint holding the same collection, inside an object.
	coll := list.Spec().Schema.(*schema.Collection)
	wrapped := restEndpoint(t, s, rest.Options{Path: "/todos", Name: "wrapped", Schema: schema.ObjectOf(schema.Nested("results", coll)),
		Fetch: func(context.Context, *rest.Endpoint, value.Value, any) (value.Value, error) {
			return value.MustParse(`{"results":[{"id":"1","userId":1,"title":"t1"},{"id":"2","userId":2,"title":"t2"},{"id":"3","userId":1,"title":"t3"}]}`), nil
		}})
	c := controller.New(controller.Options{})
	ctx := context.Background()
	_, err := c.Fetch(ctx, list, value.Undef, nil)
	require.NoError(t, err)
	_, err = c.Fetch(ctx, wrapped, value.Undef, nil)
	require.NoError(t, err)
	listKey, err := list.Key(value.Undef)
	require.NoError(t, err)
	var seen value.Value
	create := restEndpoint(t, s, rest.Options{Path: "/todos", Method: "POST", Schema: todo,
		Update: func(newPK, _ value.Value) (map[string]func(value.Value) value.Value, error) {
			return map[string]func(value.Value) value.Value{listKey: func(pks value.Value) value.Value {
				seen = pks
				return value.Arr(append([]value.Value{newPK}, pks.Elems()...)...)
			}}, nil
		}})
	_, err = c.Fetch(ctx, create, value.Undef, args(`{"title":"made"}`))
	require.NoError(t, err)
	assert.Equal(t, `["1","2","3"]`, seen.JSON(), "the update function gets the collection's pks")
	assert.Equal(t, []string{"101", "1", "2", "3"}, ids(c.GetResponse(list, value.Undef).Data))
	assert.Equal(t, []string{"101", "1", "2", "3"}, ids(c.GetResponse(wrapped, value.Undef).Data.Get("results")),
		"every result holding the collection sees the change")
}

func TestCollectionGetPage(t *testing.T) {
	s, api := todoServer(t, 2)
	for i := 4; i <= 6; i++ {
		api.todos = append(api.todos, map[string]any{"id": strconv.Itoa(i), "userId": 1, "title": "x"})
	}
	list := todoList(t, s, rest.Options{PaginationField: "cursor"})
	page, err := list.GetPage()
	require.NoError(t, err)
	c := controller.New(controller.Options{})
	ctx := context.Background()
	_, err = c.Fetch(ctx, list, args(`{"userId":1}`), nil)
	require.NoError(t, err)
	first := c.GetResponse(list, args(`{"userId":1}`)).Data
	assert.Equal(t, []string{"1", "3"}, ids(first))

	_, err = c.Fetch(ctx, page, args(`{"userId":1,"cursor":1}`), nil)
	require.NoError(t, err)
	got := c.GetResponse(list, args(`{"userId":1}`)).Data
	assert.Equal(t, []string{"1", "3", "4", "5"}, ids(got), "page 1 appended to the collection stored without the cursor")
	assert.True(t, value.Same(first.Elems()[0], got.Elems()[0]))

	// The server moves 5 to the next page and adds 7: 5 is not added twice.
	api.mu.Lock()
	api.todos = append(api.todos[:4], map[string]any{"id": "5", "userId": 1, "title": "x"},
		map[string]any{"id": "7", "userId": 1, "title": "x"})
	api.mu.Unlock()
	_, err = c.Fetch(ctx, page, args(`{"userId":1,"cursor":2}`), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"1", "3", "4", "5", "7"}, ids(c.GetResponse(list, args(`{"userId":1}`)).Data))
	assert.Equal(t, []string{"1", "3", "4", "5", "7"}, ids(c.GetResponse(page, args(`{"userId":1}`)).Data),
		"getPage without a cursor reads the same collection")
	assert.Equal(t, 3, s.Count("GET /todos"))

	_, err = todoList(t, s, rest.Options{}).GetPage()
	require.ErrorContains(t, err, "paginationField")
	// A push reaches the paginated collection.
	push, err := list.Push()
	require.NoError(t, err)
	_, err = c.Fetch(ctx, push, value.Undef, args(`{"userId":1,"title":"p"}`))
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(strings.Join(ids(c.GetResponse(list, args(`{"userId":1}`)).Data), ","), ",101"))
}

// A page of a list whose Collection is an object member ({results,
// nextPage}) appends to it as a bare list does.
func TestCollectionGetPageInObject(t *testing.T) {
	s := newHeldServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("page") {
		case "":
			jsonHandler(200, `{"results":[{"id":"1"},{"id":"2"}],"next":"2"}`)(w, r)
		default:
			jsonHandler(200, `{"results":[{"id":"2"},{"id":"3"}],"next":""}`)(w, r)
		}
	})
	list := restEndpoint(t, s, rest.Options{Path: "/p", Name: "p", PaginationField: "page",
		Schema: schema.ObjectOf(schema.Nested("results", schema.CollectionOf(schema.ArrayOf(todo))), schema.Default("next", value.Str("")))})
	page, err := list.GetPage()
	require.NoError(t, err)
	c := controller.New(controller.Options{})
	ctx := context.Background()
	_, err = c.Fetch(ctx, list, value.Undef, nil)
	require.NoError(t, err)
	got, err := c.Fetch(ctx, page, args(`{"page":"2"}`), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"1", "2", "3"}, ids(got.Get("results")))
	assert.Equal(t, "", got.Get("next").Str(), "the other members come from the newest page")
}

// A Collection is queryable: Get reads the list stored for the params it
// is given, a Query derives from it, and a push changes both.
func TestGetCollection(t *testing.T) {
	s, _ := todoServer(t, 0)
	list := todoList(t, s, rest.Options{})
	c := controller.New(controller.Options{})
	ctx := context.Background()
	_, err := c.Fetch(ctx, list, args(`{"userId":1}`), nil)
	require.NoError(t, err)
	coll := list.Spec().Schema

	got, err := c.Get(coll, args(`{"userId":"1"}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"1", "3"}, ids(got), "the list stored for {userId: 1} (args compare as strings)")
	assert.True(t, value.Same(got, c.GetResponse(list, args(`{"userId":1}`)).Data), "the very list the endpoint reads")
	none, err := c.Get(coll, args(`{"userId":9}`))
	require.NoError(t, err)
	assert.True(t, none.IsUndefined(), "nothing stored for other args")

	titles := schema.QueryOf(coll, func(entries value.Value, _ []value.Value) value.Value {
		var out []value.Value
		for _, e := range entries.Elems() {
			out = append(out, e.Get("title"))
		}
		return value.Arr(out...)
	})
	first, err := c.Get(titles, args(`{"userId":1}`))
	require.NoError(t, err)
	again, err := c.Get(titles, args(`{"userId":1}`))
	require.NoError(t, err)
	assert.True(t, value.Same(first, again), "memoized while nothing changed")

	push, err := list.Push()
	require.NoError(t, err)
	_, err = c.Fetch(ctx, push, value.Undef, args(`{"userId":1,"title":"new"}`))
	require.NoError(t, err)
	after, err := c.Get(titles, args(`{"userId":1}`))
	require.NoError(t, err)
	assert.Equal(t, first.Len()+1, after.Len(), "the pushed todo is read")
	assert.Equal(t, "new", after.Elems()[after.Len()-1].Str())
}

// GC follows a Collection: a held result backed by one keeps the
// collection's list and its entities through a sweep, whatever their age,
// and reads the very same value after it; unheld, they go.
func TestGCKeepsHeldCollections(t *testing.T) {
	s, _ := todoServer(t, 0)
	list := todoList(t, s, rest.Options{DataExpiryLength: time.Second})
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	_, err := c.Fetch(context.Background(), list, args(`{}`), nil)
	require.NoError(t, err)
	unsubscribe, err := c.Subscribe(list, args(`{}`), func(controller.State) {})
	require.NoError(t, err)
	before := c.GetResponse(list, args(`{}`)).Data

	clk.Advance(time.Hour)
	assert.Equal(t, controller.GCStats{}, c.GC(), "the held result reaches its collection and todos")
	after := c.GetResponse(list, args(`{}`))
	assert.True(t, value.Same(before, after.Data), "a sweep never changes what a held result reads")
	assert.Equal(t, []string{"1", "2", "3"}, ids(after.Data))

	unsubscribe()
	stats := c.GC()
	assert.Equal(t, 1, stats.Results)
	assert.Equal(t, 4, stats.Entities, "the collection's list and its three todos")
}

// HoldQuery keeps what a held Query or All reads through a sweep, and lets
// it go once released.
func TestHoldQueryKeepsWhatItReads(t *testing.T) {
	s, _ := todoServer(t, 0)
	list := todoList(t, s, rest.Options{DataExpiryLength: time.Second})
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	_, err := c.Fetch(context.Background(), list, args(`{}`), nil)
	require.NoError(t, err)
	all := schema.QueryOf(schema.AllOf(todo), func(entries value.Value, _ []value.Value) value.Value { return entries })
	release, err := c.HoldQuery(all)
	require.NoError(t, err)
	before, err := c.Get(all)
	require.NoError(t, err)

	clk.Advance(time.Hour)
	stats := c.GC()
	assert.Equal(t, 1, stats.Results, "the unheld list result goes")
	got, err := c.Get(all)
	require.NoError(t, err)
	assert.Equal(t, []string{"1", "2", "3"}, ids(got), "the todos the held All reads stay")
	assert.True(t, value.Same(before, got), "and read the same")

	release()
	c.GC()
	got, err = c.Get(all)
	require.NoError(t, err)
	assert.Equal(t, 0, got.Len(), "released: they go")

	_, err = c.HoldQuery(schema.ArrayOf(todo))
	assert.ErrorIs(t, err, schema.ErrNotQueryable)
}

// A move (data-client's getList.move) PATCHes the record's path and moves
// it between the lists its old and new values match; an optimistic move
// shows at once and is undone when the request fails.
func TestCollectionMove(t *testing.T) {
	s, _ := todoServer(t, 0)
	list := todoList(t, s, rest.Options{MovePath: "/todos/:id"})
	c := controller.New(controller.Options{})
	ctx := context.Background()
	all, user1, user2 := args(`{}`), args(`{"userId":1}`), args(`{"userId":2}`)
	for _, p := range []value.Value{all, user1, user2} {
		_, err := c.Fetch(ctx, list, p, nil)
		require.NoError(t, err)
	}
	allBefore := c.GetResponse(list, all).Data

	move, err := list.Move()
	require.NoError(t, err)
	assert.Equal(t, "PATCH", move.Method())
	assert.Equal(t, "todos.move", move.Name())
	moved, err := c.Fetch(ctx, move, args(`{"id":"1"}`), args(`{"id":"1","userId":2,"title":"t1"}`))
	require.NoError(t, err)
	assert.Equal(t, "1", moved.Get("id").Str(), "move resolves to the record")
	assert.Equal(t, 1, s.Count("PATCH /todos/1"))
	assert.Equal(t, []string{"3"}, ids(c.GetResponse(list, user1).Data), "left user 1's list")
	assert.Equal(t, []string{"2", "1"}, ids(c.GetResponse(list, user2).Data), "joined user 2's")
	assert.Equal(t, []string{"1", "2", "3"}, ids(c.GetResponse(list, all).Data), "{} matched before and after: unchanged")
	assert.True(t, value.Same(allBefore.Elems()[1], c.GetResponse(list, all).Data.Elems()[1]))

	optimistic, err := move.Extend(func(o *rest.Options) {
		o.GetOptimisticResponse = func(_ endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
			return schema.ShallowMerge(params, body.(value.Value)), nil
		}
	})
	require.NoError(t, err)
	s.Hold(true)
	done := make(chan error, 1)
	go func() {
		_, err := c.Fetch(ctx, optimistic, args(`{"id":"3"}`), args(`{"userId":2,"title":"fail"}`))
		done <- err
	}()
	h := s.Next()
	assert.Equal(t, []string{}, ids(c.GetResponse(list, user1).Data), "moved at once")
	assert.Equal(t, []string{"2", "1", "3"}, ids(c.GetResponse(list, user2).Data))
	h.Release(t)
	require.Error(t, <-done)
	assert.Equal(t, []string{"3"}, ids(c.GetResponse(list, user1).Data), "rolled back")
	assert.Equal(t, []string{"2", "1"}, ids(c.GetResponse(list, user2).Data))
}
