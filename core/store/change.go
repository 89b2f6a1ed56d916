package store

import (
	"errors"
	"slices"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Hooks that call their caller back.
//
// The caller code a change runs (an entity's Merge, UseIncoming,
// ShouldReorder, MergeWithStore and MergeMetaWithStore, a MergeResult
// merge, Update functions: of the write itself and of every pending write
// the rebase replays) may want to read or change what holds the store.
// Its owner (the controller) serializes access with a lock, which such
// code must not run under. Make with a Gate computes a change in two
// steps: it prepares the change, reading the store and writing nothing,
// and runs each hook through the gate, which releases the owner's lock
// around it; when the store has changed once a hook returns (the hook
// changed it, or another goroutine did meanwhile), what was prepared is
// dropped and Make returns ErrChanged, for the owner to call it again on
// the new state. Otherwise the prepared change is committed at once, the
// lock held all along since the last hook: a change is all or nothing,
// and a hook that panics leaves the store as it was.

// A Gate runs hook, caller code the store calls while it prepares a change,
// with the lock of the store's owner released, and takes it again before
// it returns (when hook panics too).
type Gate func(hook func())

// ErrChanged is returned by Make when the store changed while a hook ran
// through the gate: nothing was changed, and the change may be made again.
var ErrChanged = errors.New("store: changed while a hook ran")

// Change is one change to the store, made in one step by Make. Any of its
// parts may be set; they are made in this order, then the queue is
// replayed once.
type Change struct {
	// Write is a server response to store in the base (as Apply).
	Write *Write
	// Snapshot is a snapshot to take (as Hydrate, or TakeSnapshot with
	// Ties).
	Snapshot *Snapshot
	// Remove is a queued optimistic write to drop (as RemovePending).
	Remove *Pending
	// Add is an optimistic write to queue (as AddPending).
	Add *Write
}

// Snapshot is the parsed snapshot a Change takes.
type Snapshot struct {
	Entities []SnapshotEntity
	Results  []SnapshotResult
	// Ties makes the snapshot win ties (TakeSnapshot).
	Ties bool
}

// Made is what Make did: the pending write it queued (Change.Add), and
// whether it took anything of a snapshot.
type Made struct {
	Pending *Pending
	Took    bool
}

// MayCallBack reports whether making ch can run caller code: a hook of a
// write it makes or of a pending write the rebase replays. It may say yes
// when nothing runs; it never says no when something does.
func (s *Store) MayCallBack(ch *Change) bool {
	return (ch.Write != nil && CallsBack(ch.Write)) || (ch.Add != nil && CallsBack(ch.Add)) ||
		s.PendingAny(CallsBack)
}

// CallsBack reports whether storing or replaying w can run caller code:
// an entity's merge hooks, MergeResult or Update functions.
func CallsBack(w *Write) bool {
	if w.MergeResult != nil || len(w.Updates) > 0 {
		return true
	}
	var last *schema.Entity
	for i := range w.Entities {
		if e := w.Entities[i].Entity; e != last {
			if entityHooks(e) {
				return true
			}
			last = e
		}
	}
	return false
}

// entityHooks reports whether resolving a record of e runs caller code.
func entityHooks(e *schema.Entity) bool {
	return e.Merge != nil || e.UseIncoming != nil || e.ShouldReorder != nil ||
		e.MergeWithStore != nil || e.MergeMetaWithStore != nil
}

// Make makes ch. With gate nil, or when ch runs no caller code
// (MayCallBack), it is made as Apply, Hydrate, RemovePending and
// AddPending make their parts, hooks running where Make is called.
// Otherwise it is prepared and committed as the notes above say, and an
// error wrapping ErrChanged means that nothing was made.
func (s *Store) Make(ch *Change, gate Gate) (Made, error) {
	if gate == nil || !s.MayCallBack(ch) {
		return s.makePlain(ch), nil
	}
	return s.makeGated(ch, gate)
}

func (s *Store) makePlain(ch *Change) (m Made) {
	if ch.Write != nil {
		s.Apply(ch.Write)
	}
	if sn := ch.Snapshot; sn != nil {
		m.Took = s.hydrate(sn.Entities, sn.Results, sn.Ties)
	}
	if ch.Remove != nil {
		s.RemovePending(ch.Remove)
	}
	if ch.Add != nil {
		m.Pending = s.AddPending(*ch.Add)
	}
	return m
}

// errStale unwinds a gated prepare whose store changed under a hook.
var errStale = new(int)

func (s *Store) makeGated(ch *Change, gate Gate) (m Made, err error) {
	queue := s.pending
	if ch.Remove != nil {
		i := slices.Index(queue, ch.Remove)
		if i < 0 && ch.Write == nil && ch.Snapshot == nil && ch.Add == nil {
			return m, nil
		}
		if i >= 0 {
			queue = slices.Delete(slices.Clone(queue), i, i+1)
		}
	}
	if ch.Add != nil {
		m.Pending = &Pending{Write: *ch.Add}
		queue = append(slices.Clip(queue), m.Pending)
	}
	g := &gating{s: s, gate: gate, at: s.changes}
	st := &stagedLayer{base: baseLayer{s: s}, ents: map[entityID]stagedRecord{}, results: map[string]result{}}
	defer func() {
		if p := recover(); p != nil {
			if p != errStale {
				panic(p)
			}
			m, err = Made{}, ErrChanged
		}
	}()
	if ch.Write != nil {
		s.applyWrite(ch.Write, st, g)
	}
	if sn := ch.Snapshot; sn != nil {
		m.Took = s.hydrateInto(st, sn.Entities, sn.Results, sn.Ties)
		if !m.Took && ch.Write == nil && ch.Remove == nil && ch.Add == nil {
			return m, nil
		}
	}
	var rl *replayLayer
	if len(queue) > 0 || len(s.overlaidEntities) > 0 || len(s.overlaidResults) > 0 {
		rl = s.replay(st, queue, g)
	}
	// Committed: no hook runs from here on.
	s.forget()
	b := &baseLayer{s: s}
	for _, id := range st.order {
		r := st.ents[id]
		b.setEntity(id, r.rec, r.parsed)
	}
	for _, key := range st.resultOrder {
		b.setResult(key, st.results[key])
	}
	if m.Pending != nil {
		s.seq++
		m.Pending.seq = s.seq
	}
	s.pending = queue
	if rl != nil {
		s.install(rl)
	}
	return m, nil
}

// DropPending drops every queued optimistic write and makes the base
// visible again, which runs no caller code: the way out for a controller
// whose hooks keep changing the store (see Make).
func (s *Store) DropPending() {
	s.forget()
	s.pending = nil
	s.rebase()
}

// gating runs hooks through gate during a gated prepare, and unwinds it
// (errStale) when the store changed meanwhile: at is its change count
// when the prepare started.
type gating struct {
	s    *Store
	gate Gate
	at   uint64
}

// call runs hook through the gate.
func (g *gating) call(hook func()) {
	g.gate(hook)
	if g.s.changes != g.at {
		panic(errStale)
	}
}

// resolve is e.Resolve of existing (present) and incoming, through the gate.
func (g *gating) resolve(e *schema.Entity, existing record, incoming value.Value, m schema.Meta) (merged value.Value, meta schema.Meta, keep bool) {
	g.call(func() { merged, meta, keep = e.Resolve(existing.val, existing.meta, true, incoming, m) })
	return merged, meta, keep
}

// update is f(v), through the gate when g is set.
func (g *gating) update(f func(value.Value) value.Value, v value.Value) value.Value {
	if g == nil {
		return f(v)
	}
	return g.updateGated(f, v)
}

func (g *gating) updateGated(f func(value.Value) value.Value, v value.Value) (out value.Value) {
	g.call(func() { out = f(v) })
	return out
}

// merge is f(a, b), through the gate when g is set.
func (g *gating) merge(f func(a, b value.Value) value.Value, a, b value.Value) value.Value {
	if g == nil {
		return f(a, b)
	}
	return g.mergeGated(f, a, b)
}

func (g *gating) mergeGated(f func(a, b value.Value) value.Value, a, b value.Value) (out value.Value) {
	g.call(func() { out = f(a, b) })
	return out
}

// stagedLayer collects the base writes of a gated change, reading through
// to the store's base, which it leaves as it is until the commit.
type stagedLayer struct {
	base        baseLayer
	ents        map[entityID]stagedRecord
	order       []entityID
	results     map[string]result
	resultOrder []string
}

type stagedRecord struct {
	rec    record
	parsed value.Value
}

func (l *stagedLayer) entity(id entityID) (record, bool) {
	if r, ok := l.ents[id]; ok {
		return r.rec, true
	}
	return l.base.entity(id)
}

func (l *stagedLayer) setEntity(id entityID, rec record, parsed value.Value) {
	if _, ok := l.ents[id]; !ok {
		l.order = append(l.order, id)
	}
	l.ents[id] = stagedRecord{rec, parsed}
}

func (l *stagedLayer) result(key string) (result, bool) {
	if r, ok := l.results[key]; ok {
		return r, true
	}
	return l.base.result(key)
}

func (l *stagedLayer) setResult(key string, r result) {
	if _, ok := l.results[key]; !ok {
		l.resultOrder = append(l.resultOrder, key)
	}
	l.results[key] = r
}

func (l *stagedLayer) entityPKs(key string) []string {
	pks := l.base.entityPKs(key)
	n := len(pks)
	for _, id := range l.order {
		if id.key != key {
			continue
		}
		if _, found := slices.BinarySearch(pks[:n], id.pk); !found {
			pks = append(pks, id.pk)
		}
	}
	slices.Sort(pks)
	return pks
}
