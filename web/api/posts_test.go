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

	p := decode[api.TokenPostsPage](t, f.do(http.MethodGet, "/api/posts", nil))
	require.NotNil(t, p.NextPage)
	assert.Equal(t, "/api/posts?page=2", *p.NextPage)
	assert.Equal(t, 6, decode[api.TokenPostsPage](t, f.do(http.MethodGet, *p.NextPage, nil)).Results[0].ID)

	assert.Equal(t, http.StatusOK, f.do(http.MethodGet, "/api/_control/counts", nil).status)
	assert.Equal(t, 1, s.Count("GET /posts"), "counts are keyed relative to the mount point")
}
