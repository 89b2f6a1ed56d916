//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/inspect"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/encode"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// ctrl is a controller as JavaScript holds it: the core controller, and the
// identity table of the data it has handed to JavaScript (package encode).
type ctrl struct {
	c *controller.Controller
	// mu makes each emission (encode in Go, decode in JavaScript) one step,
	// so the two halves of the table change together and in order even when
	// reads come from several goroutines.
	mu  sync.Mutex
	ids *encode.Identities
	// objs is the JavaScript half: a Map from id to object.
	objs safejs.Value
	// changes counts the controller's OnChange calls. JavaScript reads it
	// straight from linear memory (ctrlChanges gives its address): while it
	// stays the same, a read it has made already is still what Go would
	// answer, so re-reading costs no call into Go.
	changes *uint32
	// shared is the memory JavaScript reads and writes directly: changes
	// points at its counter.
	shared *ctrlShared
	// pinned, while pinSet, is the time the controller's clock gives: an
	// exported entry pins the time JavaScript passed for the call (see
	// pinClock), so the call reads no clock through JavaScript.
	pinned time.Time
	pinSet bool
	// subs counts the subscriptions open on the controller. While there are
	// any, a change calls JavaScript listeners and may start refetches
	// (goroutines), which the exported entries (exports.go) must not do:
	// they leave such changes to the js.FuncOf entries.
	subs atomic.Int32
}

// swept lets go, on both sides at once, what a sweep that removed st
// left in the identity table (see encode.Identities.Swept): JavaScript is handed
// the drops in an output of their own, so the objects it built for what
// was removed can be collected now rather than after its next read of the
// same key, which may never come.
//
// The reads of ctrl.get have slots no stored result owns: each is read
// again, and forgotten when it no longer gives the value its slot holds.
// They are read without c.mu, as ctrlGet reads them: a read may call an
// entity's JavaScript hooks. Then the Go collector runs (collectSoon), for
// what only Go's handles of JavaScript values still hold.
func (c *ctrl) swept(st controller.GCStats) error {
	if st.Results == 0 && st.Entities == 0 {
		return nil
	}
	c.mu.Lock()
	queries := c.ids.QuerySlots()
	c.mu.Unlock()
	changed := queries[:0]
	for _, q := range queries {
		if !c.readsStill(q) {
			changed = append(changed, q)
		}
	}
	keepPrev := c.c.PendingOptimistic() > 0

	defer collectSoon()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids.Swept(st.Keys, changed, keepPrev)
	out := c.ids.DropOutput(encode.TakeOutput())
	if out == nil {
		return nil
	}
	defer encode.PutOutput(out)
	_, err := handOver(lib.decode, c.objs, out)
	return err
}

// ctrlNew(optionsJSON, fetch, objs, now, retryDelay, initialState) returns
// the handle of a new controller. optionsJSON holds dataExpiryLength and
// errorExpiryLength (ms, or "Infinity"), retry (a count) and gc
// ({expiryMultiplier}, see gcOptions); fetch is the
// fetch option or undefined; objs is the Map decode keeps the controller's
// objects in; now is the controller's clock (the now option, checked by
// datafetch.mjs) or undefined for Go's; retryDelay is the adapter of the
// retryDelay option (see retryDelayHook) or undefined; initialState is a
// snapshot's JSON text or undefined.
func ctrlNew(args []safejs.Value) (any, error) {
	opts, err := jsonArg(arg(args, 0), "controller options")
	if err != nil {
		return nil, err
	}
	var o controller.Options
	if v := opts.Get("dataExpiryLength"); !v.IsNullish() {
		if o.DataExpiryLength, err = millis(v, "dataExpiryLength"); err != nil {
			return nil, err
		}
	}
	if v := opts.Get("errorExpiryLength"); !v.IsNullish() {
		if o.ErrorExpiryLength, err = millis(v, "errorExpiryLength"); err != nil {
			return nil, err
		}
	}
	if v := opts.Get("retry"); !v.IsNullish() {
		n, ok := v.Float()
		if !ok || n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
			return nil, fmtlite.Errorf("retry must be a whole number of retries, got %s", v)
		}
		o.Retry = int(n)
	}
	if err := gcOptions(opts, &o); err != nil {
		return nil, err
	}
	if delay := arg(args, 4); delay.Type() == safejs.TypeFunction {
		o.RetryDelay = retryDelayHook(delay)
	}
	if fetch := arg(args, 1); fetch.Type() == safejs.TypeFunction {
		o.RequestContext = func(ctx context.Context) context.Context { return withFetch(ctx, fetch) }
	}
	if now := arg(args, 3); now.Type() == safejs.TypeFunction {
		o.Now = jsClock(now)
	}
	// Shared requests run on kept goroutines, whose stacks have grown
	// already (workers.go).
	o.Go = asyncWorkers.run
	// A hook that runs while the controller reads (validate, a lens) and
	// calls it back is refused on JavaScript's side (refuseInLockedHook).
	o.ReadCallbacksGuarded = true
	shared := &ctrlShared{now: math.NaN()}
	changes := &shared.changes
	// Called with the controller's lock held: a store to memory, no call
	// into JavaScript.
	o.OnChange = func() { *changes++ }
	c := &ctrl{ids: encode.NewIdentities(), objs: arg(args, 2), changes: changes, shared: shared}
	o.Now = c.clock(o.Now)
	cc := controller.New(o)
	c.c = cc
	// initialState (JSON text, or undefined): checked here, where a bad
	// one is an error, rather than through Options.InitialState.
	if st := arg(args, 5); !st.IsUndefined() {
		if err := hydrate(cc, st); err != nil {
			return nil, fmtlite.Errorf("Controller: initialState: %w", err)
		}
	}
	return table.add(c), nil
}

// ctrlShared is the memory of a controller that JavaScript reads and
// writes in place (ctrlChanges gives its address): changes, the change
// counter (a little-endian uint32 at the address), and now, at the address
// plus 8, a float64 of epoch milliseconds that JavaScript sets to the
// controller's time just before it calls an exported entry for the
// controller and to NaN just after (NaN: no time given). Reading Go's
// clock costs two calls into JavaScript (runtime.nanotime1 and
// runtime.walltime); a call with the time given reads none, and with a now
// option it does not call the caller's function from Go at all.
type ctrlShared struct {
	changes uint32
	_       uint32
	now     float64
}

// pinClock pins the controller's clock, for the exported call about to
// run, to the time JavaScript gave in c.shared.now, if it gave one, and
// reports whether it did; the call then unpins it (defer
// c.unpin(c.pinClock())). Pins do not nest: a call inside a call (from a
// hook) keeps the outer call's time.
func (c *ctrl) pinClock() bool {
	if c.pinSet {
		return false
	}
	// NaN (no time given) is out of range too.
	ms, err := schema.ClockMillis(c.shared.now)
	if err != nil {
		return false
	}
	c.pinned, c.pinSet = time.UnixMilli(ms), true
	return true
}

// unpin undoes pinClock when pinned says it pinned the clock.
func (c *ctrl) unpin(pinned bool) {
	if pinned {
		c.pinSet = false
	}
}

// clock returns the controller's clock: the time pinned for an exported
// call, else base (nil: Go's).
func (c *ctrl) clock(base func() time.Time) func() time.Time {
	if base == nil {
		base = time.Now
	}
	return func() time.Time {
		if c.pinSet {
			return c.pinned
		}
		return base()
	}
}

// jsClock returns a clock that reads the JavaScript function now (epoch
// ms). datafetch.mjs checks the caller's function on every public call and
// hands Go one that never throws; should it still give something that is not
// a finite number (the caller's clock broke between two calls, in a
// background fetch or poll), the controller keeps the last good time rather
// than failing where no caller could be told: a panic in a goroutine would
// end the instance.
func jsClock(now safejs.Value) func() time.Time {
	var mu sync.Mutex
	last := time.Now()
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		if r, err := invoke(now); err == nil && r.Type() == safejs.TypeNumber {
			if f, err := r.Float(); err == nil {
				if ms, err := schema.ClockMillis(f); err == nil {
					last = time.UnixMilli(ms)
				}
			}
		}
		return last
	}
}

// ctrlChanges(ctrl) returns the address in linear memory of the
// controller's shared memory (ctrlShared): its change counter, a
// little-endian uint32, then at the address plus 8 the time of an exported
// call. Go's heap objects do not move, so the address holds for the
// controller's life.
func ctrlChanges(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	return int(uintptr(unsafe.Pointer(c.changes))), nil
}

// emit hands v, the read of the result under key by schema s, to
// JavaScript through decoder (lib.decode, lib.response or lib.hand), with encode.Identities
// and header h.
func (c *ctrl) emit(decoder safejs.Value, key string, s schema.Schema, v value.Value, h wire.Header) (safejs.Value, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var r safejs.Value
	var err error
	for try := 0; try < 2; try++ {
		out := c.output(key, s, v, h)
		r, err = handOver(decoder, c.objs, out)
		encode.PutOutput(out)
		// Text handed over as a string stays alive in JavaScript while
		// Go's handle does; either way the collection returns what the
		// read left as garbage to the Go heap.
		releaseAfter(len(out))
		if err == nil {
			return r, nil
		}
		// The halves may disagree now (decode refuses an unknown id): start
		// both afresh and send the value in full, which costs identity once
		// but never hands out a wrong object.
		c.ids.Reset()
		if _, cerr := callMethod(c.objs, "clear"); cerr != nil {
			break
		}
	}
	return safejs.Undefined(), err
}

// handOver calls decoder (lib.decode, lib.response or lib.hand) on out, an
// output of package wire. When JavaScript has the memory, it passes out's
// address and length to lib.decodeAt, lib.responseAt or lib.handAt, which
// decode the bytes in place; otherwise it copies them into a Uint8Array. out only has to stay
// alive during the call: Go's heap objects do not move.
func handOver(decoder, objs safejs.Value, out []byte) (safejs.Value, error) {
	at := safejs.Undefined()
	switch {
	case decoder.Equal(lib.decode):
		at = lib.decodeAt
	case decoder.Equal(lib.response):
		at = lib.responseAt
	case decoder.Equal(lib.hand):
		at = lib.handAt
	}
	if at.Type() == safejs.TypeFunction {
		return invoke(at, objs, int(uintptr(unsafe.Pointer(unsafe.SliceData(out)))), len(out))
	}
	bytes, err := uint8Array.New(len(out))
	if err != nil {
		return safejs.Undefined(), err
	}
	if _, err := safejs.CopyBytesToJS(bytes, out); err != nil {
		return safejs.Undefined(), err
	}
	return invoke(decoder, objs, bytes)
}

// output writes the read of v for decode or response, entering its
// encode.Identities in c.ids, and returns it, in a buffer of the process's
// scratch (encode/scratch.go) for the caller to put back (encode.PutOutput) once
// JavaScript has decoded it. Called with c.mu held.
func (c *ctrl) output(key string, s schema.Schema, v value.Value, h wire.Header) []byte {
	return c.ids.Output(encode.TakeOutput(), h, key, s, v)
}

// emitPlain hands v to JavaScript outside a controller's table, for
// snapshots and denormalize: with a table of its own, which JavaScript's
// decode (given no table) mirrors for the one output, so that a cycle of
// entities is an object graph there too (wire.OpBackRef names ids).
func emitPlain(decoder safejs.Value, s schema.Schema, v value.Value, h wire.Header) (safejs.Value, error) {
	out := encode.NewIdentities().Output(encode.TakeOutput(), h, "", s, v)
	defer encode.PutOutput(out)
	return handOver(decoder, safejs.Null(), out)
}

// responseHeader is the header of a getResponse output: the status and
// expiresAt; for a valid result, the status it turns to at expiresAt
// (stale, or invalid under invalidIfStale); and whether an error of the
// last fetch is kept. With them JavaScript can keep a read, still report
// its status as time passes (no other status changes with time alone), and
// answer useSuspense for fresh data without calling Go.
//
//go:noinline
func responseHeader(r endpoint.Response, spec *endpoint.Spec) wire.Header {
	h := wire.Header{
		Response:  true,
		Status:    wire.StatusOf(string(r.ExpiryStatus)),
		ExpiresAt: float64(r.ExpiresAt),
		ErrorKept: r.Err != nil,
	}
	if r.ExpiryStatus == endpoint.Valid {
		h.AfterExpiry = wire.StatusStale
		if spec != nil && spec.InvalidIfStale {
			h.AfterExpiry = wire.StatusInvalid
		}
		if r.Inferred {
			// Read from the entity table: past the entity's expiry it is
			// not inferred any more, and the read is missing, data and
			// all (JavaScript then asks again rather than keep it).
			h.AfterExpiry = wire.StatusMissing
		}
	}
	return h
}

// ctrlCall reads the (controller, endpoint, params JSON) arguments that
// most controller entries start with.
func ctrlCall(args []safejs.Value) (*ctrl, *rest.Endpoint, value.Value, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, nil, value.Undef, err
	}
	ep, params, err := endpointAndParams(args, 1)
	return c, ep, params, err
}

// ctrlFetch(resolve, reject, ctrl, endpoint, paramsJSON, bodyKind, body).
func ctrlFetch(args []safejs.Value) (any, error) {
	c, ep, params, err := ctrlCall(args)
	if err != nil {
		return nil, err
	}
	body, err := bodyArg(arg(args, 3), arg(args, 4))
	if err != nil {
		return nil, err
	}
	v, err := c.c.Fetch(context.Background(), ep, params, body)
	if err != nil {
		return nil, err
	}
	return c.emitResult(ep, params, v)
}

// ctrlSuspense(resolve, reject, ctrl, endpoint, paramsJSON).
func ctrlSuspense(args []safejs.Value) (any, error) {
	c, ep, params, err := ctrlCall(args)
	if err != nil {
		return nil, err
	}
	if params.IsNull() {
		return safejs.Undefined(), nil
	}
	v, err := c.c.Suspense(context.Background(), ep, params)
	if err != nil {
		return nil, err
	}
	return c.emitResult(ep, params, v)
}

// ctrlFetchIfStale(resolve, reject, ctrl, endpoint, paramsJSON).
func ctrlFetchIfStale(args []safejs.Value) (any, error) {
	c, ep, params, err := ctrlCall(args)
	if err != nil {
		return nil, err
	}
	if params.IsNull() {
		return safejs.Undefined(), nil
	}
	v, err := c.c.FetchIfStale(context.Background(), ep, params)
	if err != nil {
		return nil, err
	}
	return c.emitResult(ep, params, v)
}

func (c *ctrl) emitResult(ep *rest.Endpoint, params, v value.Value) (any, error) {
	key, err := ep.Key(params)
	if err != nil {
		return nil, err
	}
	return c.emit(lib.decode, key, ep.Spec().Schema, v, wire.Header{})
}

// ctrlGetResponse(ctrl, endpoint, paramsJSON) returns {data, expiryStatus,
// expiresAt}.
func ctrlGetResponse(args []safejs.Value) (any, error) {
	c, ep, params, err := ctrlCall(args)
	if err != nil {
		return nil, err
	}
	if params.IsNull() {
		return emitPlain(lib.response, nil, value.Undef,
			responseHeader(endpoint.Response{ExpiryStatus: endpoint.Missing}, nil))
	}
	key, err := ep.Key(params)
	if err != nil {
		return nil, err
	}
	r := c.c.GetResponse(ep, params)
	return c.emit(lib.response, key, ep.Spec().Schema, r.Data, responseHeader(r, ep.Spec()))
}

// snapGetResponse(snapshot, endpoint, paramsJSON) is snap.getResponse in
// getOptimisticResponse: the store with earlier optimistic updates applied.
func snapGetResponse(args []safejs.Value) (any, error) {
	snap, err := lookup[endpoint.Snapshot](arg(args, 0), "a snapshot (snap is only valid during getOptimisticResponse)")
	if err != nil {
		return nil, err
	}
	ep, params, err := endpointAndParams(args, 1)
	if err != nil {
		return nil, err
	}
	if _, err := ep.Key(params); err != nil {
		return nil, err
	}
	r := snap.GetResponse(ep, params)
	return emitPlain(lib.response, ep.Spec().Schema, r.Data, responseHeader(r, ep.Spec()))
}

// snapGet(snapshot, schemaHandle, argsJSON) is snap.get in
// getOptimisticResponse: schema read from the snapshot with args, with no
// request (endpoint.Snapshot.Get), as ctrl.get reads the store; undefined
// when nothing is found.
func snapGet(args []safejs.Value) (any, error) {
	snap, err := lookup[endpoint.Snapshot](arg(args, 0), "a snapshot (snap is only valid during getOptimisticResponse)")
	if err != nil {
		return nil, err
	}
	s, err := lookup[schema.Schema](arg(args, 1), "a schema")
	if err != nil {
		return nil, err
	}
	list, err := jsonArg(arg(args, 2), "snap.get: args")
	if err != nil {
		return nil, err
	}
	v, err := snap.Get(s, list.Elems()...)
	if err != nil {
		return nil, err
	}
	if v.IsUndefined() {
		return safejs.Undefined(), nil
	}
	return emitPlain(lib.decode, schema.ReadSchema(s), v, wire.Header{})
}

// ctrlSubscribe(ctrl, endpoint, paramsJSON, listener, noFetch, noPoll,
// noData) subscribes; listener is called as listener(data, loading,
// error), now and after every change. noFetch and noPoll (booleans, absent
// = false) are the {fetch: false} and {poll: false} options. noData passes
// undefined for data, still calling on each change of it: the React
// bindings read the data with getResponse (memoized by store version), so
// encoding it for the listener too would write a list twice. It returns
// the handle of the subscription, for ctrlUnsubscribe.
func ctrlSubscribe(args []safejs.Value) (any, error) {
	c, ep, params, err := ctrlCall(args)
	if err != nil {
		return nil, err
	}
	listener := arg(args, 3)
	key := ""
	if !params.IsNull() {
		if key, err = ep.Key(params); err != nil {
			return nil, err
		}
	}
	s := ep.Spec().Schema
	// The error object is kept while the error is the same, so listeners
	// can compare it as they compare data.
	var lastErr error
	lastErrJS := safejs.Undefined()
	noData, _ := arg(args, 6).Truthy()
	deliver := func(st controller.State) {
		defer recoverHook("subscribe")
		data := safejs.Undefined()
		if !noData {
			var err error
			if data, err = c.emit(lib.decode, key, s, st.Data, wire.Header{}); err != nil {
				reportError(err)
				return
			}
		}
		errJS := safejs.Undefined()
		if st.Err != nil {
			if lastErr == nil || !errors.Is(st.Err, lastErr) {
				lastErr, lastErrJS = st.Err, errorValue(st.Err)
			}
			errJS = lastErrJS
		}
		if _, err := invoke(listener, data, st.Loading, errJS); err != nil {
			reportError(err)
		}
	}
	noFetch, _ := arg(args, 4).Truthy()
	noPoll, _ := arg(args, 5).Truthy()
	opts := controller.SubscribeOptions{NoFetch: noFetch, NoPoll: noPoll}
	unsubscribe, err := c.c.SubscribeWith(ep, params, deliver, opts)
	if err != nil {
		return nil, err
	}
	return c.hook(unsubscribe), nil
}

// hook registers stop, which ends a JavaScript callback the controller
// now calls on a change (a subscription, a listener, a sync sink), and
// returns its handle, which ctrlUnsubscribe or ctrlSyncStop end once.
// While one is registered, the exported entries leave changes to the
// js.FuncOf ones (exports.go, quiet).
func (c *ctrl) hook(stop func()) int {
	c.subs.Add(1)
	return table.add(func() {
		stop()
		c.subs.Add(-1)
	})
}

// recoverHook, deferred by a JavaScript callback that runs on the
// controller's goroutines, reports a panic there, which would otherwise
// end the instance.
func recoverHook(what string) {
	if p := recover(); p != nil {
		reportError(panicError(what, p))
	}
}

// ctrlUnsubscribe(subscription) ends a subscription.
func ctrlUnsubscribe(args []safejs.Value) (any, error) {
	h := arg(args, 0)
	unsubscribe, err := lookup[func()](h, "a subscription")
	if err != nil {
		return nil, nil // already unsubscribed
	}
	unsubscribe()
	id, _ := h.Int()
	table.release(id)
	return nil, nil
}

// ctrlInvalidate(ctrl, endpoint, paramsJSON).
func ctrlInvalidate(args []safejs.Value) (any, error) {
	c, ep, params, err := ctrlCall(args)
	if err != nil {
		return nil, err
	}
	return nil, c.c.Invalidate(ep, params)
}

// ctrlInvalidateAll(ctrl, testKey) invalidates the keys testKey accepts.
func ctrlInvalidateAll(args []safejs.Value) (any, error) {
	c, test, err := ctrlAndTest(args)
	if err != nil {
		return nil, err
	}
	c.c.InvalidateAll(test)
	return nil, nil
}

// ctrlExpireAll(ctrl, testKey) marks stale the keys testKey accepts.
func ctrlExpireAll(args []safejs.Value) (any, error) {
	c, test, err := ctrlAndTest(args)
	if err != nil {
		return nil, err
	}
	c.c.ExpireAll(test)
	return nil, nil
}

// ctrlAndTest reads a controller and a testKey function. testKey is called
// for each stored key; if it throws, the panic unwinds the controller's
// lock and the caller gets the error.
func ctrlAndTest(args []safejs.Value) (*ctrl, func(string) bool, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, nil, err
	}
	fn := arg(args, 1)
	return c, func(key string) bool {
		r, err := invoke(fn, key)
		if err != nil {
			panic(err)
		}
		b, _ := r.Truthy()
		return b
	}, nil
}

// ctrlResetEntireStore(ctrl) empties the store and both halves of the
// identity table.
func ctrlResetEntireStore(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	// Subscribers are told during the reset, with the old table; clearing
	// it after is safe because nothing runs in between.
	c.c.ResetEntireStore()
	// What the store held is garbage now: collected soon, the next reads
	// reuse its memory rather than grow the heap to the collector's target.
	defer collectSoon()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids.Reset()
	_, err = callMethod(c.objs, "clear")
	return nil, err
}

// ctrlSetResponse(ctrl, endpoint, paramsJSON, dataJSON).
func ctrlSetResponse(args []safejs.Value) (any, error) {
	c, ep, params, err := ctrlCall(args)
	if err != nil {
		return nil, err
	}
	data, err := jsonArg(arg(args, 3), ep.Name()+": setResponse data")
	if err != nil {
		return nil, err
	}
	return nil, c.c.SetResponse(ep, params, data)
}

// ctrlSetError(ctrl, endpoint, paramsJSON, error) keeps error, a
// JavaScript value datafetch.mjs has checked (an Error, or an object with a
// string message), as the result's error, as if its fetch had failed.
// Reads that meet it reject with that very value (errorValue).
//
// It is a js.FuncOf entry, not an export: the error is a JavaScript object,
// which cannot travel through linear memory as the exports' arguments do,
// and setError is not a call a page makes often enough for the export's
// saving to matter.
func ctrlSetError(args []safejs.Value) (any, error) {
	c, ep, params, err := ctrlCall(args)
	if err != nil {
		return nil, err
	}
	return nil, c.c.SetError(ep, params, givenError(arg(args, 3)))
}

// ctrlGetState(ctrl) returns the store's state as JSON.
func ctrlGetState(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	return c.c.State().JSON(), nil
}

// ctrlInspect(ctrl) returns what df.inspect shows of the controller now, as
// JSON (inspect.Model.Value): read-only, by the controller's clock.
func ctrlInspect(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	return inspect.Take(c.c, inspect.Options{}).Value().JSON(), nil
}

// reportError logs an error that has no caller to go to, such as one in a
// subscription delivered from a goroutine.
func reportError(err error) {
	_, _ = callMethod(console, "error", errorValue(err))
}
