//go:build js && wasm

package jsbridge

import (
	"errors"
	"unsafe"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
)

// The entries in this file are WebAssembly exports (go:wasmexport), called
// by internal/wire.mjs (under jsbridge/js) directly rather than through a
// js.FuncOf function. Such a call costs about 0.01 µs instead of 7 to
// 12 µs (measured in Chromium: most of a js.FuncOf call goes to the
// finalizers syscall/js sets on every value it passes and to decoding
// property names), so the synchronous reads a
// page makes most often use them. Arguments and results are numbers; text
// travels through linear memory:
//
//   - JavaScript asks exportInput for room for n bytes, writes the UTF-8
//     text there and passes its length;
//   - an entry writes its output into Go memory and returns its length;
//     exportOutput gives its address; JavaScript decodes it before it
//     calls Go again, then calls exportRelease.
//
// An export must never wait for JavaScript (a fetch, a timer): the event
// loop cannot run until it returns. Nor may it rely on goroutines it starts,
// which run only when Go next gets control. So only reads are here; and an
// entry that meets anything unusual (an error, a panic) returns -1, for
// JavaScript to make the same call through its js.FuncOf entry, which
// reports errors as the rest of the bridge does.

// exchange is the memory the exports share with JavaScript.
var exchange struct {
	in  []byte
	out []byte
}

// exportInput returns the address of a buffer of at least n bytes for
// JavaScript to write an entry's text argument into.
//
//go:wasmexport datafetchInput
func exportInput(n int32) uint32 {
	if n < 1 {
		n = 1
	}
	if cap(exchange.in) < int(n) {
		exchange.in = make([]byte, n)
	}
	exchange.in = exchange.in[:cap(exchange.in)]
	return address(exchange.in)
}

// exportOutput returns the address of the last entry's output.
//
//go:wasmexport datafetchOutput
func exportOutput() uint32 {
	return address(exchange.out)
}

// exportRelease lets the last output go, once JavaScript has decoded it: a
// large read would otherwise stay on the heap until the next one.
//
//go:wasmexport datafetchRelease
func exportRelease() {
	exchange.out = nil
}

func address(b []byte) uint32 {
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
}

// exportGetResponse is ctrlGetResponse for the controller and endpoint
// handles given, with params as the JSON text of paramsLen bytes in the
// input buffer (empty: undefined). It returns the length of the output,
// which response() in internal/wire.mjs decodes, or -1: JavaScript then calls
// ctrlGetResponse.
//
//go:wasmexport datafetchGetResponse
func exportGetResponse(ctrlID, epID, paramsLen int32) (n int32) {
	defer func() {
		if recover() != nil {
			n = -1
		}
	}()
	c, ok := handle[*ctrl](ctrlID)
	if !ok {
		return -1
	}
	ep, ok := handle[*rest.Endpoint](epID)
	if !ok || paramsLen < 0 || int(paramsLen) > len(exchange.in) {
		return -1
	}
	params := value.Undef
	if paramsLen > 0 {
		// A copy: the buffer is reused, and parsed strings may share it.
		var err error
		if params, err = value.ParseString(string(exchange.in[:paramsLen])); err != nil {
			return -1
		}
	}
	if params.IsNull() {
		return -1
	}
	key, err := ep.Key(params)
	if err != nil {
		return -1
	}
	r := c.c.GetResponse(ep, params)
	if errors.Is(r.Err, controller.ErrReentrant) {
		return -1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	exchange.out = c.output(key, ep.Spec().Schema, r.Data, responsePrefix(r, ep.Spec()))
	return int32(len(exchange.out))
}

// handle returns the object of type T behind a handle.
func handle[T any](id int32) (T, bool) {
	x, _ := table.get(int(id))
	t, ok := x.(T)
	return t, ok
}
