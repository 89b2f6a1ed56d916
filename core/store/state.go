package store

import (
	"sort"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// State returns the visible state as one JSON value, in the shape of
// data-client's state plus the format's version (SnapshotVersion):
// entities[key][pk] normalized records,
// endpoints[key] normalized results, meta[key] result metas,
// entitiesMeta[key][pk] entity metas, optimistic the pending writes.
func (s *Store) State() value.Value {
	keys := make([]string, 0, len(s.entities))
	for k := range s.entities {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var ents, entMetas []value.Member
	for _, k := range keys {
		byPK := s.entities[k]
		pks := make([]string, 0, len(byPK))
		for pk := range byPK {
			pks = append(pks, pk)
		}
		sort.Strings(pks)
		recs := make([]value.Member, 0, len(pks))
		metas := make([]value.Member, 0, len(pks))
		for _, pk := range pks {
			sl := &byPK[pk].slot
			rec := sl.Value
			if sl.Deleted {
				rec = value.NullV
			}
			recs = append(recs, value.M(pk, rec))
			metas = append(metas, value.M(pk, entityMetaValue(sl.Meta, sl.Deleted)))
		}
		ents = append(ents, value.M(k, value.Obj(recs...)))
		entMetas = append(entMetas, value.M(k, value.Obj(metas...)))
	}

	rkeys := s.Keys()
	sort.Strings(rkeys)
	var results, metas []value.Member
	for _, k := range rkeys {
		r := s.results[k]
		if !r.visible.val.IsUndefined() {
			results = append(results, value.M(k, r.visible.val))
		}
		metas = append(metas, value.M(k, resultMetaValue(r.visible.meta)))
	}

	opt := make([]value.Value, 0, len(s.pending))
	for _, p := range s.pending {
		opt = append(opt, value.Obj(
			value.M("key", value.Str(p.Key)),
			value.M("fetchedAt", value.Int(p.Meta.FetchedAt)),
			value.M("result", orNull(p.Result)),
		))
	}
	return value.Obj(
		value.M("version", value.Int(SnapshotVersion)),
		value.M("entities", value.Obj(ents...)),
		value.M("endpoints", value.Obj(results...)),
		value.M("meta", value.Obj(metas...)),
		value.M("entitiesMeta", value.Obj(entMetas...)),
		value.M("optimistic", value.Arr(opt...)),
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
