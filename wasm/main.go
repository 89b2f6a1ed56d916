//go:build js && wasm

// Command wasm is datafetch.wasm: it registers the JavaScript bridge and
// waits, so that the functions it registered can be called. Load it with
// dist/datafetch.mjs.
//
// Its collector settings (GOGC=1000, GOMEMLIMIT=1GiB) come from the
// environment that dist/datafetch.mjs's load() starts it with
// (jsbridge/js/internal/load.mjs, GO_ENV), which the runtime reads before
// any Go code runs; after each collection the bridge sets GOGC from the
// live heap (jsbridge/pacer.go, through runtime/debug.setGCPercent's
// linkname). Setting them here with runtime/debug linked package os
// (and the fmt that runtime/debug imports) into datafetch.wasm: 66 KB raw,
// 9 KB brotli, and their package initialization at every start.
package main

import "github.com/datafetch/datafetch/jsbridge"

func main() {
	jsbridge.Register()
	select {}
}
