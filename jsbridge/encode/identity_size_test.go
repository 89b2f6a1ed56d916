package encode

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestIdentitySize: an entry of the identity table stays 72 bytes on a
// 64-bit platform (wasm is one), refs and wire in one word: a cold read of
// N entities carves N+1 of them.
func TestIdentitySize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) == 8 {
		assert.EqualValues(t, 72, unsafe.Sizeof(identity{}))
	}
}
