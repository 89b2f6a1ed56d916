//go:build js && wasm

package jsbridge

import (
	"runtime"
	"sync"

	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// largeTransfer is the size of a body read from JavaScript, or of a read
// handed to it, from which the bridge frees what the transfer leaves
// behind in JavaScript: the body's ArrayBuffer (detachBody) and the read's
// text (releaseAfter).
const largeTransfer = 4 << 20

// collector is the state of releaseAfter's collections: one is pending or
// running at a time, and a request that comes meanwhile makes it run once
// more (what that request released may have been reachable when it
// started).
var collector struct {
	mu      sync.Mutex
	running bool
	again   bool
}

// releaseAfter runs the Go collector once JavaScript has had the result
// in hand, when a read of n bytes, n at least largeTransfer, was just
// handed to it as a string.
//
// Every JavaScript value Go has held stays referenced from wasm_exec.js's
// table of values until the collector finds Go's handle unreachable and
// its finalizer drops the reference; syscall/js has no way to drop one
// sooner. Between collections, which the collector's settings that
// load() gives the runtime (internal/load.mjs) make rare on purpose, the
// text of a large read, as large as the body, would so stay alive in the
// JavaScript heap long after the caller has the result. The collection
// also returns what the read left as garbage to the Go heap for the next
// read. It runs once JavaScript is idle (afterJavaScript), so that the
// caller's promise settles first rather than waiting for it. Small reads
// do not pay for it: what they keep is small.
func releaseAfter(n int) {
	if n < largeTransfer {
		return
	}
	collectSoon()
}

// collectSoon runs the Go collector once JavaScript is idle, as
// releaseAfter does, once more if one is running already. After a sweep
// (ctrl.swept) it frees what the sweep made garbage: the store's records
// and the identity table's entries return to the Go heap, whose next
// target is then set from what is left rather than from the heap before
// the sweep; and the objects JavaScript was handed through Go's values (a
// ctrl.get, a subscription's data, a resolved read) are no longer held by
// wasm_exec.js's table once their handles are finalized.
func collectSoon() {
	collector.mu.Lock()
	defer collector.mu.Unlock()
	if collector.running {
		collector.again = true
		return
	}
	collector.running = true
	if err := afterJavaScript(collect); err != nil {
		go collect()
	}
}

// collect runs the collector until no request came during a collection,
// and sets the pacing from the live heap each one left (setPacing): its
// collections are complete, swept, when runtime.GC returns.
func collect() {
	for {
		collecting.Store(true)
		runtime.GC()
		setPacing()
		collecting.Store(false)
		collector.mu.Lock()
		again := collector.again
		collector.again = false
		collector.running = again
		collector.mu.Unlock()
		if !again {
			return
		}
	}
}

// afterJavaScript runs f on a goroutine of its own once JavaScript is idle,
// through datafetch.mjs's idle (requestIdleCallback, bounded, in
// browsers), so that a collection does not run inside the caller's next
// operations, whose time it took when it ran from a timer (in test/bench's
// cold read, the collection after the previous sample's resetEntireStore
// was a quarter of the read at N = 100, and most of its clock reads).
// Without idle, or where there is no requestIdleCallback, it runs from a
// setTimeout(0), that is once the jobs JavaScript has queued (the
// continuations of settled promises) have run.
func afterJavaScript(f func()) error {
	var fn safejs.Func
	fn, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		fn.Release()
		go f()
		return nil
	})
	if err != nil {
		return err
	}
	if lib.idle.Type() == safejs.TypeFunction {
		_, err = invoke(lib.idle, fn)
	} else {
		_, err = invoke(setTimeout, fn, 0)
	}
	if err != nil {
		fn.Release()
		return err
	}
	return nil
}
