package value

import "unsafe"

// AppendJSON appends v to dst as compact JSON and returns the extended
// buffer. Undefined, which JSON cannot spell, is treated as JSON.stringify
// treats undefined: an object member whose value is Undefined is left out,
// an Undefined array element is written as null, and an Undefined v appends
// nothing at all.
//
// Strings and numbers already hold JSON text, so writing them is a copy.
func AppendJSON(dst []byte, v Value) []byte {
	switch v.kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		if v.Boolean() {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Number:
		return append(dst, v.raw...)
	case String:
		dst = append(dst, '"')
		dst = append(dst, v.raw...)
		return append(dst, '"')
	case Array:
		dst = append(dst, '[')
		elems := v.elems()
		for i := range elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			if elems[i].kind == Undefined {
				dst = append(dst, "null"...)
			} else {
				dst = AppendJSON(dst, elems[i])
			}
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		first := true
		members := v.members()
		for i := range members {
			m := &members[i]
			if m.Value.kind == Undefined {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendKey(dst, m.Key)
			dst = AppendJSON(dst, m.Value)
		}
		return append(dst, '}')
	}
	return dst
}

// SizeHint returns about how many bytes AppendJSON appends for v, for a
// caller to reserve them at once: a large output grown by append leaves
// each smaller buffer behind as garbage, several times the output in all.
// It walks only what was built; for a parsed Array or Object it counts the
// text it was parsed from, which is exact for compact JSON and an
// overestimate by the whitespace otherwise (a key whose escapes differ
// from how AppendJSON writes them may make it off by a few bytes).
func SizeHint(v Value) int {
	switch v.kind {
	case Null:
		return len("null")
	case Bool, Number:
		return len(v.raw)
	case String:
		return len(v.raw) + 2
	case Array:
		if v.raw != "" {
			return len(v.raw)
		}
		n := 2 // []
		for i, el := range v.elems() {
			if i > 0 {
				n++
			}
			if el.kind == Undefined {
				n += len("null")
			} else {
				n += SizeHint(el)
			}
		}
		return n
	case Object:
		if v.raw != "" {
			return len(v.raw)
		}
		if v.esc && v.n > 0 {
			// A patched object (see Patched): about its base's text.
			return (*node)(v.kids).textLen()
		}
		n := 2 // {}
		first := true
		members := v.members()
		for i := range members {
			m := &members[i]
			if m.Value.kind == Undefined {
				continue
			}
			if !first {
				n++
			}
			first = false
			n += len(m.Key) + 3 + SizeHint(m.Value) // "key":value
		}
		return n
	}
	return 0
}

// appendKey appends an object key, quoted, and the colon after it. Keys are
// held decoded, so unlike string values they may need escaping.
func appendKey(dst []byte, key string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, key)
	return append(dst, '"', ':')
}

// AppendString appends the Go text s as a JSON string: quoted, escaped
// where JSON requires it. It writes what AppendJSON writes for Str(s).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s)
	return append(dst, '"')
}

// JSON returns v as compact JSON, as AppendJSON writes it; "" for Undefined.
//
//go:noinline
func (v Value) JSON() string {
	b := AppendJSON(nil, v)
	// b is never written again, so it can back the string without a copy.
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// String returns v as compact JSON for debugging and test failure messages.
// Unlike JSON, it spells a top-level Undefined "undefined" so an absent
// value does not print as nothing.
func (v Value) String() string {
	if v.kind == Undefined {
		return "undefined"
	}
	return v.JSON()
}
