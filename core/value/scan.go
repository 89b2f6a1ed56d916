package value

import "math/bits"

// skipSpace returns the index of the first non-whitespace byte at or after i.
func skipSpace(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ', '\n', '\r', '\t':
		default:
			return i
		}
	}
	return i
}

// hasWord reports whether the literal word starts at s[i].
func hasWord(s string, i int, word string) bool {
	return len(s)-i >= len(word) && s[i:i+len(word)] == word
}

// scanString scans a string's contents starting at i, just past the opening
// quote. It returns the index of the closing quote and whether the contents
// hold escapes, or a negative index if the string is malformed or
// unterminated; stringError then says why.
func scanString(s string, i int) (end int, esc bool) {
	for {
		i = plainEnd(s, i)
		if i >= len(s) {
			return -1, esc
		}
		switch s[i] {
		case '"':
			return i, esc
		case '\\':
		default: // an unescaped control character
			return -1, esc
		}
		esc = true
		if i+1 >= len(s) {
			return -1, esc
		}
		switch s[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+6 > len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
				return -1, esc
			}
			i += 6
		default:
			return -1, esc
		}
	}
}

// SWAR constants: lsb has the low bit of each byte set, msb the high bit.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plainEnd returns the index of the first byte at or after i that cannot
// stand unescaped in a JSON string (a quote, a backslash or a control
// character), or len(s). Strings are most of a response's bytes, so it
// tests eight bytes per step.
func plainEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := specials(s[i : i+8]); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			return i
		}
	}
	return i
}

// specials returns a mask with the high bit set in the bytes of the 8-byte
// string b that are below 0x20, '"' or '\\', where byte 0 is the lowest.
// x-lsb borrows into a byte's high bit when that byte of x is zero, and ^w
// masks out bytes that had the high bit already (UTF-8). A borrow can also
// flag bytes above a true match but never below one, so the lowest flag is
// exact.
func specials(b string) uint64 {
	w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
	return ((w - lsb*0x20) | ((w ^ lsb*'"') - lsb) | ((w ^ lsb*'\\') - lsb)) &^ w & msb
}

func isHex(c byte) bool {
	return c-'0' < 10 || (c|0x20)-'a' < 6
}

// scanNumber scans a number literal starting at s[i], which is '-' or a
// digit. It returns the index just past it, or -1 if it is malformed;
// numberError then says why.
func scanNumber(s string, i int) int {
	if s[i] == '-' {
		i++
		if i >= len(s) {
			return -1
		}
	}
	switch c := s[i]; {
	case c == '0':
		i++
	case c-'1' < 9:
		i++
		for i < len(s) && s[i]-'0' < 10 {
			i++
		}
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		for i < len(s) && s[i]-'0' < 10 {
			i++
		}
		if i == d {
			return -1
		}
	}
	if i < len(s) && s[i]|0x20 == 'e' {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && s[i]-'0' < 10 {
			i++
		}
		if i == d {
			return -1
		}
	}
	// Only a leading zero can leave a digit unconsumed ("01").
	if i < len(s) && s[i]-'0' < 10 {
		return -1
	}
	return i
}
