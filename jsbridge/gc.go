//go:build js && wasm

package jsbridge

import (
	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// Garbage collection (docs/js-api.md 9.1). The sweep is Go's
// (Controller.GC); the periodic timer is JavaScript's (internal/gc.mjs), so
// that a waiting sweep keeps no Node process alive and close() stops it
// with the controller's other listeners.

// gcOptions reads the gc member of ctrlNew's options: {expiryMultiplier}
// (datafetch.mjs has checked it and applied the default), or absent.
func gcOptions(opts value.Value, o *controller.Options) error {
	g := opts.Get("gc")
	if g.IsNullish() {
		return nil
	}
	m, ok := g.Get("expiryMultiplier").Float()
	if !ok || !(m >= 1) {
		return fmtlite.Errorf("gc.expiryMultiplier must be a number of at least 1, got %s", g.Get("expiryMultiplier"))
	}
	// Interval < 0: no Go timer; JavaScript calls ctrlGC on its own.
	o.GC = &controller.GCOptions{Interval: -1, ExpiryMultiplier: m}
	return nil
}

// ctrlGC(ctrl) runs one sweep now and returns {results, entities}, the
// counts of what it removed.
func ctrlGC(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	st := c.c.GC()
	if err := c.swept(st); err != nil {
		return nil, err
	}
	return map[string]any{"results": st.Results, "entities": st.Entities}, nil
}
