package value

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDetach: a detached value is Equal to the parsed one, and no string
// in it (nor any key) lies in the parsed text's memory.
func TestDetach(t *testing.T) {
	tests := []string{
		`{"id":1,"title":"a \"quoted\" title","tags":["x","y"],"done":true,"none":null,"n":-1.5e3,"author":{"id":"u1","name":"ü"}}`,
		`[1,"two",false,[],{},{"a":[{"b":"c"}]}]`,
		`"just a string"`,
		`12345`,
		`true`,
	}
	for _, text := range tests {
		// Memory of its own: a literal may share the package's.
		text = strings.Clone(text)
		t.Run(text, func(t *testing.T) {
			parseBytes := func(s string) (Value, error) { return Parse(unsafe.Slice(unsafe.StringData(s), len(s))) }
			for _, parse := range []func(string) (Value, error){parseBytes, ParseLazy} {
				v, err := parse(text)
				require.NoError(t, err)
				d := Detach(v)
				assert.True(t, Equal(v, d), "equal")
				assert.Equal(t, v.JSON(), d.JSON())
				assert.Empty(t, d.Source(), "built, not parsed")
				from := uintptr(unsafe.Pointer(unsafe.StringData(text)))
				to := from + uintptr(len(text))
				var walk func(Value)
				inText := func(s string) bool {
					p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
					return s != "" && p >= from && p < to
				}
				walk = func(x Value) {
					assert.False(t, inText(x.raw), "a string of the text: %q", x.raw)
					for _, e := range x.Elems() {
						walk(e)
					}
					for _, m := range x.Members() {
						assert.False(t, inText(m.Key), "a key of the text: %q", m.Key)
						walk(m.Value)
					}
				}
				walk(d)
			}
		})
	}
}
