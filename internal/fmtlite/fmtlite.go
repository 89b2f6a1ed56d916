// Package fmtlite formats error messages and short strings as fmt does,
// for the verbs and operand types datafetch prints, without fmt's
// reflection-driven printer.
//
// fmt prints any value through package reflect: linked into datafetch.wasm,
// fmt with reflect's value printing and internal/fmtsort cost about 45 KB
// brotli, for messages that only ever print strings, numbers, errors and
// Stringers. fmtlite prints those exactly as fmt does. build.sh fails the
// build when a package linked into datafetch.wasm imports fmt.
//
// Verbs: %v and %s (an error's Error(), a Stringer's String(), a string,
// a bool, an integer or a float as fmt's %v; nil as <nil>; a []string or
// []any as [e1 e2], each element with the verb), %s and %q of a []byte,
// %q (a string, an error or a Stringer quoted with strconv.Quote), %d
// (integers), %c (a rune), %T (the type's name), %w (Errorf only: as %v,
// and the error is wrapped as fmt.Errorf wraps it) and %%. No flags, width
// or precision. Any other verb or operand prints as %!verb(TYPE), where fmt
// would print the value through reflection: a message never panics, and
// TestMatchesFmt checks each case fmtlite supports against fmt.
package fmtlite

import (
	"errors"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// Stringer is fmt.Stringer: a value that prints itself.
type Stringer interface {
	String() string
}

// Sprintf formats as fmt.Sprintf.
func Sprintf(format string, args ...any) string {
	return string(appendf(nil, format, args, nil))
}

// Appendf formats as fmt.Appendf, appending to b.
func Appendf(b []byte, format string, args ...any) []byte {
	return appendf(b, format, args, nil)
}

// Sprint formats as fmt.Sprint: each operand as %v, with a space between
// two operands when neither is a string.
func Sprint(args ...any) string {
	var b []byte
	for i, a := range args {
		if i > 0 && !isString(a) && !isString(args[i-1]) {
			b = append(b, ' ')
		}
		b = appendValue(b, 'v', a)
	}
	return string(b)
}

// Errorf formats as fmt.Errorf: the error's message is Sprintf's, and it
// wraps the operands of %w (Unwrap() error for one, Unwrap() []error for
// several), so errors.Is and errors.As see them.
func Errorf(format string, args ...any) error {
	var wrapped []error
	msg := string(appendf(nil, format, args, &wrapped))
	switch len(wrapped) {
	case 0:
		return errors.New(msg)
	case 1:
		return &wrapError{msg: msg, err: wrapped[0]}
	default:
		return &wrapErrors{msg: msg, errs: wrapped}
	}
}

type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

type wrapErrors struct {
	msg  string
	errs []error
}

func (e *wrapErrors) Error() string   { return e.msg }
func (e *wrapErrors) Unwrap() []error { return e.errs }

// appendf appends format with args substituted; with wrapped non-nil, %w
// is allowed and its errors are collected there.
func appendf(b []byte, format string, args []any, wrapped *[]error) []byte {
	n := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b = append(b, c)
			continue
		}
		i++
		if i == len(format) {
			return append(b, "%!(NOVERB)"...)
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size - 1
		if verb == '%' {
			b = append(b, '%')
			continue
		}
		if n >= len(args) {
			b = append(b, "%!"...)
			b = utf8.AppendRune(b, verb)
			b = append(b, "(MISSING)"...)
			continue
		}
		a := args[n]
		n++
		if verb == 'w' {
			err, ok := a.(error)
			if wrapped == nil || !ok {
				b = badVerb(b, verb, a)
				continue
			}
			*wrapped = append(*wrapped, err)
			verb = 'v'
		}
		b = appendValue(b, verb, a)
	}
	if n < len(args) {
		b = append(b, "%!(EXTRA "...)
		for i, a := range args[n:] {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, typeName(a)...)
			b = append(b, '=')
			b = appendValue(b, 'v', a)
		}
		b = append(b, ')')
	}
	return b
}

// appendValue appends a formatted with verb, as fmt's printArg does for
// the types fmtlite knows.
func appendValue(b []byte, verb rune, a any) []byte {
	if verb == 'T' {
		return append(b, typeName(a)...)
	}
	if a == nil {
		if verb == 'v' {
			return append(b, "<nil>"...)
		}
		return badVerb(b, verb, a)
	}
	switch v := a.(type) {
	case string:
		return appendString(b, verb, v, a)
	case []byte:
		if verb != 'v' {
			return appendString(b, verb, string(v), a)
		}
		return badVerb(b, verb, a)
	case []string:
		return appendSlice(b, verb, len(v), func(b []byte, i int) []byte { return appendValue(b, verb, v[i]) })
	case []any:
		return appendSlice(b, verb, len(v), func(b []byte, i int) []byte { return appendValue(b, verb, v[i]) })
	case bool:
		if verb != 'v' {
			return badVerb(b, verb, a)
		}
		return strconv.AppendBool(b, v)
	case float64:
		return appendFloat(b, verb, v, 64, a)
	case float32:
		return appendFloat(b, verb, float64(v), 32, a)
	case error:
		if isStringVerb(verb) {
			return appendMethod(b, verb, a, "Error", v.Error)
		}
	case Stringer:
		if isStringVerb(verb) {
			return appendMethod(b, verb, a, "String", v.String)
		}
	}
	// Integers, of any named integer type (fmt prints a named type by its
	// kind when it has no String method).
	rv := reflect.ValueOf(a)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return appendInt(b, verb, rv.Int(), a)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if verb == 'c' && u <= utf8.MaxRune {
			return utf8.AppendRune(b, rune(u))
		}
		if verb != 'v' && verb != 'd' {
			return badVerb(b, verb, a)
		}
		return strconv.AppendUint(b, u, 10)
	case reflect.String:
		return appendString(b, verb, rv.String(), a)
	case reflect.Bool:
		return appendValue(b, verb, rv.Bool())
	}
	return badVerb(b, verb, a)
}

// appendSlice appends a slice of n elements as fmt prints one: each
// element with verb, between brackets, separated by spaces.
func appendSlice(b []byte, verb rune, n int, elem func(b []byte, i int) []byte) []byte {
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ' ')
		}
		b = elem(b, i)
	}
	return append(b, ']')
}

func appendString(b []byte, verb rune, s string, a any) []byte {
	switch verb {
	case 'v', 's':
		return append(b, s...)
	case 'q':
		return strconv.AppendQuote(b, s)
	}
	return badVerb(b, verb, a)
}

func appendInt(b []byte, verb rune, i int64, a any) []byte {
	switch verb {
	case 'v', 'd':
		return strconv.AppendInt(b, i, 10)
	case 'c':
		return utf8.AppendRune(b, rune(i))
	}
	return badVerb(b, verb, a)
}

func appendFloat(b []byte, verb rune, f float64, bits int, a any) []byte {
	if verb != 'v' {
		return badVerb(b, verb, a)
	}
	// fmt's %v of a float is %g with the shortest precision.
	return strconv.AppendFloat(b, f, 'g', -1, bits)
}

// isStringVerb reports whether fmt prints an operand with verb through its
// Error or String method.
func isStringVerb(verb rune) bool {
	return verb == 'v' || verb == 's' || verb == 'q'
}

// appendMethod appends what method (a's Error or String) returns, printed
// with verb. A panic in it prints as fmt prints it: <nil> for a nil
// pointer receiver, else %!verb(PANIC=Name method: value).
func appendMethod(b []byte, verb rune, a any, name string, method func() string) (out []byte) {
	defer func() {
		if p := recover(); p != nil {
			if v := reflect.ValueOf(a); v.Kind() == reflect.Pointer && v.IsNil() {
				out = append(b, "<nil>"...)
				return
			}
			out = append(b, "%!"...)
			out = utf8.AppendRune(out, verb)
			out = append(out, "(PANIC="...)
			out = append(out, name...)
			out = append(out, " method: "...)
			out = appendValue(out, 'v', p)
			out = append(out, ')')
		}
	}()
	return appendString(b, verb, method(), a)
}

// badVerb appends what fmt prints for a verb that does not fit the
// operand: %!verb(TYPE=value), or %!verb(<nil>).
func badVerb(b []byte, verb rune, a any) []byte {
	b = append(b, "%!"...)
	b = utf8.AppendRune(b, verb)
	b = append(b, '(')
	if a == nil {
		b = append(b, "<nil>"...)
	} else {
		b = append(b, typeName(a)...)
		if printsPlain(a) {
			b = append(b, '=')
			b = appendValue(b, 'v', a)
		}
	}
	return append(b, ')')
}

// typeName is %T: the operand's type as Go spells it, <nil> for nil.
func typeName(a any) string {
	if a == nil {
		return "<nil>"
	}
	return reflect.TypeOf(a).String()
}

// isString reports whether a is of a string kind, as fmt.Sprint tells it.
func isString(a any) bool {
	return a != nil && reflect.TypeOf(a).Kind() == reflect.String
}

// printsPlain reports whether badVerb prints a's value as fmt does: fmt
// prints it there without its Error or String method, as a Go value, which
// fmtlite does for the basic types only (for others it prints the type).
func printsPlain(a any) bool {
	switch a.(type) {
	case string, bool, float64, float32:
		return true
	case error, Stringer:
		return false
	}
	switch reflect.ValueOf(a).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.String, reflect.Bool:
		return true
	}
	return false
}
