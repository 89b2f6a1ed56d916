package controller_test

import (
	"context"
	"sync"
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

// fetchesOf is how many times b fetched the book with that id.
func (b *books) fetchesOf(id string) int64 {
	n, ok := b.fetches.Load(id)
	if !ok {
		return 0
	}
	return n.(*atomic.Int64).Load()
}

// states records a subscription's listener calls.
type states struct {
	mu   sync.Mutex
	seen []controller.State
}

func (s *states) listener(st controller.State) {
	s.mu.Lock()
	s.seen = append(s.seen, st)
	s.mu.Unlock()
}

func (s *states) first() controller.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[0]
}

func (s *states) last() controller.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[len(s.seen)-1]
}

func (s *states) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

func TestSubscribeNoFetchOnlyListens(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now, DataExpiryLength: time.Minute})
	b := &books{}
	// A poll frequency too: NoFetch does not poll either.
	ep := b.endpoint(endpoint.Spec{PollFrequency: time.Millisecond})

	rec := &states{}
	unsub, err := c.SubscribeWith(ep, params("1"), rec.listener, controller.SubscribeOptions{NoFetch: true})
	require.NoError(t, err)
	defer unsub()
	require.Equal(t, 1, rec.len(), "called before SubscribeWith returned")
	first := rec.last()
	assert.False(t, first.Loading, "no request started")
	assert.True(t, first.Data.IsUndefined())
	assert.Equal(t, endpoint.Missing, first.ExpiryStatus)

	// Another caller's request is seen.
	v, err := c.Suspense(context.Background(), ep, params("1"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return value.Same(rec.last().Data, v) }, testkit.WaitLimit, time.Millisecond)

	// Invalidated and stale results are not refetched by it.
	require.NoError(t, c.Invalidate(ep, params("1")))
	assert.Equal(t, endpoint.Invalid, rec.last().ExpiryStatus)
	clk.Advance(2 * time.Minute)
	require.NoError(t, c.SetResponse(ep, params("2"), value.MustParse(`{"id":"2"}`))) // a change, for ensureFresh to run
	assert.EqualValues(t, 1, ep.calls.Load(), "only the Suspense fetched")

	// A control subscription polling as often measures time in polls:
	// five of its polls, and none for the NoFetch one.
	ctl, err := c.Subscribe(ep, params("3"), func(controller.State) {})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return b.fetchesOf("3") >= 5 }, testkit.WaitLimit, time.Millisecond)
	ctl()
	assert.EqualValues(t, 1, b.fetchesOf("1"), "NoFetch never fetched nor polled")
}

func TestSubscribeNoPollFetchesButDoesNotPoll(t *testing.T) {
	timers := testkit.NewTimers()
	c := controller.New(controller.Options{AfterFunc: timers.AfterFunc})
	b := &books{}
	ep := b.endpoint(endpoint.Spec{PollFrequency: time.Minute})

	rec := &states{}
	unsub, err := c.SubscribeWith(ep, params("1"), rec.listener, controller.SubscribeOptions{NoPoll: true})
	require.NoError(t, err)
	defer unsub()
	assert.True(t, rec.first().Loading, "it fetches the missing result, as Suspense would")
	require.Eventually(t, func() bool { return rev(rec.last().Data) == 1 }, testkit.WaitLimit, time.Millisecond)
	assert.Empty(t, timers.Pending(), "NoPoll starts no poll timer")

	// A control subscription does poll: its timer, fired by hand, fetches.
	// Each tick waits for the fetch before it: a tick while one is in
	// flight joins it rather than fetching again.
	ctl, err := c.Subscribe(ep, params("2"), func(controller.State) {})
	require.NoError(t, err)
	defer ctl()
	require.Eventually(t, func() bool { return b.fetchesOf("2") == 1 && len(c.Requests()) == 0 }, testkit.WaitLimit, time.Millisecond)
	for i := 1; i <= 3; i++ {
		require.True(t, timers.Next(t, "the control's poll timer").Fire())
		require.Eventually(t, func() bool { return b.fetchesOf("2") == int64(i+1) && len(c.Requests()) == 0 }, testkit.WaitLimit, time.Millisecond,
			"the control subscription polls")
	}
	assert.EqualValues(t, 1, b.fetchesOf("1"), "NoPoll fetched once and did not poll")
}

// A change that lands while a new subscriber's first listener call runs
// reaches that listener after the first call, never before: a listener
// that sets what it is given (as a UI does) ends on the newest state.
func TestSubscribeFirstCallComesFirst(t *testing.T) {
	c := controller.New(controller.Options{})
	b := &books{gate: make(chan struct{})}
	ep := b.endpoint(endpoint.Spec{})

	// A's subscription starts the fetch, held at the gate.
	gotData := make(chan struct{})
	var once sync.Once
	unsubA, err := c.Subscribe(ep, params("1"), func(st controller.State) {
		if rev(st.Data) == 1 {
			once.Do(func() { close(gotData) })
		}
	})
	require.NoError(t, err)
	defer unsubA()
	reqs := c.Requests()
	require.Len(t, reqs, 1, "the subscription's fetch is in flight")
	assert.Positive(t, reqs[0].StartedAt, "and says when it started (the inspector shows its age)")

	// B's first call lets the fetch finish and waits until A has been told
	// of the data; only then does it take the state it was given.
	var mu sync.Mutex
	var final []controller.State
	first := true
	unsubB, err := c.Subscribe(ep, params("1"), func(st controller.State) {
		mu.Lock()
		isFirst := first
		first = false
		mu.Unlock()
		if isFirst {
			close(b.gate)
			testkit.Wait(t, gotData, "A told of the data")
		}
		mu.Lock()
		final = append(final, st)
		mu.Unlock()
	})
	require.NoError(t, err)
	defer unsubB()

	// The data reaches B after its first call: at once, or from the
	// dispatch of the goroutine that stored it, if that one is still
	// delivering.
	last := func() controller.State {
		mu.Lock()
		defer mu.Unlock()
		return final[len(final)-1]
	}
	require.Eventually(t, func() bool { return rev(last().Data) == 1 }, testkit.WaitLimit, time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	assert.True(t, final[0].Loading, "the first call took the state at subscribe time")
	for i := 1; i < len(final); i++ {
		assert.False(t, final[i].Loading && rev(final[i-1].Data) == 1, "no older state after the data: %+v", final)
	}
}
