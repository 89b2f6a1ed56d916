//go:build js && wasm

// Command wasmstats is datafetch.wasm (wasm/main.go: the bridge, with the
// same collector settings) plus one function for test/memory, which the
// bridge does not offer: globalThis.__datafetchStats() returns a Promise of
// the Go heap figures (runtime.MemStats) after full collections, run with
// a pause between them so that the finalizers of the first release the
// JavaScript values Go held.
package main

import (
	"runtime"
	"runtime/debug"
	"syscall/js"
	"time"

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
				runtime.GC()
				time.Sleep(20 * time.Millisecond) // finalizers run, releasing JS values
				runtime.GC()
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
