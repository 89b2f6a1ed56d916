package rest_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// A Collection anywhere in an object schema gives the endpoint its
// collection endpoints, as data-client's extractCollection finds it:
// {results: C}, {data: {results: C}} and deeper.
func TestCollectionEndpointsNested(t *testing.T) {
	coll := schema.CollectionOf(schema.ArrayOf(post))
	for _, tt := range []struct {
		name   string
		schema schema.Schema
	}{
		{"the collection", coll},
		{"a member", schema.ObjectOf(schema.Nested("results", coll), schema.Default("nextPage", value.Str("")))},
		{"two levels", schema.ObjectOf(schema.Default("nextPage", value.Str("")),
			schema.Nested("data", schema.ObjectOf(schema.Nested("results", coll))))},
		{"three levels", schema.ObjectOf(schema.Nested("a", schema.ObjectOf(schema.Nested("b", schema.ObjectOf(schema.Nested("c", coll))))))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			list, err := rest.New(rest.Options{Path: "/posts", Name: "posts", Schema: tt.schema, PaginationField: "cursor"})
			require.NoError(t, err)
			assert.Same(t, coll, list.Collection())
			for _, op := range []struct {
				name   string
				make   func() (*rest.Endpoint, error)
				method string
			}{
				{"push", list.Push, "POST"},
				{"unshift", list.Unshift, "POST"},
				{"remove", list.Remove, "PATCH"},
				{"move", list.Move, "PATCH"},
				{"getPage", list.GetPage, "GET"},
			} {
				ep, err := op.make()
				require.NoError(t, err, op.name)
				assert.Equal(t, op.method, ep.Method(), op.name)
			}
			page, err := list.GetPage()
			require.NoError(t, err)
			k, err := page.Key(obj(`{"cursor":"2","tag":"x"}`))
			require.NoError(t, err)
			want, err := list.Key(obj(`{"tag":"x"}`))
			require.NoError(t, err)
			assert.Equal(t, want, k, "a page has the key of the list")
		})
	}
	none := schema.ObjectOf(schema.Nested("data", schema.ObjectOf(schema.Nested("results", schema.ArrayOf(post)))))
	list, err := rest.New(rest.Options{Path: "/posts", Schema: none})
	require.NoError(t, err)
	_, err = list.Move()
	require.ErrorContains(t, err, "no Collection")
}

// Move PATCHes the MovePath option's path (a resource's getList has the
// record's), else the endpoint's own.
func TestMoveEndpoint(t *testing.T) {
	r, err := rest.NewResource(rest.ResourceOptions{URLPrefix: "http://h", Path: "/groups/:group/users/:id", Schema: article, Name: "User"})
	require.NoError(t, err)
	plain, err := rest.New(rest.Options{URLPrefix: "http://h", Path: "/articles", Schema: schema.CollectionOf(schema.ArrayOf(article))})
	require.NoError(t, err)
	moved, err := rest.New(rest.Options{URLPrefix: "http://h", Path: "/articles", MovePath: "/articles/:id", Schema: schema.CollectionOf(schema.ArrayOf(article))})
	require.NoError(t, err)
	for _, tt := range []struct {
		name   string
		list   *rest.Endpoint
		params string
		url    string
		epName string
	}{
		{"resource", r.GetList, `{"group":"big","id":"5"}`, "http://h/groups/big/users/5", "User.getList.move"},
		{"no movePath", plain, `{"id":"5"}`, "http://h/articles?id=5", "/articles.move"},
		{"movePath", moved, `{"id":"5"}`, "http://h/articles/5", "/articles.move"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			move, err := tt.list.Move()
			require.NoError(t, err)
			assert.Equal(t, "PATCH", move.Method())
			assert.Equal(t, tt.epName, move.Name())
			u, err := move.URL(obj(tt.params))
			require.NoError(t, err)
			assert.Equal(t, tt.url, u)
			add, ok := move.Spec().Schema.(*schema.CollectionAdd)
			require.True(t, ok, "the schema is the collection's move")
			assert.Equal(t, schema.Move, add.Op)
		})
	}
	u, err := r.Update.URL(obj(`{"group":"big","id":"5"}`))
	require.NoError(t, err)
	assert.Equal(t, "http://h/groups/big/users/5", u, "the same URL as update")
}

// PaginatedBy is data-client's paginated(removeCursor): the function
// takes the cursor out of the params for the key and the collection's
// args; every page appends.
func TestPaginatedBy(t *testing.T) {
	coll := schema.CollectionOf(schema.ArrayOf(post))
	s := schema.ObjectOf(schema.Default("nextPage", value.Str("")), schema.Nested("data", schema.ObjectOf(schema.Nested("results", coll))))
	list, err := rest.New(rest.Options{Path: "/posts/:group", Name: "posts", Schema: s})
	require.NoError(t, err)
	removeCursor := func(p value.Value) (value.Value, error) { return p.Without("after"), nil }
	pages, err := list.PaginatedBy(removeCursor)
	require.NoError(t, err)
	listKey, err := list.Key(obj(`{"group":"a"}`))
	require.NoError(t, err)

	p := obj(`{"group":"a","after":"x"}`)
	k, err := pages.Key(p)
	require.NoError(t, err)
	assert.Equal(t, listKey, k, "the key of the list")
	rk, err := pages.RequestKey(p)
	require.NoError(t, err)
	assert.NotEqual(t, listKey, rk, "a page is its own request")
	u, err := pages.URL(p)
	require.NoError(t, err)
	assert.Equal(t, "/posts/a?after=x", u, "the URL has every param")
	a := pages.Spec().Args(p, nil)
	assert.Equal(t, `{"group":"a"}`, a.Params.JSON(), "the collection's args lack the cursor")
	assert.True(t, a.Append)
	merge := pages.Spec().MergeResult(p)
	require.NotNil(t, merge)
	got := merge(obj(`{"nextPage":"x","data":{"results":"pk"}}`), obj(`{"nextPage":"","data":{"results":"pk"}}`))
	assert.Equal(t, `{"nextPage":"","data":{"results":"pk"}}`, got.JSON())

	ext, err := pages.Extend(func(o *rest.Options) { o.Name = "posts2" })
	require.NoError(t, err)
	k, err = ext.Key(obj(`{"group":"a","after":"x"}`))
	require.NoError(t, err)
	k2, err := ext.Key(obj(`{"group":"a"}`))
	require.NoError(t, err)
	assert.Equal(t, k2, k, "extending keeps pagination")

	failing, err := list.PaginatedBy(func(value.Value) (value.Value, error) { return value.Undef, errors.New("bad cursor") })
	require.NoError(t, err)
	_, err = failing.Key(obj(`{"group":"a"}`))
	require.ErrorContains(t, err, "bad cursor")
}

// A page of a list nested two levels down ({nextPage, data: {results:
// [S]}}) is appended to it; the other members come from the newest page.
func TestPaginatedMergeNested(t *testing.T) {
	s := schema.ObjectOf(schema.Default("nextPage", value.Str("")), schema.Nested("data", schema.ObjectOf(schema.Nested("results", schema.ArrayOf(post)))))
	list, err := rest.New(rest.Options{Path: "/post", Schema: s})
	require.NoError(t, err)
	pages, err := list.Paginated("page")
	require.NoError(t, err)
	merge := pages.Spec().MergeResult(obj(`{"page":"2"}`))
	require.NotNil(t, merge)
	got := merge(obj(`{"nextPage":"2","data":{"results":["1","2"],"n":1}}`), obj(`{"nextPage":"3","data":{"results":["2","3"],"n":2}}`))
	assert.Equal(t, `{"nextPage":"3","data":{"results":["1","2","3"],"n":2}}`, got.JSON())
}
