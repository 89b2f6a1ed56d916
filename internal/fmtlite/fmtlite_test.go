package fmtlite

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type (
	kind     string
	op       uint8
	level    int
	flag     bool
	named    struct{ n int }
	stringer struct{ s string }
	panicker struct{}
)

func (s stringer) String() string { return "<" + s.s + ">" }
func (n *named) String() string   { return fmt.Sprint("named ", n.n) }
func (panicker) String() string   { panic("boom") }
func (k kind) Error() string      { return "kind " + string(k) }
func (l level) String() string    { return "level" }

// TestMatchesFmt checks Sprintf against fmt.Sprintf for every verb and
// operand type fmtlite knows, and for mistakes (a wrong verb, a missing or
// an extra operand).
func TestMatchesFmt(t *testing.T) {
	err := errors.New("it failed")
	cases := []struct {
		format string
		args   []any
	}{
		{"plain", nil},
		{"100%%", nil},
		{"%s and %v", []any{"str", "str"}},
		{"%q", []any{"quote \"me\"\n\u00e9\x01"}},
		{"%s %q", []any{[]byte("bytes"), []byte("b\"q")}},
		{"%d %v %d %d %d %d", []any{42, -7, int8(-8), int16(16), int32(-32), int64(math.MinInt64)}},
		{"%d %v %d %d %d %d", []any{uint(1), uint8(255), uint16(16), uint32(32), uint64(math.MaxUint64), uintptr(9)}},
		{"%v %v", []any{true, false}},
		{"%v %v %v %v %v %v", []any{1.5, 1e21, 1e20, 1e-5, 0.0001, float32(0.1)}},
		{"%v %v %v %v", []any{math.Inf(1), math.Inf(-1), math.NaN(), -0.0}},
		{"%v %s %q", []any{err, err, err}},
		{"%v %s %q", []any{stringer{"a"}, stringer{"b"}, stringer{"c"}}},
		{"%v %s", []any{&named{3}, (*named)(nil)}},
		{"%v", []any{panicker{}}},
		{"%v %s %q %d", []any{kind("k"), kind("k"), kind("k"), op(3)}},
		{"%v %d", []any{level(2), level(2)}},
		{"%v", []any{flag(true)}},
		{"%c%c%c", []any{'x', rune(0x1F600), byte('b')}},
		{"%T %T %T %T %T", []any{"s", 1, err, stringer{}, nil}},
		{"%v %s", []any{nil, nil}},
		{"%v %q %s", []any{[]any{"a", 1, []any{true}, nil}, []string{"x", "y\""}, []string{}}},
		{"%d", []any{"not a number"}},
		{"%s", []any{12}},
		{"%q", []any{true}},
		{"%d", []any{1.5}},
		{"%s %s", []any{"one"}},
		{"%s", []any{"one", 2, "three"}},
		{"trailing %", nil},
		{"%s: %d — %q", []any{fs.ErrNotExist, 7, "é"}},
	}
	for _, c := range cases {
		assert.Equal(t, fmt.Sprintf(c.format, c.args...), Sprintf(c.format, c.args...), "Sprintf(%q)", c.format)
		assert.Equal(t, string(fmt.Appendf([]byte("pre "), c.format, c.args...)),
			string(Appendf([]byte("pre "), c.format, c.args...)), "Appendf(%q)", c.format)
	}
}

func TestSprintMatchesFmt(t *testing.T) {
	for _, args := range [][]any{
		nil,
		{"a", "b"},
		{1, 2},
		{"a", 1, 2, "b", kind("c"), 3},
		{errors.New("e"), 1.5, true},
	} {
		assert.Equal(t, fmt.Sprint(args...), Sprint(args...), "Sprint(%v)", args)
	}
}

// TestErrorfWraps checks that Errorf's errors wrap their %w operands as
// fmt.Errorf's do, and print the same.
func TestErrorfWraps(t *testing.T) {
	inner := errors.New("inner")
	other := fs.ErrNotExist

	one := Errorf("ctx %q: %w", "x", inner)
	require.EqualError(t, one, fmt.Errorf("ctx %q: %w", "x", inner).Error())
	assert.ErrorIs(t, one, inner)
	assert.Same(t, inner, errors.Unwrap(one))

	two := Errorf("%w and %w", inner, other)
	require.EqualError(t, two, fmt.Errorf("%w and %w", inner, other).Error())
	assert.ErrorIs(t, two, inner)
	assert.ErrorIs(t, two, other)
	assert.Nil(t, errors.Unwrap(two))

	none := Errorf("plain %d", 1)
	assert.EqualError(t, none, "plain 1")
	assert.Nil(t, errors.Unwrap(none))

	var k kind
	assert.ErrorAs(t, Errorf("as: %w", kind("x")), &k)
	assert.Equal(t, kind("x"), k)

	format := "bad %w" // a variable, so vet lets fmt.Errorf take a non-error
	for _, bad := range []any{nil, "not an error"} {
		assert.EqualError(t, Errorf(format, bad), fmt.Errorf(format, bad).Error())
	}
}
