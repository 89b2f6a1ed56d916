package value

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/value/valuetest"
)

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b Value
		want bool
	}{
		{Undef, Undef, true},
		{NullV, NullV, true},
		{Undef, NullV, false},
		{True, True, true},
		{True, False, false},
		{True, MustParse("true"), true},
		{Int(0), False, false},
		{Int(1), Str("1"), false},

		// Numbers compare by value, as in JavaScript.
		{MustParse("1"), MustParse("1.0"), true},
		{MustParse("1"), MustParse("1e0"), true},
		{MustParse("100"), MustParse("1E2"), true},
		{MustParse("0"), MustParse("-0"), true},
		{MustParse("0.1"), Num(0.1), true},
		{MustParse("1"), MustParse("1.0000001"), false},
		{MustParse("1e400"), MustParse("2e400"), true}, // both Infinity
		{Int(5), Num(5), true},

		// Strings compare by decoded text.
		{Str("a"), Str("a"), true},
		{Str("a"), Str("b"), false},
		{MustParse(`"\u0041"`), Str("A"), true},
		{MustParse(`"\u0041\n"`), MustParse(`"A\u000a"`), true},
		{MustParse(`"\/"`), Str("/"), true},
		{MustParse(`"\n"`), Str("n"), false},
		{MustParse(`"a"`), MustParse(`"b"`), false},

		// Arrays by elements in order.
		{Arr(), Arr(), true},
		{Arr(), Obj(), false},
		{Arr(Int(1), Int(2)), MustParse("[1,2.0]"), true},
		{Arr(Int(1), Int(2)), MustParse("[2,1]"), false},
		{Arr(Int(1)), MustParse("[1,1]"), false},
		{Arr(Undef), Arr(NullV), false},

		// Objects by members in any order.
		{Obj(), Obj(), true},
		{MustParse(`{"a":1,"b":[true]}`), MustParse(`{"b":[true],"a":1.0}`), true},
		{MustParse(`{"a":1}`), MustParse(`{"a":2}`), false},
		{MustParse(`{"a":1}`), MustParse(`{"b":1}`), false},
		{MustParse(`{"a":1}`), MustParse(`{"a":1,"b":1}`), false},
		{MustParse(`{"a":{"b":{"c":"\u0064"}}}`), MustParse(`{"a":{"b":{"c":"d"}}}`), true},
		{Obj(M("a", Undef)), Obj(), false},
		{Obj(M("a", Undef)), Obj(M("a", Undef)), true},
		{Obj(M("a", Undef)), Obj(M("a", NullV)), false},
	}
	for _, tt := range tests {
		t.Run(tt.a.String()+" vs "+tt.b.String(), func(t *testing.T) {
			assert.Equal(t, tt.want, Equal(tt.a, tt.b))
			assert.Equal(t, tt.want, Equal(tt.b, tt.a), "Equal is symmetric")
		})
	}
}

func TestEqualLargeObjects(t *testing.T) {
	var fwd, rev []string
	for i := range 100 {
		fwd = append(fwd, `"k`+strconv.Itoa(i)+`":`+strconv.Itoa(i))
		rev = append([]string{`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i)}, rev...)
	}
	a := MustParse("{" + strings.Join(fwd, ",") + "}")
	b := MustParse("{" + strings.Join(rev, ",") + "}")
	assert.True(t, Equal(a, b))
	c := MustParse("{" + strings.Join(rev[1:], ",") + `,"other":1}`)
	assert.False(t, Equal(a, c))
	d := MustParse("{" + strings.Join(rev[1:], ",") + `,"k99":100}`)
	assert.False(t, Equal(a, d))
}

func TestEqualDocuments(t *testing.T) {
	a := MustParse(string(valuetest.Articles(100, 7)))
	b := MustParse(string(valuetest.Articles(100, 7)))
	c := MustParse(string(valuetest.Articles(100, 8)))
	assert.False(t, Same(a, b))
	assert.True(t, Equal(a, b))
	assert.False(t, Equal(a, c))
	assert.True(t, Equal(a, MustParse(a.JSON())))
}

func TestSame(t *testing.T) {
	v := MustParse(`{"a":[1,2],"b":{"c":1}}`)
	assert.True(t, Same(v, v))
	assert.True(t, Same(v.Get("a"), v.Get("a")))
	assert.False(t, Same(v.Get("a"), MustParse(`[1,2]`)), "equal but not the same")
	assert.True(t, Same(Int(1), MustParse("1")), "scalars are the same when their text is")
	assert.False(t, Same(Int(1), MustParse("1.0")))
	assert.True(t, Same(Undef, Undef))
	assert.True(t, Same(NullV, MustParse("null")))
	assert.False(t, Same(NullV, Undef))
	assert.False(t, Same(Arr(), Arr()), "every empty container is a value of its own")
	assert.False(t, Same(MustParse(`{}`), MustParse(`{}`)))
	empty := MustParse(`{"a":1}`).Without("a")
	assert.NotZero(t, Identity(empty))

	// A copy made by With is a different object even when nothing changed.
	w := v.With("a", v.Get("a"))
	assert.False(t, Same(v, w))
	assert.True(t, Equal(v, w))
	assert.True(t, Same(v.Get("a"), w.Get("a")), "With shares the members' values")
}
