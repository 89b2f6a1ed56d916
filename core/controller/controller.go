// Package controller runs endpoints against a store: it decides when to
// fetch (fresh, stale, missing, invalid), shares identical requests in
// flight, keeps errors for a while, applies optimistic updates and rolls
// them back, and tells subscribers when a result they read changes. A read
// of a single entity by its pk that was never fetched is answered from the
// entity table when it can be (infer.go).
//
// A Controller is safe for concurrent use. Every method that waits takes a
// context; listeners are called outside the controller's lock, one at a
// time, in the order the changes happened.
package controller

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Defaults for endpoints that set no expiry of their own.
const (
	DefaultDataExpiryLength  = 60 * time.Second
	DefaultErrorExpiryLength = time.Second
)

// Options configure a Controller. The zero value is usable.
type Options struct {
	// Now is the clock; nil is time.Now. Tests pass a controllable one.
	// Its readings are taken within the range of a JavaScript Date
	// (schema.MaxClock, the year 275760 either way): beyond it they read
	// as that bound, so that the stamps and expiry times made from them
	// stay in the range every store takes (a snapshot or a sync message
	// with a time beyond schema.MaxTime is refused).
	Now func() time.Time
	// DataExpiryLength and ErrorExpiryLength are defaults for endpoints
	// that set none.
	DataExpiryLength  time.Duration
	ErrorExpiryLength time.Duration
	// RequestContext, when set, decorates the context of every request, as
	// with rest.WithTransport for a controller-wide fetch function.
	RequestContext func(ctx context.Context) context.Context
	// OnChange, when set, is called after anything a read can see may have
	// changed: data, optimistic layers, invalidation, errors, a reset;
	// once for one or more changes, on the goroutine that made them, as
	// soon as the controller's lock is released and before the changing
	// method returns (and before subscribers and managers are told). It
	// may call the controller; calls from two goroutines may overlap, so
	// it must be safe for concurrent use. It exists so that a cache of
	// reads kept outside (the JavaScript bridge's) knows when to drop its
	// entries. Expiry by the passing of time is not a change: such caches
	// compare expiresAt with the clock themselves.
	OnChange func()
	// Retry is how many times a failed request of a read endpoint is
	// retried when its endpoint sets no Retry of its own; 0 means none.
	// See endpoint.Spec.Retry for which errors retry.
	Retry int
	// RetryDelay is the wait before retry number attempt (from 0) for
	// endpoints that set none; nil is DefaultRetryDelay. A Retry-After
	// header on a 429 or 503 replaces it.
	RetryDelay func(attempt int, err error) (time.Duration, error)
	// AfterFunc, when set, replaces time.AfterFunc for the controller's
	// timers (polling, the waits between retries): it calls f once, on a
	// goroutine of its own, after d, unless stop is called first; stop
	// reports whether it prevented the call. Tests pass timers they fire
	// themselves, so that nothing sleeps.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Go, when set, starts the goroutine a shared request (Suspense,
	// Fetch of a read endpoint, a revalidation) runs on, instead of a go
	// statement. The JavaScript bridge passes its kept goroutines: in
	// WebAssembly a new goroutine's stack grows, copying itself, while the
	// request is parsed and stored, on every request. Go must run f
	// soon and not wait for it.
	Go func(f func())
	// InitialState, when set, is a snapshot (see Snapshot) the store
	// starts from, as Hydrate takes it. New panics when it is malformed:
	// for a snapshot from outside the program, call Hydrate, which returns
	// the error.
	InitialState value.Value
	// GC, when set, sweeps the store every GC.Interval (see GC and
	// GCOptions); nil: no periodic sweeps.
	GC *GCOptions
	// Managers are told of what the controller does (see Manager), in
	// this order, after the controller's own (polling, periodic GC). New
	// starts them; Close stops them.
	Managers []Manager
	// ReadCallbacksGuarded tells that the read callbacks (see
	// ErrReadCallback) cannot call the controller back: the JavaScript
	// bridge refuses such calls itself. Reads then skip the check, whose
	// cost is a stack trace per read that runs them (about 2 µs natively,
	// 10 µs in WebAssembly).
	ReadCallbacksGuarded bool
}

// ErrReset is returned to callers whose request was started before a
// ResetEntireStore: its response was not stored.
var ErrReset = errors.New("store was reset while the request was in flight")

// ErrClosed is returned to callers whose request was waiting to retry when
// the controller was closed.
var ErrClosed = errors.New("controller was closed")

// Controller is the cache's front door.
//
// Caller code may call any of the controller's methods, reads and
// writes, from any goroutine, except the callbacks of a read: an Entity's
// Valid and DepthLimited, a schema.Lens's lens function, a Union's
// AttributeFunc and Unknown, a Collection's NestKey, a schema.Custom's
// Call when reading. They run while a read
// denormalizes the store under the controller's lock (asked per record
// read, where releasing the lock would cost every read), so a call from
// one waits for that lock for ever: they must not call the controller.
// (The JavaScript bridge makes such a call throw.) Everything else runs
// without the lock. Most of it runs outside the lock anyway: an Entity's Process and PKFunc, an endpoint's
// Fetch, Update itself, MergeResult itself, GetOptimisticResponse (through
// its Snapshot or directly), the test of InvalidateAll and ExpireAll,
// subscription listeners, sync sinks and managers (see Manager).
//
// The hooks that compute a write are called in the middle of it: an
// Entity's Merge, UseIncoming, ShouldReorder, MergeWithStore and
// MergeMetaWithStore, the merge function an endpoint's MergeResult
// returns, the functions its Update returns, a Collection's Filter and
// NonFilter and a CollectionAdd's Merge (a push, a move), those of the write being
// stored and those of every pending optimistic write, which each change
// of the store replays (a response, Set, SetResponse, an optimistic
// update queued or settled, Hydrate, ApplySync). For them the rule is:
//
//   - A write is prepared first, without changing the store: the hooks
//     run then, with the lock released, and a read from a hook sees the
//     store as it was before the write (none of the write is visible).
//   - When the store has changed once a hook returns (the hook wrote to
//     the controller, or another goroutine did meanwhile), the prepared
//     write is dropped and prepared again over the new state: its hooks
//     run again, and see that change. So a hook's own write comes before
//     the write that ran the hook; where both write the same record, the
//     newer request wins as between any two writes (by fetchedAt: the
//     hook's write, stamped after the write that runs it, is the newer).
//     Hooks must be functions of their arguments and of what they read:
//     they may run more than once per write.
//   - Otherwise the write is stored at once, whole: readers see all of it
//     or none of it. A hook that panics leaves the store as it was.
//   - A write whose hooks find the store changed on each of 8 attempts (a
//     hook that writes every time it runs, or writers on other goroutines
//     that never pause) fails with an error wrapping [ErrHooksKeepChanging]
//     and stores nothing. An optimistic update that settles (its request
//     ended) cannot fail: if the hooks of the writes still pending keep
//     changing the store, every optimistic update is dropped, readers see
//     the data servers sent, and the requests of the dropped updates store
//     their responses as usual when they end.
//   - A hook's write replays the pending optimistic writes too, hooks
//     included: a hook of a pending write that writes every time it runs
//     calls itself without end. Writing once, or when what it reads says
//     so, is fine.
//
// A Hold's roots run during GC, with the lock released too: they may call
// the controller, and see the store as it is before the sweep. A GC during
// whose roots a Hold is made (by them or by another goroutine) sweeps
// nothing: what that Hold names is kept.
//
// The Controller keeps the cache consistent: it decides when to fetch,
// shares and retries requests, stores responses and optimistic updates,
// and tells subscribers. Policies that only react to what it does run
// beside it as managers, told of its Events: polling (polling.go), the
// periodic garbage collection (gc.go), the sync messages (sync.go), and
// those listed in Options.Managers.
type Controller struct {
	opts Options

	mu sync.Mutex
	// reader is the goroutine (goroutineID) holding mu for a read that
	// runs caller code, 0 when none (see lock).
	reader atomic.Uint64
	// dirty is set, under mu, by a change that OnChange must be told of;
	// unlock clears it and calls OnChange once mu is released.
	dirty    bool
	st       *store.Store
	gen      uint64 // bumped by ResetEntireStore
	inflight map[string]*call
	subs     map[string][]*Subscription
	// resetCh is closed, and replaced, by ResetEntireStore; closedCh is
	// closed by Close. Waits between retries end on them.
	resetCh  chan struct{}
	closedCh chan struct{}
	closed   bool
	// mutations are the mutations in flight (requests.go), nil until one
	// runs; shared requests are in inflight.
	mutations map[*call]struct{}

	// noReapply turns off storing a response whose text the store holds
	// again without parsing it (finishAgain), whole or but one element of
	// its list, for tests that compare the two ways; reapplied and
	// reappliedElems count the responses stored each way.
	noReapply      atomic.Bool
	reapplied      int
	reappliedElems int

	// lastStamp is the last fetchedAt handed out; stamps strictly increase
	// so that requests started in the same millisecond still have an order.
	lastStamp int64

	// notifications waiting for delivery, and whether a goroutine is
	// delivering them.
	queue       []notification
	dispatching bool

	// queries are the memos of Get; listeners the Listen registrations
	// (query.go).
	queries   map[queryKey]*queryMemo
	listeners []*listener
	// syncer is the manager that makes sync messages (sync.go).
	syncer *syncManager
	gc     gcState // garbage collection (gc.go)

	// managers are the started managers (manager.go); wants is the union
	// of the events they want, which emit tests before queuing one.
	// managers is replaced, never changed in place (under mu), so that
	// tell reads it outside the lock.
	managers atomic.Pointer[[]*managed]
	wants    eventMask
	// managersStopped is set by Close before it stops the managers: no
	// event is told after it (manager.go).
	managersStopped atomic.Bool
}

// call is one shared request in flight, under its request key in inflight.
type call struct {
	key  string
	ep   endpoint.Endpoint // the endpoint it runs
	done chan struct{}
	err  error
	// startedAt is when the request started (epoch ms, the controller's
	// clock), for Requests.
	startedAt int64
}

// requestKey is the key under which a request for the result under key is
// shared while in flight (see endpoint.RequestKeyer).
func requestKey(ep endpoint.Endpoint, key string, params value.Value) string {
	if rk, ok := ep.(endpoint.RequestKeyer); ok {
		if k, err := rk.RequestKey(params); err == nil {
			return k
		}
	}
	return key
}

// New returns a controller with an empty store.
func New(opts Options) *Controller {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.DataExpiryLength <= 0 {
		opts.DataExpiryLength = DefaultDataExpiryLength
	}
	if opts.ErrorExpiryLength <= 0 {
		opts.ErrorExpiryLength = DefaultErrorExpiryLength
	}
	if opts.AfterFunc == nil {
		opts.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	c := &Controller{
		opts:     opts,
		st:       store.New(),
		inflight: map[string]*call{},
		subs:     map[string][]*Subscription{},
		resetCh:  make(chan struct{}),
		closedCh: make(chan struct{}),
	}
	if !opts.ReadCallbacksGuarded {
		c.st.OnCallerCode = c.readsCallerCode
	}
	c.startManagers()
	if !opts.InitialState.IsUndefined() {
		if err := c.Hydrate(opts.InitialState); err != nil {
			panic(fmtlite.Errorf("controller.New: InitialState: %w", err))
		}
	}
	return c
}

// now reads the clock in epoch ms, within ±schema.MaxClock.
func (c *Controller) now() int64 { return schema.ClockTime(c.opts.Now()) }

// stampAt returns the fetchedAt of a request starting at now, the clock's
// reading (or one past the previous stamp when the clock has not moved
// on), for a caller that needs the
// time itself too: one read of the clock per operation (each is two calls
// into JavaScript under js/wasm).
func (c *Controller) stampAt(now int64) int64 {
	c.lock()
	defer c.unlock()
	if now <= c.lastStamp {
		now = c.lastStamp + 1
	}
	c.lastStamp = now
	return now
}

func (c *Controller) dataExpiry(spec *endpoint.Spec) int64 {
	if spec.DataExpiryLength > 0 {
		return spec.DataExpiryLength.Milliseconds()
	}
	return c.opts.DataExpiryLength.Milliseconds()
}

func (c *Controller) errorExpiry(spec *endpoint.Spec) int64 {
	if spec.ErrorExpiryLength > 0 {
		return spec.ErrorExpiryLength.Milliseconds()
	}
	return c.opts.ErrorExpiryLength.Milliseconds()
}

// Fetch runs the endpoint now, stores the response, applies Update, and
// returns the denormalized result. Identical reads in flight are shared;
// mutations (SideEffect) never are. With GetOptimisticResponse, its value is
// visible before Fetch returns to the network and is rolled back on error.
func (c *Controller) Fetch(ctx context.Context, ep endpoint.Endpoint, params value.Value, body any) (value.Value, error) {
	spec := ep.Spec()
	key, err := ep.Key(params)
	if err != nil {
		return value.Undef, err
	}
	if !spec.SideEffect {
		if err := c.shared(ctx, ep, key, params); err != nil {
			return value.Undef, err
		}
		return c.read(key, params), nil
	}
	defer c.untrack(c.track(ep, key))
	return c.run(ctx, newRequest(ep, key, params, body, nil))
}

// Suspense returns the endpoint's data as data-client's useSuspense does:
// fresh data at once; stale data at once with a revalidation in the
// background; otherwise it fetches (sharing a request in flight) and waits.
// Null params return Undefined and do nothing. A kept error is returned
// without a new request until it expires, or until Invalidate,
// InvalidateAll or ExpireAll drop it. A request aborted by its caller (a
// cancelled context, an endpoint's signal) fails the callers waiting for it
// but keeps no error: the next read fetches.
func (c *Controller) Suspense(ctx context.Context, ep endpoint.Endpoint, params value.Value) (value.Value, error) {
	if params.IsNull() {
		return value.Undef, nil
	}
	key, err := ep.Key(params)
	if err != nil {
		return value.Undef, err
	}
	r := c.getResponse(ep, key, params)
	switch {
	case r.Err != nil:
		return value.Undef, r.Err
	case r.ExpiryStatus == endpoint.Valid:
		return r.Data, nil
	case r.ExpiryStatus == endpoint.Stale:
		c.revalidate(ep, key, params)
		return r.Data, nil
	}
	if err := c.shared(ctx, ep, key, params); err != nil {
		return value.Undef, err
	}
	return c.read(key, params), nil
}

// FetchIfStale fetches only when Suspense would, and waits as it would.
func (c *Controller) FetchIfStale(ctx context.Context, ep endpoint.Endpoint, params value.Value) (value.Value, error) {
	return c.Suspense(ctx, ep, params)
}

// GetResponse reads the endpoint's result now, optimistic data included.
// A failed read (bad params, a call from a hook) is Missing, with Err set.
func (c *Controller) GetResponse(ep endpoint.Endpoint, params value.Value) endpoint.Response {
	key, err := ep.Key(params)
	if err != nil {
		return endpoint.Response{Data: value.Undef, ExpiryStatus: endpoint.Missing, Err: err}
	}
	return c.getResponse(ep, key, params)
}

// GetResponseKeyed is GetResponse for a caller that has worked out key as
// ep.Key(params) already (the JavaScript bridge keeps the key of the params
// it was last given): the key is not made again. A key that is not
// ep.Key(params) reads another result.
func (c *Controller) GetResponseKeyed(ep endpoint.Endpoint, key string, params value.Value) endpoint.Response {
	return c.getResponse(ep, key, params)
}

// getResponse reads key. What may be inferred (inferFor, which runs caller
// code: a pk function, a Collection's argsKey) is worked out, outside
// c.mu, only when nothing is stored under key, as data-client asks
// queryKey only then.
func (c *Controller) getResponse(ep endpoint.Endpoint, key string, params value.Value) endpoint.Response {
	inf := inference{args: schema.Args{Params: params}}
	c.lock()
	if v, _ := c.st.Normalized(key); v.IsUndefined() {
		c.release()
		inf = inferFor(ep, params)
		c.lock()
	}
	defer c.unlock()
	return c.response(ep.Spec(), key, inf)
}

// Keys returns the keys of the stored results, in no particular order: the
// keys InvalidateAll and ExpireAll test. With them a caller can choose keys
// without running its test under the controller's lock (the JavaScript
// bridge filters them on its side).
func (c *Controller) Keys() []string {
	c.lock()
	defer c.unlock()
	return c.st.Keys()
}

// response computes a result's read under c.mu. When nothing is stored
// under key, the read is inferred from the entity table where inf allows
// (see inferred).
func (c *Controller) response(spec *endpoint.Spec, key string, inf inference) endpoint.Response {
	r, _ := c.responseExpiry(spec, key, inf)
	return r
}

// expiry is what a subscription compares between two changes to tell a
// result that only aged with time from one the store changed (see
// subscription.seen): its ExpiresAt and its kept error's expiry, which a
// fetch, ExpireAll or a dropped error move and time does not, and whether
// its status comes from its age alone (Stale, or Invalid only because
// InvalidIfStale makes a stale result so).
type expiry struct {
	at, errorAt int64
	aged        bool
}

// sameMoment reports whether e and o have the same expiries.
func (e expiry) sameMoment(o expiry) bool { return e.at == o.at && e.errorAt == o.errorAt }

// responseExpiry is response, and the result's expiry.
func (c *Controller) responseExpiry(spec *endpoint.Spec, key string, inf inference) (endpoint.Response, expiry) {
	// A result a snapshot brought that is not one of the endpoint's schema
	// is dropped there: the read finds nothing, and fetches.
	_ = c.st.Adopt(key, spec.Schema)
	now := c.now()
	data, st, meta, ok := c.st.ReadArgs(key, inf.args)
	r := endpoint.Response{Data: data, ExpiresAt: meta.ExpiresAt}
	if meta.Err != nil && now < meta.ErrorExpiresAt {
		r.Err = meta.Err
	}
	aged := false
	switch {
	case !ok && r.Err == nil && !meta.Invalidated && c.inferred(inf, now, &r):
	case !ok:
		r.ExpiryStatus, r.ExpiresAt = endpoint.Missing, 0
	case meta.Invalidated || st != schema.Found:
		r.ExpiryStatus = endpoint.Invalid
	case now >= meta.ExpiresAt && spec.InvalidIfStale:
		r.ExpiryStatus, aged = endpoint.Invalid, true
	case now >= meta.ExpiresAt:
		r.ExpiryStatus, aged = endpoint.Stale, true
	default:
		r.ExpiryStatus = endpoint.Valid
	}
	return r, expiry{at: r.ExpiresAt, errorAt: meta.ErrorExpiresAt, aged: aged}
}

// read reads the result under key, by a reader with params.
func (c *Controller) read(key string, params value.Value) value.Value {
	c.lock()
	defer c.unlock()
	v, _, _, _ := c.st.ReadArgs(key, schema.Args{Params: params})
	return v
}

// revalidate starts a shared background fetch, unless one is in flight.
func (c *Controller) revalidate(ep endpoint.Endpoint, key string, params value.Value) {
	c.startShared(ep, key, params)
}

// shared joins the request in flight for key or starts one, and waits for
// it. A waiter that gives up (ctx) leaves the request running for others.
func (c *Controller) shared(ctx context.Context, ep endpoint.Endpoint, key string, params value.Value) error {
	return c.await(ctx, key, c.startShared(ep, key, params))
}

// await waits for cl to finish, or for ctx to be done.
func (c *Controller) await(ctx context.Context, key string, cl *call) error {
	select {
	case <-cl.done:
		return cl.err
	case <-ctx.Done():
		return abortError(key, ctx.Err())
	}
}

// startShared returns the call in flight for key, starting it if needed.
// The request runs detached from any one waiter's context.
//
//go:noinline
func (c *Controller) startShared(ep endpoint.Endpoint, key string, params value.Value) *call {
	return c.startUnless(ep, key, params, nil)
}

// startUnless is startShared, except that when no request is in flight
// and skip (called with c.mu held) says so, it starts none and returns nil.
func (c *Controller) startUnless(ep endpoint.Endpoint, key string, params value.Value, skip func() bool) *call {
	rkey := requestKey(ep, key, params)
	now := c.now()
	c.lock()
	cl := c.inflight[rkey]
	start := cl == nil
	if start && skip != nil && skip() {
		c.unlock()
		return nil
	}
	if start {
		cl = &call{key: rkey, ep: ep, done: make(chan struct{}), startedAt: now}
		c.inflight[rkey] = cl
		c.changed() // subscribers see loading
	}
	c.unlock()
	c.dispatch()
	if start {
		c.spawn(func() {
			_, cl.err = c.run(context.Background(), newRequest(ep, key, params, nil, cl))
			close(cl.done)
		})
	}
	return cl
}

// spawn runs f on a goroutine of its own: through Options.Go when set.
func (c *Controller) spawn(f func()) {
	if c.opts.Go != nil {
		c.opts.Go(f)
		return
	}
	go f()
}

// abortError makes a waiter's cancellation recognizable as an abort, and
// names the request (endpoint, method and URL, as its key does).
func abortError(key string, err error) error {
	return fmtlite.Errorf("%s: request aborted: %w", key, err)
}
