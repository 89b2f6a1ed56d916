package value

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

func TestText(t *testing.T) {
	tests := []struct {
		json string
		want string
		ok   bool
	}{
		// Numbers name one entity however they are written.
		{`5`, "5", true},
		{`5.0`, "5", true},
		{`5e0`, "5", true},
		{`0.5e1`, "5", true},
		{`-0`, "0", true},
		{`7.50`, "7.5", true},
		{`123456789012345678`, "123456789012345680", true},
		{`1e21`, "1e+21", true},
		{`1e-7`, "1e-7", true},
		{`0.000001`, "0.000001", true},
		// Strings by their decoded text: "5" and 5 are one key, as in
		// JavaScript's property names.
		{`"5"`, "5", true},
		{`"a\u0062"`, "ab", true},
		{`true`, "true", true},
		{`false`, "false", true},
		{`null`, "null", true},
		{`[]`, "", false},
		{`{}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.json, func(t *testing.T) {
			s, ok := MustParse(tt.json).Text()
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, s)
		})
	}
	_, ok := Undef.Text()
	assert.False(t, ok)
}

func TestAccessors(t *testing.T) {
	v := MustParse(`{"n":1.5,"s":"x\ny","b":true,"z":null,"a":[1,2,3]}`)
	assert.Equal(t, Object, v.Kind())
	assert.Equal(t, 5, v.Len())
	assert.Equal(t, Number, v.Get("n").Kind())
	f, ok := v.Get("n").Float()
	assert.True(t, ok)
	assert.Equal(t, 1.5, f)
	assert.Equal(t, "x\ny", v.Get("s").Str())
	assert.Equal(t, `x\ny`, v.Get("s").Raw())
	assert.True(t, v.Get("b").Boolean())
	assert.True(t, v.Get("z").IsNull())
	assert.True(t, v.Get("z").IsNullish())
	assert.True(t, v.Get("missing").IsUndefined())
	assert.True(t, v.Get("missing").IsNullish())
	assert.False(t, v.Has("missing"))
	assert.True(t, v.Has("z"))
	assert.Equal(t, 3, v.Get("a").Len())
	assert.Equal(t, "array", v.Get("a").Kind().String())
	assert.Equal(t, "undefined", Undefined.String())
}

// TestValueSize guards the compact layout: Values are most of a parsed
// response's memory.
func TestValueSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) == 8 {
		assert.EqualValues(t, 32, unsafe.Sizeof(Value{}))
		assert.EqualValues(t, 48, unsafe.Sizeof(Member{}))
	}
}

func TestElemsMembersByKind(t *testing.T) {
	arr, obj := MustParse(`[1,2]`), MustParse(`{"a":1}`)
	assert.Len(t, arr.Elems(), 2)
	assert.Nil(t, arr.Members())
	assert.True(t, arr.Get("a").IsUndefined())
	assert.False(t, arr.Has("a"))
	assert.Len(t, obj.Members(), 1)
	assert.Nil(t, obj.Elems())
	assert.Nil(t, Str("x").Elems())
	assert.Equal(t, 0, Str("x").Len())
	assert.Empty(t, Arr().Elems())
	assert.Equal(t, 0, Obj().Len())
}

// TestValueLayout guards what makes a Value cheap to copy (see Value): 32
// bytes in at most four fields, which the compiler keeps in registers.
func TestValueLayout(t *testing.T) {
	typ := reflect.TypeFor[Value]()
	assert.Equal(t, uintptr(32), typ.Size())
	assert.LessOrEqual(t, typ.NumField(), 4)
}
