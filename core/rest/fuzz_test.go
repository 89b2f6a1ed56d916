package rest

import (
	"bytes"
	"net/url"
	"strings"
	"testing"

	"github.com/datafetch/datafetch/core/value"
)

// FuzzURL builds endpoints from random path templates and fills them from
// random params. rest.New either refuses the template or gives an endpoint
// whose URL, for params holding every token, escapes each token so that
// it cannot change the URL's structure: the escaped text holds only
// encodeURIComponent's characters and unescapes to the param. When the
// template's literal text is itself URL-safe, the whole URL parses with
// net/url, its path holds each param verbatim, and its query holds every
// other param. A token that is "." or "..", or makes its path segment one
// with the literal text around it (as ".:ext" or "%2e:ext" with ext "."),
// is refused with an error naming it, since a URL parser would resolve it
// and move the request out of its template; a token "%2e%2e" is escaped
// to the name %252e%252e and allowed. Key does not depend on the order of the params.
func FuzzURL(f *testing.F) {
	f.Add("/articles/:id", uint8(0), []byte("5"))
	f.Add("/users/:userId/posts/:id", uint8(1), []byte("a/b?c#d\x00 %20é"))
	f.Add("/a/:id.json", uint8(2), []byte("..\x00../..\x00x"))
	f.Add("/t/:x/:y", uint8(3), []byte("-_.!~*'()\x00\xff\xfe\x00&=+"))
	f.Add("/files/:name:ext", uint8(4), []byte("%2F\x00;,/?:@&=+$#"))
	f.Add("/:a/:a", uint8(5), []byte("dup"))
	f.Add("/p:8080/:_x9/:9", uint8(6), []byte("\u00a0\u2028\x00\x01\x7f"))
	f.Add("/search?sort=new&q=:q", uint8(7), []byte("a b"))
	f.Add("/#/:id", uint8(8), []byte("1"))
	f.Add("/%zz/:id", uint8(9), []byte("1"))
	f.Add("/a/:id", uint8(10), []byte(`{"id":[1,2],"page":{"x":1}}`))
	f.Add("/files/:name/raw", uint8(0), []byte(".."))
	f.Add("/items/:id", uint8(1), []byte("\xed\xa0\x80\x00\xed\xaf\xbfx\x00y"))
	f.Add("/files/.:ext/:x", uint8(1), []byte("%2E\x00."))
	f.Add("/files/:name/raw", uint8(1), []byte("%2e%2e"))
	f.Add("/files/%2e:ext/raw", uint8(0), []byte("."))
	f.Add("/users{/:id}{/:group}/*rest", uint8(2), []byte("a\x00..\x00c"))
	f.Add("/a\\:b\\{/:c}", uint8(0), []byte("x"))
	f.Fuzz(func(t *testing.T, tmpl string, sel uint8, data []byte) {
		o := Options{Path: "/" + strings.TrimPrefix(tmpl, "/"), Name: "fuzz"}
		prefixPath := "/api"
		if sel&1 == 0 {
			o.URLPrefix = "http://example.com" + prefixPath
		} else {
			o.Path = "https://h.example:8443" + o.Path
			prefixPath = ""
		}
		e, err := New(o)
		if err != nil {
			return
		}

		// Any JSON as params: an error or a URL, never a panic.
		if v, err := value.Parse(data); err == nil {
			if u, err := e.URL(v); err == nil && safeLiterals(e) {
				if _, err := url.Parse(u); err != nil {
					t.Fatalf("URL %q for params %s does not parse: %v", u, v, err)
				}
			}
			_, _ = e.Key(v)
		}

		// The checks below read the template part by part: literal text and
		// :name tokens. Optional groups and *wildcards (whose params are
		// arrays) have their cases in TestPathSyntax and the JavaScript
		// port's differential test; here they must only never panic.
		if !flatTemplate(e.path.parts) {
			pieces := bytes.Split(data, []byte{0})
			var ms []value.Member
			for i, tok := range e.path.tokens {
				p := value.Str(string(pieces[i%len(pieces)]))
				if sel&2 == 0 {
					p = value.Arr(p)
				}
				ms = append(ms, value.M(tok, p))
			}
			_, _ = e.URL(value.Obj(ms...))
			_, _ = e.Key(value.Obj(ms...))
			return
		}

		// Params with every token, from the pieces of data.
		pieces := bytes.Split(data, []byte{0})
		piece := func(i int) value.Value {
			p := pieces[i%len(pieces)]
			switch {
			case sel&6 == 2 && len(p) > 0 && p[0] < '5':
				return value.Int(int64(p[0])) // a number
			case sel&6 == 4 && len(p) == 1:
				return value.BoolV(p[0]&1 == 1)
			}
			return value.Str(string(p))
		}
		var ms []value.Member
		for i, tok := range e.path.tokens {
			ms = append(ms, value.M(tok, piece(i)))
		}
		query := map[string]string{}
		for i := len(e.path.tokens); i < len(pieces) && i < len(e.path.tokens)+3; i++ {
			name := "q" + string(pieces[(i+1)%len(pieces)])
			if _, dup := query[value.ToWellFormed(name)]; dup || e.path.hasToken(name) || hasKey(ms, name) {
				continue
			}
			v := piece(i)
			ms = append(ms, value.M(name, v))
			text, _ := v.Text()
			// URLSearchParams makes lone surrogates U+FFFD.
			query[value.ToWellFormed(name)] = value.ToWellFormed(text)
		}
		params := value.Obj(ms...)
		u, err := e.URL(params)
		for _, tok := range e.path.tokens {
			if s, _ := params.Get(tok).Text(); value.HasLoneSurrogate(s) {
				// encodeURIComponent refuses a lone surrogate.
				if err == nil || !strings.Contains(err.Error(), "lone surrogate") {
					t.Fatalf("URL of %s with params %s: got %q, %v; want a lone surrogate error", o.Path, params, u, err)
				}
				return
			}
		}
		if dots := dotTokens(e, o.URLPrefix, params); len(dots) > 0 {
			// A token that is, or makes, a dot segment of the path must
			// be refused: a URL parser would resolve it and send the
			// request outside its template.
			named := false
			for _, d := range dots {
				named = named || err != nil && strings.Contains(err.Error(), "path token :"+d+" ")
			}
			if !named {
				t.Fatalf("URL of %s with params %s: got %q, %v; want an error naming one of %v", o.Path, params, u, err, dots)
			}
			return
		}
		if err != nil {
			t.Fatalf("URL of %s with params %s: %v", o.Path, params, err)
		}

		// Each token's text, found by writing the URL part by part.
		var want strings.Builder // the path with params verbatim
		rest := strings.TrimPrefix(u, o.URLPrefix)
		for _, p := range e.path.parts {
			if p.token == "" {
				if !strings.HasPrefix(rest, p.lit) {
					t.Fatalf("URL %q lost the literal %q of %s", u, p.lit, o.Path)
				}
				rest = rest[len(p.lit):]
				want.WriteString(p.lit)
				continue
			}
			raw, _ := params.Get(p.token).Text()
			esc := encodeURIComponent(raw)
			if !strings.HasPrefix(rest, esc) {
				t.Fatalf("URL %q: token :%s = %q is not written as %q", u, p.token, raw, esc)
			}
			rest = rest[len(esc):]
			for i := 0; i < len(esc); i++ {
				if c := esc[i]; !isAlnum(c) && !strings.ContainsRune("-_.!~*'()%", rune(c)) {
					t.Fatalf("token :%s = %q escapes to %q, which holds %q", p.token, raw, esc, c)
				}
			}
			if back, err := url.PathUnescape(esc); err != nil || back != raw {
				t.Fatalf("token :%s = %q escapes to %q, which unescapes to %q (%v)", p.token, raw, esc, back, err)
			}
			want.WriteString(raw)
		}

		if safeLiterals(e) {
			pu, err := url.Parse(u)
			if err != nil {
				t.Fatalf("URL %q of %s does not parse: %v", u, o.Path, err)
			}
			if full := pu.Scheme + "://" + pu.Host; full != "http://example.com" && full != "https://h.example:8443" {
				t.Fatalf("URL %q has scheme and host %q", u, full)
			}
			wantPath := prefixPath + strings.TrimPrefix(want.String(), "https://h.example:8443")
			if pu.Path != wantPath {
				t.Fatalf("URL %q of %s: path %q, want %q", u, o.Path, pu.Path, wantPath)
			}
			got, err := url.ParseQuery(pu.RawQuery)
			if err != nil {
				t.Fatalf("URL %q: query does not parse: %v", u, err)
			}
			if len(got) != len(query) {
				t.Fatalf("URL %q: query %v, want %v", u, got, query)
			}
			for k, v := range query {
				if g := got[k]; len(g) != 1 || g[0] != v {
					t.Fatalf("URL %q: query %q = %q, want %q", u, k, g, v)
				}
			}
		}

		// Keys: equal params in another order give the same key.
		k1, err := e.Key(params)
		if err != nil {
			t.Fatalf("Key: %v", err)
		}
		rev := make([]value.Member, len(ms))
		for i, m := range ms {
			rev[len(ms)-1-i] = m
		}
		if k2, _ := e.Key(value.Obj(rev...)); k1 != k2 {
			t.Fatalf("keys differ by param order: %q, %q", k1, k2)
		}
	})
}

// flatTemplate reports whether parts are literal text and :name tokens
// only.
func flatTemplate(parts []pathPart) bool {
	for _, p := range parts {
		if p.group != nil || p.wildcard {
			return false
		}
	}
	return true
}

// dotTokens returns the tokens of e's path that, filled from params, are
// "." or ".." or make their path segment one (percent-escaped dots
// included), as the path is written: a token's own "%2e" is escaped to
// "%252e", no dot. It writes the path the slow way, independently of URL.
func dotTokens(e *Endpoint, prefix string, params value.Value) []string {
	path := prefix
	type at struct {
		name  string
		start int
		raw   string
	}
	var toks []at
	for _, p := range e.path.parts {
		if p.token == "" {
			path += p.lit
			continue
		}
		raw, _ := params.Get(p.token).Text()
		toks = append(toks, at{p.token, len(path), raw})
		path += encodeURIComponent(raw)
	}
	dot := func(seg string) bool {
		seg = strings.ToLower(seg)
		return seg == "." || seg == ".." || seg == "%2e" || seg == ".%2e" || seg == "%2e." || seg == "%2e%2e"
	}
	var names []string
	for _, t := range toks {
		if strings.ContainsAny(path[:t.start], "?#") {
			break
		}
		from := strings.LastIndex(path[:t.start], "/") + 1
		to := len(path)
		if i := strings.IndexAny(path[t.start:], "/?#"); i >= 0 {
			to = t.start + i
		}
		if dot(encodeURIComponent(t.raw)) || dot(path[from:to]) {
			names = append(names, t.name)
		}
	}
	return names
}

func hasKey(ms []value.Member, k string) bool {
	for _, m := range ms {
		if m.Key == k {
			return true
		}
	}
	return false
}

// safeLiterals reports whether the literal text of e's path keeps its
// meaning in a URL: only unreserved characters, sub-delimiters, '/', ':'
// and '@' (no '?', '#', '%' or characters that need escaping).
func safeLiterals(e *Endpoint) bool { return safeParts(e.path.parts) }

// safeParts is safeLiterals for parts, the literal text of optional groups
// included.
func safeParts(parts []pathPart) bool {
	for _, p := range parts {
		for i := 0; i < len(p.lit); i++ {
			if c := p.lit[i]; !isAlnum(c) && !strings.ContainsRune("-._~!$&'()*+,;=/:@", rune(c)) {
				return false
			}
		}
		if !safeParts(p.group) {
			return false
		}
	}
	return true
}
