//go:build js && wasm

package jsbridge

import (
	"context"

	"github.com/hack-pad/safejs"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
)

// The asynchronous entries fetch, useSuspense and fetchIfStale start
// through an export too (internal/transport.mjs Transport.start): the export
// reads its arguments from the input buffer, hands the work to a worker
// goroutine and returns a call id; JavaScript then resumes Go, which runs
// the worker until it waits (for the network, say), so that whatever it
// does before (an optimistic update) is visible when the call returns, as
// with the js.FuncOf entry. The outcome goes to lib.complete(id, ok, value):
// a call into JavaScript, not a js.FuncOf call. See wake.go for why the
// worker cannot run inside the export itself.

// startNames are the js.FuncOf entries of the ops, for errors.
var startNames = [...]string{
	startFetch:        callNames[callCtrlFetch],
	startSuspense:     callNames[callCtrlSuspense],
	startFetchIfStale: callNames[callCtrlFetchIfStale],
	startPrefetch:     callNames[callCtrlFetchIfStale],
}

// calls numbers the calls started through exportStart.
var calls struct{ next int32 }

// exportStart starts entry op for the controller and endpoint handles
// given, with the params JSON (paramsLen bytes) followed, for a fetch, by
// a JSON body (bodyLen bytes; -1: none) in the input buffer. It returns the
// call's id, whose outcome goes to lib.complete once JavaScript has resumed
// Go, or -1: JavaScript then calls the js.FuncOf entry, which reports any
// error in the arguments.
//
//go:wasmexport datafetchStart
func exportStart(op, ctrlID, epID, paramsLen, bodyLen int32) (r int32) {
	defer declineOnPanic(&r)
	if lib.complete.Type() != safejs.TypeFunction {
		return declined
	}
	c, ok := handle[*ctrl](ctrlID)
	if !ok {
		return declined
	}
	ep, ok := handle[*rest.Endpoint](epID)
	if !ok {
		return declined
	}
	params, ok := inputJSON(0, paramsLen)
	if !ok {
		return declined
	}
	var body any
	if bodyLen >= 0 {
		if op != startFetch {
			return declined
		}
		b, ok := inputJSON(paramsLen, bodyLen)
		if !ok {
			return declined
		}
		body = b
	}
	var run func() (value.Value, error)
	switch op {
	case startFetch:
		run = func() (value.Value, error) { return c.c.Fetch(context.Background(), ep, params, body) }
	case startSuspense:
		run = func() (value.Value, error) { return c.c.Suspense(context.Background(), ep, params) }
	case startFetchIfStale, startPrefetch:
		run = func() (value.Value, error) { return c.c.FetchIfStale(context.Background(), ep, params) }
	default:
		return declined
	}
	if op != startFetch && params.IsNull() {
		return declined // answered at once by the js.FuncOf entry
	}
	calls.next++
	if calls.next <= 0 {
		calls.next = 1
	}
	id := calls.next
	asyncWorkers.run(func() {
		defer func() {
			if p := recover(); p != nil {
				_, _ = invoke(lib.complete, id, false, errorValue(panicError(startNames[op], p)))
			}
		}()
		v, err := run()
		out := safejs.Undefined()
		if err == nil && op != startPrefetch {
			var res any
			res, err = c.emitResult(ep, params, v)
			out, _ = res.(safejs.Value)
		}
		if err != nil {
			_, _ = invoke(lib.complete, id, false, errorValue(err))
			return
		}
		_, _ = invoke(lib.complete, id, true, out)
	})
	return id
}
