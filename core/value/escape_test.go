package value

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNeedsEscape(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"", false},
		{"plain", false},
		{"café 😀", false},
		{"/", false},
		{"\x7f", false},
		{"\xff", false},
		{`"`, true},
		{`\`, true},
		{"\n", true},
		{"\x00", true},
		{"\x1f", true},
		{strings.Repeat("a", 17) + `"`, true},
		{strings.Repeat("a", 16) + "\x01" + strings.Repeat("b", 16), true},
		{strings.Repeat("é", 40), false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, needsEscape(tt.s), "%q", tt.s)
	}
}

func TestEscape(t *testing.T) {
	tests := []struct{ s, want string }{
		{"", ""},
		{"abc", "abc"},
		{`a"b\c`, `a\"b\\c`},
		{"\b\f\n\r\t", `\b\f\n\r\t`},
		{"\x00\x01\x1f", `\u0000\u0001\u001f`},
		{"/<>&", "/<>&"},
		{"café\u2028", "café\u2028"},
		{"\xff", "\xff"},
		// Lone surrogates go back to the escapes they were read from.
		{"\xed\xa0\x80", `\ud800`},
		{"a\xed\xaf\xbfb\xed\xb0\x80\n", `a\udbffb\udc00\n`},
		{"\uFFFD\ud7ff", "\uFFFD\ud7ff"},
		{"\xed\xa0", "\xed\xa0"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, escape(tt.s), "%q", tt.s)
	}
}

func TestUnescape(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"", ""},
		{"abc", "abc"},
		{`\"\\\/\b\f\n\r\t`, "\"\\/\b\f\n\r\t"},
		{`\u0041\u00e9\u20AC`, "Aé€"},
		{`x\uD83D\uDE00y`, "x😀y"},
		// A lone surrogate keeps its code point, in three bytes (as in
		// WTF-8): "\ud800" and "\ufffd" are different strings, as in
		// JavaScript.
		{`\uD83D`, "\xed\xa0\xbd"},
		{`\uDE00`, "\xed\xb8\x80"},
		{`\uD83D\uD83D\uDE00`, "\xed\xa0\xbd😀"},
		{`\uD83D\u0041`, "\xed\xa0\xbdA"},
		{`\uDE00\uD83D`, "\xed\xb8\x80\xed\xa0\xbd"},
		{`\ud800\udbff\ufffd`, "\xed\xa0\x80\xed\xaf\xbf\uFFFD"},
		// Malformed escapes can only come from a bug, but do not panic.
		{`\`, `\`},
		{`\q`, `\q`},
		{`\u12`, `\u12`},
		{`\u12zz`, `\u12zz`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, unescape(tt.raw), "%q", tt.raw)
	}
}

// TestEscapeRoundTrip checks on random text that Str keeps any Go string,
// and that its JSON decodes with encoding/json to the same text.
func TestEscapeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", " ", `"`, `\`, "/", "\n", "\t", "\x00", "\x1f", "\x7f", "é", "€", "😀", "\u2028", "\xff", "\xc3", "\xed\xa0\x80", "\xed\xaf\xbf"} // high surrogates only: a high and a low one would pair
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		v := Str(s)
		require.Equal(t, s, v.Str())
		back := MustParse(v.JSON())
		require.Equal(t, s, back.Str())
		require.True(t, Equal(v, back))

		var std string
		require.NoError(t, json.Unmarshal([]byte(v.JSON()), &std))
		if strings.ToValidUTF8(s, "\uFFFD") == s {
			require.Equal(t, s, std)
		}
	}
}
