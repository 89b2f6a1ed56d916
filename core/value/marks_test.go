package value

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarkedJSON(t *testing.T) {
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
			got := MarkedJSON(tt.v)
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
	tests := []struct{ name, in, want string }{
		{"no end", "\x00{}", "no NUL byte"},
		{"bad marks", "\x00{\x00[]", "marks"},
		{"marks not an object", "\x00[]\x00[]", "expected an object"},
		{"bad data", "\x00{}\x00[", "invalid JSON"},
		{"index out of range", "\x00{\"1\":0}\x00[null]", `"1" is not an index`},
		{"index not canonical", "\x00{\"01\":0}\x00[null,null]", `"01" is not an index`},
		{"no such member", "\x00{\"b\":0}\x00{\"a\":null}", `no member "b"`},
		{"marked value not null", "\x00{\"a\":0}\x00{\"a\":1}", "written as null"},
		{"marks inside a number", "\x00{\"a\":{\"b\":0}}\x00{\"a\":1}", "marks.a: the data there is number"},
		{"mark of a wrong kind", "\x00{\"a\":true}\x00{\"a\":{}}", "marks.a: expected an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMarked(tt.in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
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
		text := MarkedJSON(u)
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
