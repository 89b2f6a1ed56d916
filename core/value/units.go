package value

import (
	"math/bits"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// Text is the whole document a parse onto a tape read (ParseLazy), with
// an index of its UTF-16 code unit offsets, made on first use. A string
// value without escapes read off the tape is a slice of it: an encoder
// for JavaScript, which can decode the document once, can name such a
// string by its UTF-16 offset and length in the document instead of
// copying its bytes (jsbridge/wire, SPEC.md section 7a).
type Text struct {
	// S is the document.
	S    string
	once sync.Once
	// utf8 is set when S is valid UTF-8 (so that TextDecoder decodes it
	// without replacements, and UTF-16 offsets follow from its bytes).
	utf8 bool
	// ascii is set when S is all ASCII: offsets in bytes and code units
	// are the same.
	ascii bool
	// blocks holds, for a text with other characters, the code units of
	// S[:i*unitBlock] at i.
	blocks []uint32
}

// unitBlock is the stride of Text.blocks in bytes: an offset is found
// by counting at most unitBlock-1 bytes after its block's start, 8 at a
// time, for an index a sixteenth of the text's size.
const unitBlock = 64

// TextOf returns the document v, an Array or Object that ParseLazy read
// onto a tape, was read from; nil for any other value.
func TextOf(v Value) *Text {
	if !v.esc || v.n == 0 || (v.kind != Array && v.kind != Object) {
		return nil
	}
	t := (*node)(v.kids).t
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.text == nil {
		t.text = &Text{S: t.src}
	}
	return t.text
}

// index builds the index once.
func (x *Text) index() {
	x.once.Do(func() {
		s := x.S
		if !utf8.ValidString(s) {
			return
		}
		x.utf8 = true
		x.ascii = true
		for i := 0; i < len(s); i++ {
			if s[i] >= utf8.RuneSelf {
				x.ascii = false
				break
			}
		}
		if x.ascii {
			return
		}
		x.blocks = make([]uint32, len(s)/unitBlock+1)
		units := 0
		for i := range x.blocks {
			x.blocks[i] = uint32(units)
			end := min((i+1)*unitBlock, len(s))
			units += countUnits(s, i*unitBlock, end)
		}
	})
}

// Valid reports whether the text is valid UTF-8, which Units needs.
func (x *Text) Valid() bool {
	x.index()
	return x.utf8
}

// Units returns the number of UTF-16 code units that S[:off] decodes to;
// off must be at a character's start (or len(S)) and the text Valid.
func (x *Text) Units(off int) int {
	if x.ascii {
		return off
	}
	b := off / unitBlock
	return int(x.blocks[b]) + countUnits(x.S, b*unitBlock, off)
}

// Boundary reports whether off is at a character's start (or the end) of
// S.
func (x *Text) Boundary(off int) bool {
	return off >= len(x.S) || x.S[off]&0xC0 != 0x80
}

// Eight bytes at a time: the high bit of each byte.
const unitHighs = 0x8080808080808080

// countUnits returns the UTF-16 code units of the characters that start
// in s[from:to], s being valid UTF-8: one for each byte that is not a
// continuation byte (10xxxxxx), and one more for each lead of a
// four-byte sequence (11110xxx), which is a surrogate pair.
func countUnits(s string, from, to int) int {
	n := 0
	p := unsafe.StringData(s)
	i := from
	for ; i+8 <= to; i += 8 {
		x := *(*uint64)(unsafe.Add(unsafe.Pointer(p), i))
		if x&unitHighs == 0 {
			n += 8
			continue
		}
		// Bit 7 of a byte set and bit 6 clear: a continuation byte. The
		// shifted copies bring bits 6, 5 and 4 of each byte to bit 7.
		cont := x &^ (x << 1) & unitHighs
		lead4 := x & (x << 1) & (x << 2) & (x << 3) & unitHighs
		n += 8 - bits.OnesCount64(cont) + bits.OnesCount64(lead4)
	}
	for ; i < to; i++ {
		c := s[i]
		if c&0xC0 != 0x80 {
			n++
		}
		if c >= 0xF0 {
			n++
		}
	}
	return n
}
