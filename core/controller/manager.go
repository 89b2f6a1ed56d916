package controller

import (
	"sync/atomic"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// Managers (data-client's Manager idea, in Go's style). The controller
// keeps the cache consistent; a policy that only reacts to what the
// controller does (polling a subscribed result, sweeping on a timer,
// sending changes to other tabs, persisting the store, writing server
// pushes into the cache) is a Manager beside it rather than one more job
// of the Controller type. A manager is told what happens as Events and
// acts through the controller's exported methods, like any other caller.
//
// Where a new manager goes: a policy that needs no platform I/O lives in
// this package next to polling.go and gc.go, and takes its timers
// (or other I/O) as options, as the controller does; one that needs the
// platform (BroadcastChannel, storage, page events) lives with that
// platform (web/browser/*, jsbridge) and is added through
// Options.Managers. Neither needs to change the Controller type.

// EventKind says what happened.
type EventKind uint8

// The kinds of Event, each with the fields it sets besides Kind.
const (
	// FetchStart: a request of Endpoint for Key (with Params) starts,
	// retries included (FetchResolve or FetchReject ends it). Shared
	// reads start once however many callers wait for them.
	FetchStart EventKind = iota + 1
	// FetchResolve: that request's response was stored under Key.
	FetchResolve
	// FetchReject: that request failed with Err (an abort, a reset of
	// the store while it was in flight, a network or schema error).
	FetchReject
	// OptimisticEnqueue: a mutation's optimistic response for Key is
	// visible, before its request has answered.
	OptimisticEnqueue
	// OptimisticSettle: the request answered; the optimistic response
	// was replaced by the stored answer. It comes right after the
	// request's FetchResolve.
	OptimisticSettle
	// OptimisticRollback: the request failed with Err; the optimistic
	// response was dropped. It comes right after the request's
	// FetchReject.
	OptimisticRollback
	// Write: data was stored with no request: SetResponse (Key, Endpoint,
	// Params), Set (no Key), or a sync message (Sync).
	Write
	// Invalidate: the results under Keys were invalidated (Invalidate,
	// InvalidateAll, a sync message).
	Invalidate
	// Expire: the results under Keys were marked stale (ExpireAll, a
	// sync message).
	Expire
	// Subscribe: Sub started (Subscribe, SubscribeWith); Key, Endpoint
	// and Params are its.
	Subscribe
	// Unsubscribe: Sub ended.
	Unsubscribe
	// Reset: the store was emptied (ResetEntireStore, a sync message).
	Reset
	// Hydrate: a snapshot changed the store (Hydrate, an initial state
	// given after New); Params is that snapshot, as given.
	Hydrate
	// Sweep: a garbage collection removed results or entities (GC);
	// Keys are the removed results' keys.
	Sweep
)

// Event is one thing the controller did, as a Manager is told it. Fields a
// kind does not use are zero.
type Event struct {
	Kind     EventKind
	Key      string // the result key
	Keys     []string
	Endpoint endpoint.Endpoint
	Params   value.Value
	Err      error
	Sub      *Subscription
	// At is an Invalidate's time: the controller's last stamp then, the
	// newest fetchedAt it knew (see the sync message format).
	At int64
	// Written is what a FetchResolve or a Write stored, as a snapshot
	// (see Snapshot) of only that: the result under its key, the results
	// its Update functions rewrote, and every entity record it wrote, as
	// stored after merging. It is made, under the controller's lock, only
	// while some manager implements WantsWritten and returns true (every
	// manager then sees it; a response's text is then always parsed, as
	// storing it again unparsed reads nothing back: see finishAgain), and
	// never for a change a sync message made.
	Written value.Value
	// Sync is set when a sync message (ApplySync) made the change: a
	// manager that sends changes elsewhere does not send it back.
	Sync bool
}

// Manager is told of the controller's events and acts on them through the
// controller's methods. Managers are listed in Options.Managers; the
// controller starts them in New, in order, and stops them in Close;
// AddManager adds one to a running controller.
//
// The rule: Event is called outside the controller's lock, one event at
// a time, in the order the changes happened, on a goroutine that changed
// the controller (before that change's method returns, unless another
// goroutine is delivering already, which then delivers it). It may call
// any method of the controller: what that call changes is told after
// Event returns, in order. It should return soon (start long work on a
// goroutine of its own), as every listener waits for it. Start is called
// once, from New, before any event; Stop once, from Close. No event is
// told once Close has begun (one being told then may still finish). No
// caller code runs under the lock (see Controller for the hooks that run
// in the middle of a write).
type Manager interface {
	Start(c *Controller)
	Event(ev Event)
	Stop()
}

// WrittenWanter is implemented by a Manager that needs Event.Written (a
// manager that sends or keeps what was stored). Reading it back costs, so
// it is made only for those.
type WrittenWanter interface{ WantsWritten() bool }

// Endpoint, Params and Key are those the subscription was made with.
func (s *Subscription) Endpoint() endpoint.Endpoint { return s.ep }
func (s *Subscription) Params() value.Value         { return s.params }
func (s *Subscription) Key() string                 { return s.key }

// Options are the subscription's options.
func (s *Subscription) Options() SubscribeOptions { return s.opts }

// eventMask is a set of EventKinds, one bit each.
type eventMask uint32

// wantWritten is the bit of a manager that wants Event.Written; allEvents
// is every kind, without it.
const (
	wantWritten = eventMask(1) << 31
	allEvents   = ^eventMask(0) &^ wantWritten
)

// maskOf returns the set of kinds.
func maskOf(kinds ...EventKind) eventMask {
	var m eventMask
	for _, k := range kinds {
		m |= 1 << k
	}
	return m
}

// selective is implemented by this package's managers, which need a few
// kinds of event: the others are not queued for them, so that a
// controller with only those managers spends nothing on a fetch's events.
// Other managers are told every event.
type selective interface{ wants() eventMask }

// managed is a started manager and the kinds it is told.
type managed struct {
	m Manager
	// wants is the eventMask of what m is told: written under c.mu,
	// read by tell outside it.
	wants atomic.Uint32
	// afterClose is set for the sync manager: OnSync's sinks are told of
	// changes after Close too, as they were before sync was a manager.
	afterClose bool
	// stopped is set by the first call of stop.
	stopped atomic.Bool
	_       [0]func() // not comparable: no equality function in the module
}

// startManagers starts the built-in managers and then opts.Managers, in
// order. Called by New.
func (c *Controller) startManagers() {
	c.syncer = &syncManager{}
	list := append([]Manager{&pollingManager{}, c.syncer, c.gcManager()}, c.opts.Managers...)
	ms := make([]*managed, 0, len(list))
	for _, m := range list {
		if m != nil {
			ms = append(ms, &managed{m: m, afterClose: m == Manager(c.syncer)})
		}
	}
	c.managers.Store(&ms)
	c.refreshWants()
	for _, m := range ms {
		m.m.Start(c)
	}
}

// AddManager starts m on a running controller (a policy a front end
// turns on later, as persistence is) and returns the function that
// removes it: m is told the events that follow, after the managers
// started before it, until remove, which calls m's Stop (once: Close
// stops it too, when it comes first). m.Start is called before AddManager
// returns, outside the controller's lock, and may call the controller.
// On a closed controller, m is started and stopped at once.
func (c *Controller) AddManager(m Manager) (remove func()) {
	mm := &managed{m: m}
	m.Start(c)
	c.lock()
	if c.closed {
		c.unlock()
		mm.stop()
		return func() {}
	}
	old := *c.managers.Load()
	ms := append(old[:len(old):len(old)], mm)
	c.managers.Store(&ms)
	c.refreshWants()
	c.unlock()
	return func() {
		c.lock()
		cur := *c.managers.Load()
		ms := make([]*managed, 0, len(cur))
		for _, x := range cur {
			if x != mm {
				ms = append(ms, x)
			}
		}
		c.managers.Store(&ms)
		c.refreshWants()
		c.unlock()
		mm.stop()
	}
}

// refreshWants works out again which events each manager wants, and
// their union (c.mu held, or from New): this package's managers want
// events only while they have something to do with them.
func (c *Controller) refreshWants() {
	c.wants = 0
	for _, m := range *c.managers.Load() {
		w := allEvents
		switch s := m.m.(type) {
		case selective:
			w = s.wants()
		case WrittenWanter:
			if s.WantsWritten() {
				w |= wantWritten
			}
		}
		if c.closed && !m.afterClose {
			w = 0
		}
		m.wants.Store(uint32(w))
		c.wants |= w
	}
}

// stopManagers stops the managers, in the order they started. Called by
// Close, outside c.mu.
func (c *Controller) stopManagers() {
	for _, m := range *c.managers.Load() {
		m.stop()
	}
}

// stop calls the manager's Stop, the first time only (Close and the
// remove function of AddManager may both ask).
func (m *managed) stop() {
	if !m.stopped.Swap(true) {
		m.m.Stop()
	}
}

// emit queues ev for the managers that want it (c.mu held); dispatch
// delivers it outside the lock, in order with the subscribers'
// notifications.
func (c *Controller) emit(ev *Event) {
	if c.wants&(1<<ev.Kind) != 0 {
		c.queue = append(c.queue, notification{event: ev})
	}
}

// emitReq is emit of an event of kind about r (c.mu held): err is a
// failure's error; w, when set, a write just applied, read back into
// Event.Written when a manager wants it. One function for the request's
// events keeps the code small (it is all in the WebAssembly module).
func (c *Controller) emitReq(kind EventKind, r *request, err error, w *store.Write) {
	if c.wants&(1<<kind) == 0 {
		return
	}
	ev := &Event{Kind: kind, Key: r.key, Endpoint: r.ep, Params: r.params, Err: err}
	if w != nil && c.wants&wantWritten != 0 {
		ev.Written = writtenBy(c.st, w)
	}
	c.emit(ev)
}

// tell delivers ev to every manager that wants it (outside c.mu, from
// dispatch).
func (c *Controller) tell(ev *Event) {
	stopped := c.managersStopped.Load()
	for _, m := range *c.managers.Load() {
		if eventMask(m.wants.Load())&(1<<ev.Kind) != 0 && (!stopped || m.afterClose) {
			m.m.Event(*ev)
		}
	}
}
