//go:build dfcount

package main

import "runtime"

// datafetchCountGoroutines returns runtime.NumGoroutine, for
// test/bench/react.mjs's REACT_COUNT accounting (a build with -tags
// dfcount only).
//
//go:wasmexport datafetchCountGoroutines
func countGoroutines() int32 { return int32(runtime.NumGoroutine()) }

// datafetchCountGC returns the number of completed GC cycles.
//
//go:wasmexport datafetchCountGC
func countGC() int32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int32(m.NumGC)
}
