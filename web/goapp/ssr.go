package goapp

// Server rendering with data.
//
// go-app pre-renders a page on the server by mounting its components in an
// engine of its own, one per request: it calls OnInit, OnPreRender (not
// OnMount) and OnNav, runs what they dispatch, waits for the goroutines
// they start with Context.Async, and only then writes the HTML. A
// [Prerender] handler gives each such request a controller of its own, and
// names it in the URL of the page go-app renders (its user part, which
// nothing in the written page shows). On the server, [Query.Use] reads
// into that controller through Context.Async, so go-app waits for the read
// and the page is written with the data. Prerender then writes the
// controller's snapshot into the page ([SnapshotElement]), and the browser
// starts its controller from it ([Hydrate]) before its first render: the
// page resumes with no request.

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
)

// SnapshotElementID is the id of the <script type="application/json">
// element in which Prerender writes a page's snapshot and from which
// Hydrate reads it.
const SnapshotElementID = "datafetch-snapshot"

// BaseMarker stands for the API base in the result keys of a page's
// snapshot. Result keys hold the URLs of the endpoints (as "list GET
// http://127.0.0.1:8080/rest/articles"), so keys written as the server's
// endpoints make them would not be the keys of a browser that reads the
// same API through another host name (localhost, a proxy's): Prerender
// writes the server's base as BaseMarker ("list GET {base}/articles") and
// Hydrate puts the browser's base in its place.
const BaseMarker = "{base}"

// prerendering is one request pre-rendered under a Prerender: its
// controller and what watches it.
type prerendering struct {
	ctx context.Context // the request's: cancelled when the client leaves

	// newCtrl makes the controller the first time a component asks for it
	// (requests for scripts, styles or the wasm need none).
	newCtrl func() *controller.Controller
	once    sync.Once
	c       *controller.Controller

	mu sync.Mutex
	// reads counts the reads started for the page.
	reads int
	// watchers are the contexts of the components that read the cache
	// directly (Listen): each read that completes updates them.
	watchers []app.Context
}

// prerenderings holds the requests being pre-rendered, by the token of
// their page's URL.
var prerenderings sync.Map // string → *prerendering

// prerenderingOf returns the request ctx's page is pre-rendered for, or
// nil outside a Prerender.
func prerenderingOf(ctx app.Context) *prerendering {
	u := ctx.Page().URL()
	if u == nil || u.User == nil {
		return nil
	}
	p, ok := prerenderings.Load(u.User.Username())
	if !ok {
		return nil
	}
	return p.(*prerendering)
}

// ctrl returns the request's controller, made on first use.
func (p *prerendering) ctrl() *controller.Controller {
	p.once.Do(func() { p.c = p.newCtrl() })
	return p.c
}

// made returns the controller if a component asked for it, else nil; no
// controller is made after it.
func (p *prerendering) made() *controller.Controller {
	p.once.Do(func() {})
	return p.c
}

// read records a read of the page.
func (p *prerendering) read() {
	p.mu.Lock()
	p.reads++
	p.mu.Unlock()
}

// readCount returns the number of reads started for the page.
func (p *prerendering) readCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reads
}

// watch adds the component of ctx to those updated after each read.
func (p *prerendering) watch(ctx app.Context) {
	p.mu.Lock()
	p.watchers = append(p.watchers, ctx)
	p.mu.Unlock()
}

// changed updates the watchers; on the UI goroutine.
func (p *prerendering) changed() {
	p.mu.Lock()
	ws := append([]app.Context(nil), p.watchers...)
	p.mu.Unlock()
	for _, w := range ws {
		w.Update()
	}
}

// ControllerOf returns the controller a component of ctx reads from: on
// the server, while Prerender pre-renders the page, the request's own
// controller; anywhere else ctrl. Query.Use makes that choice itself; call
// ControllerOf for reads outside a Query (see Listen).
func ControllerOf(ctx app.Context, ctrl *controller.Controller) *controller.Controller {
	if OnServer {
		if p := prerenderingOf(ctx); p != nil {
			return p.ctrl()
		}
	}
	return ctrl
}

// Listen keeps a component that reads the cache directly (ctrl.Get, a
// schema.Query, a derived view) rather than through a Query up to date: it
// returns the controller to read (see ControllerOf) and updates the
// component of ctx after every change of it until stop is called. On the
// server under Prerender the component is updated as each of the page's
// reads completes, so the page is written with what they stored. Call it
// from OnMount and OnPreRender, and stop from OnDismount.
func Listen(ctx app.Context, ctrl *controller.Controller) (read *controller.Controller, stop func()) {
	if OnServer {
		if p := prerenderingOf(ctx); p != nil {
			p.watch(ctx)
			return p.ctrl(), func() {}
		}
		return ctrl, func() {}
	}
	return ctrl, ctrl.Listen(func() { ctx.Dispatch(func(app.Context) {}) })
}

// Hydrate starts ctrl from the snapshot Prerender wrote into the page, when
// there is one: call it in the browser before app.RunWhenOnBrowser, so that
// the first render reads the data the server rendered, with no request.
// base is the API base the browser's endpoints use (as
// "https://example.com/rest"); it takes BaseMarker's place in the keys. A
// page without a snapshot (or a run outside a browser) is no error.
func Hydrate(ctrl *controller.Controller, base string) error {
	if OnServer {
		return nil
	}
	el := app.Window().GetElementByID(SnapshotElementID)
	if !el.Truthy() {
		return nil
	}
	return HydrateJSON(ctrl, el.Get("textContent").String(), base)
}

// HydrateJSON is Hydrate from the text of a snapshot element. The snapshot
// is hydrated with BaseMarker replaced by base in its result keys. A key
// that holds a full URL not under base was written for another host: it
// is hydrated but no read of the browser's endpoints will find it, so it
// is reported in the error returned (the rest is hydrated all the same);
// a snapshot that cannot be read leaves ctrl as it was.
func HydrateJSON(ctrl *controller.Controller, snapshotJSON, base string) error {
	snap, err := value.ParseString(snapshotJSON)
	if err != nil {
		return fmt.Errorf("goapp: reading the page's snapshot: %w", err)
	}
	snap, foreign := rebase(snap, BaseMarker, base)
	if err := ctrl.Hydrate(snap); err != nil {
		return fmt.Errorf("goapp: %w", err)
	}
	if len(foreign) > 0 {
		return fmt.Errorf("goapp: the page's snapshot holds results for another API base than %q, which will be fetched again: %s (write the page with Prerender.Base set)",
			base, strings.Join(foreign, ", "))
	}
	return nil
}

// rebase returns snap with from replaced by to in the keys of its results
// (its "endpoints" and "meta" members), and the keys, as rebased, that hold
// a full URL ("://") not under to.
func rebase(snap value.Value, from, to string) (value.Value, []string) {
	var foreign []string
	for _, table := range []string{"endpoints", "meta"} {
		t := snap.Get(table)
		if t.Kind() != value.Object {
			continue
		}
		ms := t.Members()
		out := make([]value.Member, len(ms))
		for i, m := range ms {
			k := m.Key
			if from != "" {
				k = strings.Replace(k, from, to, 1)
			}
			if table == "endpoints" && strings.Contains(k, "://") && (to == "" || !strings.Contains(k, to)) {
				foreign = append(foreign, k)
			}
			out[i] = value.M(k, m.Value)
		}
		snap = snap.With(table, value.Obj(out...))
	}
	return snap, foreign
}
