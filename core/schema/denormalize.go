package schema

import "github.com/datafetch/datafetch/core/value"

// Slot is the store's cell for one entity. The store owns it, sets Value,
// Deleted and Meta, and bumps Version on every visible change (including
// removal); denormalization keeps its memo of the entity's read form here,
// valid while the versions it was built from hold.
type Slot struct {
	Key, PK string
	// Value is the normalized record readers see.
	Value   value.Value
	Deleted bool
	Meta    Meta
	Version uint64

	memo entityMemo
}

// Source looks up entity slots; nil means the entity is not stored.
type Source interface {
	Slot(key, pk string) *Slot
}

type dep struct {
	key, pk string
	slot    *Slot // nil: the entity was absent
	version uint64
}

func (d dep) valid(src Source) bool {
	if d.slot == nil {
		return src.Slot(d.key, d.pk) == nil
	}
	return d.slot.Version == d.version
}

type entityMemo struct {
	entity *Entity
	val    value.Value
	st     Status
	deps   []dep
}

// Memo caches the denormalized form of one stored result. The zero Memo is
// empty; a store keeps one per result.
type Memo struct {
	schema       Schema
	input        value.Value
	val          value.Value
	st           Status
	deps         []dep
	storeVersion uint64
	built        bool
}

// Denormalize rebuilds the data of result (as Normalize returned it) from
// src. With a memo it returns the identical value while nothing it depends on
// changed: at once when storeVersion is the one of the last read, after a
// check of its dependencies otherwise. When an entity changed, only the
// entities containing it are rebuilt; the others keep their identity.
func Denormalize(s Schema, result value.Value, src Source, memo *Memo, storeVersion uint64) (value.Value, Status) {
	if s == nil {
		return result, Found
	}
	if memo != nil && memo.built && memo.schema == s && value.Same(memo.input, result) {
		if memo.storeVersion == storeVersion {
			return memo.val, memo.st
		}
		if depsValid(memo.deps, src) {
			memo.storeVersion = storeVersion
			return memo.val, memo.st
		}
	}
	d := &denormalizer{src: src}
	v, st := s.denormalize(result, d)
	if memo != nil {
		*memo = Memo{schema: s, input: result, val: v, st: st, deps: d.deps, storeVersion: storeVersion, built: true}
	}
	return v, st
}

func depsValid(deps []dep, src Source) bool {
	for _, d := range deps {
		if !d.valid(src) {
			return false
		}
	}
	return true
}

type denormalizer struct {
	src  Source
	deps []dep
	// path holds the slots being built, to cut cycles.
	path []*Slot
	// cuts counts cycle cuts; an entity whose build saw one is not memoized,
	// because its form depends on where the cycle was entered.
	cuts int
}

func (d *denormalizer) onPath(s *Slot) bool {
	for _, p := range d.path {
		if p == s {
			return true
		}
	}
	return false
}

func (e *Entity) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	pk, ok := v.Text()
	if !ok || v.IsNull() {
		// null stays null; an inline record (never normalized) is read as is.
		return v, Found
	}
	slot := d.src.Slot(e.Key, pk)
	if slot == nil {
		d.deps = append(d.deps, dep{key: e.Key, pk: pk})
		return value.Undef, Missing
	}
	if m := &slot.memo; m.entity == e && m.deps != nil && depsValid(m.deps, d.src) {
		d.deps = append(d.deps, m.deps...)
		return m.val, m.st
	}
	start := len(d.deps)
	d.deps = append(d.deps, dep{key: e.Key, pk: pk, slot: slot, version: slot.Version})
	if slot.Deleted {
		return value.Undef, Deleted
	}
	if d.onPath(slot) {
		d.cuts++
		return e.fill(slot.Value), Found
	}
	cuts := d.cuts
	d.path = append(d.path, slot)
	out, st := e.build(slot.Value, d)
	d.path = d.path[:len(d.path)-1]
	if d.cuts == cuts {
		slot.memo = entityMemo{entity: e, val: out, st: st, deps: append([]dep(nil), d.deps[start:]...)}
	}
	return out, st
}

// fill returns the record with defaults for absent fields, nested entities
// left as keys.
func (e *Entity) fill(rec value.Value) value.Value {
	defs := e.Defaults.Members()
	out := make([]value.Member, 0, len(defs)+rec.Len())
	for _, m := range defs {
		if v := rec.Get(m.Key); !v.IsUndefined() {
			out = append(out, value.M(m.Key, v))
		} else {
			out = append(out, m)
		}
	}
	for _, m := range rec.Members() {
		if !e.Defaults.Has(m.Key) {
			out = append(out, m)
		}
	}
	return value.Obj(out...)
}

// build denormalizes a stored record: defaults filled, nested schemas read.
// A nested entity that was deleted makes the whole record count as deleted,
// so that a list leaves it out and a single read fetches again.
func (e *Entity) build(rec value.Value, d *denormalizer) (value.Value, Status) {
	out := e.fill(rec)
	st := Found
	members := out.Members()
	for _, f := range e.nestedFields() {
		i, child := memberIndex(out, f.Name)
		if i < 0 {
			continue
		}
		v, cst := f.Schema.denormalize(child, d)
		if cst == Deleted {
			st = Deleted
		}
		members[i].Value = v
	}
	return out, st
}

func (a *Array) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	if v.Kind() != value.Array {
		return v, Found
	}
	out := make([]value.Value, 0, v.Len())
	for _, el := range v.Elems() {
		dv, st := a.Of.denormalize(el, d)
		if st != Found || dv.IsUndefined() {
			continue
		}
		out = append(out, dv)
	}
	return value.Arr(out...), Found
}

func (o *Object) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	if v.Kind() != value.Object {
		return v, Found
	}
	members := append(make([]value.Member, 0, v.Len()+len(o.Fields)), v.Members()...)
	st := Found
	for _, f := range o.Fields {
		i, child := memberIndex(v, f.Name)
		if f.Schema == nil {
			if i < 0 && !f.Default.IsUndefined() {
				members = append(members, value.M(f.Name, f.Default))
			}
			continue
		}
		if i < 0 {
			continue
		}
		dv, cst := f.Schema.denormalize(child, d)
		st = worse(st, cst)
		members[i].Value = dv
	}
	return value.Obj(members...), st
}

func (vs *Values) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	if v.Kind() != value.Object {
		return v, Found
	}
	members := make([]value.Member, 0, v.Len())
	for _, m := range v.Members() {
		dv, st := vs.Of.denormalize(m.Value, d)
		if st != Found || dv.IsUndefined() {
			continue
		}
		members = append(members, value.M(m.Key, dv))
	}
	return value.Obj(members...), Found
}

func (u *Union) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	if v.Kind() != value.Object {
		return v, Found
	}
	name, _ := v.Get("schema").Text()
	e := u.Schemas[name]
	if e == nil {
		return value.Undef, Missing
	}
	return e.denormalize(v.Get("id"), d)
}

func (i *Invalidate) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	out, st := i.Entity.denormalize(v, d)
	if st == Deleted {
		// A delete's own result names what it deleted; that is not a reason
		// to fetch it again.
		st = Found
	}
	return out, st
}

func (dateSchema) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	return v, Found
}
