//go:build js && wasm

// Package interop is how Go code of this module calls JavaScript: calls
// that return what JavaScript throws as an error instead of panicking, and
// awaiting a promise from a goroutine. It is built on safejs, so that no
// JavaScript exception can become a Go panic (and no Go panic can reach
// JavaScript through it). Package jsbridge and the fetch transport use it;
// a Go front end may too.
package interop

import (
	"context"
	"errors"
	"syscall/js"

	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// The globals it calls, looked up once.
var globalString = Lookup(safejs.Global(), "String")

// Lookup returns v[name], for the JavaScript built-ins a package looks up
// once, at initialization: a property getter that throws there is a
// broken environment, and panics.
func Lookup(v safejs.Value, name string) safejs.Value {
	x, err := v.Get(name)
	if err != nil {
		panic("datafetch: looking up " + name + ": " + err.Error())
	}
	return x
}

// Error is an exception thrown by JavaScript code that Go called, or the
// reason a JavaScript promise was rejected with.
type Error struct {
	// Value is what was thrown; jsbridge makes it the cause of the Error
	// that reaches the caller.
	Value safejs.Value
	msg   string
}

func (e *Error) Error() string { return e.msg }

// NewError returns the Error of v, a thrown or rejected value.
//
//go:noinline
func NewError(v safejs.Value) *Error {
	return &Error{Value: v, msg: Describe(v)}
}

// Invoke calls the JavaScript function fn. An exception it throws is
// returned as an *Error, never as a panic.
func Invoke(fn safejs.Value, args ...any) (safejs.Value, error) {
	v, err := fn.Invoke(args...)
	return v, Thrown(err)
}

// Call calls the method name of v, as Invoke calls a function.
func Call(v safejs.Value, name string, args ...any) (safejs.Value, error) {
	r, err := v.Call(name, args...)
	return r, Thrown(err)
}

// Thrown turns the error safejs makes of a JavaScript exception into an
// *Error that keeps the thrown value; other errors pass through.
func Thrown(err error) error {
	var je js.Error
	if err != nil && errors.As(err, &je) {
		return NewError(safejs.Safe(je.Value))
	}
	return err
}

// Describe says what a thrown value is, as "TypeError: Failed to fetch":
// the name is left out for plain Errors, whose name says nothing.
func Describe(v safejs.Value) string {
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
	if s, err := String(v); err == nil {
		return s
	}
	return "a JavaScript " + v.Type().String() + " was thrown"
}

// String returns String(v).
func String(v safejs.Value) (string, error) {
	if v.Type() == safejs.TypeString {
		return v.String()
	}
	s, err := Invoke(globalString, v)
	if err != nil {
		return "", err
	}
	return s.String()
}

// IsThenable reports whether v is a promise or promise-like.
func IsThenable(v safejs.Value) bool {
	if t := v.Type(); t != safejs.TypeObject && t != safejs.TypeFunction {
		return false
	}
	then, err := v.Get("then")
	return err == nil && then.Type() == safejs.TypeFunction
}

// Settled is how a promise settled: the value it resolved to, or an
// *Error with the reason it was rejected with.
type Settled struct {
	V   safejs.Value
	Err error
}

// Watch has v call two js.FuncOf when it settles, which send the
// settlement to the channel it returns. Each await so costs two wrappers;
// jsbridge, with its JavaScript side loaded, has a cheaper way (one
// callback for every promise).
func Watch(v safejs.Value) (chan Settled, error) {
	ch := make(chan Settled, 1)
	var onOK, onErr safejs.Func
	release := func() {
		onOK.Release()
		onErr.Release()
	}
	var err error
	onOK, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		release()
		ch <- Settled{V: Arg(args, 0)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	onErr, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		release()
		ch <- Settled{Err: NewError(Arg(args, 0))}
		return nil
	})
	if err != nil {
		onOK.Release()
		return nil, err
	}
	if _, err := Call(v, "then", onOK, onErr); err != nil {
		release()
		return nil, err
	}
	return ch, nil
}

// Await waits for v to settle when it is a promise and returns what it
// resolved to (a rejection is an *Error); any other v is returned at once.
// It blocks the calling goroutine only, so it must not run in a js.Func
// callback itself (that would stop the event loop that settles v). When
// ctx is done first it returns ctx's error; the promise's callbacks stay
// registered until it settles and then release themselves.
func Await(ctx context.Context, v safejs.Value) (safejs.Value, error) {
	if !IsThenable(v) {
		return v, nil
	}
	ch, err := Watch(v)
	if err != nil {
		return safejs.Undefined(), err
	}
	return Wait(ctx, ch)
}

// Wait returns the settlement ch delivers, or ctx's error when ctx is done
// first.
func Wait(ctx context.Context, ch chan Settled) (safejs.Value, error) {
	select {
	case s := <-ch:
		return s.V, s.Err
	case <-ctx.Done():
		return safejs.Undefined(), ctx.Err()
	}
}

// Arg returns args[i], or undefined when there are fewer arguments.
//
//go:noinline
func Arg(args []safejs.Value, i int) safejs.Value {
	if i < len(args) {
		return args[i]
	}
	return safejs.Undefined()
}
