package controller

import (
	"context"
	"errors"
	"sync"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// Revalidation and the controller's end (spec 9.3). The events that call
// RevalidateActive (a page shown again, a browser back online) belong to
// the platform: the JavaScript bridge listens for them; a Go front end in a
// browser calls RevalidateActive from its own listeners.

// RevalidateActive fetches again every result a subscription holds whose
// data is stale, invalid or missing, as FetchIfStale would (so a kept
// error is not refetched before it expires), and waits until those fetches
// settle. Fresh results are not fetched, nor those of subscriptions that
// only listen (SubscribeOptions.NoFetch). A request already in flight is
// joined, not repeated. It returns the fetches' errors, joined; ctx ends
// the wait, not the fetches.
func (c *Controller) RevalidateActive(ctx context.Context) error {
	type target struct {
		ep     endpoint.Endpoint
		key    string
		params value.Value
		inf    inference
	}
	var targets []target
	seen := map[string]bool{}
	c.lock()
	for key, list := range c.subs {
		for _, s := range list {
			if s.opts.NoFetch || seen[s.rkey] {
				continue
			}
			if r := c.response(s.ep.Spec(), key, s.inf); r.Err != nil || r.ExpiryStatus == endpoint.Valid {
				continue
			}
			seen[s.rkey] = true
			targets = append(targets, target{s.ep, key, s.params, s.inf})
		}
	}
	c.unlock()
	errs := make([]error, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Go(func() { errs[i] = c.refreshIfStale(ctx, t.ep, t.key, t.params, t.inf) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Close stops the controller's timers: every subscription's polling, the
// periodic garbage collection (Options.GC), the managers (Options.Managers:
// each one's Stop, in order), and the waits of requests waiting to retry, which fail with ErrClosed. After
// it, no subscription polls and no request retries; reads, fetches and
// subscriptions otherwise work as before. Calling it again does nothing.
func (c *Controller) Close() {
	c.lock()
	if c.closed {
		c.unlock()
		return
	}
	c.closed = true
	close(c.closedCh)
	c.managersStopped.Store(true)
	c.refreshWants() // only the sync manager's, from now on
	c.unlock()
	// Outside the lock, as the managers' events are: Stop may call the
	// controller (a last sync, a last save).
	c.stopManagers()
}

// refreshIfStale fetches the result under key, as shared does, unless it
// is valid by the time the request would start: between the moment
// RevalidateActive chose it and now, a subscription may have refetched it
// (ensureFresh). The check and the start are one critical section, so the
// result is fetched at most once; a fetch that failed meanwhile is kept,
// and its error is returned.
func (c *Controller) refreshIfStale(ctx context.Context, ep endpoint.Endpoint, key string, params value.Value, inf inference) error {
	var kept error
	cl := c.startUnless(ep, key, params, func() bool {
		r := c.response(ep.Spec(), key, inf)
		kept = r.Err // a kept error is the outcome of such a fetch that failed
		return r.Err != nil || r.ExpiryStatus == endpoint.Valid
	})
	if cl == nil {
		return kept
	}
	return c.await(ctx, key, cl)
}
