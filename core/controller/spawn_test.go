package controller_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
)

// TestOptionsGoRunsSharedRequests checks that a controller given Options.Go
// starts every shared request through it (the bridge passes its kept
// goroutines there), once per request, and that the request's result
// reaches the caller as without it.
func TestOptionsGoRunsSharedRequests(t *testing.T) {
	ctx := context.Background()
	var started atomic.Int64
	c := controller.New(controller.Options{Now: newClock().Now, Go: func(f func()) {
		started.Add(1)
		go f()
	}})
	ep := (&books{}).endpoint(endpoint.Spec{})

	cases := []struct {
		name    string
		call    func() (string, error)
		wantRev int64
	}{
		{"suspense", func() (string, error) { v, err := c.Suspense(ctx, ep, params("1")); return v.JSON(), err }, 1},
		{"fetch", func() (string, error) { v, err := c.Fetch(ctx, ep, params("1"), nil); return v.JSON(), err }, 2},
	}
	for i, tc := range cases {
		got, err := tc.call()
		require.NoError(t, err, tc.name)
		assert.JSONEq(t, fmt.Sprintf(`{"id":"1","title":"book 1","rev":%d}`, tc.wantRev), got, tc.name)
		assert.Equal(t, int64(i+1), started.Load(), "%s: requests started through Options.Go", tc.name)
	}
}

// TestOptionsGoRunsSubscriptionFetches checks that the fetch a
// subscription starts for a missing result goes through Options.Go too.
func TestOptionsGoRunsSubscriptionFetches(t *testing.T) {
	var started atomic.Int64
	c := controller.New(controller.Options{Now: newClock().Now, Go: func(f func()) {
		started.Add(1)
		go f()
	}})
	ep := (&books{}).endpoint(endpoint.Spec{})
	got := make(chan controller.State, 8)
	unsub, err := c.Subscribe(ep, params("1"), func(s controller.State) { got <- s })
	require.NoError(t, err)
	defer unsub()
	for s := range got {
		if !s.Loading && !s.Data.IsUndefined() {
			break
		}
	}
	assert.Equal(t, int64(1), started.Load(), "the subscription's fetch started through Options.Go")
}
