package controller

import (
	"errors"
	"runtime"
	"sync/atomic"

	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// ErrReentrant is wrapped by the error of a controller method called from
// caller code that the same controller is running while it holds its lock:
// an Entity's Merge, UseIncoming or ShouldReorder, the function an
// endpoint's MergeResult returns, the functions its Update returns, or a
// Hold's roots. Waiting for the lock there would deadlock, so the call
// fails instead.
var ErrReentrant = errors.New("hooks must not call the controller that runs them: it holds its lock while they run")

// hookGuard tells a call from caller code that the controller runs under
// its lock (an Entity's merge hooks, Update functions, a Hold's roots)
// from a call of another
// goroutine that merely waits for the lock. The first would deadlock, so
// it fails instead. Managers, listeners and sync sinks are called outside
// the lock and need no guard; the hooks above still run under it, as they
// must see and change the store in one critical section, and Go gives a
// goroutine no other identity than the one its stack trace prints.
type hookGuard struct {
	// running is the id of the goroutine that holds the controller's lock
	// and is running caller code; 0 when none is.
	running atomic.Uint64
}

// reentered returns an ErrReentrant error naming method when the calling
// goroutine is the one running caller code under c.mu, and nil otherwise.
//
// Only that goroutine can find its own id in h.running: the field is set
// and cleared by the goroutine that holds c.mu, around the caller code. A
// call from any other goroutine, then or later, reads 0 or another id and
// goes on to wait for the lock as before. goid is only computed while some
// goroutine runs caller code, so the usual cost is one atomic load.
func (h *hookGuard) reentered(method string) error {
	if g := h.running.Load(); g != 0 && g == goid() {
		return fmtlite.Errorf("controller.%s called from a hook: %w", method, ErrReentrant)
	}
	return nil
}

// mustNotReenter is reentered for the methods that return no error: the
// misuse is a programming error, so it panics. Inside a request the panic
// fails the request with the error wrapped (see run).
//
//go:noinline
func (h *hookGuard) mustNotReenter(method string) {
	if err := h.reentered(method); err != nil {
		panic(err)
	}
}

// markCallbacks records, with c.mu held, that this goroutine is about to
// run caller code; unmarkCallbacks, deferred, clears it even when the code
// panics, so that a recovered caller is not taken for a re-entrant one.
func (h *hookGuard) markCallbacks() { h.running.Store(goid()) }

func (h *hookGuard) unmarkCallbacks() { h.running.Store(0) }

// mayCallBack reports whether storing w, or with w nil replaying the
// optimistic queue, can run caller code: entity merge hooks, a MergeResult
// merge, Update functions, or any of these in a pending write that the
// rebase replays. It may say yes when nothing runs; it never says no when
// something does. It spares the usual plain writes the cost of goid, whose
// stack trace walks the whole stack (microseconds).
func mayCallBack(st *store.Store, w *store.Write) bool {
	return (w != nil && callsBack(w)) || st.PendingAny(callsBack)
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

// apply stores a server response in st (the controller's lock held),
// marked as running caller code when it may.
func (h *hookGuard) apply(st *store.Store, w *store.Write) {
	if mayCallBack(st, w) {
		h.markCallbacks()
		defer h.unmarkCallbacks()
	}
	_ = st.Adopt(w.Key, w.Schema) // a result w replaces anyway
	st.Apply(w)
}

// enqueue queues an optimistic write in st (the lock held); the rebase
// replays the queue, hooks included.
func (h *hookGuard) enqueue(st *store.Store, w *store.Write) *store.Pending {
	if mayCallBack(st, w) {
		h.markCallbacks()
		defer h.unmarkCallbacks()
	}
	return st.AddPending(*w)
}

// removePending drops an optimistic write from st (the lock held); the
// rebase replays the others, hooks included.
func (h *hookGuard) removePending(st *store.Store, p *store.Pending) {
	if mayCallBack(st, nil) {
		h.markCallbacks()
		defer h.unmarkCallbacks()
	}
	st.RemovePending(p)
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
