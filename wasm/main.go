//go:build js && wasm

// Command wasm is datafetch.wasm: it registers the JavaScript bridge and
// waits, so that the functions it registered can be called. Load it with
// dist/datafetch.mjs.
package main

import (
	"runtime/debug"

	"github.com/datafetch/datafetch/jsbridge"
)

func main() {
	// In wasm the collector runs on the page's only thread and stops the work
	// while it marks: at the default target it took a third of a cold read
	// (test/bench profiles). A cache's live heap is mostly what it holds, so
	// let the heap grow to five times that between collections, and bound it
	// so a large store falls back to collecting more often, not to growing.
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(1 << 30)
	jsbridge.Register()
	select {}
}
