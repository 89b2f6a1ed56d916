package value

import (
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Lone surrogates. JSON text may hold a \u escape of a UTF-16 surrogate
// that is not half of a pair ("\ud800"), and JavaScript strings hold such
// code units; UTF-8 cannot encode them. Decoded strings (keys, String's
// Str, a primary key's text) keep each one as the three bytes its code
// point would take in UTF-8 (ED A0 80 to ED BF BF, as WTF-8 does), so that
// "\ud800", "\udbff" and "\ufffd" stay three different strings, and
// escaping writes those bytes back as the \u escape they came from, so that
// JavaScript reads the very same string. Parse replaces such bytes when the
// input holds them literally (as invalid UTF-8 they decode to U+FFFD in
// JavaScript), so they only ever stand for an escaped surrogate.

// surrogateAt returns the index of the first lone surrogate in s, in its
// three-byte form, or -1. It runs on every parsed input, so from the first
// 0xED on it tests seven positions per step: a byte 0xED followed by one in 0xA0-0xBF. Searching
// for 0xED alone would stop at every character of Hangul text (U+D000 to
// U+D7FF start with 0xED too) and made Korean parse ten times slower.
func surrogateAt(s string) int {
	// Most text has no 0xED at all, which IndexByte finds fastest.
	i := strings.IndexByte(s, 0xED)
	if i < 0 {
		return -1
	}
	for ; i+8 <= len(s); i += 7 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// Byte k is 0xED and byte k+1 is 0xA0-0xBF; k = 7 waits for the next step.
		m := zeroBytes(w^(lsb*0xED)) & (zeroBytes(w&(lsb*0xE0)^(lsb*0xA0)) >> 8)
		for ; m != 0; m &= m - 1 {
			if j := i + bits.TrailingZeros64(m)>>3; isSurrogateBytes(s, j) {
				return j
			}
		}
	}
	for ; i < len(s); i++ {
		if isSurrogateBytes(s, i) {
			return i
		}
	}
	return -1
}

// zeroBytes returns a mask with the high bit set in exactly the bytes of x
// that are zero.
func zeroBytes(x uint64) uint64 {
	const low7 = lsb * 0x7F
	return ^((x&low7 + low7) | x | low7)
}

// isSurrogateBytes reports whether s[i:] starts with a surrogate's three-byte
// form.
func isSurrogateBytes(s string, i int) bool {
	return i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80
}

// appendSurrogate appends the three-byte form of the surrogate r.
func appendSurrogate(b []byte, r rune) []byte {
	return append(b, 0xED, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
}

// needsEscape reports whether s holds a byte that JSON does not allow
// unescaped inside quotes (a quote, a backslash or a control character) or
// a lone surrogate, which must be written as its \u escape.
func needsEscape(s string) bool {
	return plainEnd(s, 0) < len(s) || surrogateAt(s) >= 0
}

// escape returns s JSON-escaped, without the surrounding quotes.
func escape(s string) string {
	b := appendEscaped(make([]byte, 0, len(s)+8), s)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

const hexDigits = "0123456789abcdef"

// appendEscaped appends s JSON-escaped, without quotes. Only what JSON
// requires is escaped, and lone surrogates (see surrogateAt) are written as
// \u escapes; other bytes, including invalid UTF-8, are kept, so that
// escaping and unescaping give back the same bytes.
func appendEscaped(dst []byte, s string) []byte {
	for {
		i := plainEnd(s, 0)
		if j := surrogateAt(s[:i]); j >= 0 {
			r := rune(s[j]&0x0F)<<12 | rune(s[j+1]&0x3F)<<6 | rune(s[j+2]&0x3F)
			dst = append(dst, s[:j]...)
			dst = append(dst, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
			s = s[j+3:]
			continue
		}
		dst = append(dst, s[:i]...)
		if i == len(s) {
			return dst
		}
		switch c := s[i]; c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		s = s[i+1:]
	}
}

// unescape decodes the JSON escapes in raw, a string's contents without
// quotes. A \u escape of an unpaired surrogate becomes its three-byte form
// (see surrogateAt), not U+FFFD as in encoding/json, so that different
// surrogates stay different strings; other bytes are copied as they are.
func unescape(raw string) string {
	i := strings.IndexByte(raw, '\\')
	if i < 0 {
		return raw
	}
	b := make([]byte, 0, len(raw))
	for i >= 0 {
		b = append(b, raw[:i]...)
		raw = raw[i:]
		b, raw = unescapeOne(b, raw)
		i = strings.IndexByte(raw, '\\')
	}
	b = append(b, raw...)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// unescapeOne decodes the escape at the start of raw, appends it to b and
// returns the rest of raw. The scanner has validated raw, so a malformed
// escape can only come from a bug; it is copied through rather than panic.
func unescapeOne(b []byte, raw string) ([]byte, string) {
	if len(raw) < 2 {
		return append(b, raw...), ""
	}
	var c byte
	switch raw[1] {
	case '"', '\\', '/':
		c = raw[1]
	case 'b':
		c = '\b'
	case 'f':
		c = '\f'
	case 'n':
		c = '\n'
	case 'r':
		c = '\r'
	case 't':
		c = '\t'
	case 'u':
		r, ok := hex4(raw)
		if !ok {
			return append(b, raw[:2]...), raw[2:]
		}
		raw = raw[6:]
		if utf16.IsSurrogate(r) {
			// Only a high surrogate directly followed by an escaped low
			// one makes a pair; otherwise the next escape stands alone.
			r2, ok := hex4(raw)
			if d := utf16.DecodeRune(r, r2); ok && d != utf8.RuneError {
				r = d
				raw = raw[6:]
			} else {
				return appendSurrogate(b, r), raw
			}
		}
		return utf8.AppendRune(b, r), raw
	default:
		return append(b, raw[:2]...), raw[2:]
	}
	return append(b, c), raw[2:]
}

// hex4 decodes a \uXXXX escape at the start of s.
func hex4(s string) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[2:6]) {
		switch {
		case c-'0' < 10:
			c -= '0'
		case (c|0x20)-'a' < 6:
			c = c | 0x20 - 'a' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// HasLoneSurrogate reports whether s, a decoded string such as Str returns,
// holds a lone surrogate: JavaScript's String.prototype.isWellFormed is its
// negation. Such a string cannot be encoded as UTF-8, so for example
// encodeURIComponent refuses it.
func HasLoneSurrogate(s string) bool { return surrogateAt(s) >= 0 }

// ToWellFormed returns s with every lone surrogate replaced by U+FFFD, as
// JavaScript's String.prototype.toWellFormed does (and URLSearchParams
// does to the strings it is given).
func ToWellFormed(s string) string {
	i := surrogateAt(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for ; i >= 0; i = surrogateAt(s) {
		b.WriteString(s[:i])
		b.WriteString("\uFFFD")
		s = s[i+3:]
	}
	b.WriteString(s)
	return b.String()
}
