package encode

import (
	"math/bits"
	"slices"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// keptList writes v, an array of entities, against the array at the same
// place in the result's previous emission, which JavaScript holds: a run of
// elements that are the same values at the same indices is one wire.OpKeep,
// for decode to copy from the previous array. After one change to a list of
// N entities, that is a few bytes instead of N refs to write and read. The
// place is the top of the result or a member of it, as the list of a
// {results, nextPage} page, reached through object members only. It
// reports whether it wrote v; it does not when there is no previous array
// there.
func (e *encoder) keptList(v value.Value, of schema.Schema) bool {
	if e.prevTopEnt == nil || e.inList > 0 || !isIdentified(of) {
		return false
	}
	before := e.prevTop
	for _, k := range e.path {
		before = before.Get(k)
	}
	if before.Kind() != value.Array {
		return false
	}
	prev := before.Elems()
	elems := v.Elems()
	e.w.KeptList(uint64(e.prevTopEnt.wire), e.path, len(elems))
	// A reference per element, kept or written, at once rather than by
	// doubling from the one a new entry holds inline: after one shared
	// entity changed in a list of 1,000, the doublings were a fifth of
	// what the read and its encoding allocated.
	*e.held = slices.Grow(*e.held, len(elems))
	e.inList++
	kept := 0
	for i, el := range elems {
		if i < len(prev) && value.Same(el, prev[i]) {
			if id, ent := e.t.find(el); ent != nil {
				ent.refs++ // retained: one lookup for both
				*e.held = append(*e.held, id)
				kept++
				continue
			}
		}
		if kept > 0 {
			e.w.Keep(kept)
			kept = 0
		}
		if i < len(prev) && e.keptEntity(el, prev[i], of) {
			continue
		}
		e.element(el, of)
	}
	if kept > 0 {
		e.w.Keep(kept)
	}
	e.inList--
	return true
}

// keptEntity writes el, an entity of the list being written, as a change
// to before, the entity at that index in the previous list, when
// JavaScript holds before and most members are the same: only the members
// that differ are written, for decode to set on a shallow copy of before
// (wire.OpOver). When a shared entity changes (an author of many
// articles), each article containing it then costs its author's reference
// instead of its whole text. It reports whether it wrote el; it leaves
// everything as it was when it does not.
func (e *encoder) keptEntity(el, before value.Value, of schema.Schema) bool {
	ent, ok := of.(*schema.Entity)
	if !ok || el.Kind() != value.Object || before.Kind() != value.Object {
		return false
	}
	_, prevEnt := e.t.find(before)
	if prevEnt == nil {
		return false
	}
	id := value.Identity(el)
	if id == 0 || e.t.entries.get(id) != nil {
		return false
	}
	now, was := el.Members(), before.Members()
	if len(now) != len(was) || len(now) > 64 {
		return false
	}
	fields := memberSchemas{fields: ent.Fields()}
	// First, decide without writing anything: which members differ (a bit
	// each), and the ids of the entities among the members kept.
	var differ uint64
	shared := e.shared[:0]
	for k := range now {
		s := fields.of(now[k].Key)
		kept, child, ok := e.compareMember(now[k], was[k], s)
		switch {
		case !ok:
			return false
		case !kept:
			differ |= 1 << k
		case child != 0:
			shared = append(shared, child)
		}
	}
	e.shared = shared
	if 2*bits.OnesCount64(differ) > len(now) {
		return false
	}
	// Then register el, hold what it shares with before, and write the
	// members that differ.
	entry := e.t.insert(id, el)
	entry.refs++
	*e.held = append(*e.held, id)
	saved := e.held
	e.held = &entry.children
	for _, child := range shared {
		e.t.retain(child)
		*e.held = append(*e.held, child)
	}
	e.w.Over(uint64(prevEnt.wire), uint64(entry.wire), bits.OnesCount64(differ))
	n := e.opened
	if n < len(e.open) {
		e.open[n] = building{ent, entry}
		e.opened++
	}
	for k := range now {
		if differ&(1<<k) == 0 {
			continue
		}
		e.w.Key(now[k].Key)
		e.member(now[k], fields.of(now[k].Key))
	}
	e.opened = n
	e.held = saved
	return true
}

// compareMember tells how a, a member of a new record whose schema is s,
// stands against b, the same member of the record JavaScript has: kept as
// it is (with child, the id JavaScript holds for it when it is an entity),
// or to be sent. ok is false when the records cannot be compared member by
// member: different keys, a member present in one only, a nested list or
// object, an entity JavaScript does not hold.
func (e *encoder) compareMember(a, b value.Member, s schema.Schema) (kept bool, child uintptr, ok bool) {
	if a.Key != b.Key || a.Value.IsUndefined() != b.Value.IsUndefined() {
		return false, 0, false
	}
	_, scalar := s.(*schema.Scalar)
	plain := s == nil || schema.IsDate(s) || scalar
	switch {
	case value.Same(a.Value, b.Value):
		if plain || a.Value.IsNullish() {
			return true, 0, true
		}
		if !isIdentified(s) {
			return false, 0, false
		}
		id, held := e.t.lookup(a.Value)
		return held, id, held
	case plain && value.Equal(a.Value, b.Value):
		return true, 0, true
	}
	return false, 0, true
}
