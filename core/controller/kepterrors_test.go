package controller_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

var noteEntity = &schema.Entity{Key: "Note", Defaults: value.MustParse(`{"id":null,"text":""}`)}

// flakyHandler answers 500 while fail is set, else note 1.
func flakyHandler(fail *atomic.Bool) http.HandlerFunc {
	bad := jsonHandler(http.StatusInternalServerError, `{"error":"server down"}`)
	good := jsonHandler(http.StatusOK, `{"id":"1","text":"hello"}`)
	return func(w http.ResponseWriter, r *http.Request) {
		if fail.Load() {
			bad(w, r)
			return
		}
		good(w, r)
	}
}

// TestInvalidateDropsKeptError: after a failed read, Invalidate,
// InvalidateAll and ExpireAll make the next read fetch (counted at the
// server) instead of replaying the kept error, with or without data stored
// before the failure.
func TestInvalidateDropsKeptError(t *testing.T) {
	ops := map[string]func(c *controller.Controller, ep endpoint.Endpoint) error{
		"Invalidate": func(c *controller.Controller, ep endpoint.Endpoint) error {
			return c.Invalidate(ep, params("1"))
		},
		"InvalidateAll": func(c *controller.Controller, _ endpoint.Endpoint) error {
			c.InvalidateAll(func(string) bool { return true })
			return nil
		},
		"ExpireAll": func(c *controller.Controller, _ endpoint.Endpoint) error {
			c.ExpireAll(func(string) bool { return true })
			return nil
		},
	}
	for name, op := range ops {
		for _, withData := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "/no data", true: "/stale data"}[withData], func(t *testing.T) {
				ctx := context.Background()
				clk := newClock()
				var fail atomic.Bool
				srv := newHeldServer(t, flakyHandler(&fail))
				ep := restEndpoint(t, srv, rest.Options{Path: "/notes/:id", Name: "note", Schema: noteEntity})
				c := controller.New(controller.Options{Now: clk.Now, DataExpiryLength: time.Minute, ErrorExpiryLength: time.Hour})
				const key = "GET /notes/1"

				fetches := 0
				if withData {
					_, err := c.Suspense(ctx, ep, params("1"))
					require.NoError(t, err)
					fetches++
					clk.Advance(2 * time.Minute) // stale: the next read revalidates
					require.NoError(t, c.Invalidate(ep, params("1")))
				}
				fail.Store(true)
				_, err := c.Suspense(ctx, ep, params("1"))
				require.ErrorContains(t, err, "server down")
				fetches++
				require.Equal(t, fetches, srv.Count(key))

				fail.Store(false)
				_, err = c.Suspense(ctx, ep, params("1"))
				require.ErrorContains(t, err, "server down", "the error is kept for an hour")
				require.Equal(t, fetches, srv.Count(key), "a kept error sends nothing")

				require.NoError(t, op(c, ep))
				r := c.GetResponse(ep, params("1"))
				assert.NoError(t, r.Err, "the kept error is gone once %s returns", name)
				v, err := c.Suspense(ctx, ep, params("1"))
				if withData && name == "ExpireAll" {
					// Stale data is answered at once and revalidated in the
					// background: wait for that fetch.
					require.NoError(t, err)
					require.Eventually(t, func() bool { return srv.Count(key) == fetches+1 }, testkit.WaitLimit, time.Millisecond)
					require.Eventually(t, func() bool {
						r := c.GetResponse(ep, params("1"))
						return r.Err == nil && r.ExpiryStatus == endpoint.Valid
					}, testkit.WaitLimit, time.Millisecond)
					return
				}
				require.NoError(t, err, "the read after %s fetches", name)
				assert.Equal(t, "hello", v.Get("text").Str())
				assert.Equal(t, fetches+1, srv.Count(key), "the read after %s sent one request", name)
			})
		}
	}
}

// abortableNote is the setup of the abort tests: note 1 on a held server,
// read through plain and through abortable, a copy of plain whose Signal
// abort cancels, by a controller that keeps errors for an hour.
type abortableNote struct {
	srv              *heldServer
	plain, abortable *rest.Endpoint
	abort            context.CancelFunc
	c                *controller.Controller
}

func newAbortableNote(t *testing.T) *abortableNote {
	t.Helper()
	a := &abortableNote{srv: newHeldServer(t, jsonHandler(http.StatusOK, `{"id":"1","text":"hello"}`))}
	a.plain = restEndpoint(t, a.srv, rest.Options{Path: "/notes/:id", Name: "note", Schema: noteEntity})
	signal, abort := context.WithCancel(context.Background())
	t.Cleanup(abort)
	a.abort = abort
	var err error
	a.abortable, err = a.plain.Extend(func(o *rest.Options) { o.Signal = signal })
	require.NoError(t, err)
	a.c = controller.New(controller.Options{Now: newClock().Now, ErrorExpiryLength: time.Hour})
	return a
}

// startRead turns holding on and starts a read of the abortable endpoint;
// it returns the read's error, once it returns, and its request, held at
// the server.
func (a *abortableNote) startRead(ctx context.Context) (read <-chan error, held *heldRequest) {
	ch := make(chan error, 1)
	a.srv.Hold(true)
	go func() { _, err := a.c.Suspense(ctx, a.abortable, params("1")); ch <- err }()
	return ch, a.srv.Next()
}

// settled returns the first state from states that is not loading.
func settled(t *testing.T, states <-chan controller.State) controller.State {
	t.Helper()
	s := testkit.Wait(t, states, "subscriber")
	for s.Loading {
		s = testkit.Wait(t, states, "subscriber")
	}
	return s
}

// TestAbortIsNotKept: a read aborted by its endpoint's Signal (what a
// JavaScript AbortSignal becomes, see jsbridge/signal.go) fails that read
// with an AbortError, but leaves nothing behind: a plain read of the same
// data fetches at once, and a subscriber never sees the abort as an error.
// A timeout, by contrast, is a failed fetch and is kept.
func TestAbortIsNotKept(t *testing.T) {
	ctx := context.Background()
	a := newAbortableNote(t)
	srv, plain, c := a.srv, a.plain, a.c
	const key = "GET /notes/1"

	var mu sync.Mutex
	var seen []controller.State
	changed := make(chan struct{}, 100)
	// A subscriber that only listens: subscribed to a result that is
	// already loading, it starts no fetch of its own.
	read, held := a.startRead(ctx)
	unsub, err := c.Subscribe(plain, params("1"), func(s controller.State) {
		mu.Lock()
		seen = append(seen, s)
		mu.Unlock()
		changed <- struct{}{}
	})
	require.NoError(t, err)
	defer unsub()
	testkit.Wait(t, changed, "first call")

	a.abort()
	err = testkit.Wait(t, read, "aborted read")
	require.Error(t, err)
	assert.Equal(t, "AbortError", rest.ErrorName(err), "%v", err)
	close(held.release)
	require.NoError(t, c.GetResponse(plain, params("1")).Err, "the abort is not kept")

	// The subscriber's own endpoint was not aborted: it fetches again.
	again := srv.Next()
	again.Release(t)
	require.Eventually(t, func() bool {
		r := c.GetResponse(plain, params("1"))
		return r.ExpiryStatus == endpoint.Valid
	}, testkit.WaitLimit, time.Millisecond)
	srv.Hold(false)
	v, err := c.Suspense(ctx, plain, params("1"))
	require.NoError(t, err)
	assert.Equal(t, "hello", v.Get("text").Str())
	assert.Equal(t, 2, srv.Count(key), "the aborted request and one refetch")

	mu.Lock()
	for i, s := range seen {
		assert.NoError(t, s.Err, "call %d: a subscriber is not shown the abort", i)
	}
	mu.Unlock()
}

// TestAbortedReadRefetches: with nothing else going on, the read after an
// aborted one sends a request instead of replaying the AbortError, and an
// endpoint whose signal stays aborted does not loop on its subscribers.
func TestAbortedReadRefetches(t *testing.T) {
	ctx := context.Background()
	a := newAbortableNote(t)
	srv, plain, abortable, c := a.srv, a.plain, a.abortable, a.c
	const key = "GET /notes/1"

	read, held := a.startRead(ctx)
	a.abort()
	err := testkit.Wait(t, read, "aborted read")
	assert.Equal(t, "AbortError", rest.ErrorName(err), "%v", err)
	close(held.release)
	srv.Hold(false)

	r := c.GetResponse(plain, params("1"))
	assert.NoError(t, r.Err)
	assert.Equal(t, endpoint.Missing, r.ExpiryStatus, "as if no fetch had happened")

	v, err := c.Suspense(ctx, plain, params("1"))
	require.NoError(t, err, "the next read fetches instead of replaying the abort")
	assert.Equal(t, "hello", v.Get("text").Str())
	assert.Equal(t, 2, srv.Count(key))

	// A subscriber of the still-aborted endpoint, on a result that needs a
	// fetch: its attempt is aborted, and then it stops loading. Were each
	// abort to start the next attempt, it would stay loading (a hang).
	srv.Hold(true) // an attempt that reaches the server waits for the abort
	require.NoError(t, c.Invalidate(plain, params("1")))
	states := make(chan controller.State, 100)
	unsub, err := c.Subscribe(abortable, params("1"), func(s controller.State) { states <- s })
	require.NoError(t, err)
	defer unsub()
	s := settled(t, states)
	assert.NoError(t, s.Err, "the subscriber is not shown the abort")
	assert.NoError(t, c.GetResponse(plain, params("1")).Err)
	assert.Equal(t, endpoint.Invalid, c.GetResponse(plain, params("1")).ExpiryStatus)
}

// TestTimeoutIsKept: a request past its Timeout is a failed fetch: kept
// for errorExpiryLength like any other error. The request is a Fetch option
// that never answers, counted as it is called: a network request could be
// timed out before it reached a server, on a loaded machine.
func TestTimeoutIsKept(t *testing.T) {
	ctx := context.Background()
	var calls atomic.Int64
	ep, err := rest.New(rest.Options{URLPrefix: "http://example.invalid", Path: "/notes/:id", Name: "note", Schema: noteEntity,
		Timeout: 50 * time.Millisecond,
		Fetch: func(ctx context.Context, _ *rest.Endpoint, _ value.Value, _ any) (value.Value, error) {
			calls.Add(1)
			<-ctx.Done() // only the timeout ends it
			return value.Undef, ctx.Err()
		}})
	require.NoError(t, err)
	c := controller.New(controller.Options{Now: newClock().Now, ErrorExpiryLength: time.Hour})
	_, err = c.Suspense(ctx, ep, params("1"))
	require.Error(t, err)
	assert.Equal(t, "TimeoutError", rest.ErrorName(err), "%v", err)
	_, err = c.Suspense(ctx, ep, params("1"))
	assert.Equal(t, "TimeoutError", rest.ErrorName(err), "kept: %v", err)
	assert.EqualValues(t, 1, calls.Load(), "a kept timeout sends nothing")
}

// TestCancelledMutationIsNotKept: a mutation whose caller cancels its
// context is aborted, and its result keeps no error.
func TestCancelledMutationIsNotKept(t *testing.T) {
	srv := newHeldServer(t, jsonHandler(http.StatusOK, `{"id":"1","text":"saved"}`))
	srv.Hold(true)
	save := restEndpoint(t, srv, rest.Options{Path: "/notes/:id", Method: "PUT", Name: "save", Schema: noteEntity})
	c := controller.New(controller.Options{Now: newClock().Now, ErrorExpiryLength: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := c.Fetch(ctx, save, params("1"), value.MustParse(`{"text":"saved"}`)); done <- err }()
	srv.Next()
	cancel()
	err := testkit.Wait(t, done, "cancelled mutation")
	assert.Equal(t, "AbortError", rest.ErrorName(err), "%v", err)
	assert.NoError(t, c.GetResponse(save, params("1")).Err, "an abort is not an error of the data")
}

// TestAbortedSubscriberOnEmptyStore: a subscriber whose endpoint's signal
// has already aborted, on a controller that has stored nothing yet, makes
// its attempt and stops loading (no loop of aborted fetches).
func TestAbortedSubscriberOnEmptyStore(t *testing.T) {
	a := newAbortableNote(t)
	a.srv.Hold(true)
	a.abort()
	states := make(chan controller.State, 100)
	unsub, err := a.c.Subscribe(a.abortable, params("1"), func(s controller.State) { states <- s })
	require.NoError(t, err)
	defer unsub()
	s := settled(t, states)
	assert.NoError(t, s.Err)
	assert.Equal(t, endpoint.Missing, s.ExpiryStatus)
}
