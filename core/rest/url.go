package rest

import (
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// pathTemplate is a parsed path such as /users/:userId/posts/:id: literal
// text with tokens that URL fills from params, in the syntax of
// path-to-regexp 8 as data-client uses it: :name (one segment), *name (an
// array of segments), {…} (an optional group, written only when its tokens
// are given) and \ (the next character is literal, as "http\\://" or
// "\\?").
type pathTemplate struct {
	raw   string
	parts []pathPart
	// tokens lists the token names in order, those in groups too; they are
	// unique.
	tokens []string
	// query is whether the literal text holds a '?': params that are not
	// tokens then join its query string with '&'.
	query bool
}

// pathPart is literal text, a token (token set; wildcard for *name), or an
// optional group of parts. at is where it starts in the raw path.
type pathPart struct {
	lit      string
	token    string
	wildcard bool
	group    []pathPart
	at       int
}

// parsePath parses a path template. A token is ':' or '*' followed by a
// letter or '_' and then letters, digits and '_'; a ':' or '*' not so
// followed is literal. Requiring a letter first keeps a port (as in
// http://host:8080/) from reading as a token, and tokens are looked for
// only after a full URL's authority for the same reason.
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
	p := pathParser{t: &t, i: start}
	parts, err := p.parse(false)
	if err != nil {
		return pathTemplate{}, fmtlite.Errorf("path %s %w", path, err)
	}
	if start > 0 {
		parts = append([]pathPart{{lit: strings.Replace(path[:start], `\:`, ":", 1)}}, parts...)
	}
	t.parts = parts
	return t, nil
}

// pathParser reads a path template from t.raw, from i.
type pathParser struct {
	t *pathTemplate
	i int
}

// parse reads parts up to the end, or in a group up to its '}'.
func (p *pathParser) parse(inGroup bool) ([]pathPart, error) {
	src := p.t.raw
	var parts []pathPart
	var lit []byte
	litAt := p.i
	flush := func() {
		if len(lit) > 0 {
			parts = append(parts, pathPart{lit: string(lit), at: litAt})
			p.t.query = p.t.query || strings.IndexByte(string(lit), '?') >= 0
			lit = nil
		}
		litAt = p.i
	}
	for p.i < len(src) {
		c := src[p.i]
		switch {
		case c == '\\' && p.i+1 < len(src):
			if len(lit) == 0 {
				litAt = p.i
			}
			lit = append(lit, src[p.i+1])
			p.i += 2
		case c == '{':
			flush()
			at := p.i
			p.i++
			group, err := p.parse(true)
			if err != nil {
				return nil, err
			}
			parts = append(parts, pathPart{group: group, at: at})
			litAt = p.i
		case c == '}':
			if !inGroup {
				return nil, fmtlite.Errorf("has a '}' at %d that closes no '{'", p.i)
			}
			flush()
			p.i++
			return parts, nil
		case (c == ':' || c == '*') && p.i+1 < len(src) && isTokenStart(src[p.i+1]):
			flush()
			at := p.i
			j := p.i + 2
			for j < len(src) && isTokenByte(src[j]) {
				j++
			}
			name := src[p.i+1 : j]
			if slices.Contains(p.t.tokens, name) {
				return nil, fmtlite.Errorf("names token %c%s twice", c, name)
			}
			parts = append(parts, pathPart{token: name, wildcard: c == '*', at: at})
			p.t.tokens = append(p.t.tokens, name)
			p.i = j
			litAt = p.i
		default:
			if len(lit) == 0 {
				litAt = p.i
			}
			lit = append(lit, c)
			p.i++
		}
	}
	if inGroup {
		return nil, errors.New("has a '{' that is not closed")
	}
	flush()
	return parts, nil
}

func isTokenStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isTokenByte(c byte) bool { return isTokenStart(c) || c >= '0' && c <= '9' }

// isFullURL reports whether s starts with a scheme and "://", as
// https://example.com/ does; the colon may be escaped, as data-client
// writes it in paths ("http\\://example.com/:id").
func isFullURL(s string) bool {
	i := strings.Index(s, "://")
	if i > 0 && s[i-1] == '\\' {
		i--
	}
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
		return fmtlite.Errorf("%s: params must be an object, got %s", e.name, params.Kind())
	}
	from := b.Len()
	b.WriteString(e.opts.URLPrefix)
	var inline [maxInlineTokens]filledToken
	filled, err := e.writeParts(b, from, e.path.parts, params, inline[:0])
	if err != nil {
		return err
	}
	if err := e.checkSegments(b.String()[from:], filled); err != nil {
		return err
	}
	q, err := e.query(params)
	if err != nil {
		return err
	}
	if q != "" {
		if e.path.query {
			b.WriteByte('&')
		} else {
			b.WriteByte('?')
		}
		b.WriteString(q)
	}
	return nil
}

// writeParts writes parts filled from params to b (the URL started at
// from) and returns filled with the tokens it wrote appended.
func (e *Endpoint) writeParts(b *strings.Builder, from int, parts []pathPart, params value.Value, filled []filledToken) ([]filledToken, error) {
	for _, p := range parts {
		switch {
		case p.group != nil:
			if !groupGiven(p.group, params) {
				continue
			}
			var err error
			if filled, err = e.writeParts(b, from, p.group, params, filled); err != nil {
				return nil, err
			}
		case p.token == "":
			b.WriteString(p.lit)
		case p.wildcard:
			v := params.Get(p.token)
			if v.Kind() != value.Array || v.Len() == 0 {
				if v.IsNullish() {
					return nil, fmtlite.Errorf("%s: params missing path token *%s for %s", e.name, p.token, e.path.raw)
				}
				return nil, fmtlite.Errorf("%s: path token *%s for %s must be a non-empty array of segments, got %s",
					e.name, p.token, e.path.raw, schema.KindName(v))
			}
			for i, el := range v.Elems() {
				if i > 0 {
					b.WriteByte('/')
				}
				var err error
				if filled, err = e.writeToken(b, from, p, el, filled); err != nil {
					return nil, err
				}
			}
		default:
			v := params.Get(p.token)
			if v.IsNullish() {
				return nil, fmtlite.Errorf("%s: params missing path token :%s for %s", e.name, p.token, e.path.raw)
			}
			var err error
			if filled, err = e.writeToken(b, from, p, v, filled); err != nil {
				return nil, err
			}
		}
	}
	return filled, nil
}

// writeToken writes v, the value of token p (one segment of a wildcard),
// escaped as encodeURIComponent does, refusing what would move the request
// out of its path.
func (e *Endpoint) writeToken(b *strings.Builder, from int, p pathPart, v value.Value, filled []filledToken) ([]filledToken, error) {
	sigil := ":"
	if p.wildcard {
		sigil = "*"
	}
	s, ok := v.Text()
	if !ok || v.IsNull() {
		return nil, fmtlite.Errorf("%s: path token %s%s for %s must be a string, number or boolean, got %s",
			e.name, sigil, p.token, e.path.raw, v.Kind())
	}
	if value.HasLoneSurrogate(s) {
		// encodeURIComponent throws a URIError for these.
		return nil, fmtlite.Errorf("%s: path token %s%s for %s holds a lone surrogate (%s), which a URL cannot carry",
			e.name, sigil, p.token, e.path.raw, value.Str(s).JSON())
	}
	// The check is on the escaped text, which is what the URL parser
	// reads: "." and ".." stay as they are, but "%2e%2e" is written
	// %252e%252e, a file name.
	enc := encodeURIComponent(s)
	if isDotSegment(enc) && !strings.ContainsAny(b.String()[from:], "?#") {
		return nil, fmtlite.Errorf("%s: path token %s%s for %s is %q, a dot segment that would move the request out of its path",
			e.name, sigil, p.token, e.path.raw, s)
	}
	filled = append(filled, filledToken{name: p.token, value: s, start: b.Len() - from})
	b.WriteString(enc)
	return filled, nil
}

// groupGiven reports whether params give every token of an optional
// group's own (its nested groups decide for themselves): a group is
// written whole or not at all.
func groupGiven(group []pathPart, params value.Value) bool {
	for _, p := range group {
		if p.token != "" && params.Get(p.token).IsNullish() {
			return false
		}
	}
	return true
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
			return fmtlite.Errorf("%s: path token :%s for %s is %q, which makes the path segment %q, a dot segment that would move the request out of its path",
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
	if f := e.opts.SearchToString; f != nil {
		q, err := f(value.Obj(ms...))
		if err != nil {
			return "", fmtlite.Errorf("%s: searchToString: %w", e.name, err)
		}
		return q, nil
	}
	slices.SortStableFunc(ms, func(a, b value.Member) int { return compareUTF16(a.Key, b.Key) })
	var b strings.Builder
	add := func(key string, v value.Value) error {
		s, ok := v.Text()
		if !ok {
			return fmtlite.Errorf("%s: query param %q cannot hold %s: only strings, numbers, booleans, null and arrays of them go in a URL",
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

// PathToken is one token of an endpoint's path, as PathTokens lists it.
type PathToken struct {
	// Name is the param that fills it.
	Name string
	// Optional is true for a token inside a {…} group, which is written
	// only when its tokens are given; a required token's param must be.
	Optional bool
	// Wildcard is true for *name, an array of segments.
	Wildcard bool
}

// PathTokens returns the tokens of e's path in order, so that a typed
// front end (package df) can check its params type against them before
// any call. It is a function, not a method, so that a program that does
// not call it does not link it (the linker keeps the exported methods of
// a type reflection can reach).
func PathTokens(e *Endpoint) []PathToken {
	var out []PathToken
	var walk func(parts []pathPart, optional bool)
	walk = func(parts []pathPart, optional bool) {
		for _, p := range parts {
			switch {
			case p.group != nil:
				walk(p.group, true)
			case p.token != "":
				out = append(out, PathToken{Name: p.token, Optional: optional, Wildcard: p.wildcard})
			}
		}
	}
	walk(e.path.parts, false)
	return out
}
