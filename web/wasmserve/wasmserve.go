// Package wasmserve serves WebAssembly files compressed, as a Go front end
// needs: a go-app app.wasm is 10-15 MB raw and 2-3 MB as brotli, and
// go-app's own handler serves it as it is. Each file is compressed once
// per build (brotli and gzip, in memory) and recompressed when it changes
// on disk; the response is the best encoding the client accepts, with an
// ETag per encoding, and a URL versioned by the file's content
// (?v=<Version>) may be cached for good.
//
// For a go-app program, GoApp is a resource resolver for app.Handler that
// serves the app's wasm this way and versions its URL:
//
//	cache := wasmserve.New(os.Stderr)
//	http.Handle("/", &app.Handler{
//		Resources: wasmserve.GoApp{Wasm: "web/app.wasm", Cache: cache, Static: app.LocalDir("web")},
//		...
//	})
package wasmserve

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// Files are compressed once per build of the file, in memory, at server
// start (Warm) or on first request, and recompressed when the file changes
// on disk (size or modification time).
//
// Brotli quality 6 takes about a second for a 15 MB app.wasm on this
// machine kind and gives 3.1 MB; quality 11 gives 2.7 MB but takes 70 s,
// too slow for a server start or after every build. gzip (level 6, 3.7 MB)
// is for clients that do not accept brotli.
const (
	brotliQuality = 6
	gzipLevel     = gzip.DefaultCompression
)

// VersionParam is the query parameter that versions a .wasm URL: when it
// equals the file's Version, the response is cached for a year as
// immutable; a URL without it, or with another version, must be
// revalidated (no-cache), which its ETag makes cheap.
const VersionParam = "v"

// wasmFile is one build of a .wasm file and its encodings.
type wasmFile struct {
	size    int64
	modTime time.Time

	once sync.Once
	err  error
	raw  []byte
	br   []byte
	gz   []byte
	// version is a hash of raw, used in ETags and versioned URLs.
	version string
}

// load reads and compresses the file, once.
func (f *wasmFile) load(path string) error {
	f.once.Do(func() {
		raw, err := os.ReadFile(path)
		if err != nil {
			f.err = err
			return
		}
		sum := sha256.Sum256(raw)
		var br, gz bytes.Buffer
		bw := brotli.NewWriterLevel(&br, brotliQuality)
		if _, err := bw.Write(raw); err != nil {
			f.err = fmt.Errorf("brotli %s: %w", path, err)
			return
		}
		if err := bw.Close(); err != nil {
			f.err = fmt.Errorf("brotli %s: %w", path, err)
			return
		}
		gw, _ := gzip.NewWriterLevel(&gz, gzipLevel) // the level is valid
		if _, err := gw.Write(raw); err != nil {
			f.err = fmt.Errorf("gzip %s: %w", path, err)
			return
		}
		if err := gw.Close(); err != nil {
			f.err = fmt.Errorf("gzip %s: %w", path, err)
			return
		}
		f.raw, f.br, f.gz = raw, br.Bytes(), gz.Bytes()
		f.version = hex.EncodeToString(sum[:])[:16]
	})
	return f.err
}

// Cache holds the compressed .wasm files by path. It is safe for
// concurrent use.
type Cache struct {
	mu    sync.Mutex
	files map[string]*wasmFile
	log   io.Writer
}

// New returns an empty cache that reports files it cannot read or
// compress to log.
func New(log io.Writer) *Cache {
	return &Cache{files: map[string]*wasmFile{}, log: log}
}

// get returns the current build of the file at path, compressed. A file
// that changed on disk since it was last compressed is compressed again.
func (c *Cache) get(path string) (*wasmFile, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	c.mu.Lock()
	f := c.files[path]
	if f == nil || f.size != fi.Size() || !f.modTime.Equal(fi.ModTime()) {
		f = &wasmFile{size: fi.Size(), modTime: fi.ModTime()}
		c.files[path] = f
	}
	c.mu.Unlock()
	if err := f.load(path); err != nil {
		return nil, err
	}
	return f, nil
}

// Warm compresses the files that exist among paths in the background, so
// the first visitor does not wait for it.
func (c *Cache) Warm(paths ...string) {
	go func() {
		for _, p := range paths {
			if _, err := os.Stat(p); err != nil {
				continue // served as 404 until it exists
			}
			if _, err := c.get(p); err != nil {
				fmt.Fprintf(c.log, "wasmserve: warning: compressing %s: %v\n", p, err)
			}
		}
	}()
}

// Version returns the version of the file at path for a versioned URL
// (VersionParam): a hash of its content, or "" when it cannot be read.
func (c *Cache) Version(path string) string {
	f, err := c.get(path)
	if err != nil {
		return ""
	}
	return f.version
}

// ServeFile answers r with the file name in the best encoding the client
// accepts: brotli, then gzip, then none. Every encoding has its own ETag,
// and If-None-Match is answered with 304 Not Modified.
func (c *Cache) ServeFile(w http.ResponseWriter, r *http.Request, name string) {
	f, err := c.get(name)
	if err != nil {
		if os.IsNotExist(err) {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		fmt.Fprintf(c.log, "wasmserve: %v\n", err)
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	body, encoding := f.raw, ""
	accept := acceptedEncodings(r.Header.Get("Accept-Encoding"))
	switch {
	case accept["br"]:
		body, encoding = f.br, "br"
	case accept["gzip"]:
		body, encoding = f.gz, "gzip"
	}
	h := w.Header()
	h.Set("Content-Type", "application/wasm")
	h.Add("Vary", "Accept-Encoding")
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
		h.Set("ETag", `"`+f.version+"-"+encoding+`"`)
	} else {
		h.Set("ETag", `"`+f.version+`"`)
	}
	if r.URL.Query().Get(VersionParam) == f.version {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	// ServeContent answers If-None-Match (304) and ranges of the encoded
	// bytes; the zero time leaves Last-Modified out: the ETag decides.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// acceptedEncodings parses an Accept-Encoding header into the codings it
// accepts: those listed without q=0 (a "*" accepts brotli and gzip unless
// they are listed with q=0).
func acceptedEncodings(header string) map[string]bool {
	accept := map[string]bool{}
	refused := map[string]bool{}
	star := false
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		ok := true
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				ok = err == nil && q > 0
			}
		}
		switch {
		case name == "*":
			star = ok
		case ok:
			accept[name] = true
		default:
			refused[name] = true
		}
	}
	if star {
		for _, e := range []string{"br", "gzip"} {
			if !refused[e] {
				accept[e] = true
			}
		}
	}
	return accept
}

// Files serves the .wasm files of the directory dir through the cache and
// every other request through next.
func (c *Cache) Files(dir string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			c.ServeFile(w, r, filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path))))
			return
		}
		next.ServeHTTP(w, r)
	})
}
