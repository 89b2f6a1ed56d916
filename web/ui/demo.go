package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/goapp"
	"github.com/datafetch/datafetch/web/resources"
)

// APIPathEnv names the go-app environment variable through which the
// server tells the app where the REST API is mounted, as "/rest".
const APIPathEnv = "DATAFETCH_API_PATH"

// Demo is what every page shares: one controller (the whole cache), the
// endpoints, and the settings of the network controls.
type Demo struct {
	// changes counts the controller's changes, so the inspector takes a
	// snapshot of the store only when there is something new in it.
	changes  atomic.Uint64
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
}

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
	d.ctrl = controller.New(controller.Options{OnChange: func() { d.changes.Add(1) }})
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

// SnapshotElementID is the id of the element in which the demo server
// renders a snapshot of the first page's data (controller.Snapshot, as
// JSON in a <script type="application/json">), for the app to start from
// (Hydrate) instead of fetching it.
const SnapshotElementID = "datafetch-snapshot"

// Hydrate merges a snapshot into the demo's cache (controller.Hydrate).
// Call it before the pages mount, so the first render reads from it.
func (d *Demo) Hydrate(snapshot value.Value) error {
	return d.ctrl.Hydrate(snapshot)
}
