package value

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unbuiltAll reports whether v and every array and object in it that was
// parsed onto a tape is still unbuilt, reading it without building it.
func unbuiltAll(v Value) bool {
	switch v.Kind() {
	case Object:
		if v.esc && v.n > 0 && !v.Unbuilt() {
			return false
		}
		for _, m := range v.PeekMembers(nil) {
			if !unbuiltAll(m.Value) {
				return false
			}
		}
	case Array:
		if v.esc && v.n > 0 && !v.Unbuilt() {
			return false
		}
		for _, e := range v.PeekElems(nil) {
			if !unbuiltAll(e) {
				return false
			}
		}
	}
	return true
}

// TestEqualLazyUnbuilt checks that Equal of values parsed onto tapes,
// with texts that differ, gives Equal's answer for their eager parses and
// builds neither: a record set again is compared with the stored one off
// their tapes.
func TestEqualLazyUnbuilt(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[1,2],"c":{"d":"x"}}`, `{"a":1.0,"b":[1,2],"c":{"d":"x"}}`, true},
		{`{"a":1,"b":[1,2],"c":{"d":"x"}}`, `{"a":1,"b":[1,3],"c":{"d":"x"}}`, false},
		{`{"a":1,"b":[1,2],"c":{"d":"x"}}`, `{"a":1,"b":[1,2],"c":{"d":"y"}}`, false},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{`{"a":1,"b":2}`, `{"b":2,"c":1}`, false},
		{`{"a":"\u0062","b":[]}`, `{"a":"b","b":[ ]}`, true},
		{`[{"a":1},{"b":[true]}]`, `[{"a":1}, {"b":[true]}]`, true},
		{`[{"a":1},{"b":[true]}]`, `[{"a":1},{"b":[false]}]`, false},
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9}`,
			`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9.0}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.a+" vs "+tt.b, func(t *testing.T) {
			a, err := ParseLazy(tt.a)
			require.NoError(t, err)
			b, err := ParseLazy(tt.b)
			require.NoError(t, err)
			require.Equal(t, tt.want, Equal(MustParse(tt.a), MustParse(tt.b)), "the eager answer")
			assert.Equal(t, tt.want, Equal(a, b))
			assert.Equal(t, tt.want, Equal(b, a))
			assert.True(t, unbuiltAll(a) && unbuiltAll(b), "compared without building")
		})
	}
}

// TestEqualPatchedUnbuilt checks Equal on patched records (a normalized
// record kept as offsets), which it reads off the tape with the patches
// applied.
func TestEqualPatchedUnbuilt(t *testing.T) {
	a, err := ParseLazy(`{"id":1,"title":"t","author":{"id":7,"name":"a"}}`)
	require.NoError(t, err)
	b, err := ParseLazy(`{"id":1,"title":"t","author":{"id":7,"name":"b"}}`)
	require.NoError(t, err)
	pa, pb := Patched(a, []Patch{{At: 2, V: Str("7")}}), Patched(b, []Patch{{At: 2, V: Str("7")}})
	assert.True(t, Equal(pa, pb), "equal but for what the patches replace")
	assert.False(t, Equal(a, b))
	assert.False(t, Equal(pa, Patched(b, []Patch{{At: 2, V: Str("8")}})))
	assert.True(t, pa.Unbuilt() && pb.Unbuilt() && unbuiltAll(a) && unbuiltAll(b))
}

func TestPeekMembers(t *testing.T) {
	lazy, err := ParseLazy(`{"a":1,"b":{"c":2}}`)
	require.NoError(t, err)
	scratch := make([]Member, 0, 4)
	ms := lazy.PeekMembers(scratch)
	require.Len(t, ms, 2)
	assert.Equal(t, "b", ms[1].Key)
	assert.Equal(t, `{"c":2}`, ms[1].Value.JSON())
	assert.Same(t, &scratch[:1][0], &ms[0], "read into scratch")
	assert.True(t, lazy.Unbuilt())

	eager := MustParse(`{"a":1,"b":{"c":2}}`)
	assert.Same(t, &eager.Members()[0], &eager.PeekMembers(scratch)[0], "a built object's own members")
	assert.Nil(t, Arr(Int(1)).PeekMembers(scratch))

	arr, err := ParseLazy(`[1,[2],{}]`)
	require.NoError(t, err)
	es := arr.PeekElems(nil)
	require.Len(t, es, 3)
	assert.Equal(t, `[2]`, es[1].JSON())
	assert.True(t, arr.Unbuilt())
	assert.Nil(t, lazy.PeekElems(nil))
}

// FuzzEqualLazy checks Equal of values parsed onto tapes, read off them
// (in order, or all members when keys come in another order), against
// Equal of the same documents parsed eagerly, and that it builds neither.
func FuzzEqualLazy(f *testing.F) {
	for _, a := range lazySeeds {
		f.Add(a, a)
	}
	f.Add(`{"a":1,"b":[1,2]}`, `{"a":1.0,"b":[1,2.0]}`)
	f.Add(`{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`)
	f.Add(`{"a":{"x":"\u0041"},"b":2}`, `{"a":{"x":"A"},"b":3}`)
	f.Add(`[{"a":1},[true,null]]`, `[{"a":1},[true,false]]`)
	f.Fuzz(func(t *testing.T, sa, sb string) {
		ea, err := Parse([]byte(sa))
		if err != nil {
			return
		}
		eb, err := Parse([]byte(sb))
		if err != nil {
			return
		}
		la, err := ParseLazy(sa)
		require.NoError(t, err)
		lb, err := ParseLazy(sb)
		require.NoError(t, err)
		want := Equal(ea, eb)
		before := unbuiltAll(la) && unbuiltAll(lb)
		assert.Equal(t, want, Equal(la, lb))
		assert.Equal(t, want, Equal(lb, la))
		if before {
			assert.True(t, unbuiltAll(la) && unbuiltAll(lb), "compared without building")
		}
		assert.Equal(t, want, Equal(la, eb))
		assert.Equal(t, want, Equal(eb, la))
	})
}
