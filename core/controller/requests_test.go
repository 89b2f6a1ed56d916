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
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// TestRequestsInFlight checks that Requests lists a shared read once
// (however many wait for it) and each mutation, oldest first with the
// controller's clock, only while they run, and that listing them changes
// nothing a read sees.
func TestRequestsInFlight(t *testing.T) {
	clk := newClock()
	var changes atomic.Int64
	c := controller.New(controller.Options{Now: clk.Now, OnChange: func() { changes.Add(1) }})
	reads := &books{gate: make(chan struct{})}
	writes := &books{gate: make(chan struct{})}
	read := reads.endpoint(endpoint.Spec{})
	write := writes.endpoint(endpoint.Spec{SideEffect: true})
	assert.Empty(t, c.Requests(), "nothing in flight at first")

	done := make(chan error, 3)
	for range 2 {
		go func() { _, err := c.Suspense(context.Background(), read, params("1")); done <- err }()
	}
	require.Eventually(t, func() bool { return read.calls.Load() == 1 }, testkit.WaitLimit, time.Millisecond)
	start := clk.Now().UnixMilli()
	clk.Advance(time.Second)
	go func() { _, err := c.Fetch(context.Background(), write, params("2"), nil); done <- err }()
	require.Eventually(t, func() bool { return write.calls.Load() == 1 }, testkit.WaitLimit, time.Millisecond)

	before := changes.Load()
	assert.Equal(t, []controller.Request{
		{Key: `book {"id":"1"}`, StartedAt: start},
		{Key: `book {"id":"2"}`, StartedAt: start + 1000, Mutation: true},
	}, c.Requests(), "the shared read once, then the mutation")
	assert.Equal(t, before, changes.Load(), "listing requests is no change")

	close(writes.gate)
	require.NoError(t, <-done)
	assert.Equal(t, []controller.Request{{Key: `book {"id":"1"}`, StartedAt: start}}, c.Requests(), "the finished mutation is gone")
	close(reads.gate)
	require.NoError(t, <-done)
	require.NoError(t, <-done)
	assert.Empty(t, c.Requests(), "nothing in flight at the end")
}

// TestRequestsAfterFailure checks that a failed mutation leaves the list.
func TestRequestsAfterFailure(t *testing.T) {
	c := controller.New(controller.Options{Now: newClock().Now})
	b := &books{}
	b.fail.Store(true)
	_, err := c.Fetch(context.Background(), b.endpoint(endpoint.Spec{SideEffect: true}), params("1"), nil)
	require.ErrorContains(t, err, "server said no")
	assert.Empty(t, c.Requests())
}

// BenchmarkFetchBookkeeping measures a Fetch against an endpoint that
// answers at once (no network), so that what the controller does around a
// request shows: for a mutation, and for a read (a shared request).
// Requests' bookkeeping (a clock read, and for a mutation a set entry) is
// part of it.
func BenchmarkFetchBookkeeping(b *testing.B) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		spec endpoint.Spec
	}{
		{"mutation", endpoint.Spec{SideEffect: true}},
		{"read", endpoint.Spec{}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := controller.New(controller.Options{Now: newClock().Now})
			ep := (&books{}).endpoint(tc.spec)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Fetch(ctx, ep, params("1"), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
