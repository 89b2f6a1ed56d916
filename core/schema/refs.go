package schema

import "github.com/datafetch/datafetch/core/value"

// Refs calls f for every entity that v, a value of s as Normalize returned
// it (a stored result, or a stored record's nested field), names directly:
// the entity and the pk under which a read of v would look it up. Entities
// nested in those entities' own records are not followed: RecordRefs gives
// them, so that a caller walking a graph of records (the store's garbage
// collection) visits each record once. It reads what denormalize reads,
// so an entity that Refs does not name is one that no read of v depends on.
// For an entity's field that is a Lens, e is the Lens's table of cells and
// pk names every cell of the record, whatever its lens (CellRecord).
func Refs(s Schema, v value.Value, f func(e *Entity, pk string)) {
	switch s := s.(type) {
	case *Entity:
		if s == nil {
			return
		}
		if pk, ok := v.Text(); ok && !v.IsNull() {
			f(s, pk)
		}
	case *Invalidate:
		if s != nil {
			Refs(s.Entity, v, f)
		}
	case *Lens:
		if s == nil {
			return
		}
		switch v.Kind() {
		case value.String: // a standalone cell's key
			f(s.table, v.Str())
		case value.Array:
			// An entity field's reference: a read's args choose the
			// cell, so every cell of the record is named, by the
			// record's part of their keys (see CellTable).
			if ref := v.Elems(); len(ref) == 3 {
				f(s.table, cellKey(ref[2].Str(), ref[0].Str(), ""))
			}
		}
	case *Union:
		if s == nil || v.Kind() != value.Object {
			return
		}
		name, _ := v.Get("schema").Text()
		if m := s.Schemas[name]; m != nil {
			Refs(m, v.Get("id"), f)
		}
	case *Array:
		if s == nil || v.Kind() != value.Array {
			return
		}
		for _, el := range v.Elems() {
			Refs(s.Of, el, f)
		}
	case *Values:
		if s == nil || v.Kind() != value.Object {
			return
		}
		for _, m := range v.Members() {
			Refs(s.Of, m.Value, f)
		}
	case *Collection:
		// The result holds the collection's pk; its record, the list,
		// is followed by RecordRefs of the collection's table entity.
		if pk, ok := v.Text(); ok && s != nil && !v.IsNull() {
			f(s.entity(), pk)
		}
	case *CollectionAdd:
		if s != nil && s.Collection != nil {
			Refs(s.elem(), v, f)
		}
	case *Lazy:
		// Not read by the parent, but what its query reads: a sweep keeps
		// what the parent names, so that the query can still find it.
		if s != nil {
			Refs(s.Of, v, f)
		}
	case *LazyQuery:
		if s != nil {
			Refs(s.Of, v, f)
		}
	case *Object:
		if s == nil || v.Kind() != value.Object {
			return
		}
		for _, fl := range s.Fields {
			if fl.Schema == nil {
				continue
			}
			if i, child := v.Find(fl.Name); i >= 0 {
				Refs(fl.Schema, child, f)
			}
		}
	}
}

// RecordRefs calls f for every entity that rec, a stored (normalized)
// record of e, names in its nested fields (e.Schema), as Refs does for a
// result.
func (e *Entity) RecordRefs(rec value.Value, f func(e *Entity, pk string)) {
	if e.collection != nil {
		// A Collection's record is its list (or map) of pks.
		Refs(e.collection.Of, rec, f)
		return
	}
	if rec.Kind() != value.Object {
		return
	}
	for _, fl := range e.nestedFields() {
		if i, child := rec.Find(fl.Name); i >= 0 {
			Refs(fl.Schema, child, f)
		}
	}
}
