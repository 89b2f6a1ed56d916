package goapp

import (
	"context"
	"errors"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
)

// errMutationNotUsed is Mutation.Run's error before Use named the endpoint.
var errMutationNotUsed = errors.New("goapp: Mutation.Run before Mutation.Use: no endpoint to run")

// Mutation runs one mutation endpoint for a component and tracks it, as
// data-client's useController().fetch wrapped in useLoading does: whether a
// run is in progress (Busy), the error (Err) and result (Result) of the last
// run. Its outcome reaches the component that owns it, not the element whose
// event started it: an optimistic update that removes the clicked button
// (a published article's "Publish", a deleted row's "Delete") does not lose
// it. The zero Mutation runs nothing; keep one as an unexported field of the
// component and call Use from OnMount.
type Mutation[R any] struct {
	Loading

	mu     sync.Mutex
	ctrl   *controller.Controller
	ep     *df.Endpoint[R]
	result R

	// owner is the context of the component Use was called from. Read and
	// written on the UI goroutine only.
	owner    app.Context
	hasOwner bool
}

// Use makes m run ep through ctrl and update the component of ctx (pass
// the component's own context, from OnMount or OnNav). Call it on the UI
// goroutine.
func (m *Mutation[R]) Use(ctx app.Context, ctrl *controller.Controller, ep *df.Endpoint[R]) {
	m.mu.Lock()
	m.ctrl, m.ep = ctrl, ep
	m.mu.Unlock()
	m.owner, m.hasOwner = ctx, true
}

// Run runs the endpoint with params and body in the background: its
// optimistic update shows at once, through the queries that read what it
// changes. The component Use was given updates when the run starts and when
// it ends; then Result and Err hold the outcome and done, when not nil, is
// called with it on the UI goroutine, with that component's context. ctx is
// the caller's (an event handler's): it is used only when Use was not
// called. Params or a body that cannot be encoded fail the run before
// anything is sent, with an error naming the field. Call Run on the UI
// goroutine.
func (m *Mutation[R]) Run(ctx app.Context, params, body any, done func(ctx app.Context, result R, err error)) {
	if m.hasOwner {
		ctx = m.owner
	}
	m.mu.Lock()
	ctrl, ep := m.ctrl, m.ep
	m.mu.Unlock()
	var out R
	m.Loading.Run(ctx, func(c context.Context) error {
		if ep == nil {
			return errMutationNotUsed
		}
		var err error
		out, err = ep.Fetch(c, ctrl, params, body)
		m.mu.Lock()
		m.result = out
		m.mu.Unlock()
		return err
	}, func(ctx app.Context, err error) {
		if done != nil {
			done(ctx, out, err)
		}
	})
}

// Result returns the decoded result of the last run that ended (R's zero
// value when it failed or none did). It is shared with every other reader:
// do not change it.
func (m *Mutation[R]) Result() R {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.result
}
