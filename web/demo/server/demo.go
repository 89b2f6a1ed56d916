//go:build !js

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/demo/static"
	"github.com/datafetch/datafetch/web/demo/ui"
	"github.com/datafetch/datafetch/web/goapp"
	"github.com/datafetch/datafetch/web/sampleapi"
	"github.com/datafetch/datafetch/web/wasmserve"
)

// apiPath is where the REST API is mounted.
const apiPath = "/rest"

// prerenderBase is the API prefix of the endpoints the server pre-renders
// pages with. Its host is never dialled: reads are served in-process.
const prerenderBase = "http://127.0.0.1" + apiPath

// config says where the demo's files are.
type config struct {
	root  string        // repository root: index.html, dist/
	wasm  string        // the go-app demo's app.wasm
	react string        // the built React example (web/demo/react/build.mjs)
	tick  time.Duration // how often a live price changes (sampleapi.Options.TickEvery)
	log   io.Writer     // warnings
}

// reactPath is where the React example is served.
const reactPath = "/react/"

// livePath is where the live prices page (web/demo/live: a StreamManager over
// the API's /live Server-Sent Events) is served, from liveDir.
const livePath = "/live/"

var liveDir = filepath.Join("web", "demo", "live")

// todosPath is where the todo app written the data-client way (web/demo/todos)
// is served, from todosDir under the repository root.
const todosPath = "/todos/"

var todosDir = filepath.Join("web", "build", "todos")

// defaultReactDir is where web/demo/react/build.mjs writes the React
// example, under the repository root.
var defaultReactDir = filepath.Join("web", "build", "react")

// demo is the whole demo server as one http.Handler.
type demo struct {
	mux  *http.ServeMux
	api  *sampleapi.Server
	wasm *wasmserve.Cache
}

// newDemo builds the handler. A missing app.wasm, index.html, dist/ or
// React example is reported but not fatal: the rest of the demo still
// works.
func newDemo(c config) (*demo, error) {
	if c.react == "" {
		c.react = filepath.Join(c.root, defaultReactDir)
	}
	for _, p := range []string{c.wasm, filepath.Join(c.root, "index.html"), filepath.Join(c.root, "dist", "datafetch.mjs"), filepath.Join(c.react, "index.html")} {
		if _, err := os.Stat(p); err != nil {
			fmt.Fprintf(c.log, "server: warning: %v (run ./build.sh build)\n", err)
		}
	}
	// Pre-rendering on the server runs the same components as the
	// browser, with these endpoints; each page request reads them into a
	// controller of its own, in-process (prerenderController), and the
	// page's snapshot holds their keys relative to this prefix
	// (goapp.Prerender.Base), so a browser on any host name reads them.
	d, err := ui.New(prerenderBase)
	if err != nil {
		return nil, err
	}
	ui.Routes(d)

	s := &demo{mux: http.NewServeMux(), api: sampleapi.New(sampleapi.Options{BasePath: apiPath, TickEvery: c.tick}), wasm: wasmserve.New(c.log)}
	dist := filepath.Join(c.root, "dist")
	s.wasm.Warm(c.wasm, filepath.Join(dist, "datafetch.wasm"), filepath.Join(c.react, "datafetch.wasm"))
	s.mux.Handle(apiPath+"/", http.StripPrefix(apiPath, s.api))
	s.mux.Handle("/dist/", noCache(http.StripPrefix("/dist/", s.wasm.Files(dist, http.FileServer(http.Dir(dist))))))
	// The React example (web/demo/react), built by ./build.sh. Its
	// index.html is served at /react/ itself.
	s.mux.Handle(reactPath, noCache(http.StripPrefix(reactPath, s.wasm.Files(c.react, http.FileServer(http.Dir(c.react))))))
	live := filepath.Join(c.root, liveDir)
	s.mux.Handle(livePath, noCache(http.StripPrefix(livePath, http.FileServer(http.Dir(live)))))
	todos := filepath.Join(c.root, todosDir)
	s.mux.Handle(todosPath, noCache(http.StripPrefix(todosPath, s.wasm.Files(todos, http.FileServer(http.Dir(todos))))))
	s.mux.Handle("GET /index.html", noCache(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveFile(w, r, filepath.Join(c.root, "index.html"))
	})))
	s.mux.Handle("/", &goapp.Prerender{
		NewController: prerenderController(s.api),
		Base:          prerenderBase,
		OnError:       func(_ *http.Request, err error) { fmt.Fprintf(c.log, "server: %v\n", err) },
		App: &app.Handler{
			Name:            "datafetch demo",
			ShortName:       "datafetch",
			Title:           "datafetch · go-app demo",
			Description:     "Data fetching and normalized caching in Go, compiled to WebAssembly.",
			Lang:            "en",
			Icon:            app.Icon{Default: "/web/icon.png", Large: "/web/icon.png", SVG: "/web/icon.svg"},
			BackgroundColor: "#f5f6fa",
			ThemeColor:      "#4338ca",
			LoadingLabel:    "Loading the datafetch demo… {progress}%",
			Styles:          []string{"/web/style.css"},
			Env:             map[string]string{ui.APIPathEnv: apiPath},
			Resources:       wasmserve.GoApp{Wasm: c.wasm, Cache: s.wasm, Static: http.FileServerFS(static.FS)},
			Version:         version(c.wasm),
			// go-app's default worker caches every resource, app.wasm and
			// the pages included, and would serve a stale build after a
			// rebuild and pages with the data of when it was installed.
			ServiceWorkerTemplate: goapp.ServiceWorker,
		}})
	return s, nil
}

func (s *demo) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// serveFile serves one file. Unlike http.ServeFile it does not redirect
// a path ending in /index.html to the directory.
func serveFile(w http.ResponseWriter, r *http.Request, name string) {
	f, err := os.Open(name)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
}

// noCache makes browsers revalidate files that change with each build.
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// version identifies a build of the demo, so go-app's ETag changes when
// app.wasm or the static files do.
func version(wasm string) string {
	h := sha256.New()
	if fi, err := os.Stat(wasm); err == nil {
		fmt.Fprintf(h, "%d %d\n", fi.Size(), fi.ModTime().UnixNano())
	}
	_ = fs.WalkDir(static.FS, ".", func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			data, _ := static.FS.ReadFile(p)
			h.Write(data)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16]
}
