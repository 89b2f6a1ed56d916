package wire

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

// hasBackslash reports whether raw, a string's JSON contents, holds an
// escape.
func hasBackslash(raw string) bool { return strings.IndexByte(raw, '\\') >= 0 }

// appendText appends s to dst as TextDecoder (the WHATWG UTF-8 decoder,
// with replacement) would decode it, re-encoded as UTF-8, and returns the
// number of UTF-16 code units that decoding gives: for valid UTF-8, s as
// it is; each maximal invalid subpart becomes U+FFFD. JavaScript decodes
// the string area once and slices it by these counts, so they must be the
// decoder's exactly.
func appendText(dst []byte, s string) ([]byte, int) {
	i := asciiPrefix(s)
	if i == len(s) {
		return append(dst, s...), len(s)
	}
	if utf8.ValidString(s[i:]) {
		n := i
		for j := i; j < len(s); j++ {
			c := s[j]
			if c&0xC0 != 0x80 { // not a continuation byte
				n++
				if c >= 0xF0 { // four bytes: a surrogate pair
					n++
				}
			}
		}
		return append(dst, s...), n
	}
	return appendReplaced(dst, s)
}

// asciiPrefix returns the length of the longest prefix of s that is ASCII,
// eight bytes at a time.
func asciiPrefix(s string) int {
	i := 0
	if len(s) >= 8 {
		p := unsafe.StringData(s)
		for ; i+8 <= len(s); i += 8 {
			if *(*uint64)(unsafe.Add(unsafe.Pointer(p), i))&0x8080808080808080 != 0 {
				break
			}
		}
	}
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	return i
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
