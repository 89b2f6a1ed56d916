package df

import (
	"sync"
	"unsafe"
	"weak"

	"github.com/datafetch/datafetch/core/value"
)

// cacheMu guards every idCache. A decode holds it from start to end, so a
// read of a thousand records takes it once.
var cacheMu sync.Mutex

// idCache remembers what values were decoded to, by the values' identity
// (value.Identity): the store hands back the Same value for data that did
// not change, so a read that finds its value here returns the very pointer
// (or slice) it returned before, without decoding.
//
// An entry holds its value, which keeps the value's identity from being
// reused by another value while the entry exists, and a weak pointer to
// what it decoded to: once no reader holds that any more, the entry is
// useless (a new read may decode again) and a sweep removes it. Sweeps run
// when the cache has doubled since the last one, so entries cost amortized
// constant time and the cache stays within twice what readers hold.
type idCache struct {
	entries map[uintptr]cacheEntry
	// swept is the number of entries the last sweep left.
	swept int
}

type cacheEntry struct {
	v value.Value
	// p points at the decoded struct, or at the first element of the
	// decoded slice (n elements).
	p weak.Pointer[byte]
	n int
}

// minSweep is the size below which a cache is not swept.
const minSweep = 256

func newIDCache() *idCache { return &idCache{entries: map[uintptr]cacheEntry{}} }

// get returns what v was decoded to (its address and, for a slice, its
// length), if a reader may still hold it. Callers hold cacheMu.
func (c *idCache) get(v value.Value) (unsafe.Pointer, int, bool) {
	id := value.Identity(v)
	if id == 0 {
		return nil, 0, false
	}
	e, ok := c.entries[id]
	if !ok || !value.Same(e.v, v) {
		return nil, 0, false
	}
	p := e.p.Value()
	if p == nil {
		return nil, 0, false
	}
	return unsafe.Pointer(p), e.n, true
}

// put records that v was decoded to the object at p (n elements for a
// slice). Callers hold cacheMu.
func (c *idCache) put(v value.Value, p unsafe.Pointer, n int) {
	id := value.Identity(v)
	if id == 0 || p == nil {
		return
	}
	if len(c.entries) >= max(minSweep, 2*c.swept) {
		c.sweep()
	}
	c.entries[id] = cacheEntry{v: v, p: weak.Make((*byte)(p)), n: n}
}

// sweep drops the entries whose decoded object is gone.
func (c *idCache) sweep() {
	for id, e := range c.entries {
		if e.p.Value() == nil {
			delete(c.entries, id)
		}
	}
	c.swept = len(c.entries)
}
