//go:build js && wasm

package jsbridge

import (
	"context"
	"sync"
	"unsafe"

	"github.com/datafetch/datafetch/core/value"

	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/datafetch/datafetch/jsbridge/interop"
)

// jsError is an exception thrown by JavaScript code that Go called, or the
// reason a JavaScript promise was rejected with (package interop's Error).
type jsError = interop.Error

func newJSError(v safejs.Value) *jsError { return interop.NewError(v) }

// invoke calls the JavaScript function fn; an exception it throws is
// returned as a *jsError, never as a panic.
func invoke(fn safejs.Value, args ...any) (safejs.Value, error) { return interop.Invoke(fn, args...) }

// callMethod calls the method name of v, as invoke calls a function.
func callMethod(v safejs.Value, name string, args ...any) (safejs.Value, error) {
	return interop.Call(v, name, args...)
}

// await waits for v to settle when it is a promise and returns what it
// resolved to (a rejection is a *jsError); any other v is returned at once.
// It blocks the calling goroutine only, so it must not run in a js.Func
// callback itself (that would stop the event loop that settles v). When ctx
// is done first it returns ctx's error; the promise's callbacks stay
// registered until it settles and then release themselves.
func await(ctx context.Context, v safejs.Value) (safejs.Value, error) {
	if !interop.IsThenable(v) {
		return v, nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if lib.await.Type() == safejs.TypeFunction {
		return awaitWoken(ctx, v)
	}
	ch, err := watchers.watch(v)
	if err != nil {
		return safejs.Undefined(), err
	}
	if ch == nil {
		ch, err = interop.Watch(v)
		if err != nil {
			return safejs.Undefined(), err
		}
	}
	return interop.Wait(ctx, ch)
}

// awaitWoken is await through lib.await, which reports the settlement
// through datafetchWake and resumes Go (wake.go): no js.FuncOf call per
// await. The settled value is taken with lib.take.
func awaitWoken(ctx context.Context, v safejs.Value) (safejs.Value, error) {
	id, o, err := wakeOn(ctx, lib.await, v)
	if err != nil {
		return safejs.Undefined(), err
	}
	r, err := invoke(lib.take, id)
	if err != nil {
		return safejs.Undefined(), err
	}
	if o.kind != wakeOK {
		return safejs.Undefined(), newJSError(r)
	}
	return r, nil
}

// wakeOn hands v to the JavaScript waiter start (lib.await or
// lib.awaitText) under a new wait id and blocks until datafetchWake
// reports its outcome, or ctx is done: then the wait is dropped and what
// JavaScript may have kept already is let go.
func wakeOn(ctx context.Context, start, v safejs.Value) (int32, woken, error) {
	id, ch := waits.add()
	if _, err := invoke(start, v, id); err != nil {
		waits.drop(id)
		return id, woken{}, err
	}
	select {
	case o := <-ch:
		return id, o, nil
	case <-ctx.Done():
		waits.drop(id)
		_, _ = invoke(lib.abort, id)
		return id, woken{}, ctx.Err()
	}
}

// The room past a woken text's bytes is kept alive with the parsed value
// (the parse shares the room's memory) unless it is more than
// minTextSlackCopy bytes and more than an eighth (textSlackShare) of the
// text: then the text is copied out. The first room JavaScript reserves
// (its slack a 64th of the text and 64 bytes) is always kept; a second
// one, reserved for 3 bytes a UTF-16 unit, may be copied.
const (
	minTextSlackCopy = 1 << 10
	textSlackShare   = 8
)

// awaitJSON waits for v, a hook adapter's result (a promise of JSON text,
// or the text itself), and parses it as jsonArg does; what names it in
// errors. See awaitText.
func awaitJSON(ctx context.Context, v safejs.Value, what string) (value.Value, error) {
	text, err := awaitText(ctx, v, what)
	if err != nil {
		return value.Undef, err
	}
	return parseText(text, what)
}

// awaitText waits for v, a hook adapter's result (a promise of JSON text,
// or the text itself), and returns the text, "" for undefined or null;
// what names it in errors. Through lib.awaitText the text is written as
// UTF-8 straight into Go's memory (encodeInto): no TextEncoder.encode, and
// none of syscall/js's two copies of a string into Go (wakeText). Text
// JavaScript does not write so (no lib.awaitText, or a rejection) is read
// as await reads it.
func awaitText(ctx context.Context, v safejs.Value, what string) (string, error) {
	if !interop.IsThenable(v) || lib.awaitText.Type() != safejs.TypeFunction {
		r, err := await(ctx, v)
		if err != nil {
			return "", err
		}
		return textArg(r, what)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	id, o, err := wakeOn(ctx, lib.awaitText, v)
	if err != nil {
		return "", err
	}
	if o.kind == wakeText {
		return wokenText(o), nil
	}
	r, err := invoke(lib.take, id)
	if err != nil {
		return "", err
	}
	if o.kind != wakeOK {
		return "", newJSError(r)
	}
	return textArg(r, what)
}

// wokenText is the text a wakeText outcome holds. A parse of it keeps its
// memory (its strings are slices of it): the room JavaScript wrote it
// into, unless that is much longer than the text.
func wokenText(o woken) string {
	text := o.body
	if len(text) == 0 {
		return ""
	}
	if slack := o.roomLen - len(text); slack > minTextSlackCopy && slack > len(text)/textSlackShare {
		text = append([]byte(nil), text...)
	}
	return unsafe.String(unsafe.SliceData(text), len(text))
}

// watchers hands the settlement of promises to the goroutines awaiting
// them through one callback made once (settleWatched), rather than two
// js.FuncOf per await: each costs a call into JavaScript to make its
// wrapper, a value in wasm_exec.js's table, and a finalizer to drop it,
// and a fetch awaits twice (the Response, then its body).
var watchers = &promiseWatchers{waiting: map[int]chan interop.Settled{}}

// promiseWatchers are the awaits lib.watch reports to, by id.
type promiseWatchers struct {
	mu      sync.Mutex
	next    int
	waiting map[int]chan interop.Settled
}

// watch has lib.watch call settleWatched when v settles and returns the
// channel that gets the settlement; nil when there is no lib.watch (Go
// tests without datafetch.mjs), for interop.Watch.
func (w *promiseWatchers) watch(v safejs.Value) (chan interop.Settled, error) {
	if lib.watch.Type() != safejs.TypeFunction {
		return nil, nil
	}
	ch := make(chan interop.Settled, 1)
	w.mu.Lock()
	w.next++
	id := w.next
	w.waiting[id] = ch
	w.mu.Unlock()
	if _, err := invoke(lib.watch, v, id); err != nil {
		w.mu.Lock()
		delete(w.waiting, id)
		w.mu.Unlock()
		return nil, err
	}
	return ch, nil
}

// settleWatched(id, ok, value), the bridge's settle, is what lib.watch calls when the promise it
// watches for id settles: resolved with value when ok, else rejected.
func settleWatched(args []safejs.Value) (any, error) {
	id, err := arg(args, 0).Int()
	if err != nil {
		return nil, fmtlite.Errorf("settleWatched: id: %w", err)
	}
	ok, err := arg(args, 1).Bool()
	if err != nil {
		return nil, fmtlite.Errorf("settleWatched: ok: %w", err)
	}
	watchers.mu.Lock()
	ch := watchers.waiting[id]
	delete(watchers.waiting, id)
	watchers.mu.Unlock()
	if ch == nil {
		return nil, fmtlite.Errorf("settleWatched: no promise is watched as %d", id)
	}
	if ok {
		ch <- interop.Settled{V: arg(args, 2)}
	} else {
		ch <- interop.Settled{Err: newJSError(arg(args, 2))}
	}
	return nil, nil
}

// arg returns args[i], or undefined when there are fewer arguments.
func arg(args []safejs.Value, i int) safejs.Value { return interop.Arg(args, i) }
