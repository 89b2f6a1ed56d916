package rest_test

import (
	"context"
	"io"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

var post = &schema.Entity{Key: "Post", Defaults: obj(`{"id":null,"title":"","content":""}`)}

func TestPaginatedKey(t *testing.T) {
	list, err := rest.New(rest.Options{Path: "/users/:userId/posts", Name: "posts", Schema: schema.ArrayOf(post)})
	require.NoError(t, err)
	pages, err := list.Paginated("cursor")
	require.NoError(t, err)
	assert.Equal(t, "cursor", pages.Cursor())
	assert.Equal(t, "", list.Cursor())

	withCursor := obj(`{"userId":1,"sort":"new","cursor":"abc"}`)
	k, err := pages.Key(withCursor)
	require.NoError(t, err)
	want, err := list.Key(obj(`{"userId":1,"sort":"new"}`))
	require.NoError(t, err)
	assert.Equal(t, want, k, "every page has the key of the list")
	first, err := pages.Key(obj(`{"userId":1,"sort":"new"}`))
	require.NoError(t, err)
	assert.Equal(t, want, first)
	other, err := pages.Key(obj(`{"userId":2,"cursor":"abc"}`))
	require.NoError(t, err)
	assert.NotEqual(t, want, other)

	u, err := pages.URL(withCursor)
	require.NoError(t, err)
	assert.Equal(t, "/users/1/posts?cursor=abc&sort=new", u, "the URL names the page")

	assert.Nil(t, list.Spec().MergeResult, "the original is unchanged")
	assert.NotNil(t, pages.Spec().MergeResult)

	ext, err := pages.Extend(func(o *rest.Options) { o.Name = "posts2" })
	require.NoError(t, err)
	assert.Equal(t, "cursor", ext.Cursor(), "extending keeps pagination")
}

func TestPaginatedRequestKey(t *testing.T) {
	list, err := rest.New(rest.Options{Path: "/posts", Name: "posts", Schema: schema.ArrayOf(post)})
	require.NoError(t, err)
	pages, err := list.Paginated("cursor")
	require.NoError(t, err)
	listKey, err := list.Key(obj(`{"sort":"new"}`))
	require.NoError(t, err)
	tests := []struct {
		name   string
		ep     *rest.Endpoint
		params string
		same   bool // the request key is the result key
	}{
		{"plain endpoint", list, `{"sort":"new"}`, true},
		{"no cursor", pages, `{"sort":"new"}`, true},
		{"null cursor", pages, `{"sort":"new","cursor":null}`, true},
		{"empty cursor", pages, `{"sort":"new","cursor":""}`, true},
		{"a page", pages, `{"sort":"new","cursor":"abc"}`, false},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rk, err := tt.ep.RequestKey(obj(tt.params))
			require.NoError(t, err)
			assert.Equal(t, tt.same, rk == listKey, "request key %q, result key %q", rk, listKey)
			seen[rk] = true
		})
	}
	other, err := pages.RequestKey(obj(`{"sort":"new","cursor":"def"}`))
	require.NoError(t, err)
	assert.False(t, seen[other], "each page has its own request key")
}

func TestPaginatedMergeList(t *testing.T) {
	list, err := rest.New(rest.Options{Path: "/posts", Schema: schema.ArrayOf(post)})
	require.NoError(t, err)
	pages, err := list.Paginated("page")
	require.NoError(t, err)
	merge := pages.Spec().MergeResult(obj(`{"page":"2"}`))
	require.NotNil(t, merge, "a page named by a cursor merges")
	tests := []struct {
		name               string
		existing, incoming value.Value
		want               string
	}{
		{"appends", obj(`["1","2"]`), obj(`["3","4"]`), `["1","2","3","4"]`},
		{"dedups by pk, order kept", obj(`["1","2","3"]`), obj(`["3","4","2","5"]`), `["1","2","3","4","5"]`},
		{"pks compare as strings", obj(`["1",2]`), obj(`[1,"2",3]`), `["1",2,3]`},
		{"dups within a page", obj(`[]`), obj(`["1","1"]`), `["1"]`},
		{"union pks", obj(`[{"id":"1","schema":"a"}]`), obj(`[{"schema":"a","id":"1"},{"id":"1","schema":"b"}]`),
			`[{"id":"1","schema":"a"},{"id":"1","schema":"b"}]`},
		{"nothing stored", value.Undef, obj(`["1"]`), `["1"]`},
		{"incoming not a list replaces", obj(`["1"]`), value.NullV, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, merge(tt.existing, tt.incoming).JSON())
		})
	}
	t.Run("nothing new keeps the stored list", func(t *testing.T) {
		existing := obj(`["1","2"]`)
		assert.True(t, value.Same(existing, merge(existing, obj(`["2"]`))))
	})
}

func TestPaginatedMergeObject(t *testing.T) {
	s := schema.ObjectOf(schema.Default("nextPage", value.Str("")), schema.Nested("results", schema.ArrayOf(post)))
	list, err := rest.New(rest.Options{Path: "/post", Schema: s})
	require.NoError(t, err)
	pages, err := list.Paginated("page")
	require.NoError(t, err)
	merge := pages.Spec().MergeResult(obj(`{"page":"2"}`))
	require.NotNil(t, merge, "a page named by a cursor merges")
	got := merge(obj(`{"results":["1","2"],"nextPage":"2","lastPage":"9"}`), obj(`{"results":["2","3"],"nextPage":"3","lastPage":"9"}`))
	assert.Equal(t, `{"results":["1","2","3"],"nextPage":"3","lastPage":"9"}`, got.JSON())
	last := merge(got, obj(`{"results":["4"],"nextPage":null}`))
	assert.Equal(t, `{"results":["1","2","3","4"],"nextPage":null}`, last.JSON(), "other members come from the newest page")
}

// TestPaginatedMergesByCursor: as in data-client, a fetch with a cursor
// appends its page, and one without (the first page) replaces the list.
func TestPaginatedMergesByCursor(t *testing.T) {
	list, err := rest.New(rest.Options{Path: "/posts", Schema: schema.ArrayOf(post)})
	require.NoError(t, err)
	pages, err := list.Paginated("page")
	require.NoError(t, err)
	tests := []struct {
		name   string
		params value.Value
		merges bool
	}{
		{"no params", value.Undef, false},
		{"no cursor", obj(`{}`), false},
		{"no cursor, other params", obj(`{"sort":"new"}`), false},
		{"null cursor", obj(`{"page":null}`), false},
		{"empty cursor", obj(`{"page":""}`), false},
		{"string cursor", obj(`{"page":"2"}`), true},
		{"number cursor", obj(`{"page":2}`), true},
		{"a cursor that names the first page still appends", obj(`{"page":0}`), true},
		{"other cursor param absent", obj(`{"cursor":"2"}`), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merge := pages.Spec().MergeResult(tt.params)
			if !tt.merges {
				assert.Nil(t, merge, "the first page replaces the stored list")
				return
			}
			require.NotNil(t, merge)
			assert.Equal(t, `["1","2","3"]`, merge(obj(`["1","2"]`), obj(`["2","3"]`)).JSON())
		})
	}
}

// storeResult applies a normalized result as the controller stores it:
// merged into stored when the endpoint merges for params, else in its place.
func storeResult(ep *rest.Endpoint, params, stored, incoming value.Value) value.Value {
	if merge := ep.Spec().MergeResult(params); merge != nil {
		return merge(stored, incoming)
	}
	return incoming
}

func TestPaginatedErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		o      rest.Options
		cursor string
		want   string
	}{
		{"no schema", rest.Options{Path: "/a", Name: "a"}, "page", "a: paginated: endpoint has no schema"},
		{"entity schema", rest.Options{Path: "/a", Name: "a", Schema: post}, "page", "a: paginated: schema *schema.Entity is not a list"},
		{"object without list", rest.Options{Path: "/a", Name: "a", Schema: schema.ObjectOf(schema.Nested("p", post))}, "page", "a: paginated: object schema has no list member"},
		{"cursor is a token", rest.Options{Path: "/a/:page", Name: "a", Schema: schema.ArrayOf(post)}, "page", `a: paginated: cursor param "page" is a path token`},
		{"empty cursor", rest.Options{Path: "/a", Name: "a", Schema: schema.ArrayOf(post)}, "", "a: paginated: empty cursor param"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, err := rest.New(tt.o)
			require.NoError(t, err)
			_, err = e.Paginated(tt.cursor)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

func TestPaginatedFetch(t *testing.T) {
	var firstPages atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("page") {
		case "":
			if firstPages.Add(1) > 1 {
				// Since the first read, post 2 was deleted and 4 added.
				io.WriteString(w, `{"results":[{"id":4},{"id":1}],"nextPage":"2"}`)
				return
			}
			io.WriteString(w, `{"results":[{"id":1},{"id":2}],"nextPage":"2"}`)
		case "2":
			io.WriteString(w, `{"results":[{"id":2},{"id":3}],"nextPage":""}`)
		default:
			http.NotFound(w, r)
		}
	})
	s := schema.ObjectOf(schema.Nested("results", schema.ArrayOf(post)), schema.Default("nextPage", value.Str("")))
	list := newEndpoint(t, srv, rest.Options{Path: "/post", Name: "posts", Schema: s})
	pages, err := list.Paginated("page")
	require.NoError(t, err)
	ctx := context.Background()

	var stored value.Value
	for _, params := range []value.Value{value.Undef, obj(`{"page":"2"}`)} {
		v, err := pages.Fetch(ctx, params, nil)
		require.NoError(t, err)
		n, err := schema.Normalize(pages.Spec().Schema, v)
		require.NoError(t, err)
		stored = storeResult(pages, params, stored, n.Result)
	}
	assert.Equal(t, "page=2", srv.last(t).RawQuery)
	assert.Equal(t, `{"results":["1","2","3"],"nextPage":""}`, stored.JSON())

	// A refresh (the first page again) starts the list over.
	v, err := pages.Fetch(ctx, value.Undef, nil)
	require.NoError(t, err)
	n, err := schema.Normalize(pages.Spec().Schema, v)
	require.NoError(t, err)
	stored = storeResult(pages, value.Undef, stored, n.Result)
	assert.Equal(t, `{"results":["4","1"],"nextPage":"2"}`, stored.JSON())
}
