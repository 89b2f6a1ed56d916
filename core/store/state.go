package store

import (
	"slices"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// State returns the visible state as one JSON value, in the shape of
// data-client's state plus the format's version (SnapshotVersion):
// entities[key][pk] normalized records,
// endpoints[key] normalized results, meta[key] result metas,
// entitiesMeta[key][pk] entity metas, optimistic the pending writes.
func (s *Store) State() value.Value {
	opt := make([]value.Value, 0, len(s.pending))
	for _, p := range s.pending {
		opt = append(opt, value.Obj(
			value.M("key", value.Str(p.Key)),
			value.M("fetchedAt", value.Int(p.Meta.FetchedAt)),
			value.M("result", orNull(p.Result)),
		))
	}
	return s.snapshot(visibleView, opt)
}

// A stateView picks what a snapshot shows: of an entity, its record (ok
// false leaves it out); of a result, its value and meta (ok false leaves
// both out; an undefined value leaves the value out and keeps the meta).
type stateView struct {
	// keepEmpty keeps an entity table that shows no record, as {}.
	keepEmpty bool
	entity    func(e *entityEntry) (v value.Value, meta schema.Meta, deleted, ok bool)
	result    func(r *resultEntry) (v value.Value, meta ResultMeta, ok bool)
}

// visibleView shows what readers see, pending optimistic writes included.
var visibleView = stateView{
	keepEmpty: true,
	entity: func(e *entityEntry) (value.Value, schema.Meta, bool, bool) {
		return e.slot.Value, e.slot.Meta, e.slot.Deleted, true
	},
	result: func(r *resultEntry) (value.Value, ResultMeta, bool) {
		return r.visible.val, r.visible.meta, true
	},
}

// snapshot writes the entities and results view shows, in State's shape,
// with optimistic as the list of pending writes.
func (s *Store) snapshot(view stateView, optimistic []value.Value) value.Value {
	keys := make([]string, 0, len(s.entities))
	for k := range s.entities {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var ents, entMetas []value.Member
	for _, k := range keys {
		byPK := s.entities[k]
		pks := make([]string, 0, len(byPK))
		for pk := range byPK {
			pks = append(pks, pk)
		}
		slices.Sort(pks)
		recs := make([]value.Member, 0, len(pks))
		metas := make([]value.Member, 0, len(pks))
		for _, pk := range pks {
			rec, meta, deleted, ok := view.entity(byPK[pk])
			if !ok {
				continue
			}
			if deleted {
				rec = value.NullV
			}
			recs = append(recs, value.M(pk, rec))
			metas = append(metas, value.M(pk, entityMetaValue(meta, deleted)))
		}
		if len(recs) == 0 && !view.keepEmpty {
			continue
		}
		ents = append(ents, value.M(k, value.Obj(recs...)))
		entMetas = append(entMetas, value.M(k, value.Obj(metas...)))
	}

	rkeys := s.Keys()
	slices.Sort(rkeys)
	var results, metas []value.Member
	for _, k := range rkeys {
		v, meta, ok := view.result(s.results[k])
		if !ok {
			continue
		}
		if !v.IsUndefined() {
			results = append(results, value.M(k, v))
		}
		metas = append(metas, value.M(k, resultMetaValue(meta)))
	}
	return value.Obj(
		value.M("version", value.Int(SnapshotVersion)),
		value.M("entities", value.Obj(ents...)),
		value.M("endpoints", value.Obj(results...)),
		value.M("meta", value.Obj(metas...)),
		value.M("entitiesMeta", value.Obj(entMetas...)),
		value.M("optimistic", value.Arr(optimistic...)),
	)
}

func orNull(v value.Value) value.Value {
	if v.IsUndefined() {
		return value.NullV
	}
	return v
}

func entityMetaValue(m schema.Meta, deleted bool) value.Value {
	members := []value.Member{
		value.M("date", value.Int(m.Date)),
		value.M("fetchedAt", value.Int(m.FetchedAt)),
		value.M("expiresAt", value.Int(m.ExpiresAt)),
	}
	if deleted {
		members = append(members, value.M("deleted", value.True))
	}
	return value.Obj(members...)
}

func resultMetaValue(m ResultMeta) value.Value {
	members := []value.Member{
		value.M("date", value.Int(m.Date)),
		value.M("fetchedAt", value.Int(m.FetchedAt)),
		value.M("expiresAt", value.Int(m.ExpiresAt)),
	}
	if m.Invalidated {
		members = append(members, value.M("invalidated", value.True))
	}
	if m.Err != nil {
		members = append(members, value.M("error", value.Str(m.Err.Error())),
			value.M("errorExpiresAt", value.Int(m.ErrorExpiresAt)))
	}
	return value.Obj(members...)
}
