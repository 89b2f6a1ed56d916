package controller_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// TestOnChangeCoversEveryVisibleChange checks the promise a read cache kept
// outside the controller relies on: while OnChange has not been called, a
// read returns the identical data with the same status and expiry (time
// standing still), and reading alone never calls it.
func TestOnChangeCoversEveryVisibleChange(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	changes := 0
	c := controller.New(controller.Options{Now: clk.Now, OnChange: func() { changes++ }})
	b := &books{}
	ep := b.endpoint(endpoint.Spec{})
	one := params("1")
	ops := []struct {
		name string
		op   func() error
	}{
		{"first fetch", func() error { _, err := c.Suspense(ctx, ep, one); return err }},
		{"refetch", func() error { _, err := c.Fetch(ctx, ep, one, nil); return err }},
		{"invalidate", func() error { return c.Invalidate(ep, one) }},
		{"fetch after invalidate", func() error { _, err := c.Suspense(ctx, ep, one); return err }},
		{"expire all", func() error { c.ExpireAll(func(string) bool { return true }); return nil }},
		{"set response", func() error {
			return c.SetResponse(ep, one, value.MustParse(`{"id":"1","title":"set","rev":99}`))
		}},
		{"invalidate all", func() error { c.InvalidateAll(func(string) bool { return true }); return nil }},
		{"failed fetch", func() error {
			b.fail.Store(true)
			defer b.fail.Store(false)
			_, err := c.Fetch(ctx, ep, one, nil)
			assert.Error(t, err)
			return nil
		}},
		{"reset", func() error { c.ResetEntireStore(); return nil }},
		{"fetch after reset", func() error { _, err := c.Suspense(ctx, ep, one); return err }},
	}
	prev := c.GetResponse(ep, one)
	for _, o := range ops {
		before := changes
		require.NoError(t, o.op(), o.name)
		got := c.GetResponse(ep, one)
		visible := !value.Same(got.Data, prev.Data) || got.ExpiryStatus != prev.ExpiryStatus || got.ExpiresAt != prev.ExpiresAt
		if visible {
			assert.Greater(t, changes, before, "%s changed what a read sees without OnChange", o.name)
		}
		quiet := changes
		again := c.GetResponse(ep, one)
		assert.Equal(t, quiet, changes, "%s: a read called OnChange", o.name)
		assert.True(t, value.Same(got.Data, again.Data), "%s: an unchanged read is the identical value", o.name)
		prev = got
	}
	assert.GreaterOrEqual(t, changes, len(ops)-1, "every operation but none changed something")
}
