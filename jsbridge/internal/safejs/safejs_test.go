//go:build js && wasm

package safejs_test

import (
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// eval returns the value of the JavaScript expression src.
func eval(t *testing.T, src string) safejs.Value {
	t.Helper()
	return safejs.Safe(js.Global().Get("Function").New("return " + src).Invoke())
}

// TestPanicsAreErrors checks that what syscall/js panics with comes back
// as an error: a thrown exception as a js.Error that keeps it, a call of
// a non-function as the Go error syscall/js panics with.
func TestPanicsAreErrors(t *testing.T) {
	thrower := eval(t, "() => { throw new TypeError('typed') }")
	_, err := thrower.Invoke()
	var je js.Error
	require.ErrorAs(t, err, &je)
	assert.EqualError(t, err, "JavaScript error: typed")

	_, err = safejs.Null().Get("x")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "syscall/js: call of Value.Get on null")

	_, err = eval(t, "'str'").Int()
	var ve *js.ValueError
	assert.ErrorAs(t, err, &ve)

	obj := eval(t, "({})")
	_, err = obj.Call("missing")
	assert.Error(t, err)
}

// TestValuesPassThrough checks that a Value or Func among the arguments,
// at any depth of []any and map[string]any, reaches JavaScript as the
// value it wraps.
func TestValuesPassThrough(t *testing.T) {
	marker := eval(t, "({marker: true})")
	fn, err := safejs.FuncOf(func(this safejs.Value, args []safejs.Value) any {
		return marker
	})
	require.NoError(t, err)
	defer fn.Release()

	check := eval(t, `(m, nested) => nested.list[0] === m && nested.list[1]() === m`)
	got, err := check.Invoke(marker, map[string]any{"list": []any{marker, fn}})
	require.NoError(t, err)
	ok, err := got.Bool()
	require.NoError(t, err)
	assert.True(t, ok)

	target := eval(t, "({})")
	require.NoError(t, target.Set("m", marker))
	m, err := target.Get("m")
	require.NoError(t, err)
	assert.True(t, m.Equal(marker))
}

func TestInstanceOf(t *testing.T) {
	arr := eval(t, "[]")
	array, err := safejs.Global().Get("Array")
	require.NoError(t, err)
	ok, err := arr.InstanceOf(array)
	require.NoError(t, err)
	assert.True(t, ok)

	_, err = arr.InstanceOf(eval(t, "1"))
	assert.EqualError(t, err, "invalid type for instanceof: number")
	_, err = arr.InstanceOf(eval(t, "Object.assign(() => {}, {prototype: 1})"))
	assert.EqualError(t, err, "invalid constructor type for instanceof: number")
}
