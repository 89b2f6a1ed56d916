package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/web/api"
)

func TestFailNextOnlyFailsMutations(t *testing.T) {
	f := newFixture(t, api.Options{})
	f.api.FailNext(2, http.StatusServiceUnavailable)

	assert.Equal(t, http.StatusOK, f.do(http.MethodGet, "/articles/1", nil).status, "reads are not failed")

	tests := []struct {
		method, path string
		body         any
	}{
		{http.MethodPatch, "/articles/1", map[string]any{"title": "lost"}},
		{http.MethodPost, "/api/count/increment", nil},
	}
	for _, tt := range tests {
		r := f.do(tt.method, tt.path, tt.body)
		require.Equal(t, http.StatusServiceUnavailable, r.status, "%s %s", tt.method, tt.path)
		assert.Contains(t, errorMessage(t, r), "injected failure")
	}

	assert.Equal(t, "Normalizing nested API responses", decode[api.Article](t, f.do(http.MethodGet, "/articles/1", nil)).Title)
	assert.Equal(t, 0, decode[api.Count](t, f.do(http.MethodGet, "/api/count", nil)).Count, "a failed mutation changes nothing")

	r := f.do(http.MethodPatch, "/articles/1", map[string]any{"title": "kept"})
	require.Equal(t, http.StatusOK, r.status, "the budget is spent")
	assert.Equal(t, "kept", decode[api.Article](t, r).Title)
}

func TestFailNextOverHTTP(t *testing.T) {
	f := newFixture(t, api.Options{})
	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/fail-next", nil).status)
	assert.Equal(t, http.StatusInternalServerError, f.do(http.MethodDelete, "/articles/5", nil).status, "defaults: one failure, status 500")
	assert.Equal(t, http.StatusNoContent, f.do(http.MethodDelete, "/articles/5", nil).status)

	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/fail-next?count=1&status=422", nil).status)
	assert.Equal(t, http.StatusUnprocessableEntity, f.do(http.MethodPost, "/articles", map[string]any{}).status)
	assert.Len(t, decode[[]api.Article](t, f.do(http.MethodGet, "/articles", nil)), 23)

	for _, q := range []string{"count=x", "status=200", "status=600", "count=-1"} {
		assert.Equal(t, http.StatusBadRequest, f.do(http.MethodPost, "/_control/fail-next?"+q, nil).status, q)
	}
}

// TestFailNextIsSpentAtRelease checks that held mutations spend failures in
// the order they are released, not the order they arrived.
func TestFailNextIsSpentAtRelease(t *testing.T) {
	f := newFixture(t, api.Options{})
	f.api.Hold()
	first := f.async(http.MethodPatch, "/articles/1", map[string]any{"title": "first"})
	waitHeld(t, f.api, 1)
	second := f.async(http.MethodPatch, "/articles/1", map[string]any{"title": "second"})
	waitHeld(t, f.api, 2)
	f.api.FailNext(1, 0)

	require.True(t, f.api.Release(2))
	assert.Equal(t, http.StatusInternalServerError, await(t, second).status)
	require.True(t, f.api.Release(1))
	assert.Equal(t, http.StatusOK, await(t, first).status)
}

func TestCounts(t *testing.T) {
	f := newFixture(t, api.Options{})
	for range 3 {
		f.do(http.MethodGet, "/articles/1", nil)
	}
	f.do(http.MethodGet, "/posts?page=2", nil)
	f.do(http.MethodPatch, "/articles/1", map[string]any{"published": true})
	f.do(http.MethodGet, "/no/such/route", nil)
	f.do(http.MethodGet, "/_control/held", nil)
	f.do(http.MethodOptions, "/articles/1", nil)

	want := map[string]int{
		"GET /articles/1":    3,
		"GET /posts?page=2":  1,
		"PATCH /articles/1":  1,
		"GET /no/such/route": 1,
	}
	assert.Equal(t, want, f.api.Counts())
	assert.Equal(t, 3, f.api.Count("GET /articles/1"))
	assert.Equal(t, 0, f.api.Count("GET /articles/2"))
	assert.Equal(t, want, decode[map[string]int](t, f.do(http.MethodGet, "/_control/counts", nil)))

	// A held request is counted when it arrives, before it is released.
	f.api.Hold()
	r := f.async(http.MethodGet, "/articles/9", nil)
	waitHeld(t, f.api, 1)
	assert.Equal(t, 1, f.api.Count("GET /articles/9"))
	f.api.Unhold()
	assert.Equal(t, http.StatusOK, await(t, r).status)
}

func TestDelay(t *testing.T) {
	f := newFixture(t, api.Options{})
	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/delay?ms=60", nil).status)
	start := time.Now()
	f.do(http.MethodGet, "/comments/1", nil)
	assert.GreaterOrEqual(t, time.Since(start), 60*time.Millisecond)

	// A delay of an hour: a control request that paid it would outlast
	// await's hang guard and fail the test; one that did not returns.
	f.api.SetDelay(time.Hour)
	assert.Equal(t, http.StatusOK, await(t, f.async(http.MethodGet, "/_control/counts", nil)).status, "control requests are not delayed")

	f.api.SetDelay(0)
	assert.Equal(t, http.StatusBadRequest, f.do(http.MethodPost, "/_control/delay?ms=-5", nil).status)
	assert.Equal(t, http.StatusBadRequest, f.do(http.MethodPost, "/_control/delay?ms=soon", nil).status)
	assert.Equal(t, http.StatusBadRequest, f.do(http.MethodPost, "/_control/delay?jitter=-1", nil).status)
}

func TestJitter(t *testing.T) {
	f := newFixture(t, api.Options{})
	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/delay?ms=20&jitter=40", nil).status)
	delay, jitter := f.api.Latency()
	assert.Equal(t, 20*time.Millisecond, delay)
	assert.Equal(t, 40*time.Millisecond, jitter)
	// Only lower bounds are timed: a shared machine can make any request
	// slower, never faster than the delay.
	for range 4 {
		start := time.Now()
		f.do(http.MethodGet, "/comments/1", nil)
		assert.GreaterOrEqual(t, time.Since(start), 20*time.Millisecond, "the delay is the floor")
	}

	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/delay?ms=0", nil).status)
	delay, jitter = f.api.Latency()
	assert.Zero(t, delay)
	assert.Zero(t, jitter, "setting the delay without jitter turns jitter off")
}

func TestReset(t *testing.T) {
	f := newFixture(t, api.Options{})
	seedArticles := f.do(http.MethodGet, "/articles", nil).body

	f.do(http.MethodPatch, "/articles/1", map[string]any{"title": "changed"})
	f.do(http.MethodDelete, "/articles/2", nil)
	f.do(http.MethodPost, "/articles", map[string]any{"title": "new"})
	f.do(http.MethodPost, "/api/count/increment", nil)
	f.do(http.MethodPost, "/users/1/make_manager", nil)
	f.api.SetDelay(time.Hour)
	f.api.SetJitter(time.Hour)
	f.api.FailNext(5, 500)

	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/reset", nil).status)
	assert.Empty(t, f.api.Counts())

	assert.Equal(t, string(seedArticles), string(f.do(http.MethodGet, "/articles", nil).body), "no delay after reset")
	assert.Equal(t, 0, decode[api.Count](t, f.do(http.MethodGet, "/api/count", nil)).Count)
	assert.False(t, decode[api.User](t, f.do(http.MethodGet, "/current_user/", nil)).IsManager)

	r := f.do(http.MethodPost, "/articles", map[string]any{"title": "after reset"})
	require.Equal(t, http.StatusCreated, r.status, "pending failures are cleared")
	assert.Equal(t, "101", decode[api.Article](t, r).ID, "ids start over")
}

func TestUnknownControlRoute(t *testing.T) {
	f := newFixture(t, api.Options{})
	r := f.do(http.MethodPost, "/_control/explode", nil)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.Equal(t, "no route for POST /_control/explode", errorMessage(t, r))
	assert.Empty(t, f.api.Counts())
}

// TestDelayHoldsTheAnswerNotTheChange checks that latency delays answers,
// not changes: requests change the state in the order they arrive. Delayed
// before running, a counter's increments were applied in a random order,
// and the demo's Counter went down while clicks were in flight (issue 10,
// item 11).
func TestDelayHoldsTheAnswerNotTheChange(t *testing.T) {
	f := newFixture(t, api.Options{})
	f.api.SetDelay(time.Hour)
	for range 3 {
		f.async(http.MethodPost, "/api/count/increment", nil)
	}
	require.Eventually(t, func() bool { return f.api.Count("POST /api/count/increment") == 3 },
		waitLimit, time.Millisecond, "the increments arrive")
	f.api.SetDelay(0)
	// The answers are an hour away; the count is not.
	require.Eventually(t, func() bool {
		return decode[api.Count](t, f.do(http.MethodGet, "/api/count", nil)).Count == 3
	}, waitLimit, time.Millisecond, "increments wait out their latency before they apply")
}
