package sampleapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/sampleapi"
)

func TestArticleCreateAssignsServerIDs(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})

	r := f.Do(http.MethodPost, "/articles", map[string]any{
		"id": "temp-1f3a", "title": "Draft", "content": "Body", "published": true, "tags": []string{"go"}, "unknown": 1,
	})
	require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
	assert.Equal(t, apitest.JSONType, r.ContentType())
	a := apitest.Decode[sampleapi.Article](t, r)
	author := (*int)(nil)
	assert.Equal(t, sampleapi.Article{
		ID: "101", Title: "Draft", Content: "Body", Published: true, Tags: []string{"go"},
		Author: author, CreatedAt: "2025-06-10T15:30:00.000Z",
	}, a, "the client's temporary id is ignored")

	r = f.Do(http.MethodPost, "/articles", map[string]any{"title": "Second"})
	b := apitest.Decode[sampleapi.Article](t, r)
	assert.Equal(t, "102", b.ID)
	assert.Equal(t, []string{}, b.Tags, "missing fields take their defaults")
	assert.False(t, b.Published)

	got := apitest.Decode[sampleapi.Article](t, f.Do(http.MethodGet, "/articles/101", nil))
	assert.Equal(t, a, got)
	list := apitest.Decode[[]sampleapi.Article](t, f.Do(http.MethodGet, "/articles", nil))
	require.Len(t, list, 26)
	assert.Equal(t, "102", list[25].ID, "new articles are listed last")
}

func TestArticleUpdates(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	orig := apitest.Decode[sampleapi.Article](t, f.Do(http.MethodGet, "/articles/2", nil))

	// PATCH changes only what is sent and answers the whole record.
	r := f.Do(http.MethodPatch, "/articles/2", map[string]any{"published": false, "id": "ignored"})
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	patched := apitest.Decode[sampleapi.Article](t, r)
	want := orig
	want.Published = false
	assert.Equal(t, want, patched)
	assert.Equal(t, want, apitest.Decode[sampleapi.Article](t, f.Do(http.MethodGet, "/articles/2", nil)))

	// null resets a field to its default; author may be null.
	patched = apitest.Decode[sampleapi.Article](t, f.Do(http.MethodPatch, "/articles/2", map[string]any{"author": nil, "tags": nil}))
	assert.Nil(t, patched.Author)
	assert.Equal(t, []string{}, patched.Tags)
	assert.Equal(t, orig.Title, patched.Title)

	// PUT replaces every editable field, keeping id and createdAt.
	r = f.Do(http.MethodPut, "/articles/2", map[string]any{"title": "Replaced", "author": 3})
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	three := 3
	assert.Equal(t, sampleapi.Article{
		ID: "2", Title: "Replaced", Tags: []string{}, Author: &three, CreatedAt: orig.CreatedAt,
	}, apitest.Decode[sampleapi.Article](t, r))

	// DELETE answers 204 with no body, and the article is gone.
	r = f.Do(http.MethodDelete, "/articles/2", nil)
	assert.Equal(t, http.StatusNoContent, r.Status)
	assert.Empty(t, r.Body)
	assert.Equal(t, http.StatusNotFound, f.Do(http.MethodGet, "/articles/2", nil).Status)
	assert.Len(t, apitest.Decode[[]sampleapi.Article](t, f.Do(http.MethodGet, "/articles", nil)), 23)
}

// TestMutationErrors covers unknown ids and bad bodies on every mutation,
// and checks that a rejected mutation changes nothing.
func TestMutationErrors(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	tests := []struct {
		name, method, path string
		body               any
		status             int
		message            string
	}{
		{"patch unknown", http.MethodPatch, "/articles/999", map[string]any{"title": "x"}, 404, "article 999 not found"},
		{"put unknown", http.MethodPut, "/articles/999", map[string]any{"title": "x"}, 404, "article 999 not found"},
		{"delete unknown", http.MethodDelete, "/articles/999", nil, 404, "article 999 not found"},
		{"make manager unknown", http.MethodPost, "/users/77/make_manager", nil, 404, "user 77 not found"},
		{"malformed create", http.MethodPost, "/articles", `{"title": `, 400, ""},
		{"array create", http.MethodPost, "/articles", `[1, 2]`, 400, ""},
		{"null create", http.MethodPost, "/articles", `null`, 400, ""},
		{"empty create", http.MethodPost, "/articles", "", 400, "POST /articles: missing JSON body"},
		{"malformed patch", http.MethodPatch, "/articles/1", `{"title": "x"`, 400, ""},
		{"wrong type", http.MethodPatch, "/articles/1", map[string]any{"title": "ok", "published": "yes"}, 400, ""},
		{"fractional author", http.MethodPatch, "/articles/1", map[string]any{"author": 1.5}, 400, ""},
		{"malformed increment", http.MethodPost, "/api/count/increment", `{updatedAt: 1}`, 400, ""},
		{"unknown route", http.MethodPost, "/nowhere", map[string]any{}, 404, "no route for POST /nowhere"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.Do(tt.method, tt.path, tt.body)
			require.Equal(t, tt.status, r.Status, "body: %s", r.Body)
			msg := apitest.ErrorMessage(t, r)
			if tt.message != "" {
				assert.Equal(t, tt.message, msg)
			} else {
				assert.NotEmpty(t, msg)
			}
		})
	}

	a := apitest.Decode[sampleapi.Article](t, f.Do(http.MethodGet, "/articles/1", nil))
	assert.Equal(t, "Normalizing nested API responses", a.Title, "a rejected patch changes nothing")
	assert.True(t, a.Published)
	assert.Len(t, apitest.Decode[[]sampleapi.Article](t, f.Do(http.MethodGet, "/articles", nil)), 24)
	assert.Equal(t, 0, apitest.Decode[sampleapi.Count](t, f.Do(http.MethodGet, "/api/count", nil)).Count)
}

func TestMakeManager(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	r := f.Do(http.MethodPost, "/users/1/make_manager", nil)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	u := apitest.Decode[sampleapi.User](t, r)
	assert.Equal(t, 1, u.ID)
	assert.True(t, u.IsManager)
	assert.True(t, apitest.Decode[sampleapi.User](t, f.Do(http.MethodGet, "/current_user/", nil)).IsManager)
	assert.True(t, apitest.Decode[sampleapi.User](t, f.Do(http.MethodGet, "/users/1", nil)).IsManager)
}

func TestCountIncrement(t *testing.T) {
	clk := testkit.NewClock(apitest.FixedNow)
	f := newFixture(t, sampleapi.Options{Now: clk.Now})

	// The client's time of the increment, a minute behind the server's.
	clk.Advance(time.Minute)
	client := apitest.FixedNow.Add(1500 * time.Millisecond).UnixMilli()
	r := f.Do(http.MethodPost, "/api/count/increment", map[string]any{"updatedAt": client})
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	assert.Equal(t, sampleapi.Count{Count: 1, UpdatedAt: "2025-06-10T15:30:01.500Z"}, apitest.Decode[sampleapi.Count](t, r),
		"updatedAt is the client's time of the increment, on the scale of its optimistic update's fetchedAt")

	r = f.Do(http.MethodPost, "/api/count/increment", map[string]any{"updatedAt": client - 1000})
	assert.Equal(t, sampleapi.Count{Count: 2, UpdatedAt: "2025-06-10T15:30:01.501Z"}, apitest.Decode[sampleapi.Count](t, r),
		"an increment applied later is never older than the one before")

	r = f.Do(http.MethodPost, "/api/count/increment", nil)
	assert.Equal(t, sampleapi.Count{Count: 3, UpdatedAt: "2025-06-10T15:31:00.000Z"}, apitest.Decode[sampleapi.Count](t, r),
		"without a body, the server's time")
	r = f.Do(http.MethodPost, "/api/count/increment", nil)
	assert.Equal(t, sampleapi.Count{Count: 4, UpdatedAt: "2025-06-10T15:31:00.001Z"}, apitest.Decode[sampleapi.Count](t, r),
		"on a clock that has not moved, updatedAt still increases")
	assert.Equal(t, 4, apitest.Decode[sampleapi.Count](t, f.Do(http.MethodGet, "/api/count", nil)).Count)

	r = f.Do(http.MethodPost, "/api/count/increment", map[string]any{"updatedAt": -1})
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.Contains(t, apitest.ErrorMessage(t, r), "updatedAt -1 is not a time")
	assert.Equal(t, 4, apitest.Decode[sampleapi.Count](t, f.Do(http.MethodGet, "/api/count", nil)).Count, "a refused increment changes nothing")
}

// TestCountIncrementBeforeTheSeed: a client whose clock is behind the
// seeded count's updatedAt still gets an answer that is not older than it.
func TestCountIncrementBeforeTheSeed(t *testing.T) {
	f := newFixture(t, sampleapi.Options{Now: testkit.NewClock(apitest.FixedNow).Now})
	r := f.Do(http.MethodPost, "/api/count/increment", map[string]any{"updatedAt": apitest.FixedNow.Add(-time.Hour).UnixMilli()})
	assert.Equal(t, sampleapi.Count{Count: 1, UpdatedAt: "2025-06-10T15:30:00.000Z"}, apitest.Decode[sampleapi.Count](t, r))
}
