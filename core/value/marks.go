package value

import (
	"errors"
	"strings"
)

// Marked JSON is JSON text that keeps undefined members and elements,
// which JSON cannot spell, for data crossing from JavaScript to Go
// (normalize's data, denormalize's result and tables, setResponse's
// data; the other way the wire keeps undefined), where
// data-client keeps {results: undefined} and [undefined, "1"] as they are.
//
// Text with no undefined in it is plain JSON. Text with some is a NUL
// byte, the marks as JSON, a NUL byte, then the data as JSON with each
// undefined written as null. JSON never holds a raw NUL (JSON.stringify
// escapes it), so the first byte tells the two apart. The
// marks are an object whose keys are the data's member keys and array
// indexes (decimal): 0 marks that member or element undefined; an object
// holds the marks inside it. [undefined, {"a": undefined}] is
// "\x00{\"0\":0,\"1\":{\"a\":0}}\x00[null,{\"a\":null}]".
const markByte = 0

// ParseMarked parses marked JSON (see above) as ParseLazy parses JSON,
// with the marked members and elements Undefined.
func ParseMarked(s string) (Value, error) {
	if s == "" || s[0] != markByte {
		return ParseLazy(s)
	}
	end := strings.IndexByte(s[1:], markByte)
	if end < 0 {
		return Undef, errBadMarks
	}
	marks, err := ParseLazy(s[1 : 1+end])
	if err != nil {
		return Undef, errBadMarks
	}
	v, err := ParseLazy(s[2+end:])
	if err != nil {
		return Undef, err
	}
	return withUndefined(v, marks)
}

// errBadMarks is ParseMarked's error for marks that do not fit the data.
// Marks are written by datafetch's own JavaScript: this is a bug there, so
// the error says what, not where.
var errBadMarks = errors.New("marked JSON: the marks do not fit the data")

// withUndefined returns v as the mark m says: Undefined for 0 (v must be
// the null written in its place), or v with the members and elements that
// the marks object m holds marked.
func withUndefined(v, m Value) (Value, error) {
	if m.kind == Number && m.raw == "0" && v.kind == Null {
		return Undef, nil
	}
	if m.kind != Object || v.kind != Array && v.kind != Object {
		return Undef, errBadMarks
	}
	var err error
	if v.kind == Array {
		elems := append([]Value(nil), v.Elems()...)
		for _, mm := range m.Members() {
			i := index(mm.Key, len(elems))
			if i < 0 {
				return Undef, errBadMarks
			}
			if elems[i], err = withUndefined(elems[i], mm.Value); err != nil {
				return Undef, err
			}
		}
		return Arr(elems...), nil
	}
	members := append([]Member(nil), v.Members()...)
	for _, mm := range m.Members() {
		i, _ := v.Find(mm.Key)
		if i < 0 {
			return Undef, errBadMarks
		}
		if members[i].Value, err = withUndefined(members[i].Value, mm.Value); err != nil {
			return Undef, err
		}
	}
	return Obj(members...), nil
}

// index returns the array index key spells (decimal, no leading zero),
// or -1 when it spells none below n.
func index(key string, n int) int {
	if key == "" || len(key) > 1 && key[0] == '0' {
		return -1
	}
	i := 0
	for _, c := range []byte(key) {
		if c < '0' || c > '9' || i >= n {
			return -1
		}
		i = i*10 + int(c-'0')
	}
	if i >= n {
		return -1
	}
	return i
}
