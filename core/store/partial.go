package store

import (
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// EntityRef names one entity record: its entity key and pk.
type EntityRef struct{ Key, PK string }

// SnapshotOf returns a snapshot in Snapshot's shape holding only the base
// results under keys and the base records refs names: what one write
// stored, for another store to take (TakeSnapshot) without the cost of a
// whole snapshot. Results and records the base does not hold are left
// out; a name listed twice is written once. Tables come in the order refs
// first names them, and each table's metas in its records' order, which
// is the order a reader of the snapshot looks them up in.
func (s *Store) SnapshotOf(keys []string, refs []EntityRef) value.Value {
	type table struct {
		key         string
		recs, metas []value.Member
		seen        map[string]bool
	}
	var tables []*table
	byKey := map[string]*table{}
	// The records one write stored mostly share its meta: their meta
	// values are made once (numbers formatted as text cost most here).
	var lastMeta schema.Meta
	var lastDeleted bool
	lastMetaValue := value.Undef
	metaValue := func(m schema.Meta, deleted bool) value.Value {
		if lastMetaValue.IsUndefined() || m != lastMeta || deleted != lastDeleted {
			lastMeta, lastDeleted, lastMetaValue = m, deleted, entityMetaValue(m, deleted)
		}
		return lastMetaValue
	}
	for _, ref := range refs {
		e := s.entities[ref.Key][ref.PK]
		if e == nil || !e.hasBase {
			continue
		}
		t := byKey[ref.Key]
		if t == nil {
			t = &table{key: ref.Key, seen: map[string]bool{}}
			byKey[ref.Key] = t
			tables = append(tables, t)
		}
		if t.seen[ref.PK] {
			continue
		}
		t.seen[ref.PK] = true
		rec := &e.base
		v := rec.val
		if rec.deleted {
			v = value.NullV
		}
		t.recs = append(t.recs, value.M(ref.PK, v))
		t.metas = append(t.metas, value.M(ref.PK, metaValue(rec.meta, rec.deleted)))
	}
	ents := make([]value.Member, len(tables))
	entMetas := make([]value.Member, len(tables))
	for i, t := range tables {
		ents[i] = value.M(t.key, value.Obj(t.recs...))
		entMetas[i] = value.M(t.key, value.Obj(t.metas...))
	}

	var results, metas []value.Member
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		r := s.results[k]
		if seen[k] || r == nil || !r.hasBase || r.base.val.IsUndefined() {
			continue
		}
		seen[k] = true
		m := r.base.meta
		m.Err, m.ErrorExpiresAt = nil, 0
		results = append(results, value.M(k, r.base.val))
		metas = append(metas, value.M(k, resultMetaValue(m)))
	}
	return value.Obj(
		value.M("version", value.Int(SnapshotVersion)),
		value.M("entities", value.Obj(ents...)),
		value.M("endpoints", value.Obj(results...)),
		value.M("meta", value.Obj(metas...)),
		value.M("entitiesMeta", value.Obj(entMetas...)),
	)
}
