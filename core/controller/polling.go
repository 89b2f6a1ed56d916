package controller

import (
	"sync"
	"time"
)

// repeater calls a function every interval on the controller's timers
// (Options.AfterFunc) until it is stopped: the timer of the polling and
// garbage-collection managers.
type repeater struct {
	mu      sync.Mutex
	timer   func() bool // stops the pending timer
	stopped bool
}

// start calls f, on the timer's goroutine, every d after the previous call
// returned, until stop or until f returns false.
func (r *repeater) start(after func(time.Duration, func()) func() bool, d time.Duration, f func() bool) {
	var tick func()
	tick = func() {
		r.mu.Lock()
		over := r.stopped
		r.mu.Unlock()
		if over || !f() {
			return
		}
		r.mu.Lock()
		if !r.stopped {
			r.timer = after(d, tick)
		}
		r.mu.Unlock()
	}
	r.mu.Lock()
	r.timer = after(d, tick)
	r.mu.Unlock()
}

// stop stops the calls; the pending timer is stopped.
func (r *repeater) stop() {
	r.mu.Lock()
	r.stopped = true
	if r.timer != nil {
		r.timer()
	}
	r.mu.Unlock()
}

// pollingManager refetches the result of every subscription whose
// endpoint has a PollFrequency, every PollFrequency while it is
// subscribed, on the controller's timers, until Close. Subscriptions that
// only listen (NoFetch) or ask not to (NoPoll) are not polled. It is a
// manager, so that the subscription code knows nothing of timers: it
// starts a subscription's timer on its Subscribe event and stops it on
// Unsubscribe.
type pollingManager struct {
	c       *Controller
	mu      sync.Mutex
	polls   map[*Subscription]*repeater // the polled subscriptions
	stopped bool
}

func (p *pollingManager) wants() eventMask { return maskOf(Subscribe, Unsubscribe) }

// Start keeps c, whose timers it uses.
func (p *pollingManager) Start(c *Controller) { p.c = c }

// Event starts and stops the polling of subscriptions.
func (p *pollingManager) Event(ev Event) {
	s := ev.Sub
	p.mu.Lock()
	p.event(ev.Kind, s)
	p.mu.Unlock()
}

// event is Event with p.mu held.
func (p *pollingManager) event(kind EventKind, s *Subscription) {
	if kind == Unsubscribe {
		if r := p.polls[s]; r != nil {
			r.stop()
			delete(p.polls, s)
		}
		return
	}
	freq := s.ep.Spec().PollFrequency
	if freq <= 0 || s.opts.NoFetch || s.opts.NoPoll || p.stopped {
		return
	}
	if p.polls == nil {
		p.polls = map[*Subscription]*repeater{}
	}
	r := &repeater{}
	p.polls[s] = r
	c := p.c
	r.start(c.opts.AfterFunc, freq, func() bool {
		// s.closed is read too: its Unsubscribe may not have been told yet.
		c.lock()
		over := s.closed || c.closed
		c.unlock()
		if !over {
			c.startShared(s.ep, s.key, s.params)
		}
		return !over
	})
}

// Stop stops every subscription's polling.
func (p *pollingManager) Stop() {
	p.mu.Lock()
	p.stopped = true
	for s, r := range p.polls {
		r.stop()
		delete(p.polls, s)
	}
	p.mu.Unlock()
}
