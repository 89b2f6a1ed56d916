package rest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHeader(t *testing.T) {
	var h Header
	assert.Equal(t, "", h.Get("X"))
	h.Add("Accept", "a")
	h.Add("X-Multi", "1")
	h.Add("x-multi", "2")
	h.Set("Content-Type", "text/plain")
	assert.Equal(t, "1", h.Get("X-MULTI"), "Get returns the first value")
	assert.Equal(t, []string{"1", "2"}, h.Values("x-Multi"))
	assert.Nil(t, h.Values("missing"))
	assert.True(t, h.Has("content-type"))

	c := h.Clone()
	h.Set("x-multi", "3")
	assert.Equal(t, Header{{"Accept", "a"}, {"x-multi", "3"}, {"Content-Type", "text/plain"}}, h,
		"Set replaces all values at the first one's place")
	assert.Equal(t, []string{"1", "2"}, c.Values("X-Multi"), "a clone shares nothing")

	h.Del("ACCEPT")
	assert.Equal(t, Header{{"x-multi", "3"}, {"Content-Type", "text/plain"}}, h)
	assert.Nil(t, Header(nil).Clone())
}

func TestListPath(t *testing.T) {
	// data-client's rule (shortenPath): up to the last token, without the
	// '/' before it.
	for path, want := range map[string]string{
		"/articles/:id":                 "/articles",
		"/users/:userId/posts/:id":      "/users/:userId/posts",
		"/api/articles/:id/":            "/api/articles",
		"/:id":                          "",
		"http://h:8080/articles/:id":    "http://h:8080/articles",
		"http\\://test.com/user/:id":    "http\\://test.com/user",
		"/current_user/":                "/current_user/",
		"/articles/:id/comments":        "/articles",
		"/articles/v:id":                "/articles/v",
		"/articles":                     "/articles",
		"/users/:userId/posts/:id.json": "/users/:userId/posts",
		"/repos/:owner/*path":           "/repos/:owner",
		"/api/:version/files/*path":     "/api/:version/files",
		"/users{/:id}":                  "/users",
		"/users/:id{/*rest}":            "/users/:id",
		"/files{/x}":                    "/files{/x}",
	} {
		assert.Equal(t, want, listPath(path), path)
	}
}

func TestParsePath(t *testing.T) {
	tpl, err := parsePath("https://h.com:8443/a/:first_1/b:c/:_x/:9")
	require.NoError(t, err)
	assert.Equal(t, []string{"first_1", "c", "_x"}, tpl.tokens, "a port and :9 are not tokens")
	for path, msg := range map[string]string{
		"/a/:id/:id":   "path /a/:id/:id names token :id twice",
		"/a/:id{/*id}": "path /a/:id{/*id} names token *id twice",
		"/a}":          "path /a} has a '}' at 2 that closes no '{'",
		"/a{/:b":       "path /a{/:b has a '{' that is not closed",
	} {
		_, err = parsePath(path)
		assert.EqualError(t, err, msg)
	}
	tpl, err = parsePath("/a\\:b\\{c\\}/:d{/x:e{/*f}}\\?q=1")
	require.NoError(t, err)
	assert.Equal(t, []string{"d", "e", "f"}, tpl.tokens, "escaped characters are literal; tokens in groups count")
	assert.True(t, tpl.query, "an escaped '?' starts the query")
}

func TestCompareUTF16(t *testing.T) {
	keys := []string{"b", "\uffff", "a", "😀", "ab", "", "é", "B"}
	slices.SortFunc(keys, compareUTF16)
	assert.Equal(t, []string{"", "B", "a", "ab", "b", "é", "😀", "\uffff"}, keys)
}

func TestIsFullURL(t *testing.T) {
	for s, want := range map[string]bool{
		"http://h":      true,
		"https://h/":    true,
		"git+ssh://":    true,
		"/a":            false,
		"://h":          false,
		"1http://h":     false,
		"/a?u=http://h": false,
	} {
		assert.Equal(t, want, isFullURL(s), s)
	}
}

// TestWasmDoesNotLinkNetHTTP guards the reason Transport exists: the
// WebAssembly build of this package must not pull in net/http.
func TestWasmDoesNotLinkNetHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		t.Skip("go command not found")
	}
	cmd := exec.Command(goCmd, "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, dep := range strings.Fields(string(out)) {
		assert.NotEqual(t, "net/http", dep)
		assert.False(t, strings.HasPrefix(dep, "net/http/"), dep)
	}
}
