package value

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/value/valuetest"
)

// genJSON writes a random JSON document that exercises the grammar's
// corners: every escape, surrogates, odd number forms, whitespace, empty and
// nested containers, duplicate keys.
type genJSON struct {
	rng *rand.Rand
	b   []byte
}

func (g *genJSON) space() {
	for g.rng.IntN(4) == 0 {
		g.b = append(g.b, " \t\n\r"[g.rng.IntN(4)])
	}
}

func (g *genJSON) value(depth int) {
	g.space()
	k := g.rng.IntN(10)
	if depth > 6 {
		k = g.rng.IntN(6)
	}
	switch k {
	case 0:
		g.b = append(g.b, "null"...)
	case 1:
		g.b = append(g.b, []string{"true", "false"}[g.rng.IntN(2)]...)
	case 2, 3:
		g.number()
	case 4, 5:
		g.str()
	case 6, 7:
		g.b = append(g.b, '[')
		for i := range g.rng.IntN(5) {
			if i > 0 {
				g.b = append(g.b, ',')
			}
			g.value(depth + 1)
		}
		g.space()
		g.b = append(g.b, ']')
	default:
		g.b = append(g.b, '{')
		for i := range g.rng.IntN(5) {
			if i > 0 {
				g.b = append(g.b, ',')
			}
			g.space()
			if g.rng.IntN(3) == 0 {
				g.b = append(g.b, `"k"`...) // a likely duplicate
			} else {
				g.str()
			}
			g.space()
			g.b = append(g.b, ':')
			g.value(depth + 1)
		}
		g.space()
		g.b = append(g.b, '}')
	}
	g.space()
}

func (g *genJSON) digits(min int) {
	for i := range min + g.rng.IntN(4) {
		d := byte('0' + g.rng.IntN(10))
		if i == 0 && min == 1 && g.rng.IntN(2) == 0 {
			d = '1' + byte(g.rng.IntN(9))
		}
		g.b = append(g.b, d)
	}
}

func (g *genJSON) number() {
	if g.rng.IntN(3) == 0 {
		g.b = append(g.b, '-')
	}
	if g.rng.IntN(4) == 0 {
		g.b = append(g.b, '0')
	} else {
		g.b = append(g.b, '1'+byte(g.rng.IntN(9)))
		for range g.rng.IntN(20) {
			g.b = append(g.b, '0'+byte(g.rng.IntN(10)))
		}
	}
	if g.rng.IntN(3) == 0 {
		g.b = append(g.b, '.')
		g.digits(1)
	}
	if g.rng.IntN(3) == 0 {
		g.b = append(g.b, "eE"[g.rng.IntN(2)])
		if s := g.rng.IntN(3); s < 2 {
			g.b = append(g.b, "+-"[s])
		}
		g.digits(1)
	}
}

var strPieces = []string{
	"a", "xyz", " ", "é", "😀", "\u2028", "/", "\x7f", "\xff",
	`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
	`\u0000`, `\u001f`, `\u0041`, `\u00E9`, `\uffff`, `\uD83D\uDE00`, `\uD83D`, `\uDE00`, `\udbff\udfff`,
}

func (g *genJSON) str() {
	g.b = append(g.b, '"')
	for range g.rng.IntN(8) {
		g.b = append(g.b, strPieces[g.rng.IntN(len(strPieces))]...)
	}
	g.b = append(g.b, '"')
}

// mutate damages doc at one random place, which may or may not leave it
// valid JSON.
func mutate(rng *rand.Rand, doc []byte) []byte {
	out := bytes.Clone(doc)
	if len(out) == 0 {
		return out
	}
	const alphabet = "{}[],:\"\\ 0123456789-+.eEtrufalsn\x00\x1f\xff"
	i := rng.IntN(len(out))
	switch rng.IntN(3) {
	case 0:
		return append(out[:i], out[i+1:]...)
	case 1:
		out[i] = alphabet[rng.IntN(len(alphabet))]
		return out
	default:
		return append(out[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, out[i:]...)...)
	}
}

// decodeStd decodes doc with encoding/json, keeping number literals so that
// 1e400 and 1.0 compare by their text.
func decodeStd(doc []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return nil, err
	}
	return x, nil
}

// checkAgainstStd asserts that Parse and encoding/json agree on whether doc
// is JSON, and, if it is, on what it holds.
func checkAgainstStd(t *testing.T, doc []byte) {
	t.Helper()
	v, err := Parse(doc)
	valid := json.Valid(doc)
	require.Equal(t, valid, err == nil, "doc %q: encoding/json says valid=%v, Parse says %v", doc, valid, err)
	if err != nil {
		var se *SyntaxError
		require.True(t, errors.As(err, &se))
		require.True(t, se.Offset >= 0 && se.Offset <= int64(len(doc)), "offset %d in %d bytes", se.Offset, len(doc))
		return
	}
	want, err := decodeStd(doc)
	require.NoError(t, err)
	out := AppendJSON(nil, v)
	got, err := decodeStd(out)
	require.NoError(t, err, "Parse's output %q is not JSON", out)
	require.Equal(t, want, got, "doc %q re-encoded as %q", doc, out)

	// encoding/json replaces invalid UTF-8 with U+FFFD where Value keeps
	// the bytes, and fails on numbers out of float64's range.
	var std any
	// It also makes a lone surrogate U+FFFD, which Value keeps.
	if utf8.Valid(doc) && json.Unmarshal(doc, &std) == nil && surrogateAt(fmt.Sprint(v.Go())) < 0 {
		require.Equal(t, std, v.Go(), "doc %q", doc)
	}
}

func TestParseMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 7))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		g := genJSON{rng: rng}
		g.value(0)
		doc := g.b
		checkAgainstStd(t, doc)
		for range 5 {
			checkAgainstStd(t, mutate(rng, doc))
		}
	}
}

func TestParseMatchesEncodingJSONArticles(t *testing.T) {
	for seed := range int64(5) {
		doc := valuetest.Articles(30, seed)
		checkAgainstStd(t, doc)
	}
}

// TestParseAcceptsWhatEncodingJSONWrites feeds Parse the output of
// json.Marshal for awkward Go values.
func TestParseAcceptsWhatEncodingJSONWrites(t *testing.T) {
	var xs []any
	for _, s := range []string{"", "<>&", "\u2028\u2029", "\x00\x1f\x7f", "\xff\xfe", strings.Repeat("é", 100)} {
		xs = append(xs, s, map[string]any{s: s})
	}
	for _, f := range []float64{0, -1, 1e-7, 1e21, 123456789.123, 5e-324, 1.7976931348623157e308} {
		xs = append(xs, f)
	}
	xs = append(xs, []any{nil, true, []any{}, map[string]any{}})
	for i, x := range xs {
		doc, err := json.Marshal(x)
		require.NoError(t, err)
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			checkAgainstStd(t, doc)
		})
	}
	assert.True(t, true)
}
