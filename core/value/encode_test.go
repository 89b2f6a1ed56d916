package value

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAppendJSON(t *testing.T) {
	tests := []struct {
		name string
		v    Value
		want string
	}{
		{"undefined", Undef, ""},
		{"null", NullV, "null"},
		{"true", True, "true"},
		{"false", False, "false"},
		{"int", Int(-42), "-42"},
		{"float", Num(0.25), "0.25"},
		{"big float", Num(1e21), "1e+21"},
		{"NaN", Num(0 * inf()), "null"},
		{"string", Str("hi"), `"hi"`},
		{"escaped string", Str("a\"b\n"), `"a\"b\n"`},
		{"empty array", Arr(), "[]"},
		{"empty object", Obj(), "{}"},
		{"array", Arr(Int(1), Str("x"), NullV), `[1,"x",null]`},
		{"undefined element", Arr(Int(1), Undef, Int(3)), `[1,null,3]`},
		{"object", Obj(M("a", Int(1)), M("b", Arr())), `{"a":1,"b":[]}`},
		{"undefined member", Obj(M("a", Undef), M("b", Int(2)), M("c", Undef)), `{"b":2}`},
		{"only undefined members", Obj(M("a", Undef)), `{}`},
		{"escaped key", Obj(M("a\"\\\n\x01", True)), `{"a\"\\\n\u0001":true}`},
		{"unicode key", Obj(M("café", True)), `{"café":true}`},
		{"nested", Obj(M("x", Arr(Obj(M("y", Arr(Undef)))))), `{"x":[{"y":[null]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(AppendJSON(nil, tt.v)))
			assert.Equal(t, "prefix"+tt.want, string(AppendJSON([]byte("prefix"), tt.v)))
			assert.Equal(t, tt.want, tt.v.JSON())
			if tt.want != "" {
				assert.True(t, Equal(MustParse(tt.want), MustParse(tt.v.JSON())))
			}
		})
	}
}

func inf() float64 {
	f, _ := MustParse("1e999").Float()
	return f
}

func TestString(t *testing.T) {
	assert.Equal(t, "undefined", Undef.String())
	assert.Equal(t, "null", NullV.String())
	assert.Equal(t, `{"a":[1,"b"]}`, MustParse(` { "a" : [ 1 , "b" ] } `).String())
	// String makes Value a fmt.Stringer, so failure messages read as JSON.
	assert.Equal(t, `[true]`, Arr(True).String())
}

func TestAppendStringIsAppendJSONOfStr(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uote`, `back\slash`, "nl\n\t\x01", "héllo", "\xff invalid", "a\u2028b"} {
		want := string(AppendJSON([]byte("x"), Str(s)))
		if got := string(AppendString([]byte("x"), s)); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestSizeHint(t *testing.T) {
	parsed := MustParse(`{"id":1,"tags":["a","b"],"author":{"id":2,"name":"x\"y"},"n":null,"ok":true}`)
	tests := []struct {
		name string
		v    Value
	}{
		{"undefined", Undef},
		{"null", NullV},
		{"bool", False},
		{"number", Int(-42)},
		{"string", Str("hi")},
		{"escaped string", Str("a\"b\n")},
		{"empty array", Arr()},
		{"empty object", Obj()},
		{"parsed", parsed},
		{"built over parsed", Arr(parsed, Undef, parsed.With("extra", Str("e")))},
		{"undefined members", Obj(M("a", Undef), M("b", Int(2)), M("c", Undef), M("d", Obj(M("e", Undef))))},
		{"nested", Obj(M("x", Arr(Obj(M("y", Arr(Undef))))))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, len(AppendJSON(nil, tt.v)), SizeHint(tt.v), "the hint for %s", tt.v)
		})
	}
	t.Run("whitespace is counted", func(t *testing.T) {
		v := MustParse("[ 1 ,\n 2 ]")
		assert.Equal(t, len("[ 1 ,\n 2 ]"), SizeHint(v))
		assert.Greater(t, SizeHint(v), len(AppendJSON(nil, v)), "an overestimate, never a shortfall")
	})
}
