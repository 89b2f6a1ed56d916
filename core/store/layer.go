package store

import (
	"errors"
	"slices"

	"github.com/datafetch/datafetch/core/value"
)

// layer is where applyWrite writes: the base itself, or a replay of the
// pending queue that reads through to the base.
type layer interface {
	entity(id entityID) (record, bool)
	// setEntity stores r; parsed is the record r.val was normalized from
	// (EntityWrite.Parsed) when the write brought it, for Slot.Parsed.
	setEntity(id entityID, r record, parsed value.Value)
	result(key string) (result, bool)
	setResult(key string, r result)
	// entityPKs lists the pks of the entities of table key present in
	// the layer (see collections.go).
	entityPKs(key string) []string
}

// applyWrite merges one write into l, following each entity's merge rules.
// With g set, the owner's lock is released around the caller's hooks
// (see Make).
func (s *Store) applyWrite(w *Write, l layer, g *gating) {
	// A move's collections depend on the moved record as it was before
	// the write (schema.CollectionMove): they change first.
	moves := len(w.Collections) > 0 && w.Collections[0].Move != nil
	if moves {
		s.applyCollections(w, l, g)
	}
	for i := range w.Entities {
		ew := &w.Entities[i]
		s.know(ew.Entity)
		id := entityID{ew.Entity.Key, ew.PK}
		if ew.Deleted {
			l.setEntity(id, record{deleted: true, meta: w.Meta}, value.Undef)
			continue
		}
		existing, ok := l.entity(id)
		if ok && existing.deleted {
			if existing.meta.FetchedAt > w.Meta.FetchedAt {
				// Deleted by a newer request: an older response does not
				// bring it back.
				continue
			}
			ok = false
		}
		var incoming value.Value
		fresh := false // incoming is the write's own record
		if ok && ew.Source != "" && ew.Entity == existing.srcBy && ew.Source == existing.src && ew.Entity.Merge == nil {
			// The very text the stored record was normalized from: the
			// incoming record equals it, so resolve with the stored record
			// itself, which the merge and the comparisons see at once, and
			// the write's own record is never made.
			incoming = existing.val
		} else {
			incoming, fresh = ew.Record(), true
		}
		gate := g
		if gate != nil && (!ok || !entityHooks(ew.Entity)) {
			gate = nil // no hook runs: the lock stays
		}
		gate.release()
		merged, meta, keep := ew.Entity.Resolve(existing.val, existing.meta, ok, incoming, w.Meta)
		gate.reacquire()
		rec := record{val: merged, meta: meta}
		var parsed value.Value
		switch {
		case keep:
			// The stored record stays, and so does its parsed record
			// where the slot has it.
			rec.src, rec.srcBy, rec.unchecked = existing.src, existing.srcBy, existing.unchecked
		case fresh && value.Same(merged, incoming):
			parsed = ew.Parsed
			if ew.Source != "" {
				rec.src, rec.srcBy = ew.Source, ew.Entity
			}
		}
		l.setEntity(id, rec, parsed)
	}
	if len(w.Collections) > 0 && !moves {
		s.applyCollections(w, l, g)
	}
	if w.Key != "" {
		s.applyResult(w, l, g)
	}
	if len(w.Updates) > 0 {
		keys := make([]string, 0, len(w.Updates))
		for k := range w.Updates {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			r, ok := l.result(k)
			if !ok || r.val.IsUndefined() {
				continue
			}
			if updateCollection(l, r, w.Updates[k], w.Meta, g) {
				continue
			}
			g.release()
			r.val = w.Updates[k](r.val)
			g.reacquire()
			l.setResult(k, r)
		}
	}
}

func (s *Store) applyResult(w *Write, l layer, g *gating) {
	next := result{schema: w.Schema, val: w.Result, meta: ResultMeta{
		Date: w.Meta.Date, FetchedAt: w.Meta.FetchedAt, ExpiresAt: w.Meta.ExpiresAt,
	}}
	if existing, ok := l.result(w.Key); ok && !existing.val.IsUndefined() {
		if existing.meta.FetchedAt > w.Meta.FetchedAt && w.MergeResult == nil {
			// A response to an older request never replaces a newer result.
			return
		}
		if w.MergeResult != nil {
			g.release()
			next.val = w.MergeResult(existing.val, w.Result)
			g.reacquire()
		}
	}
	l.setResult(w.Key, next)
}

type baseLayer struct {
	s *Store
	// undo, when set, records what each write replaces, so that Apply can
	// put the base back when a hook panics halfway through a response.
	undo *undoLog
	// last is the entry entity looked up last (nil: none), under lastID,
	// in the table lastTable (nil: none): applyWrite sets the entity it has
	// just read, and a second lookup would hash its key and pk again.
	last      *entityEntry
	lastTable map[string]*entityEntry
	lastID    entityID
	// tracked lists the entries setEntity wrote, in order, when tracking
	// (for Store.remember).
	tracking bool
	tracked  []*entityEntry
	// fresh lists, when tracking, the entries whose record the write
	// replaced (by one it made), and freshText the length of their
	// records' text; freshText is -1 (and fresh let go) once one has none
	// or they hold freshLimit bytes or more: then none is copied (see
	// Store.detachFresh), as for a cold read.
	fresh      []*entityEntry
	freshText  int
	freshLimit int
}

// undoLog lists the base records and results a write replaced, in order.
type undoLog struct {
	ents    []entityUndo
	results []resultUndo
}

type entityUndo struct {
	id  entityID
	rec record
	had bool
}

type resultUndo struct {
	key string
	res result
	had bool
}

// maxKeptUndo bounds the undo entries kept for reuse between writes.
const maxKeptUndo = 4096

// reset empties u, dropping the records it referenced.
func (u *undoLog) reset() {
	clear(u.ents)
	clear(u.results)
	u.ents, u.results = u.ents[:0], u.results[:0]
	if cap(u.ents) > maxKeptUndo {
		u.ents = nil
	}
	if cap(u.results) > maxKeptUndo {
		u.results = nil
	}
}

// rollback puts back the base (and the visible state where no pending
// write covers it) as it was before the writes u lists.
func (s *Store) rollback(u *undoLog) {
	for i := len(u.results) - 1; i >= 0; i-- {
		x := u.results[i]
		if r := s.results[x.key]; r != nil {
			r.base, r.hasBase = x.res, x.had
		}
		if !s.overlaidResults[x.key] {
			s.setVisibleResult(x.key, x.res, x.had)
		}
	}
	for i := len(u.ents) - 1; i >= 0; i-- {
		x := u.ents[i]
		if e := s.entities[x.id.key][x.id.pk]; e != nil {
			e.base, e.hasBase = x.rec, x.had
		}
		if !s.overlaidEntities[x.id] {
			s.setVisibleEntity(x.id, x.rec, x.had)
		}
	}
	u.reset()
}

func (b *baseLayer) entity(id entityID) (record, bool) {
	byPK := b.s.table(id.key)
	e := byPK[id.pk]
	b.last, b.lastTable, b.lastID = e, byPK, id
	if e != nil && e.hasBase {
		return e.base, true
	}
	return record{}, false
}

func (b *baseLayer) setEntity(id entityID, r record, parsed value.Value) {
	var e *entityEntry
	switch {
	case b.lastID != id:
		e = b.s.entityEntry(id)
	case b.last != nil:
		e = b.last
	case b.lastTable != nil:
		e = b.s.newEntry(b.lastTable, id)
	default:
		e = b.s.entityEntry(id)
	}
	b.last, b.lastTable = nil, nil
	if b.undo != nil {
		b.undo.ents = append(b.undo.ents, entityUndo{id, e.base, e.hasBase})
	}
	if b.tracking {
		b.tracked = append(b.tracked, e)
		if !r.deleted && b.freshText >= 0 && !value.Same(e.base.val, r.val) {
			b.freshText += len(r.src)
			if r.src == "" || b.freshText >= b.freshLimit {
				b.fresh, b.freshText = nil, -1
			} else {
				b.fresh = append(b.fresh, e)
			}
		}
	}
	e.base, e.hasBase = r, true
	if !b.s.overlaidEntities[id] {
		b.s.setVisibleEntry(e, r, parsed)
	}
}

func (b *baseLayer) result(key string) (result, bool) {
	if r := b.s.results[key]; r != nil && r.hasBase {
		return r.base, true
	}
	return result{}, false
}

func (b *baseLayer) setResult(key string, r result) {
	e := b.s.resultEntry(key)
	if b.undo != nil {
		b.undo.results = append(b.undo.results, resultUndo{key, e.base, e.hasBase})
	}
	e.base, e.hasBase = r, true
	if !b.s.overlaidResults[key] {
		b.s.setVisibleResult(key, r, true)
	}
}

// replayLayer collects what the pending queue makes of the base, or of
// another replayLayer under it: a change staged over the base (Make).
type replayLayer struct {
	base    baseLayer
	under   *replayLayer // read instead of base when set
	ents    map[entityID]record
	results map[string]result
	// deleted holds the deletion of each entity deleted in the layer
	// (the last one), even where a later write of the layer set it again:
	// Make commits it first, as Apply would have stored it.
	deleted map[entityID]record
}

func newReplay(s *Store, under *replayLayer) *replayLayer {
	return &replayLayer{base: baseLayer{s: s}, under: under, ents: map[entityID]record{}, results: map[string]result{}}
}

func (r *replayLayer) entity(id entityID) (record, bool) {
	if rec, ok := r.ents[id]; ok {
		return rec, true
	}
	if r.under != nil {
		return r.under.entity(id)
	}
	return r.base.entity(id)
}

// setEntity keeps no parsed record: an optimistic record is read as a copy.
func (r *replayLayer) setEntity(id entityID, rec record, _ value.Value) {
	r.ents[id] = rec
	if rec.deleted {
		if r.deleted == nil {
			r.deleted = map[entityID]record{}
		}
		r.deleted[id] = rec
	}
}

func (r *replayLayer) result(key string) (result, bool) {
	if res, ok := r.results[key]; ok {
		return res, true
	}
	if r.under != nil {
		return r.under.result(key)
	}
	return r.base.result(key)
}

func (r *replayLayer) setResult(key string, res result) { r.results[key] = res }

// rebase recomputes the visible state of everything the pending queue
// touches, now or at the last rebase, by replaying the queue over the base.
func (s *Store) rebase() {
	if len(s.pending) == 0 && len(s.overlaidEntities) == 0 && len(s.overlaidResults) == 0 {
		return
	}
	s.install(s.replay(nil, s.pending, nil))
}

// replay computes what queue makes of the base (or of under, a change
// staged over it), changing nothing in the store; with g set, the owner's
// lock is released around their hooks.
func (s *Store) replay(under *replayLayer, queue []*Pending, g *gating) *replayLayer {
	rl := newReplay(s, under)
	for _, p := range queue {
		s.applyWrite(&p.Write, rl, g)
	}
	return rl
}

// install makes what rl computed over the store's base the visible state,
// and puts back the base where the last install overlaid something that rl
// no longer does.
func (s *Store) install(rl *replayLayer) {
	b := &baseLayer{s: s}
	for id := range s.overlaidEntities {
		if _, ok := rl.ents[id]; !ok {
			rec, has := b.entity(id)
			s.setVisibleEntity(id, rec, has)
		}
	}
	for key := range s.overlaidResults {
		if _, ok := rl.results[key]; !ok {
			res, has := b.result(key)
			s.setVisibleResult(key, res, has)
		}
	}
	s.overlaidEntities = make(map[entityID]bool, len(rl.ents))
	for id, rec := range rl.ents {
		s.overlaidEntities[id] = true
		s.setVisibleEntity(id, rec, true)
	}
	s.overlaidResults = make(map[string]bool, len(rl.results))
	for key, res := range rl.results {
		s.overlaidResults[key] = true
		s.setVisibleResult(key, res, true)
	}
}

func (s *Store) entityEntry(id entityID) *entityEntry {
	byPK := s.table(id.key)
	if byPK == nil {
		byPK = map[string]*entityEntry{}
		s.entities[id.key] = byPK
	}
	e := byPK[id.pk]
	if e == nil {
		e = s.newEntry(byPK, id)
	}
	return e
}

// The sizes of the slabs entity entries are carved from (newEntry).
const (
	minSlab = 16
	maxSlab = 256
)

// newEntry adds an entry for id, which its table byPK lacks.
func (s *Store) newEntry(byPK map[string]*entityEntry, id entityID) *entityEntry {
	// Entries come from slabs: a response of a thousand records makes a
	// few allocations, not a thousand. A slab is as large as all before it
	// together, from minSlab up to maxSlab, so that the room carved and
	// left unused stays below half, and a store holding a few records (a
	// new controller's first small response, an optimistic update) does
	// not carve a whole maxSlab: 80 KB that every cold fetch allocated,
	// zeroed and left to the collector to scan.
	if len(s.slab) == cap(s.slab) {
		n := min(max(s.slabbed, minSlab), maxSlab)
		s.slab = make([]entityEntry, 0, n)
		s.slabbed += n
	}
	s.slab = s.slab[:len(s.slab)+1]
	e := &s.slab[len(s.slab)-1]
	e.slot.Key, e.slot.PK = id.key, id.pk
	byPK[id.pk] = e
	return e
}

func (s *Store) resultEntry(key string) *resultEntry {
	r := s.results[key]
	if r == nil {
		r = &resultEntry{}
		s.results[key] = r
	}
	return r
}

// setVisibleEntity makes rec what readers see of id. A record equal to the
// visible one keeps the visible value, so reads keep their identity.
func (s *Store) setVisibleEntity(id entityID, rec record, present bool) {
	if !present {
		e := s.entities[id.key][id.pk]
		if e == nil || e.hasBase {
			return
		}
		e.slot.Version++
		e.slot.Removed = true
		delete(s.entities[id.key], id.pk)
		if len(s.entities[id.key]) == 0 {
			// The table held only optimistic records: leave no empty
			// table behind, so a rollback leaves the state as it was.
			delete(s.entities, id.key)
			s.tables = [len(s.tables)]tableRef{}
		}
		s.version++
		s.tableChanged(id.key, true)
		return
	}
	// Only a write brings a parsed record: one put back from a layer is
	// read as a copy.
	s.setVisibleEntry(s.entityEntry(id), rec, value.Undef)
}

// setVisibleEntry is setVisibleEntity for a present record whose entry is
// at hand; parsed is the record rec.val was normalized from (Undefined:
// none), kept with it in the slot (Slot.Parsed).
func (s *Store) setVisibleEntry(e *entityEntry, rec record, parsed value.Value) {
	sl := &e.slot
	sl.Meta, sl.Unchecked = rec.meta, rec.unchecked
	if sl.Deleted == rec.deleted && sl.Version > 0 &&
		(value.Same(sl.Value, rec.val) || value.Equal(sl.Value, rec.val)) {
		return
	}
	joined := sl.Version == 0
	sl.Value, sl.Parsed, sl.Deleted = rec.val, parsed, rec.deleted
	sl.Version++
	s.version++
	s.tableChanged(sl.Key, joined)
}

func (s *Store) setVisibleResult(key string, res result, present bool) {
	if !present {
		r := s.results[key]
		if r == nil || r.hasBase {
			return
		}
		delete(s.results, key)
		s.version++
		return
	}
	r := s.resultEntry(key)
	v := &r.visible
	if !sameMeta(v.meta, res.meta) {
		v.meta = res.meta
		s.version++
	}
	if v.schema == res.schema && (value.Same(v.val, res.val) || value.Equal(v.val, res.val)) && r.version > 0 {
		return
	}
	v.schema, v.val = res.schema, res.val
	r.version++
	s.version++
}

// sameMeta compares metas; errors by errors.Is, which never panics on error
// types that == cannot compare.
func sameMeta(a, b ResultMeta) bool {
	ea, eb := a.Err, b.Err
	a.Err, b.Err = nil, nil
	if a != b || (ea == nil) != (eb == nil) {
		return false
	}
	return ea == nil || errors.Is(ea, eb)
}
