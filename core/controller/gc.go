package controller

import (
	"math"
	"time"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Garbage collection (spec 9.1). A sweep removes every stored result that
// no subscription (or other holder, see Hold) holds and that expired long
// enough ago, then every entity that no remaining result reaches and that
// expired long enough ago; what "reaches" means is the schema's business,
// so the sweep itself is the store's (store.Store.Sweep). Off by default:
// without Options.GC nothing sweeps on its own, and GC sweeps only when
// called.

// Defaults of GCOptions.
const (
	DefaultGCInterval         = 5 * time.Minute
	DefaultGCExpiryMultiplier = 2.0
)

// GCOptions turn on periodic garbage collection (Options.GC).
type GCOptions struct {
	// Interval is the time between two sweeps, on the controller's timers
	// (Options.AfterFunc), until Close. 0 is DefaultGCInterval; a negative
	// Interval sweeps only when GC is called, for a caller with timers of
	// its own (the JavaScript bridge).
	Interval time.Duration
	// ExpiryMultiplier stretches expiry for the sweep: a result (an entity)
	// goes once expiresAt + (ExpiryMultiplier − 1) × its expiry length is
	// before the clock. 0 is DefaultGCExpiryMultiplier; it must be ≥ 1.
	ExpiryMultiplier float64
}

// GCStats counts what a sweep removed.
type GCStats = store.SweepStats

// gcState is the controller's part in garbage collection.
type gcState struct {
	multiplier float64
	// holders are the Holds, replaced and never changed in place, so that
	// GC runs their roots without the lock (heldRoots).
	holders []*holder
	// holds counts the Holds made, for GC to tell that one was made while
	// it ran the holders' roots.
	holds uint64
}

// holder is one Hold: a reader's roots.
type holder struct{ roots func(*store.Roots) }

// checkGC checks and completes opts.GC; New panics with its error, as it
// does for a malformed InitialState: the options are the program's own.
func checkGC(g *GCOptions) (GCOptions, error) {
	o := *g
	if o.Interval == 0 {
		o.Interval = DefaultGCInterval
	}
	if o.ExpiryMultiplier == 0 {
		o.ExpiryMultiplier = DefaultGCExpiryMultiplier
	}
	if math.IsNaN(o.ExpiryMultiplier) || o.ExpiryMultiplier < 1 {
		return o, fmtlite.Errorf("controller.New: GC.ExpiryMultiplier must be at least 1, got %v", g.ExpiryMultiplier)
	}
	return o, nil
}

// gcManager reads opts.GC (New panics with its error, as it does for a
// malformed InitialState: the options are the program's own) and returns
// the manager of the periodic sweeps it asks for: nil when it asks for
// none (no GC, or a negative Interval).
func (c *Controller) gcManager() Manager {
	// It returns a Manager, nil when none (not a nil *gcTimer), so that
	// startManagers can skip it.
	c.gc.multiplier = DefaultGCExpiryMultiplier
	if c.opts.GC == nil {
		return nil
	}
	o, err := checkGC(c.opts.GC)
	if err != nil {
		panic(err)
	}
	c.gc.multiplier = o.ExpiryMultiplier
	if o.Interval < 0 {
		return nil
	}
	return &gcTimer{interval: o.Interval}
}

// gcTimer is the manager of the periodic sweeps (Options.GC): it calls GC
// every interval on the controller's timers, from Start until Stop. It
// needs no events: what a sweep keeps is read when it runs.
type gcTimer struct {
	interval time.Duration
	repeater
}

func (g *gcTimer) wants() eventMask { return 0 }

// Start schedules the first sweep.
func (g *gcTimer) Start(c *Controller) {
	g.start(c.opts.AfterFunc, g.interval, func() bool { c.GC(); return true })
}

// Event is never called: gcTimer wants no events.
func (g *gcTimer) Event(Event) {}

// Stop cancels the pending sweep.
func (g *gcTimer) Stop() { g.stop() }

// GC runs one sweep now, whether or not Options.GC is set (with its
// ExpiryMultiplier, or DefaultGCExpiryMultiplier), and reports what it
// removed. Kept, whatever their age: every result a subscription holds
// (a go-app hooks.Query subscribes, so it holds its result) and every
// entity it reaches, including the entities a subscription's inferred read
// stands on; whatever a Hold names; and everything pending optimistic
// writes touch. A removed result reads Missing afterwards and State no
// longer lists it nor its entities; a held result reads the identical
// value as before, and no subscriber is told anything.
func (c *Controller) GC() GCStats {
	defer c.dispatch()
	c.lock()
	defer c.unlock()
	roots, ok := c.heldRoots()
	if !ok {
		return GCStats{}
	}
	for key, list := range c.subs {
		roots.Result(key)
		for _, s := range list {
			for _, ref := range s.inf.refs() {
				roots.Entity(ref.entity, ref.pk)
			}
		}
	}
	stats := c.st.Sweep(store.SweepPolicy{Now: c.now(), ExpiryMultiplier: c.gc.multiplier}, roots)
	if stats.Results > 0 || stats.Entities > 0 {
		c.emit(&Event{Kind: Sweep, Keys: stats.Keys})
		// What a held result reads did not change, so no subscriber is
		// told (nor refetches); caches of reads kept outside learn that
		// removed results are gone (OnChange, once c.mu is released).
		c.dirty = true
	}
	return stats
}

// heldRoots returns what the holders name, c.mu held: their roots run with
// c.mu released, so that they may call the controller. A sweep must keep
// what every Hold made before it names: ok is false when one was made
// meanwhile, and the sweep does not run (sweeping nothing is always safe).
func (c *Controller) heldRoots() (roots *store.Roots, ok bool) {
	roots = &store.Roots{}
	hs, at := c.gc.holders, c.gc.holds
	if len(hs) == 0 {
		return roots, true
	}
	c.release()
	defer c.lock()
	for _, h := range hs {
		h.roots(roots)
	}
	return roots, c.gc.holds == at
}

// Hold makes every sweep keep what roots names, until release is called
// (safe to call more than once). It is the hook for readers that hold
// entities other than through a subscription to a stored result: a live
// Query names the entities it read (store.Roots.Value, .Entity), a live
// All the type it reads (store.Roots.Type). roots runs during GC, without
// the controller's lock: it may call the controller, and sees the store
// as it is before the sweep.
func (c *Controller) Hold(roots func(*store.Roots)) (release func()) {
	h := &holder{roots: roots}
	c.lock()
	c.gc.holders = append(c.gc.holders[:len(c.gc.holders):len(c.gc.holders)], h)
	c.gc.holds++
	c.unlock()
	return func() {
		c.lock()
		hs := make([]*holder, 0, len(c.gc.holders))
		for _, o := range c.gc.holders {
			if o != h {
				hs = append(hs, o)
			}
		}
		c.gc.holders = hs
		c.unlock()
	}
}

// HoldQuery keeps, through every sweep until release, what a read of s
// with args reads: a held Query or All counts as a holder (spec 9.1), as a
// subscription does for a result. s is what Get takes: an All (its whole
// table), an Entity (the one its params name), a Collection (the list
// stored for its params) or a Query over one of them. It may call an
// Entity's PKFunc, so it must not be called with the controller's lock.
func (c *Controller) HoldQuery(s schema.Schema, args ...value.Value) (release func(), err error) {
	read, input, ok, err := schema.QueryInput(s, args)
	if err != nil {
		return nil, err
	}
	return c.Hold(func(r *store.Roots) {
		if a, isAll := read.(*schema.All); isAll {
			for _, e := range a.Entities() {
				r.Type(e)
			}
			return
		}
		if ok {
			r.Value(read, input)
		}
	}), nil
}
