package wasmserve

import (
	"net/http"
	"strings"
)

// goAppWasm is where go-app's app.js loads the program from.
const goAppWasm = "/web/app.wasm"

// GoApp is a resource resolver for go-app's app.Handler (its Resources
// field) that serves /web/app.wasm from the file Wasm, compressed through
// Cache, and every other /web/ path from Static. It versions app.wasm's
// URL with a hash of its content, so browsers may keep it for good
// (go-app's app.js, which holds the URL, is revalidated on every load).
type GoApp struct {
	// Wasm is the path of the built app.wasm on disk.
	Wasm string
	// Cache compresses and serves it.
	Cache *Cache
	// Static serves the other files under /web/, with the /web prefix
	// stripped (an http.FileServer of the app's web directory, say).
	Static http.Handler
}

// Resolve keeps local /web/ paths as they are, as go-app's
// app.LocalDir("") does, and versions app.wasm's URL.
func (g GoApp) Resolve(location string) string {
	switch {
	case location == goAppWasm:
		if v := g.Cache.Version(g.Wasm); v != "" {
			return location + "?" + VersionParam + "=" + v
		}
		return location
	case location == "" || location == "/":
		return "/"
	case strings.HasPrefix(location, "http://"), strings.HasPrefix(location, "https://"):
		return location
	case location == "web" || location == "/web" || strings.HasPrefix(location, "web/") || strings.HasPrefix(location, "/web/"):
		return "/" + strings.Trim(location, "/")
	}
	return location
}

// ServeHTTP serves app.wasm compressed and the rest from Static.
func (g GoApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == goAppWasm {
		g.Cache.ServeFile(w, r, g.Wasm)
		return
	}
	http.StripPrefix("/web", g.Static).ServeHTTP(w, r)
}
