//go:build js && wasm

// Command wasm is datafetch.wasm: it registers the JavaScript bridge and
// waits, so that the functions it registered can be called. Load it with
// dist/datafetch.mjs.
package main

import "github.com/datafetch/datafetch/jsbridge"

func main() {
	jsbridge.Register()
	select {}
}
