package value

import (
	"errors"
	"unsafe"
)

// A written tape is a parse that datafetch's JavaScript made itself, by
// walking plain objects it was handed (a fetch function's result), so
// that JSON.stringify's text need not be scanned again here: the JSON
// text and its tape entries together, in one buffer of little-endian
// words:
//
//	entries  uint32: the count of entries that follow
//	entry    4 × uint32 each: start, end, kind | esc<<3 | count<<4, skip
//	text     the JSON text the entries point into (offsets from its start)
//
// An entry is a token as on a tape: a string's or key's contents
// (without quotes; esc when they hold escapes), a number's or word's
// literal, or a container's text from its opening bracket to its closing
// one; count is a container's elements or members, skip the index of the
// entry after its last descendant. Kinds are Kind's values. The text is
// what JSON.stringify writes, so Source and JSON of the result are its.
// Keys are never repeated (a JavaScript object cannot hold one twice).
const (
	tapeWordBytes  = 4
	tapeEntryWords = 4
	tapeKindBits   = 3
	tapeEscBit     = 1 << tapeKindBits
	tapeCountShift = tapeKindBits + 1
)

// errWrittenTape is FromWrittenTape's error: the buffer is written by
// datafetch's own JavaScript, so one that does not hold together is a bug
// there; the error says what, not where.
var errWrittenTape = errors.New("written tape: the entries do not fit the text")

// FromWrittenTape returns the value a written tape (above) holds, lazy as
// ParseLazy's: data is handed over (kept as the text, not copied).
func FromWrittenTape(data []byte) (Value, error) {
	if len(data) < tapeWordBytes {
		return Undef, errWrittenTape
	}
	n := le32(data)
	words := data[tapeWordBytes:]
	if n == 0 || uint64(n)*tapeEntryWords*tapeWordBytes > uint64(len(words)) {
		return Undef, errWrittenTape
	}
	text := words[n*tapeEntryWords*tapeWordBytes:]
	if len(text) >= 1<<32-1 {
		return Undef, errWrittenTape
	}
	t := &tape{src: unsafe.String(unsafe.SliceData(text), len(text))}
	t.chunks = [][]tapeEntry{make([]tapeEntry, 0, min(int(n), tapeChunk))}
	for i := range n {
		w := words[i*tapeEntryWords*tapeWordBytes:]
		start := le32(w)
		end := le32(w[4:])
		bits := le32(w[8:])
		skip := le32(w[12:])
		kind := Kind(bits & (1<<tapeKindBits - 1))
		if start > end || end > uint32(len(text)) || kind == Undefined || kind > Object {
			return Undef, errWrittenTape
		}
		e := tapeEntry{kind: kind, start: start, end: end, esc: bits&tapeEscBit != 0}
		switch kind {
		case Array, Object:
			if skip <= i || skip > n {
				return Undef, errWrittenTape
			}
			e.c = uint32(len(t.conts))
			t.conts = append(t.conts, tapeContainer{at: i, skip: skip, n: bits >> tapeCountShift})
		case Bool:
			if end == start {
				return Undef, errWrittenTape
			}
		}
		t.push(e)
	}
	// The entries must nest as their counts and skips say, so that
	// reading them never leaves the tape.
	if next, ok := t.checkWritten(0, 0); !ok || next != n {
		return Undef, errWrittenTape
	}
	t.nodes = make([]node, len(t.conts))
	for c := range t.conts {
		t.nodes[c] = node{t: t, at: t.conts[c].at}
	}
	v, _ := t.value(0)
	return v, nil
}

// le32 returns the little-endian word b starts with (encoding/binary's,
// which datafetch.wasm does not otherwise link).
func le32(b []byte) uint32 {
	_ = b[3]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// checkWritten reports whether the value at entry at, depth containers
// deep, and what it holds are whole, and returns the entry after it.
func (t *tape) checkWritten(at uint32, depth int) (uint32, bool) {
	e := t.ent(at)
	if e.kind < Array {
		return at + 1, true
	}
	if depth == MaxDepth {
		return 0, false
	}
	c := t.conts[e.c]
	k := at + 1
	for range c.n {
		if k >= c.skip {
			return 0, false
		}
		if e.kind == Object {
			if t.ent(k).kind != String {
				return 0, false
			}
			k++
			if k >= c.skip {
				return 0, false
			}
		}
		var ok bool
		if k, ok = t.checkWritten(k, depth+1); !ok {
			return 0, false
		}
	}
	return k, k == c.skip
}
