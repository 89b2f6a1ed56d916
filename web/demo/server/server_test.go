//go:build !js

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTestDemo serves the demo from a temporary root holding a stand-in
// index.html, dist/ and app.wasm.
func newTestDemo(t *testing.T) *httptest.Server {
	t.Helper()
	ts, _ := newTestDemoRoot(t)
	return ts
}

// newTestDemoRoot is newTestDemo that also returns the root directory.
func newTestDemoRoot(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"index.html":                     "<!doctype html><title>plain JS</title>",
		"dist/datafetch.mjs":             "export function load() {}",
		"web/build/app.wasm":             "\x00asm\x01\x00\x00\x00" + fakeWasm("app"),
		"dist/datafetch.wasm":            "\x00asm\x01\x00\x00\x00" + fakeWasm("datafetch"),
		"web/build/react/datafetch.wasm": "\x00asm\x01\x00\x00\x00" + fakeWasm("react"),
		"web/build/react/index.html":     "<!doctype html><title>datafetch · React</title>",
		"web/build/react/app.js":         "export {};",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	var log lockedBuffer
	d, err := newDemo(config{root: root, wasm: filepath.Join(root, "web/build/app.wasm"), log: &log})
	require.NoError(t, err)
	assert.Empty(t, log.String(), "no warnings when every file is there")
	ts := httptest.NewServer(d)
	t.Cleanup(ts.Close)
	t.Cleanup(d.api.Close)
	return ts, root
}

// lockedBuffer is a log the demo's background work may write to while the
// test reads it: wasmserve's Warm compresses on a goroutine of its own,
// which can outlive the test and report the files its cleanup removed.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(body)
}

func TestRoutes(t *testing.T) {
	ts := newTestDemo(t)
	tests := []struct {
		path, contentType, contains string
	}{
		{"/", "text/html", `id="app-wasm-loader"`},
		{"/posts", "text/html", "Posts"},
		{"/articles/3", "text/html", "Article"},
		{"/index.html", "text/html", "plain JS"},
		{"/react/", "text/html", "React"},
		{"/react/app.js", "text/javascript", "export"},
		{"/dist/datafetch.mjs", "text/javascript", "load"},
		{"/web/app.wasm", "application/wasm", "asm"},
		{"/web/style.css", "text/css", ":root"},
		{"/web/icon.svg", "image/svg+xml", "<svg"},
		{"/web/icon.png", "image/png", "PNG"},
		{"/app-worker.js", "application/javascript", "skipWaiting"},
		{"/rest/articles/1", "application/json", `"id":"1"`},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, body := get(t, ts.URL+tt.path)
			require.Equal(t, http.StatusOK, resp.StatusCode, "body: %.200s", body)
			assert.Contains(t, resp.Header.Get("Content-Type"), tt.contentType)
			assert.Contains(t, body, tt.contains)
		})
	}
}

func TestPageUsesNoRemoteResources(t *testing.T) {
	ts := newTestDemo(t)
	_, body := get(t, ts.URL+"/")
	for _, attr := range []string{`src="http`, `href="http`} {
		assert.NotContains(t, body, attr)
	}
	_, manifest := get(t, ts.URL+"/manifest.webmanifest")
	assert.NotContains(t, manifest, "http")
}

func TestAPIErrors(t *testing.T) {
	ts := newTestDemo(t)
	resp, body := get(t, ts.URL+"/rest/articles/999")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	var e struct{ Error string }
	require.NoError(t, json.Unmarshal([]byte(body), &e))
	assert.Contains(t, e.Error, "999")

	resp, err := http.Post(ts.URL+"/rest/articles", "application/json", strings.NewReader("[1]"))
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "application/json")

	_, page := get(t, ts.URL+"/rest/posts?page=2")
	assert.Contains(t, page, `"/rest/posts?page=3"`, "page tokens carry the mount path")
}

func TestMissingFilesAreWarnings(t *testing.T) {
	var log bytes.Buffer
	d, err := newDemo(config{root: t.TempDir(), wasm: "/nonexistent/app.wasm", log: &log})
	require.NoError(t, err)
	defer d.api.Close()
	assert.Contains(t, log.String(), "app.wasm")
	assert.Contains(t, log.String(), "index.html")
	assert.Contains(t, log.String(), filepath.Join("react", "index.html"))
}

func TestRunBadArguments(t *testing.T) {
	var out, errs bytes.Buffer
	assert.Equal(t, 2, run([]string{"-no-such-flag"}, &out, &errs))
	assert.Equal(t, 2, run([]string{"extra"}, &out, &errs))
	assert.Equal(t, 1, run([]string{"-addr", "256.0.0.1:0", "-root", t.TempDir()}, &out, &errs))
}
