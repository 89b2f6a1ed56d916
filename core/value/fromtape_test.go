package value

import (
	"encoding/binary"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/value/valuetest"
)

// writtenTape writes s's parse as datafetch's JavaScript writes a tape
// (tapewrite.mjs), from scanTape's entries; ok is false where no such
// tape exists: s is not JSON, holds a lone surrogate's bytes, or an
// object with a key twice (which a JavaScript object cannot hold).
func writtenTape(s string) (data []byte, ok bool) {
	if surrogateAt(s) >= 0 {
		return nil, false
	}
	t, ok := scanTape(s)
	if !ok {
		return nil, false
	}
	for _, c := range t.conts {
		if t.ent(c.at).kind != Object {
			continue
		}
		// A deduplicated object counts fewer members than it holds.
		n := uint32(0)
		for k := c.at + 1; k < c.skip; k = t.skipValue(k + 1) {
			n++
		}
		if n != c.n {
			return nil, false
		}
	}
	data = binary.LittleEndian.AppendUint32(nil, t.n)
	for at := range t.n {
		e := t.ent(at)
		bits := uint32(e.kind)
		if e.esc {
			bits |= tapeEscBit
		}
		var skip uint32
		if e.kind >= Array {
			c := t.conts[e.c]
			bits |= c.n << tapeCountShift
			skip = c.skip
		}
		for _, w := range [...]uint32{e.start, e.end, bits, skip} {
			data = binary.LittleEndian.AppendUint32(data, w)
		}
	}
	return append(data, s...), true
}

func TestFromWrittenTape(t *testing.T) {
	for _, s := range []string{
		`null`, `true`, `false`, `0`, `-0`, `1e+21`, `-1.5e-7`, `""`, `"a\"b\\c\n\u0001"`,
		`"\ud800 lone, é, 😀"`, `[]`, `{}`, `[1,[2,[3,[]]],{}]`,
		`{"a":{"b":[true,null,"x"]},"k\"ey":-0,"n":123456789012345678901234567890}`,
		`[{"id":1,"tags":["go","wasm"]},{"id":2,"tags":[]}]`,
		string(valuetest.Articles(20, 1)),
	} {
		t.Run(s[:min(len(s), 24)], func(t *testing.T) {
			data, ok := writtenTape(s)
			require.True(t, ok)
			got, err := FromWrittenTape(data)
			require.NoError(t, err)
			want, err := ParseLazy(s)
			require.NoError(t, err)
			assert.True(t, Equal(want, got), "got %s, want %s", got.JSON(), want.JSON())
			assert.Equal(t, want.JSON(), got.JSON())
		})
	}
}

func TestFromWrittenTapeRefusesBadTapes(t *testing.T) {
	good, ok := writtenTape(`{"a":[1,2],"b":"x"}`)
	require.True(t, ok)
	word := func(i int) int { return 4 + 4*i }
	for _, tc := range []struct {
		name  string
		patch func([]byte) []byte
	}{
		{"empty", func([]byte) []byte { return nil }},
		{"no entries", func(b []byte) []byte { return binary.LittleEndian.AppendUint32(nil, 0) }},
		{"more entries than bytes", func(b []byte) []byte { binary.LittleEndian.PutUint32(b, 1000); return b }},
		{"end past the text", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[word(1):], 1000); return b }},
		{"start after end", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[word(4):], 9); return b }},
		{"undefined kind", func(b []byte) []byte { b[word(6)] = 0; return b }},
		{"unknown kind", func(b []byte) []byte { b[word(6)] = 7; return b }},
		{"skip before the entry", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[word(3):], 0); return b }},
		{"skip past the end", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[word(3):], 99); return b }},
		{"count too high", func(b []byte) []byte { b[word(2)] += 1 << tapeCountShift; return b }},
		{"count too low", func(b []byte) []byte { b[word(2)] -= 1 << tapeCountShift; return b }},
		{"key not a string", func(b []byte) []byte { b[word(4+2)] = byte(Number); return b }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromWrittenTape(tc.patch(append([]byte(nil), good...)))
			require.ErrorIs(t, err, errWrittenTape)
		})
	}
}

// FuzzWrittenTape checks FromWrittenTape on any bytes (an error or a
// value, never a panic) and, on JSON, against ParseLazy: the tape written
// for it reads as the same value with the same text.
func FuzzWrittenTape(f *testing.F) {
	for _, seed := range []string{
		`null`, `-0`, `1e400`, `"\u00e9\uD83D\uDE00"`, `"a\"\\\/\b\f\n\r\t"`,
		`[]`, `{}`, `[1,[2,[3]]]`, `{"a":{"b":[true,null]}}`, `{"a":1,"a":2}`,
		` { "k" : [ 1 , 2 ] } `, `[1,]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if v, err := FromWrittenTape(append([]byte(nil), data...)); err == nil {
			_ = v.JSON() // reading it all stays on the tape
		}
		s := string(data)
		written, ok := writtenTape(s)
		if !ok {
			return
		}
		want, err := ParseLazy(s)
		require.NoError(t, err)
		got, err := FromWrittenTape(written)
		require.NoError(t, err)
		if !Equal(want, got) || want.JSON() != got.JSON() {
			t.Fatalf("%q: written tape reads %s, ParseLazy %s", s, got.JSON(), want.JSON())
		}
	})
}

func BenchmarkFromWrittenTape(b *testing.B) {
	for _, n := range benchSizes {
		data := string(valuetest.Articles(n, 1))
		written, ok := writtenTape(data)
		require.True(b, ok)
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := FromWrittenTape(written); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
