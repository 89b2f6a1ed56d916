//go:build js && wasm

package interop_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/datafetch/datafetch/jsbridge/interop"
)

// eval returns the value of the JavaScript expression src.
func eval(t *testing.T, src string) safejs.Value {
	t.Helper()
	fn, err := safejs.Global().Get("Function")
	require.NoError(t, err)
	f, err := fn.New("return " + src)
	require.NoError(t, err)
	v, err := f.Invoke()
	require.NoError(t, err)
	return v
}

func TestThrownValuesAreErrorsThatKeepThem(t *testing.T) {
	for _, c := range []struct{ thrown, message string }{
		{"new Error('plain')", "plain"},
		{"new TypeError('typed')", "TypeError: typed"},
		{"'a string'", "a string"},
		{"42", "42"},
		{"({toString() { return 'custom' }})", "custom"},
		{"Object.create(null)", "a JavaScript object was thrown"},
	} {
		t.Run(c.thrown, func(t *testing.T) {
			thrower := eval(t, "() => { throw "+c.thrown+" }")
			_, err := interop.Invoke(thrower)
			var je *interop.Error
			require.ErrorAs(t, err, &je)
			assert.Equal(t, c.message, err.Error())
			assert.False(t, je.Value.IsUndefined(), "the thrown value is kept")

			// A method call reports the same.
			obj := eval(t, "({ m() { throw "+c.thrown+" } })")
			_, err = interop.Call(obj, "m")
			assert.EqualError(t, err, c.message)
		})
	}
}

func TestAwait(t *testing.T) {
	ctx := context.Background()
	v, err := interop.Await(ctx, eval(t, "Promise.resolve(7)"))
	require.NoError(t, err)
	n, _ := v.Int()
	assert.Equal(t, 7, n)

	_, err = interop.Await(ctx, eval(t, "Promise.reject(new RangeError('no'))"))
	var je *interop.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, "RangeError: no", err.Error())

	// Not a promise: returned as it is.
	v, err = interop.Await(ctx, eval(t, "'plain'"))
	require.NoError(t, err)
	s, _ := v.String()
	assert.Equal(t, "plain", s)

	// A thenable that never settles: the context ends the wait.
	done, cancel := context.WithCancel(ctx)
	cancel()
	_, err = interop.Await(done, eval(t, "new Promise(() => {})"))
	assert.ErrorIs(t, err, context.Canceled)
}

func TestArg(t *testing.T) {
	args := []safejs.Value{safejs.Null()}
	assert.True(t, interop.Arg(args, 0).IsNull())
	assert.True(t, interop.Arg(args, 1).IsUndefined())
}
