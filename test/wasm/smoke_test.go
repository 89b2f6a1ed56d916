//go:build js && wasm

// Package wasmtest holds Go tests that run as js/wasm in headless Chromium
// (./build.sh test runs them with
// `GOOS=js GOARCH=wasm go test -exec "fixtureserver wasmbrowsertest"`).
package wasmtest

import (
	"os"
	"syscall/js"
	"testing"
)

// await blocks until the JS promise p settles.
func await(p js.Value) (js.Value, error) {
	done := make(chan js.Value, 1)
	failed := make(chan js.Value, 1)
	onOK := js.FuncOf(func(_ js.Value, args []js.Value) any { done <- args[0]; return nil })
	onErr := js.FuncOf(func(_ js.Value, args []js.Value) any { failed <- args[0]; return nil })
	defer onOK.Release()
	defer onErr.Release()
	p.Call("then", onOK, onErr)
	select {
	case v := <-done:
		return v, nil
	case e := <-failed:
		return js.Value{}, js.Error{Value: e}
	}
}

// TestFixtureReachable checks the plumbing every browser test relies on: the
// test runs in a browser page, sees FIXTURE_URL from the host environment,
// and the page's fetch reaches the fixture server across origins (so the
// server answers with CORS headers). Any HTTP status will do.
func TestFixtureReachable(t *testing.T) {
	if js.Global().Get("document").IsUndefined() {
		t.Skip("not in a browser page")
	}
	u := os.Getenv("FIXTURE_URL")
	if u == "" {
		t.Skip("FIXTURE_URL not set: run under the fixture server (./build.sh test)")
	}
	resp, err := await(js.Global().Call("fetch", u+"/"))
	if err != nil {
		t.Fatalf("fetch %s from the browser failed (server down or no CORS headers?): %v", u, err)
	}
	if resp.Get("type").String() == "opaque" {
		t.Fatalf("fetch %s: opaque response", u)
	}
	if _, err := await(resp.Call("text")); err != nil {
		t.Fatalf("reading the body of %s: %v", u, err)
	}
	t.Logf("GET %s/ -> %d in %s", u, resp.Get("status").Int(), js.Global().Get("navigator").Get("userAgent").String())
}
