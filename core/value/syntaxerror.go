package value

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// ErrTooDeep is wrapped by the *SyntaxError of a document that nests arrays
// and objects deeper than MaxDepth. Such a document may be valid JSON, but
// it is refused all the same, so callers that would otherwise fall back to
// treating a body that does not parse as text can tell it apart.
var ErrTooDeep = errors.New("JSON nests deeper than value.MaxDepth")

// SyntaxError reports malformed JSON: where it went wrong and what was found
// there instead of what was expected.
type SyntaxError struct {
	// Offset is the byte offset in the input of the offending character, or
	// the input's length when the input ended too soon.
	Offset int64
	// Msg says what was found and what was expected.
	Msg string
	// Err is ErrTooDeep for a document nested too deep; nil otherwise.
	Err error
}

// Error formats the error as "invalid JSON at offset N: msg", or for a
// document nested too deep, which may well be valid, as
// "JSON too deep at offset N: nesting deeper than 1000 levels".
func (e *SyntaxError) Error() string {
	what := "invalid JSON"
	if e.Err == ErrTooDeep {
		what = "JSON too deep"
	}
	return what + " at offset " + strconv.FormatInt(e.Offset, 10) + ": " + e.Msg
}

// Unwrap returns Err, so errors.Is(err, ErrTooDeep) finds a depth error.
func (e *SyntaxError) Unwrap() error { return e.Err }

// The functions below build a parse's error. They run once per failed parse,
// so they re-scan the input rather than burden the scanner with bookkeeping.

func depthError(i int) error {
	return &SyntaxError{Offset: int64(i), Msg: "nesting deeper than " + strconv.Itoa(MaxDepth) + " levels", Err: ErrTooDeep}
}

// unexpected reports what was found at s[i] (or the end of input) followed
// by context, which says where and what was expected.
func unexpected(s string, i int, context string) error {
	if i >= len(s) {
		return &SyntaxError{Offset: int64(len(s)), Msg: "unexpected end of input" + context}
	}
	return &SyntaxError{Offset: int64(i), Msg: "unexpected " + describe(s, i) + context}
}

// describe names the character at s[i] for an error message.
func describe(s string, i int) string {
	c := s[i]
	if c < utf8.RuneSelf {
		return "character " + strconv.QuoteRune(rune(c))
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size <= 1 {
		return "byte 0x" + strconv.FormatUint(uint64(c), 16)
	}
	return "character " + strconv.QuoteRune(r)
}

// where describes the innermost open container for an error message.
func (p *parser) where() string {
	if len(p.stack) == 0 {
		return ""
	}
	if p.stack[len(p.stack)-1].obj {
		return " in object"
	}
	return " in array"
}

// valueError reports that no value starts at s[i].
func (p *parser) valueError(s string, i int) error {
	return unexpected(s, i, p.where()+", expected a value")
}

// afterError reports what follows a value inside a container when it is
// neither a comma nor the closing bracket.
func (p *parser) afterError(s string, i int) error {
	if p.stack[len(p.stack)-1].obj {
		return unexpected(s, i, " in object, expected ',' or '}'")
	}
	return unexpected(s, i, " in array, expected ',' or ']'")
}

// wordError reports where s[i:] stops matching the literal word.
func wordError(s string, i int, word string) error {
	k := 0
	for k < len(word) && i+k < len(s) && s[i+k] == word[k] {
		k++
	}
	return unexpected(s, i+k, " in literal "+word)
}

// stringError reports why scanString rejected the string whose contents
// start at s[i].
func stringError(s string, i int) error {
	for {
		i = plainEnd(s, i)
		if i >= len(s) {
			return unexpected(s, i, " in string")
		}
		c := s[i]
		if c != '\\' {
			// scanString accepted everything up to here, so c is a
			// control character.
			return &SyntaxError{Offset: int64(i), Msg: "unescaped control character " +
				strconv.QuoteRune(rune(c)) + " in string, expected it escaped"}
		}
		if i+1 >= len(s) {
			return unexpected(s, i+1, " in string escape")
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			for k := i + 2; k < i+6; k++ {
				if k >= len(s) || !isHex(s[k]) {
					return unexpected(s, k, " in \\u escape, expected hex digit")
				}
			}
			i += 6
		default:
			return unexpected(s, i+1, " in string escape, expected one of \"\\/bfnrtu")
		}
	}
}

// numberError reports why scanNumber rejected the number at s[i].
func numberError(s string, i int) error {
	digits := func(i int, what string) (int, error) {
		if i >= len(s) || s[i]-'0' > 9 {
			return i, unexpected(s, i, " in number, expected digit "+what)
		}
		for i < len(s) && s[i]-'0' < 10 {
			i++
		}
		return i, nil
	}
	what := "at start"
	if s[i] == '-' {
		i++
		what = "after '-'"
	}
	if i < len(s) && s[i] == '0' && i+1 < len(s) && s[i+1]-'0' < 10 {
		return &SyntaxError{Offset: int64(i), Msg: "invalid number: leading zero"}
	}
	i, err := digits(i, what)
	if err != nil {
		return err
	}
	if i < len(s) && s[i] == '.' {
		if i, err = digits(i+1, "after decimal point"); err != nil {
			return err
		}
	}
	if i < len(s) && s[i]|0x20 == 'e' {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if _, err = digits(i, "in exponent"); err != nil {
			return err
		}
	}
	// Unreachable for input scanNumber rejected; kept so a disagreement
	// between the two shows up as an error rather than a panic.
	return unexpected(s, i, " in number")
}
