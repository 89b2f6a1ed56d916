//go:build js && wasm

package jsbridge

import (
	"sync"
	"time"

	"github.com/datafetch/datafetch/core/persist"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// Persistence (docs/js-api.md, "df.persist"): the policy is core/persist's
// Manager, as for Go front ends; df.persist (internal/persist.mjs) gives
// it the I/O, an object of three functions: save(text), which stores the
// envelope's text and answers with persistSaved; schedule(ms), which calls
// persistFire after ms and returns its cancel function; report(error),
// which reports a failed save nothing waited for.

// jsPersist is one df.persist: the Manager, and the I/O it calls.
type jsPersist struct {
	m  *persist.Manager
	io safejs.Value
	c  *ctrl

	mu    sync.Mutex
	fire  func()      // the armed timer's function, nil when none
	saved func(error) // the save in flight's done, nil when none
	done  bool        // stopped
}

// Save calls io.save(text); persistSaved ends it.
func (p *jsPersist) Save(text string, done func(error)) {
	p.mu.Lock()
	p.saved = done
	p.mu.Unlock()
	if _, err := callMethod(p.io, "save", text); err != nil {
		p.end(err)
	}
}

// end ends the save in flight with err.
func (p *jsPersist) end(err error) {
	p.mu.Lock()
	done := p.saved
	p.saved = nil
	p.mu.Unlock()
	if done != nil {
		done(err)
	}
}

// afterFunc is the Manager's timers: io.schedule; persistFire fires it.
func (p *jsPersist) afterFunc(d time.Duration, f func()) func() bool {
	p.mu.Lock()
	p.fire = f
	p.mu.Unlock()
	cancel, err := callMethod(p.io, "schedule", float64(d.Milliseconds()))
	if err != nil {
		reportError(err)
	}
	return func() bool {
		p.mu.Lock()
		armed := p.fire != nil
		p.fire = nil
		p.mu.Unlock()
		if cancel.Type() == safejs.TypeFunction {
			if _, err := invoke(cancel); err != nil {
				reportError(err)
			}
		}
		return armed
	}
}

// persistStart(ctrl, stored, io, throttle, maxAge, buster) restores
// stored (the text the storage held, or undefined) into the controller by
// core/persist's rule, then saves after changes through io. throttle and
// maxAge are ms, -1 for Infinity (and at most a century, where
// time.Duration is exact). It returns [handle, dropped]: dropped says the
// stored text is outdated, for df.persist to remove. A
// stored text that is unreadable or refused is an error saying why; the
// controller is then as it was, and nothing runs.
func persistStart(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	throttle, _ := arg(args, 3).Float()
	maxAge, _ := arg(args, 4).Float()
	buster, _ := arg(args, 5).String()
	stored, serr := arg(args, 1).String()
	p := &jsPersist{io: arg(args, 2), c: c}
	o := persist.Options{
		Storage: p, AfterFunc: p.afterFunc, Buster: buster,
		Throttle: time.Duration(throttle * float64(time.Millisecond)),
		MaxAge:   time.Duration(maxAge * float64(time.Millisecond)),
		OnError: func(err error) {
			if _, err := callMethod(p.io, "report", errorValue(err)); err != nil {
				reportError(err)
			}
		},
	}
	// Its events call JavaScript (schedule), as a subscription's do: the
	// exported entries leave changes to the js.FuncOf ones meanwhile.
	c.subs.Add(1)
	m, out, err := persist.Start(c.c, o, stored, serr == nil && arg(args, 1).Type() == safejs.TypeString)
	p.m = m
	if err != nil {
		p.stop()
		return nil, err
	}
	return []any{table.add(p), out == persist.Dropped}, nil
}

// stop stops the Manager, once.
func (p *jsPersist) stop() {
	p.mu.Lock()
	over := p.done
	p.done = true
	p.mu.Unlock()
	if !over {
		p.m.Stop()
		p.c.subs.Add(-1)
	}
}

// persistFire(handle) is the timer io.schedule armed.
func persistFire(args []safejs.Value) (any, error) {
	p, err := lookup[*jsPersist](arg(args, 0), "a persister")
	if err != nil {
		return nil, nil // stopped
	}
	p.mu.Lock()
	f := p.fire
	p.fire = nil
	p.mu.Unlock()
	if f != nil {
		f()
	}
	return nil, nil
}

// persistSaved(handle, error) ends the save in flight: error is undefined
// when it was stored, else the Error that says why not (it comes back to
// flush's caller, or to io.report, as it is).
func persistSaved(args []safejs.Value) (any, error) {
	p, err := lookup[*jsPersist](arg(args, 0), "a persister")
	if err != nil {
		return nil, nil // stopped
	}
	var saveErr error
	if e := arg(args, 1); !e.IsUndefined() {
		saveErr = givenError(e)
	}
	p.end(saveErr)
	return nil, nil
}

// persistFlush(handle, settle) saves now if the cache changed since the
// last save (after the save in flight), then calls settle(error), error
// undefined when it was stored or there was nothing to store (or the
// persister was stopped).
func persistFlush(args []safejs.Value) (any, error) {
	settle := arg(args, 1)
	p, err := lookup[*jsPersist](arg(args, 0), "a persister")
	if err != nil {
		// Stopped: nothing is written after stop.
		_, err := invoke(settle, safejs.Undefined())
		return nil, err
	}
	p.m.Flush(func(err error) {
		v := safejs.Undefined()
		if err != nil {
			v = errorValue(err)
		}
		if _, err := invoke(settle, v); err != nil {
			reportError(err)
		}
	})
	return nil, nil
}

// persistStop(handle) ends the saves; a second call does nothing.
func persistStop(args []safejs.Value) (any, error) {
	h := arg(args, 0)
	p, err := lookup[*jsPersist](h, "a persister")
	if err != nil {
		return nil, nil // stopped already
	}
	p.stop()
	id, _ := h.Int()
	table.release(id)
	return nil, nil
}
