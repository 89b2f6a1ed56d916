package controller

import (
	"time"

	"github.com/datafetch/datafetch/core/endpoint"
)

// Request is one request in flight, as Requests reports it.
type Request struct {
	// Key is the request's key: the result key of a mutation, the key
	// identical reads share (usually their result key) for a read.
	Key string
	// StartedAt is when it started (epoch ms, the controller's clock).
	StartedAt int64
	// Mutation is true for an endpoint with side effects (never shared).
	Mutation bool
}

// Requests returns the requests in flight, oldest first: the shared reads
// (one per key, however many callers wait for it, retries included) and
// the mutations. It is for inspectors and debugging; it changes nothing.
// A mutation's start and end are not changes a read could see, so
// Options.OnChange is not called for them: a watcher polls.
func (c *Controller) Requests() []Request {
	c.lock()
	defer c.unlock()
	out := make([]Request, 0, len(c.inflight)+len(c.mutations))
	for _, cl := range c.inflight {
		out = append(out, Request{Key: cl.key, StartedAt: cl.startedAt})
	}
	for cl := range c.mutations {
		out = append(out, Request{Key: cl.key, StartedAt: cl.startedAt, Mutation: true})
	}
	// Few requests are in flight: an insertion sort, which adds less code
	// to the WebAssembly module than a library sort.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && requestBefore(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// requestBefore orders requests by start, then key.
func requestBefore(a, b Request) bool {
	if a.StartedAt != b.StartedAt {
		return a.StartedAt < b.StartedAt
	}
	return a.Key < b.Key
}

// track records a mutation of ep under key as in flight until untrack.
func (c *Controller) track(ep endpoint.Endpoint, key string) *call {
	cl := &call{key: key, ep: ep, startedAt: c.now()}
	c.lock()
	defer c.unlock()
	if c.mutations == nil {
		c.mutations = map[*call]struct{}{}
	}
	c.mutations[cl] = struct{}{}
	return cl
}

// untrack ends what track recorded.
func (c *Controller) untrack(cl *call) {
	c.lock()
	defer c.unlock()
	delete(c.mutations, cl)
}

// Now returns the controller's clock (Options.Now): the time its expiry
// decisions read (within ±schema.MaxClock, see Options.Now), for an
// inspector to show time left by the same clock.
func (c *Controller) Now() time.Time { return time.UnixMilli(c.now()) }

// AfterFunc calls f once, on a goroutine of its own, after d by the
// controller's timers (Options.AfterFunc), unless stop is called first:
// the timers a manager uses, so that a test's fake timers drive it too.
func (c *Controller) AfterFunc(d time.Duration, f func()) (stop func() bool) {
	return c.opts.AfterFunc(d, f)
}
