package controller

import (
	"context"
	"errors"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// State is what a subscriber is told about one result.
type State struct {
	// Data is the denormalized result, optimistic data included; Undefined
	// while nothing is stored.
	Data value.Value
	// Loading is true while a request for the result is in flight.
	Loading bool
	// Err is the kept error of the last fetch, until it expires or is
	// dropped (Invalidate, ExpireAll). An aborted fetch is not an error
	// of the data and is never shown here.
	Err error
	// ExpiryStatus is the result's status at the time of the call. Time
	// passing is no change: a result that goes stale while subscribed is
	// not announced for that alone, so this can read Valid after ExpiresAt
	// has passed; GetResponse reads the status now.
	ExpiryStatus endpoint.ExpiryStatus
}

func (s State) same(o State) bool {
	return s.sameButStatus(o) && s.ExpiryStatus == o.ExpiryStatus
}

// sameButStatus is same, but for ExpiryStatus.
func (s State) sameButStatus(o State) bool {
	return value.Same(s.Data, o.Data) && s.Loading == o.Loading && sameErr(s.Err, o.Err)
}

// sameErr compares errors without == on types that cannot be compared.
func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return errors.Is(a, b)
}

// SubscribeOptions change what a subscription does besides listening. The
// zero value fetches as Suspense would and polls when the endpoint has a
// PollFrequency.
type SubscribeOptions struct {
	// NoFetch only listens: the subscription never starts a request, nor
	// polls (a cache read, as the React bindings' useCache). It is still
	// told of changes that other callers' requests bring.
	NoFetch bool
	// NoPoll does not poll, even when the endpoint has a PollFrequency;
	// the subscription still fetches as Suspense would.
	NoPoll bool
}

// Subscription is one Subscribe, as managers see it in Subscribe and
// Unsubscribe events: its endpoint, params, key and options.
type Subscription struct {
	opts   SubscribeOptions
	ep     endpoint.Endpoint
	key    string
	rkey   string // the request key of its fetches (requestKey)
	params value.Value
	// inf lets its reads be inferred from the entity table (infer.go),
	// worked out once: params do not change.
	inf      inference
	listener func(State)
	last     State
	closed   bool
	// started is set once the listener's first call (in Subscribe) is
	// done: notifications queued before it are dropped, and Subscribe
	// queues the latest state instead, so the listener never sees an older
	// state after a newer one.
	started bool
	// settled is the store version right after a fetch of key finished; a
	// result still unusable at that version is not fetched again, which
	// would only loop.
	settled uint64
	// aborted is set, with abortedAt the store version right after, when a
	// fetch of key was aborted by this subscription's own endpoint (its
	// signal). Until the store changes, it does not fetch again: that fetch
	// would abort at once, and the next, in a loop.
	aborted   bool
	abortedAt uint64
	// seen is the result's expiry when the subscription last looked at it
	// (when it started, and at each change). A change that finds the
	// result stale (or invalid through InvalidIfStale) with the same
	// expiries finds it aged with time only: as with data-client's hooks,
	// which fetch on mount, on new params, when the result is invalidated
	// and when its expiry moves (expireAll), never on a timer, that is no
	// reason to refetch, nor to tell the listener.
	seen expiry
}

type notification struct {
	sub   *Subscription
	state State
	// listen, when set, is a Listen registration to call (sub is nil).
	listen *listener
	// event, when set, is an Event for the managers (sub is nil).
	event *Event
}

// Subscribe calls listener with the result's state now, before returning,
// and again after every change of it: new data, optimistic data and its
// rollback, loading, errors. Unchanged data is the identical Value. It
// fetches as Suspense would when it starts (a missing, invalid or stale
// result), and again while subscribed when the result becomes invalid
// (Invalidate, InvalidateAll, an entity it needs deleted) or missing
// (ResetEntireStore), or is marked stale (ExpireAll), and every
// PollFrequency when the endpoint has one.
//
// A result that merely reaches its ExpiresAt while subscribed is neither
// refetched nor announced, as in data-client, whose hooks hold stale data
// until something asks for it: no timer runs for it, and other changes to
// the store do not refetch it. The next read that wants fresh data
// revalidates it: Suspense or FetchIfStale (which answer the stale data
// and fetch in the background), a new Subscribe of it, RevalidateActive.
// Null params subscribe to nothing. The returned function unsubscribes; it
// is safe to call more than once.
func (c *Controller) Subscribe(ep endpoint.Endpoint, params value.Value, listener func(State)) (unsubscribe func(), err error) {
	return c.SubscribeWith(ep, params, listener, SubscribeOptions{})
}

// SubscribeWith is Subscribe with options: opts.NoFetch only listens,
// opts.NoPoll does not poll.
func (c *Controller) SubscribeWith(ep endpoint.Endpoint, params value.Value, listener func(State), opts SubscribeOptions) (unsubscribe func(), err error) {
	if params.IsNull() {
		listener(State{Data: value.Undef, ExpiryStatus: endpoint.Missing})
		return func() {}, nil
	}
	key, err := ep.Key(params)
	if err != nil {
		return nil, err
	}
	s := &Subscription{opts: opts, ep: ep, key: key, rkey: requestKey(ep, key, params), params: params,
		inf: inferFor(ep, params), listener: listener}
	c.lock()
	c.subs[key] = append(c.subs[key], s)
	c.emit(&Event{Kind: Subscribe, Key: key, Endpoint: ep, Params: params, Sub: s})
	r, e := c.responseExpiry(ep.Spec(), key, s.inf)
	s.seen = e
	_, busy := c.inflight[s.rkey]
	c.ensureFresh(s, r)
	s.last = c.stateWith(s, r)
	if _, started := c.inflight[s.rkey]; started && !busy {
		// Other subscribers of the result see the loading it started.
		c.changed()
	}
	// The fetch ensureFresh started may change s.last as soon as the lock
	// is free: the first call gets the state read under it.
	first := s.last
	c.unlock()
	listener(first)
	c.lock()
	s.started = true
	// A change delivered to others while the first call ran: this
	// listener gets its state now, after the first, in queue order.
	if !s.closed && !s.last.same(first) {
		c.queue = append(c.queue, notification{sub: s, state: s.last})
	}
	c.unlock()
	c.dispatch()
	return func() { c.unsubscribe(s) }, nil
}

func (c *Controller) unsubscribe(s *Subscription) {
	c.lock()
	if s.closed {
		c.unlock()
		return
	}
	s.closed = true
	c.emit(&Event{Kind: Unsubscribe, Key: s.key, Endpoint: s.ep, Params: s.params, Sub: s})
	list := c.subs[s.key]
	for i, x := range list {
		if x == s {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(c.subs, s.key)
	} else {
		c.subs[s.key] = list
	}
	c.unlock()
	c.dispatch()
}

// stateWith is the state of s for its result's read r, with loading as
// it is now (a fetch ensureFresh started after r was read included).
func (c *Controller) stateWith(s *Subscription, r endpoint.Response) State {
	_, loading := c.inflight[s.rkey]
	return State{Data: r.Data, Loading: loading, Err: r.Err, ExpiryStatus: r.ExpiryStatus}
}

// ensureFresh starts a fetch for s when its result, read as r, needs one,
// as Suspense would. Called with c.mu held; the request itself starts in a
// goroutine.
func (c *Controller) ensureFresh(s *Subscription, r endpoint.Response) {
	if s.opts.NoFetch {
		return
	}
	if _, busy := c.inflight[s.rkey]; busy {
		return
	}
	if r.Err != nil || r.ExpiryStatus == endpoint.Valid {
		return
	}
	if meta, _ := c.st.Meta(s.key); r.ExpiryStatus == endpoint.Invalid && !meta.Invalidated && s.settled == c.st.Version() {
		return
	}
	if s.aborted && s.abortedAt == c.st.Version() {
		return
	}
	cl := &call{key: s.rkey, ep: s.ep, done: make(chan struct{}), startedAt: c.now()}
	c.inflight[s.rkey] = cl
	ep, key, params := s.ep, s.key, s.params
	c.spawn(func() {
		_, cl.err = c.run(context.Background(), newRequest(ep, key, params, nil, cl))
		close(cl.done)
	})
}

// changed queues a notification for every subscriber whose state differs
// from what it was last told, and starts fetches that subscribed results now
// need. Called with c.mu held, after any change.
func (c *Controller) changed() {
	c.dirty = true // OnChange is called once c.mu is released (unlock)
	c.queueListeners()
	if len(c.subs) == 0 {
		// Most changes come with no subscription open (the JavaScript
		// bridge's exported entries only make those): no map to walk.
		return
	}
	for _, list := range c.subs {
		for _, s := range list {
			r, e := c.responseExpiry(s.ep.Spec(), s.key, s.inf)
			// Past its expiry, with the expiries where they were: only
			// time moved (see subscription.seen).
			timeOnly := e.aged && e.sameMoment(s.seen)
			s.seen = e
			if !timeOnly {
				c.ensureFresh(s, r)
			}
			// The store cannot change under c.mu, so r is still the read;
			// loading is read again, as ensureFresh may have started a fetch.
			st := c.stateWith(s, r)
			if st.same(s.last) || timeOnly && st.sameButStatus(s.last) {
				continue
			}
			s.last = st
			c.queue = append(c.queue, notification{sub: s, state: st})
		}
	}
}

// dispatch delivers queued notifications outside the lock. One goroutine
// delivers at a time, so listeners see changes in order.
func (c *Controller) dispatch() {
	c.lock()
	if c.dispatching {
		c.unlock()
		return
	}
	c.dispatching = true
	for len(c.queue) > 0 {
		n := c.queue[0]
		c.queue = c.queue[1:]
		if n.listen != nil {
			if n.listen.stopped {
				continue
			}
			n.listen.queued = false
		} else if n.event == nil && (n.sub.closed || !n.sub.started) {
			continue
		}
		c.unlock()
		c.deliver(n)
		c.lock()
	}
	c.dispatching = false
	c.unlock()
}

// deliver calls one listener. Should it panic, dispatching is over before
// the panic goes on, so that later changes are still delivered (by the next
// dispatch) wherever the panic is recovered.
func (c *Controller) deliver(n notification) {
	defer func() {
		if p := recover(); p != nil {
			c.lock()
			c.dispatching = false
			c.unlock()
			panic(p)
		}
	}()
	if n.listen != nil {
		n.listen.fn()
		return
	}
	if n.event != nil {
		c.tell(n.event)
		return
	}
	n.sub.listener(n.state)
}

// unlock releases c.mu, then calls Options.OnChange if a change was made
// under it (changed): outside the lock, so that OnChange may call the
// controller. Every release of c.mu goes through it, or through release
// where no change can have been made.
func (c *Controller) unlock() {
	dirty := c.dirty
	c.dirty = false
	c.release()
	if dirty && c.opts.OnChange != nil {
		c.opts.OnChange()
	}
}
