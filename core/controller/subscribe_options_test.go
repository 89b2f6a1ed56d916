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
