package wire

import (
	"encoding/binary"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/value"
)

// sourceDoc has strings of every kind: long enough to be slices of it,
// with characters of two, three and four bytes before and inside them,
// with escapes, and short ones.
const sourceDoc = `{"first":"a string long enough to be a slice",
	"other":"héllo wörld ✓ 😀, then some more text",
	"escaped":"a \"quoted\" string, long enough\n",
	"short":"short",
	"list":["日本語のテキストです、長い","after 😀 four bytes, long"],
	"n":12}`

// writeInPlace writes v whole as an output decoded in place.
func writeInPlace(v value.Value) []byte {
	var w Writer
	w.Begin(nil, Header{InPlace: true}, nil)
	w.Value(v)
	return w.Finish()
}

// sourceOf returns the source text's offset in doc (bytes), its length
// and its start in code units, as out's header gives them.
func sourceOf(out []byte, doc string) (off, n, units int) {
	addr := binary.LittleEndian.Uint64(out[16:])
	n = int(binary.LittleEndian.Uint32(out[24:]))
	units = int(binary.LittleEndian.Uint32(out[28:]))
	if n == 0 {
		return 0, 0, 0
	}
	return int(addr - uint64(uintptr(unsafe.Pointer(unsafe.StringData(doc))))), n, units
}

func TestStringsAreSlicesOfTheSourceText(t *testing.T) {
	v, err := value.ParseLazy(sourceDoc)
	require.NoError(t, err)
	out := writeInPlace(v)
	o, err := Decode(out, nil, sourceDoc)
	require.NoError(t, err)
	require.NoError(t, Match(o.Value, v))
	assert.Equal(t, 4, o.Counts[OpStringSource], "the long strings without escapes")
	assert.Equal(t, 1, o.Counts[OpStringSourceJSON], "the escaped string: its JSON literal in the text")
	assert.Zero(t, o.Counts[OpStringJSON])
	assert.NotContains(t, string(out), "long enough to be a slice", "not copied")

	// The header names the bytes the sliced strings span in the document.
	first := strings.Index(sourceDoc, "a string long")
	last := "after 😀 four bytes, long"
	off, n, units := sourceOf(out, sourceDoc)
	assert.Equal(t, first, off)
	assert.Equal(t, strings.Index(sourceDoc, last)+len(last)-first, n)
	assert.Equal(t, first, units, "ASCII before it")

	_, err = Decode(out, nil)
	assert.ErrorContains(t, err, "none of the 0 texts", "the source must be given")
}

func TestStringsAreCopiedUnlessInPlace(t *testing.T) {
	v, err := value.ParseLazy(sourceDoc)
	require.NoError(t, err)
	var w Writer
	w.Begin(nil, Header{}, nil)
	w.Value(v)
	out := w.Finish()
	o, err := Decode(out, nil)
	require.NoError(t, err)
	assert.Zero(t, o.Counts[OpStringSource], "a copy of the output in JavaScript has no memory to slice")
	_, n, _ := sourceOf(out, sourceDoc)
	assert.Zero(t, n)

	o, err = Decode(writeInPlace(value.MustParse(sourceDoc)), nil)
	require.NoError(t, err)
	assert.Zero(t, o.Counts[OpStringSource], "a value not parsed onto a tape has no source text")
}

func TestSourceTextNotUTF8IsNotSliced(t *testing.T) {
	doc := "{\"a\":\"a string long enough to be a slice\",\"b\":\"bad \xff byte\"}"
	v, err := value.ParseLazy(doc)
	require.NoError(t, err)
	o, err := Decode(writeInPlace(v), nil, doc)
	require.NoError(t, err)
	assert.Zero(t, o.Counts[OpStringSource], "TextDecoder would replace the bad byte")
	assert.Equal(t, "a string long enough to be a slice", o.Value.Get("a").Str)
}

// A read of a few records far apart in a large response copies the
// strings that would make JavaScript decode much more text than the
// strings it takes.
func TestSourceSpanIsBounded(t *testing.T) {
	elem := `{"s":"` + strings.Repeat("é", 50) + `"}`
	doc := "[" + strings.Repeat(elem+",", 999) + elem + "]"
	v, err := value.ParseLazy(doc)
	require.NoError(t, err)
	elems := v.Elems()

	out := writeInPlace(value.Arr(elems[0], elems[1], elems[999]))
	o, err := Decode(out, nil, doc)
	require.NoError(t, err)
	require.NoError(t, Match(o.Value, value.Arr(elems[0], elems[1], elems[999])))
	assert.Equal(t, 2, o.Counts[OpStringSource], "the first two")
	off, n, units := sourceOf(out, doc)
	assert.Equal(t, len(`[{"s":"`), off)
	assert.Equal(t, len(elem)+1+100, n)
	assert.Equal(t, off, units)

	out = writeInPlace(v)
	o, err = Decode(out, nil, doc)
	require.NoError(t, err)
	assert.Equal(t, 1000, o.Counts[OpStringSource], "the whole list")
	off, n, units = sourceOf(out, doc)
	assert.Equal(t, len(doc)-len(`[{"s":"`)-len(`"}]`), n)
	assert.Equal(t, off, units)
}

func TestStringSourceFaults(t *testing.T) {
	doc := `["a string long enough to be a slice"]`
	v, err := value.ParseLazy(doc)
	require.NoError(t, err)
	good := writeInPlace(v)
	o, err := Decode(good, nil, doc)
	require.NoError(t, err)
	require.Equal(t, 1, o.Counts[OpStringSource])
	for i := range good {
		for _, b := range []byte{0, 0x7f, 0xff} {
			bad := append([]byte(nil), good...)
			bad[i] = b
			_, _ = Decode(bad, &Table{}, doc) // must not panic
		}
	}
	// The op's operands: from before the source, and past its end.
	at := HeaderSize + 2 // ARRAY 1, then STRING_SRC
	require.Equal(t, byte(OpStringSource), good[at])
	before := append([]byte(nil), good...)
	before[at+1] = 1
	_, err = Decode(before, nil, doc)
	assert.ErrorContains(t, err, "outside the source text")
	past := append([]byte(nil), good...)
	past[at+2]++
	_, err = Decode(past, nil, doc)
	assert.ErrorContains(t, err, "outside the source text")
}
