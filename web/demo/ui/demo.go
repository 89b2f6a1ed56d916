package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/goapp"
)

// APIPathEnv names the go-app environment variable through which the
// server tells the app where the REST API is mounted, as "/rest".
const APIPathEnv = "DATAFETCH_API_PATH"

// Demo is what every page shares: one controller (the whole cache), the
// endpoints, and the settings of the network controls.
type Demo struct {
	ctrl     *controller.Controller
	api      *resources.API
	control  *controlClient
	boundary goapp.Boundary

	// The network controls, as last set, and whether the inspector panel
	// is open; read and written on the UI goroutine only.
	latencyMS     int
	random        bool
	showInspector bool

	mu sync.Mutex
	// failArmed is set while a "fail next mutation" waits to be spent.
	failArmed bool
	// noticeArea is the notice area on screen, and noticeCtx its context.
	noticeArea *notices
	noticeCtx  app.Context

	// persistence is the top bar's persistence toggle's backing, set by
	// the browser side (SetPersistence); nil hides the toggle.
	persistence Persistence
}

// Retries of the demo's reads: a read that fails with a status a retry may
// cure (the network controls' "fail the next 2 GETs" answers 503) is tried
// again readRetries times, readRetryDelay apart, while its page keeps
// showing it loading; each retry is announced in a notice.
const (
	readRetries    = 2
	readRetryDelay = 500 * time.Millisecond
)

// Persistence keeps the cache across page loads (web/browser/persist, in
// the browser): the top bar's toggle turns it on and off.
type Persistence interface {
	// Enabled reports whether the cache is kept.
	Enabled() bool
	// SetEnabled starts keeping the cache (writing it now and after
	// changes) or stops and forgets what was kept; the choice is
	// remembered for the next page load.
	SetEnabled(on bool) error
}

// SetPersistence gives the demo the persistence its toggle drives. Call it
// before the pages mount.
func (d *Demo) SetPersistence(p Persistence) { d.persistence = p }

// Controller returns the demo's controller, for the browser side to
// connect its adapters (tab sync, persistence, revalidation on focus).
func (d *Demo) Controller() *controller.Controller { return d.ctrl }

// New returns a demo whose endpoints call the REST API mounted at
// apiPrefix, a full URL such as "http://127.0.0.1:8080/rest".
func New(apiPrefix string) (*Demo, error) {
	a, err := resources.New(apiPrefix)
	if err != nil {
		return nil, err
	}
	d := &Demo{
		api:           a,
		control:       &controlClient{prefix: a.Prefix},
		showInspector: true,
	}
	d.ctrl = controller.New(controller.Options{
		Retry:      readRetries,
		RetryDelay: d.retryDelay,
	})
	d.boundary = goapp.Boundary{Fallback: skeleton, Error: errorBox}
	return d, nil
}

// mutate runs a mutation for the component of ctx through l: fetch ep
// with params and body, then call done (when not nil) with the result on
// the UI goroutine if the component is still mounted. A failure is
// reported as a notice saying that what failed (as "Publishing “X”") was
// rolled back, wherever the user is by then. A pending "fail next
// mutation" is spent by any mutation, so the control is disarmed when one
// ends.
func mutate[R any](d *Demo, ctx app.Context, l *goapp.Loading, what string, ep *df.Endpoint[R], params, body any, done func(ctx app.Context, result R)) {
	var out R
	l.Run(ctx, func(c context.Context) error {
		var err error
		out, err = ep.Fetch(c, d.ctrl, params, body)
		d.setFailArmed(false)
		if err != nil {
			d.notify(noticeError, what+" failed, so its optimistic update was rolled back. "+errorText(err))
		}
		return err
	}, func(ctx app.Context, err error) {
		if err == nil && done != nil {
			done(ctx, out)
		}
	})
}

// retryDelay is the controller's RetryDelay: a fixed wait, and a notice
// saying which read failed and which retry comes, so the network controls'
// failures can be watched being retried. It runs on the request's
// goroutine, outside the controller's lock.
func (d *Demo) retryDelay(attempt int, err error) (time.Duration, error) {
	d.notify(noticeInfo, fmt.Sprintf("A read failed (%s); retry %d of %d in %.1f s.",
		errorText(err), attempt+1, readRetries, readRetryDelay.Seconds()))
	return readRetryDelay, nil
}

// armed reports whether a "fail next mutation" waits to be spent.
func (d *Demo) armed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.failArmed
}

func (d *Demo) setFailArmed(on bool) {
	d.mu.Lock()
	d.failArmed = on
	d.mu.Unlock()
}

// errorText returns the part of err worth showing: a REST error's
// message from the server when it sent one.
func errorText(err error) string {
	var ne *rest.NetworkError
	if errors.As(err, &ne) {
		if msg := ne.Body.Get("error").Str(); msg != "" {
			return strings.TrimSpace(fmt.Sprintf("%d %s", ne.Status, ne.StatusText)) + ": " + msg
		}
	}
	return err.Error()
}

// Hydrate starts the demo's cache from the snapshot the server wrote into
// the page (goapp.Prerender), when there is one, with the keys of this
// demo's API prefix (goapp.Hydrate). Call it in the browser before the
// pages mount, so the first render reads from it instead of fetching.
func (d *Demo) Hydrate() error {
	return goapp.Hydrate(d.ctrl, d.api.Prefix)
}
