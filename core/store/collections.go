package store

import (
	"slices"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Collections (schema.Collection) are records of an entity table whose
// values are lists of pks. A write changes them in place (push, remove, a
// later page) by schema.CollectionWrite, here, in whichever layer it is
// applied to: a pending optimistic write's changes are replayed over the
// collections as they are at each rebase, so a collection fetched while a
// push is pending shows the pushed entity too, and a rollback drops it.

// applyCollections applies w's collection changes to l. A changed
// collection takes w's FetchedAt when it is newer, so that a list response
// to a request started before the change does not undo it (the table's
// entity keeps the newer record, as any entity does).
//
// With g set, the owner's lock is released around a write's Match and
// Move when they run caller code (CallsBack), as around an entity's merge
// hooks (see Make).
func (s *Store) applyCollections(w *Write, l layer, g *gating) {
	for _, cw := range w.Collections {
		gate := g
		if !cw.CallsBack {
			gate = nil
		}
		pks := []string{cw.PK}
		if cw.PK == "" {
			pks = l.entityPKs(cw.Key)
		}
		var old value.Value // a moved record, as stored before w
		if m := cw.Move; m != nil {
			if rec, ok := l.entity(entityID{m.Key, m.PK}); ok && !rec.deleted {
				old = rec.val
			}
		}
		for _, pk := range pks {
			if cw.PK == "" && cw.Move == nil {
				gate.release()
				ok := cw.Match(pk)
				gate.reacquire()
				if !ok {
					continue
				}
			}
			id := entityID{cw.Key, pk}
			rec, ok := l.entity(id)
			if ok && rec.deleted {
				continue
			}
			existing := value.Undef
			if ok {
				existing = rec.val
			}
			var next value.Value
			if cw.Move != nil {
				gate.release()
				next = cw.Move.Apply(old, pk, existing)
				gate.reacquire()
			} else {
				next = cw.Change(existing)
			}
			if ok && value.Same(next, existing) {
				continue
			}
			meta := w.Meta
			if ok {
				meta = rec.meta
				meta.FetchedAt = max(meta.FetchedAt, w.Meta.FetchedAt)
			}
			l.setEntity(id, record{val: next, meta: meta}, value.Undef)
		}
	}
}

// updateCollection applies an Update function to the collection that the
// result r holds, when its schema is a Collection, and reports whether it
// did: the function gets and returns the collection's pks, and every
// result holding the collection sees the change.
func updateCollection(l layer, r result, f func(value.Value) value.Value, meta schema.Meta, g *gating) bool {
	key, pk, ok := schema.CollectionRef(r.schema, r.val)
	if !ok {
		return false
	}
	id := entityID{key, pk}
	rec, ok := l.entity(id)
	if !ok || rec.deleted {
		return true
	}
	g.release()
	next := f(rec.val)
	g.reacquire()
	if value.Same(next, rec.val) {
		return true
	}
	rec.val = next
	rec.meta.FetchedAt = max(rec.meta.FetchedAt, meta.FetchedAt)
	rec.src, rec.srcBy = "", nil
	l.setEntity(id, rec, value.Undef)
	return true
}

func (b *baseLayer) entityPKs(key string) []string {
	t := b.s.table(key)
	pks := make([]string, 0, len(t))
	for pk, e := range t {
		if e.hasBase {
			pks = append(pks, pk)
		}
	}
	slices.Sort(pks)
	return pks
}

func (r *replayLayer) entityPKs(key string) []string {
	var pks []string
	if r.under != nil {
		pks = r.under.entityPKs(key)
	} else {
		pks = r.base.entityPKs(key)
	}
	n := len(pks)
	for id := range r.ents {
		if id.key != key {
			continue
		}
		if _, found := slices.BinarySearch(pks[:n], id.pk); found {
			continue
		}
		pks = append(pks, id.pk)
	}
	slices.Sort(pks)
	return pks
}
