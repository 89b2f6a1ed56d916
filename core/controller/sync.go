package controller

import (
	"errors"
	"slices"
	"sync"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Sync between controllers (tabs, workers, instances, processes).
//
// A controller with a sync sink (OnSync) describes every change that came
// from a server or from an imperative call as a message, a JSON value; a
// controller elsewhere applies it with ApplySync, with no request. This is
// the one place that writes and reads the format. Version 1:
//
//	{"datafetch": "sync", "version": 1, "op": "store", "state": <snapshot>}
//	    A server response was stored (Fetch and the other reads, a
//	    mutation's response) or SetResponse stored data. state is a
//	    snapshot (see Snapshot) holding only what that write stored: the
//	    result under its key, the results its Update functions rewrote, and
//	    every entity record it wrote, each as stored after merging, with
//	    its metas (fetchedAt, expiresAt, date). The receiver takes each
//	    record and result unless it holds one fetched later (on a tie, the
//	    same fetch, it takes the message's data: see store.TakeSnapshot).
//	    A message never undoes what the receiver knows happened to a result
//	    after the fetch it carries: a result invalidated at "at" (below) or
//	    later stays invalidated when the message's was fetched at or before
//	    then, and one expired stays expired when the message carries the
//	    same fetch. So a message posted again, late or by a buggy tab,
//	    revives nothing.
//	{"datafetch": "sync", "version": 1, "op": "invalidate", "keys": [key, …], "at": <ms>}
//	    Invalidate (one key, marked even when it holds no result) or
//	    InvalidateAll (the keys its test chose). at is the sender's last
//	    stamp when it invalidated them, the newest fetchedAt it knew: data
//	    fetched at or before it does not make those results valid again,
//	    and the receiver stamps its own later requests after it, so that
//	    what it fetches next does. Without at (an older sender), the
//	    receiver's own fetchedAt of each result stands in.
//	{"datafetch": "sync", "version": 1, "op": "expire", "keys": [key, …]}
//	    ExpireAll: the keys its test chose. The receiver marks stale those
//	    it holds.
//	{"datafetch": "sync", "version": 1, "op": "reset"}
//	    ResetEntireStore.
//
// Optimistic updates are not sent: the server's answer is, when it comes.
// Kept errors (a failed fetch, SetError) and Hydrate are not sent either.
// Nothing ApplySync changes is sent again, so two controllers that send to
// each other do not echo. A message of another version is refused with an
// error wrapping ErrSyncVersion, a malformed one with an error that says
// what is wrong; the receiver is unchanged by either.

// SyncVersion is the version of the sync message format this build sends
// and the only one ApplySync applies.
const SyncVersion = 1

// The ops of a sync message.
const (
	SyncStore      = "store"
	SyncInvalidate = "invalidate"
	SyncExpire     = "expire"
	SyncReset      = "reset"
)

// syncTag is the value of a sync message's "datafetch" member, which tells
// it from other messages on a shared channel.
const syncTag = "sync"

// ErrSyncVersion is wrapped by ApplySync's error for a message of a
// version this build does not apply (a newer build's, most likely): such
// messages are to be ignored, not reported as faults.
var ErrSyncVersion = errors.New("sync message of an unknown version")

// syncManager is the controller's own manager that makes the sync
// messages, from the events, for the sinks OnSync adds. It wants the
// events only while it has a sink: without one, changes cost nothing
// more.
type syncManager struct {
	mu    sync.Mutex
	sinks []*syncSink
}

type syncSink struct {
	send    func(msg value.Value)
	stopped bool
}

// wants is what a message is made of (read with c.mu held, as the sinks
// change under it too).
func (m *syncManager) wants() eventMask {
	m.mu.Lock()
	n := len(m.sinks)
	m.mu.Unlock()
	if n == 0 {
		return 0
	}
	return maskOf(FetchResolve, Write, Invalidate, Expire, Reset) | wantWritten
}

func (m *syncManager) Start(*Controller) {}
func (m *syncManager) Stop()             {}

// Event hands the message of ev, if it makes one, to the sinks. A change a
// sync message made (ev.Sync) is not sent again, so that two controllers
// that send to each other do not echo.
func (m *syncManager) Event(ev Event) {
	if ev.Sync {
		return
	}
	var msg value.Value
	switch ev.Kind {
	case FetchResolve, Write:
		if ev.Written.IsUndefined() {
			return // made before the first sink was added
		}
		msg = syncMessage(SyncStore, value.M("state", ev.Written))
	case Invalidate, Expire:
		list := make([]value.Value, len(ev.Keys))
		for i, k := range ev.Keys {
			list[i] = value.Str(k)
		}
		members := []value.Member{value.M("keys", value.Arr(list...))}
		op := SyncExpire
		if ev.Kind == Invalidate {
			op = SyncInvalidate
			// The at that invalidate was given.
			members = append(members, value.M("at", value.Int(ev.At)))
		}
		msg = syncMessage(op, members...)
	case Reset:
		msg = syncMessage(SyncReset)
	default:
		return
	}
	m.mu.Lock()
	sinks := m.sinks
	m.mu.Unlock()
	for _, s := range sinks {
		m.mu.Lock()
		stopped := s.stopped
		m.mu.Unlock()
		if !stopped {
			s.send(msg)
		}
	}
}

// OnSync adds send as a sink of sync messages and returns the function
// that removes it. send is called with each message, in the order of the
// changes, outside the controller's lock, on the goroutine that made the
// change (in order with the managers' events and the subscribers'
// notifications); it may call the controller. Messages are made only
// while there is a sink: without one, changes cost nothing more.
func (c *Controller) OnSync(send func(msg value.Value)) (stop func()) {
	s := &syncSink{send: send}
	m := c.syncer
	c.lock()
	m.mu.Lock()
	m.sinks = append(m.sinks, s)
	m.mu.Unlock()
	c.refreshWants()
	c.unlock()
	return func() {
		c.lock()
		defer c.unlock()
		m.mu.Lock()
		if s.stopped {
			m.mu.Unlock()
			return
		}
		s.stopped = true
		sinks := m.sinks[:0:0]
		for _, x := range m.sinks {
			if x != s {
				sinks = append(sinks, x)
			}
		}
		m.sinks = sinks
		m.mu.Unlock()
		c.refreshWants()
	}
}

func syncMessage(op string, members ...value.Member) value.Value {
	return value.Obj(append([]value.Member{
		value.M("datafetch", value.Str(syncTag)),
		value.M("version", value.Int(SyncVersion)),
		value.M("op", value.Str(op)),
	}, members...)...)
}

// writtenBy is what w, a write just applied to the base of st, stored,
// read back from st as a snapshot: the result under its key, the results
// its Update functions rewrote, and every entity record it wrote, each as
// stored after merging (Event.Written).
func writtenBy(st *store.Store, w *store.Write) value.Value {
	keys := make([]string, 0, 1+len(w.Updates))
	if w.Key != "" {
		keys = append(keys, w.Key)
	}
	updated := make([]string, 0, len(w.Updates))
	for k := range w.Updates {
		updated = append(updated, k)
	}
	slices.Sort(updated)
	keys = append(keys, updated...)
	refs := make([]store.EntityRef, len(w.Entities))
	for i := range w.Entities {
		refs[i] = store.EntityRef{Key: w.Entities[i].Entity.Key, PK: w.Entities[i].PK}
	}
	return st.SnapshotOf(keys, refs)
}

// ApplySync applies a sync message from another controller (see OnSync
// and the format above): its data with its metadata, as that controller
// stored it, with no request. Nothing it changes is sent to this
// controller's sinks. A message of another version is an error wrapping
// ErrSyncVersion; a malformed one is an error naming what is wrong; either
// way the store is unchanged. Subscribers are told of the change as for
// any other, and act on it as they would (a held result that a message
// invalidates is fetched again).
func (c *Controller) ApplySync(msg value.Value) error {
	op, err := parseSyncHeader(msg)
	if err != nil {
		return fmtlite.Errorf("sync message: %w", err)
	}
	switch op {
	case SyncStore:
		state := msg.Get("state")
		ents, results, latest, err := parseSnapshot(state)
		if err != nil {
			return fmtlite.Errorf("sync message: state: %w", err)
		}
		defer c.dispatch()
		c.lock()
		defer c.unlock()
		if err := c.checkSnapshot(ents, results); err != nil {
			return fmtlite.Errorf("sync message: state: %w", err)
		}
		if latest > c.lastStamp {
			c.lastStamp = latest
		}
		ch := &store.Change{Snapshot: store.Snapshot{Entities: ents, Results: results, Ties: true}}
		if err := c.make(ch, "", "sync message"); err != nil {
			return err
		}
		if ch.Took {
			c.emit(&Event{Kind: Write, Sync: true})
			c.changed()
		}
		return nil
	case SyncInvalidate, SyncExpire:
		keys, err := syncKeysOf(msg)
		if err != nil {
			return fmtlite.Errorf("sync message: %w", err)
		}
		var at int64
		if op == SyncInvalidate {
			if at, err = syncAtOf(msg); err != nil {
				return fmtlite.Errorf("sync message: %w", err)
			}
		}
		defer c.dispatch()
		c.lock()
		defer c.unlock()
		if at > c.lastStamp {
			// What this controller fetches from now on is newer than the
			// invalidation, here and at the sender.
			c.lastStamp = at
		}
		for _, k := range keys {
			if op == SyncInvalidate {
				c.st.UpdateMeta(k, func(m *store.ResultMeta) { invalidate(m, at) })
			} else if _, held := c.st.Meta(k); held {
				c.st.UpdateMeta(k, expireMeta)
			}
		}
		kind := Expire
		if op == SyncInvalidate {
			kind = Invalidate
		}
		c.emit(&Event{Kind: kind, Keys: keys, Sync: true})
		c.changed()
		return nil
	case SyncReset:
		defer c.dispatch()
		c.lock()
		defer c.unlock()
		c.reset(true)
		return nil
	}
	return fmtlite.Errorf("sync message: op %q is not known", op)
}

// parseSyncHeader checks a message's tag and version and returns its op.
func parseSyncHeader(msg value.Value) (string, error) {
	if msg.Kind() != value.Object {
		return "", fmtlite.Errorf("%s, not an object", schema.KindName(msg))
	}
	if tag := msg.Get("datafetch"); tag.Kind() != value.String || tag.Str() != syncTag {
		return "", fmtlite.Errorf("datafetch: %s, not %q", describe(tag), syncTag)
	}
	ver := msg.Get("version")
	if f, ok := ver.Float(); !ok || f != SyncVersion {
		return "", fmtlite.Errorf("version %s: %w (this build applies %d)", describe(ver), ErrSyncVersion, SyncVersion)
	}
	op := msg.Get("op")
	if op.Kind() != value.String {
		return "", fmtlite.Errorf("op: %s, not a string", schema.KindName(op))
	}
	return op.Str(), nil
}

// describe shows a member's value in a message: its JSON, or "missing".
func describe(v value.Value) string {
	if v.IsUndefined() {
		return "missing"
	}
	return v.JSON()
}

// syncAtOf returns an invalidate message's at, 0 when absent.
func syncAtOf(msg value.Value) (int64, error) {
	at := msg.Get("at")
	switch at.Kind() {
	case value.Undefined:
		return 0, nil
	case value.Number:
		t, err := schema.MillisOf(at)
		if err != nil {
			return 0, fmtlite.Errorf("at: %w", err)
		}
		return t, nil
	}
	return 0, fmtlite.Errorf("at: %s, not a number", schema.KindName(at))
}

// syncKeysOf returns an invalidate or expire message's keys.
func syncKeysOf(msg value.Value) ([]string, error) {
	list := msg.Get("keys")
	if list.Kind() != value.Array {
		return nil, fmtlite.Errorf("keys: %s, not an array", schema.KindName(list))
	}
	keys := make([]string, 0, list.Len())
	for i, k := range list.Elems() {
		if k.Kind() != value.String {
			return nil, fmtlite.Errorf("keys[%d]: %s, not a string", i, schema.KindName(k))
		}
		keys = append(keys, k.Str())
	}
	return keys, nil
}
