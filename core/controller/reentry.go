package controller

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/datafetch/datafetch/core/store"
)

// ErrReentrant is wrapped by the error of a controller method called from
// caller code that the same controller is running while it holds its lock:
// an Entity's Merge, UseIncoming or ShouldReorder, the function an
// endpoint's MergeResult returns, the functions its Update returns, or the
// test of InvalidateAll or ExpireAll. Waiting for the lock there would
// deadlock, so the call fails instead.
var ErrReentrant = errors.New("hooks must not call the controller that runs them: it holds its lock while they run")

// reentered returns an ErrReentrant error naming method when the calling
// goroutine is the one running caller code under c.mu, and nil otherwise.
//
// Only that goroutine can find its own id in c.callbacks: the field is set
// and cleared by the goroutine that holds c.mu, around the caller code. A
// call from any other goroutine, then or later, reads 0 or another id and
// goes on to wait for the lock as before. goid is only computed while some
// goroutine runs caller code, so the usual cost is one atomic load.
func (c *Controller) reentered(method string) error {
	if g := c.callbacks.Load(); g != 0 && g == goid() {
		return fmt.Errorf("controller.%s called from a hook: %w", method, ErrReentrant)
	}
	return nil
}

// mustNotReenter is reentered for the methods that return no error: the
// misuse is a programming error, so it panics. Inside a request the panic
// fails the request with the error wrapped (see run).
//
//go:noinline
func (c *Controller) mustNotReenter(method string) {
	if err := c.reentered(method); err != nil {
		panic(err)
	}
}

// markCallbacks records, with c.mu held, that this goroutine is about to
// run caller code; unmarkCallbacks, deferred, clears it even when the code
// panics, so that a recovered caller is not taken for a re-entrant one.
func (c *Controller) markCallbacks() { c.callbacks.Store(goid()) }

func (c *Controller) unmarkCallbacks() { c.callbacks.Store(0) }

// mayCallBack reports whether storing w, or with w nil replaying the
// optimistic queue, can run caller code: entity merge hooks, a MergeResult
// merge, Update functions, or any of these in a pending write that the
// rebase replays. It may say yes when nothing runs; it never says no when
// something does. It spares the usual plain writes the cost of goid, whose
// stack trace walks the whole stack (microseconds).
func (c *Controller) mayCallBack(w *store.Write) bool {
	return (w != nil && callsBack(w)) || c.st.PendingAny(callsBack)
}

// callsBack reports whether storing or replaying w can run caller code.
func callsBack(w *store.Write) bool {
	if w.MergeResult != nil || len(w.Updates) > 0 {
		return true
	}
	for i := range w.Entities {
		if e := w.Entities[i].Entity; e.Merge != nil || e.UseIncoming != nil || e.ShouldReorder != nil {
			return true
		}
	}
	return false
}

// apply stores a server response (c.mu held), marked as running caller
// code when it may.
func (c *Controller) apply(w *store.Write) {
	if c.mayCallBack(w) {
		c.markCallbacks()
		defer c.unmarkCallbacks()
	}
	_ = c.st.Adopt(w.Key, w.Schema) // a result w replaces anyway
	c.st.Apply(w)
}

// enqueue queues an optimistic write (c.mu held); the rebase replays the
// queue, hooks included.
func (c *Controller) enqueue(w *store.Write) *store.Pending {
	if c.mayCallBack(w) {
		c.markCallbacks()
		defer c.unmarkCallbacks()
	}
	return c.st.AddPending(*w)
}

// removePending drops an optimistic write (c.mu held); the rebase replays
// the others, hooks included.
func (c *Controller) removePending(p *store.Pending) {
	if c.mayCallBack(nil) {
		c.markCallbacks()
		defer c.unmarkCallbacks()
	}
	c.st.RemovePending(p)
}

// keysPassing returns the keys of the stored results that pass test, a
// caller's function (c.mu held).
func (c *Controller) keysPassing(test func(key string) bool) []string {
	c.markCallbacks()
	defer c.unmarkCallbacks()
	keys := c.st.Keys()
	out := keys[:0]
	for _, k := range keys {
		if test(k) {
			out = append(out, k)
		}
	}
	return out
}

// goid returns the id of the calling goroutine, read from the first line of
// its stack trace ("goroutine 18 [running]:"), as golang.org/x/net/http2
// does for its lock checks; Go has no API for it by design. It returns 0,
// which matches no goroutine, should the format ever change, so that
// re-entry is then not detected rather than wrongly reported.
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	if len(b) <= len(prefix) || string(b[:len(prefix)]) != prefix {
		return 0
	}
	var id uint64
	for _, ch := range b[len(prefix):] {
		if ch < '0' || ch > '9' {
			if ch != ' ' {
				return 0
			}
			return id
		}
		id = id*10 + uint64(ch-'0')
	}
	return 0
}
