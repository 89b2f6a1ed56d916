//go:build !(js && wasm)

package goapp

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
)

// Prerender serves a go-app app.Handler with its pages pre-rendered with
// their data: each page request gets a controller of its own
// (NewController), the page's queries read into it before go-app writes
// the HTML (see Query.Use), and the page carries the controller's snapshot
// for the browser to start from (Hydrate). It is built for servers only
// (not js/wasm), so net/http stays out of the app's wasm.
//
// A page written with data is never answered 304 Not Modified (go-app's
// ETag names the build, not the data) and is sent without an ETag.
// Boolean attributes that go-app writes as name="false" (Disabled(false),
// Checked(false), ...: HTML reads any value as true) are left out of the
// pages it serves. Serve the app with a service worker that does not cache pages,
// such as ServiceWorker: go-app's default one serves the page it cached
// at install, with its data of then.
type Prerender struct {
	// App is the go-app handler (an *app.Handler).
	App http.Handler
	// NewController returns the controller a request's page reads into,
	// with the transport that reaches the API from the server. nil uses
	// controller.New(controller.Options{}).
	NewController func(r *http.Request) *controller.Controller
	// Base is the API base of the endpoints the server's components read
	// (as "http://127.0.0.1:8080/rest"): in the page's snapshot it is
	// written as BaseMarker, so a browser on any host hydrates keys of its
	// own base (see Hydrate). "" writes keys as they are.
	Base string
	// OnError, when set, is told of a page written without its snapshot.
	OnError func(r *http.Request, err error)
}

// ServiceWorker is an app-worker.js for app.Handler's
// ServiceWorkerTemplate that takes control of the pages and caches
// nothing: a page with data is always asked of the server. go-app's
// default worker caches the pages it was installed with and answers them
// from its cache, data included, until a new build replaces it.
const ServiceWorker = `// datafetch: no offline cache, so pages (and their data) come from the server.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
`

// ServeHTTP serves r through App. A GET or HEAD is pre-rendered under a
// token of its own, which names the request's controller to the page's
// components; an HTML answer is held back and completed (its snapshot,
// when the page read anything; no false boolean attributes); anything
// else passes through as App writes it.
func (p *Prerender) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		p.App.ServeHTTP(w, r)
		return
	}
	token, err := newToken()
	if err != nil {
		p.fail(r, err)
		p.App.ServeHTTP(w, r)
		return
	}
	orig := r
	pr := &prerendering{ctx: r.Context(), newCtrl: func() *controller.Controller {
		if p.NewController != nil {
			return p.NewController(orig)
		}
		return controller.New(controller.Options{})
	}}
	prerenderings.Store(token, pr)
	defer prerenderings.Delete(token)

	r = r.Clone(r.Context())
	u := *r.URL
	u.User = url.User(token)
	r.URL = &u
	if strings.Contains(r.Header.Get("Accept"), "text/html") {
		// A navigation: the page is written afresh, with today's data.
		r.Header.Del("If-None-Match")
	}
	bw := &pageWriter{w: w}
	p.App.ServeHTTP(bw, r)
	// go-app has waited for the page's reads: no component asks for the
	// controller any more.
	ctrl := pr.made()
	if ctrl != nil {
		defer ctrl.Close()
	}
	if !bw.buffering {
		return
	}
	body := falseBoolAttr.ReplaceAll(bw.buf.Bytes(), nil)
	if ctrl != nil && pr.readCount() > 0 {
		body = p.withData(r, body, ctrl)
		bw.Header().Del("ETag")
	}
	bw.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(bw.status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// withData returns page with its snapshot.
func (p *Prerender) withData(r *http.Request, page []byte, ctrl *controller.Controller) []byte {
	snap := ctrl.Snapshot()
	if p.Base != "" {
		snap, _ = rebase(snap, p.Base, BaseMarker)
	}
	i := bytes.Index(page, []byte("</head>"))
	if i < 0 {
		p.fail(r, fmt.Errorf("the page has no </head> to write its snapshot before"))
		return page
	}
	el := SnapshotElement(snap)
	out := make([]byte, 0, len(page)+len(el))
	out = append(out, page[:i]...)
	out = append(out, el...)
	return append(out, page[i:]...)
}

func (p *Prerender) fail(r *http.Request, err error) {
	if p.OnError != nil {
		p.OnError(r, fmt.Errorf("goapp: %s: no data in the page: %w", r.URL.Path, err))
	}
}

// falseBoolAttr matches the boolean attributes go-app writes as
// name="false" (the ones it sets as properties in the browser; see
// setJSAttribute in go-app), which HTML would read as set. Attribute values
// are written quoted by strconv.Quote, so a value cannot hold ` x="false"`
// with a plain quote before false: only a real attribute matches.
var falseBoolAttr = regexp.MustCompile(` (?:async|autofocus|autoplay|checked|default|defer|disabled|hidden|ismap|loop|multiple|muted|open|readonly|required|reversed|selected)="false"`)

// SnapshotElement returns the <script type="application/json"> element
// that carries snapshot in a page, with id SnapshotElementID. The JSON is
// written with <, > and & as \u escapes (JSON has them only inside
// strings, where the escapes mean the same), so no text of the data can
// end the element or open another ("</script>", "<!--"); U+2028 and
// U+2029 are escaped too. The browser reads it back with Hydrate.
func SnapshotElement(snapshot value.Value) string {
	js := snapshot.JSON()
	var b strings.Builder
	b.Grow(len(js) + 64)
	b.WriteString(`<script type="application/json" id="` + SnapshotElementID + `">`)
	for _, c := range js {
		switch c {
		case '<':
			b.WriteString(`\u003c`)
		case '>':
			b.WriteString(`\u003e`)
		case '&':
			b.WriteString(`\u0026`)
		case '\u2028':
			b.WriteString(`\u2028`)
		case '\u2029':
			b.WriteString(`\u2029`)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteString("</script>")
	return b.String()
}

// newToken returns a name for a request being pre-rendered that no client
// can guess.
func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a request token: %w", err)
	}
	return "prerender-" + hex.EncodeToString(b[:]), nil
}

// pageWriter holds back a successful HTML response (a page) for Prerender
// to complete, and passes anything else through.
type pageWriter struct {
	w         http.ResponseWriter
	decided   bool
	buffering bool
	status    int
	buf       bytes.Buffer
}

func (pw *pageWriter) Header() http.Header { return pw.w.Header() }

func (pw *pageWriter) WriteHeader(status int) {
	if pw.decided {
		return
	}
	pw.decided, pw.status = true, status
	pw.buffering = status == http.StatusOK && strings.HasPrefix(pw.w.Header().Get("Content-Type"), "text/html")
	if !pw.buffering {
		pw.w.WriteHeader(status)
	}
}

func (pw *pageWriter) Write(b []byte) (int, error) {
	if !pw.decided {
		pw.WriteHeader(http.StatusOK)
	}
	if pw.buffering {
		return pw.buf.Write(b)
	}
	return pw.w.Write(b)
}

// Flush passes a flush through when the response is not held back.
func (pw *pageWriter) Flush() {
	if f, ok := pw.w.(http.Flusher); ok && pw.decided && !pw.buffering {
		f.Flush()
	}
}
