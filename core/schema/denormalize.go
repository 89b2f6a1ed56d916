package schema

import (
	"sync/atomic"

	"github.com/datafetch/datafetch/core/value"
)

// Slot is the store's cell for one entity. The store owns it: it sets Value,
// Deleted and Meta, bumps Version on every visible change, and sets Removed
// when the entity leaves the store. Denormalization keeps the entity's read
// form here, valid while the records it was built from are the very values
// they were (value.Same), so that an entity whose record comes back, as after
// an optimistic update is rolled back, reads as the identical value again.
type Slot struct {
	Key, PK string
	// Value is the normalized record readers see.
	Value   value.Value
	Deleted bool
	Removed bool
	Meta    Meta
	Version uint64

	// memo holds the current read form and the one before it.
	memo [2]entityMemo
	// pass is the last denormalization that listed this slot as a
	// dependency, so a read lists each slot once however often it appears.
	pass uint64
}

// Source looks up entity slots; nil means the entity is not stored.
type Source interface {
	Slot(key, pk string) *Slot
}

// dep is a slot a denormalized value was built from, with the record it held
// then (Undefined when the entity was deleted).
type dep struct {
	slot *Slot
	rec  value.Value
}

func depOn(s *Slot) dep {
	if s.Deleted {
		return dep{slot: s}
	}
	return dep{slot: s, rec: s.Value}
}

func (d dep) valid() bool {
	s := d.slot
	switch {
	case s.Removed:
		return false
	case s.Deleted:
		return d.rec.IsUndefined()
	}
	return !d.rec.IsUndefined() && value.Same(s.Value, d.rec)
}

// deps are what a denormalized value depends on: slots with their records,
// and entities that were absent (rare, so kept apart).
type deps struct {
	slots  []dep
	absent []entityRef
}

type entityRef struct{ key, pk string }

func (ds *deps) valid(src Source) bool {
	for _, d := range ds.slots {
		if !d.valid() {
			return false
		}
	}
	for _, a := range ds.absent {
		if src.Slot(a.key, a.pk) != nil {
			return false
		}
	}
	return true
}

type entityMemo struct {
	entity *Entity
	val    value.Value
	st     Status
	deps   deps
	built  bool
}

// Memo caches the denormalized form of one stored result: the current form,
// and the one before it, which a rollback makes current again. The zero Memo
// is empty; a store keeps one per result.
type Memo struct {
	cur, prev    resultMemo
	storeVersion uint64
}

type resultMemo struct {
	schema Schema
	input  value.Value
	val    value.Value
	st     Status
	deps   deps
	built  bool
}

func (m *resultMemo) fits(s Schema, result value.Value) bool {
	return m.built && m.schema == s && value.Same(m.input, result)
}

// passes numbers denormalizations for Slot.pass.
var passes atomic.Uint64

// Denormalize rebuilds the data of result (as Normalize returned it) from
// src. With a memo it returns the identical value while nothing it depends on
// changed: at once when storeVersion is the one of the last read, after a
// check of its dependencies otherwise. When an entity changed, only the
// entities containing it are rebuilt; the others keep their identity.
func Denormalize(s Schema, result value.Value, src Source, memo *Memo, storeVersion uint64) (value.Value, Status) {
	if s == nil {
		return result, Found
	}
	if memo != nil {
		if memo.cur.fits(s, result) && (memo.storeVersion == storeVersion || memo.cur.deps.valid(src)) {
			memo.storeVersion = storeVersion
			return memo.cur.val, memo.cur.st
		}
		if memo.prev.fits(s, result) && memo.prev.deps.valid(src) {
			memo.cur, memo.prev = memo.prev, memo.cur
			memo.storeVersion = storeVersion
			return memo.cur.val, memo.cur.st
		}
	}
	d := &denormalizer{src: src, pass: passes.Add(1), top: true}
	if memo != nil {
		d.deps.slots = make([]dep, 0, len(memo.cur.deps.slots))
	}
	v, st := s.denormalize(result, d)
	if memo != nil {
		memo.prev = memo.cur
		memo.cur = resultMemo{schema: s, input: result, val: v, st: st, deps: d.deps, built: true}
		memo.storeVersion = storeVersion
	}
	return v, st
}

type denormalizer struct {
	src  Source
	pass uint64
	deps deps
	// top is set while deps is the result-level list.
	top bool
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
		d.deps.absent = append(d.deps.absent, entityRef{e.Key, pk})
		return value.Undef, Missing
	}
	for i := range slot.memo {
		if m := &slot.memo[i]; m.built && m.entity == e && m.deps.valid(d.src) {
			if i == 1 {
				slot.memo[0], slot.memo[1] = slot.memo[1], slot.memo[0]
			}
			d.add(slot.memo[0].deps)
			return slot.memo[0].val, slot.memo[0].st
		}
	}
	if slot.Deleted {
		d.add(deps{slots: []dep{depOn(slot)}})
		return value.Undef, Deleted
	}
	if d.onPath(slot) {
		d.cuts++
		return e.fill(slot.Value), Found
	}
	// Collect this entity's own dependencies apart, for its memo, then add
	// them to the enclosing list.
	outer, outerTop := d.deps, d.top
	d.deps, d.top = deps{slots: []dep{depOn(slot)}}, false
	cuts := d.cuts
	d.path = append(d.path, slot)
	out, st := e.build(slot.Value, d)
	d.path = d.path[:len(d.path)-1]
	own := d.deps
	if d.cuts == cuts {
		slot.memo[1] = slot.memo[0]
		slot.memo[0] = entityMemo{entity: e, val: out, st: st, deps: own, built: true}
	}
	d.deps, d.top = outer, outerTop
	d.add(own)
	return out, st
}

// add appends ds to the dependencies being collected. The result-level list
// takes each slot once (an author shared by a thousand articles is checked
// once per re-read); an entity's own list is short and keeps duplicates.
func (d *denormalizer) add(ds deps) {
	if !d.top {
		d.deps.slots = append(d.deps.slots, ds.slots...)
	} else {
		for _, x := range ds.slots {
			if x.slot.pass != d.pass {
				x.slot.pass = d.pass
				d.deps.slots = append(d.deps.slots, x)
			}
		}
	}
	d.deps.absent = append(d.deps.absent, ds.absent...)
}

// fill returns the record with defaults for absent fields, nested entities
// left as keys, fields in the order of Defaults and then the record's others
// (as data-client's entity classes order them). A record that already starts
// with every default field in that order, the usual case for a server that
// sends what the entity declares, is returned as it is: no copy.
func (e *Entity) fill(rec value.Value) value.Value {
	e.prepare()
	defs, rm := e.Defaults.Members(), rec.Members()
	if len(rm) >= len(defs) {
		same := true
		for i := range defs {
			if rm[i].Key != defs[i].Key {
				same = false
				break
			}
		}
		if same {
			return rec
		}
	}
	out := make([]value.Member, 0, len(defs)+len(rm))
	for _, m := range defs {
		if v := rec.Get(m.Key); !v.IsUndefined() {
			out = append(out, value.M(m.Key, v))
		} else {
			out = append(out, m)
		}
	}
	for _, m := range rm {
		if !e.defaultKeys[m.Key] {
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
	var members []value.Member // copied before the first nested write
	for _, f := range e.nestedFields() {
		i, child := memberIndex(out, f.Name)
		if i < 0 {
			continue
		}
		v, cst := f.Schema.denormalize(child, d)
		if cst == Deleted {
			st = Deleted
		}
		if members == nil {
			members = append(make([]value.Member, 0, out.Len()), out.Members()...)
		}
		members[i].Value = v
	}
	if members != nil {
		out = value.Obj(members...)
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
