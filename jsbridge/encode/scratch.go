package encode

import (
	"sync"

	"github.com/datafetch/datafetch/jsbridge/wire"
)

// scratch is the memory the outputs are written in, shared by every
// controller of the process: free lists of wire.Writers (each keeps its
// key scratch between outputs) and of output buffers (a Writer writes ops
// and strings in the one buffer it is given, moving to a larger one only
// when they meet).
//
// A page makes a controller per app, and the browser bench's cold case one
// per sample; with the buffers kept per controller, each new one allocated
// its output's size twice over (and in wasm every allocated byte is Go
// collector time on the page's only thread). An output is handed to
// JavaScript before Go writes the next (handOver decodes it in place, and
// exportGetResponse's lives until datafetchRelease), so a few buffers serve
// the whole process. They are free lists rather than one buffer each: whoever
// takes one owns it until it puts it back, so an output written while
// another is out (another goroutine, natively) never shares its memory.
var scratch struct {
	mu      sync.Mutex
	writers []*wire.Writer
	outs    [][]byte
}

// maxScratch is the most writers, and the most output buffers, kept free.
const maxScratch = 4

// takeWriter returns a free Writer, or a new one.
func takeWriter() *wire.Writer {
	scratch.mu.Lock()
	defer scratch.mu.Unlock()
	if n := len(scratch.writers); n > 0 {
		w := scratch.writers[n-1]
		scratch.writers = scratch.writers[:n-1]
		return w
	}
	return new(wire.Writer)
}

// putWriter returns w, which its taker is done with, to the free list.
func putWriter(w *wire.Writer) {
	scratch.mu.Lock()
	defer scratch.mu.Unlock()
	if len(scratch.writers) < maxScratch {
		scratch.writers = append(scratch.writers, w)
	}
}

// TakeOutput returns an empty output buffer, the largest free one (nil when
// none is).
func TakeOutput() []byte {
	scratch.mu.Lock()
	defer scratch.mu.Unlock()
	n := len(scratch.outs)
	if n == 0 {
		return nil
	}
	best := 0
	for i := 1; i < n; i++ {
		if cap(scratch.outs[i]) > cap(scratch.outs[best]) {
			best = i
		}
	}
	b := scratch.outs[best]
	scratch.outs[best] = scratch.outs[n-1]
	scratch.outs[n-1] = nil
	scratch.outs = scratch.outs[:n-1]
	return b
}

// PutOutput returns b, an output JavaScript has decoded, to the free list,
// unless it is too large to keep (keepScratch) or the list is full.
func PutOutput(b []byte) {
	b = keepScratch(b)
	if cap(b) == 0 {
		return
	}
	scratch.mu.Lock()
	defer scratch.mu.Unlock()
	if len(scratch.outs) < maxScratch {
		scratch.outs = append(scratch.outs, b)
	}
}
