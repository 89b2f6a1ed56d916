package hooks

import (
	"context"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// Query is a component's live read of one endpoint result. The zero Query
// reads nothing; keep one as an unexported field of the component (go-app
// keeps unexported fields across renders) and call Use and Close from the
// component's lifecycle methods.
type Query struct {
	mu  sync.Mutex
	sub *subscription

	// owner is the context of the component the query updates. Read and
	// written on the UI goroutine only.
	owner    app.Context
	hasOwner bool
}

// subscription is one Use of a Query: a key and what its listener was last
// told. A Query that moves on to other params starts a new subscription, so
// a late notification of the old one is recognized and dropped.
type subscription struct {
	ctrl   *controller.Controller
	ep     endpoint.Endpoint
	params value.Value
	key    string
	unsub  func()
	state  controller.State
}

// Use makes the query read ep's result for params through ctrl and keeps
// the component of ctx up to date with it. It fetches as useSuspense does:
// when nothing is cached, when the cache is stale or invalid, and again
// whenever it becomes so while the component shows it. Call it from OnMount
// or OnNav, and again whenever params may have changed: it does nothing when
// they name the result it already reads. Null params read nothing, as
// useSuspense(endpoint, null) does. Use must be called on the UI goroutine.
// While the query reads a result it is subscribed to it, so garbage
// collection (controller.GC) keeps that result and the entities it reaches
// until Close, or until Use moves on to other params.
//
// The query updates the component whose context it was given: pass the
// component's own context (from OnMount, OnNav or OnUpdate). A later Use
// from an event handler, whose context is that of an element (which may be
// gone by the time the data arrives), keeps updating that component.
func (q *Query) Use(ctx app.Context, ctrl *controller.Controller, ep endpoint.Endpoint, params value.Value) {
	if app.IsServer {
		return // pre-rendering: show the placeholder, fetch nothing
	}
	if _, isComponent := ctx.Src().(app.Composer); isComponent || !q.hasOwner {
		q.owner, q.hasOwner = ctx, true
	}
	ctx = q.owner
	var key string
	var keyErr error
	if !params.IsNull() {
		key, keyErr = ep.Key(params)
	}
	q.mu.Lock()
	old := q.sub
	if old != nil && old.ctrl == ctrl && keyErr == nil && old.key == key && old.params.IsNull() == params.IsNull() {
		q.mu.Unlock()
		return // the same result (or, for null params, nothing) is read already
	}
	s := &subscription{ctrl: ctrl, ep: ep, params: params, key: key,
		state: controller.State{Data: value.Undef, ExpiryStatus: endpoint.Missing, Err: keyErr}}
	q.sub = s
	q.mu.Unlock()
	if old != nil && old.unsub != nil {
		old.unsub()
	}
	if keyErr != nil || params.IsNull() {
		ctx.Update()
		return
	}
	unsub, err := ctrl.Subscribe(ep, params, func(st controller.State) {
		q.mu.Lock()
		current := q.sub == s
		if current {
			s.state = st
		}
		q.mu.Unlock()
		if current {
			ctx.Update()
		}
	})
	q.mu.Lock()
	switch {
	case err != nil:
		s.state.Err = err
	case q.sub != s:
		defer unsub() // replaced meanwhile: defensive, as Use runs on the UI goroutine
	default:
		s.unsub = unsub
	}
	q.mu.Unlock()
	ctx.Update()
}

// Close stops reading: the component is no longer updated. Call it from
// OnDismount. A closed Query can be used again.
func (q *Query) Close() {
	q.mu.Lock()
	s := q.sub
	q.sub = nil
	q.mu.Unlock()
	q.owner, q.hasOwner = app.Context{}, false
	if s != nil && s.unsub != nil {
		s.unsub()
	}
}

// State returns what the controller last told the query: the data
// (Undefined while nothing is cached), whether a fetch is in flight, the
// kept error and the expiry status.
func (q *Query) State() controller.State {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.sub == nil {
		return controller.State{Data: value.Undef, ExpiryStatus: endpoint.Missing}
	}
	return q.sub.state
}

// Data returns the current data, Undefined while nothing is cached.
func (q *Query) Data() value.Value { return q.State().Data }

// Refreshing reports whether the query shows cached data while a fetch
// for newer data is in flight (stale-while-revalidate).
func (q *Query) Refreshing() bool {
	st := q.State()
	return st.Loading && !st.Data.IsUndefined()
}

// Retry fetches the result again now, as a retry button of an error
// boundary does. The component updates as the result changes.
func (q *Query) Retry() {
	q.mu.Lock()
	s := q.sub
	q.mu.Unlock()
	if s == nil || s.params.IsNull() || s.key == "" {
		return
	}
	go func() {
		// The outcome reaches the component through its subscription.
		_, _ = s.ctrl.Fetch(context.Background(), s.ep, s.params, nil)
	}()
}
