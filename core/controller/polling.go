package controller

import (
	"sync"
	"time"
)

// pollingManager refetches the result of every subscription whose
// endpoint has a PollFrequency, every PollFrequency while it is
// subscribed, on the controller's timers (Options.AfterFunc), until Close.
// Subscriptions that only listen (NoFetch) or ask not to (NoPoll) are not
// polled. It is a manager, so that the subscription code knows nothing of
// timers: it starts a subscription's timer on its Subscribe event and
// stops it on Unsubscribe.
type pollingManager struct {
	c  *Controller
	mu sync.Mutex
	// polls holds the stop of each polled subscription's pending timer;
	// a subscription is polled while it is in the map.
	polls   map[*Subscription]func() bool
	stopped bool
}

func (p *pollingManager) wants() eventMask { return maskOf(Subscribe, Unsubscribe) }

// Start keeps c, whose timers it uses.
func (p *pollingManager) Start(c *Controller) { p.c = c }

// Event starts and stops the polling of subscriptions.
func (p *pollingManager) Event(ev Event) {
	s := ev.Sub
	switch ev.Kind {
	case Subscribe:
		freq := s.ep.Spec().PollFrequency
		if freq <= 0 || s.opts.NoFetch || s.opts.NoPoll {
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.stopped {
			return
		}
		if p.polls == nil {
			p.polls = map[*Subscription]func() bool{}
		}
		p.schedule(s, freq)
	case Unsubscribe:
		p.mu.Lock()
		defer p.mu.Unlock()
		if stop, ok := p.polls[s]; ok {
			stop()
			delete(p.polls, s)
		}
	}
}

// schedule starts s's next timer (p.mu held).
func (p *pollingManager) schedule(s *Subscription, freq time.Duration) {
	p.polls[s] = p.c.opts.AfterFunc(freq, func() { p.tick(s, freq) })
}

// tick refetches s's result, as a shared request in the background, and
// schedules the next tick, unless s has ended or the controller closed
// meanwhile: s.closed is read too, as an unsubscription may not have been
// told yet.
func (p *pollingManager) tick(s *Subscription, freq time.Duration) {
	p.mu.Lock()
	_, live := p.polls[s]
	p.mu.Unlock()
	c := p.c
	c.mu.Lock()
	over := s.closed || c.closed
	c.mu.Unlock()
	if !live || over {
		return
	}
	c.startShared(s.ep, s.key, s.params)
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, live := p.polls[s]; live && !p.stopped {
		p.schedule(s, freq)
	}
}

// Stop stops every subscription's polling.
func (p *pollingManager) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	for s, stop := range p.polls {
		stop()
		delete(p.polls, s)
	}
}
