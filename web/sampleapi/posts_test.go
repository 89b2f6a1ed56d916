package sampleapi_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/web/sampleapi"
)

func TestTokenPosts(t *testing.T) {
	f := newFixture(t, sampleapi.Options{PageSize: 10})
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
			p := apitest.Decode[sampleapi.TokenPostsPage](t, f.Do(http.MethodGet, "/posts"+tt.query, nil))
			require.Len(t, p.Results, tt.count)
			assert.Equal(t, tt.first, p.Results[0].ID)
			assert.Equal(t, tt.next, p.NextPage)
			assert.Equal(t, tt.prev, p.PrevPage)
		})
	}

	// A token is also a fetchable URL.
	p := apitest.Decode[sampleapi.TokenPostsPage](t, f.Do(http.MethodGet, "/posts", nil))
	next := apitest.Decode[sampleapi.TokenPostsPage](t, f.Do(http.MethodGet, *p.NextPage, nil))
	assert.Equal(t, 11, next.Results[0].ID)
	assert.Equal(t, http.StatusBadRequest, f.Do(http.MethodGet, "/posts?page=%3Fpage%3Dx", nil).Status)
}

// TestMountedUnderPrefix serves the API under /api with http.StripPrefix:
// routes, counts and handed-out URLs must all work from there.
func TestMountedUnderPrefix(t *testing.T) {
	s := sampleapi.New(sampleapi.Options{BasePath: "/api/"})
	f := apitest.Mount(t, s, "/api")

	p := apitest.Decode[sampleapi.TokenPostsPage](t, f.Do(http.MethodGet, "/api/posts", nil))
	require.NotNil(t, p.NextPage)
	assert.Equal(t, "/api/posts?page=2", *p.NextPage)
	assert.Equal(t, 6, apitest.Decode[sampleapi.TokenPostsPage](t, f.Do(http.MethodGet, *p.NextPage, nil)).Results[0].ID)

	assert.Equal(t, http.StatusOK, f.Do(http.MethodGet, "/api/_control/counts", nil).Status)
	assert.Equal(t, 1, s.Count("GET /posts"), "counts are keyed relative to the mount point")
}
