package jsbridge

import "sync"

// maxIdleWorkers bounds the goroutines kept waiting for asynchronous
// entries between calls.
const maxIdleWorkers = 8

// workers runs the asynchronous entries on goroutines that are kept for the
// next call. A new goroutine starts with a small stack, and an entry's call
// chain (controller, schema, store, encoder) grows it several times, each
// time copying it: about a tenth of a small optimistic update in Chromium
// was runtime.morestack and copystack. A kept goroutine has grown already.
type workers struct {
	work chan func()
	mu   sync.Mutex
	idle int
}

var asyncWorkers = newWorkers()

func newWorkers() *workers { return &workers{work: make(chan func())} }

// run calls f on an idle worker, or on a new one when none is waiting.
func (w *workers) run(f func()) {
	select {
	case w.work <- f:
	default:
		go w.loop(f)
	}
}

// loop runs f, then waits for more work unless enough workers wait already.
func (w *workers) loop(f func()) {
	for {
		f()
		w.mu.Lock()
		if w.idle >= maxIdleWorkers {
			w.mu.Unlock()
			return
		}
		w.idle++
		w.mu.Unlock()
		f = <-w.work
		w.mu.Lock()
		w.idle--
		w.mu.Unlock()
	}
}

// waiting returns the number of idle workers.
func (w *workers) waiting() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.idle
}
