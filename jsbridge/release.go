//go:build js && wasm

package jsbridge

import (
	"runtime"
	"sync"
)

// largeTransfer is the size of a body read from JavaScript, or of a read
// handed to it, from which the bridge runs the Go collector once the
// transfer is done (see releaseAfter).
const largeTransfer = 4 << 20

// collector is the state of releaseAfter's collections: one runs at a
// time, and a request that comes while one runs makes it run once more
// (what that request released may have been reachable when it started).
var collector struct {
	mu      sync.Mutex
	running bool
	again   bool
}

// releaseAfter runs the Go collector soon, on a goroutine of its own, when
// n bytes just crossed the boundary and n is at least largeTransfer.
//
// Every JavaScript value Go has held (the ArrayBuffer a body was read
// from, the string a read was handed over as) stays referenced from
// wasm_exec.js's table of values until the collector finds Go's handle
// unreachable and its finalizer drops the reference; syscall/js has no way
// to drop one sooner. Between collections, which the collector's settings
// in wasm/main.go make rare on purpose, a large read would so keep its
// body and its text alive in the JavaScript heap, each as large as the
// body, long after the caller has the result. The collection also returns
// what the read left as garbage to the Go heap for the next read.
// Small transfers do not pay for it: what they keep is small.
func releaseAfter(n int) {
	if n < largeTransfer {
		return
	}
	collector.mu.Lock()
	defer collector.mu.Unlock()
	if collector.running {
		collector.again = true
		return
	}
	collector.running = true
	go func() {
		for {
			runtime.GC()
			collector.mu.Lock()
			again := collector.again
			collector.again = false
			collector.running = again
			collector.mu.Unlock()
			if !again {
				return
			}
		}
	}()
}
