package integration

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testapi"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// hasPage reports whether a page token names a page: null and "" do not.
func hasPage(tok value.Value) bool {
	return !tok.IsNullish() && !(tok.Kind() == value.String && tok.Str() == "")
}

func pageParams(tok value.Value) value.Value { return value.Obj(value.M("page", tok)) }

// counted returns how the server counts a GET of ep with params.
func (e *env) counted(t *testing.T, ep *rest.Endpoint, params value.Value) string {
	t.Helper()
	u, err := ep.URL(params)
	require.NoError(t, err)
	return "GET " + strings.TrimPrefix(u, e.URL)
}

func TestPagesByTokenInBody(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		schema schema.Schema
		// lastNext is the next token of the last page: "" or null.
		lastNext string
		backward bool
	}{
		{"null tokens", "/posts", tokenPageSchema(), `null`, true},
		{"empty next token with lastPage", "/post", lastPageSchema(), `""`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, testapi.Options{}, controller.Options{})
			ep := e.Endpoint(rest.Options{Name: "pages", Path: tt.path, Schema: tt.schema})

			// Forward from the first page (no token at all).
			params := value.Undef
			var got []string
			var last value.Value
			pages := 0
			for {
				v := e.Suspense(ep, params)
				assert.Equal(t, 1, e.API.Count(e.counted(t, ep, params)), "page %d fetched once", pages+1)
				got = append(got, ids(v.Get("results"))...)
				pages++
				last = v
				next := v.Get("nextPage")
				if !hasPage(next) {
					assert.Equal(t, tt.lastNext, next.JSON(), "the last page's next token")
					break
				}
				require.Less(t, pages, 10, "runaway pagination")
				params = pageParams(next)
			}
			assert.Equal(t, 5, pages)
			assert.Equal(t, seq(1, 23), got, "every post once, in order")
			if !tt.backward {
				assert.Equal(t, "5", last.Get("lastPage").Str())
				return
			}

			// Back from the last page: pages 4..2 were read forward by the
			// same tokens, so they come from the cache; page 1's token is
			// new (it was read without one).
			var back []string
			v := last
			for hasPage(v.Get("prevPage")) {
				p := pageParams(v.Get("prevPage"))
				v = e.Suspense(ep, p)
				assert.Equal(t, 1, e.API.Count(e.counted(t, ep, p)))
				back = append(ids(v.Get("results")), back...)
			}
			assert.Equal(t, `null`, v.Get("prevPage").JSON(), "the first page has no previous page")
			assert.Equal(t, seq(1, 20), back)
			assert.Equal(t, 1, e.API.Count("GET /posts"))
			assert.Equal(t, 1, e.API.Count("GET /posts?page=%2Fposts%3Fpage%3D1"))
		})
	}
}

func TestPagesEmptyTokenMeansNoPage(t *testing.T) {
	tests := []struct {
		tok  string
		want bool
	}{
		{`null`, false}, {`""`, false}, {`"2"`, true}, {`"/posts?page=2"`, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, hasPage(obj(tt.tok)), tt.tok)
	}
	// A missing token reads as the schema default "", which is no page.
	e := newEnv(t, testapi.Options{}, controller.Options{})
	ep := e.Endpoint(rest.Options{Name: "single", Path: "/posts/:id", Schema: schema.ObjectOf(
		schema.Default("nextPage", value.Str("")), schema.Default("prevPage", value.Str("")))})
	v := e.Suspense(ep, id(1))
	assert.Equal(t, "", v.Get("nextPage").Str())
	assert.Equal(t, value.String, v.Get("prevPage").Kind())
	assert.False(t, hasPage(v.Get("nextPage")))
}

// TestInfiniteList: Paginated("page") appends every page to one result
// stored under the params without the cursor.
func TestInfiniteList(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		schema schema.Schema
		list   func(value.Value) value.Value
		// next returns the cursor of the page after v, page n being the
		// one just read.
		next func(v value.Value, n int) value.Value
	}{
		{"object with nextPage", "/post", lastPageSchema(),
			func(v value.Value) value.Value { return v.Get("results") },
			func(v value.Value, _ int) value.Value { return v.Get("nextPage") }},
		{"object with URL tokens", "/posts", tokenPageSchema(),
			func(v value.Value) value.Value { return v.Get("results") },
			func(v value.Value, _ int) value.Value { return v.Get("nextPage") }},
		{"bare list", "/linked/posts", schema.ArrayOf(postE),
			func(v value.Value) value.Value { return v },
			func(_ value.Value, n int) value.Value { return value.Int(int64(n + 1)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, testapi.Options{}, controller.Options{})
			plain := e.Endpoint(rest.Options{Name: "feed", Path: tt.path, Schema: tt.schema})
			feed, err := plain.Paginated("page")
			require.NoError(t, err)

			listKey, err := feed.Key(value.Undef)
			require.NoError(t, err)
			assert.Equal(t, "feed GET "+e.URL+tt.path, listKey, "the key has no cursor")

			cursor := value.Int(1)
			var cursors []value.Value
			for n := 1; n <= 3; n++ {
				p := pageParams(cursor)
				k, err := feed.Key(p)
				require.NoError(t, err)
				assert.Equal(t, listKey, k)
				cursors = append(cursors, cursor)
				v := e.Fetch(feed, p, nil)
				assert.Equal(t, seq(1, 5*n), ids(tt.list(v)), "after page %d: one growing list", n)
				assert.Equal(t, 1, e.API.Count(e.counted(t, feed, p)))
				cursor = tt.next(v, n)
			}

			// One stored result, under the key without the cursor.
			endpoints := e.Ctrl.State().Get("endpoints")
			require.Equal(t, 1, endpoints.Len(), "%v", endpoints)
			assert.Equal(t, listKey, endpoints.Members()[0].Key)
			assert.Equal(t, 15, tt.list(endpoints.Get(listKey)).Len())

			// Fetching pages again adds nothing and keeps the order.
			for _, c := range []value.Value{cursors[1], cursors[0]} {
				v := e.Fetch(feed, pageParams(c), nil)
				assert.Equal(t, seq(1, 15), ids(tt.list(v)))
			}
			// Reading the list by any cursor is the one result.
			a := e.Ctrl.GetResponse(feed, value.Undef).Data
			b := e.Ctrl.GetResponse(feed, pageParams(value.Str("9"))).Data
			assert.True(t, value.Same(a, b))
			// The entities are shared with plain page reads.
			page2 := e.Suspense(plain, pageParams(cursors[1]))
			assert.True(t, value.Same(tt.list(a).Elems()[5], tt.list(page2).Elems()[0]))
		})
	}
}

// TestInfiniteListRefresh: reading the first page of a Paginated list
// again, without a cursor or with an empty one, starts the list over with
// that page instead of appending to the pages already stored, as
// data-client's does; the pages after it then append again.
func TestInfiniteListRefresh(t *testing.T) {
	tests := []struct {
		name    string
		refresh func(e *env, feed *rest.Endpoint) value.Value
	}{
		{"fetch without the cursor", func(e *env, feed *rest.Endpoint) value.Value {
			return e.Fetch(feed, value.Obj(), nil)
		}},
		{"fetch with an empty cursor", func(e *env, feed *rest.Endpoint) value.Value {
			return e.Fetch(feed, pageParams(value.Str("")), nil)
		}},
		{"read after invalidation", func(e *env, feed *rest.Endpoint) value.Value {
			require.NoError(e.t, e.Ctrl.Invalidate(feed, value.Obj()))
			return e.Suspense(feed, value.Obj())
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, testapi.Options{}, controller.Options{})
			plain := e.Endpoint(rest.Options{Name: "feed", Path: "/post", Schema: lastPageSchema()})
			feed, err := plain.Paginated("page")
			require.NoError(t, err)

			v := e.Suspense(feed, value.Obj())
			for range 2 {
				v = e.Fetch(feed, pageParams(v.Get("nextPage")), nil)
			}
			require.Equal(t, seq(1, 15), ids(v.Get("results")), "three pages, one list")

			v = tt.refresh(e, feed)
			assert.Equal(t, seq(1, 5), ids(v.Get("results")), "the list starts over with the first page")
			assert.Equal(t, "2", v.Get("nextPage").Str(), "the next page is the second again")
			assert.True(t, value.Same(v, e.Ctrl.GetResponse(feed, value.Obj()).Data), "it is the one stored result")

			v = e.Fetch(feed, pageParams(v.Get("nextPage")), nil)
			assert.Equal(t, seq(1, 10), ids(v.Get("results")), "the next page appends again")
		})
	}
}

func TestPaginatedRejectsPathToken(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	ep := e.Endpoint(rest.Options{Name: "post", Path: "/posts/:page", Schema: schema.ArrayOf(postE)})
	_, err := ep.Paginated("page")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "post")
	assert.Contains(t, err.Error(), ":page")
	_, err = e.Endpoint(rest.Options{Name: "one", Path: "/posts/:id", Schema: postE}).Paginated("page")
	assert.ErrorContains(t, err, "not a list")
}

// TestPagesInFlightAreNotShared: the pages of a Paginated list store to one
// result, but a request for page 2 made while one for page 1 is in flight
// is a request of its own, answered with page 2; two requests for one page
// are still shared.
func TestPagesInFlightAreNotShared(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	plain := e.Endpoint(rest.Options{Name: "feed", Path: "/post", Schema: lastPageSchema()})
	feed, err := plain.Paginated("page")
	require.NoError(t, err)

	e.API.Hold()
	first := e.async(feed, value.Obj(), nil)
	e.WaitHeld(1)
	second := e.async(feed, pageParams(value.Str("2")), nil)
	e.WaitHeld(2)
	// The second fetch of page 2 joins the one in flight and waits on its
	// context: only then may that request finish (on a busy machine it
	// could otherwise start after it had, and make one of its own).
	limit, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	joined := testkit.NewWaitingContext(limit)
	again := e.asyncIn(joined, feed, pageParams(value.Str("2")), nil)
	testkit.Wait(t, joined.Waiting, "the second fetch of page 2 to join the first")
	held := e.API.Held()
	require.Len(t, held, 2, "page 2 was requested while page 1 was in flight")
	// Released in the order a reader pages: page 1, then page 2.
	require.True(t, e.API.Release(held[0].Seq))
	r1 := wait(t, first)
	require.NoError(t, r1.err)
	require.True(t, e.API.Release(held[1].Seq))
	r2, r3 := wait(t, second), wait(t, again)
	e.API.Unhold()
	require.NoError(t, r2.err)
	require.NoError(t, r3.err)
	assert.True(t, value.Same(r2.v, r3.v), "the two fetches of page 2 shared one request")
	assert.Equal(t, 1, e.API.Count(e.counted(t, feed, value.Obj())), "page 1 requested once")
	assert.Equal(t, 1, e.API.Count(e.counted(t, feed, pageParams(value.Str("2")))), "page 2 requested once, for both fetches")
	assert.Equal(t, seq(1, 10), ids(e.Ctrl.GetResponse(feed, value.Obj()).Data.Get("results")))
}
