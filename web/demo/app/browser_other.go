//go:build !(js && wasm)

package main

import "github.com/datafetch/datafetch/web/demo/ui"

// connect has nothing to connect outside a browser: main exits there.
func connect(*ui.Demo) {}

// useFetch has no fetch to use outside a browser.
func useFetch() {}
