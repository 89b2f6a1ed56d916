//go:build js && wasm

package persist_test

import (
	"context"
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/bookshelf"
	"github.com/datafetch/datafetch/web/browser/persist"
)

// TestLocalStorageRoundTrip persists through the browser's localStorage
// and restores into another controller, as a reload would.
func TestLocalStorageRoundTrip(t *testing.T) {
	ls, err := persist.LocalStorage()
	require.NoError(t, err)
	const key = "persist-test"
	js.Global().Get("localStorage").Call("removeItem", key)
	t.Cleanup(func() { js.Global().Get("localStorage").Call("removeItem", key) })

	r := newRig()
	ep := &bookshelf.Endpoint{}
	opts := r.options()
	opts.Storage, opts.Key = ls, key
	c1 := r.controller()
	p1, err := persist.Start(c1, opts)
	require.NoError(t, err)
	_, err = c1.Fetch(context.Background(), ep, value.Obj(), nil)
	require.NoError(t, err)
	require.NoError(t, p1.Flush())
	p1.Stop()
	stored := js.Global().Get("localStorage").Call("getItem", key)
	require.Equal(t, js.TypeString, stored.Type())
	assert.Contains(t, stored.String(), `"state":{`)

	c2 := r.controller()
	p2, err := persist.Start(c2, opts)
	require.NoError(t, err)
	defer p2.Stop()
	_, err = c2.Suspense(context.Background(), ep, value.Obj())
	require.NoError(t, err)
	assert.Equal(t, 1, ep.Calls, "restored from localStorage: no second request")

	require.NoError(t, p2.Clear())
	assert.Equal(t, js.TypeNull, js.Global().Get("localStorage").Call("getItem", key).Type())
}
