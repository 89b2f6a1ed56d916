package restserver_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/restserver"
	"github.com/datafetch/datafetch/web/sampleapi"
)

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
			f := newFixture(t, sampleapi.Options{})
			f.API.Hold()
			first := f.Async(http.MethodPatch, "/articles/1", map[string]any{"title": "first"})
			f.WaitHeld(1)
			second := f.Async(http.MethodPatch, "/articles/1", map[string]any{"title": "second"})
			f.WaitHeld(2)
			assert.Equal(t, []restserver.HeldRequest{
				{Seq: 1, Method: "PATCH", Path: "/articles/1", Stage: "request"},
				{Seq: 2, Method: "PATCH", Path: "/articles/1", Stage: "request"},
			}, f.API.Held())

			for _, seq := range tc.order {
				require.True(t, f.API.Release(seq))
			}
			assert.Equal(t, "first", apitest.Decode[sampleapi.Article](t, apitest.Await(t, first)).Title)
			assert.Equal(t, "second", apitest.Decode[sampleapi.Article](t, apitest.Await(t, second)).Title)
			assert.Empty(t, f.API.Held())
			assert.False(t, f.API.Release(1), "a released request cannot be released again")

			f.API.Unhold()
			got := apitest.Decode[sampleapi.Article](t, f.Do(http.MethodGet, "/articles/1", nil))
			assert.Equal(t, tc.wantTitle, got.Title)
		})
	}
}

// TestHeldReadSeesStateAtRelease holds a read, lets a later mutation go
// first, and expects the read to see it.
func TestHeldReadSeesStateAtRelease(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	f.API.Hold()
	read := f.Async(http.MethodGet, "/articles/4", nil)
	f.WaitHeld(1)
	write := f.Async(http.MethodPatch, "/articles/4", map[string]any{"title": "changed"})
	f.WaitHeld(2)

	require.True(t, f.API.Release(2))
	require.Equal(t, http.StatusOK, apitest.Await(t, write).Status)
	require.True(t, f.API.Release(1))
	assert.Equal(t, "changed", apitest.Decode[sampleapi.Article](t, apitest.Await(t, read)).Title)
}

func TestHoldOverHTTP(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/hold", nil).Status)
	a := f.Async(http.MethodPost, "/api/count/increment", nil)
	b := f.Async(http.MethodGet, "/api/count", nil)

	held := apitest.Decode[[]restserver.HeldRequest](t, f.Do(http.MethodGet, "/_control/held?wait=2&timeout=180000", nil))
	require.Len(t, held, 2)
	var incSeq int
	for _, h := range held {
		if h.Method == http.MethodPost {
			incSeq = h.Seq
			assert.Equal(t, "/api/count/increment", h.Path)
		}
	}
	require.NotZero(t, incSeq)

	r := f.Do(http.MethodPost, "/_control/release?seq=99", nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.Equal(t, "no held request with seq 99", apitest.ErrorMessage(t, r))
	assert.Equal(t, http.StatusBadRequest, f.Do(http.MethodPost, "/_control/release", nil).Status)

	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/release?seq="+strconv.Itoa(incSeq), nil).Status)
	assert.Equal(t, 1, apitest.Decode[sampleapi.Count](t, apitest.Await(t, a)).Count)
	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/release-all", nil).Status)
	assert.Equal(t, 1, apitest.Decode[sampleapi.Count](t, apitest.Await(t, b)).Count)

	// Still holding after release-all; unhold lets the next one through.
	c := f.Async(http.MethodGet, "/api/count", nil)
	f.WaitHeld(1)
	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/unhold", nil).Status)
	assert.Equal(t, http.StatusOK, apitest.Await(t, c).Status)
	assert.Equal(t, http.StatusOK, f.Do(http.MethodGet, "/api/count", nil).Status)

	r = f.Do(http.MethodGet, "/_control/held?wait=1&timeout=20", nil)
	assert.Equal(t, http.StatusGatewayTimeout, r.Status)
	assert.Contains(t, apitest.ErrorMessage(t, r), "waiting for 1 held requests")
}

// TestHoldResponses applies requests at once but withholds their answers,
// so a test can deliver them out of order.
func TestHoldResponses(t *testing.T) {
	clk := testkit.NewClock(apitest.FixedNow)
	f := newFixture(t, sampleapi.Options{Now: clk.Now})
	f.API.HoldResponses()

	// Each client's time is the server's: the answers' updatedAt are the same either way.
	first := f.Async(http.MethodPost, "/api/count/increment", map[string]any{"updatedAt": clk.Now().UnixMilli()})
	f.WaitHeld(1)
	clk.Advance(time.Second)
	second := f.Async(http.MethodPost, "/api/count/increment", map[string]any{"updatedAt": clk.Now().UnixMilli()})
	f.WaitHeld(2)
	assert.Equal(t, "response", f.API.Held()[0].Stage)

	require.True(t, f.API.Release(2))
	assert.Equal(t, sampleapi.Count{Count: 2, UpdatedAt: "2025-06-10T15:30:01.000Z"}, apitest.Decode[sampleapi.Count](t, apitest.Await(t, second)))
	require.True(t, f.API.Release(1))
	assert.Equal(t, sampleapi.Count{Count: 1, UpdatedAt: "2025-06-10T15:30:00.000Z"}, apitest.Decode[sampleapi.Count](t, apitest.Await(t, first)))

	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/unhold", nil).Status)
	require.Equal(t, http.StatusNoContent, f.Do(http.MethodPost, "/_control/hold?mode=response", nil).Status)
	assert.Equal(t, http.StatusBadRequest, f.Do(http.MethodPost, "/_control/hold?mode=sideways", nil).Status)
}

// TestResetDropsHeldRequests checks that a request held before it ran is
// answered 503 by Reset and never applied.
func TestResetDropsHeldRequests(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	f.API.Hold()
	patch := f.Async(http.MethodPatch, "/articles/1", map[string]any{"title": "never"})
	f.WaitHeld(1)
	f.API.Reset()

	r := apitest.Await(t, patch)
	assert.Equal(t, http.StatusServiceUnavailable, r.Status)
	assert.Contains(t, apitest.ErrorMessage(t, r), "dropped")
	assert.Empty(t, f.API.Held())
	assert.Equal(t, "Normalizing nested API responses", apitest.Decode[sampleapi.Article](t, f.Do(http.MethodGet, "/articles/1", nil)).Title)
}

// TestHeldClientGone checks that a held request whose client gives up
// leaves the held list, and that WaitHeld honours its context.
func TestHeldClientGone(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	f.API.Hold()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.TS.URL+"/articles/1", nil)
	require.NoError(t, err)
	errc := make(chan error, 1)
	go func() {
		res, err := f.TS.Client().Do(req)
		if err == nil {
			res.Body.Close()
		}
		errc <- err
	}()
	f.WaitHeld(1)
	cancel()
	require.Error(t, <-errc)
	require.Eventually(t, func() bool { return len(f.API.Held()) == 0 }, testkit.WaitLimit, time.Millisecond)

	short, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	assert.ErrorIs(t, f.API.WaitHeld(short, 1), context.DeadlineExceeded)
}
