package wire

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

// hasBackslash reports whether raw, a string's JSON contents, holds an
// escape.
func hasBackslash(raw string) bool { return strings.IndexByte(raw, '\\') >= 0 }

// Eight bytes at a time: the high bit of each byte, the byte 0x01 in each,
// and a backslash in each.
const (
	highBits   = 0x8080808080808080
	lowBits    = 0x0101010101010101
	backslashs = '\\' * lowBits
)

// appendText appends s to dst as TextDecoder (the WHATWG UTF-8 decoder,
// with replacement) would decode it, re-encoded as UTF-8, and returns the
// number of UTF-16 code units that decoding gives: for valid UTF-8, s as
// it is; each maximal invalid subpart becomes U+FFFD. JavaScript decodes
// the string area once and slices it by these counts, so they must be the
// decoder's exactly.
func appendText(dst []byte, s string) ([]byte, int) {
	n, _, ok := scanText(s)
	if !ok {
		return appendReplaced(dst, s)
	}
	return append(dst, s...), n
}

// scanText reads s once: when it is valid UTF-8 (ok), it returns the
// number of UTF-16 code units it decodes to and whether it holds a
// backslash (for a string's JSON contents, an escape). ASCII goes eight
// bytes at a time: most strings are ASCII with a few other characters, and
// checking them with utf8.ValidString, counting them byte by byte and
// looking for an escape with strings.IndexByte read them three times.
func scanText(s string) (units int, backslash, ok bool) {
	p := unsafe.StringData(s)
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			x := *(*uint64)(unsafe.Add(unsafe.Pointer(p), i))
			if x&highBits == 0 {
				// ASCII: a byte of x^backslashs is zero where x has a
				// backslash, which sets its high bit here.
				t := x ^ backslashs
				backslash = backslash || (t-lowBits)&^t&highBits != 0
				i += 8
				units += 8
				continue
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			backslash = backslash || c == '\\'
			i++
			units++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return 0, false, false
		}
		i += size
		units++
		if size == 4 { // a surrogate pair in UTF-16
			units++
		}
	}
	return units, backslash, true
}

// appendReplaced is appendText for s that is not valid UTF-8: each maximal
// subpart of an ill-formed sequence (the WHATWG decoder's rule, which is
// Unicode's "U+FFFD substitution of maximal subparts") becomes U+FFFD.
func appendReplaced(dst []byte, s string) ([]byte, int) {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			n++
			i++
			continue
		}
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c == 0xED:
			need, hi = 2, 0x9F
		case c >= 0xE1 && c <= 0xEF:
			need = 2
		case c == 0xF0:
			need, lo = 3, 0x90
		case c >= 0xF1 && c <= 0xF3:
			need = 3
		case c == 0xF4:
			need, hi = 3, 0x8F
		}
		j := 1
		for ; j <= need && i+j < len(s); j++ {
			b := s[i+j]
			if b < lo || b > hi {
				break
			}
			lo, hi = 0x80, 0xBF
		}
		if need == 0 || j <= need {
			// c alone, or c and the continuation bytes that fit: one
			// replacement character.
			dst = utf8.AppendRune(dst, utf8.RuneError)
			n++
			i += j
			continue
		}
		dst = append(dst, s[i:i+j]...)
		n++
		if need == 3 {
			n++
		}
		i += j
	}
	return dst, n
}
