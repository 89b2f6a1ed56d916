package wire

import (
	"fmt"
	"math"
	"strconv"

	"github.com/datafetch/datafetch/core/value"
)

// Match reports how n, a decoded value, differs from v, the value Go
// wrote, as JSON.parse of v's JSON would see it: undefined members left
// out, undefined elements null, numbers as the nearest double (-0 kept),
// strings by code unit. A Date matches the number or string it was made
// of; which positions are Dates the caller checks. nil when they match.
func Match(n *Node, v value.Value) error { return match(n, v, "$") }

func match(n *Node, v value.Value, at string) error {
	if n.Kind == Date {
		n = n.Of
	}
	want := map[value.Kind]Kind{value.Undefined: Undefined, value.Null: Null, value.Bool: Bool,
		value.Number: Number, value.String: String, value.Array: Array, value.Object: Object}[v.Kind()]
	if n.Kind != want {
		return fmt.Errorf("%s: decoded %s, want %s", at, n, v)
	}
	switch v.Kind() {
	case value.Bool:
		if n.Bool != v.Boolean() {
			return fmt.Errorf("%s: decoded %v, want %v", at, n.Bool, v.Boolean())
		}
	case value.Number:
		f, _ := strconv.ParseFloat(v.Raw(), 64)
		if math.Float64bits(f) != math.Float64bits(n.Num) {
			return fmt.Errorf("%s: decoded %v, want %s", at, n.Num, v.Raw())
		}
	case value.String:
		if n.Str != v.Str() {
			return fmt.Errorf("%s: decoded %q, want %q", at, n.Str, v.Str())
		}
	case value.Array:
		if len(n.Elems) != v.Len() {
			return fmt.Errorf("%s: decoded %d elements, want %d", at, len(n.Elems), v.Len())
		}
		for i, e := range v.Elems() {
			if e.IsUndefined() {
				e = value.NullV
			}
			if err := match(n.Elems[i], e, at+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case value.Object:
		i := 0
		for _, m := range v.Members() {
			if m.Value.IsUndefined() {
				continue
			}
			if i >= len(n.Keys) || n.Keys[i] != m.Key {
				return fmt.Errorf("%s: decoded keys %q, want %q next at %d", at, n.Keys, m.Key, i)
			}
			if err := match(n.Vals[i], m.Value, at+"."+strconv.Quote(m.Key)); err != nil {
				return err
			}
			i++
		}
		if i != len(n.Keys) {
			return fmt.Errorf("%s: decoded keys %q, %d more than wanted", at, n.Keys, len(n.Keys)-i)
		}
	}
	return nil
}
