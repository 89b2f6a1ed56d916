//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/hack-pad/safejs"
)

// jsError is an exception thrown by JavaScript code that Go called, or the
// reason a JavaScript promise was rejected with.
type jsError struct {
	// Value is what was thrown; it becomes the cause of the Error that
	// reaches the caller.
	Value safejs.Value
	msg   string
}

func (e *jsError) Error() string { return e.msg }

// invoke calls the JavaScript function fn. An exception it throws is
// returned as a *jsError, never as a panic.
func invoke(fn safejs.Value, args ...any) (safejs.Value, error) {
	v, err := fn.Invoke(args...)
	return v, thrown(err)
}

// callMethod calls the method name of v, as invoke calls a function.
func callMethod(v safejs.Value, name string, args ...any) (safejs.Value, error) {
	r, err := v.Call(name, args...)
	return r, thrown(err)
}

// thrown turns the error safejs makes of a JavaScript exception into a
// *jsError that keeps the thrown value; other errors pass through.
func thrown(err error) error {
	var je js.Error
	if err != nil && errors.As(err, &je) {
		return newJSError(safejs.Safe(je.Value))
	}
	return err
}

//go:noinline
func newJSError(v safejs.Value) *jsError {
	return &jsError{Value: v, msg: describeThrown(v)}
}

// describeThrown says what a thrown value is, as "TypeError: Failed to
// fetch": the name is left out for plain Errors, whose name says nothing.
func describeThrown(v safejs.Value) string {
	if v.Type() == safejs.TypeObject {
		msg, _ := v.Get("message")
		if msg.Type() == safejs.TypeString {
			m, _ := msg.String()
			name, _ := v.Get("name")
			if n, _ := name.String(); name.Type() == safejs.TypeString && n != "" && n != "Error" {
				return n + ": " + m
			}
			return m
		}
	}
	if s, err := jsString(v); err == nil {
		return s
	}
	return "a JavaScript " + v.Type().String() + " was thrown"
}

// jsString returns String(v).
func jsString(v safejs.Value) (string, error) {
	if v.Type() == safejs.TypeString {
		return v.String()
	}
	s, err := invoke(globalString, v)
	if err != nil {
		return "", err
	}
	return s.String()
}

// isThenable reports whether v is a promise or promise-like.
func isThenable(v safejs.Value) bool {
	if t := v.Type(); t != safejs.TypeObject && t != safejs.TypeFunction {
		return false
	}
	then, err := v.Get("then")
	return err == nil && then.Type() == safejs.TypeFunction
}

// await waits for v to settle when it is a promise and returns what it
// resolved to (a rejection is a *jsError); any other v is returned at once.
// It blocks the calling goroutine only, so it must not run in a js.Func
// callback itself (that would stop the event loop that settles v). When ctx
// is done first it returns ctx's error; the promise's callbacks stay
// registered until it settles and then release themselves.
func await(ctx context.Context, v safejs.Value) (safejs.Value, error) {
	if !isThenable(v) {
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
		ch, err = watchWithFuncs(v)
		if err != nil {
			return safejs.Undefined(), err
		}
	}
	select {
	case s := <-ch:
		return s.v, s.err
	case <-ctx.Done():
		return safejs.Undefined(), ctx.Err()
	}
}

// awaitWoken is await through lib.await, which reports the settlement
// through datafetchWake and resumes Go (wake.go): no js.FuncOf call per
// await. The settled value is taken with lib.take.
func awaitWoken(ctx context.Context, v safejs.Value) (safejs.Value, error) {
	id, ch := waits.add()
	if _, err := invoke(lib.await, v, id); err != nil {
		waits.drop(id)
		return safejs.Undefined(), err
	}
	var o woken
	select {
	case o = <-ch:
	case <-ctx.Done():
		waits.drop(id)
		// What JavaScript may have kept already is let go.
		_, _ = invoke(lib.abort, id)
		return safejs.Undefined(), ctx.Err()
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

// settled is how a promise settled: the value it resolved to, or a
// *jsError with the reason it was rejected with.
type settled struct {
	v   safejs.Value
	err error
}

// watchers hands the settlement of promises to the goroutines awaiting
// them through one callback made once (settleWatched), rather than two
// js.FuncOf per await: each costs a call into JavaScript to make its
// wrapper, a value in wasm_exec.js's table, and a finalizer to drop it,
// and a fetch awaits twice (the Response, then its body).
var watchers = &promiseWatchers{waiting: map[int]chan settled{}}

// promiseWatchers are the awaits lib.watch reports to, by id.
type promiseWatchers struct {
	mu      sync.Mutex
	next    int
	waiting map[int]chan settled
}

// watch has lib.watch call settleWatched when v settles and returns the
// channel that gets the settlement; nil when there is no lib.watch (Go
// tests without datafetch.mjs), for watchWithFuncs.
func (w *promiseWatchers) watch(v safejs.Value) (chan settled, error) {
	if lib.watch.Type() != safejs.TypeFunction {
		return nil, nil
	}
	ch := make(chan settled, 1)
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
		return nil, fmt.Errorf("settleWatched: id: %w", err)
	}
	ok, err := arg(args, 1).Bool()
	if err != nil {
		return nil, fmt.Errorf("settleWatched: ok: %w", err)
	}
	watchers.mu.Lock()
	ch := watchers.waiting[id]
	delete(watchers.waiting, id)
	watchers.mu.Unlock()
	if ch == nil {
		return nil, fmt.Errorf("settleWatched: no promise is watched as %d", id)
	}
	if ok {
		ch <- settled{v: arg(args, 2)}
	} else {
		ch <- settled{err: newJSError(arg(args, 2))}
	}
	return nil, nil
}

// watchWithFuncs has v call two js.FuncOf when it settles, which send the
// settlement to the channel it returns.
func watchWithFuncs(v safejs.Value) (chan settled, error) {
	ch := make(chan settled, 1)
	var onOK, onErr safejs.Func
	release := func() {
		onOK.Release()
		onErr.Release()
	}
	var err error
	onOK, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		release()
		ch <- settled{v: arg(args, 0)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	onErr, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		release()
		ch <- settled{err: newJSError(arg(args, 0))}
		return nil
	})
	if err != nil {
		onOK.Release()
		return nil, err
	}
	if _, err := callMethod(v, "then", onOK, onErr); err != nil {
		release()
		return nil, err
	}
	return ch, nil
}

// arg returns args[i], or undefined when there are fewer arguments.
//
//go:noinline
func arg(args []safejs.Value, i int) safejs.Value {
	if i < len(args) {
		return args[i]
	}
	return safejs.Undefined()
}
