package value

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarkedJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		v    Value
		want string
	}{
		{"undefined", Undef, ""},
		{"no undefined: plain JSON", Obj(M("a", Arr(Int(1), NullV))), `{"a":[1,null]}`},
		{"parsed: plain JSON", MustParse(`{"a":[1,null]}`), `{"a":[1,null]}`},
		{"undefined element", Arr(Undef, Str("1"), NullV), "\x00{\"0\":0}\x00[null,\"1\",null]"},
		{"undefined member", Obj(M("a", Int(1)), M("b", Undef)), "\x00{\"b\":0}\x00{\"a\":1,\"b\":null}"},
		{"nested", Obj(M("x", Arr(Int(1), Obj(M("y", Undef))))), "\x00{\"x\":{\"1\":{\"y\":0}}}\x00{\"x\":[1,{\"y\":null}]}"},
		{"escaped key", Obj(M("a\"\x00", Undef)), "\x00{\"a\\\"\\u0000\":0}\x00{\"a\\\"\\u0000\":null}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := markedJSON(tt.v)
			assert.Equal(t, tt.want, got)
			if got == "" {
				return
			}
			back, err := ParseMarked(got)
			require.NoError(t, err)
			assert.True(t, Equal(tt.v, back), "%s read back as %s", tt.v, back)
		})
	}
}

func TestParseMarkedKeepsUndefined(t *testing.T) {
	v, err := ParseMarked("\x00{\"0\":0,\"2\":{\"results\":0}}\x00[null,null,{\"results\":null,\"n\":1}]")
	require.NoError(t, err)
	el := v.Elems()
	require.Len(t, el, 3)
	assert.True(t, el[0].IsUndefined())
	assert.True(t, el[1].IsNull(), "an unmarked null stays null")
	i, r := el[2].Find("results")
	assert.Equal(t, 0, i, "the member keeps its place")
	assert.True(t, r.IsUndefined())
	assert.Equal(t, "1", el[2].Get("n").Raw())
}

func TestParseMarkedErrors(t *testing.T) {
	tests := []struct{ name, in string }{
		{"no end", "\x00{}"},
		{"bad marks", "\x00{\x00[]"},
		{"marks not an object", "\x00[]\x00[]"},
		{"index out of range", "\x00{\"1\":0}\x00[null]"},
		{"index not canonical", "\x00{\"01\":0}\x00[null,null]"},
		{"index not a number", "\x00{\"a\":0}\x00[null]"},
		{"no such member", "\x00{\"b\":0}\x00{\"a\":null}"},
		{"marked value not null", "\x00{\"a\":0}\x00{\"a\":1}"},
		{"marks inside a number", "\x00{\"a\":{\"b\":0}}\x00{\"a\":1}"},
		{"mark of a wrong kind", "\x00{\"a\":true}\x00{\"a\":{}}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMarked(tt.in)
			assert.ErrorIs(t, err, errBadMarks)
		})
	}
	_, err := ParseMarked("\x00{}\x00[")
	var se *SyntaxError
	assert.ErrorAs(t, err, &se, "bad data is the parser's error")
}

// FuzzMarked checks that marked JSON carries undefined both ways: any JSON
// with its nulls made Undefined writes as marked JSON that reads back
// Equal, and ParseMarked of any input returns a value or an error, never a
// panic.
func FuzzMarked(f *testing.F) {
	for _, seed := range []string{
		`null`, `[null,1,null]`, `{"a":null,"b":[null,{"c":null}]}`, `{"a":1}`, `[[],{}]`,
		"\x00{\"0\":0}\x00[null]", "\x00{\"a\":{\"0\":0}}\x00{\"a\":[null]}", "\x00", "\x00{}\x00",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := ParseMarked(s); err != nil && strings.HasPrefix(s, "{") {
			// Plain JSON errors are ParseLazy's, tested there.
			return
		}
		v, err := ParseString(s)
		if err != nil {
			return
		}
		u := nullsUndefined(v)
		text := markedJSON(u)
		if text == "" {
			require.True(t, u.IsUndefined())
			return
		}
		back, err := ParseMarked(text)
		require.NoError(t, err, "%q", text)
		require.True(t, Equal(u, back), "%s wrote %q, read back as %s", u, text, back)
	})
}

// nullsUndefined returns v with every null inside it (not v itself)
// Undefined.
func nullsUndefined(v Value) Value {
	switch v.Kind() {
	case Array:
		out := make([]Value, v.Len())
		for i, el := range v.Elems() {
			if el.IsNull() {
				continue
			}
			out[i] = nullsUndefined(el)
		}
		return Arr(out...)
	case Object:
		out := make([]Member, v.Len())
		for i, m := range v.Members() {
			out[i] = M(m.Key, Undef)
			if !m.Value.IsNull() {
				out[i].Value = nullsUndefined(m.Value)
			}
		}
		return Obj(out...)
	}
	return v
}

// markedJSON returns v as marked JSON (see ParseMarked), as datafetch's
// JavaScript writes it: JSON, as v.JSON writes it, when v holds no
// Undefined member or element. (The tests' writer: Go hands values to
// JavaScript on the wire, which keeps undefined.)
func markedJSON(v Value) string {
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
