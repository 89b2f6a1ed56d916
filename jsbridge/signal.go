//go:build js && wasm

package jsbridge

import (
	"context"

	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// signalContext returns a context that is cancelled when the AbortSignal
// sig aborts, for an endpoint's signal option. Package rest cancels every
// request of the endpoint with it, which aborts the JavaScript fetch (see
// transport) or a custom fetch's wait, names the error AbortError and rolls
// back the request's optimistic update. A signal that has already aborted
// gives a cancelled context.
func signalContext(sig safejs.Value) (context.Context, error) {
	if sig.Type() != safejs.TypeObject {
		return nil, fmtlite.Errorf("must be an AbortSignal, got %s", sig.Type())
	}
	ctx, cancel := context.WithCancel(context.Background())
	aborted, err := sig.Get("aborted")
	if err != nil {
		cancel()
		return nil, err
	}
	if b, _ := aborted.Bool(); b {
		cancel()
		return ctx, nil
	}
	var onAbort safejs.Func
	onAbort, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		cancel()
		onAbort.Release()
		return nil
	})
	if err != nil {
		cancel()
		return nil, err
	}
	once, err := safejs.ValueOf(map[string]any{"once": true})
	if err == nil {
		_, err = callMethod(sig, "addEventListener", "abort", onAbort, once)
	}
	if err != nil {
		onAbort.Release()
		cancel()
		return nil, fmtlite.Errorf("must be an AbortSignal: %w", err)
	}
	return ctx, nil
}
