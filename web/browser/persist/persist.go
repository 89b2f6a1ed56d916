// Package persist keeps a Go front end's cache across page loads: what
// JavaScript's df.persist does, for a go-app (or any Go) program. It
// restores the snapshot stored under a key (controller.Hydrate), unless it
// is older than MaxAge or was written with another Buster, then writes the
// controller's Snapshot after changes, at most once per Throttle.
//
// The policy (the envelope, the restore rule, when to write) is
// core/persist's, which df.persist runs too, so a Go and a JavaScript
// front end read each other's data; this package gives it a Storage.
// It runs anywhere (tests pass a map); LocalStorage, the browser's
// storage, needs js/wasm.
package persist

import (
	"errors"
	"fmt"
	"time"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/persist"
)

// Defaults of Options, the same as df.persist's.
const (
	DefaultKey      = "datafetch"
	DefaultThrottle = time.Second
	DefaultMaxAge   = 24 * time.Hour
)

// Storage is where the snapshot is kept: localStorage's three methods.
// GetItem reports ok false when nothing is stored under key.
type Storage interface {
	GetItem(key string) (text string, ok bool, err error)
	SetItem(key, text string) error
	RemoveItem(key string) error
}

// Options configure Start. Storage is required; the rest have defaults.
type Options struct {
	Storage Storage
	// Key is the storage key; "" is DefaultKey.
	Key string
	// Throttle is the least time between two writes; 0 is DefaultThrottle.
	Throttle time.Duration
	// MaxAge drops a stored snapshot written longer ago than this; 0 is
	// DefaultMaxAge.
	MaxAge time.Duration
	// Buster drops a stored snapshot written with another Buster: change
	// it when the data's shape changes.
	Buster string
	// Now is the clock; nil is the controller's (Options.Now).
	Now func() time.Time
	// AfterFunc is the throttle's timers; nil is the controller's
	// (Options.AfterFunc, which tests fire by hand).
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// OnError is told of a write that failed (nothing waits for writes);
	// nil drops such errors. The next change writes again.
	OnError func(error)
}

// Persister writes a controller's snapshot after its changes; Start
// returns it.
type Persister struct {
	m    *persist.Manager
	opts Options
}

// Start restores the snapshot stored under opts.Key into c, then writes c's
// snapshot after every change, throttled (what c held before Start is
// written too). The restore is done when Start returns, so pages read the
// restored data on their first render. A stored snapshot that is too old,
// has another buster or another version is removed and not used; one that
// cannot be read is an error naming the key and what is wrong, and c is
// left as it was (the Persister still runs and overwrites it at the next
// change). Stop the Persister to end the writes.
func Start(c *controller.Controller, opts Options) (*Persister, error) {
	if opts.Storage == nil {
		return nil, errors.New("persist: Options.Storage is nil")
	}
	if opts.Key == "" {
		opts.Key = DefaultKey
	}
	if opts.Throttle <= 0 {
		opts.Throttle = DefaultThrottle
	}
	if opts.MaxAge <= 0 {
		opts.MaxAge = DefaultMaxAge
	}
	p := &Persister{opts: opts}
	text, found, readErr := opts.Storage.GetItem(opts.Key)
	m, out, err := persist.Start(c, persist.Options{
		Storage: storage{opts.Storage, opts.Key}, Throttle: opts.Throttle, MaxAge: opts.MaxAge, Buster: opts.Buster,
		Now: opts.Now, AfterFunc: opts.AfterFunc, OnError: opts.OnError,
	}, text, found && readErr == nil)
	p.m = m
	switch {
	case readErr != nil:
		return p, p.errorf("reading the storage: %w", readErr)
	case err != nil:
		return p, p.errorf("%w", err)
	case out == persist.Dropped:
		if err := opts.Storage.RemoveItem(opts.Key); err != nil {
			return p, p.errorf("removing an outdated snapshot: %w", err)
		}
	}
	return p, nil
}

func (p *Persister) errorf(format string, args ...any) error {
	return fmt.Errorf("persist: key %q: "+format, append([]any{p.opts.Key}, args...)...)
}

// storage is a Storage as core/persist saves to it.
type storage struct {
	s   Storage
	key string
}

func (s storage) Save(text string, done func(error)) {
	if err := s.s.SetItem(s.key, text); err != nil {
		done(fmt.Errorf("persist: key %q: writing the storage: %w", s.key, err))
		return
	}
	done(nil)
}

// Flush writes the snapshot now if the store changed since the last
// write, whatever the throttle.
func (p *Persister) Flush() error {
	ch := make(chan error, 1)
	p.m.Flush(func(err error) { ch <- err })
	return <-ch
}

// Stop ends the writes; call Flush first to keep the last changes. Clear
// removes what is stored. Calling Stop twice is harmless.
func (p *Persister) Stop() { p.m.Stop() }

// Clear stops p and removes the stored snapshot, so the next start begins
// empty.
func (p *Persister) Clear() error {
	p.Stop()
	if err := p.opts.Storage.RemoveItem(p.opts.Key); err != nil {
		return p.errorf("removing: %w", err)
	}
	return nil
}
