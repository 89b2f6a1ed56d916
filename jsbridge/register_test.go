//go:build js && wasm

package jsbridge

import (
	"testing"

	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRegisterPutsEveryCallOfTheTable checks that the bridge object holds a
// function for every entry of the call table (calls.go) and nothing else
// but the version: an entry bound to no function in register.go's entries,
// or one JavaScript's stubs call that Register never sets, would fail only
// when a page first calls it.
func TestRegisterPutsEveryCallOfTheTable(t *testing.T) {
	api(t) // registers the bridge
	bridge := mustGet(global, GlobalName)
	for id, fn := range entries {
		assert.NotNil(t, fn, "entry %s has no function in register.go's entries", callNames[id])
		v, err := bridge.Get(callNames[id])
		require.NoError(t, err)
		assert.Equal(t, safejs.TypeFunction, v.Type(), "bridge.%s", callNames[id])
	}
	keys, err := mustGet(global, "Object").Call("keys", bridge)
	require.NoError(t, err)
	n, err := keys.Length()
	require.NoError(t, err)
	assert.Equal(t, len(callNames)+1, n, "bridge properties: the table's entries and version")
}
