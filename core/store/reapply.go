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
	// seq numbers the remembered write (Store.remembered), for the token
	// MayReapply hands out.
	seq    uint64
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
	s.changes++
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
// again would be a fixed point, and otherwise forgets. Apply calls it only
// for a write with no hook that could decide differently (an entity's
// Merge, UseIncoming or ShouldReorder, MergeResult, Updates, Collections:
// see mayPanic) and no write pending, with ents the entries its entity
// writes reached, in order. It is a fixed point when every entity write
// reached its entry (none was skipped as deleted by a newer request), none
// deletes, every entry now holds the very record of this text, and the
// result was stored (not kept as newer).
//
// An entry holds the record of this text when the record's source is this
// text (record.src); otherwise, as for a record kept from other text that
// normalizes the same (the same data formatted otherwise), the two records
// are compared, once: after that the text is remembered.
func (s *Store) remember(w *Write, ents []*entityEntry) {
	s.again.ents = ents // its room, reused
	r := s.results[w.Key]
	if len(ents) != len(w.Entities) || r == nil || !r.hasBase || r.base.schema != w.Schema ||
		!value.Same(r.base.val, w.Result) || r.base.meta.FetchedAt != w.Meta.FetchedAt {
		clear(ents)
		return
	}
	for i, e := range ents {
		ew := &w.Entities[i]
		if ew.Deleted || ew.Source == "" || e.base.deleted ||
			((e.base.srcBy != ew.Entity || e.base.src != ew.Source) && !value.Equal(e.base.val, ew.Record())) {
			clear(ents)
			return
		}
	}
	s.remembered++
	s.again = reapply{seq: s.remembered, key: w.Key, text: w.Text, schema: w.Schema, ents: ents}
}

// MayReapply reports whether Reapply may store text under key: it is the
// text the last Apply stored there and no write is pending. Its token
// names what it found, for Reapply: the text is compared once, here (a
// whole response's bytes), and Reapply needs only to know that the store
// has forgotten nothing since.
func (s *Store) MayReapply(key, text string) (token uint64, ok bool) {
	a := &s.again
	if a.text == "" || a.key != key || len(s.pending) > 0 || a.text != text {
		return 0, false
	}
	return a.seq, true
}

// Reapply stores again, under key, the response whose text MayReapply
// found the last Apply stored there (token is what it returned), when
// nothing has changed the store since, with meta m; it reports whether it
// did. It leaves the store as Apply of that response normalized again
// would: every record it wrote stays as it is (the same text, so an equal
// record) with its meta resolved as Entity.Resolve does for an equal
// record (m, unless the stored one was fetched later), and the result
// keeps its value and takes m, its error and invalidation cleared. Values
// keep their identity. When it reports false the caller applies the
// response as usual.
func (s *Store) Reapply(key string, token uint64, sc schema.Schema, m schema.Meta) bool {
	a := &s.again
	if a.text == "" || a.seq != token || a.key != key || a.schema != sc || len(s.pending) > 0 {
		return false
	}
	s.changes++
	// With no write pending, the last rebase left nothing overlaid: the
	// visible state is the base's.
	for _, e := range a.ents {
		// Entity.Resolve of an equal record: the stored record stays, with
		// the incoming meta unless the stored one is newer (reordered).
		if m.FetchedAt >= e.base.meta.FetchedAt {
			e.base.meta = m
		}
		e.slot.Meta = e.base.meta
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
	s.setVisibleResult(key, res, true)
	return true
}
