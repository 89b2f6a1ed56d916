//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// fakeWasm is compressible stand-in content for a .wasm file, distinct per
// name.
func fakeWasm(name string) string {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "%s function %d body;", name, i)
	}
	return b.String()
}

// wasmFilesServed are the .wasm URLs of the demo and the files behind them,
// under the test root.
var wasmFilesServed = []struct{ url, file string }{
	{"/web/app.wasm", "web/build/app.wasm"},
	{"/dist/datafetch.wasm", "dist/datafetch.wasm"},
	{"/react/datafetch.wasm", "web/build/react/datafetch.wasm"},
}

// decode undoes a Content-Encoding.
func decode(t *testing.T, encoding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch encoding {
	case "":
		return body
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		gr, err := gzip.NewReader(bytes.NewReader(body))
		require.NoError(t, err)
		r = gr
	default:
		t.Fatalf("unexpected Content-Encoding %q", encoding)
	}
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	return out
}

func TestWasmEncodingByAcceptEncoding(t *testing.T) {
	ts, root := newTestDemoRoot(t)
	tests := []struct {
		accept, encoding string
	}{
		{"gzip, deflate, br, zstd", "br"},
		{"br", "br"},
		{"gzip", "gzip"},
		{"br;q=0, gzip;q=0.5", "gzip"},
		{"BR ; Q=1", "br"},
		{"*", "br"},
		{"*, br;q=0", "gzip"},
		{"*;q=0", ""},
		{"deflate", ""},
		{"identity", ""},
		{"", ""},
	}
	for _, f := range wasmFilesServed {
		want, err := os.ReadFile(filepath.Join(root, f.file))
		require.NoError(t, err)
		for _, tt := range tests {
			t.Run(f.url+" "+tt.accept, func(t *testing.T) {
				resp, body := testkit.GetRaw(t, ts.URL+f.url, map[string]string{"Accept-Encoding": tt.accept})
				require.Equal(t, http.StatusOK, resp.StatusCode)
				assert.Equal(t, "application/wasm", resp.Header.Get("Content-Type"))
				assert.Equal(t, tt.encoding, resp.Header.Get("Content-Encoding"))
				assert.Equal(t, []string{"Accept-Encoding"}, resp.Header.Values("Vary"))
				assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"), "an unversioned URL is revalidated")
				assert.Regexp(t, `^"[0-9a-f]{16}(-`+tt.encoding+`)?"$`, resp.Header.Get("ETag"))
				if tt.encoding != "" {
					assert.Less(t, len(body), len(want)/4, "compressed")
				}
				assert.Equal(t, want, decode(t, tt.encoding, body), "the same bytes once decoded")
			})
		}
	}
}

func TestWasmNotModified(t *testing.T) {
	ts := newTestDemo(t)
	for _, f := range wasmFilesServed {
		for _, accept := range []string{"br", "gzip", ""} {
			t.Run(f.url+" "+accept, func(t *testing.T) {
				resp, _ := testkit.GetRaw(t, ts.URL+f.url, map[string]string{"Accept-Encoding": accept})
				etag := resp.Header.Get("ETag")
				require.NotEmpty(t, etag)

				resp, body := testkit.GetRaw(t, ts.URL+f.url, map[string]string{"Accept-Encoding": accept, "If-None-Match": etag})
				assert.Equal(t, http.StatusNotModified, resp.StatusCode)
				assert.Empty(t, body)
				assert.Equal(t, etag, resp.Header.Get("ETag"))

				resp, body = testkit.GetRaw(t, ts.URL+f.url, map[string]string{"Accept-Encoding": accept, "If-None-Match": `"0000000000000000"`})
				assert.Equal(t, http.StatusOK, resp.StatusCode, "another version's ETag gets the file")
				assert.NotEmpty(t, body)
			})
		}
	}
	// The ETag of one encoding does not match another's: a cache holding
	// the gzip bytes must not be told its copy is the brotli one.
	resp, _ := testkit.GetRaw(t, ts.URL+"/dist/datafetch.wasm", map[string]string{"Accept-Encoding": "gzip"})
	resp, _ = testkit.GetRaw(t, ts.URL+"/dist/datafetch.wasm", map[string]string{"Accept-Encoding": "br", "If-None-Match": resp.Header.Get("ETag")})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "br", resp.Header.Get("Content-Encoding"))
}

// go-app's app.js loads app.wasm from a URL versioned by its content, which
// is cached for good; a stale version is revalidated.
func TestAppWasmVersionedURL(t *testing.T) {
	ts := newTestDemo(t)
	_, appJS := get(t, ts.URL+"/app.js")
	m := regexp.MustCompile(`"(/web/app\.wasm\?v=([0-9a-f]{16}))"`).FindStringSubmatch(appJS)
	require.NotNil(t, m, "app.js loads a versioned app.wasm")

	resp, body := testkit.GetRaw(t, ts.URL+m[1], map[string]string{"Accept-Encoding": "br"})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "public, max-age=31536000, immutable", resp.Header.Get("Cache-Control"))
	assert.Equal(t, `"`+m[2]+`-br"`, resp.Header.Get("ETag"))
	assert.NotEmpty(t, body)

	resp, _ = testkit.GetRaw(t, ts.URL+"/web/app.wasm?v=0123456789abcdef", map[string]string{"Accept-Encoding": "br"})
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"), "another version is not immutable")
}

// A .wasm file rebuilt while the server runs is served as rebuilt.
func TestWasmRebuilt(t *testing.T) {
	ts, root := newTestDemoRoot(t)
	resp, _ := testkit.GetRaw(t, ts.URL+"/dist/datafetch.wasm", map[string]string{"Accept-Encoding": "br"})
	before := resp.Header.Get("ETag")

	rebuilt := []byte("\x00asm\x01\x00\x00\x00" + fakeWasm("rebuilt"))
	require.NoError(t, os.WriteFile(filepath.Join(root, "dist/datafetch.wasm"), rebuilt, 0o644))
	resp, body := testkit.GetRaw(t, ts.URL+"/dist/datafetch.wasm", map[string]string{"Accept-Encoding": "br"})
	assert.NotEqual(t, before, resp.Header.Get("ETag"))
	assert.Equal(t, rebuilt, decode(t, "br", body))
}

func TestWasmMissing(t *testing.T) {
	ts := newTestDemo(t)
	resp, _ := testkit.GetRaw(t, ts.URL+"/dist/nothing.wasm", map[string]string{"Accept-Encoding": "br"})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	resp, _ = testkit.GetRaw(t, ts.URL+"/dist/../../etc/passwd.wasm", map[string]string{"Accept-Encoding": "br"})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}
