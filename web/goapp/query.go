package goapp

import (
	"context"
	"runtime"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// OnServer says whether queries run where go-app pre-renders pages rather
// than in the browser: there Use subscribes to nothing; under a Prerender
// it reads the result once into the request's controller and go-app waits
// for it, elsewhere pages render their placeholders. It starts as
// app.IsServer (true in every native build); a native test that drives
// components with app.NewTestEngine sets it to false so that its queries
// read as in a browser.
var OnServer = app.IsServer

// Query is a component's live read of one endpoint result, decoded as T
// (*Article, []*Article, ...; see package df). The zero Query reads
// nothing; keep one as an unexported field of the component (go-app keeps
// unexported fields across renders) and call Use and Close from the
// component's lifecycle methods.
type Query[T any] struct {
	mu  sync.Mutex
	sub *subscription[T]

	// owner is the context of the component the query updates. Read and
	// written on the UI goroutine only.
	owner    app.Context
	hasOwner bool
}

// subscription is one Use of a Query: a key and what its listener was last
// told. A Query that moves on to other params starts a new subscription, so
// a late notification of the old one is recognized and dropped.
type subscription[T any] struct {
	ctrl   *controller.Controller
	ep     *df.Endpoint[T]
	params value.Value
	key    string
	unsub  func()
	state  df.State[T]
	// cacheOnly is set for UseCache: the subscription never fetches.
	cacheOnly bool
}

// Use makes the query read ep's result for params through ctrl and keeps
// the component of ctx up to date with it. It fetches as useSuspense does:
// when nothing is cached, or the cache is stale or invalid; and, while the
// component shows it, again when it is invalidated or marked stale
// (ExpireAll) (see controller.Subscribe). A result that only reaches its
// expiry while shown is not refetched, nor is the component updated for
// it, as data-client's hooks hold it: the next Use revalidates it. Call Use
// from OnMount or OnNav, and again whenever params may have changed: when
// they name the result it already reads, it only revalidates that result
// if it is no longer valid (FetchIfStale, in the background; the component
// shows the stale data meanwhile). params are those of df's
// endpoints: nil for none, a struct, a map or a value.Value; value.NullV
// reads nothing, as useSuspense(endpoint, null) does. Params that cannot be
// encoded show as the query's error. Use must be called on the UI
// goroutine.
// While the query reads a result it is subscribed to it, so garbage
// collection (controller.GC) keeps that result and the entities it reaches
// until Close, or until Use moves on to other params.
//
// On the server, while a Prerender pre-renders the page, Use reads the
// result once into the request's controller (not ctrl) and go-app writes
// the page once it is read: call it from OnPreRender too, which go-app
// calls there in place of OnMount.
//
// The query updates the component whose context it was given: pass the
// component's own context (from OnMount, OnNav or OnUpdate). A later Use
// from an event handler, whose context is that of an element (which may be
// gone by the time the data arrives), keeps updating that component.
func (q *Query[T]) Use(ctx app.Context, ctrl *controller.Controller, ep *df.Endpoint[T], params any) {
	q.use(ctx, ctrl, ep, params, false)
}

// use is Use, or UseCache when cacheOnly is set.
func (q *Query[T]) use(ctx app.Context, ctrl *controller.Controller, ep *df.Endpoint[T], params any, cacheOnly bool) {
	if OnServer {
		// (A wasm build never pre-renders: the constant test leaves the
		// server's code out of it.)
		if runtime.GOARCH != "wasm" && !cacheOnly {
			q.useOnServer(ctx, ep, params)
		}
		return
	}
	if _, isComponent := ctx.Src().(app.Composer); isComponent || !q.hasOwner {
		q.owner, q.hasOwner = ctx, true
	}
	ctx = q.owner
	p, keyErr := ep.Params(params)
	var key string
	if keyErr == nil && !p.IsNull() {
		key, keyErr = ep.Endpoint().Key(p)
	}
	q.mu.Lock()
	old := q.sub
	if old != nil && old.ctrl == ctrl && keyErr == nil && old.key == key && old.params.IsNull() == p.IsNull() && old.cacheOnly == cacheOnly {
		q.mu.Unlock()
		// The same result (or, for null params, nothing) is read already.
		// A result that went stale with time while shown was left as it
		// is (see controller.Subscribe): this read of it revalidates it.
		if !p.IsNull() && !cacheOnly && ctrl.GetResponseKeyed(ep.Endpoint(), key, p).ExpiryStatus != endpoint.Valid {
			go func() {
				// Shared with a request in flight; the outcome reaches the
				// component through its subscription.
				_, _ = ctrl.FetchIfStale(context.Background(), ep.Endpoint(), p)
			}()
		}
		return
	}
	s := &subscription[T]{ctrl: ctrl, ep: ep, params: p, key: key, cacheOnly: cacheOnly,
		state: df.State[T]{ExpiryStatus: endpoint.Missing, Err: keyErr}}
	q.sub = s
	q.mu.Unlock()
	if old != nil && old.unsub != nil {
		old.unsub()
	}
	if keyErr != nil || p.IsNull() {
		ctx.Update()
		return
	}
	unsub, err := ep.Subscribe(ctrl, p, func(st df.State[T]) {
		q.mu.Lock()
		current := q.sub == s
		if current {
			s.state = st
		}
		q.mu.Unlock()
		if current {
			ctx.Update()
		}
	}, controller.SubscribeOptions{NoFetch: cacheOnly})
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

// useOnServer is Use where go-app pre-renders the page: under a
// Prerender it reads the result into the request's controller, once, in a
// goroutine go-app waits for before writing the page (Context.Async), and
// shows what it read; elsewhere it reads nothing and the page shows the
// placeholder.
func (q *Query[T]) useOnServer(ctx app.Context, ep *df.Endpoint[T], params any) {
	pr := prerenderingOf(ctx)
	if pr == nil {
		return
	}
	p, err := ep.Params(params)
	var key string
	if err == nil && !p.IsNull() {
		key, err = ep.Endpoint().Key(p)
	}
	q.mu.Lock()
	ctrl := pr.ctrl()
	if old := q.sub; old != nil && old.ctrl == ctrl && err == nil && old.key == key && old.params.IsNull() == p.IsNull() {
		q.mu.Unlock()
		return // read already
	}
	read := err == nil && !p.IsNull()
	s := &subscription[T]{ctrl: ctrl, ep: ep, params: p, key: key,
		state: df.State[T]{ExpiryStatus: endpoint.Missing, Err: err, Loading: read}}
	q.sub = s
	q.mu.Unlock()
	if !read {
		ctx.Update()
		return
	}
	pr.read()
	ctx.Async(func() {
		_, fetchErr := ctrl.FetchIfStale(pr.ctx, ep.Endpoint(), p)
		r := ep.Response(ctrl, p)
		st := df.State[T]{Data: r.Data, Has: r.Has, Err: r.Err, ExpiryStatus: r.ExpiryStatus}
		if st.Err == nil && !st.Has {
			st.Err = fetchErr
		}
		ctx.Dispatch(func(app.Context) {
			q.mu.Lock()
			if q.sub == s {
				s.state = st
			}
			q.mu.Unlock()
			pr.changed()
		})
	})
}

// Close stops reading: the component is no longer updated. Call it from
// OnDismount. A closed Query can be used again.
func (q *Query[T]) Close() {
	q.mu.Lock()
	s := q.sub
	q.sub = nil
	q.mu.Unlock()
	q.owner, q.hasOwner = app.Context{}, false
	if s != nil && s.unsub != nil {
		s.unsub()
	}
}

// State returns what the controller last told the query, decoded: the data
// (Has false while nothing is cached), whether a fetch is in flight, the
// kept error and the expiry status.
func (q *Query[T]) State() df.State[T] {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.sub == nil {
		return df.State[T]{ExpiryStatus: endpoint.Missing}
	}
	return q.sub.state
}

// Data returns the current data; T's zero value while nothing is cached.
// It is shared with every other reader: do not change it.
func (q *Query[T]) Data() T { return q.State().Data }

// Refreshing reports whether the query shows cached data while a fetch
// for newer data is in flight (stale-while-revalidate).
func (q *Query[T]) Refreshing() bool {
	st := q.State()
	return st.Loading && st.Has
}

// Retry fetches the result again now, as a retry button of an error
// boundary does. The component updates as the result changes.
func (q *Query[T]) Retry() {
	q.mu.Lock()
	s := q.sub
	q.mu.Unlock()
	if s == nil || s.params.IsNull() || s.key == "" {
		return
	}
	go func() {
		// The outcome reaches the component through its subscription.
		_, _ = s.ep.Fetch(context.Background(), s.ctrl, s.params, nil)
	}()
}

// Render renders the query through b: b's Fallback while there is nothing
// to show, its Error when the read failed with nothing cached, and
// otherwise render with the data, stale data included while it revalidates
// (see Refreshing to mark it). When a refetch fails but data is cached, the
// data is shown; the error is in State().Err.
func (q *Query[T]) Render(b Boundary, render func(data T) app.UI) app.UI {
	st := q.State()
	switch {
	case st.Usable():
		return render(st.Data)
	case st.Err != nil && !st.Loading:
		if b.Error == nil {
			return app.P().Text(st.Err.Error())
		}
		return b.Error(st.Err, q.Retry)
	case b.Fallback != nil:
		return b.Fallback()
	}
	return app.P().Text("Loading…")
}
