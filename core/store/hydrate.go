package store

import (
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// SnapshotEntity is one normalized record of a snapshot (see Hydrate).
type SnapshotEntity struct {
	Key, PK string
	// Value is the normalized record; ignored when Deleted.
	Value   value.Value
	Deleted bool
	Meta    schema.Meta
}

// SnapshotResult is one normalized endpoint result of a snapshot.
type SnapshotResult struct {
	Key   string
	Value value.Value
	// Meta's Err and ErrorExpiresAt are not taken: errors are not data.
	Meta ResultMeta
}

// Hydrate merges records and results from a snapshot into the base layer,
// as if they had been fetched when their metas say: each one is taken where
// the base holds nothing under its id or holds something fetched before it
// (by FetchedAt; on a tie what is stored stays). Entity records replace the
// stored ones whole (a snapshot carries complete normalized records, and
// no Entity is at hand to merge by). A result taken here has no schema
// until Adopt gives it one: the snapshot names endpoints by key only.
//
// What was done to a stored result since its fetch is not undone by data
// that is no newer: a result the store holds invalidated stays invalidated
// when the one taken was fetched at or before the invalidation
// (ResultMeta.InvalidatedAt, else the stored FetchedAt), whether or not
// data was stored with the invalidation; and on a tie (the same fetch) the
// earlier ExpiresAt stays, so that an expired result stays stale.
// It reports whether anything was taken.
func (s *Store) Hydrate(ents []SnapshotEntity, results []SnapshotResult) bool {
	return s.hydrate(ents, results, false)
}

// TakeSnapshot is Hydrate for news from another store (a sync message, see
// controller.ApplySync): the snapshot's records and results win ties too,
// being what that store holds after a change at a time no later than the
// one they carry. A result an endpoint's update function rewrote keeps its
// fetchedAt, and the rewrite must still reach a store that holds the same
// fetch. Its data only: an invalidation or expiry of the stored result
// stays, as in Hydrate, so that a message sent again undoes neither.
func (s *Store) TakeSnapshot(ents []SnapshotEntity, results []SnapshotResult) bool {
	return s.hydrate(ents, results, true)
}

// hydrate is Hydrate, and TakeSnapshot with ties.
func (s *Store) hydrate(ents []SnapshotEntity, results []SnapshotResult, ties bool) bool {
	// The layer Apply uses, which no Apply uses now: a layer made here
	// would be allocated, as hydrateInto takes any.
	s.applying = baseLayer{s: s}
	took := s.hydrateInto(&s.applying, ents, results, ties)
	s.applying = baseLayer{}
	if took {
		s.forget()
		s.rebase()
	}
	return took
}

// hydrateInto writes what hydrate takes of a snapshot into b, the base or
// a change staged over it (Make), and reports whether it took anything.
func (s *Store) hydrateInto(b layer, ents []SnapshotEntity, results []SnapshotResult, ties bool) bool {
	// keeps reports whether what is stored, fetched at stored, stays
	// against what was fetched at incoming.
	keeps := func(stored, incoming int64) bool {
		return stored > incoming || (stored == incoming && !ties)
	}
	took := false
	for i := range ents {
		e := &ents[i]
		id := entityID{e.Key, e.PK}
		if existing, ok := b.entity(id); ok && keeps(existing.meta.FetchedAt, e.Meta.FetchedAt) {
			continue
		}
		rec := record{val: e.Value, meta: e.Meta, deleted: e.Deleted, unchecked: !e.Deleted}
		if e.Deleted {
			rec.val = value.Undef
		}
		b.setEntity(id, rec, value.Undef) // no parsed form: a snapshot record reads as a copy
		took = true
	}
	for i := range results {
		r := &results[i]
		existing, ok := b.result(r.Key)
		if ok && !existing.val.IsUndefined() && keeps(existing.meta.FetchedAt, r.Meta.FetchedAt) {
			continue
		}
		meta := r.Meta
		meta.Err, meta.ErrorExpiresAt = nil, 0
		if ok {
			keepMarks(&meta, existing)
		}
		if e := s.results[r.Key]; e != nil {
			// A kept error stays with its result.
			meta.Err, meta.ErrorExpiresAt = e.base.meta.Err, e.base.meta.ErrorExpiresAt
		}
		b.setResult(r.Key, result{val: r.Value, meta: meta})
		if s.unschemed == nil {
			s.unschemed = map[string]bool{}
		}
		s.unschemed[r.Key] = true
		took = true
	}
	return took
}

// keepMarks keeps in meta, the meta of a result about to replace the
// stored one, the marks of the stored one that the incoming data is not
// newer than: its invalidation, and on the same fetch its expiry.
func keepMarks(meta *ResultMeta, stored result) {
	sm := &stored.meta
	if sm.Invalidated {
		floor := max(sm.InvalidatedAt, sm.FetchedAt)
		if meta.FetchedAt <= floor {
			meta.Invalidated = true
			meta.InvalidatedAt = max(meta.InvalidatedAt, floor)
		}
	}
	if !stored.val.IsUndefined() && sm.FetchedAt == meta.FetchedAt {
		meta.ExpiresAt = min(meta.ExpiresAt, sm.ExpiresAt)
	}
}

// Adopt gives the result under key the schema sc when Hydrate stored it
// without one; the first endpoint that reads or stores that key calls it.
// A result that is not a value of sc as Normalize makes them
// (schema.CheckNormalized: an Entity's result a pk, a list an array...)
// is dropped there, as a response that is not one of sc would not have
// been stored: the read that adopts it finds nothing, and fetches. Nothing
// else a read sees changes: reads of key go through that endpoint anyway.
// It reports the error of a dropped result.
func (s *Store) Adopt(key string, sc schema.Schema) error {
	if !s.unschemed[key] {
		return nil
	}
	delete(s.unschemed, key)
	schema.EachEntity(sc, s.know)
	r := s.results[key]
	if r == nil {
		return nil
	}
	s.forget()
	if r.hasBase && r.base.schema == nil && !r.base.val.IsUndefined() {
		if err := schema.CheckNormalized(sc, r.base.val); err != nil {
			// Only its kept error stays, if any.
			m := r.base.meta
			b := &baseLayer{s: s}
			b.setResult(key, result{schema: sc, meta: ResultMeta{Err: m.Err, ErrorExpiresAt: m.ErrorExpiresAt}})
			if !s.PendingAny(CallsBack) {
				// Adopt runs on reads, under the owner's lock, where no
				// hook may run (see Make): with hooks pending, the next
				// change replays the queue over the dropped result.
				s.rebase()
			}
			r.memo = schema.Memo{}
			return err
		}
	}
	if r.base.schema == nil {
		r.base.schema = sc
	}
	if r.visible.schema == nil {
		r.visible.schema = sc
	}
	r.memo = schema.Memo{}
	return nil
}

// know notes e as the entity of its table (EntityOf), as every write
// and every adopted schema meet them. The first entity met for a key
// stays: an entity type is one per key.
func (s *Store) know(e *schema.Entity) {
	for _, k := range s.recentKinds {
		if k == e {
			return
		}
	}
	s.recentKinds[s.nextKind] = e
	s.nextKind = (s.nextKind + 1) % len(s.recentKinds)
	if s.kinds == nil {
		s.kinds = map[string]*schema.Entity{}
	}
	if _, ok := s.kinds[e.Key]; !ok {
		s.kinds[e.Key] = e
	}
}

// EntityOf returns the entity of the table key, when a write or an
// adopted result has met it; nil otherwise.
func (s *Store) EntityOf(key string) *schema.Entity { return s.kinds[key] }

// SchemaOf returns the schema of the result stored under key, nil when
// none is stored or its schema is not known yet (a result Hydrate stored
// that no endpoint has read).
func (s *Store) SchemaOf(key string) schema.Schema {
	r := s.results[key]
	switch {
	case r == nil:
		return nil
	case r.base.schema != nil:
		return r.base.schema
	}
	return r.visible.schema
}

// Snapshot returns the base layer in State's shape: what servers sent,
// without the pending optimistic writes (optimistic is empty) and without
// kept errors. It is what a snapshot to persist or to hand to another
// process holds.
func (s *Store) Snapshot() value.Value { return s.snapshot(baseView, nil) }

// baseView shows what servers sent: the base layer, without kept errors.
var baseView = stateView{
	entity: func(e *entityEntry) (value.Value, schema.Meta, bool, bool) {
		return e.base.val, e.base.meta, e.base.deleted, e.hasBase
	},
	result: func(r *resultEntry) (value.Value, ResultMeta, bool) {
		m := r.base.meta
		m.Err, m.ErrorExpiresAt = nil, 0
		return r.base.val, m, r.hasBase && !r.base.val.IsUndefined()
	},
}

// SnapshotVersion is the version of the snapshot format State and Snapshot
// write and Hydrate's callers read.
const SnapshotVersion = 1
