package restserver_test

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

func TestFailNextOnlyFailsMutations(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	f.API.FailNext(2, http.StatusServiceUnavailable)

	assert.Equal(t, http.StatusOK, f.Do(http.MethodGet, "/articles/1", nil).Status, "reads are not failed")

	tests := []struct {
		method, path string
		body         any
	}{
		{http.MethodPatch, "/articles/1", map[string]any{"title": "lost"}},
		{http.MethodPost, "/api/count/increment", nil},
	}
	for _, tt := range tests {
		r := f.Do(tt.method, tt.path, tt.body)
		require.Equal(t, http.StatusServiceUnavailable, r.Status, "%s %s", tt.method, tt.path)
		assert.Contains(t, apitest.ErrorMessage(t, r), "injected failure")
	}

	assert.Equal(t, "Normalizing nested API responses", apitest.Decode[sampleapi.Article](t, f.Do(http.MethodGet, "/articles/1", nil)).Title)
	assert.Equal(t, 0, apitest.Decode[sampleapi.Count](t, f.Do(http.MethodGet, "/api/count", nil)).Count, "a failed mutation changes nothing")

	r := f.Do(http.MethodPatch, "/articles/1", map[string]any{"title": "kept"})
	require.Equal(t, http.StatusOK, r.Status, "the budget is spent")
	assert.Equal(t, "kept", apitest.Decode[sampleapi.Article](t, r).Title)
}

func TestFailNextOverHTTP(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/fail-next", nil).Status)
	assert.Equal(t, http.StatusInternalServerError, f.Do(http.MethodDelete, "/articles/5", nil).Status, "defaults: one failure, status 500")
	assert.Equal(t, http.StatusNoContent, f.Do(http.MethodDelete, "/articles/5", nil).Status)

	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/fail-next?count=1&status=422", nil).Status)
	assert.Equal(t, http.StatusUnprocessableEntity, f.Do(http.MethodPost, "/articles", map[string]any{}).Status)
	assert.Len(t, apitest.Decode[[]sampleapi.Article](t, f.Do(http.MethodGet, "/articles", nil)), 23)

	for _, q := range []string{"count=x", "status=200", "status=600", "count=-1"} {
		assert.Equal(t, http.StatusBadRequest, f.Do(http.MethodPost, "/_control/fail-next?"+q, nil).Status, q)
	}
}

// TestFailNextGets checks the control behind the demo's "fail the next 2
// GETs": reads fail, with a retryable status, until the budget is spent;
// mutations and the counts are unaffected, and a reset disarms it.
func TestFailNextGets(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/fail-next-get?count=2", nil).Status)
	r := f.Do(http.MethodPatch, "/articles/1", map[string]any{"title": "kept"})
	assert.Equal(t, http.StatusOK, r.Status, "mutations are not failed")
	for i := range 2 {
		r := f.Do(http.MethodGet, "/articles/1", nil)
		require.Equal(t, http.StatusServiceUnavailable, r.Status, "GET %d: default status 503", i+1)
		assert.Contains(t, apitest.ErrorMessage(t, r), "injected failure (fail-next-get)")
	}
	assert.Equal(t, "kept", apitest.Decode[sampleapi.Article](t, f.Do(http.MethodGet, "/articles/1", nil)).Title, "the budget is spent")
	assert.Equal(t, 3, f.API.Count("GET /articles/1"), "failed reads are counted like any")

	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/fail-next-get?count=1&status=500", nil).Status)
	assert.Equal(t, http.StatusInternalServerError, f.Do(http.MethodGet, "/posts", nil).Status)

	f.API.FailNextGets(1, 0)
	f.API.Reset()
	assert.Equal(t, http.StatusOK, f.Do(http.MethodGet, "/posts", nil).Status, "a reset disarms it")

	for _, q := range []string{"count=x", "status=200", "status=600", "count=-1"} {
		assert.Equal(t, http.StatusBadRequest, f.Do(http.MethodPost, "/_control/fail-next-get?"+q, nil).Status, q)
	}
}

// TestFailNextIsSpentAtRelease checks that held mutations spend failures in
// the order they are released, not the order they arrived.
func TestFailNextIsSpentAtRelease(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	f.API.Hold()
	first := f.Async(http.MethodPatch, "/articles/1", map[string]any{"title": "first"})
	f.WaitHeld(1)
	second := f.Async(http.MethodPatch, "/articles/1", map[string]any{"title": "second"})
	f.WaitHeld(2)
	f.API.FailNext(1, 0)

	require.True(t, f.API.Release(2))
	assert.Equal(t, http.StatusInternalServerError, apitest.Await(t, second).Status)
	require.True(t, f.API.Release(1))
	assert.Equal(t, http.StatusOK, apitest.Await(t, first).Status)
}

func TestCounts(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	for range 3 {
		f.Do(http.MethodGet, "/articles/1", nil)
	}
	f.Do(http.MethodGet, "/posts?page=2", nil)
	f.Do(http.MethodPatch, "/articles/1", map[string]any{"published": true})
	f.Do(http.MethodGet, "/no/such/route", nil)
	f.Do(http.MethodGet, "/_control/held", nil)
	f.Do(http.MethodOptions, "/articles/1", nil)

	want := map[string]int{
		"GET /articles/1":    3,
		"GET /posts?page=2":  1,
		"PATCH /articles/1":  1,
		"GET /no/such/route": 1,
	}
	assert.Equal(t, want, f.API.Counts())
	assert.Equal(t, 3, f.API.Count("GET /articles/1"))
	assert.Equal(t, 0, f.API.Count("GET /articles/2"))
	assert.Equal(t, want, apitest.Decode[map[string]int](t, f.Do(http.MethodGet, "/_control/counts", nil)))

	// A held request is counted when it arrives, before it is released.
	f.API.Hold()
	r := f.Async(http.MethodGet, "/articles/9", nil)
	f.WaitHeld(1)
	assert.Equal(t, 1, f.API.Count("GET /articles/9"))
	f.API.Unhold()
	assert.Equal(t, http.StatusOK, apitest.Await(t, r).Status)
}

func TestDelay(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/delay?ms=60", nil).Status)
	start := time.Now()
	f.Do(http.MethodGet, "/comments/1", nil)
	assert.GreaterOrEqual(t, time.Since(start), 60*time.Millisecond)

	// A delay of an hour: a control request that paid it would outlast
	// await's hang guard and fail the test; one that did not returns.
	f.API.SetDelay(time.Hour)
	assert.Equal(t, http.StatusOK, apitest.Await(t, f.Async(http.MethodGet, "/_control/counts", nil)).Status, "control requests are not delayed")

	f.API.SetDelay(0)
	assert.Equal(t, http.StatusBadRequest, f.Do(http.MethodPost, "/_control/delay?ms=-5", nil).Status)
	assert.Equal(t, http.StatusBadRequest, f.Do(http.MethodPost, "/_control/delay?ms=soon", nil).Status)
	assert.Equal(t, http.StatusBadRequest, f.Do(http.MethodPost, "/_control/delay?jitter=-1", nil).Status)
}

func TestJitter(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/delay?ms=20&jitter=40", nil).Status)
	delay, jitter := f.API.Latency()
	assert.Equal(t, 20*time.Millisecond, delay)
	assert.Equal(t, 40*time.Millisecond, jitter)
	// Only lower bounds are timed: a shared machine can make any request
	// slower, never faster than the delay.
	for range 4 {
		start := time.Now()
		f.Do(http.MethodGet, "/comments/1", nil)
		assert.GreaterOrEqual(t, time.Since(start), 20*time.Millisecond, "the delay is the floor")
	}

	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/delay?ms=0", nil).Status)
	delay, jitter = f.API.Latency()
	assert.Zero(t, delay)
	assert.Zero(t, jitter, "setting the delay without jitter turns jitter off")
}

func TestReset(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	seedArticles := f.Do(http.MethodGet, "/articles", nil).Body

	f.Do(http.MethodPatch, "/articles/1", map[string]any{"title": "changed"})
	f.Do(http.MethodDelete, "/articles/2", nil)
	f.Do(http.MethodPost, "/articles", map[string]any{"title": "new"})
	f.Do(http.MethodPost, "/api/count/increment", nil)
	f.Do(http.MethodPost, "/users/1/make_manager", nil)
	f.API.SetDelay(time.Hour)
	f.API.SetJitter(time.Hour)
	f.API.FailNext(5, 500)

	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/reset", nil).Status)
	assert.Empty(t, f.API.Counts())

	assert.Equal(t, string(seedArticles), string(f.Do(http.MethodGet, "/articles", nil).Body), "no delay after reset")
	assert.Equal(t, 0, apitest.Decode[sampleapi.Count](t, f.Do(http.MethodGet, "/api/count", nil)).Count)
	assert.False(t, apitest.Decode[sampleapi.User](t, f.Do(http.MethodGet, "/current_user/", nil)).IsManager)

	r := f.Do(http.MethodPost, "/articles", map[string]any{"title": "after reset"})
	require.Equal(t, http.StatusCreated, r.Status, "pending failures are cleared")
	assert.Equal(t, "101", apitest.Decode[sampleapi.Article](t, r).ID, "ids start over")
}

func TestUnknownControlRoute(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	r := f.Do(http.MethodPost, "/_control/explode", nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.Equal(t, "no route for POST /_control/explode", apitest.ErrorMessage(t, r))
	assert.Empty(t, f.API.Counts())
}

// TestDelayHoldsTheAnswerNotTheChange checks that latency delays answers,
// not changes: requests change the state in the order they arrive. Delayed
// before running, a counter's increments were applied in a random order,
// and the demo's Counter went down while clicks were in flight (issue 10,
// item 11).
func TestDelayHoldsTheAnswerNotTheChange(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	f.API.SetDelay(time.Hour)
	for range 3 {
		f.Async(http.MethodPost, "/api/count/increment", nil)
	}
	require.Eventually(t, func() bool { return f.API.Count("POST /api/count/increment") == 3 },
		testkit.WaitLimit, time.Millisecond, "the increments arrive")
	f.API.SetDelay(0)
	// The answers are an hour away; the count is not.
	require.Eventually(t, func() bool {
		return apitest.Decode[sampleapi.Count](t, f.Do(http.MethodGet, "/api/count", nil)).Count == 3
	}, testkit.WaitLimit, time.Millisecond, "increments wait out their latency before they apply")
}
