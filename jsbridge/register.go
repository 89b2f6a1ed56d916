//go:build js && wasm

package jsbridge

import (
	"sync"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// Version is the library version, df.version in JavaScript.
const Version = "0.1.0"

// entry is one function of the table: it gets the JavaScript arguments and
// returns a value for js.ValueOf (or a safejs.Value) or an error.
type entry func(args []safejs.Value) (any, error)

// entries binds each entry of the call table (calls.go; callID in
// calls_gen.go) to its function. An array, not a map: it is data in the
// binary, where a map literal is code that fills it at start. Whether an
// entry runs synchronously or on a worker is its kind in the table.
var entries = [numCalls]entry{
	callSetLibrary:            setLibrary,
	callRelease:               releaseHandle,
	callSettle:                settleWatched,
	callSchemaNew:             schemaNew,
	callEntityNew:             entityNew,
	callEntitySchema:          entitySchema,
	callNormalize:             normalizeEntry,
	callDenormalize:           denormalizeEntry,
	callCollectionNew:         collectionNew,
	callEndpointCollection:    endpointCollection,
	callEndpointNew:           endpointNew,
	callEndpointExtend:        endpointExtend,
	callEndpointPaginated:     endpointPaginated,
	callEndpointURL:           endpointURL,
	callEndpointKey:           endpointKey,
	callResourceNew:           resourceNew,
	callResourceExtend:        resourceExtend,
	callLegacyResource:        legacyResource,
	callCtrlNew:               ctrlNew,
	callCtrlGetResponse:       ctrlGetResponse,
	callCtrlChanges:           ctrlChanges,
	callCtrlSubscribe:         ctrlSubscribe,
	callCtrlUnsubscribe:       ctrlUnsubscribe,
	callCtrlGet:               ctrlGet,
	callCtrlSet:               ctrlSet,
	callCtrlListen:            ctrlListen,
	callCtrlHoldQuery:         ctrlHoldQuery,
	callCtrlInvalidate:        ctrlInvalidate,
	callCtrlInvalidateAll:     ctrlInvalidateAll,
	callCtrlExpireAll:         ctrlExpireAll,
	callCtrlResetEntireStore:  ctrlResetEntireStore,
	callCtrlSetResponse:       ctrlSetResponse,
	callCtrlSetError:          ctrlSetError,
	callExchangeError:         exchangeError,
	callCtrlGetState:          ctrlGetState,
	callCtrlClose:             ctrlClose,
	callCtrlGC:                ctrlGC,
	callCtrlHydrate:           ctrlHydrate,
	callCtrlChangeCount:       ctrlChangeCount,
	callSnapshotVersion:       snapshotVersion,
	callCtrlInspect:           ctrlInspect,
	callSnapGetResponse:       snapGetResponse,
	callSnapGet:               snapGet,
	callCtrlSyncStart:         ctrlSyncStart,
	callCtrlSyncStop:          ctrlSyncStop,
	callCtrlSyncApply:         ctrlSyncApply,
	callPersistStart:          persistStart,
	callPersistFire:           persistFire,
	callPersistSaved:          persistSaved,
	callPersistFlush:          persistFlush,
	callPersistStop:           persistStop,
	callCtrlFetch:             ctrlFetch,
	callCtrlSuspense:          ctrlSuspense,
	callCtrlFetchIfStale:      ctrlFetchIfStale,
	callCtrlRevalidateActive:  ctrlRevalidateActive,
	callEndpointRequestInit:   endpointRequestInit,
	callEndpointParseResponse: endpointParseResponse,
}

var registerOnce sync.Once

// Register puts the bridge's function table on globalThis (as GlobalName)
// and makes the JavaScript fetch the default transport of package rest. It
// is safe to call more than once; only the first call does anything. The
// program must keep running afterwards (wasm/main blocks forever), since
// the functions are Go code.
func Register() {
	registerOnce.Do(func() {
		startPacing()
		rest.DefaultTransport = transport{}
		obj, err := newObject()
		if err != nil {
			panic("jsbridge: " + err.Error())
		}
		for id, fn := range entries {
			name := callNames[id]
			switch {
			case fn == nil:
				panic("jsbridge: entry " + name + " of the call table has no function in entries")
			case callKinds[id] == asyncCall:
				mustSet(obj, name, asyncFunc(name, fn))
			default:
				mustSet(obj, name, syncFunc(name, fn))
			}
		}
		mustSet(obj, "version", Version)
		mustSet(global, GlobalName, obj)
	})
}

func mustSet(obj safejs.Value, name string, v any) {
	if err := obj.Set(name, v); err != nil {
		panic("jsbridge: setting " + name + ": " + err.Error())
	}
}

// syncFunc wraps a synchronous entry: its error, or a panic, is returned
// as a JavaScript Error for datafetch.mjs to throw.
func syncFunc(name string, fn entry) safejs.Func {
	f, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) (ret any) {
		defer func() {
			if p := recover(); p != nil {
				ret = errorValue(panicError(name, p))
			}
		}()
		v, err := fn(args)
		if err != nil {
			return errorValue(err)
		}
		return v
	})
	if err != nil {
		panic("jsbridge: " + err.Error())
	}
	return f
}

// asyncFunc wraps an asynchronous entry: called as (resolve, reject,
// args...), it runs fn on a worker goroutine (workers.go) and settles with
// its result or its error. Goroutines run until they block before control
// returns to JavaScript, so whatever fn does before its first wait (an
// optimistic update, say) is visible when the call returns.
func asyncFunc(name string, fn entry) safejs.Func {
	f, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		resolve, reject := arg(args, 0), arg(args, 1)
		var own []safejs.Value
		if len(args) > 2 {
			own = args[2:]
		}
		asyncWorkers.run(func() {
			defer func() {
				if p := recover(); p != nil {
					_, _ = invoke(reject, errorValue(panicError(name, p)))
				}
			}()
			v, err := fn(own)
			if err != nil {
				_, _ = invoke(reject, errorValue(err))
				return
			}
			_, _ = invoke(resolve, v)
		})
		return nil
	})
	if err != nil {
		panic("jsbridge: " + err.Error())
	}
	return f
}

// lib holds the functions of datafetch.mjs that Go calls: decode and
// response turn a read's output into JavaScript data (see package encode),
// makeError builds the Error of a descriptor (errors.go). decodeAt and
// responseAt, when datafetch.mjs has the module's memory, do what decode
// and response do with output they read from linear memory (handOver).
var lib struct {
	decode, response, makeError safejs.Value
	decodeAt, responseAt        safejs.Value
	// hand(objs, bytes) decodes a ctrl.get read for JavaScript to take
	// rather than returns it (ctrlGet); handAt reads it from linear memory.
	hand, handAt safejs.Value
	// watch(promise, id) reports how promise settles to settle (await).
	watch safejs.Value
	// With internal/transport.mjs, when JavaScript can resume Go (wake.go):
	// request(id, fetch, url, initJSON, extra, body, keepBody) does a
	// whole fetch exchange (transport.exchange); await(promise, id)
	// watches a promise; both report through datafetchWake. take(id)
	// returns the value kept for a woken wait, abort(id) aborts request
	// id. awaitText(promise, id) is await for a promise of JSON text,
	// which it writes into Go's memory (wakeText; awaitJSON).
	request, await, awaitText, take, abort safejs.Value
	// complete(id, ok, value) settles the Promise of a call started
	// through exportStart (start.go).
	complete safejs.Value
	// idle(fn) calls fn once JavaScript is idle (afterJavaScript);
	// without it, a setTimeout(0) does.
	idle safejs.Value
}

// setLibrary(lib) receives those functions when datafetch.mjs attaches.
func setLibrary(args []safejs.Value) (any, error) {
	l := arg(args, 0)
	for _, f := range []struct {
		name string
		dst  *safejs.Value
	}{{"decode", &lib.decode}, {"response", &lib.response}, {"makeError", &lib.makeError}} {
		v, err := l.Get(f.name)
		if err != nil {
			return nil, err
		}
		*f.dst = v
	}
	// Optional: without decodeAt and responseAt (no memory on that side)
	// output goes as text, without watch await makes its own callbacks.
	lib.decodeAt, _ = l.Get("decodeAt")
	lib.responseAt, _ = l.Get("responseAt")
	lib.hand, _ = l.Get("hand")
	lib.handAt, _ = l.Get("handAt")
	lib.watch, _ = l.Get("watch")
	lib.request, _ = l.Get("request")
	lib.await, _ = l.Get("await")
	lib.awaitText, _ = l.Get("awaitText")
	lib.take, _ = l.Get("take")
	lib.abort, _ = l.Get("abort")
	lib.complete, _ = l.Get("complete")
	lib.idle, _ = l.Get("idle")
	if lib.take.Type() != safejs.TypeFunction || lib.abort.Type() != safejs.TypeFunction {
		// Both or none: a report without take would keep its value.
		lib.request, lib.await, lib.awaitText = safejs.Undefined(), safejs.Undefined(), safejs.Undefined()
	}
	return nil, nil
}

// release(handle) forgets a handle whose JavaScript object is gone.
func releaseHandle(args []safejs.Value) (any, error) {
	id, err := arg(args, 0).Int()
	if err != nil {
		return nil, err
	}
	releaseEndpoint(id)
	table.release(id)
	return nil, nil
}
