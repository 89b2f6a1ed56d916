package controller_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// staleRig is a controller on a fake clock and fake timers whose requests
// are counted as they start (Options.Go), with a subscription to book 1,
// fetched once: rev 1, valid for a minute.
type staleRig struct {
	c       *controller.Controller
	clk     *testkit.Clock
	timers  *testkit.Timers
	started atomic.Int64
	books   *books
	ep      *funcEndpoint
	rec     *states
}

func newStaleRig(t *testing.T) *staleRig {
	t.Helper()
	r := &staleRig{clk: newClock(), timers: testkit.NewTimers(), rec: &states{}}
	r.c = controller.New(controller.Options{Now: r.clk.Now, AfterFunc: r.timers.AfterFunc, DataExpiryLength: time.Minute,
		Go: func(f func()) {
			r.started.Add(1)
			go f()
		}})
	r.books = &books{}
	r.ep = r.books.endpoint(endpoint.Spec{})
	_, err := r.c.Suspense(context.Background(), r.ep, params("1"))
	require.NoError(t, err)
	unsubscribe, err := r.c.Subscribe(r.ep, params("1"), r.rec.listener)
	require.NoError(t, err)
	t.Cleanup(unsubscribe)
	require.Equal(t, 1, r.rec.len())
	require.Equal(t, endpoint.Valid, r.rec.last().ExpiryStatus)
	return r
}

// waitRev waits until the subscriber was told rev, loaded and valid.
func (r *staleRig) waitRev(t *testing.T, want int) {
	t.Helper()
	require.Eventually(t, func() bool {
		last := r.rec.last()
		return rev(last.Data) == want && !last.Loading && last.ExpiryStatus == endpoint.Valid
	}, testkit.WaitLimit, time.Millisecond, "the subscriber is told rev %d", want)
}

// A subscribed result that goes stale with time is held as it is, as
// data-client's hooks hold it: no timer waits for its expiry, nothing is
// fetched and the listener is not called, even when the store changes
// elsewhere or an entity of the result changes. GetResponse reads its
// status by the clock.
func TestSubscriptionHoldsWhatGoesStaleWithTime(t *testing.T) {
	r := newStaleRig(t)
	fetchedAt := r.clk.Now()
	assert.Empty(t, r.timers.Pending(), "no timer waits for the expiry")

	r.clk.Advance(80 * time.Second) // 80 s after a 60 s expiry
	got := r.c.GetResponse(r.ep, params("1"))
	assert.Equal(t, endpoint.Stale, got.ExpiryStatus, "GetResponse reads the controller's clock")
	assert.Equal(t, fetchedAt.Add(time.Minute).UnixMilli(), got.ExpiresAt)
	assert.Empty(t, r.timers.Pending())
	assert.EqualValues(t, 1, r.started.Load(), "nothing fetched")
	assert.Equal(t, 1, r.rec.len(), "the listener is not called for time passing")

	// Changes to other results: still nothing.
	require.NoError(t, r.c.SetResponse(r.ep, params("2"), value.MustParse(`{"id":"2","title":"two","rev":0}`)))
	require.NoError(t, r.c.Invalidate(r.ep, params("3")))
	assert.EqualValues(t, 1, r.started.Load(), "a change elsewhere does not refetch it")
	assert.Equal(t, 1, r.rec.len(), "nor tell its listener")

	// An entity it holds changes: the listener is told the new data, with
	// the status now; nothing is fetched.
	rename := &funcEndpoint{name: "rename", spec: endpoint.Spec{Name: "rename", Schema: bookEntity}}
	require.NoError(t, r.c.SetResponse(rename, params("1"), value.MustParse(`{"id":"1","title":"renamed","rev":1}`)))
	require.Equal(t, 2, r.rec.len())
	assert.Equal(t, "renamed", r.rec.last().Data.Get("title").Str())
	assert.Equal(t, endpoint.Stale, r.rec.last().ExpiryStatus)
	assert.EqualValues(t, 1, r.started.Load(), "a change of its data does not refetch it")
}

// What does revalidate a result that went stale with time while
// subscribed: the next read that wants fresh data, a new subscription,
// RevalidateActive, and a change of its own expiry or validity. Each
// fetches it once; the subscriber is told that it loads, with the stale
// data, then the new data.
func TestStaleSubscribedResultRevalidatesOnTheNextRead(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		read func(t *testing.T, r *staleRig)
	}{
		{"Suspense", func(t *testing.T, r *staleRig) {
			v, err := r.c.Suspense(ctx, r.ep, params("1"))
			require.NoError(t, err)
			assert.Equal(t, 1, rev(v), "the stale data at once")
		}},
		{"FetchIfStale", func(t *testing.T, r *staleRig) {
			v, err := r.c.FetchIfStale(ctx, r.ep, params("1"))
			require.NoError(t, err)
			assert.Equal(t, 1, rev(v), "the stale data at once")
		}},
		{"a new Subscribe", func(t *testing.T, r *staleRig) {
			unsubscribe, err := r.c.Subscribe(r.ep, params("1"), func(controller.State) {})
			require.NoError(t, err)
			t.Cleanup(unsubscribe)
		}},
		{"RevalidateActive", func(t *testing.T, r *staleRig) {
			require.NoError(t, r.c.RevalidateActive(ctx))
		}},
		{"ExpireAll of it", func(t *testing.T, r *staleRig) {
			r.c.ExpireAll(func(k string) bool { return k == `book {"id":"1"}` })
		}},
		{"Invalidate", func(t *testing.T, r *staleRig) {
			require.NoError(t, r.c.Invalidate(r.ep, params("1")))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newStaleRig(t)
			r.clk.Advance(80 * time.Second)
			require.Equal(t, endpoint.Stale, r.c.GetResponse(r.ep, params("1")).ExpiryStatus)
			before := r.rec.len()
			tt.read(t, r)
			r.waitRev(t, 2)
			assert.EqualValues(t, 2, r.started.Load(), "one fetch")
			r.rec.mu.Lock()
			loading := r.rec.seen[before]
			r.rec.mu.Unlock()
			assert.True(t, loading.Loading, "told it loads")
			assert.Equal(t, 1, rev(loading.Data), "with the stale data")
			assert.Equal(t, endpoint.Valid, r.c.GetResponse(r.ep, params("1")).ExpiryStatus)
			assert.Empty(t, r.timers.Pending(), "and still no timer")
		})
	}
}

// ExpireAll is a change of the result's expiry even when it leaves it
// where an earlier ExpireAll did: after a refetch that failed, another
// ExpireAll (which drops the kept error) refetches it, while the error
// expiring with time does not.
func TestExpireAllAgainAfterAFailedRefetch(t *testing.T) {
	r := newStaleRig(t)
	expire := func() { r.c.ExpireAll(func(k string) bool { return k == `book {"id":"1"}` }) }
	r.books.fail.Store(true)
	expire()
	require.Eventually(t, func() bool { last := r.rec.last(); return last.Err != nil && !last.Loading },
		testkit.WaitLimit, time.Millisecond, "the refetch fails")
	assert.EqualValues(t, 2, r.started.Load())

	r.clk.Advance(time.Hour) // the kept error expires with time: no refetch
	require.NoError(t, r.c.SetResponse(r.ep, params("2"), value.MustParse(`{"id":"2","title":"two","rev":0}`)))
	assert.EqualValues(t, 2, r.started.Load())

	r.books.fail.Store(false)
	expire()
	r.waitRev(t, 2)
	assert.EqualValues(t, 3, r.started.Load())
}
