package wire

import (
	"math"
	"slices"
	"strconv"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Match reports how n, a decoded value, differs from v, the value Go
// wrote: as JSON.parse of v's JSON would see it, but that undefined
// members and elements stay undefined; numbers as the nearest double (-0 kept),
// strings by code unit. A Date matches the number or string it was made
// of; which positions are Dates the caller checks. nil when they match.
func Match(n *Node, v value.Value) error { return match(n, v, "$") }

// MatchGraph is Match for a read of cyclic entities, which Go reads as a
// tree and JavaScript builds as a graph: where the read comes back to a
// record around it, Go shows the record cut (its nested entities as keys,
// as stored) and JavaScript refers back to the object being built; and a
// record Go shows cut is one object wherever JavaScript shows it. So where
// n is an object around it, or v a key (a string or number) and n an
// object, or v an object that differs from n, recordOf tells whether n is
// the record v stands for (a key, or a record cut). A key in v may be
// missing from n: the record of a missing entity is left out.
func MatchGraph(n *Node, v value.Value, recordOf func(n *Node, v value.Value) bool) error {
	return (&matcher{recordOf: recordOf}).match(n, v, "$")
}

// matcher holds what a match carries down: the graph rule, and the objects
// being matched around the current position.
type matcher struct {
	recordOf func(*Node, value.Value) bool
	open     []*Node
}

func match(n *Node, v value.Value, at string) error { return (&matcher{}).match(n, v, at) }

func (m *matcher) match(n *Node, v value.Value, at string) error {
	if n.Kind == Date {
		n = n.Of
	}
	if m.recordOf != nil && n.Kind == Object {
		k := v.Kind()
		if slices.Contains(m.open, n) || k == value.String || k == value.Number {
			if !m.recordOf(n, v) {
				return fmtlite.Errorf("%s: decoded %s, want the record %s stands for", at, n, v)
			}
			return nil
		}
		m.open = append(m.open, n)
		defer func() { m.open = m.open[:len(m.open)-1] }()
	}
	want := map[value.Kind]Kind{value.Undefined: Undefined, value.Null: Null, value.Bool: Bool,
		value.Number: Number, value.String: String, value.Array: Array, value.Object: Object}[v.Kind()]
	if n.Kind != want {
		return fmtlite.Errorf("%s: decoded %s, want %s", at, n, v)
	}
	switch v.Kind() {
	case value.Bool:
		if n.Bool != v.Boolean() {
			return fmtlite.Errorf("%s: decoded %v, want %v", at, n.Bool, v.Boolean())
		}
	case value.Number:
		f, _ := strconv.ParseFloat(v.Raw(), 64)
		if math.Float64bits(f) != math.Float64bits(n.Num) {
			return fmtlite.Errorf("%s: decoded %v, want %s", at, n.Num, v.Raw())
		}
	case value.String:
		if n.Str != v.Str() {
			return fmtlite.Errorf("%s: decoded %q, want %q", at, n.Str, v.Str())
		}
	case value.Array:
		if m.recordOf != nil {
			return m.matchList(n, v, at)
		}
		if len(n.Elems) != v.Len() {
			return fmtlite.Errorf("%s: decoded %d elements, want %d", at, len(n.Elems), v.Len())
		}
		for i, e := range v.Elems() {
			if err := m.match(n.Elems[i], e, at+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case value.Object:
		err := m.matchObject(n, v, at)
		if err != nil && m.recordOf != nil && m.recordOf(n, v) {
			return nil // v is the record cut: it stands for n
		}
		return err
	}
	return nil
}

func (m *matcher) matchObject(n *Node, v value.Value, at string) error {
	i := 0
	for _, mem := range v.Members() {
		if i >= len(n.Keys) || n.Keys[i] != mem.Key {
			if k := mem.Value.Kind(); m.recordOf != nil && (k == value.String || k == value.Number) {
				continue // the key of a record that is missing: the object leaves it out
			}
			return fmtlite.Errorf("%s: decoded keys %q, want %q next at %d", at, n.Keys, mem.Key, i)
		}
		if err := m.match(n.Vals[i], mem.Value, at+"."+strconv.Quote(mem.Key)); err != nil {
			return err
		}
		i++
	}
	if i != len(n.Keys) {
		return fmtlite.Errorf("%s: decoded keys %q, %d more than wanted", at, n.Keys, len(n.Keys)-i)
	}
	return nil
}

// matchList matches a list under MatchGraph's rule, where a key in v may
// stand for a missing record the decoded list leaves out.
func (m *matcher) matchList(n *Node, v value.Value, at string) error {
	j := 0
	for i, e := range v.Elems() {
		var err error
		if j < len(n.Elems) {
			err = m.match(n.Elems[j], e, at+"["+strconv.Itoa(i)+"]")
		} else {
			err = fmtlite.Errorf("%s: decoded %d elements, want more", at, len(n.Elems))
		}
		if err == nil {
			j++
		} else if k := e.Kind(); k != value.String && k != value.Number {
			return err
		}
	}
	if j != len(n.Elems) {
		return fmtlite.Errorf("%s: decoded %d elements, %d more than wanted", at, len(n.Elems), len(n.Elems)-j)
	}
	return nil
}
