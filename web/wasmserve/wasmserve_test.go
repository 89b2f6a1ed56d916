package wasmserve_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/wasmserve"
)

// The demo server's tests (web/demo/server) check every encoding and ETag rule
// on the demo's three .wasm URLs; these check the package as another
// program uses it: a go-app handler, and a directory of files.

// fakeWasm writes a compressible stand-in .wasm file and returns its bytes.
func fakeWasm(t *testing.T, path, name string) []byte {
	t.Helper()
	b := []byte("\x00asm\x01\x00\x00\x00" + strings.Repeat(name+" function body;", 4000))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return b
}

func unbrotli(t *testing.T, b []byte) []byte {
	t.Helper()
	out, err := io.ReadAll(brotli.NewReader(bytes.NewReader(b)))
	require.NoError(t, err)
	return out
}

// A go-app program's handler with GoApp as its resources: app.js loads
// app.wasm from a versioned URL, served as brotli and kept for good.
func TestGoAppServesItsWasmCompressedAndVersioned(t *testing.T) {
	dir := t.TempDir()
	wasm := fakeWasm(t, filepath.Join(dir, "app.wasm"), "app")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "style.css"), []byte("body{}"), 0o644))
	cache := wasmserve.New(io.Discard)
	ts := httptest.NewServer(&app.Handler{
		Name:      "test",
		Resources: wasmserve.GoApp{Wasm: filepath.Join(dir, "app.wasm"), Cache: cache, Static: http.FileServer(http.Dir(dir))},
	})
	defer ts.Close()

	resp, appJS := testkit.GetRaw(t, ts.URL+"/app.js", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	m := regexp.MustCompile(`"(/web/app\.wasm\?v=([0-9a-f]{16}))"`).FindStringSubmatch(string(appJS))
	require.NotNil(t, m, "app.js loads a versioned app.wasm")
	assert.Equal(t, cache.Version(filepath.Join(dir, "app.wasm")), m[2])

	resp, body := testkit.GetRaw(t, ts.URL+m[1], map[string]string{"Accept-Encoding": "gzip, br"})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "br", resp.Header.Get("Content-Encoding"))
	assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
	assert.Equal(t, "public, max-age=31536000, immutable", resp.Header.Get("Cache-Control"))
	assert.Less(t, len(body), len(wasm)/4)
	assert.Equal(t, wasm, unbrotli(t, body))

	// The other files under /web/ come from Static.
	resp, css := testkit.GetRaw(t, ts.URL+"/web/style.css", nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "body{}", string(css))
}

func TestFilesServesWasmThroughTheCacheAndTheRestThroughNext(t *testing.T) {
	dir := t.TempDir()
	wasm := fakeWasm(t, filepath.Join(dir, "lib", "x.wasm"), "x")
	cache := wasmserve.New(io.Discard)
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "next "+r.URL.Path) })
	ts := httptest.NewServer(cache.Files(dir, next))
	defer ts.Close()

	resp, body := testkit.GetRaw(t, ts.URL+"/lib/x.wasm", map[string]string{"Accept-Encoding": "br"})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, wasm, unbrotli(t, body))
	etag := resp.Header.Get("ETag")

	_, body = testkit.GetRaw(t, ts.URL+"/lib/x.js", nil)
	assert.Equal(t, "next /lib/x.js", string(body))

	// Rebuilt on disk: served as rebuilt, under a new ETag.
	rebuilt := fakeWasm(t, filepath.Join(dir, "lib", "x.wasm"), "rebuilt")
	resp, body = testkit.GetRaw(t, ts.URL+"/lib/x.wasm", map[string]string{"Accept-Encoding": "br"})
	assert.NotEqual(t, etag, resp.Header.Get("ETag"))
	assert.Equal(t, rebuilt, unbrotli(t, body))

	for _, p := range []string{"/lib/missing.wasm", "/../../etc/passwd.wasm", "/lib/../../x.wasm"} {
		resp, _ = testkit.GetRaw(t, ts.URL+p, nil)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, p)
	}
}

func TestVersionOfAMissingFileIsEmpty(t *testing.T) {
	assert.Empty(t, wasmserve.New(io.Discard).Version(filepath.Join(t.TempDir(), "none.wasm")))
}
