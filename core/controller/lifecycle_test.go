package controller_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// RevalidateActive refetches the held results that are stale or invalid,
// and only those, and returns once they are stored.
func TestRevalidateActive(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	b := &books{}
	long := b.endpoint(endpoint.Spec{DataExpiryLength: time.Hour})
	short := b.endpoint(endpoint.Spec{DataExpiryLength: time.Second})
	strict := b.endpoint(endpoint.Spec{DataExpiryLength: time.Second, InvalidIfStale: true})
	strict.name = "strict" // another key than short's for the same params
	failing := &funcEndpoint{name: "failing", spec: endpoint.Spec{Name: "failing", ErrorExpiryLength: time.Hour},
		fetch: func(context.Context, value.Value, any) (value.Value, error) { return value.Undef, errors.New("down") }}

	// Everything fetched once, then held (or not).
	held := map[string]*funcEndpoint{"fresh": long, "stale": short, "invalid": strict}
	for id, ep := range held {
		_, err := c.Suspense(ctx, ep, params(id))
		require.NoError(t, err)
	}
	for _, id := range []string{"unheld", "listener"} {
		_, err := c.Suspense(ctx, short, params(id))
		require.NoError(t, err)
	}
	_, err := c.Suspense(ctx, failing, params("x"))
	require.Error(t, err)
	for id, ep := range held {
		unsubscribe, err := c.Subscribe(ep, params(id), func(controller.State) {})
		require.NoError(t, err)
		defer unsubscribe()
	}
	for _, sub := range []struct {
		ep   *funcEndpoint
		id   string
		opts controller.SubscribeOptions
	}{
		{short, "listener", controller.SubscribeOptions{NoFetch: true}},
		{failing, "x", controller.SubscribeOptions{}},
	} {
		unsubscribe, err := c.SubscribeWith(sub.ep, params(sub.id), func(controller.State) {}, sub.opts)
		require.NoError(t, err)
		defer unsubscribe()
	}
	// A second subscription to a result is still one request.
	unsubscribe, err := c.Subscribe(short, params("stale"), func(controller.State) {})
	require.NoError(t, err)
	defer unsubscribe()
	require.EqualValues(t, 1, failing.calls.Load())

	clk.Advance(2 * time.Second)
	require.Equal(t, endpoint.Stale, c.GetResponse(short, params("stale")).ExpiryStatus)
	require.Equal(t, endpoint.Invalid, c.GetResponse(strict, params("invalid")).ExpiryStatus)
	require.NoError(t, c.RevalidateActive(ctx))

	assert.EqualValues(t, map[string]int64{"fresh": 1, "stale": 2, "invalid": 2, "unheld": 1, "listener": 1}, map[string]int64{
		"fresh": b.fetchesOf("fresh"), "stale": b.fetchesOf("stale"), "invalid": b.fetchesOf("invalid"),
		"unheld": b.fetchesOf("unheld"), "listener": b.fetchesOf("listener"),
	})
	assert.EqualValues(t, 1, failing.calls.Load(), "a kept error is not refetched before it expires")
	// Stored before it returned.
	assert.Equal(t, 2, rev(c.GetResponse(short, params("stale")).Data))
	assert.Equal(t, endpoint.Valid, c.GetResponse(strict, params("invalid")).ExpiryStatus)

	// Nothing stale: nothing fetched.
	require.NoError(t, c.RevalidateActive(ctx))
	assert.EqualValues(t, 2, b.fetchesOf("stale"))

	// The errors of the fetches are returned.
	clk.Advance(2 * time.Hour)
	err = c.RevalidateActive(ctx)
	require.ErrorContains(t, err, "down")
	assert.EqualValues(t, 2, failing.calls.Load())
	assert.EqualValues(t, 3, b.fetchesOf("stale"))
}

// Close stops polling, now and for later subscriptions.
func TestCloseStopsPolling(t *testing.T) {
	timers := testkit.NewTimers()
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now, AfterFunc: timers.AfterFunc})
	b := &books{}
	ep := b.endpoint(endpoint.Spec{PollFrequency: time.Minute})
	rec := &states{}
	unsubscribe, err := c.Subscribe(ep, params("1"), rec.listener)
	require.NoError(t, err)
	defer unsubscribe()
	tm := timers.Next(t, "the poll timer")
	assert.Equal(t, time.Minute, tm.D)
	require.Eventually(t, func() bool { return rev(rec.last().Data) == 1 }, testkit.WaitLimit, time.Millisecond)

	require.True(t, tm.Fire())
	tm = timers.Next(t, "the next poll timer")
	require.Eventually(t, func() bool { return rev(rec.last().Data) == 2 }, testkit.WaitLimit, time.Millisecond, "polled")

	c.Close()
	assert.True(t, tm.Stopped(), "the poll timer is stopped")
	c.Close() // again: nothing

	other, err := c.Subscribe(ep, params("2"), rec.listener)
	require.NoError(t, err)
	defer other()
	require.Eventually(t, func() bool { return b.fetchesOf("2") == 1 }, testkit.WaitLimit, time.Millisecond, "it still fetches")
	assert.Empty(t, timers.Pending(), "but does not poll")
	assert.Equal(t, 2, timers.Started())
}
