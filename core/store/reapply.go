package store

import (
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// reapply remembers the last Apply whose write came from a text
// (Write.Text) and, while nothing else has changed the store, lets Reapply
// store that text again without it being parsed, normalized or merged.
//
// Only the last Apply can qualify: every change to the store (any Apply,
// UpdateMeta, AddPending, RemovePending, Reset, a Sweep or Hydrate that
// removes or takes something, an Adopt that gives a schema) forgets it.
type reapply struct {
	key    string
	text   string
	schema schema.Schema
	// ents are the entries the write's entity writes reached, in its
	// order (an entity written twice is listed twice).
	ents []*entityEntry
}

// maxKeptReapply bounds the capacity of reapply.ents kept for reuse.
const maxKeptReapply = 1 << 16

// forget drops what Reapply could store again: the store changed.
func (s *Store) forget() {
	if s.again.text == "" {
		return
	}
	clear(s.again.ents)
	ents := s.again.ents[:0]
	if cap(ents) > maxKeptReapply {
		ents = nil
	}
	s.again = reapply{ents: ents}
}

// remember records w, just applied, for Reapply when storing its text
// again would be a fixed point: the write has no hook that could decide
// differently (merges, reorders, MergeResult, Updates, Collections), every
// entity it wrote now holds the very record normalized from its text, and
// its result was stored. Otherwise it forgets.
//
// Every entity it wrote holds the very record of this text when the
// record's source is this text (record.src); otherwise the two records are
// compared.
func (s *Store) remember(w *Write) {
	s.forget()
	if w.Text == "" || w.Key == "" || len(s.pending) > 0 || w.MergeResult != nil ||
		len(w.Updates) > 0 || len(w.Collections) > 0 {
		return
	}
	r := s.results[w.Key]
	if r == nil || !r.hasBase || r.base.schema != w.Schema || !value.Same(r.base.val, w.Result) ||
		r.base.meta.FetchedAt != w.Meta.FetchedAt {
		// An older response than the result stored: it was not taken.
		return
	}
	ents := s.again.ents[:0]
	for i := range w.Entities {
		ew := &w.Entities[i]
		en := ew.Entity
		if ew.Deleted || ew.Source == "" || en.Merge != nil || en.UseIncoming != nil || en.ShouldReorder != nil {
			clear(ents)
			return
		}
		e := s.table(en.Key)[ew.PK]
		if e == nil || !e.hasBase || e.base.deleted ||
			((e.base.srcBy != en || e.base.src != ew.Source) && !value.Equal(e.base.val, ew.Record())) {
			// Its record is not (only) this text's: stored again, the
			// text would change it. (A record kept from other text that
			// normalizes to the same, as the same data formatted
			// otherwise, is compared once, here.)
			clear(ents)
			return
		}
		ents = append(ents, e)
	}
	s.again = reapply{key: w.Key, text: w.Text, schema: w.Schema, ents: ents}
}

// MayReapply reports whether Reapply of text under key may store it: it is
// the text the last Apply stored there and no write is pending.
func (s *Store) MayReapply(key, text string) bool {
	a := &s.again
	return a.text != "" && a.key == key && len(s.pending) == 0 && a.text == text
}

// Reapply stores, under key, a response whose text is the one the last
// Apply stored there, when nothing has changed the store since (see
// reapply), with meta m; it reports whether it did. It leaves the store as
// Apply of that response normalized again would: every record it wrote
// stays as it is (the same text, so an equal record) with its meta resolved
// as Entity.Resolve does for an equal record (m, unless the stored one was
// fetched later), and the result keeps its value and takes m, its error and
// invalidation cleared. Values keep their identity. When it reports false
// the caller applies the response as usual.
func (s *Store) Reapply(key, text string, sc schema.Schema, m schema.Meta) bool {
	a := &s.again
	if !s.MayReapply(key, text) || a.schema != sc {
		return false
	}
	for _, e := range a.ents {
		// Entity.Resolve of an equal record: the stored record stays, with
		// the incoming meta unless the stored one is newer (reordered).
		if m.FetchedAt >= e.base.meta.FetchedAt {
			e.base.meta = m
		}
		if !s.overlaidEntities[entityID{e.slot.Key, e.slot.PK}] {
			e.slot.Meta = e.base.meta
		}
	}
	r := s.results[key]
	if r.base.meta.FetchedAt > m.FetchedAt {
		// A response to an older request never replaces a newer result;
		// as after Apply of it, what stays is not this text's result.
		s.forget()
		return true
	}
	res := r.base
	res.meta = ResultMeta{Date: m.Date, FetchedAt: m.FetchedAt, ExpiresAt: m.ExpiresAt}
	r.base = res
	if !s.overlaidResults[key] {
		s.setVisibleResult(key, res, true)
	}
	return true
}
