package value

import "strings"

// Detach returns a copy of v that shares no memory with the text v was
// parsed from: its strings are copies and its arrays and objects are built
// (so it has no Source). A value parsed from a large response keeps the
// whole response text, and its tape, alive for as long as it lives; a
// store that keeps a few records of such a response detaches them, so
// that the rest can be collected. Detach(v) is Equal to v.
func Detach(v Value) Value {
	switch v.kind {
	case String, Number:
		return Value{hdr: v.hdr, raw: strings.Clone(v.raw)}
	case Array:
		elems := v.AppendElems(make([]Value, 0, v.n))
		for i := range elems {
			elems[i] = Detach(elems[i])
		}
		return Arr(elems...)
	case Object:
		members := v.AppendMembers(make([]Member, 0, v.n))
		for i := range members {
			members[i] = Member{Key: strings.Clone(members[i].Key), Value: Detach(members[i].Value)}
		}
		return Obj(members...)
	case Bool:
		// The package's own "true" and "false", not the text's.
		return BoolV(v.raw == "true")
	}
	return v // undefined and null hold nothing
}
