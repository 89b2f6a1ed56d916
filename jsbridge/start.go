//go:build js && wasm

package jsbridge

import (
	"context"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
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
var startNames = [...]callID{startFetch: callCtrlFetch, startSuspense: callCtrlSuspense, startFetchIfStale: callCtrlFetchIfStale, startPrefetch: callCtrlFetchIfStale}

// calls numbers the calls started through exportStart.
var calls struct{ next int32 }

// exportStart starts entry op for the controller and endpoint handles
// given, with the params JSON (paramsLen bytes) followed, for a fetch, by
// a JSON body (bodyLen bytes; -1: none) in the input buffer. It returns the
// call's id, whose outcome goes to lib.complete once JavaScript has resumed
// Go; failed when the arguments are unusable (exchangeError has why, for
// the Promise to reject with); or declined when the library gave no
// lib.complete to settle it with: JavaScript then calls the js.FuncOf
// entry.
//
//go:wasmexport datafetchStart
func exportStart(op, ctrlID, epID, paramsLen, bodyLen int32) (r int32) {
	if op < 0 || int(op) >= len(startNames) {
		return fail(fmtlite.Errorf("datafetch: datafetchStart: no operation %d", op))
	}
	defer failOnPanic(startNames[op], &r)
	if lib.complete.Type() != safejs.TypeFunction {
		return declined
	}
	c, err := handleOf[*ctrl](ctrlID, "a controller")
	if err != nil {
		return fail(err)
	}
	ep, err := handleOf[*rest.Endpoint](epID, "an endpoint")
	if err != nil {
		return fail(err)
	}
	params, err := inputJSON(0, paramsLen, ep.Name()+": params")
	if err != nil {
		return fail(err)
	}
	var body any
	if bodyLen >= 0 {
		if op != startFetch {
			return fail(fmtlite.Errorf("datafetch %s: takes no body", callNames[startNames[op]]))
		}
		b, err := inputJSON(paramsLen, bodyLen, "body")
		if err != nil {
			return fail(err)
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
	}
	// Null params wait for nothing: undefined at once, as the js.FuncOf
	// entries answer.
	nothing := op != startFetch && params.IsNull()
	if nothing {
		run = func() (value.Value, error) { return value.Undef, nil }
	}
	calls.next++
	if calls.next <= 0 {
		calls.next = 1
	}
	id := calls.next
	asyncWorkers.run(func() {
		defer func() {
			if p := recover(); p != nil {
				_, _ = invoke(lib.complete, id, false, errorValue(panicError(callNames[startNames[op]], p)))
			}
		}()
		v, err := run()
		out := safejs.Undefined()
		if err == nil && !nothing && op != startPrefetch {
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
