package controller_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// A read's callback that calls the controller back panics with
// ErrReadCallback, where it waited for the lock its read holds for ever;
// the controller then keeps working, and the same goroutine may call it
// again.
func TestReadCallbackCallingTheControllerPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		// schema returns the endpoint's schema, whose callback runs hook.
		schema func(hook func()) schema.Schema
		data   string
		params value.Value
	}{
		{"Entity.Valid", func(hook func()) schema.Schema {
			return book(func(e *schema.Entity) { e.Valid = func(value.Value) bool { hook(); return true } })
		}, `{"id":"1","title":"t"}`, value.Obj()},
		{"Entity.DepthLimited", func(hook func()) schema.Schema {
			e := book(func(e *schema.Entity) { e.MaxDepth = 1; e.DepthLimited = func(int) { hook() } })
			e.Schema = map[string]schema.Schema{"next": e}
			return e
		}, `{"id":"1","next":{"id":"2","next":{"id":"3"}}}`, value.Obj()},
		{"a lens", func(hook func()) schema.Schema {
			e := book(nil)
			l := schema.LensOf("shelf", func(args value.Value) (string, bool) { hook(); return "a", true }, e)
			e.Schema = map[string]schema.Schema{"title": l}
			return e
		}, `{"id":"1","title":"t"}`, value.Obj(value.M("shelf", value.Str("a")))},
		{"a custom schema's Call", func(hook func()) schema.Schema {
			return &schema.Custom{Name: "Shelf", Call: func(in, _ value.Value, _ string, n *schema.Nest) (value.Value, error) {
				if n.Reading() {
					hook()
				}
				return in, nil
			}}
		}, `{"id":"1","title":"t"}`, value.Obj()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := controller.New(controller.Options{Now: newClock().Now})
			defer c.Close()
			other := gcEndpoint("other", nil, 0)
			armed := false
			ep := gcEndpoint("read", tc.schema(func() {
				if armed {
					armed = false
					c.GetResponse(other, value.Obj())
				}
			}), 0)
			require.NoError(t, c.SetResponse(ep, tc.params, value.MustParse(tc.data)))
			c.ExpireAll(func(string) bool { return true }) // the next read builds anew

			armed = true
			p := within(t, "a read whose callback calls the controller", func() { c.GetResponse(ep, tc.params) })
			assert.Equal(t, controller.ErrReadCallback, p)
			assert.False(t, armed, "the callback ran")

			got := c.GetResponse(ep, tc.params)
			assert.NotEqual(t, endpoint.Missing, got.ExpiryStatus, "the controller keeps working")
			require.NoError(t, c.SetResponse(other, value.Obj(), value.MustParse(`1`)))
			assert.Equal(t, "1", c.GetResponse(other, value.Obj()).Data.JSON(), "the same goroutine calls again")
		})
	}
}

// ReadCallbacksGuarded (the JavaScript bridge, which refuses such calls
// itself) spares reads the check and its stack trace.
func TestReadCallbacksGuardedSkipsTheCheck(t *testing.T) {
	assert.True(t, controller.GuardsReads(controller.New(controller.Options{})))
	assert.False(t, controller.GuardsReads(controller.New(controller.Options{ReadCallbacksGuarded: true})))
}
