package value

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// needsEscape reports whether s holds a byte that JSON does not allow
// unescaped inside quotes: a quote, a backslash or a control character.
func needsEscape(s string) bool {
	return plainEnd(s, 0) < len(s)
}

// escape returns s JSON-escaped, without the surrounding quotes.
func escape(s string) string {
	b := appendEscaped(make([]byte, 0, len(s)+8), s)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

const hexDigits = "0123456789abcdef"

// appendEscaped appends s JSON-escaped, without quotes. Only what JSON
// requires is escaped; other bytes, including invalid UTF-8, are kept so that
// escaping and unescaping give back the same bytes.
func appendEscaped(dst []byte, s string) []byte {
	for {
		i := plainEnd(s, 0)
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
// quotes. A \u escape of an unpaired surrogate becomes U+FFFD, as in
// encoding/json; other bytes are copied as they are.
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
				r = utf8.RuneError
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
