package jsbridge

import (
	"math/bits"
	"strconv"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// keptList writes v, an array of entities, against the array at the same
// place in the result's previous emission, which JavaScript holds: an
// element that is the same value at the same index is written as 0, and one
// op lists the index ranges of those elements, for decode to copy from the
// previous array. After one change to a list of N entities, that is one
// short op instead of N ref ops to write, parse and apply. The place is the
// top of the result or a member of it, as the list of a {results, nextPage}
// page, reached through object members only. It reports whether it wrote v;
// it does not when there is no previous array there.
func (e *encoder) keptList(v value.Value, of schema.Schema) bool {
	if e.prevTopID == 0 || !isIdentified(of) {
		return false
	}
	before := e.prevTop
	for _, p := range e.path {
		if p.index >= 0 {
			return false
		}
		before = before.Get(p.key)
	}
	if before.Kind() != value.Array {
		return false
	}
	prev := before.Elems()
	var ranges []int
	from := -1
	e.data = append(e.data, '[')
	for i, el := range v.Elems() {
		if i > 0 {
			e.data = append(e.data, ',')
		}
		if i < len(prev) && value.Same(el, prev[i]) {
			if id, ok := e.t.lookup(el); ok {
				e.t.retain(id)
				*e.held = append(*e.held, id)
				e.data = append(e.data, '0')
				if from < 0 {
					from = i
				}
				continue
			}
		}
		if from >= 0 {
			ranges = append(ranges, from, i)
			from = -1
		}
		if i < len(prev) && e.keptEntity(el, prev[i], of, i) {
			continue
		}
		e.element(i, el, of)
	}
	if from >= 0 {
		ranges = append(ranges, from, v.Len())
	}
	e.data = append(e.data, ']')
	if len(ranges) > 0 {
		e.ops = append(e.ops, '[', '0'+opKept, ',')
		e.ops = strconv.AppendUint(e.ops, uint64(e.prevTopID), 10)
		e.ops = append(e.ops, ',', '[')
		for i, r := range ranges {
			if i > 0 {
				e.ops = append(e.ops, ',')
			}
			e.ops = strconv.AppendInt(e.ops, int64(r), 10)
		}
		e.ops = append(e.ops, ']')
		e.appendPath()
		e.ops = append(e.ops, ']', ',')
	}
	return true
}

// keptEntity writes el, the entity at index i of the list being written,
// as a change to before, the entity at that index in the previous list,
// when JavaScript holds before and most members are the same: the data
// holds only the members that differ, and an op after their own ops tells
// decode to lay them over a shallow copy of before. When a shared entity
// changes (an author of many articles), each article containing it then
// costs its author's reference instead of its whole text. It reports
// whether it wrote el; it leaves everything as it was when it does not.
func (e *encoder) keptEntity(el, before value.Value, of schema.Schema, i int) bool {
	ent, ok := of.(*schema.Entity)
	if !ok || el.Kind() != value.Object || before.Kind() != value.Object {
		return false
	}
	prevID, ok := e.t.lookup(before)
	if !ok {
		return false
	}
	id := value.Identity(el)
	if id == 0 || e.t.entries[id] != nil {
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
	e.path = append(e.path, pathSeg{index: i})
	e.data = append(e.data, '{')
	first := true
	for k := range now {
		if differ&(1<<k) == 0 {
			continue
		}
		e.member(now[k], fields.of(now[k].Key), first)
		first = false
	}
	e.data = append(e.data, '}')
	e.ops = append(e.ops, '[', '0'+opOver, ',')
	e.ops = strconv.AppendUint(e.ops, uint64(prevID), 10)
	e.ops = append(e.ops, ',')
	e.ops = strconv.AppendUint(e.ops, uint64(id), 10)
	e.appendPath()
	e.ops = append(e.ops, ']', ',')
	e.path = e.path[:len(e.path)-1]
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
	plain := s == nil || schema.IsDate(s)
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
