package api_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/web/api"
)

func postIDs(ps []api.Post) []int {
	ids := make([]int, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	return ids
}

func TestLastPagePosts(t *testing.T) {
	f := newFixture(t, api.Options{})
	tests := []struct {
		query    string
		ids      []int
		nextPage string
	}{
		{"", []int{1, 2, 3, 4, 5}, "2"},
		{"?page=1", []int{1, 2, 3, 4, 5}, "2"},
		{"?page=4", []int{16, 17, 18, 19, 20}, "5"},
		{"?page=5", []int{21, 22, 23}, ""},
		{"?page=9", []int{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := f.do(http.MethodGet, "/post"+tt.query, nil)
			require.Equal(t, http.StatusOK, r.status)
			p := decode[api.LastPagePostsPage](t, r)
			assert.Equal(t, tt.ids, postIDs(p.Results))
			assert.Equal(t, tt.nextPage, p.NextPage)
			assert.Equal(t, "5", p.LastPage)
		})
	}
	assert.Equal(t, http.StatusBadRequest, f.do(http.MethodGet, "/post?page=0", nil).status)
	assert.Equal(t, http.StatusBadRequest, f.do(http.MethodGet, "/post?page=two", nil).status)
}

func TestTokenPosts(t *testing.T) {
	f := newFixture(t, api.Options{PageSize: 10})
	str := func(s string) *string { return &s }
	tests := []struct {
		query      string
		first      int
		count      int
		next, prev *string
	}{
		{"", 1, 10, str("/posts?page=2"), nil},
		{"?page=2", 11, 10, str("/posts?page=3"), str("/posts?page=1")},
		{"?page=" + url.QueryEscape("/posts?page=3"), 21, 3, nil, str("/posts?page=2")},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			p := decode[api.TokenPostsPage](t, f.do(http.MethodGet, "/posts"+tt.query, nil))
			require.Len(t, p.Results, tt.count)
			assert.Equal(t, tt.first, p.Results[0].ID)
			assert.Equal(t, tt.next, p.NextPage)
			assert.Equal(t, tt.prev, p.PrevPage)
		})
	}

	// A token is also a fetchable URL.
	p := decode[api.TokenPostsPage](t, f.do(http.MethodGet, "/posts", nil))
	next := decode[api.TokenPostsPage](t, f.do(http.MethodGet, *p.NextPage, nil))
	assert.Equal(t, 11, next.Results[0].ID)
	assert.Equal(t, http.StatusBadRequest, f.do(http.MethodGet, "/posts?page=%3Fpage%3Dx", nil).status)
}

func TestLinkedPosts(t *testing.T) {
	f := newFixture(t, api.Options{})
	base := f.ts.URL + "/linked/posts?page="
	tests := []struct {
		query string
		ids   []int
		link  string
	}{
		{"", []int{1, 2, 3, 4, 5}, `<` + base + `2>; rel="next"`},
		{"?page=2", []int{6, 7, 8, 9, 10}, `<` + base + `3>; rel="next", <` + base + `1>; rel="prev"`},
		{"?page=5", []int{21, 22, 23}, `<` + base + `4>; rel="prev"`},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := f.do(http.MethodGet, "/linked/posts"+tt.query, nil)
			require.Equal(t, http.StatusOK, r.status)
			assert.Equal(t, tt.ids, postIDs(decode[[]api.Post](t, r)))
			assert.Equal(t, tt.link, r.header.Get("Link"))
		})
	}
}

// TestMountedUnderPrefix serves the API under /api with http.StripPrefix:
// routes, counts and handed-out URLs must all work from there.
func TestMountedUnderPrefix(t *testing.T) {
	s := api.New(api.Options{BasePath: "/api/"})
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", s))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	t.Cleanup(s.Close)
	f := &fixture{t: t, api: s, ts: ts}

	r := f.do(http.MethodGet, "/api/linked/posts?page=1", nil)
	require.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, `<`+ts.URL+`/api/linked/posts?page=2>; rel="next"`, r.header.Get("Link"))

	p := decode[api.TokenPostsPage](t, f.do(http.MethodGet, "/api/posts", nil))
	require.NotNil(t, p.NextPage)
	assert.Equal(t, "/api/posts?page=2", *p.NextPage)
	assert.Equal(t, 6, decode[api.TokenPostsPage](t, f.do(http.MethodGet, *p.NextPage, nil)).Results[0].ID)

	assert.Equal(t, http.StatusOK, f.do(http.MethodGet, "/api/_control/counts", nil).status)
	assert.Equal(t, 1, s.Count("GET /linked/posts?page=1"), "counts are keyed relative to the mount point")
}
