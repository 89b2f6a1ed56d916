package df

import (
	"reflect"
	"runtime"
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/value"
)

// node holds a pointer (Name) so that it is not carved from the tiny
// allocator's shared 16-byte blocks: a dropped struct sharing a block with
// a kept one would stay reachable, and the test would count it.
type node struct {
	ID   int    `df:"id"`
	Name string `df:"name"`
}

// TestCacheForgetsWhatNoReaderHolds decodes many values, keeps a few of
// their structs and drops the rest: a later sweep removes the entries of
// the dropped ones, while the kept ones still come back for their values.
func TestCacheForgetsWhatNoReaderHolds(t *testing.T) {
	p, err := planOf(reflect.TypeFor[*node]())
	require.NoError(t, err)
	const n = 4 * minSweep
	vals := make([]value.Value, n)
	kept := map[int]*node{}
	for i := range vals {
		vals[i] = value.MustParse(`{"id":` + strconv.Itoa(i) + `}`)
		var got *node
		require.NoError(t, decodeValue(p, vals[i], unsafe.Pointer(&got)))
		if i%100 == 0 {
			kept[i] = got
		}
	}
	runtime.GC() // clears the weak pointers of the dropped structs
	cacheMu.Lock()
	p.cache.sweep()
	left := len(p.cache.entries)
	cacheMu.Unlock()
	// A stack slot may still hold the last struct decoded: allow for it.
	assert.GreaterOrEqual(t, left, len(kept))
	assert.LessOrEqual(t, left, len(kept)+1, "only the entries of kept structs are left")
	for i, want := range kept {
		var got *node
		require.NoError(t, decodeValue(p, vals[i], unsafe.Pointer(&got)))
		assert.Same(t, want, got)
	}
	// A value decoded again after its struct was dropped is decoded anew.
	var again *node
	require.NoError(t, decodeValue(p, vals[1], unsafe.Pointer(&again)))
	assert.Equal(t, 1, again.ID)
}
