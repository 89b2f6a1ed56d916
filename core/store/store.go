// Package store keeps normalized entities and endpoint results in two
// layers: the base, which holds what servers sent, and above it the queue of
// pending optimistic writes. Readers see the visible state: the base with the
// queue replayed over it in order.
//
// Every change to the base and every change to the queue replays the queue
// over the base again (a rebase) instead of undoing anything, so a rollback
// in any interleaving of responses is right by construction. A rebase touches
// only the entities and results that pending writes name.
//
// A Store is not safe for concurrent use; the controller serializes access.
package store

import (
	"strings"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// ResultMeta is the caching state of one stored result. Times are epoch ms.
type ResultMeta struct {
	Date      int64
	FetchedAt int64
	ExpiresAt int64
	// Invalidated makes the next read fetch and wait.
	Invalidated bool
	// InvalidatedAt, while Invalidated, is the newest fetchedAt known when
	// the result was invalidated (the invalidating controller's last
	// stamp): a snapshot or a sync message does not make a result fetched
	// at or before it valid again (see Hydrate). 0 when not known; the
	// result's own FetchedAt then stands in.
	InvalidatedAt int64
	// Err is the last fetch error, kept until ErrorExpiresAt.
	Err            error
	ErrorExpiresAt int64
}

// Write is one response (or one optimistic response) to store: its
// normalized entities, its result under Key, and the rewrites of other
// results that its endpoint's Update asks for.
type Write struct {
	// Key is where the result is stored; "" stores entities only.
	Key      string
	Schema   schema.Schema
	Result   value.Value
	Entities []schema.EntityWrite
	// Meta stamps the entities and the result; FetchedAt orders writes.
	Meta schema.Meta
	// MergeResult, when set, combines the stored result with Result.
	MergeResult func(existing, incoming value.Value) value.Value
	// Updates rewrites other stored results by key. The functions must be
	// pure: a rebase calls them again. A result whose schema is a
	// Collection is rewritten in its collection (see collections.go).
	Updates map[string]func(value.Value) value.Value
	// Collections change stored collections (a push, a later page), after
	// Entities and before the result; see collections.go.
	Collections []schema.CollectionWrite
	// Text, when set, is the JSON text Result and Entities were normalized
	// from, by a normalization that gives an equal write for the same text
	// (no hook of the caller's between the text and the schema). The store
	// remembers it so that the same text stored again under Key, with
	// nothing else changed since, is stored without being normalized
	// (Reapply).
	Text string
	// TextParams are the params Text was normalized with (its
	// normalization's args may read them): the same text is stored again
	// unnormalized only for equal params, as a key may leave some out.
	TextParams value.Value
}

// Pending is an optimistic write waiting for its request to finish.
type Pending struct {
	Write
	seq uint64
}

type record struct {
	val     value.Value
	deleted bool
	// unchecked marks a record a snapshot brought: its first read checks
	// it against its entity (schema.Slot.Unchecked).
	unchecked bool
	meta      schema.Meta
	// src is the text val was normalized from by srcBy (EntityWrite.Source),
	// "" when unknown (as for a merge of two records).
	src   string
	srcBy *schema.Entity
}

type entityEntry struct {
	slot    schema.Slot // what readers see
	base    record
	hasBase bool
	// mark is the number of the last sweep that reached the entry, by the
	// Entity markBy (sweep.go).
	mark   uint64
	markBy *schema.Entity
}

type result struct {
	schema schema.Schema
	val    value.Value
	meta   ResultMeta
}

type resultEntry struct {
	visible result
	base    result
	hasBase bool
	version uint64
	memo    schema.Memo
}

// Store holds the two layers and the visible state computed from them.
type Store struct {
	// OnCallerCode, when set, is called by a read of the store before it
	// runs code of the caller's (schema.CallerCodeWatcher).
	OnCallerCode func()

	entities map[string]map[string]*entityEntry
	results  map[string]*resultEntry
	pending  []*Pending
	// overlaid names what the last rebase computed from pending writes, so
	// the next one can put back the base where a write no longer applies.
	overlaidEntities map[entityID]bool
	overlaidResults  map[string]bool
	version          uint64
	// changes counts the changes made to either layer, visible or not
	// (forget, Reapply), for Make to tell that a hook let one in.
	changes uint64
	seq     uint64
	slab    []entityEntry
	slabbed int     // entries in the slabs carved since the last reset
	undo    undoLog // of the Apply running, reused
	// applying is the base layer of the Apply running, reused: Apply never
	// nests (it runs hooks where it is called, under the owner's lock, so
	// they cannot reach the store: see Make), and one is made per write.
	applying baseLayer
	// tables caches the entity tables looked up last: lookups come in
	// runs over a few entity types (articles and their authors), and
	// comparing a key, usually the very string of an earlier lookup, is
	// cheaper than hashing it, which WebAssembly does slowly.
	tables    [4]tableRef
	nextTable int
	// unschemed names the results Hydrate stored, which wait for Adopt to
	// learn their schema.
	unschemed map[string]bool
	// kinds are the entities met so far by table key (know): what a
	// snapshot's records are checked against when it comes. They are the
	// program's, one per table, not data: Reset keeps them. recentKinds
	// are the few met last, under nextKind, which writes meet again and
	// again.
	kinds       map[string]*schema.Entity
	recentKinds [4]*schema.Entity
	nextKind    int
	// tableIdx holds the version and sorted pks of each entity table
	// (tables.go); tableFloor is the version of a table with no entry,
	// the store's version at the last reset.
	tableIdx   map[string]*tableIndex
	tableFloor uint64
	// lastIdx is the entry of tableIdx that tableChanged met last.
	lastIdx    *tableIndex
	lastIdxKey string
	// sweeps numbers the sweeps (sweep.go), for entityEntry.mark.
	sweeps uint64
	// again is the last Apply, for Reapply (reapply.go); remembered
	// counts the writes it remembered.
	again      reapply
	remembered uint64
}

// tableRef is one entry of Store.tables (nil table: empty).
type tableRef struct {
	key   string
	table map[string]*entityEntry
}

// table returns the entity table of key, nil when there is none.
func (s *Store) table(key string) map[string]*entityEntry {
	for i := range s.tables {
		if r := &s.tables[i]; r.table != nil && r.key == key {
			return r.table
		}
	}
	t := s.entities[key]
	if t != nil {
		s.tables[s.nextTable] = tableRef{key, t}
		s.nextTable = (s.nextTable + 1) % len(s.tables)
	}
	return t
}

type entityID struct{ key, pk string }

// New returns an empty store.
func New() *Store {
	return &Store{
		entities: map[string]map[string]*entityEntry{},
		results:  map[string]*resultEntry{},
	}
}

// Version changes whenever anything visible changes.
func (s *Store) Version() uint64 { return s.version }

// Slot returns the visible slot of an entity, nil when there is none. It
// makes the store a schema.Source.
func (s *Store) Slot(key, pk string) *schema.Slot {
	if e := s.table(key)[pk]; e != nil {
		return &e.slot
	}
	return nil
}

// Read returns the denormalized visible result stored under key, memoized,
// and whether the key holds a result at all.
func (s *Store) Read(key string) (v value.Value, st schema.Status, meta ResultMeta, ok bool) {
	return s.ReadArgs(key, schema.Args{})
}

// ReadArgs is Read by a reader with args, the request's (which select
// the lenses of a schema.Lens in the result's schema).
func (s *Store) ReadArgs(key string, args schema.Args) (v value.Value, st schema.Status, meta ResultMeta, ok bool) {
	r := s.results[key]
	if r == nil {
		return value.Undef, schema.Missing, ResultMeta{}, false
	}
	if r.visible.val.IsUndefined() {
		// An entry kept for its meta alone: an error or an invalidation
		// before any data.
		return value.Undef, schema.Missing, r.visible.meta, false
	}
	v, st = schema.DenormalizeArgs(r.visible.schema, r.visible.val, s, &r.memo, s.version, args)
	return v, st, r.visible.meta, true
}

// Meta returns the visible meta of the result under key.
func (s *Store) Meta(key string) (ResultMeta, bool) {
	r := s.results[key]
	if r == nil {
		return ResultMeta{}, false
	}
	return r.visible.meta, true
}

// Normalized returns the visible normalized result under key.
func (s *Store) Normalized(key string) (value.Value, bool) {
	r := s.results[key]
	if r == nil {
		return value.Undef, false
	}
	return r.visible.val, r.hasBase || !r.visible.val.IsUndefined()
}

// Apply stores a server response in the base layer and rebases. It is all
// or nothing: when a hook (an entity's Merge, UseIncoming or ShouldReorder,
// an Update function) panics, the store is put back as it was before the
// panic goes on.
func (s *Store) Apply(w *Write) {
	b := &s.applying
	*b = baseLayer{s: s}
	defer func() {
		// Nothing of this write stays reachable from the layer.
		*b = baseLayer{}
		if p := recover(); p != nil {
			s.rollback(&s.undo)
			panic(p)
		}
		s.undo.reset()
	}()
	if len(s.pending) > 0 || mayPanic(w) {
		b.undo = &s.undo
	}
	s.forget()
	// A write that may be stored again from its text (see remember) has
	// the entries it writes listed as it goes, not looked up after.
	track := w.Text != "" && w.Key != "" && len(s.pending) == 0 && !mayPanic(w)
	if track {
		b.tracking, b.tracked = true, s.again.ents[:0]
		b.freshLimit = len(w.Text) / detachShare
		if cap(b.tracked) < len(w.Entities) {
			b.tracked = make([]*entityEntry, 0, len(w.Entities))
		}
	}
	s.applyWrite(w, b, nil)
	s.rebase()
	if track {
		s.remember(w, b.tracked)
		s.detachFresh(w, b)
	}
}

// detachShare is the share of a response's text (one in detachShare) that
// the records it changed may hold at most for detachFresh to copy them.
const detachShare = 8

// detachFresh copies the records w replaced out of w's text (value.Detach)
// when they hold little of it (a refetch that changed a few records): as
// parsed, each would keep the whole text, and its tape, alive, one more
// for every such refetch. What replaced nothing keeps its record, of an
// earlier text. The result, a list of keys made from the text, is copied
// too; readers still see the values they saw, or equal ones.
func (s *Store) detachFresh(w *Write, b *baseLayer) {
	if len(b.fresh) == 0 || b.freshText < 0 {
		return
	}
	for _, e := range b.fresh {
		was := e.base.val
		e.base.val, e.base.src = value.Detach(was), strings.Clone(e.base.src)
		if value.Same(e.slot.Value, was) {
			e.slot.Value, e.slot.Parsed = e.base.val, value.Undef
		}
	}
	if r := s.results[w.Key]; r != nil && value.Same(r.base.val, w.Result) {
		r.base.val = value.Detach(w.Result)
		if value.Same(r.visible.val, w.Result) {
			r.visible.val = r.base.val
		}
	}
}

// mayPanic reports whether applying w runs code of the caller's that could
// panic: an entity's hooks (schema.Entity.Hooked), MergeResult, an Update
// or a collection write. Without any, Apply cannot stop halfway, so it keeps no undo log,
// which for a large response would be as large as the response's records.
// (A rebase replays pending writes, whose hooks may panic too: Apply keeps
// the log whenever writes are pending.)
func mayPanic(w *Write) bool {
	if w.MergeResult != nil || len(w.Updates) > 0 || len(w.Collections) > 0 {
		return true
	}
	var last *schema.Entity
	for i := range w.Entities {
		e := w.Entities[i].Entity
		if e == last {
			continue
		}
		if e.Hooked() {
			return true
		}
		last = e
	}
	return false
}

// UpdateMeta changes the base meta of the result under key (creating an
// empty entry if needed) and makes it visible.
func (s *Store) UpdateMeta(key string, change func(*ResultMeta)) {
	// The text Reapply may store again stays: storing a response replaces
	// its result's meta whole, as Reapply does, and entities have none of
	// it.
	s.changes++
	r := s.results[key]
	if r == nil {
		r = &resultEntry{}
		s.results[key] = r
	}
	change(&r.base.meta)
	change(&r.visible.meta)
	if !r.hasBase && r.base.val.IsUndefined() {
		// An error or invalidation before any data: the entry exists for its
		// meta alone.
		r.hasBase = true
	}
}

// Keys returns the keys of every stored result.
func (s *Store) Keys() []string {
	keys := make([]string, 0, len(s.results))
	for k := range s.results {
		keys = append(keys, k)
	}
	return keys
}

// AddPending queues an optimistic write and makes it visible. When a hook
// panics while the queue is replayed, the write is not queued (and nothing
// visible changed) before the panic goes on.
func (s *Store) AddPending(w Write) *Pending {
	s.forget()
	s.seq++
	p := &Pending{Write: w, seq: s.seq}
	s.pending = append(s.pending, p)
	defer func() {
		if r := recover(); r != nil {
			s.pending = s.pending[:len(s.pending)-1]
			panic(r)
		}
	}()
	s.rebase()
	return p
}

// RemovePending drops an optimistic write, as on success (after its
// response was applied) or on error (a rollback).
func (s *Store) RemovePending(p *Pending) {
	s.forget()
	for i, q := range s.pending {
		if q == p {
			s.pending = append(s.pending[:i:i], s.pending[i+1:]...)
			s.rebase()
			return
		}
	}
}

// PendingAny reports whether f holds for one of the queued optimistic
// writes.
func (s *Store) PendingAny(f func(*Write) bool) bool {
	for _, p := range s.pending {
		if f(&p.Write) {
			return true
		}
	}
	return false
}

// PendingCount returns the number of queued optimistic writes.
func (s *Store) PendingCount() int { return len(s.pending) }

// Reset empties both layers.
func (s *Store) Reset() {
	s.forget()
	for _, byPK := range s.entities {
		for _, e := range byPK {
			e.slot.Version++
			e.slot.Removed = true // memos built on it fail
		}
	}
	s.entities = map[string]map[string]*entityEntry{}
	s.tables = [len(s.tables)]tableRef{}
	s.results = map[string]*resultEntry{}
	s.pending = nil
	s.overlaidEntities, s.overlaidResults = nil, nil
	s.unschemed = nil
	// The entries of the slab being filled hold records, whose strings
	// share the text of the response they came from: kept, a single one
	// would keep that whole response alive.
	s.slab, s.slabbed = nil, 0
	s.version++
	s.tableIdx, s.tableFloor, s.lastIdx = nil, s.version, nil
}

// RunsCallerCode calls OnCallerCode: the store is a
// schema.CallerCodeWatcher.
func (s *Store) RunsCallerCode() {
	if s.OnCallerCode != nil {
		s.OnCallerCode()
	}
}
