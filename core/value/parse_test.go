package value

import (
	"errors"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/value/valuetest"
)

func TestParseValid(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`null`, `null`},
		{`true`, `true`},
		{`false`, `false`},
		{`0`, `0`},
		{`-0`, `-0`},
		{`123`, `123`},
		{`-1.5e+10`, `-1.5e+10`},
		{`1.5E-3`, `1.5E-3`},
		{`1e400`, `1e400`},
		{`""`, `""`},
		{`"abc"`, `"abc"`},
		{`"a\"b\\c\/d\b\f\n\r\t"`, `"a\"b\\c\/d\b\f\n\r\t"`},
		{`"\u00e9\uD83D\uDE00"`, `"\u00e9\uD83D\uDE00"`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{` [ ] `, `[]`},
		{"\t\r\n{\n\t\"a\" : 1 ,\r\n \"b\":[ 1 , 2 ] }\n", `{"a":1,"b":[1,2]}`},
		{`[1,"two",true,false,null,{},[],{"x":[{"y":{}}]}]`, `[1,"two",true,false,null,{},[],{"x":[{"y":{}}]}]`},
		{`{"a":{"b":{"c":[[[]]]}}}`, `{"a":{"b":{"c":[[[]]]}}}`},
		{`{"":""}`, `{"":""}`},
		// Keys are decoded, and re-escaped only where JSON requires it.
		{`{"\u0061\n\"":1}`, `{"a\n\"":1}`},
		{`{"\/":1}`, `{"/":1}`},
		// Duplicate keys: the last value at the first key's position.
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"a":1,"\u0061":2}`, `{"a":2}`},
		// Invalid UTF-8 is kept as it is.
		{"\"\xff\xfe\"", "\"\xff\xfe\""},
		{"\"caf\xc3\xa9 \xe2\x82\xac\"", "\"caf\xc3\xa9 \xe2\x82\xac\""},
		// DEL and other non-control bytes may stand unescaped.
		{"\"\x7f\"", "\"\x7f\""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v, err := Parse([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, v.JSON())

			v2, err := ParseString(tt.in)
			require.NoError(t, err)
			assert.True(t, Equal(v, v2))
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int64
		msg    string
	}{
		{``, 0, "empty body"},
		{" \n\t ", 0, "empty body"},
		{`[`, 1, "unexpected end of input in array, expected a value"},
		{`[1`, 2, "unexpected end of input in array, expected ',' or ']'"},
		{`[1,`, 3, "unexpected end of input in array, expected a value"},
		{`{`, 1, "unexpected end of input in object, expected string key"},
		{`{"a"`, 4, "unexpected end of input in object, expected ':' after key"},
		{`{"a":`, 5, "unexpected end of input in object, expected a value"},
		{`{"a":1`, 6, "unexpected end of input in object, expected ',' or '}'"},
		{`{"a":1,`, 7, "unexpected end of input in object, expected string key"},
		{`"abc`, 4, "unexpected end of input in string"},
		{`"abc\`, 5, "unexpected end of input in string escape"},
		{`"\u12`, 5, "unexpected end of input in \\u escape, expected hex digit"},
		{`tru`, 3, "unexpected end of input in literal true"},
		{`-`, 1, "unexpected end of input in number, expected digit after '-'"},
		{`1.`, 2, "unexpected end of input in number, expected digit after decimal point"},
		{`1e`, 2, "unexpected end of input in number, expected digit in exponent"},
		{`1e+`, 3, "unexpected end of input in number, expected digit in exponent"},

		{`{"a":1,"b":2 x}`, 13, "unexpected character 'x' in object, expected ',' or '}'"},
		{`{"a" 1}`, 5, "unexpected character '1' in object, expected ':' after key"},
		{`{a:1}`, 1, "unexpected character 'a' in object, expected string key"},
		{`{"a":1,}`, 7, "unexpected character '}' in object, expected string key"},
		{`{"a":}`, 5, "unexpected character '}' in object, expected a value"},
		{`[1 2]`, 3, "unexpected character '2' in array, expected ',' or ']'"},
		{`[1,]`, 3, "unexpected character ']' in array, expected a value"},
		{`[,1]`, 1, "unexpected character ',' in array, expected a value"},
		{`[1}`, 2, "unexpected character '}' in array, expected ',' or ']'"},
		{`{"a":1]`, 6, "unexpected character ']' in object, expected ',' or '}'"},
		{`1 2`, 2, "unexpected character '2' after top-level value, expected end of input"},
		{`{} x`, 3, "unexpected character 'x' after top-level value, expected end of input"},
		{`nullx`, 4, "unexpected character 'x' after top-level value, expected end of input"},
		{`x`, 0, "unexpected character 'x', expected a value"},
		{`'a'`, 0, "unexpected character '\\'', expected a value"},
		{"\x01", 0, "unexpected character '\\x01', expected a value"},
		{"\xff", 0, "unexpected byte 0xff, expected a value"},
		{"[é]", 1, "unexpected character 'é' in array, expected a value"},
		{"\ufeff{}", 0, "unexpected character '\\ufeff', expected a value"},

		// Literals.
		{`True`, 0, "unexpected character 'T', expected a value"},
		{`nul1`, 3, "unexpected character '1' in literal null"},
		{`[fals]`, 5, "unexpected character ']' in literal false"},
		{`NaN`, 0, "unexpected character 'N', expected a value"},
		{`Infinity`, 0, "unexpected character 'I', expected a value"},
		{`[-Infinity]`, 2, "unexpected character 'I' in number, expected digit after '-'"},
		{`undefined`, 0, "unexpected character 'u', expected a value"},

		// Numbers.
		{`01`, 0, "invalid number: leading zero"},
		{`[-012]`, 2, "invalid number: leading zero"},
		{`00`, 0, "invalid number: leading zero"},
		{`+1`, 0, "unexpected character '+', expected a value"},
		{`.5`, 0, "unexpected character '.', expected a value"},
		{`1.e5`, 2, "unexpected character 'e' in number, expected digit after decimal point"},
		{`1.5e`, 4, "unexpected end of input in number, expected digit in exponent"},
		{`[1e-x]`, 4, "unexpected character 'x' in number, expected digit in exponent"},
		{`--1`, 1, "unexpected character '-' in number, expected digit after '-'"},
		{`0x10`, 1, "unexpected character 'x' after top-level value, expected end of input"},
		{`1.5.5`, 3, "unexpected character '.' after top-level value, expected end of input"},

		// Strings.
		{"\"a\nb\"", 2, "unescaped control character '\\n' in string, expected it escaped"},
		{"[\"\t\"]", 2, "unescaped control character '\\t' in string, expected it escaped"},
		{"\"\x00\"", 1, "unescaped control character '\\x00' in string, expected it escaped"},
		{`"\x41"`, 2, "unexpected character 'x' in string escape, expected one of \"\\/bfnrtu"},
		{`"\'"`, 2, "unexpected character '\\'' in string escape, expected one of \"\\/bfnrtu"},
		{`"\u12g4"`, 5, "unexpected character 'g' in \\u escape, expected hex digit"},
		{`"\U0041"`, 2, "unexpected character 'U' in string escape, expected one of \"\\/bfnrtu"},
		{`{"a\qb":1}`, 4, "unexpected character 'q' in string escape, expected one of \"\\/bfnrtu"},
		{"{\"a\x1f\":1}", 3, "unescaped control character '\\x1f' in string, expected it escaped"},
		// The offset of an error in a long string is exact.
		{`"` + strings.Repeat("abcdefgh", 5) + `\z"`, 42, "unexpected character 'z' in string escape, expected one of \"\\/bfnrtu"},
		{`"` + strings.Repeat("abcdefgh", 5) + "\x05\"", 41, "unescaped control character '\\x05' in string, expected it escaped"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v, err := Parse([]byte(tt.in))
			require.Error(t, err)
			assert.True(t, v.IsUndefined(), "a failed parse returns Undefined")
			var se *SyntaxError
			require.True(t, errors.As(err, &se), "error is a *SyntaxError: %T", err)
			assert.Equal(t, tt.msg, se.Msg)
			assert.Equal(t, tt.offset, se.Offset)
			assert.Equal(t, "invalid JSON at offset "+itoa(tt.offset)+": "+tt.msg, err.Error())
		})
	}
}

func itoa(i int64) string {
	return Int(i).Raw()
}

func TestParseDepth(t *testing.T) {
	nested := func(n int, open, close string) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	t.Run("arrays at the limit", func(t *testing.T) {
		v, err := ParseString(nested(MaxDepth, "[", "]"))
		require.NoError(t, err)
		depth := 0
		for ; v.Kind() == Array; v = v.Elems()[0] {
			depth++
			if v.Len() == 0 {
				break
			}
		}
		assert.Equal(t, MaxDepth, depth)
	})
	t.Run("objects at the limit", func(t *testing.T) {
		objects := func(n int) string {
			return strings.Repeat(`{"a":`, n-1) + `{}` + strings.Repeat("}", n-1)
		}
		_, err := ParseString(objects(MaxDepth))
		require.NoError(t, err)
		_, err = ParseString(objects(MaxDepth + 1))
		require.Error(t, err)
	})
	for _, n := range []int{MaxDepth + 1, 10_000, 1_000_000} {
		for _, doc := range []string{nested(n, "[", "]"), strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n), strings.Repeat("[", n)} {
			_, err := ParseString(doc)
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, "nesting deeper than 1000 levels", se.Msg)
			assert.ErrorIs(t, err, ErrTooDeep, "a depth error is told apart from malformed JSON")
			assert.Contains(t, err.Error(), "JSON too deep at offset")
		}
	}
	// Malformed JSON is not a depth error.
	_, err := ParseString(`[[[ not json`)
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrTooDeep)
	// Just past the limit, the error is at the first bracket too many.
	_, err = ParseString(`[{"a":` + nested(MaxDepth-1, "[", "]") + `}]`)
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.EqualValues(t, 6+MaxDepth-2, se.Offset)
}

func TestParseStrings(t *testing.T) {
	tests := []struct {
		in   string // JSON string literal
		want string // decoded
		esc  bool
	}{
		{`""`, "", false},
		{`"plain ascii"`, "plain ascii", false},
		{`"caf\u00e9"`, "café", true},
		{`"café"`, "café", false},
		{`"\""`, `"`, true},
		{`"\\"`, `\`, true},
		{`"\/"`, `/`, true},
		{`"\b\f\n\r\t"`, "\b\f\n\r\t", true},
		{`"\u0000"`, "\x00", true},
		{`"\u001F"`, "\x1f", true},
		{`"\u20AC\u20ac"`, "€€", true},
		{`"\uD83D\uDE00"`, "😀", true},
		{`"\ud83d\ude00x"`, "😀x", true},
		{`"😀"`, "😀", false},
		// Lone and misordered surrogates keep their code points, in
		// three bytes each (WTF-8), so that each is a string of its own
		// as in JavaScript, distinct from U+FFFD.
		{`"\uD83D"`, "\xed\xa0\xbd", true},
		{`"\uDE00"`, "\xed\xb8\x80", true},
		{`"\uD83Dx"`, "\xed\xa0\xbdx", true},
		{`"\uDE00\uD83D"`, "\xed\xb8\x80\xed\xa0\xbd", true},
		{`"\uD83D\uD83D\uDE00"`, "\xed\xa0\xbd😀", true},
		{`"\uD83D\n"`, "\xed\xa0\xbd\n", true},
		{`"\uD83D\u0041"`, "\xed\xa0\xbdA", true},
		{`"\ud800"`, "\xed\xa0\x80", true},
		{`"\udbff"`, "\xed\xaf\xbf", true},
		{`"\ufffd"`, "\uFFFD", true},
		// Invalid UTF-8 is kept.
		{"\"\xff\\n\xc3\"", "\xff\n\xc3", true},
		{`"` + strings.Repeat("long ", 40) + `\n"`, strings.Repeat("long ", 40) + "\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v := MustParse(tt.in)
			require.Equal(t, String, v.Kind())
			assert.Equal(t, tt.want, v.Str())
			assert.Equal(t, tt.esc, v.esc)
			assert.Equal(t, tt.in[1:len(tt.in)-1], v.Raw(), "raw keeps the escapes as written")
			text, ok := v.Text()
			assert.True(t, ok)
			assert.Equal(t, tt.want, text)

			// As an object key the same text is decoded.
			obj := MustParse(`{` + tt.in + `:true}`)
			require.Equal(t, 1, obj.Len())
			assert.Equal(t, tt.want, obj.Members()[0].Key)
			assert.True(t, obj.Get(tt.want).Boolean())

			// Written back, it is the same JSON string: what JavaScript
			// reads from it is what it read from the input.
			assert.Equal(t, tt.want, MustParse(Str(tt.want).JSON()).Str())
			assert.Equal(t, tt.want, MustParse(obj.JSON()).Members()[0].Key)
		})
	}
}

func TestParseNumbers(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		text string
	}{
		{`0`, 0, "0"},
		{`-0`, 0, "0"},
		{`-0.0`, 0, "0"},
		{`5`, 5, "5"},
		{`5.0`, 5, "5"},
		{`5e0`, 5, "5"},
		{`50E-1`, 5, "5"},
		{`-12`, -12, "-12"},
		{`1.5E-3`, 0.0015, "0.0015"},
		{`1e-7`, 1e-7, "1e-7"},
		{`1e21`, 1e21, "1e+21"},
		{`123456789012345678901234567890`, 1.2345678901234568e29, "1.2345678901234568e+29"},
		{`0.1`, 0.1, "0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v := MustParse(tt.in)
			require.Equal(t, Number, v.Kind())
			assert.Equal(t, tt.in, v.Raw(), "the literal is kept as written")
			assert.Equal(t, tt.in, v.JSON())
			f, ok := v.Float()
			assert.True(t, ok)
			assert.Equal(t, tt.want, f)
			text, ok := v.Text()
			assert.True(t, ok)
			assert.Equal(t, tt.text, text)
		})
	}

	// Out of range: the literal survives; Float gives what JavaScript does.
	v := MustParse(`[1e400,-1e400,1e-400]`)
	assert.Equal(t, `[1e400,-1e400,1e-400]`, v.JSON())
	f, _ := v.Elems()[0].Float()
	assert.True(t, f > 1e308, "1e400 is +Inf")
	f, _ = v.Elems()[1].Float()
	assert.True(t, f < -1e308, "-1e400 is -Inf")
	f, _ = v.Elems()[2].Float()
	assert.Zero(t, f)
}

// TestParseSharesInput checks that strings, numbers and plain keys are
// substrings of the input rather than copies.
func TestParseSharesInput(t *testing.T) {
	in := `{"key":"value","n":-1.5,"esc\n":"a\tb","list":["x"]}`
	v, err := ParseString(in)
	require.NoError(t, err)
	within := func(s string) bool {
		base := uintptr(unsafe.Pointer(unsafe.StringData(in)))
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return p >= base && p+uintptr(len(s)) <= base+uintptr(len(in))
	}
	ms := v.Members()
	assert.True(t, within(ms[0].Key))
	assert.True(t, within(ms[0].Value.Raw()))
	assert.True(t, within(ms[1].Value.Raw()))
	assert.Equal(t, "esc\n", ms[2].Key, "an escaped key is decoded into its own string")
	assert.True(t, within(ms[2].Value.Raw()))
	assert.True(t, within(ms[3].Value.Elems()[0].Raw()))
}

// TestParseCopiesInput checks that Parse does not keep the caller's bytes.
func TestParseCopiesInput(t *testing.T) {
	data := []byte(`{"a":"bc","d":[1]}`)
	v, err := Parse(data)
	require.NoError(t, err)
	for i := range data {
		data[i] = 'x'
	}
	assert.Equal(t, `{"a":"bc","d":[1]}`, v.JSON())
}

// TestParseExactSizes checks that containers do not carry spare capacity,
// which a later append would write into, clobbering a neighbour, and that
// empty ones still have storage of their own.
func TestParseExactSizes(t *testing.T) {
	v := MustParse(`[` + string(valuetest.Articles(50, 3)) + `,[],{},[[],{}]]`)
	var walk func(Value)
	walk = func(v Value) {
		switch v.Kind() {
		case Array:
			assert.Equal(t, len(v.Elems()), cap(v.Elems()))
			assert.NotZero(t, Identity(v))
			for _, e := range v.Elems() {
				walk(e)
			}
		case Object:
			assert.Equal(t, len(v.Members()), cap(v.Members()))
			assert.NotZero(t, Identity(v))
			for _, m := range v.Members() {
				walk(m.Value)
			}
		}
	}
	walk(v)

	// Appending to one article's tags must not change the next article.
	arts := v.Elems()[0].Elems()
	before := arts[1].JSON()
	tags := arts[0].Get("tags").Elems()
	_ = append(tags, Str("clobber"))
	members := arts[0].Members()
	_ = append(members, M("clobber", True))
	assert.Equal(t, before, arts[1].JSON())
}

func TestParseIdentity(t *testing.T) {
	v := MustParse(`{"a":[1],"b":[1],"c":{},"d":{}}`)
	a, b := v.Get("a"), v.Get("b")
	assert.True(t, Same(a, a))
	assert.False(t, Same(a, b), "separately parsed arrays are different values")
	assert.True(t, Equal(a, b))
	assert.NotEqual(t, Identity(a), Identity(b))
	assert.NotZero(t, Identity(v))

	// Empty containers too are distinct values, as those from Arr and Obj.
	c, d := v.Get("c"), v.Get("d")
	assert.False(t, Same(c, d))
	assert.True(t, Equal(c, d))
	assert.NotZero(t, Identity(c))
	assert.NotEqual(t, Identity(c), Identity(d))
	e := MustParse(`[[],[],[1]]`).Elems()
	assert.False(t, Same(e[0], e[1]))
	assert.NotEqual(t, Identity(e[1]), Identity(e[2]), "an empty array does not share its neighbour's address")
}

func TestParseAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts")
	}
	// No collection while counting: one would empty the parser's pool. Under
	// the race detector the pool also drops items at random, so the bound
	// there is looser; either way a parser that allocated per member (about
	// thirty here) fails.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	slack := 0.0
	if raceEnabled {
		slack = 4
	}
	doc := `{"id":1,"title":"hello","tags":["a","b"],"author":{"id":2,"name":"x"},"ok":true}`
	// Warm the parser pool.
	MustParse(doc)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := ParseString(doc); err != nil {
			t.Fatal(err)
		}
	})
	// One slab of members, one of array elements, the regions per depth.
	assert.LessOrEqual(t, allocs, 4.0+slack)

	escKey := `{"a\nb":1}`
	allocs = testing.AllocsPerRun(100, func() { MustParse(escKey) })
	assert.LessOrEqual(t, allocs, 3.0+slack, "an escaped key costs one allocation")
}

// TestParseConcurrent exercises the parser pool from many goroutines; run
// with -race.
func TestParseConcurrent(t *testing.T) {
	docs := []string{
		string(valuetest.Articles(20, 1)),
		`[1,2,{"a":[3]}]`,
		`{"x":"y"}`,
		`[1,`,
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				doc := docs[(g+i)%len(docs)]
				v, err := ParseString(doc)
				if doc == `[1,` {
					assert.Error(t, err)
					continue
				}
				if assert.NoError(t, err) {
					assert.Equal(t, compact(doc), v.JSON())
				}
			}
		})
	}
	wg.Wait()
}

func compact(s string) string {
	v, err := ParseString(s)
	if err != nil {
		panic(err)
	}
	return v.JSON()
}

func TestMustParse(t *testing.T) {
	assert.Equal(t, `[1]`, MustParse(`[1]`).JSON())
	assert.PanicsWithValue(t, "value.MustParse: invalid JSON at offset 2: unexpected end of input in array, expected ',' or ']'", func() {
		MustParse(`[1`)
	})
}

func TestLiteralSurrogateBytes(t *testing.T) {
	// Invalid UTF-8 that spells a surrogate (ED A0 80) decodes to three
	// U+FFFD in JavaScript, as fetch's text() and so JSON.parse read it:
	// it must not become the escaped lone surrogate "\ud800", which it
	// would otherwise be indistinguishable from.
	v := MustParse("{\"\xed\xa0\x80\":\"\xed\xa0\x80x\",\"\\ud800\":1}")
	require.Equal(t, 2, v.Len(), "two keys, as in JavaScript")
	assert.Equal(t, "\uFFFD\uFFFD\uFFFD", v.Members()[0].Key)
	assert.Equal(t, "\uFFFD\uFFFD\uFFFDx", v.Members()[0].Value.Str())
	assert.Equal(t, "\xed\xa0\x80", v.Members()[1].Key)
	assert.Equal(t, "{\"\uFFFD\uFFFD\uFFFD\":\"\uFFFD\uFFFD\uFFFDx\",\"\\ud800\":1}", v.JSON())
	// Korean text, whose UTF-8 also starts with ED, is left alone.
	assert.Equal(t, "한국어 텍스트", MustParse(`"한국어 텍스트"`).Str())
}

func TestLiteralSurrogateBytesErrorOffset(t *testing.T) {
	// Offsets of errors count the input's own bytes, whatever Parse made
	// of surrogate bytes in it.
	for _, tt := range []struct {
		doc  string
		want int64
	}{
		{"\"ab\xed\xa0\x80", 6},                  // unterminated: at the end
		{"\xed\xa0\x80", 0},                      // not a value: its first byte
		{"[\"\xed\xa0\x80\xed\xaf\xbf\",x]", 10}, // after two
	} {
		_, err := ParseString(tt.doc)
		var se *SyntaxError
		require.ErrorAs(t, err, &se, "%q", tt.doc)
		assert.Equal(t, tt.want, se.Offset, "%q: %v", tt.doc, err)
	}
}

func TestParseOwnedShares(t *testing.T) {
	data := []byte(`{"id":1,"body":"` + strings.Repeat("x", 1000) + `"}`)
	v, err := ParseOwned(data)
	require.NoError(t, err)
	assert.Equal(t, MustParse(string(data)).JSON(), v.JSON(), "the same value as Parse")
	body := v.Get("body").Raw()
	at := uintptr(unsafe.Pointer(unsafe.StringData(body)))
	start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	assert.True(t, at >= start && at+uintptr(len(body)) <= start+uintptr(len(data)),
		"the string's bytes are data's, not a copy")

	_, err = ParseOwned([]byte(`{"id":`))
	var se *SyntaxError
	assert.ErrorAs(t, err, &se, "errors as Parse's")
}
