package jsbridge

import (
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
		if el.IsUndefined() {
			e.data = append(e.data, "null"...)
			continue
		}
		e.path = append(e.path, pathSeg{index: i})
		e.value(el, of)
		e.path = e.path[:len(e.path)-1]
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
		for _, p := range e.path {
			e.ops = append(e.ops, ',')
			e.ops = value.AppendString(e.ops, p.key)
		}
		e.ops = append(e.ops, ']', ',')
	}
	return true
}
