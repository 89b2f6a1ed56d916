package value

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Marked JSON is JSON text that keeps undefined members and elements,
// which JSON cannot spell, for data crossing between Go and JavaScript
// (normalize's input and output, denormalize's result and tables), where
// data-client keeps {results: undefined} and [undefined, "1"] as they are.
//
// Text with no undefined in it is plain JSON. Text with some is a NUL
// byte, the marks as JSON, a NUL byte, then the data as JSON with each
// undefined written as null. JSON never holds a raw NUL (JSON.stringify
// and AppendJSON escape it), so the first byte tells the two apart. The
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
		return Undef, errors.New("marked JSON: no NUL byte after the marks")
	}
	marks, err := ParseString(s[1 : 1+end])
	if err != nil {
		return Undef, fmt.Errorf("marked JSON: marks: %w", err)
	}
	v, err := ParseLazy(s[2+end:])
	if err != nil {
		return Undef, err
	}
	return withUndefined(v, marks, "")
}

// withUndefined returns v with the members and elements marks marks
// Undefined; where is the path of v for errors.
func withUndefined(v, marks Value, where string) (Value, error) {
	if marks.Kind() != Object {
		return Undef, fmt.Errorf("marked JSON: marks%s: expected an object, got %s", where, marks.Kind())
	}
	switch v.Kind() {
	case Array:
		elems := append([]Value(nil), v.Elems()...)
		for _, m := range marks.Members() {
			i, err := strconv.Atoi(m.Key)
			if err != nil || i < 0 || i >= len(elems) || strconv.Itoa(i) != m.Key {
				return Undef, fmt.Errorf("marked JSON: marks%s: %q is not an index of the array", where, m.Key)
			}
			if elems[i], err = marked(elems[i], m.Value, where+"["+m.Key+"]"); err != nil {
				return Undef, err
			}
		}
		return Arr(elems...), nil
	case Object:
		members := append([]Member(nil), v.Members()...)
		for _, m := range marks.Members() {
			i, _ := v.Find(m.Key)
			if i < 0 {
				return Undef, fmt.Errorf("marked JSON: marks%s: no member %q", where, m.Key)
			}
			var err error
			if members[i].Value, err = marked(members[i].Value, m.Value, where+"."+m.Key); err != nil {
				return Undef, err
			}
		}
		return Obj(members...), nil
	}
	return Undef, fmt.Errorf("marked JSON: marks%s: the data there is %s, not an array or object", where, v.Kind())
}

// marked returns v as mark m says: Undefined for 0 (v must be the null
// written in its place), or v with the marks inside it.
func marked(v, m Value, where string) (Value, error) {
	if m.Kind() == Number && m.Raw() == "0" {
		if !v.IsNull() {
			return Undef, fmt.Errorf("marked JSON: marks%s: marks %s undefined, which is written as null", where, v.Kind())
		}
		return Undef, nil
	}
	return withUndefined(v, m, where)
}

// MarkedJSON returns v as marked JSON (see ParseMarked): JSON, as v.JSON
// writes it, when v holds no Undefined member or element.
func MarkedJSON(v Value) string {
	marks, ok := undefMarks(v)
	if !ok {
		return v.JSON()
	}
	b := append([]byte{markByte}, AppendJSON(nil, marks)...)
	b = append(b, markByte)
	b = appendNulled(b, v)
	return string(b)
}

// undefMarks returns the marks of v's Undefined members and elements, and
// whether it has any. An array or object parsed from JSON (one with a
// Source) has none, so only what was built is walked.
func undefMarks(v Value) (Value, bool) {
	if v.Source() != "" {
		return Undef, false
	}
	var marks []Member
	switch v.Kind() {
	case Array:
		for i, el := range v.Elems() {
			if el.IsUndefined() {
				marks = append(marks, M(strconv.Itoa(i), zeroMark))
			} else if inner, ok := undefMarks(el); ok {
				marks = append(marks, M(strconv.Itoa(i), inner))
			}
		}
	case Object:
		for _, m := range v.Members() {
			if m.Value.IsUndefined() {
				marks = append(marks, M(m.Key, zeroMark))
			} else if inner, ok := undefMarks(m.Value); ok {
				marks = append(marks, M(m.Key, inner))
			}
		}
	}
	if marks == nil {
		return Undef, false
	}
	return Obj(marks...), true
}

// zeroMark marks an undefined member or element.
var zeroMark = Value{hdr: hdr{kind: Number}, raw: "0"}

// appendNulled appends v as AppendJSON does, but for an object's
// Undefined members, which it writes as null rather than leaving out.
func appendNulled(dst []byte, v Value) []byte {
	if v.Source() != "" {
		return AppendJSON(dst, v)
	}
	switch v.Kind() {
	case Array:
		dst = append(dst, '[')
		for i, el := range v.Elems() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNulled(dst, el)
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		for i, m := range v.Members() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendKey(dst, m.Key)
			dst = appendNulled(dst, m.Value)
		}
		return append(dst, '}')
	case Undefined:
		return append(dst, "null"...)
	}
	return AppendJSON(dst, v)
}
