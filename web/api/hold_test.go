package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/web/api"
)

func waitHeld(t *testing.T, s *api.Server, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	require.NoError(t, s.WaitHeld(ctx, n), "held: %v", s.Held())
}

// TestHoldAppliesInReleaseOrder sends two PATCHes and releases them in both
// orders: the later release always wins, because a held request runs
// against the state as it is when released.
func TestHoldAppliesInReleaseOrder(t *testing.T) {
	for _, tc := range []struct {
		name      string
		order     []int
		wantTitle string
	}{
		{"in order", []int{1, 2}, "second"},
		{"reversed", []int{2, 1}, "first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, api.Options{})
			f.api.Hold()
			first := f.async(http.MethodPatch, "/articles/1", map[string]any{"title": "first"})
			waitHeld(t, f.api, 1)
			second := f.async(http.MethodPatch, "/articles/1", map[string]any{"title": "second"})
			waitHeld(t, f.api, 2)
			assert.Equal(t, []api.HeldRequest{
				{Seq: 1, Method: "PATCH", Path: "/articles/1", Stage: "request"},
				{Seq: 2, Method: "PATCH", Path: "/articles/1", Stage: "request"},
			}, f.api.Held())

			for _, seq := range tc.order {
				require.True(t, f.api.Release(seq))
			}
			assert.Equal(t, "first", decode[api.Article](t, await(t, first)).Title)
			assert.Equal(t, "second", decode[api.Article](t, await(t, second)).Title)
			assert.Empty(t, f.api.Held())
			assert.False(t, f.api.Release(1), "a released request cannot be released again")

			f.api.Unhold()
			got := decode[api.Article](t, f.do(http.MethodGet, "/articles/1", nil))
			assert.Equal(t, tc.wantTitle, got.Title)
		})
	}
}

// TestHeldReadSeesStateAtRelease holds a read, lets a later mutation go
// first, and expects the read to see it.
func TestHeldReadSeesStateAtRelease(t *testing.T) {
	f := newFixture(t, api.Options{})
	f.api.Hold()
	read := f.async(http.MethodGet, "/articles/4", nil)
	waitHeld(t, f.api, 1)
	write := f.async(http.MethodPatch, "/articles/4", map[string]any{"title": "changed"})
	waitHeld(t, f.api, 2)

	require.True(t, f.api.Release(2))
	require.Equal(t, http.StatusOK, await(t, write).status)
	require.True(t, f.api.Release(1))
	assert.Equal(t, "changed", decode[api.Article](t, await(t, read)).Title)
}

func TestHoldOverHTTP(t *testing.T) {
	f := newFixture(t, api.Options{})
	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/hold", nil).status)
	a := f.async(http.MethodPost, "/api/count/increment", nil)
	b := f.async(http.MethodGet, "/api/count", nil)

	held := decode[[]api.HeldRequest](t, f.do(http.MethodGet, "/_control/held?wait=2&timeout=180000", nil))
	require.Len(t, held, 2)
	var incSeq int
	for _, h := range held {
		if h.Method == http.MethodPost {
			incSeq = h.Seq
			assert.Equal(t, "/api/count/increment", h.Path)
		}
	}
	require.NotZero(t, incSeq)

	r := f.do(http.MethodPost, "/_control/release?seq=99", nil)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.Equal(t, "no held request with seq 99", errorMessage(t, r))
	assert.Equal(t, http.StatusBadRequest, f.do(http.MethodPost, "/_control/release", nil).status)

	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/release?seq="+itoa(incSeq), nil).status)
	assert.Equal(t, 1, decode[api.Count](t, await(t, a)).Count)
	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/release-all", nil).status)
	assert.Equal(t, 1, decode[api.Count](t, await(t, b)).Count)

	// Still holding after release-all; unhold lets the next one through.
	c := f.async(http.MethodGet, "/api/count", nil)
	waitHeld(t, f.api, 1)
	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/unhold", nil).status)
	assert.Equal(t, http.StatusOK, await(t, c).status)
	assert.Equal(t, http.StatusOK, f.do(http.MethodGet, "/api/count", nil).status)

	r = f.do(http.MethodGet, "/_control/held?wait=1&timeout=20", nil)
	assert.Equal(t, http.StatusGatewayTimeout, r.status)
	assert.Contains(t, errorMessage(t, r), "waiting for 1 held requests")
}

// TestHoldResponses applies requests at once but withholds their answers,
// so a test can deliver them out of order.
func TestHoldResponses(t *testing.T) {
	clk := newClock(fixedNow)
	f := newFixture(t, api.Options{Now: clk.now})
	f.api.HoldResponses()

	// Each client's time is the server's: the answers' updatedAt are the same either way.
	first := f.async(http.MethodPost, "/api/count/increment", map[string]any{"updatedAt": clk.now().UnixMilli()})
	waitHeld(t, f.api, 1)
	clk.add(time.Second)
	second := f.async(http.MethodPost, "/api/count/increment", map[string]any{"updatedAt": clk.now().UnixMilli()})
	waitHeld(t, f.api, 2)
	assert.Equal(t, "response", f.api.Held()[0].Stage)

	require.True(t, f.api.Release(2))
	assert.Equal(t, api.Count{Count: 2, UpdatedAt: "2025-06-10T15:30:01.000Z"}, decode[api.Count](t, await(t, second)))
	require.True(t, f.api.Release(1))
	assert.Equal(t, api.Count{Count: 1, UpdatedAt: "2025-06-10T15:30:00.000Z"}, decode[api.Count](t, await(t, first)))

	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/unhold", nil).status)
	require.Equal(t, http.StatusNoContent, f.do(http.MethodPost, "/_control/hold?mode=response", nil).status)
	assert.Equal(t, http.StatusBadRequest, f.do(http.MethodPost, "/_control/hold?mode=sideways", nil).status)
}

// TestResetDropsHeldRequests checks that a request held before it ran is
// answered 503 by Reset and never applied.
func TestResetDropsHeldRequests(t *testing.T) {
	f := newFixture(t, api.Options{})
	f.api.Hold()
	patch := f.async(http.MethodPatch, "/articles/1", map[string]any{"title": "never"})
	waitHeld(t, f.api, 1)
	f.api.Reset()

	r := await(t, patch)
	assert.Equal(t, http.StatusServiceUnavailable, r.status)
	assert.Contains(t, errorMessage(t, r), "dropped")
	assert.Empty(t, f.api.Held())
	assert.Equal(t, "Normalizing nested API responses", decode[api.Article](t, f.do(http.MethodGet, "/articles/1", nil)).Title)
}

// TestHeldClientGone checks that a held request whose client gives up
// leaves the held list, and that WaitHeld honours its context.
func TestHeldClientGone(t *testing.T) {
	f := newFixture(t, api.Options{})
	f.api.Hold()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.ts.URL+"/articles/1", nil)
	require.NoError(t, err)
	errc := make(chan error, 1)
	go func() {
		res, err := f.ts.Client().Do(req)
		if err == nil {
			res.Body.Close()
		}
		errc <- err
	}()
	waitHeld(t, f.api, 1)
	cancel()
	require.Error(t, <-errc)
	require.Eventually(t, func() bool { return len(f.api.Held()) == 0 }, waitLimit, time.Millisecond)

	short, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	assert.ErrorIs(t, f.api.WaitHeld(short, 1), context.DeadlineExceeded)
}
