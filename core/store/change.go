package store

import (
	"errors"
	"sync"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Hooks that call their caller back.
//
// The caller code a change runs (an entity's Merge, UseIncoming,
// ShouldReorder, MergeWithStore and MergeMetaWithStore, a MergeResult
// merge, Update functions, a Collection's Filter and NonFilter and an
// adder's Merge: of the write itself and of every pending write the
// rebase replays) may want to read or change what holds the store.
// Its owner (the controller) serializes access with a lock, which such
// code must not run under. Make with the owner's lock computes a change in
// two steps: it prepares the change, reading the store and writing
// nothing, and releases the lock around each hook; when the store has
// changed once a hook returns (the hook changed it, or another goroutine
// did meanwhile), what was prepared is dropped and Make returns
// ErrChanged, for the owner to call it again on the new state. Otherwise
// the prepared change is committed at once, the lock held all along since
// the last hook: a change is all or nothing, and a hook that panics leaves
// the store as it was.

// ErrChanged is returned by Make when the store changed while a hook ran
// with the owner's lock released: nothing was changed, and the change may
// be made again.
var ErrChanged = errors.New("store: changed while a hook ran")

// Change is one change to the store, made in one step by Make. Any of its
// parts may be set; they are made in this order, then the queue is
// replayed once.
type Change struct {
	// Write is a server response to store in the base (as Apply).
	Write *Write
	// Snapshot is a snapshot to take (as Hydrate, or TakeSnapshot with
	// Ties); none when it holds nothing.
	Snapshot Snapshot
	// Remove is a queued optimistic write to drop (as RemovePending).
	Remove *Pending
	// Add is an optimistic write to queue (as AddPending).
	Add *Write

	// What Make did: Pending is the write it queued (Add); Took whether
	// it took anything of Snapshot.
	Pending *Pending
	Took    bool
}

// Snapshot is the parsed snapshot a Change takes.
type Snapshot struct {
	Entities []SnapshotEntity
	Results  []SnapshotResult
	// Ties makes the snapshot win ties (TakeSnapshot).
	Ties bool
}

// CallsBack reports whether storing or replaying w can run caller code:
// an entity's merge hooks, MergeResult, Update functions, a Collection's
// Filter or NonFilter, an adder's Merge.
func CallsBack(w *Write) bool {
	if w.MergeResult != nil || len(w.Updates) > 0 {
		return true
	}
	for i := range w.Entities {
		if entityHooks(w.Entities[i].Entity) {
			return true
		}
	}
	for i := range w.Collections {
		if w.Collections[i].CallsBack {
			return true
		}
	}
	return false
}

// entityHooks reports whether resolving a record of e runs caller code.
func entityHooks(e *schema.Entity) bool { return e.Hooked() }

// Make makes ch. With lock nil, or when ch runs no caller code (no hook in
// its writes nor in the queue), it is made as Apply, Hydrate,
// RemovePending and AddPending make their parts, hooks running where Make
// is called. Otherwise it is prepared and committed as the notes above
// say, lock (held by the caller) released around each hook, and ErrChanged
// means that nothing was made.
func (s *Store) Make(ch *Change, lock sync.Locker) (err error) {
	if lock == nil || !((ch.Write != nil && CallsBack(ch.Write)) || (ch.Add != nil && CallsBack(ch.Add)) || s.PendingAny(CallsBack)) {
		if ch.Write != nil {
			s.Apply(ch.Write)
		}
		if sn := &ch.Snapshot; len(sn.Entities)+len(sn.Results) > 0 {
			ch.Took = s.hydrate(sn.Entities, sn.Results, sn.Ties)
		}
		if ch.Remove != nil {
			s.RemovePending(ch.Remove)
		}
		if ch.Add != nil {
			ch.Pending = s.AddPending(*ch.Add)
		}
		return nil
	}
	queue := make([]*Pending, 0, len(s.pending)+1)
	for _, p := range s.pending {
		if p != ch.Remove {
			queue = append(queue, p)
		}
	}
	// Only what changes something is made, as RemovePending and hydrate
	// make nothing of a write not queued or a snapshot that brings nothing
	// new: below, ch is made only of them.
	idle := ch.Write == nil && ch.Add == nil && (ch.Remove == nil || len(queue) == len(s.pending))
	var add *Pending
	if ch.Add != nil {
		add = &Pending{Write: *ch.Add}
		queue = append(queue, add)
	}
	g := &gating{s: s, lock: lock, at: s.changes}
	defer func() {
		if p := recover(); p != nil {
			if g.out {
				lock.Lock() // a hook panicked: the caller's unlock expects the lock held
			}
			if p != ErrChanged {
				panic(p)
			}
			err = ErrChanged
		}
	}()
	// The base writes, staged over the base, then the queue over them.
	st := newReplay(s, nil)
	if ch.Write != nil {
		s.applyWrite(ch.Write, st, g)
	}
	if sn := &ch.Snapshot; len(sn.Entities)+len(sn.Results) > 0 {
		ch.Took = s.hydrateInto(st, sn.Entities, sn.Results, sn.Ties)
		idle = idle && !ch.Took
	}
	if idle {
		return nil
	}
	rl := s.replay(st, queue, g)
	// Committed: no hook runs from here on.
	s.forget()
	b := &baseLayer{s: s}
	for id, rec := range st.ents {
		if del, ok := st.deleted[id]; ok && !rec.deleted {
			// Deleted, then set again, by the write: stored in that order,
			// as Apply stores it, so the record set is the one kept even
			// where it equals the one deleted.
			b.setEntity(id, del, value.Undef)
		}
		b.setEntity(id, rec, value.Undef)
	}
	for key, res := range st.results {
		b.setResult(key, res)
	}
	if add != nil {
		s.seq++
		add.seq = s.seq
		ch.Pending = add
	}
	s.pending = queue
	s.install(rl)
	return nil
}

// DropPending drops every queued optimistic write and makes the base
// visible again, which runs no caller code: the way out for a controller
// whose hooks keep changing the store (see Make).
func (s *Store) DropPending() {
	s.forget()
	s.pending = nil
	s.rebase()
}

// gating releases the owner's lock around the hooks of a prepare (Make),
// and unwinds it (a panic with ErrChanged) when the store changed
// meanwhile: at is its change count when the prepare started. A nil
// gating releases nothing.
type gating struct {
	s    *Store
	lock sync.Locker
	at   uint64
	out  bool // the lock is released
}

// release is called before a hook runs.
func (g *gating) release() {
	if g != nil {
		g.out = true
		g.lock.Unlock()
	}
}

// reacquire is called after a hook returned.
func (g *gating) reacquire() {
	if g != nil {
		g.lock.Lock()
		g.out = false
		if g.s.changes != g.at {
			panic(ErrChanged) // unwinds the prepare: see Make
		}
	}
}
