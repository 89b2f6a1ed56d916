//go:build js && wasm

package jsbridge

import (
	"runtime"
	"testing"

	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spyScheduler returns a JavaScript function that records the callbacks
// it is handed (in its calls property) and runs none of them.
func spyScheduler(t *testing.T) safejs.Value {
	t.Helper()
	mk, err := safejs.Global().Get("Function")
	require.NoError(t, err)
	fn, err := mk.New("const calls = []; const f = (cb) => { calls.push(cb); return calls.length; }; f.calls = calls; return f;")
	require.NoError(t, err)
	spy, err := invoke(fn)
	require.NoError(t, err)
	return spy
}

// spyCalls returns the callbacks spy was handed.
func spyCalls(t *testing.T, spy safejs.Value) []safejs.Value {
	t.Helper()
	calls, err := spy.Get("calls")
	require.NoError(t, err)
	n, err := calls.Length()
	require.NoError(t, err)
	out := make([]safejs.Value, n)
	for i := range out {
		out[i], err = calls.Index(i)
		require.NoError(t, err)
	}
	return out
}

// The collection collectSoon asks for (after resetEntireStore, a sweep or a
// large read) is scheduled through datafetch.mjs's idle when it gave one
// (which waits for the page to be idle, test/node/gc.test.mjs), so that
// it does not run inside the caller's next operation, and from a
// setTimeout without; either way it runs, once.
func TestCollectSoonRunsWhenJavaScriptIsIdle(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hasIdle bool
	}{
		{"idle", true},
		{"no idle: setTimeout", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idle, timeout := spyScheduler(t), spyScheduler(t)
			if !tc.hasIdle {
				idle = safejs.Undefined()
			}
			oldIdle, oldTimeout := lib.idle, setTimeout
			lib.idle, setTimeout = idle, timeout
			t.Cleanup(func() {
				lib.idle, setTimeout = oldIdle, oldTimeout
				// Should the test fail before the callback ran, no collection
				// stays pending forever for the tests after it.
				collector.mu.Lock()
				collector.running, collector.again = false, false
				collector.mu.Unlock()
			})

			collectSoon()
			collectSoon() // while one is pending: it runs once more, not twice
			var scheduled []safejs.Value
			if tc.hasIdle {
				scheduled = spyCalls(t, idle)
				assert.Empty(t, spyCalls(t, timeout), "no timer when JavaScript can say it is idle")
			} else {
				scheduled = spyCalls(t, timeout)
			}
			require.Len(t, scheduled, 1, "one callback scheduled")

			_, err := invoke(scheduled[0])
			require.NoError(t, err, "the scheduled callback")
			for running(t) {
				runtime.Gosched() // collect runs on a goroutine of its own
			}
		})
	}
}

// running reports whether a collection of collectSoon's is pending or
// running.
func running(t *testing.T) bool {
	t.Helper()
	collector.mu.Lock()
	defer collector.mu.Unlock()
	return collector.running
}
