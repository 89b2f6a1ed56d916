package rest

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/datafetch/datafetch/core/value"
)

// pathTemplate is a parsed path such as /users/:userId/posts/:id: literal
// text with :name tokens that URL fills from params.
type pathTemplate struct {
	raw   string
	parts []pathPart
	// tokens lists the token names in order; they are unique.
	tokens []string
}

// pathPart is literal text, or a token when token is set.
type pathPart struct {
	lit   string
	token string
}

// parsePath parses a path template. A token is ':' followed by a letter or
// '_' and then letters, digits and '_'. Requiring a letter first keeps a
// port (as in http://host:8080/) from reading as a token, and tokens are
// looked for only after a full URL's authority for the same reason.
func parsePath(path string) (pathTemplate, error) {
	t := pathTemplate{raw: path}
	start := 0
	if isFullURL(path) {
		rest := path[strings.Index(path, "://")+3:]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			start = len(path) - len(rest) + i
		} else {
			start = len(path)
		}
	}
	lit := path[:start]
	for i := start; i < len(path); {
		if path[i] != ':' || i+1 >= len(path) || !isTokenStart(path[i+1]) {
			lit += path[i : i+1]
			i++
			continue
		}
		j := i + 2
		for j < len(path) && isTokenByte(path[j]) {
			j++
		}
		name := path[i+1 : j]
		if slices.Contains(t.tokens, name) {
			return pathTemplate{}, fmt.Errorf("path %s names token :%s twice", path, name)
		}
		if lit != "" {
			t.parts = append(t.parts, pathPart{lit: lit})
			lit = ""
		}
		t.parts = append(t.parts, pathPart{token: name})
		t.tokens = append(t.tokens, name)
		i = j
	}
	if lit != "" {
		t.parts = append(t.parts, pathPart{lit: lit})
	}
	return t, nil
}

func isTokenStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isTokenByte(c byte) bool { return isTokenStart(c) || c >= '0' && c <= '9' }

// isFullURL reports whether s starts with a scheme and "://", as
// https://example.com/ does.
func isFullURL(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	for k := 0; k < i; k++ {
		c := s[k]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (k == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// hasToken reports whether name is one of the template's tokens.
func (t *pathTemplate) hasToken(name string) bool { return slices.Contains(t.tokens, name) }

// URL returns the URL of the request for params: the URLPrefix option, then
// the path with each :name token replaced by params[name] (encoded as
// JavaScript's encodeURIComponent does), then every other param as a
// query-string member in sorted order (encoded as URLSearchParams does; an
// array repeats its key). Params must be an object, or null or undefined
// for a path without tokens.
func (e *Endpoint) URL(params value.Value) (string, error) {
	var b strings.Builder
	b.Grow(e.urlSize())
	if err := e.writeURL(&b, params); err != nil {
		return "", err
	}
	return b.String(), nil
}

// urlSize is room for most URLs of the endpoint: its prefix and path, and a
// few bytes for each token's value.
func (e *Endpoint) urlSize() int {
	const perToken = 8
	return len(e.opts.URLPrefix) + len(e.path.raw) + perToken*len(e.path.tokens)
}

// maxInlineTokens is how many filled tokens writeURL tracks without an
// allocation.
const maxInlineTokens = 4

// writeURL writes URL's result for params to b, after what b holds: Key
// writes the URL after the name and method, into the one string.
func (e *Endpoint) writeURL(b *strings.Builder, params value.Value) error {
	switch params.Kind() {
	case value.Undefined, value.Null, value.Object:
	default:
		return fmt.Errorf("%s: params must be an object, got %s", e.name, params.Kind())
	}
	from := b.Len()
	b.WriteString(e.opts.URLPrefix)
	var inline [maxInlineTokens]filledToken
	filled := inline[:0]
	for _, p := range e.path.parts {
		if p.token == "" {
			b.WriteString(p.lit)
			continue
		}
		v := params.Get(p.token)
		if v.IsNullish() {
			return fmt.Errorf("%s: params missing path token :%s for %s", e.name, p.token, e.path.raw)
		}
		s, ok := v.Text()
		if !ok {
			return fmt.Errorf("%s: path token :%s for %s must be a string, number or boolean, got %s",
				e.name, p.token, e.path.raw, v.Kind())
		}
		if value.HasLoneSurrogate(s) {
			// encodeURIComponent throws a URIError for these.
			return fmt.Errorf("%s: path token :%s for %s holds a lone surrogate (%s), which a URL cannot carry",
				e.name, p.token, e.path.raw, value.Str(s).JSON())
		}
		// The check is on the escaped text, which is what the URL parser
		// reads: "." and ".." stay as they are, but "%2e%2e" is written
		// %252e%252e, a file name.
		enc := encodeURIComponent(s)
		if isDotSegment(enc) && !strings.ContainsAny(b.String()[from:], "?#") {
			return fmt.Errorf("%s: path token :%s for %s is %q, a dot segment that would move the request out of its path",
				e.name, p.token, e.path.raw, s)
		}
		filled = append(filled, filledToken{name: p.token, value: s, start: b.Len() - from})
		b.WriteString(enc)
	}
	if err := e.checkSegments(b.String()[from:], filled); err != nil {
		return err
	}
	q, err := e.query(params)
	if err != nil {
		return err
	}
	if q != "" {
		if strings.Contains(e.path.raw, "?") {
			b.WriteByte('&')
		} else {
			b.WriteByte('?')
		}
		b.WriteString(q)
	}
	return nil
}

// filledToken is a token as URL wrote it: its value, and where its text
// starts in the URL.
type filledToken struct {
	name, value string
	start       int
}

// checkSegments refuses a URL where a path segment holding a token is a dot
// segment, which fetch's URL parser would resolve, sending the request
// elsewhere than its template says: ".:ext" with ext "." makes "..", and
// "%2e:ext" (an escaped dot in the template's literal text) with ext "."
// makes "%2e.". It reads u as written, with each token escaped: a token's
// own "%" is "%25" there, so a token can add a dot to a segment only as a
// literal '.'. A token's own value was checked before it was written; this
// catches the values that make a dot segment together with the literal
// text around them. Tokens past a '?' or '#' are in the query or fragment,
// where dots mean nothing.
func (e *Endpoint) checkSegments(u string, filled []filledToken) error {
	for _, t := range filled {
		if strings.ContainsAny(u[:t.start], "?#") {
			break
		}
		from := strings.LastIndexByte(u[:t.start], '/') + 1
		to := len(u)
		if i := strings.IndexAny(u[t.start:], "/?#"); i >= 0 {
			to = t.start + i
		}
		if isDotSegment(u[from:to]) {
			return fmt.Errorf("%s: path token :%s for %s is %q, which makes the path segment %q, a dot segment that would move the request out of its path",
				e.name, t.name, e.path.raw, t.value, u[from:to])
		}
	}
	return nil
}

// isDotSegment reports whether a path segment, as written in a URL, is "."
// or "..", also when written with percent-escapes as "%2e" or "%2E": the
// forms a URL parser resolves against the path before it. It takes the
// escaped text: a token's value "%2e" is the segment %252e, no dot segment.
func isDotSegment(seg string) bool {
	if len(seg) > 6 || !strings.ContainsRune(seg, '.') && !strings.Contains(seg, "%2") {
		return false
	}
	seg = strings.ReplaceAll(strings.ReplaceAll(seg, "%2e", "."), "%2E", ".")
	return seg == "." || seg == ".."
}

// query encodes the params that are not path tokens, sorted by name as
// URLSearchParams.sort does (by UTF-16 code units), so that params given in
// any order make one URL and so one key. Undefined members are left out, as
// JSON leaves them out.
func (e *Endpoint) query(params value.Value) (string, error) {
	var ms []value.Member
	for _, m := range params.Members() {
		if !m.Value.IsUndefined() && !e.path.hasToken(m.Key) {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return "", nil
	}
	slices.SortStableFunc(ms, func(a, b value.Member) int { return compareUTF16(a.Key, b.Key) })
	var b strings.Builder
	add := func(key string, v value.Value) error {
		s, ok := v.Text()
		if !ok {
			return fmt.Errorf("%s: query param %q cannot hold %s: only strings, numbers, booleans, null and arrays of them go in a URL",
				e.name, key, v.Kind())
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		// URLSearchParams makes lone surrogates U+FFFD.
		b.WriteString(formEncode(value.ToWellFormed(key)))
		b.WriteByte('=')
		b.WriteString(formEncode(value.ToWellFormed(s)))
		return nil
	}
	for _, m := range ms {
		if m.Value.Kind() != value.Array {
			if err := add(m.Key, m.Value); err != nil {
				return "", err
			}
			continue
		}
		for _, el := range m.Value.Elems() {
			if el.IsUndefined() {
				continue
			}
			if err := add(m.Key, el); err != nil {
				return "", err
			}
		}
	}
	return b.String(), nil
}

const upperHex = "0123456789ABCDEF"

// encodeURIComponent escapes s as JavaScript's function of that name does:
// every byte of its UTF-8 form except letters, digits and -_.!~*'() is
// written as %XX.
func encodeURIComponent(s string) string {
	return escapeBytes(s, func(c byte) bool {
		return isAlnum(c) || strings.IndexByte("-_.!~*'()", c) >= 0
	}, false)
}

// formEncode escapes s as URLSearchParams does
// (application/x-www-form-urlencoded): letters, digits and *-._ stay, a
// space becomes '+', every other byte is %XX.
func formEncode(s string) string {
	return escapeBytes(s, func(c byte) bool {
		return isAlnum(c) || strings.IndexByte("*-._", c) >= 0
	}, true)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func escapeBytes(s string, keep func(byte) bool, spacePlus bool) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !keep(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case keep(c):
			b = append(b, c)
		case c == ' ' && spacePlus:
			b = append(b, '+')
		default:
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return string(b)
}

// compareUTF16 orders strings by their UTF-16 code units, as JavaScript
// compares strings. It differs from Go's byte order only between characters
// above U+FFFF (surrogate pairs, D800–DFFF) and those in E000–FFFF.
func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := decodeRune(a)
		rb, nb := decodeRune(b)
		if ra == utf8.RuneError && rb == utf8.RuneError && a[0] != b[0] {
			// Invalid UTF-8 on both sides: fall back to byte order.
			return int(a[0]) - int(b[0])
		}
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua != ub {
				return int(ua) - int(ub)
			}
			// The same first unit: both are pairs with one lead unit,
			// whose trail units order as the code points do, or one is
			// that lead unit alone, followed by the next character.
			return int(secondUnit(ra, a[na:])) - int(secondUnit(rb, b[nb:]))
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

// decodeRune is utf8.DecodeRuneInString that also reads a lone surrogate
// (in the three-byte form package value keeps it in) as its code unit.
func decodeRune(s string) (rune, int) {
	if len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2]&0xC0 == 0x80 {
		return rune(s[0]&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	return utf8.DecodeRuneInString(s)
}

// secondUnit returns the UTF-16 code unit after r's first: its trail unit
// when r is above U+FFFF, else the first unit of the text after it (-1 at
// the end, which orders before any unit).
func secondUnit(r rune, after string) rune {
	if r >= 0x10000 {
		return 0xDC00 + (r-0x10000)&0x3FF
	}
	if after == "" {
		return -1
	}
	next, _ := decodeRune(after)
	return firstUnit(next)
}

// firstUnit returns the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}
