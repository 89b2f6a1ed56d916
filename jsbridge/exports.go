//go:build js && wasm

package jsbridge

import (
	"errors"
	"unsafe"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/encode"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
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
// which run only when Go next gets control. So only synchronous operations
// are here: reads, key and url, and the changes setResponse, invalidate and
// resetEntireStore of a controller with no subscription open (a change
// would call the subscribers' JavaScript listeners and may start refetches).
// Entries for a controller read its clock from the time JavaScript passes
// in the controller's shared memory (ctrlShared.now), when it passes one.
//
// An entry answers every call it is given: an error (a bad handle or
// params, a key that cannot be made, a panic) is its answer too, failed
// (-2), kept for exchangeError to throw as the js.FuncOf entry would have.
// It declines (-1), for JavaScript to make the call through the js.FuncOf
// entry, only what an export cannot do: a change to a controller with a
// subscription open, whose JavaScript listeners it would call and whose
// refetches it would start (CALLS.md lists every such case).

// exchange is the memory the exports share with JavaScript.
var exchange struct {
	in  []byte
	out []byte
	// err is the error of the last entry that answered failed, until
	// exchangeError hands it to JavaScript.
	err error
}

// maxKeptInput is the largest input buffer reused. JavaScript passes short
// text only (MAX_INPUT in internal/wire.mjs, at most 3 bytes a code unit);
// should a larger buffer be asked for, the next call drops it, or the heap
// would keep it for good.
const maxKeptInput = 1 << 20

// exportInput returns the address of a buffer of at least n bytes for
// JavaScript to write an entry's text argument into.
//
//go:wasmexport datafetchInput
func exportInput(n int32) uint32 {
	if n < 1 {
		n = 1
	}
	if cap(exchange.in) > maxKeptInput {
		exchange.in = nil
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
	encode.PutOutput(exchange.out) // decoded: its memory serves the next output
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
	defer failOnPanic(callCtrlGetResponse, &n)
	c, err := handleOf[*ctrl](ctrlID, "a controller")
	if err != nil {
		return fail(err)
	}
	defer c.unpin(c.pinClock())
	ep, err := handleOf[*rest.Endpoint](epID, "an endpoint")
	if err != nil {
		return fail(err)
	}
	params, key, err := keyedParams(epID, ep, paramsLen)
	if err != nil {
		return fail(err)
	}
	if params.IsNull() {
		// Null params read nothing, as ctrlGetResponse answers them: with
		// no identity, since there is no data.
		h := responseHeader(endpoint.Response{ExpiryStatus: endpoint.Missing}, nil)
		exchange.out = (*encode.Identities)(nil).Output(encode.TakeOutput(), h, "", nil, value.Undef)
		return int32(len(exchange.out))
	}
	r := c.c.GetResponseKeyed(ep, key, params)
	c.mu.Lock()
	defer c.mu.Unlock()
	exchange.out = c.output(key, ep.Spec().Schema, r.Data, responseHeader(r, ep.Spec()))
	return int32(len(exchange.out))
}

// inputJSON parses the JSON text (or marked JSON: value.ParseMarked) of n
// bytes at offset from in the input buffer (none: undefined); what names
// it in an error.
func inputJSON(from, n int32, what string) (value.Value, error) {
	if from < 0 || n < 0 || int(from)+int(n) > len(exchange.in) {
		return value.Undef, fmtlite.Errorf("%s: %d bytes at %d are past the input buffer (%d bytes)", what, n, from, len(exchange.in))
	}
	if n == 0 {
		return value.Undef, nil
	}
	// A copy: the buffer is reused, and parsed strings may share it. Onto
	// a tape, as responses are: a record set is then stored unbuilt, and
	// a small document parses in half the time the pooled eager parser
	// takes in wasm.
	v, err := value.ParseMarked(string(exchange.in[from : from+n]))
	if err != nil {
		return value.Undef, fmtlite.Errorf("%s: %w", what, err)
	}
	return v, nil
}

// keptParams maps endpoint handles and params texts that exported entries
// were given to the params parsed and their store key. A page sets a
// record and reads it back, or reads the same params on every render: the
// same text comes again and again, and parsing it and making its key (the
// endpoint's URL) each time was a good part of a small call's cost. Handles
// are never reused, so a released endpoint's entries are only garbage until
// the next clearing. Only exports use it, one at a time on the one thread.
var keptParams = struct {
	byEndpoint map[int32]map[string]paramsKey
	n          int
}{byEndpoint: map[int32]map[string]paramsKey{}}

// paramsKey is params as parsed, and an endpoint's key for them.
type paramsKey struct {
	params value.Value
	key    string
}

const (
	// maxKeptParams is how many params keptParams holds; past it, it
	// starts afresh.
	maxKeptParams = 1024
	// maxKeptParamsText is the longest params text it keeps.
	maxKeptParamsText = 256
)

// keyedParams returns the params of paramsLen bytes at the start of the
// input buffer and the key of ep (handle epID) for them, from keptParams
// when it has them. err says why the params are unusable or have no key
// (null params have the key "").
func keyedParams(epID int32, ep *rest.Endpoint, paramsLen int32) (params value.Value, key string, err error) {
	if paramsLen < 0 || int(paramsLen) > len(exchange.in) {
		return value.Undef, "", fmtlite.Errorf("%s: params: %d bytes are past the input buffer (%d bytes)", ep.Name(), paramsLen, len(exchange.in))
	}
	in := exchange.in[:paramsLen]
	kept := keptParams.byEndpoint[epID]
	if k, found := kept[string(in)]; found {
		return k.params, k.key, nil
	}
	params, err = inputJSON(0, paramsLen, ep.Name()+": params")
	if err != nil || params.IsNull() {
		return params, "", err
	}
	key, err = ep.Key(params)
	if err != nil {
		return params, "", err
	}
	if paramsLen <= maxKeptParamsText {
		if keptParams.n >= maxKeptParams {
			clear(keptParams.byEndpoint)
			keptParams.n = 0
			kept = nil
		}
		if kept == nil {
			kept = map[string]paramsKey{}
			keptParams.byEndpoint[epID] = kept
		}
		// The parsed value may share its text (Source): keep that one.
		text := params.Source()
		if text != string(in) {
			text = string(in)
		}
		kept[text] = paramsKey{params: params, key: key}
		keptParams.n++
	}
	return params, key, nil
}

// quiet returns the controller behind ctrlID, and whether a change to it
// calls no JavaScript and starts no goroutine: it has no subscription
// open. err is set when there is no such controller.
func quiet(ctrlID int32) (c *ctrl, ok bool, err error) {
	c, err = handleOf[*ctrl](ctrlID, "a controller")
	if err != nil {
		return nil, false, err
	}
	return c, c.subs.Load() == 0, nil
}

// exportSetResponse is ctrlSetResponse for the controller and endpoint
// handles given, with the params JSON (paramsLen bytes) followed by the data
// JSON (dataLen bytes) in the input buffer; empty text is undefined. It
// returns done once the data is stored, failed, or declined when a
// subscription is open: JavaScript then calls ctrlSetResponse.
//
//go:wasmexport datafetchSetResponse
func exportSetResponse(ctrlID, epID, paramsLen, dataLen int32) (r int32) {
	defer failOnPanic(callCtrlSetResponse, &r)
	c, ok, err := quiet(ctrlID)
	if err != nil {
		return fail(err)
	}
	if !ok {
		return declined
	}
	defer c.unpin(c.pinClock())
	ep, err := handleOf[*rest.Endpoint](epID, "an endpoint")
	if err != nil {
		return fail(err)
	}
	params, key, err := keyedParams(epID, ep, paramsLen)
	if err != nil {
		// Nothing was stored. Normalizing may have run the caller's hooks
		// (pk, process): the error is reported, not met again.
		return fail(err)
	}
	data, err := inputJSON(paramsLen, dataLen, ep.Name()+": setResponse data")
	if err == nil {
		err = c.c.SetResponseKeyed(ep, key, params, data)
	}
	if err != nil {
		return fail(err)
	}
	return done
}

// exportInvalidate is ctrlInvalidate for the controller and endpoint
// handles given, with the params JSON of paramsLen bytes in the input
// buffer. It returns done, failed, or declined when a subscription is
// open: JavaScript then calls ctrlInvalidate.
//
//go:wasmexport datafetchInvalidate
func exportInvalidate(ctrlID, epID, paramsLen int32) (r int32) {
	defer failOnPanic(callCtrlInvalidate, &r)
	c, ok, err := quiet(ctrlID)
	if err != nil {
		return fail(err)
	}
	if !ok {
		return declined
	}
	defer c.unpin(c.pinClock())
	ep, err := handleOf[*rest.Endpoint](epID, "an endpoint")
	if err != nil {
		return fail(err)
	}
	params, err := inputJSON(0, paramsLen, ep.Name()+": params")
	if err == nil {
		err = c.c.Invalidate(ep, params)
	}
	if err != nil {
		return fail(err)
	}
	return done
}

// exportResetEntireStore is ctrlResetEntireStore for the controller given,
// but for the JavaScript half of the identity table, which the caller
// clears when it returns done. It returns declined when a subscription is
// open: JavaScript then calls ctrlResetEntireStore.
//
//go:wasmexport datafetchResetEntireStore
func exportResetEntireStore(ctrlID int32) (r int32) {
	defer failOnPanic(callCtrlResetEntireStore, &r)
	c, ok, err := quiet(ctrlID)
	if err != nil {
		return fail(err)
	}
	if !ok {
		return declined
	}
	c.c.ResetEntireStore()
	defer collectSoon() // as ctrlResetEntireStore
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids.Reset()
	return done
}

// exportKeys writes the keys of the controller's stored results as the
// output, a JSON array of strings, and returns its length; or declined
// when the controller has a subscription open. It and exportUpdateKeys are
// invalidateAll and expireAll (expire 0 or 1, for the name errors give):
// JavaScript runs the caller's testKey over the keys, on its side, and
// passes back those it chose.
//
//go:wasmexport datafetchKeys
func exportKeys(ctrlID, expire int32) (n int32) {
	defer failOnPanic(updateAllCall(expire), &n)
	c, ok, err := quiet(ctrlID)
	if err != nil {
		return fail(err)
	}
	if !ok {
		return declined
	}
	keys := c.c.Keys()
	list := make([]value.Value, len(keys))
	for i, k := range keys {
		list[i] = value.Str(k)
	}
	exchange.out = []byte(value.Arr(list...).JSON())
	return int32(len(exchange.out))
}

// exportUpdateKeys invalidates (expire 0) or marks stale (expire 1) the
// results under the keys listed, as a JSON array of strings of keysLen bytes
// in the input buffer; it is InvalidateAll or ExpireAll with the test "is
// listed". It returns done, failed, or declined when a subscription is
// open: JavaScript then calls ctrlInvalidateAll or ctrlExpireAll.
//
//go:wasmexport datafetchUpdateKeys
func exportUpdateKeys(ctrlID, keysLen, expire int32) (r int32) {
	name := updateAllCall(expire)
	defer failOnPanic(name, &r)
	c, ok, err := quiet(ctrlID)
	if err != nil {
		return fail(err)
	}
	if !ok {
		return declined
	}
	defer c.unpin(c.pinClock())
	list, err := inputJSON(0, keysLen, callNames[name]+": keys")
	if err != nil {
		return fail(err)
	}
	if list.Kind() != value.Array {
		return fail(fmtlite.Errorf("%s: keys: expected an array, got %s", callNames[name], list.JSON()))
	}
	chosen := make(map[string]bool, list.Len())
	for _, k := range list.Elems() {
		if k.Kind() != value.String {
			return fail(fmtlite.Errorf("%s: keys: expected strings, got %s", callNames[name], k.JSON()))
		}
		chosen[k.Str()] = true
	}
	test := func(k string) bool { return chosen[k] }
	if expire == 1 {
		c.c.ExpireAll(test)
	} else {
		c.c.InvalidateAll(test)
	}
	return done
}

// updateAllCall names the call exportKeys and exportUpdateKeys serve:
// ctrlExpireAll for expire 1, ctrlInvalidateAll otherwise.
func updateAllCall(expire int32) callID {
	if expire == 1 {
		return callCtrlExpireAll
	}
	return callCtrlInvalidateAll
}

// exportKey is endpointKey for the endpoint handle given, with the params
// JSON of paramsLen bytes in the input buffer. It returns the length of the
// key, written as the output, or failed.
//
//go:wasmexport datafetchKey
func exportKey(epID, paramsLen int32) int32 {
	return endpointText(callEndpointKey, epID, paramsLen, (*rest.Endpoint).Key)
}

// exportURL is endpointURL as exportKey is endpointKey.
//
//go:wasmexport datafetchURL
func exportURL(epID, paramsLen int32) int32 {
	return endpointText(callEndpointURL, epID, paramsLen, (*rest.Endpoint).URL)
}

// endpointText writes what f says of the endpoint for the params in the
// input buffer as the output, and returns its length, or failed.
func endpointText(name callID, epID, paramsLen int32, f func(*rest.Endpoint, value.Value) (string, error)) (n int32) {
	defer failOnPanic(name, &n)
	ep, err := handleOf[*rest.Endpoint](epID, "an endpoint")
	if err != nil {
		return fail(err)
	}
	params, err := inputJSON(0, paramsLen, ep.Name()+": params")
	if err != nil {
		return fail(err)
	}
	s, err := f(ep, params)
	if err != nil {
		return fail(err)
	}
	exchange.out = []byte(s)
	return int32(len(exchange.out))
}

// handleOf returns the object of type T behind a handle; what names the
// type in the error, as lookup does for the js.FuncOf entries.
func handleOf[T any](id int32, what string) (T, error) {
	return lookupID[T](int(id), what)
}

// fail keeps err for exchangeError and returns failed.
func fail(err error) int32 {
	exchange.err = err
	return failed
}

// failOnPanic, deferred by every export, turns a panic into the answer
// failed, with the error the js.FuncOf entry name would have reported: a
// panic must never unwind out of an export, where it would end the
// instance.
func failOnPanic(name callID, r *int32) {
	if p := recover(); p != nil {
		*r = fail(panicError(callNames[name], p))
	}
}

// exchangeError() throws the error of the exported call that answered
// failed, as the js.FuncOf entry of that call would have.
func exchangeError(_ []safejs.Value) (any, error) {
	err := exchange.err
	exchange.err = nil
	if err == nil {
		return nil, errors.New("datafetch: exchangeError: no exported call failed")
	}
	return nil, err
}
