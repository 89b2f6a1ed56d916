package value

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFromGo(t *testing.T) {
	tests := []struct {
		name string
		x    any
		want string
	}{
		{"nil", nil, `null`},
		{"bool", true, `true`},
		{"string", "a\"b", `"a\"b"`},
		{"int", -7, `-7`},
		{"int8", int8(-128), `-128`},
		{"int16", int16(300), `300`},
		{"int32", int32(-1 << 31), `-2147483648`},
		{"int64", int64(math.MaxInt64), `9223372036854775807`},
		{"uint", uint(7), `7`},
		{"uint8", uint8(255), `255`},
		{"uint16", uint16(65535), `65535`},
		{"uint32", uint32(math.MaxUint32), `4294967295`},
		{"uint64", uint64(math.MaxUint64), `18446744073709551615`},
		{"uintptr", uintptr(9), `9`},
		{"float64", 1.5, `1.5`},
		{"float64 int", 2.0, `2`},
		{"float64 NaN", math.NaN(), `null`},
		{"float64 Inf", math.Inf(-1), `null`},
		{"float32", float32(0.1), `0.1`},
		{"float32 Inf", float32(math.Inf(1)), `null`},
		{"Value", MustParse(`{"a":1}`), `{"a":1}`},
		{"[]any", []any{1, "x", nil, []any{true}}, `[1,"x",null,[true]]`},
		{"[]any empty", []any{}, `[]`},
		{"[]Value", []Value{Int(1), Str("y")}, `[1,"y"]`},
		{"[]string", []string{"a", "b"}, `["a","b"]`},
		{"[]int", []int{3, 4}, `[3,4]`},
		{"[]float64", []float64{0.5, math.NaN()}, `[0.5,null]`},
		{"map[string]any sorted", map[string]any{"b": 1, "a": []any{map[string]any{"y": 2, "x": 1}}}, `{"a":[{"x":1,"y":2}],"b":1}`},
		{"map[string]Value", map[string]Value{"z": True, "m": NullV}, `{"m":null,"z":true}`},
		{"map[string]string", map[string]string{"k": "v"}, `{"k":"v"}`},
		{"map empty", map[string]any{}, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := FromGo(tt.x)
			require.NoError(t, err)
			assert.Equal(t, tt.want, v.JSON())
		})
	}
}

func TestFromGoErrors(t *testing.T) {
	for _, x := range []any{
		struct{}{},
		make(chan int),
		[]any{1, func() {}},
		map[string]any{"a": map[int]string{}},
		&struct{}{},
	} {
		v, err := FromGo(x)
		assert.Error(t, err, "%T", x)
		assert.Contains(t, err.Error(), "value.FromGo: unsupported type")
		assert.True(t, v.IsUndefined())
	}
}

func TestFromGoCopies(t *testing.T) {
	elems := []Value{Int(1)}
	v, err := FromGo(elems)
	require.NoError(t, err)
	elems[0] = Int(2)
	assert.Equal(t, `[1]`, v.JSON(), "values are immutable, so FromGo copies slices")
}

func TestGo(t *testing.T) {
	assert.Nil(t, Undef.Go())
	assert.Nil(t, NullV.Go())
	assert.Equal(t, true, True.Go())
	assert.Equal(t, 1.5, MustParse("1.5").Go())
	assert.Equal(t, "a\nb", MustParse(`"a\nb"`).Go())
	assert.Equal(t, []any{1.0, nil}, Arr(Int(1), Undef).Go())
	assert.Equal(t, map[string]any{"b": 2.0}, Obj(M("a", Undef), M("b", Int(2))).Go(),
		"undefined members are left out, as in JSON")
	assert.Equal(t, math.Inf(1), MustParse("1e400").Go())
}

// TestGoMatchesEncodingJSON checks that Go gives what encoding/json decodes
// the same document into.
func TestGoMatchesEncodingJSON(t *testing.T) {
	docs := []string{
		`{"a":[1,2.5,-0,1e3],"b":{"c":"d\u00e9\n","e":null},"f":true,"g":[]}`,
		`[{},[],"",0]`,
		`{"dup":1,"dup":2}`,
	}
	for _, doc := range docs {
		var want any
		require.NoError(t, json.Unmarshal([]byte(doc), &want))
		assert.Equal(t, want, MustParse(doc).Go())
	}
}

func TestGoRoundTrip(t *testing.T) {
	x := map[string]any{
		"n":    3.0,
		"s":    "str\t\"",
		"b":    false,
		"null": nil,
		"arr":  []any{1.0, "two", []any{}, map[string]any{}},
		"obj":  map[string]any{"k": map[string]any{"deep": []any{nil}}},
	}
	v, err := FromGo(x)
	require.NoError(t, err)
	assert.Equal(t, x, v.Go())
	back, err := FromGo(v.Go())
	require.NoError(t, err)
	assert.True(t, Equal(v, back))
	assert.Equal(t, v.JSON(), back.JSON(), "sorted keys make the output deterministic")
}

func TestWith(t *testing.T) {
	v := MustParse(`{"a":1,"b":2}`)
	before := v.JSON()

	w := v.With("b", Str("x"))
	assert.Equal(t, `{"a":1,"b":"x"}`, w.JSON(), "replaced in place")
	w = v.With("c", True)
	assert.Equal(t, `{"a":1,"b":2,"c":true}`, w.JSON(), "appended")
	assert.Equal(t, before, v.JSON(), "v is not modified")

	// Appending to one result must not show in another built from it.
	w1 := w.With("d", Int(1))
	w2 := w.With("e", Int(2))
	assert.Equal(t, `{"a":1,"b":2,"c":true,"d":1}`, w1.JSON())
	assert.Equal(t, `{"a":1,"b":2,"c":true,"e":2}`, w2.JSON())

	assert.Equal(t, `{"k":null}`, Undef.With("k", NullV).JSON(), "a non-object starts empty")
	assert.Equal(t, `{"k":null}`, Int(1).With("k", NullV).JSON())
	assert.Equal(t, `{}`, Obj().With("k", Undef).JSON())
	assert.True(t, Obj().With("k", Undef).Has("k"))
}

func TestWithout(t *testing.T) {
	v := MustParse(`{"a":1,"b":2,"c":3}`)
	assert.Equal(t, `{"a":1,"c":3}`, v.Without("b").JSON())
	assert.Equal(t, `{"b":2,"c":3}`, v.Without("a").JSON())
	assert.Equal(t, `{"a":1,"b":2}`, v.Without("c").JSON())
	assert.Equal(t, `{"a":1,"b":2,"c":3}`, v.JSON(), "v is not modified")
	assert.True(t, Same(v, v.Without("missing")), "nothing to remove keeps identity")
	assert.Equal(t, `{}`, MustParse(`{"a":1}`).Without("a").JSON())
	assert.True(t, Same(Int(1), Int(1).Without("a")))

	w := v.Without("b")
	_ = w.With("z", True)
	assert.Equal(t, `{"a":1,"c":3}`, w.JSON())
}
