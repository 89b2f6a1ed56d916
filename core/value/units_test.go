package value

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkUnits checks Text.Units at every character boundary of x against
// the UTF-16 encoding of the text before it, and Boundary everywhere.
func checkUnits(t *testing.T, x *Text) {
	t.Helper()
	units := 0
	for off := 0; off <= len(x.S); {
		require.True(t, x.Boundary(off), "offset %d", off)
		require.Equal(t, units, x.Units(off), "offset %d of %q", off, x.S)
		if off == len(x.S) {
			break
		}
		r, size := utf8.DecodeRuneInString(x.S[off:])
		for i := 1; i < size; i++ {
			require.False(t, x.Boundary(off+i), "offset %d inside a character", off+i)
		}
		units += len(utf16.Encode([]rune{r}))
		off += size
	}
}

func TestTextUnits(t *testing.T) {
	long := strings.Repeat("ascii text ", 20)
	docs := map[string]string{
		"ASCII":                    `{"a":"` + long + `"}`,
		"two-byte":                 `{"a":"` + long + `héllo wörld` + long + `"}`,
		"three and four bytes":     `["` + strings.Repeat("日本語 😀 ✓ ", 30) + `", "` + long + `"]`,
		"four bytes across blocks": `["` + strings.Repeat("😀", 70) + `"]`,
		"other characters at once": `{"é":"😀"}`,
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			v, err := ParseLazy(doc)
			require.NoError(t, err)
			x := TextOf(v)
			require.NotNil(t, x)
			assert.Same(t, x, TextOf(v), "one Text per tape")
			assert.Equal(t, doc, x.S)
			require.True(t, x.Valid())
			checkUnits(t, x)
		})
	}
}

func TestTextOfOthers(t *testing.T) {
	eager := MustParse(`{"a":"b"}`)
	assert.Nil(t, TextOf(eager), "a value not on a tape")
	lazy, err := ParseLazy(`"a string"`)
	require.NoError(t, err)
	assert.Nil(t, TextOf(lazy), "a string")
	empty, err := ParseLazy(`{}`)
	require.NoError(t, err)
	assert.Nil(t, TextOf(empty), "an empty object has no node")
	assert.Nil(t, TextOf(Obj(M("a", Str("b")))), "a built object")
}

func TestTextNotUTF8(t *testing.T) {
	v, err := ParseLazy("{\"a\":\"b\xff\"}")
	require.NoError(t, err)
	if x := TextOf(v); x != nil {
		assert.False(t, x.Valid(), "TextDecoder would replace the byte: offsets would not follow")
	}
}
