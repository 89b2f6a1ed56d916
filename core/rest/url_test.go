package rest_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

func TestURL(t *testing.T) {
	tests := []struct {
		name   string
		prefix string
		path   string
		params value.Value
		want   string
	}{
		{"token", "http://h", "/articles/:id", obj(`{"id":5}`), "http://h/articles/5"},
		{"string token", "", "/articles/:id", obj(`{"id":"abc"}`), "/articles/abc"},
		{"escaped token", "", "/files/:name", obj(`{"name":"a/b c"}`), "/files/a%2Fb%20c"},
		{"encodeURIComponent keeps", "", "/t/:x", obj(`{"x":"-_.!~*'()"}`), "/t/-_.!~*'()"},
		{"unicode token", "", "/t/:x", obj(`{"x":"é"}`), "/t/%C3%A9"},
		{"two tokens", "", "/users/:userId/posts/:id", obj(`{"id":2,"userId":1}`), "/users/1/posts/2"},
		{"token in segment", "", "/a/:id.json", obj(`{"id":3}`), "/a/3.json"},
		{"canonical numbers", "", "/n/:id", obj(`{"id":5.0,"b":1e2,"c":-0,"d":0.5e-7}`), "/n/5?b=100&c=0&d=5e-8"},
		{"sorted query", "", "/articles", obj(`{"z":1,"a":"x","m":true}`), "/articles?a=x&m=true&z=1"},
		{"null and bool", "", "/q", obj(`{"a":null,"b":false}`), "/q?a=null&b=false"},
		{"form encoding", "", "/q", obj(`{"q":"a b&c=d/é*~"}`), "/q?q=a+b%26c%3Dd%2F%C3%A9*%7E"},
		{"array repeats key", "", "/q", obj(`{"tag":["a","b"],"id":1}`), "/q?id=1&tag=a&tag=b"},
		{"undefined params", "", "/current_user/", value.Undef, "/current_user/"},
		{"null params", "", "/current_user/", value.NullV, "/current_user/"},
		{"empty object", "", "/list", obj(`{}`), "/list"},
		{"undefined member skipped", "", "/list", value.Obj(value.M("a", value.Undef)), "/list"},
		{"full URL path with port", "", "http://127.0.0.1:8080/a/:id", obj(`{"id":1}`), "http://127.0.0.1:8080/a/1"},
		{"path with query", "", "/post?sort=new", obj(`{"page":"2"}`), "/post?sort=new&page=2"},
		{"prefix is literal", "/api:v1", "/a", value.Undef, "/api:v1/a"},
		{"path of optional groups only", "http://h/a", "{/:id}{/:title}", obj(`{"id":5}`), "http://h/a/5"},
		{"path of optional groups, none given", "http://h/a", "{/:id}{/:title}", obj(`{}`), "http://h/a"},
		{"path of optional groups, both", "http://h/a", "{/:id}{/:title}", obj(`{"id":5,"title":"x"}`), "http://h/a/5/x"},
		{"utf-16 key order", "", "/q", obj(`{"\ud83d\ude00":1,"\uffff":2}`), "/q?%F0%9F%98%80=1&%EF%BF%BF=2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := rest.New(rest.Options{URLPrefix: tt.prefix, Path: tt.path})
			require.NoError(t, err)
			got, err := e.URL(tt.params)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestURLErrors(t *testing.T) {
	tests := []struct {
		name, path string
		params     value.Value
		want       string
	}{
		{"missing token", "/articles/:id", obj(`{"title":"x"}`), "getArticle: params missing path token :id for /articles/:id"},
		{"null token", "/articles/:id", obj(`{"id":null}`), "getArticle: params missing path token :id for /articles/:id"},
		{"no params", "/articles/:id", value.Undef, "getArticle: params missing path token :id for /articles/:id"},
		{"object token", "/articles/:id", obj(`{"id":{}}`), "getArticle: path token :id for /articles/:id must be a string, number or boolean, got object"},
		{"object query", "/articles", obj(`{"filter":{"a":1}}`), `getArticle: query param "filter" cannot hold object`},
		{"nested array query", "/articles", obj(`{"a":[[1]]}`), `getArticle: query param "a" cannot hold array`},
		{"params not object", "/articles", value.Int(5), "getArticle: params must be an object, got number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := rest.New(rest.Options{Path: tt.path, Name: "getArticle"})
			require.NoError(t, err)
			_, err = e.URL(tt.params)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			_, err = e.Key(tt.params)
			assert.Error(t, err, "Key fails where URL does")
		})
	}
}

func TestKey(t *testing.T) {
	get, err := rest.New(rest.Options{URLPrefix: "http://h", Path: "/articles/:id", Name: "getArticle"})
	require.NoError(t, err)
	key := func(e *rest.Endpoint, params string) string {
		t.Helper()
		k, err := e.Key(obj(params))
		require.NoError(t, err)
		return k
	}
	assert.Equal(t, "getArticle GET http://h/articles/5?lang=en", key(get, `{"id":5,"lang":"en"}`))

	t.Run("equal params give equal keys", func(t *testing.T) {
		assert.Equal(t, key(get, `{"id":5,"lang":"en","x":1}`), key(get, `{"x":1,"lang":"en","id":5}`))
		assert.Equal(t, key(get, `{"id":5}`), key(get, `{"id":"5"}`), "pks compare as strings")
		assert.Equal(t, key(get, `{"id":5}`), key(get, `{"id":5.0}`))
	})
	t.Run("different params give different keys", func(t *testing.T) {
		assert.NotEqual(t, key(get, `{"id":5}`), key(get, `{"id":6}`))
		assert.NotEqual(t, key(get, `{"id":5}`), key(get, `{"id":5,"lang":"en"}`))
	})
	t.Run("name and method are in the key", func(t *testing.T) {
		other, err := get.Extend(func(o *rest.Options) { o.Name = "getArticleSummary" })
		require.NoError(t, err)
		assert.NotEqual(t, key(get, `{"id":5}`), key(other, `{"id":5}`))
		put, err := get.Extend(func(o *rest.Options) { o.Method = "put" })
		require.NoError(t, err)
		assert.Equal(t, "getArticle PUT http://h/articles/5", key(put, `{"id":5}`))
	})
	t.Run("name defaults to the path", func(t *testing.T) {
		e, err := rest.New(rest.Options{Path: "/articles/:id"})
		require.NoError(t, err)
		assert.Equal(t, "/articles/:id", e.Name())
		assert.Equal(t, "/articles/:id GET /articles/1", key(e, `{"id":1}`))
	})
	t.Run("the Key option makes the key, of any params", func(t *testing.T) {
		e, err := rest.New(rest.Options{Path: "/", Name: "fn", Key: func(p value.Value) (string, error) { return "fn " + p.JSON(), nil }})
		require.NoError(t, err)
		k, err := e.Key(value.Str("5"))
		require.NoError(t, err)
		assert.Equal(t, `fn "5"`, k, "params need not be an object")
		ext, err := e.Extend(func(o *rest.Options) { o.Name = "other" })
		require.NoError(t, err)
		assert.Equal(t, `fn {"id":1}`, key(ext, `{"id":1}`), "an extend keeps it")
	})
}

func TestNewValidation(t *testing.T) {
	tests := []struct {
		name string
		o    rest.Options
		want string
	}{
		{"no path", rest.Options{Name: "x"}, "rest: endpoint x: path is required"},
		{"relative path", rest.Options{Path: "articles/:id"}, `rest: endpoint articles/:id: path "articles/:id" must start with "/" or be a full URL`},
		{"unknown method", rest.Options{Path: "/a", Method: "FETCH", Name: "a"}, `rest: endpoint a: unknown method "FETCH"`},
		{"duplicate token", rest.Options{Path: "/a/:id/b/:id"}, "names token :id twice"},
		{"full URL and prefix", rest.Options{URLPrefix: "http://h", Path: "http://g/a"}, "is a full URL, so urlPrefix http://h must be empty"},
		{"bad prefix", rest.Options{URLPrefix: "h.com", Path: "/a"}, `urlPrefix "h.com" must be a full URL or start with "/"`},
		{"negative timeout", rest.Options{Path: "/a", Timeout: -1}, "timeout must not be negative"},
		{"negative expiry", rest.Options{Path: "/a", DataExpiryLength: -1}, "dataExpiryLength must not be negative"},
		{"entity without defaults", rest.Options{Path: "/a", Name: "a", Schema: schema.ArrayOf(&schema.Entity{Key: "A"})},
			"rest: endpoint a: schema: entity A: defaults must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rest.New(tt.o)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	for _, m := range []string{"get", "POST", "Put", "patch", "DELETE", "HEAD", "OPTIONS"} {
		_, err := rest.New(rest.Options{Path: "/a", Method: m})
		assert.NoError(t, err, m)
	}
}

func TestURLRefusesDotSegments(t *testing.T) {
	// A path segment that is "." or ".." as the URL is written (also
	// percent-escaped, "%2e", as a URL parser reads it) would resolve
	// against the path before it: /files/../raw is sent as /raw. URL and
	// Key refuse a token that is or makes one, naming the token, the value
	// and the endpoint. What counts is the escaped text: a token's "%" is
	// written "%25", so the value "%2e%2e" is the segment %252e%252e, a
	// file name, while the template's own literal "%2e" is an escaped dot.
	tests := []struct {
		name, path, params string
		url                string // the URL, when it is allowed
		err                string // the error, when it is refused
	}{
		{name: "dot dot", path: "/files/:name/raw", params: `{"name":".."}`,
			err: `getFile: path token :name for /files/:name/raw is "..", a dot segment`},
		{name: "dot", path: "/files/:name/raw", params: `{"name":"."}`,
			err: `getFile: path token :name for /files/:name/raw is ".", a dot segment`},
		{name: "last segment", path: "/files/:name", params: `{"name":".."}`,
			err: `getFile: path token :name for /files/:name is "..", a dot segment`},
		{name: "with literal dot", path: "/files/.:ext", params: `{"ext":"."}`,
			err: `getFile: path token :ext for /files/.:ext is ".", a dot segment`},
		{name: "two tokens", path: "/files/:a:b/raw", params: `{"a":"","b":"."}`,
			err: `getFile: path token :b for /files/:a:b/raw is ".", a dot segment`},
		{name: "two tokens each a dot", path: "/files/:a:b/raw", params: `{"a":".","b":"."}`,
			err: `getFile: path token :a for /files/:a:b/raw is ".", a dot segment`},
		{name: "empty with literal dots", path: "/files/..:ext/raw", params: `{"ext":""}`,
			err: `getFile: path token :ext for /files/..:ext/raw is "", which makes the path segment ".."`},
		{name: "with literal escaped dot", path: "/files/%2e:ext/raw", params: `{"ext":"."}`,
			err: `getFile: path token :ext for /files/%2e:ext/raw is ".", a dot segment`},
		{name: "with literal escaped dots", path: "/files/:ext%2e/raw", params: `{"ext":"%2e"}`, url: "/files/%252e%2e/raw"},
		{name: "empty with literal escaped dots", path: "/files/%2e%2e:ext/raw", params: `{"ext":""}`,
			err: `getFile: path token :ext for /files/%2e%2e:ext/raw is "", which makes the path segment "%2e%2e"`},
		{name: "with literal escaped dot, upper case", path: "/files/%2E:ext/raw", params: `{"ext":""}`,
			err: `getFile: path token :ext for /files/%2E:ext/raw is "", which makes the path segment "%2E"`},
		{name: "in a segment", path: "/files/:name.json", params: `{"name":"."}`,
			err: `getFile: path token :name for /files/:name.json is ".", a dot segment`},
		{name: "full URL", path: "http://h/files/:name/raw", params: `{"name":".."}`,
			err: `getFile: path token :name for http://h/files/:name/raw is ".."`},

		// A token's own percent signs are escaped, so these are names.
		{name: "escaped dot dot", path: "/files/:name/raw", params: `{"name":"%2e%2e"}`, url: "/files/%252e%252e/raw"},
		{name: "escaped dot dot, upper case", path: "/files/:name/raw", params: `{"name":"%2E%2E"}`, url: "/files/%252E%252E/raw"},
		{name: "escaped dot dot, mixed case", path: "/files/:name/raw", params: `{"name":"%2e%2E"}`, url: "/files/%252e%252E/raw"},
		{name: "half escaped", path: "/files/:name/raw", params: `{"name":".%2e"}`, url: "/files/.%252e/raw"},
		{name: "half escaped, other half", path: "/files/:name/raw", params: `{"name":"%2E."}`, url: "/files/%252E./raw"},
		{name: "escaped dot", path: "/files/:name", params: `{"name":"%2E"}`, url: "/files/%252E"},
		{name: "escaped dot with literal dot", path: "/files/.:ext/raw", params: `{"ext":"%2e"}`, url: "/files/.%252e/raw"},
		{name: "escaped twice", path: "/files/:name/raw", params: `{"name":"%252e"}`, url: "/files/%25252e/raw"},

		// Dots that cannot resolve stay allowed, and the query is not a path.
		{name: "three dots", path: "/files/:name/raw", params: `{"name":"..."}`, url: "/files/.../raw"},
		{name: "dot name", path: "/files/:name/raw", params: `{"name":".a"}`, url: "/files/.a/raw"},
		{name: "slash dot dot", path: "/files/:name/raw", params: `{"name":"a/.."}`, url: "/files/a%2F../raw"},
		{name: "in the query", path: "/search?q=:q", params: `{"q":".."}`, url: "/search?q=.."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := rest.New(rest.Options{Path: tt.path, Name: "getFile"})
			require.NoError(t, err)
			got, err := e.URL(obj(tt.params))
			_, keyErr := e.Key(obj(tt.params))
			if tt.err == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.url, got)
				assert.NoError(t, keyErr)
				return
			}
			require.Error(t, err, "URL gave %q", got)
			assert.Contains(t, err.Error(), tt.err)
			require.Error(t, keyErr)
			assert.Contains(t, keyErr.Error(), tt.err)
		})
	}
}

func TestFetchWithDotSegmentSendsNothing(t *testing.T) {
	s := jsonServer(t, 200, `{"ok":true}`)
	e := newEndpoint(t, s, rest.Options{Path: "/files/:name/raw", Name: "getFile"})
	for _, name := range []string{"..", "."} {
		_, err := e.Fetch(context.Background(), value.Obj(value.M("name", value.Str(name))), nil)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "getFile: path token :name for /files/:name/raw is "+strconv.Quote(name))
	}
	assert.Equal(t, 0, s.count(), "no request may be sent")
	// The endpoint keeps working for good names.
	_, err := e.Fetch(context.Background(), obj(`{"name":"a.txt"}`), nil)
	require.NoError(t, err)
	assert.Equal(t, "/files/a.txt/raw", s.last(t).Path)
	// A name that only looks like escaped dots is sent, escaped, as itself.
	_, err = e.Fetch(context.Background(), obj(`{"name":"%2e%2e"}`), nil)
	require.NoError(t, err)
	assert.Equal(t, "/files/%252e%252e/raw", s.last(t).Path)
}

func TestURLLoneSurrogates(t *testing.T) {
	// As in JavaScript: encodeURIComponent refuses a lone surrogate, so a
	// path token holding one is an error; URLSearchParams makes one
	// U+FFFD; query keys sort by UTF-16 code units.
	e, err := rest.New(rest.Options{Path: "/items/:id", Name: "getItem"})
	require.NoError(t, err)
	for _, pk := range []string{`"\ud800"`, `"a\udbffb"`, `"\udc00"`} {
		_, err = e.URL(obj(`{"id":` + pk + `}`))
		require.Error(t, err, pk)
		assert.Contains(t, err.Error(), `getItem: path token :id for /items/:id holds a lone surrogate (`+pk+`)`)
	}
	got, err := e.URL(obj(`{"id":"\ud83d\ude00","q":"\ud800x"}`))
	require.NoError(t, err)
	assert.Equal(t, "/items/%F0%9F%98%80?q=%EF%BF%BDx", got)

	list, err := rest.New(rest.Options{Path: "/items", Name: "getItems"})
	require.NoError(t, err)
	// Code units: "\ud83d" then "X" (D83D 0058) < "\ud83d\ude00" (D83D
	// DE00) < "\udc00" (DC00) < "\ue000" (E000).
	got, err = list.URL(obj(`{"\ue000":4,"\udc00":3,"\ud83d\ude00":2,"\ud83dX":1}`))
	require.NoError(t, err)
	assert.Equal(t, "/items?%EF%BF%BDX=1&%F0%9F%98%80=2&%EF%BF%BD=3&%EE%80%80=4", got)
}

// The path syntax of path-to-regexp 8, as data-client's RestEndpoint takes
// it: optional groups, wildcards, escapes.
func TestPathSyntax(t *testing.T) {
	tests := []struct {
		path   string
		params string
		want   string // "" when refused; then err holds part of the error
		err    string
	}{
		{"/users{/:id}", `{"id":"5"}`, "/users/5", ""},
		{"/users{/:id}", `{}`, "/users", ""},
		{"/users{/:id}", `{"id":null}`, "/users", ""},
		{"/users{/:id}{/:group}", `{}`, "/users", ""},
		{"/users{/:id}{/:group}", `{"id":"5"}`, "/users/5", ""},
		{"/users{/:id}{/:group}", `{"group":"g"}`, "/users/g", ""},
		{"/users{/:id}{/:group}", `{"id":5,"group":"g"}`, "/users/5/g", ""},
		{"/a{/:x/:y}", `{"x":1}`, "/a", ""}, // a token is never a query param
		{"/a{/:x{/:y}}", `{"x":1}`, "/a/1", ""},
		{"/a{/:x{/:y}}", `{"y":2}`, "/a", ""},
		{"/files/*path", `{"path":["a","b","c"]}`, "/files/a/b/c", ""},
		{"/files/*path", `{"path":["single"]}`, "/files/single", ""},
		{"/files/*path", `{"path":["a b","c/d",1,true]}`, "/files/a%20b/c%2Fd/1/true", ""},
		{"/users/:id/*rest", `{"id":"5","rest":["docs","file"]}`, "/users/5/docs/file", ""},
		{"/files{/*path}", `{"path":["a","b"]}`, "/files/a/b", ""},
		{"/files{/*path}", `{}`, "/files", ""},
		{"/users/:id{/*rest}", `{"id":"5"}`, "/users/5", ""},
		{"/users/:login/events/public\\?per_page=50", `{"login":"alice"}`, "/users/alice/events/public?per_page=50", ""},
		{"/users/:login/events/public\\?per_page=50", `{"login":"alice","page":2}`, "/users/alice/events/public?per_page=50&page=2", ""},
		{"http\\://test.com/user/:id", `{"id":"100"}`, "http://test.com/user/100", ""},
		{"/a\\:b/:c", `{"c":1}`, "/a:b/1", ""},
		{"/a\\{b\\}/:c", `{"c":1}`, "/a{b}/1", ""},
		{"/a/\\*b", `{}`, "/a/*b", ""},
		{"/files/*path", `{}`, "", "params missing path token *path"},
		{"/files/*path", `{"path":"a/b"}`, "", "must be a non-empty array of segments, got a string"},
		{"/files/*path", `{"path":[]}`, "", "must be a non-empty array of segments, got an array"},
		{"/files/*path", `{"path":["a",null]}`, "", "path token *path for /files/*path must be a string, number or boolean, got null"},
		{"/files/*path", `{"path":["a",".."]}`, "", "a dot segment"},
		{"/files/*path", `{"path":[{"a":1}]}`, "", "must be a string, number or boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.params, func(t *testing.T) {
			e, err := rest.New(rest.Options{Path: tt.path})
			require.NoError(t, err)
			got, err := e.URL(obj(tt.params))
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSideEffectWithoutMethodPosts(t *testing.T) {
	yes, no := true, false
	for _, tt := range []struct {
		method string
		side   *bool
		want   string
	}{
		{"", nil, "GET"},
		{"", &yes, "POST"},
		{"", &no, "GET"},
		{"GET", &yes, "GET"},
		{"delete", &yes, "DELETE"},
	} {
		e, err := rest.New(rest.Options{Path: "/a", Method: tt.method, SideEffect: tt.side})
		require.NoError(t, err)
		assert.Equal(t, tt.want, e.Method(), "method %q", tt.method)
	}
	// The method is fixed when the endpoint is made: marking a GET as a
	// side effect later keeps it a GET.
	get, err := rest.New(rest.Options{Path: "/a"})
	require.NoError(t, err)
	ext, err := get.Extend(func(o *rest.Options) { o.SideEffect = &yes })
	require.NoError(t, err)
	assert.Equal(t, "GET", ext.Method())
}

func TestSearchToString(t *testing.T) {
	var got []string
	e, err := rest.New(rest.Options{Path: "/users/:id", SearchToString: func(search value.Value) (string, error) {
		got = append(got, search.JSON())
		return "q=" + search.Get("b").JSON(), nil
	}})
	require.NoError(t, err)
	u, err := e.URL(obj(`{"id":1,"b":2,"a":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, "/users/1?q=2", u)
	k, err := e.Key(obj(`{"id":1,"b":2,"a":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, "/users/:id GET /users/1?q=2", k, "keys are made from the URL it writes")
	u, err = e.URL(obj(`{"id":1}`))
	require.NoError(t, err)
	assert.Equal(t, "/users/1", u, "not called without search params")
	assert.Equal(t, []string{`{"b":2,"a":"x"}`, `{"b":2,"a":"x"}`}, got)

	failing, err := rest.New(rest.Options{Path: "/x", Name: "x", SearchToString: func(value.Value) (string, error) {
		return "", errors.New("no")
	}})
	require.NoError(t, err)
	_, err = failing.URL(obj(`{"a":1}`))
	assert.EqualError(t, err, "x: searchToString: no")
}

func TestPathTokens(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []rest.PathToken
	}{
		{"/articles", nil},
		{"/articles/:id", []rest.PathToken{{Name: "id"}}},
		{"/users/:userId/posts{/:id}", []rest.PathToken{{Name: "userId"}, {Name: "id", Optional: true}}},
		{"/repos/:owner/*path", []rest.PathToken{{Name: "owner"}, {Name: "path", Wildcard: true}}},
		{"http://host:8080/a/:b", []rest.PathToken{{Name: "b"}}},
	} {
		e, err := rest.New(rest.Options{Path: tc.path})
		require.NoError(t, err, tc.path)
		assert.Equal(t, tc.want, rest.PathTokens(e), tc.path)
	}
}
