package wire

import (
	"math"
	"runtime"
	"strings"
	"testing"
	"unicode/utf16"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/value"
)

// roundTrip writes v whole and decodes it with table t.
func roundTrip(t *testing.T, v value.Value, shapes *Shapes, table *Table) []byte {
	t.Helper()
	var w Writer
	w.Begin(nil, Header{}, shapes)
	w.Value(v)
	out := w.Finish()
	o, err := Decode(out, table)
	require.NoError(t, err)
	require.NoError(t, Match(o.Value, v), "output % x", out)
	return out
}

func TestValueRoundTrip(t *testing.T) {
	for _, src := range []string{
		`null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `2147483647`, `-2147483648`, `2147483648`,
		`-2147483649`, `1.5`, `1e400`, `-1e400`, `1e-400`, `9007199254740993`, `12345678901234567890`,
		`0.1`, `5e-324`, `""`, `"abc"`, `"héllo wörld ✓ 😀"`, `"a\"b\\c\n"`, `"\udc00"`, `"\ud800x"`,
		`"\ud83d\ude00"`, `"\u0000"`, `[]`, `{}`, `[1,[2,[3]],{}]`,
		`{"__proto__":{"x":1},"constructor":2,"toString":3}`, `{"1":1,"a":2,"0":3}`,
		`{"k\udc00":1,"é":2,"a\"b":3}`, `[{"id":1,"n":"a"},{"id":2,"n":"b"},{"n":"c","id":3}]`,
	} {
		t.Run(src, func(t *testing.T) {
			roundTrip(t, value.MustParse(src), nil, nil)
		})
	}
}

// TestLazyValuesAreWrittenUnbuilt checks that a value parsed onto a tape
// (as responses are) is written as the same ops as its eager parse, off
// the tape: writing it builds none of its arrays or objects.
func TestLazyValuesAreWrittenUnbuilt(t *testing.T) {
	for _, src := range []string{
		`[{"id":1,"tags":["a","b"],"o":{"x":[[]],"y":{}}},{"id":2,"tags":[],"o":{"y":{"z":"\u00e9"}}}]`,
		`{"a":{"a":{"a":[1,2,{"b":null}]}}}`,
	} {
		lazy, err := value.ParseLazy(src)
		require.NoError(t, err)
		var w Writer
		w.Begin(nil, Header{}, nil)
		w.Value(lazy)
		got := w.Finish()
		assert.True(t, lazy.Unbuilt(), "%s: written without being built", src)
		assert.Equal(t, roundTrip(t, value.MustParse(src), nil, nil), got, "%s: the same ops as the eager parse", src)
	}
}

// TestUndefinedMembersAndElements: undefined members and elements are
// written as undefined, as data-client reads them (issue 22 item 6): the
// key is there, the element is not null.
func TestUndefinedMembersAndElements(t *testing.T) {
	v := value.Obj(value.M("a", value.Undef), value.M("b", value.Arr(value.Undef, value.Int(1))))
	var w Writer
	w.Begin(nil, Header{}, nil)
	w.Value(v)
	o, err := Decode(w.Finish(), nil)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, o.Value.Keys)
	assert.Equal(t, Undefined, o.Value.Vals[0].Kind)
	assert.Equal(t, Undefined, o.Value.Vals[1].Elems[0].Kind)
	assert.NoError(t, Match(o.Value, v))
	assert.Equal(t, `{"a":undefined,"b":[undefined,1]}`, o.Value.String())
	var marked [][]any
	assert.Equal(t, `{"a":null,"b":[null,1]}`, string(o.Value.AppendJSON(nil, nil, func(m Mark, p []any) {
		if m == MarkUndefined {
			marked = append(marked, p)
		}
	})), "as JSON, each marked")
	assert.Equal(t, [][]any{{"a"}, {"b", 0}}, marked)
}

func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		lit  string
		want float64
		op   Op
	}{
		{"0", 0, OpInt}, {"-0", math.Copysign(0, -1), OpFloat}, {"7", 7, OpInt},
		{"-2147483648", math.MinInt32, OpInt}, {"2147483648", 2147483648, OpFloat},
		{"1e400", math.Inf(1), OpFloat}, {"-1e400", math.Inf(-1), OpFloat}, {"1.0", 1, OpFloat},
	} {
		var w Writer
		w.Begin(nil, Header{}, nil)
		w.Number(c.lit)
		out := w.Finish()
		assert.Equal(t, c.op, Op(out[HeaderSize]), c.lit)
		o, err := Decode(out, nil)
		require.NoError(t, err)
		assert.Equal(t, math.Float64bits(c.want), math.Float64bits(o.Value.Num), c.lit)
	}
}

func TestShapesAreDefinedOnce(t *testing.T) {
	var shapes Shapes
	var table Table
	v := value.MustParse(`[{"id":1,"n":"a"},{"id":2,"n":"b"}]`)
	out := roundTrip(t, v, &shapes, &table)
	ops := out[HeaderSize : len(out)-int(out[4])]
	assert.Equal(t, 1, strings.Count(string(ops), string([]byte{byte(OpDefineShape)})), "% x", ops)
	assert.Equal(t, 1, shapes.Len())
	// The next output uses the shape without defining it.
	out = roundTrip(t, v, &shapes, &table)
	assert.NotContains(t, string(out[HeaderSize:]), string([]byte{byte(OpDefineShape)}))
	// A reset of both halves defines it again.
	shapes.Reset()
	table.Reset()
	out = roundTrip(t, v, &shapes, &table)
	assert.Contains(t, string(out[HeaderSize:]), string([]byte{byte(OpDefineShape), 0}))
	// A decoder that lost its half fails with ErrUnknown.
	table.Reset()
	var w Writer
	w.Begin(nil, Header{}, &shapes)
	w.Value(v)
	_, err := Decode(w.Finish(), &table)
	assert.ErrorIs(t, err, ErrUnknown)
}

func TestDictionariesAndLargeObjectsAreNotShapes(t *testing.T) {
	var shapes Shapes
	var w Writer
	w.Begin(nil, Header{}, &shapes)
	ms := []value.Member{value.M("x", value.Int(1))}
	assert.True(t, w.Object(ms, true), "a dictionary's keys go inline")
	w.Key("x")
	w.Number("1")
	var big []value.Member
	for i := range MaxShapeKeys + 1 {
		big = append(big, value.M(strings.Repeat("k", i+1), value.NullV))
	}
	assert.True(t, w.Object(big, false), "an object of more than MaxShapeKeys keys goes inline")
	assert.Zero(t, shapes.Len())
}

func TestShapeTableIsBounded(t *testing.T) {
	shapes := Shapes{ids: map[string]*shape{}}
	for i := range MaxShapes {
		shapes.ids[string(rune(i+0x100))] = &shape{id: uint32(i)}
	}
	var w Writer
	w.Begin(nil, Header{}, &shapes)
	assert.True(t, w.Object([]value.Member{value.M("new", value.NullV)}, false))
	assert.Equal(t, MaxShapes, shapes.Len())
}

func TestHeader(t *testing.T) {
	var w Writer
	h := Header{Response: true, Status: StatusValid, ExpiresAt: 1.7e12, AfterExpiry: StatusStale, ErrorKept: true}
	w.Begin(nil, h, nil)
	w.Undefined()
	o, err := Decode(w.Finish(), nil)
	require.NoError(t, err)
	assert.Equal(t, h, o.Header)
	assert.Equal(t, Undefined, o.Value.Kind)
	assert.Equal(t, StatusInvalid, StatusOf("invalid"))
	assert.Equal(t, StatusNone, StatusOf("nonsense"))
}

// utf16Len is what JavaScript's TextDecoder gives for s, for the valid
// cases: the length in code units.
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

func TestAppendTextCountsUnitsAsTextDecoder(t *testing.T) {
	for _, c := range []struct {
		in, out string
	}{
		{"", ""},
		{"plain ascii text, long enough for the 8-byte loop", ""},
		{"é", ""}, {"✓", ""}, {"😀", ""}, {"ascii then 😀 and é", ""},
		// Ill-formed: each maximal subpart is one U+FFFD (WHATWG).
		{"a\xffb", "a\uFFFDb"},
		{"\xe2\x82", "\uFFFD"},                           // a truncated three-byte sequence: one
		{"\xe2\x82x", "\uFFFDx"},                         // ... before ASCII
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},           // a surrogate's bytes: three
		{"\xf0\x9f\x98", "\uFFFD"},                       // a truncated four-byte sequence
		{"\xc0\xaf", "\uFFFD\uFFFD"},                     // an overlong form
		{"\xf4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"}, // beyond U+10FFFF
		{"\x80\x80", "\uFFFD\uFFFD"},
		// Non-ASCII between and after runs of eight ASCII bytes, valid and
		// not: the one-pass check must resume its fast path and still see
		// an ill-formed byte late in the string.
		{"01234567é01234567✓0123456789😀x", ""},
		{"01234567é01234567\xff01234567", "01234567é01234567\uFFFD01234567"},
		{"0123456789abcdef\xe2\x82", "0123456789abcdef\uFFFD"},
	} {
		want := c.out
		if want == "" {
			want = c.in
		}
		got, n := appendText(nil, c.in)
		assert.Equal(t, want, string(got), "%q", c.in)
		assert.Equal(t, utf16Len(want), n, "%q", c.in)
	}
}

func TestDecodeRejectsCorruptOutput(t *testing.T) {
	var w Writer
	w.Begin(nil, Header{}, nil)
	w.Value(value.MustParse(`{"a":[1,"x"]}`))
	good := w.Finish()
	for i := range good {
		for _, b := range []byte{0, 0x7f, 0xff} {
			bad := append([]byte(nil), good...)
			bad[i] = b
			// Must not panic; an error or a value are both possible.
			_, _ = Decode(bad, &Table{})
		}
	}
	for n := range len(good) {
		_, err := Decode(good[:n], nil)
		assert.Error(t, err, "truncated at %d", n)
	}
}

// A string's escapes are found wherever they are (scanText reads ASCII
// eight bytes at a time): escaped strings go to JavaScript as JSON
// literals, the others as they are.
func TestStringsFindEscapesAnywhere(t *testing.T) {
	for _, c := range []struct {
		src string
		op  Op
	}{
		{`"\n"`, OpStringJSON},
		{`"0123456\n"`, OpStringJSON},                   // in the first eight bytes
		{`"01234567\"89abcdef"`, OpStringJSON},          // in the second eight
		{`"0123456789abcdef01\\"`, OpStringJSON},        // in the tail
		{`"é0123456789abcdef\u00e9"`, OpStringJSON},     // after non-ASCII
		{`"01234567é\t"`, OpStringJSON},                 // just after non-ASCII
		{`"[]{}|^_ÜÜ]]]]]]]]]]]]]]]]\\"`, OpStringJSON}, // lookalikes, then one
		{`"[]{}|^_ÜÜ]]]]]]]]]]]]]]]]]]"`, OpString},     // lookalikes only
		{`"plain ascii text, long enough"`, OpString},
		{`"café crème ✓ 😀 and more text"`, OpString},
	} {
		t.Run(c.src, func(t *testing.T) {
			out := roundTrip(t, value.MustParse(c.src), nil, nil)
			assert.Equal(t, c.op, Op(out[HeaderSize]))
		})
	}
}

// A finished Writer, which the bridge keeps for the next output, holds on
// to neither the output nor the shape table it wrote with.
func TestFinishLetsGoOfOutputAndTable(t *testing.T) {
	var shapes Shapes
	var w Writer
	w.Begin(nil, Header{}, &shapes)
	w.Value(value.MustParse(`{"a":1}`))
	w.Finish()
	assert.Nil(t, w.buf)
	assert.Nil(t, w.shapes)
}

// Objects of more shapes than Shapes keeps recent, in turn, and objects
// whose keys differ from a recent shape's only in order, count or an
// undefined member, each get their own shape, defined once.
func TestRecentShapes(t *testing.T) {
	var shapes Shapes
	var table Table
	src := `[{"a":1},{"a":1,"b":2},{"b":2,"a":1},{"c":3},{"d":4},{"e":5},{"f":6},{"a":1},{"e":5},{"b":2,"a":1}]`
	roundTrip(t, value.MustParse(src), &shapes, &table)
	assert.Equal(t, 7, shapes.Len())
	withUndefined := value.Arr(value.Obj(value.M("a", value.Int(1)), value.M("b", value.Undef)))
	out := roundTrip(t, withUndefined, &shapes, &table)
	assert.NotContains(t, string(out[HeaderSize:]), string([]byte{byte(OpDefineShape)}), "{a} is known")
	roundTrip(t, value.MustParse(src), &shapes, &table)
	assert.Equal(t, 7, shapes.Len())
}

// stringsValue is an array of n elements, mostly strings (plain, escaped,
// not UTF-8) with numbers and objects between them: a value whose output
// is mostly its string area, as a large read's is. (Text that is not UTF-8
// decodes replaced, which Match does not take: see
// TestOpsAndStringsMeetAndMove.)
func stringsValue(n int) value.Value {
	pad := strings.Repeat("a comment body that pads the record ", 8)
	elems := make([]value.Value, 0, n)
	for i := range n {
		switch i % 5 {
		case 0:
			elems = append(elems, value.Str(pad))
		case 1:
			elems = append(elems, value.MustParse(`"line\nbreak é \udc00"`))
		case 2:
			elems = append(elems, value.Str("ünïcödé ✓ 😀 "+pad[:i%len(pad)]))
		case 3:
			elems = append(elems, value.Int(int64(i)), value.Num(float64(i)+0.5))
		default:
			elems = append(elems, value.Obj(value.M("id", value.Int(int64(i))), value.M("name", value.Str(pad[:i%len(pad)]))))
		}
	}
	return value.Arr(elems...)
}

// Ops and strings share one buffer, from its two ends: writing from a
// small buffer, they meet many times, and each move keeps both.
func TestOpsAndStringsMeetAndMove(t *testing.T) {
	for _, n := range []int{0, 1, 5, 37, 3000} {
		roundTrip(t, stringsValue(n), nil, nil)
		roundTrip(t, stringsValue(n), &Shapes{}, &Table{})
	}
	// Mostly ops: they outgrow the buffer by append, and the strings
	// follow them to the larger array (or both move, when it lacks room).
	for _, every := range []int{7, 500} {
		elems := make([]value.Value, 3000)
		for i := range elems {
			elems[i] = value.Num(float64(i) + 0.25)
			if i%every == 0 {
				elems[i] = value.Str(strings.Repeat("s", i%300))
			}
		}
		roundTrip(t, value.Arr(elems...), nil, nil)
	}
	// Text that is not UTF-8 is put replaced, its length known once
	// written.
	var w Writer
	w.Begin(nil, Header{}, nil)
	w.Array(300)
	for i := range 300 {
		w.String(strings.Repeat("x", i) + "\xff")
	}
	o, err := Decode(w.Finish(), nil)
	require.NoError(t, err)
	for i := range 300 {
		require.Equal(t, strings.Repeat("x", i)+"\uFFFD", o.Value.Elems[i].Str, "element %d", i)
	}
}

// A large output written after Grow takes its room once: no second buffer
// for the string area, none left behind by growing (issue 11: memory of a
// large read).
func TestGrowTakesTheOutputsRoomOnce(t *testing.T) {
	v := stringsValue(20000)
	n := value.SizeHint(v)
	var w Writer
	w.Begin(nil, Header{}, nil)
	w.Value(v) // the first output defines its shape and fills w.key
	w.Finish()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w.Begin(nil, Header{}, nil)
	w.Grow(n)
	w.Value(v)
	out := w.Finish()
	runtime.ReadMemStats(&after)
	require.Greater(t, len(out), n/2, "the output is most of the value's JSON")
	allocated := int(after.TotalAlloc - before.TotalAlloc)
	assert.Less(t, allocated, n+n/8, "allocated %d bytes for an output of %d (JSON %d)", allocated, len(out), n)
	o, err := Decode(out, nil)
	require.NoError(t, err)
	require.NoError(t, Match(o.Value, v))
}

// Begin writes in the buffer it is given when it has room, so that the
// bridge's scratch buffers serve output after output.
func TestBeginReusesItsBuffer(t *testing.T) {
	buf := make([]byte, 0, 4096)
	var w Writer
	w.Begin(buf, Header{}, nil)
	w.Value(value.MustParse(`["abc",{"x":"\n"},1.5]`))
	out := w.Finish()
	assert.Same(t, unsafe.SliceData(buf[:1]), unsafe.SliceData(out))
}

// writeNode writes {"id": id, "next": ...} registered as id, next written
// by next.
func writeNode(w *Writer, id uint64, next func()) {
	w.Register(id)
	w.Object([]value.Member{value.M("id", value.Int(int64(id))), value.M("next", value.NullV)}, true)
	w.Key("id")
	w.Number(value.Int(int64(id)).Raw())
	w.Key("next")
	next()
}

// A back-reference names an object being built around it: the decoder sets
// it in place once that object is built, making the graph a cycle.
func TestBackRefMakesACycle(t *testing.T) {
	var w Writer
	w.Begin(nil, Header{}, nil)
	// [0 → 1 → back to 0, 1 again]
	w.Array(2)
	writeNode(&w, 0, func() { writeNode(&w, 1, func() { w.BackRef(0) }) })
	w.Ref(1)
	o, err := Decode(w.Finish(), &Table{})
	require.NoError(t, err)
	zero := o.Value.Elems[0]
	one := zero.Get("next")
	assert.Same(t, zero, one.Get("next"), "1.next is 0 itself")
	assert.Same(t, one, o.Value.Elems[1])
	assert.Equal(t, 1, o.Counts[OpBackRef])
}

func TestBackRefFaults(t *testing.T) {
	for name, write := range map[string]func(w *Writer){
		// 0 is built: a reference to it is a REF.
		"to an object built": func(w *Writer) {
			w.Array(2)
			writeNode(w, 0, func() { w.Null() })
			w.BackRef(0)
		},
		"to no object": func(w *Writer) {
			writeNode(w, 0, func() { w.BackRef(7) })
		},
	} {
		t.Run(name, func(t *testing.T) {
			var w Writer
			w.Begin(nil, Header{}, nil)
			write(&w)
			_, err := Decode(w.Finish(), &Table{})
			assert.ErrorContains(t, err, "BACKREF")
		})
	}
	// Without a table there are no ids to refer back to.
	var w Writer
	w.Begin(nil, Header{}, nil)
	writeNode(&w, 0, func() { w.BackRef(0) })
	_, err := Decode(w.Finish(), nil)
	assert.Error(t, err)
}
