package value

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/value/valuetest"
)

// lazySeeds are documents for the lazy parse's differential tests: the
// shapes that take its special paths (empty and nested containers,
// duplicate keys plain and escaped, large objects, surrogates, errors).
var lazySeeds = []string{
	``, ` `, `null`, `true`, `false`, `0`, `-0`, `1e400`, `-12.5e+3`,
	`""`, `"\u00e9\uD83D\uDE00\uD83D"`, `"a\"\\\/\b\f\n\r\t"`, "\"\xff\"",
	`[]`, `{}`, `[[],{}]`, `[1,[2,[3]]]`, `{"a":{"b":[true,null]}}`,
	`{"a":1,"a":2}`, `{"a":{"x":1},"b":2,"a":{"y":[1]}}`, `[{"k":1,"k":[2]},{"k":3}]`,
	`{"\u0061":1,"a":2}`, `{"a\n":1,"b":2}`, ` { "k" : [ 1 , 2 ] } `,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}`,
	`[1,]`, `{"a":1,}`, `01`, `1.`, `"\x"`, "\"\x01\"", `[[[[[[[[[[]]]]]]]]]]`,
	`{"a":[}`, `tru`, `nulll`, `"abc`, `{"a" 1}`, `[1 2]`, `{"a":1}x`,
	"\"\xed\xa0\x80\"", `{"__proto__":{"x":1}}`, `{"a":1,"b":[2],"c":{"d":3},"e":"f"}`,
}

// FuzzParseLazy checks ParseLazy against Parse: the same errors, and
// values that are Equal both ways, encode to the same JSON, and answer
// every accessor the same at every depth.
func FuzzParseLazy(f *testing.F) {
	for _, seed := range lazySeeds {
		f.Add(seed)
	}
	f.Add(string(valuetest.Articles(3, 1)))
	f.Add(string(valuetest.Articles(100, 1))) // more than one chunk of tape
	f.Fuzz(func(t *testing.T, doc string) {
		want, wantErr := ParseString(doc)
		got, err := ParseLazy(doc)
		if wantErr != nil {
			require.Error(t, err, "ParseLazy accepts %q", doc)
			assert.Equal(t, wantErr.Error(), err.Error())
			return
		}
		require.NoError(t, err, "ParseLazy refuses %q", doc)
		if surrogateAt(doc) >= 0 {
			// Raw surrogate bytes: ParseLazy parses as ParseString does,
			// with no tape to read off.
			sameTree(t, want, got, "$")
			assert.Equal(t, want.JSON(), got.JSON())
			assert.False(t, got.Unbuilt())
			return
		}
		// First through what reads the tape without building objects,
		// then (on a fresh parse) through the built children.
		sameOffTape(t, want, got, "$")
		got, err = ParseLazy(doc)
		require.NoError(t, err)
		if want.Kind() == Object && want.Len() > 0 {
			// A patched copy reads as the eager copy with the same member
			// replaced, off the tape and then built.
			at := want.Len() / 2
			ps := []Patch{{At: at, V: Str("patched")}}
			wantP := Patched(want, ps)
			assert.Equal(t, "patched", wantP.Members()[at].Value.Str())
			sameOffTape(t, wantP, Patched(got, ps), "$patched")
			gotP := Patched(got, ps)
			sameTree(t, wantP, gotP, "$patched")
			assert.Equal(t, wantP.JSON(), gotP.JSON())
			assert.True(t, Equal(wantP, gotP) && Equal(gotP, want) == Equal(wantP, want))
		}
		sameTree(t, want, got, "$")
		assert.Equal(t, want.JSON(), got.JSON())
		assert.True(t, Equal(want, got) && Equal(got, want), "Equal both ways")
		assert.Equal(t, SizeHint(want), SizeHint(got))
	})
}

// sameTree compares an eagerly parsed value with a lazy one, member by
// member, through the accessors everything else uses.
func sameTree(t *testing.T, want, got Value, path string) {
	t.Helper()
	require.Equal(t, want.Kind(), got.Kind(), path)
	require.Equal(t, want.Len(), got.Len(), path)
	assert.Equal(t, want.Source(), got.Source(), path)
	switch want.Kind() {
	case Array:
		we, ge := want.Elems(), got.Elems()
		require.Len(t, ge, len(we), path)
		for i := range we {
			sameTree(t, we[i], ge[i], path+"[]")
			assert.True(t, Same(ge[i], got.Elems()[i]), "%s[%d]: asked again, the same value", path, i)
		}
	case Object:
		wm, gm := want.Members(), got.Members()
		require.Len(t, gm, len(wm), path)
		for i := range wm {
			require.Equal(t, wm[i].Key, gm[i].Key, path)
			sameTree(t, wm[i].Value, gm[i].Value, path+"."+wm[i].Key)
			assert.True(t, Same(gm[i].Value, got.Get(wm[i].Key)), "%s.%s: Get gives the same value", path, wm[i].Key)
		}
	default:
		assert.True(t, Same(want, got), "%s: %s and %s", path, want, got)
	}
}

// sameOffTape compares an eagerly parsed value with a lazy one through
// Find and AppendMembers, which read objects off the tape.
func sameOffTape(t *testing.T, want, got Value, path string) {
	t.Helper()
	require.Equal(t, want.Kind(), got.Kind(), path)
	switch want.Kind() {
	case Array:
		assert.Equal(t, want.Len() > 0, got.Unbuilt(), path)
		es := got.AppendElems(nil)
		require.Len(t, es, want.Len(), path)
		for i, w := range want.Elems() {
			sameOffTape(t, w, es[i], path+"[]")
		}
	case Object:
		ms := got.AppendMembers(nil)
		require.Len(t, ms, want.Len(), path)
		for i, w := range want.Members() {
			require.Equal(t, w.Key, ms[i].Key, path)
			j, x := got.Find(w.Key)
			assert.Equal(t, i, j, "%s: Find(%q)", path, w.Key)
			assert.True(t, Same(x, ms[i].Value), "%s: Find(%q) and AppendMembers agree", path, w.Key)
			sameOffTape(t, w.Value, x, path+"."+w.Key)
		}
		j, x := got.Find("\x00absent")
		assert.Equal(t, -1, j)
		assert.True(t, x.IsUndefined())
		if src := got.Source(); src != "" {
			built := !got.Unbuilt()
			assert.Equal(t, built, hasRepeatedKey(src), "%s: only an object with a key twice is built by reading it off the tape", path)
		}
	default:
		assert.True(t, Same(want, got), "%s: %s and %s", path, want, got)
	}
}

// hasRepeatedKey reports whether ParseLazy builds the object text src at
// once, as it does where a key may come twice.
func hasRepeatedKey(src string) bool {
	t, ok := scanTape(src)
	return ok && t.nodes[0].built()
}

// TestPatched checks a patched record, as normalize stores one: it is
// read off its tape, without building it or the object it was made from,
// and it is a value of its own.
func TestPatched(t *testing.T) {
	rec, err := ParseLazy(`{"id":1,"author":{"id":7,"name":"a"},"tags":["x"],"editor":{"id":8}}`)
	require.NoError(t, err)
	ps := []Patch{{At: 1, V: Str("7")}, {At: 3, V: Str("8")}}
	norm := Patched(rec, ps)
	i, v := norm.Find("author")
	assert.Equal(t, 1, i)
	assert.Equal(t, "7", v.Str())
	assert.Equal(t, "8", norm.Get("editor").Str())
	assert.Equal(t, `["x"]`, norm.Get("tags").JSON())
	ms := norm.AppendMembers(nil)
	require.Len(t, ms, 4)
	assert.Equal(t, "8", ms[3].Value.Str())
	assert.True(t, norm.Unbuilt() && rec.Unbuilt(), "read without building")
	assert.Empty(t, norm.Source(), "its text is not the record's")
	assert.Equal(t, len(rec.Source()), SizeHint(norm))

	assert.Equal(t, `{"id":1,"author":"7","tags":["x"],"editor":"8"}`, norm.JSON())
	assert.False(t, norm.Unbuilt(), "built once asked for all of it")
	assert.True(t, rec.Unbuilt(), "the parsed record is not")
	assert.True(t, Same(norm.Get("tags"), rec.Get("tags")), "unpatched members are the parsed ones")
	assert.False(t, Same(norm, rec))
	assert.False(t, Equal(norm, rec))
	assert.True(t, Same(rec, Patched(rec, nil)))

	again := Patched(norm, []Patch{{At: 0, V: Int(2)}})
	assert.Equal(t, `{"id":2,"author":"7","tags":["x"],"editor":"8"}`, again.JSON(), "a patch of a patched record")
	eager := Patched(MustParse(`{"a":1,"b":2}`), []Patch{{At: 1, V: Int(3)}})
	assert.Equal(t, `{"a":1,"b":3}`, eager.JSON())
}

// TestParseLazyIdentity checks what memoized reads rely on: a lazy
// container is one value however often and from however many goroutines
// it is asked for, and two containers are two values even when empty.
func TestParseLazyIdentity(t *testing.T) {
	v, err := ParseLazy(`{"a":{"b":[1,{}]},"c":[],"d":[]}`)
	require.NoError(t, err)
	a := make([]Value, 8)
	var wg sync.WaitGroup
	for i := range a {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[i] = v.Get("a").Get("b")
		}()
	}
	wg.Wait()
	for i := range a {
		assert.True(t, Same(a[0], a[i]), "goroutine %d got its own copy", i)
	}
	assert.NotZero(t, Identity(a[0]))
	assert.Equal(t, Identity(a[0]), Identity(v.Get("a").Get("b")))
	c, d := v.Get("c"), v.Get("d")
	assert.False(t, Same(c, d), "two empty arrays are two values")
	assert.True(t, Equal(c, d))
	assert.NotEqual(t, Identity(c), Identity(d))
}

// TestParseLazyDuplicateKeys checks JSON.parse's rule for a key given
// twice (the last value, at the first key's place) on the lazy path,
// where the object is built during the parse.
func TestParseLazyDuplicateKeys(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"\u0061":1,"a":[2]}`, `{"a":[2]}`},
		{`[{"x":{"y":1,"y":2},"x":{"z":3,"z":4}}]`, `[{"x":{"z":4}}]`},
	} {
		v, err := ParseLazy(tc.doc)
		require.NoError(t, err, tc.doc)
		assert.Equal(t, tc.want, v.JSON(), tc.doc)
		assert.Equal(t, MustParse(tc.want).Len(), v.Len(), "%s: its count, the keys kept once", tc.doc)
	}
}
