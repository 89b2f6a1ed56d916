package inspect

import "strings"

// Label makes a result key ("name METHOD url", as REST endpoints build
// them) easier to read: GET left implicit; the URL without prefix (or,
// with none, without its scheme and host); its query unescaped; and a
// query whose one value is a link to the same path (a page token such as
// page=/posts?page=2) shown as that link: "getPosts /posts?page=2". Keys of
// another form are returned as they are.
func Label(key, prefix string) string {
	name, rest, ok := strings.Cut(key, " ")
	if !ok {
		return key
	}
	method, raw, ok := strings.Cut(rest, " ")
	if !ok || method == "" || strings.ContainsAny(method, "{[\"") {
		return key
	}
	u := shortURL(raw, prefix)
	if method == "GET" {
		return name + " " + u
	}
	return name + " " + method + " " + u
}

// shortURL is Label's URL part.
func shortURL(raw, prefix string) string {
	path, query, hasQuery := strings.Cut(trimBase(raw, prefix), "?")
	if !hasQuery {
		return unescape(path, false)
	}
	if _, v, ok := strings.Cut(query, "="); ok && !strings.Contains(query, "&") {
		link := trimBase(unescape(v, true), prefix)
		if lp, _, ok := strings.Cut(link, "?"); ok && lp == path {
			return unescape(link, false)
		}
	}
	return unescape(path, false) + "?" + unescape(query, true)
}

// trimBase leaves out of s the prefix, the prefix's path (a token names
// its page by path), or else a scheme and host.
func trimBase(s, prefix string) string {
	if prefix != "" {
		if t, ok := strings.CutPrefix(s, prefix); ok {
			return t
		}
		if p := pathOf(prefix); p != "" {
			if t, ok := strings.CutPrefix(s, p); ok && (t == "" || t[0] == '/' || t[0] == '?') {
				return t
			}
		}
	}
	if p := pathOf(s); p != s {
		return p
	}
	return s
}

// pathOf returns what follows the scheme and host of an absolute URL
// ("/rest" for "http://h:8080/rest"), "" when it has no path, and s itself
// when it is not absolute.
func pathOf(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || scheme == "" || strings.ContainsAny(scheme, "/?") {
		return s
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		return rest[i:]
	}
	return ""
}

// unescape decodes %XX escapes (and, in a query, + as a space); a broken
// escape is left as it is.
func unescape(s string, query bool) string {
	if !strings.ContainsAny(s, "%+") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(hexVal(s[i+1])<<4 | hexVal(s[i+2]))
			i += 2
		case c == '+' && query:
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hexVal(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
