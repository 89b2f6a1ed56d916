//go:build js && wasm

// Package safejs calls into JavaScript through syscall/js and returns what
// syscall/js panics with (a thrown JavaScript exception, a value of the
// wrong type) as an error.
//
// It has the API of github.com/hack-pad/safejs, which datafetch used
// before, so that the bridge's code did not change; it is our own, smaller
// code: that module formats the panic values it recovers with fmt, which
// linked fmt and reflect's printer into datafetch.wasm (about 50 KB
// brotli) for a message that is a string in every case datafetch meets.
// Errors are those syscall/js panics with: a js.Error for a JavaScript
// exception, the error itself for a Go error, else the value printed as
// %v.
package safejs

import (
	"errors"
	"syscall/js"

	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Value is a JavaScript value whose methods return errors where
// syscall/js's panic.
type Value struct {
	js js.Value
}

// Func is a Go function callable from JavaScript (js.Func).
type Func struct {
	fn js.Func
}

// Type is a JavaScript value's type, as js.Type.
type Type int

// The JavaScript types, as syscall/js's.
const (
	TypeUndefined = Type(js.TypeUndefined)
	TypeNull      = Type(js.TypeNull)
	TypeBoolean   = Type(js.TypeBoolean)
	TypeNumber    = Type(js.TypeNumber)
	TypeString    = Type(js.TypeString)
	TypeSymbol    = Type(js.TypeSymbol)
	TypeObject    = Type(js.TypeObject)
	TypeFunction  = Type(js.TypeFunction)
)

// String names the type as JavaScript's typeof does ("null" for null).
func (t Type) String() string { return js.Type(t).String() }

// Safe wraps a js.Value.
func Safe(v js.Value) Value { return Value{js: v} }

// Unsafe returns the js.Value that v wraps.
func Unsafe(v Value) js.Value { return v.js }

// Global is JavaScript's globalThis.
func Global() Value { return Value{js: js.Global()} }

// Null is JavaScript's null.
func Null() Value { return Value{js: js.Null()} }

// Undefined is JavaScript's undefined.
func Undefined() Value { return Value{js: js.Undefined()} }

// recovered turns what a call into syscall/js panicked with into its
// error, or nil when it did not panic (p is nil).
func recovered(p any) error {
	switch p := p.(type) {
	case nil:
		return nil
	case error:
		return p
	case js.Value:
		return js.Error{Value: p}
	default:
		return errors.New(fmtlite.Sprint(p))
	}
}

// try calls f and returns its result, or the error it panicked with.
func try[T any](f func() T) (out T, err error) {
	defer func() { err = recovered(recover()) }()
	return f(), nil
}

// do calls f and returns the error it panicked with, if any.
func do(f func()) (err error) {
	defer func() { err = recovered(recover()) }()
	f()
	return nil
}

// unwrap returns x with every Value and Func in it, at any depth of
// []any and map[string]any, replaced by the js.Value or js.Func it
// wraps, which syscall/js's ValueOf takes.
func unwrap(x any) any {
	switch x := x.(type) {
	case Value:
		return x.js
	case Func:
		return x.fn
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = unwrap(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = unwrap(e)
		}
		return out
	}
	return x
}

func unwrapAll(args []any) []any { return unwrap(args).([]any) }

// ValueOf converts x as js.ValueOf does.
func ValueOf(x any) (Value, error) {
	x = unwrap(x)
	return try(func() Value { return Value{js: js.ValueOf(x)} })
}

// Bool is v's boolean; an error if v is not a boolean.
func (v Value) Bool() (bool, error) { return try(v.js.Bool) }

// Float is v's number; an error if v is not a number.
func (v Value) Float() (float64, error) { return try(v.js.Float) }

// Int is v's number truncated to an int; an error if v is not a number.
func (v Value) Int() (int, error) { return try(v.js.Int) }

// String is v's string, or "<T>"-style text for other types (as
// js.Value.String).
func (v Value) String() (string, error) { return try(v.js.String) }

// Truthy is v's JavaScript truthiness.
func (v Value) Truthy() (bool, error) { return try(v.js.Truthy) }

// Length is v's "length" property as an int.
func (v Value) Length() (int, error) { return try(v.js.Length) }

// Type is v's type (TypeNull for null).
func (v Value) Type() Type { return Type(v.js.Type()) }

// Equal reports whether v === w.
func (v Value) Equal(w Value) bool { return v.js.Equal(w.js) }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.js.IsNull() }

// IsUndefined reports whether v is undefined.
func (v Value) IsUndefined() bool { return v.js.IsUndefined() }

// IsNaN reports whether v is NaN.
func (v Value) IsNaN() bool { return v.js.IsNaN() }

// Get is v's property p; an error if v is not an object.
func (v Value) Get(p string) (Value, error) {
	return try(func() Value { return Value{js: v.js.Get(p)} })
}

// Index is v[i]; an error if v is not an object.
func (v Value) Index(i int) (Value, error) {
	return try(func() Value { return Value{js: v.js.Index(i)} })
}

// Set sets v's property p to x (converted as ValueOf).
func (v Value) Set(p string, x any) error {
	x = unwrap(x)
	return do(func() { v.js.Set(p, x) })
}

// SetIndex sets v[i] to x (converted as ValueOf).
func (v Value) SetIndex(i int, x any) error {
	x = unwrap(x)
	return do(func() { v.js.SetIndex(i, x) })
}

// Delete deletes v's property p.
func (v Value) Delete(p string) error {
	return do(func() { v.js.Delete(p) })
}

// Call calls v's method m with args (converted as ValueOf); an error if
// there is no such method or it throws.
func (v Value) Call(m string, args ...any) (Value, error) {
	args = unwrapAll(args)
	return try(func() Value { return Value{js: v.js.Call(m, args...)} })
}

// Invoke calls v with args; an error if v is not a function or it throws.
func (v Value) Invoke(args ...any) (Value, error) {
	args = unwrapAll(args)
	return try(func() Value { return Value{js: v.js.Invoke(args...)} })
}

// New calls v as a constructor with args; an error if it throws.
func (v Value) New(args ...any) (Value, error) {
	args = unwrapAll(args)
	return try(func() Value { return Value{js: v.js.New(args...)} })
}

// FuncOf wraps fn as a JavaScript function; Release it when done.
func FuncOf(fn func(this Value, args []Value) any) (Func, error) {
	wrapped := func(this js.Value, args []js.Value) any {
		vs := make([]Value, len(args))
		for i, a := range args {
			vs[i] = Value{js: a}
		}
		return unwrap(fn(Value{js: this}, vs))
	}
	f, err := try(func() js.Func { return js.FuncOf(wrapped) })
	return Func{fn: f}, err
}

// Release frees f's resources; JavaScript must not call it afterwards.
func (f Func) Release() { f.fn.Release() }

// Value is f as a JavaScript value.
func (f Func) Value() Value { return Value{js: f.fn.Value} }

// CopyBytesToGo copies src (a Uint8Array) into dst, as js.CopyBytesToGo.
func CopyBytesToGo(dst []byte, src Value) (int, error) {
	return try(func() int { return js.CopyBytesToGo(dst, src.js) })
}

// CopyBytesToJS copies src into dst (a Uint8Array), as js.CopyBytesToJS.
func CopyBytesToJS(dst Value, src []byte) (int, error) {
	return try(func() int { return js.CopyBytesToJS(dst.js, src) })
}

// InstanceOf reports whether v instanceof t. An error if t is not a
// constructor (a function whose prototype is an object), which
// JavaScript's instanceof would throw for.
func (v Value) InstanceOf(t Value) (bool, error) {
	if t.Type() != TypeFunction {
		return false, fmtlite.Errorf("invalid type for instanceof: %v", t.Type())
	}
	proto, err := t.Get("prototype")
	if err != nil {
		return false, fmtlite.Errorf("invalid constructor type for instanceof: %v", err)
	}
	if proto.Type() != TypeObject {
		return false, fmtlite.Errorf("invalid constructor type for instanceof: %v", proto.Type())
	}
	return try(func() bool { return v.js.InstanceOf(t.js) })
}
