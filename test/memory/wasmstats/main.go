//go:build js && wasm

// Command wasmstats is datafetch.wasm (wasm/main.go: the bridge, with the
// same collector settings) plus one function for test/memory, which the
// bridge does not offer: globalThis.__datafetchStats() returns a Promise of
// the Go heap figures (runtime.MemStats) after full collections, with the
// finalizers queued by each collection run in between, so that the ones
// that release the JavaScript values Go held have done so.
package main

import (
	"runtime"
	"runtime/debug"
	"syscall/js"

	"github.com/datafetch/datafetch/jsbridge"
)

func main() {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(1 << 30)
	jsbridge.Register()
	js.Global().Set("__datafetchStats", js.FuncOf(func(js.Value, []js.Value) any {
		return js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, args []js.Value) any {
			resolve := args[0]
			go func() {
				collect()
				collect()
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				resolve.Invoke(map[string]any{
					"heapAlloc": m.HeapAlloc,
					"heapSys":   m.HeapSys,
					"sys":       m.Sys,
					"numGC":     m.NumGC,
				})
			}()
			return nil
		}))
	}))
	select {}
}

// collect runs a full collection and waits until the finalizers it queued
// have run. It cannot see the runtime's queue, so it adds a sentinel of its
// own to the same collection and waits for the sentinel's finalizer: the
// runtime runs queued finalizers one after another on one goroutine, so the
// sentinel's running is the event that the batch has been worked through
// (the others of its batch run around it; a second collect catches the
// stragglers and what they freed).
func collect() {
	done := make(chan struct{})
	sentinel := new([64]byte) // not in the tiny allocator, whose objects may never be finalized
	runtime.SetFinalizer(sentinel, func(*[64]byte) { close(done) })
	sentinel = nil
	runtime.GC()
	<-done
	runtime.Gosched()
}
