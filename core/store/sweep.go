package store

import (
	"slices"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Garbage collection (spec 9.1): Sweep removes the results that nothing
// holds and that expired long enough ago, then the entities that no
// remaining result reaches and that expired long enough ago. What a result
// reaches is worked out through its schema (schema.Refs, Entity.RecordRefs),
// the same walk a read makes, so a sweep never removes an entity that the
// read of a remaining result depends on: such reads keep their identity.

// Roots is what a sweep must keep besides what the store itself knows to
// keep (pending optimistic writes and what they touch). The controller
// fills it from its subscriptions and from any other reader that holds
// entities (a live Query or All: see Roots.Type and Roots.Value).
type Roots struct {
	results map[string]bool
	refs    []entityRef
	types   []*schema.Entity
	values  []valueRoot
}

type entityRef struct {
	e  *schema.Entity
	pk string
}

type valueRoot struct {
	s schema.Schema
	v value.Value
}

// Result holds the result under key, and so everything it reaches.
func (r *Roots) Result(key string) {
	if r.results == nil {
		r.results = map[string]bool{}
	}
	r.results[key] = true
}

// Entity holds the entity e stored under pk and everything it reaches (a
// read inferred from the entity table holds its entity this way).
func (r *Roots) Entity(e *schema.Entity, pk string) {
	r.refs = append(r.refs, entityRef{e, pk})
}

// Type holds every stored entity of e's table and what they reach: the
// hook for a reader of all entities of a type (All).
func (r *Roots) Type(e *schema.Entity) { r.types = append(r.types, e) }

// Value holds every entity that v, a normalized value of s, reaches: the
// hook for a reader whose answer is computed from the entity tables rather
// than stored (a Query), which names what it read this way.
func (r *Roots) Value(s schema.Schema, v value.Value) {
	r.values = append(r.values, valueRoot{s, v})
}

// SweepPolicy says when an unheld result or unreached entity has expired
// long enough ago to go.
type SweepPolicy struct {
	// Now is the time of the sweep, epoch ms.
	Now int64
	// ExpiryMultiplier stretches expiry: a record goes once
	// expiresAt + (ExpiryMultiplier − 1) × its expiry length is before Now.
	// Values below 1 count as 1.
	ExpiryMultiplier float64
}

// SweepStats counts what a sweep removed.
type SweepStats struct {
	Results  int
	Entities int
	// Keys are the keys of the results removed, sorted, for what holds something
	// per key outside the store (a bridge's identities) to let it go.
	Keys []string
}

// gone reports whether data that expires at expiresAt, having been stored
// at date (its expiry length being the time between), has expired long
// enough ago by p. A length of zero or less (as after ExpireAll) stretches
// nothing. The sum is worked in float64, so expiresAt = MaxInt64 (never
// stale) cannot overflow: it never goes.
func (p SweepPolicy) gone(date, expiresAt int64) bool {
	m := p.ExpiryMultiplier
	if !(m >= 1) {
		m = 1
	}
	length := float64(expiresAt) - float64(date)
	if length < 0 {
		length = 0
	}
	return float64(expiresAt)+(m-1)*length < float64(p.Now)
}

// start returns the moment data of meta m was stored, from which its expiry
// length is counted: Date, or FetchedAt where Date is unknown (0).
func start(date, fetchedAt int64) int64 {
	if date != 0 {
		return date
	}
	return fetchedAt
}

// Sweep removes what p and roots let go (see the package's Garbage
// collection notes) and reports how much. Kept are:
//
//   - results held by roots, named by a pending optimistic write (its own
//     key or one its Update rewrites), still keeping an error
//     (ErrorExpiresAt not passed), or not yet gone by p;
//   - entities reached from a kept result (its visible and its base value,
//     which a rollback brings back), from a pending write (every record it
//     writes and what its result names), or from roots, transitively
//     through the records of reached entities; and entities not yet gone
//     by p.
//
// A kept result hydrated from a snapshot whose schema is not known yet
// (see Adopt) could reach any entity: while there is one, no entity is
// removed. Removed entities' slots are marked Removed, so memos built on
// them are rebuilt; nothing a kept result reads changes.
func (s *Store) Sweep(p SweepPolicy, roots *Roots) SweepStats {
	if roots == nil {
		roots = &Roots{}
	}
	var st SweepStats
	var swept []string // the tables that lost entities
	pendingKeys := map[string]bool{}
	for _, pw := range s.pending {
		if pw.Key != "" {
			pendingKeys[pw.Key] = true
		}
		for k := range pw.Updates {
			pendingKeys[k] = true
		}
	}
	for key, r := range s.results {
		if roots.results[key] || pendingKeys[key] || s.overlaidResults[key] {
			continue
		}
		m := r.visible.meta
		if r.hasBase {
			m = r.base.meta
		}
		if m.Err != nil && p.Now < m.ErrorExpiresAt {
			continue
		}
		if !p.gone(start(m.Date, m.FetchedAt), m.ExpiresAt) {
			continue
		}
		delete(s.results, key)
		delete(s.unschemed, key)
		st.Results++
		st.Keys = append(st.Keys, key)
	}

	// Mark what the remaining results, the pending writes and the roots
	// reach.
	s.sweeps++
	w := &reach{s: s, mark: s.sweeps}
	unknown := false
	for key, r := range s.results {
		if s.unschemed[key] && ((r.hasBase && r.base.schema == nil && !r.base.val.IsUndefined()) ||
			(r.visible.schema == nil && !r.visible.val.IsUndefined())) {
			unknown = true
			break
		}
		w.value(r.visible.schema, r.visible.val)
		if r.hasBase && !value.Same(r.base.val, r.visible.val) {
			w.value(r.base.schema, r.base.val)
		}
	}
	if !unknown {
		for _, pw := range s.pending {
			for i := range pw.Entities {
				w.push(pw.Entities[i].Entity, pw.Entities[i].PK)
			}
			w.value(pw.Schema, pw.Result)
		}
		for _, ref := range roots.refs {
			w.push(ref.e, ref.pk)
		}
		for _, e := range roots.types {
			if e == nil {
				continue
			}
			for pk := range s.entities[e.Key] {
				w.push(e, pk)
			}
		}
		for _, vr := range roots.values {
			w.value(vr.s, vr.v)
		}
		w.run()
		st.Entities, swept = s.sweepEntities(p, w.mark)
	}
	slices.Sort(st.Keys)
	if st.Results > 0 || st.Entities > 0 {
		s.forget()
		s.version++
	}
	// The tables that lost entities changed: a read listing one (schema.All)
	// must not be answered from its memo.
	for _, key := range swept {
		s.tableChanged(key, true)
	}
	return st
}

// sweepEntities removes the entities that the mark phase numbered mark
// did not reach and that p says are gone, and returns how many and the
// keys of the tables they were in.
func (s *Store) sweepEntities(p SweepPolicy, mark uint64) (int, []string) {
	n := 0
	var tables []string
	for key, byPK := range s.entities {
		before := n
		for pk, e := range byPK {
			id := entityID{key, pk}
			if e.mark == mark || s.overlaidEntities[id] {
				continue
			}
			m := e.slot.Meta
			if e.hasBase {
				m = e.base.meta
			}
			if !p.gone(start(m.Date, m.FetchedAt), m.ExpiresAt) {
				continue
			}
			e.slot.Version++
			e.slot.Removed = true // memos built on it fail
			// Drop what the entry holds: the slab it was carved from may
			// live on, and with it anything the entry still references.
			*e = entityEntry{slot: schema.Slot{Key: key, PK: pk, Removed: true, Version: e.slot.Version}}
			delete(byPK, pk)
			n++
		}
		if n > before {
			tables = append(tables, key)
		}
		if len(byPK) == 0 {
			delete(s.entities, key)
		}
	}
	if n > 0 {
		s.tables = [len(s.tables)]tableRef{}
	}
	return n, tables
}

// reach is the mark phase of a sweep: a worklist of entities to visit, each
// (by its Entity and entry) once. An entry reached is marked with the
// sweep's number, which keeps it; the Entity that reached it is kept with
// the mark, and the rare entry reached by two Entities of one key (two
// declarations of a type) is visited by each, through others.
type reach struct {
	s      *Store
	mark   uint64
	work   []reached
	others map[reached]bool
	// cells indexes, per Lens table met, its cells' keys by the record
	// they belong to (schema.CellRecord): made on first use.
	cells map[string]map[string][]string
}

type reached struct {
	e   *schema.Entity
	ent *entityEntry
}

func (w *reach) push(e *schema.Entity, pk string) {
	if e == nil {
		return
	}
	if e.CellTable() && schema.CellRecord(pk) == pk {
		for _, cell := range w.cellsOf(e.Key)[pk] {
			w.pushOne(e, cell)
		}
		return
	}
	w.pushOne(e, pk)
}

// cellsOf returns the index of the cells of the Lens table key by record.
func (w *reach) cellsOf(key string) map[string][]string {
	byRecord, ok := w.cells[key]
	if !ok {
		byRecord = map[string][]string{}
		for pk := range w.s.table(key) {
			r := schema.CellRecord(pk)
			byRecord[r] = append(byRecord[r], pk)
		}
		if w.cells == nil {
			w.cells = map[string]map[string][]string{}
		}
		w.cells[key] = byRecord
	}
	return byRecord
}

func (w *reach) pushOne(e *schema.Entity, pk string) {
	ent := w.s.table(e.Key)[pk]
	if ent == nil {
		return
	}
	r := reached{e, ent}
	switch {
	case ent.mark != w.mark:
		ent.mark, ent.markBy = w.mark, e
	case ent.markBy == e || w.others[r]:
		return
	default:
		if w.others == nil {
			w.others = map[reached]bool{}
		}
		w.others[r] = true
	}
	w.work = append(w.work, r)
}

func (w *reach) value(s schema.Schema, v value.Value) {
	if s == nil || v.IsUndefined() {
		return
	}
	schema.Refs(s, v, w.push)
}

// run visits the worklist until it is empty: the entities that each
// entity's visible and base records name are visited in turn.
func (w *reach) run() {
	for len(w.work) > 0 {
		r := w.work[len(w.work)-1]
		w.work = w.work[:len(w.work)-1]
		if !r.ent.slot.Deleted {
			r.e.RecordRefs(r.ent.slot.Value, w.push)
		}
		if b := &r.ent.base; r.ent.hasBase && !b.deleted && !value.Same(b.val, r.ent.slot.Value) {
			r.e.RecordRefs(b.val, w.push)
		}
	}
}
