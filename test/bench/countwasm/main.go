//go:build js && wasm

// Command countwasm is datafetch.wasm (as ./wasm builds it) with two more
// exports that count what the Go runtime did, for test/bench/react.mjs's
// REACT_COUNT accounting: a benchmark's build, never shipped.
package main

import (
	"runtime"

	"github.com/datafetch/datafetch/jsbridge"
)

func main() {
	jsbridge.Register()
	select {}
}

// countGoroutines returns runtime.NumGoroutine.
//
//go:wasmexport datafetchCountGoroutines
func countGoroutines() int32 { return int32(runtime.NumGoroutine()) }

// countGC returns the number of completed GC cycles.
//
//go:wasmexport datafetchCountGC
func countGC() int32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int32(m.NumGC)
}
