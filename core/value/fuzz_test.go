package value

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzParse checks Parse against encoding/json on any input: no panics; the
// two agree on what is JSON (but for Parse's lower depth limit); a parsed
// value re-encodes to JSON that encoding/json decodes to the same data; and
// that output parses back to an Equal value.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		``, ` `, `null`, `true`, `false`, `0`, `-0`, `1e400`, `1.5E-3`, `-12.5e+3`,
		`""`, `"\u00e9\uD83D\uDE00\uD83D"`, `"a\"\\\/\b\f\n\r\t"`, "\"\xff\"",
		`[]`, `{}`, `[1,[2,[3]]]`, `{"a":{"b":[true,null]}}`, `{"a":1,"a":2}`,
		`{"\u0061":1,"a":2}`, ` { "k" : [ 1 , 2 ] } `,
		`[1,]`, `{"a":1,}`, `01`, `1.`, `.5`, `+1`, `NaN`, `"\x"`, "\"\x01\"",
		`[[[[[[[[[[]]]]]]]]]]`, `{"a":[}`, `tru`, `nulll`, `"abc`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		valid := json.Valid(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error is %T, not *SyntaxError: %v", err, err)
			}
			if se.Offset < 0 || se.Offset > int64(len(data)) {
				t.Fatalf("offset %d outside the %d-byte input", se.Offset, len(data))
			}
			if valid && nesting(data) <= MaxDepth {
				t.Fatalf("encoding/json accepts %q, Parse says %v", data, err)
			}
			return
		}
		if !valid {
			t.Fatalf("encoding/json rejects %q, Parse accepts it as %s", data, v)
		}

		out := AppendJSON(nil, v)
		want, err := decodeStd(data)
		if err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		got, err := decodeStd(out)
		if err != nil {
			t.Fatalf("Parse's output %q is not JSON to encoding/json: %v", out, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%q re-encoded as %q decodes differently:\n%#v\n%#v", data, out, want, got)
		}

		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse's output %q does not parse: %v", out, err)
		}
		if !Equal(v, back) || !Equal(back, v) {
			t.Fatalf("%q re-encoded as %q parses to a different value", data, out)
		}
		if again := AppendJSON(nil, back); string(again) != string(out) {
			t.Fatalf("encoding is not stable: %q then %q", out, again)
		}
	})
}

// nesting returns the deepest nesting of brackets in data outside strings.
func nesting(data []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}
