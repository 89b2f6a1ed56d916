// Package persist keeps a Go front end's cache across page loads: what
// JavaScript's df.persist does, for a go-app (or any Go) program. It
// restores the snapshot stored under a key (controller.Hydrate), unless it
// is older than MaxAge or was written with another Buster, then writes the
// controller's Snapshot after changes, at most once per Throttle.
//
// The stored text is the envelope df.persist writes,
// {"datafetch":1,"version":<snapshot version>,"savedAt":<ms>,"buster":"…","state":<snapshot>},
// so a Go and a JavaScript front end can read each other's data. The logic
// runs anywhere (tests pass a map); LocalStorage, the browser's storage,
// needs js/wasm.
package persist

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Defaults of Options, the same as df.persist's.
const (
	DefaultKey      = "datafetch"
	DefaultThrottle = time.Second
	DefaultMaxAge   = 24 * time.Hour
)

// envelopeVersion is the version of the envelope around the snapshot.
const envelopeVersion = 1

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
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// AfterFunc replaces time.AfterFunc for the throttle's timer (tests
	// fire it by hand).
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// OnError is told of a write that failed (nothing waits for writes);
	// nil drops such errors. The next change writes again.
	OnError func(error)
}

// Persister writes a controller's snapshot after its changes; Start
// returns it.
type Persister struct {
	c    *controller.Controller
	opts Options

	mu         sync.Mutex
	dirty      bool        // changed since the last write began
	timer      func() bool // the armed write, nil when none
	writtenAt  time.Time   // when the last write began
	stopped    bool
	stopListen func()
}

// Start restores the snapshot stored under opts.Key into c, then writes c's
// snapshot after every change, throttled. The restore is done when Start
// returns, so pages read the restored data on their first render. A stored
// snapshot that is too old, has another buster or another version is
// removed and not used; one that cannot be read is an error naming the key
// and what is wrong, and c is left as it was (the Persister still runs and
// overwrites it at the next change). Stop the Persister to end the writes.
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
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.AfterFunc == nil {
		opts.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	p := &Persister{c: c, opts: opts}
	err := p.restore()
	p.stopListen = c.Listen(p.changed)
	// What c held before, or took from the storage, is written too.
	p.changed()
	return p, err
}

// restore hydrates c from the storage.
func (p *Persister) restore() error {
	where := fmt.Sprintf("persist: key %q", p.opts.Key)
	text, ok, err := p.opts.Storage.GetItem(p.opts.Key)
	if err != nil {
		return fmt.Errorf("%s: reading the storage: %w", where, err)
	}
	if !ok {
		return nil
	}
	env, err := value.ParseString(text)
	if err != nil || env.Kind() != value.Object {
		return fmt.Errorf("%s: the stored text is not a persisted snapshot: %w", where, orNotObject(err))
	}
	savedAtMs, okAt := env.Get("savedAt").Float()
	var savedAt int64
	if okAt {
		// A reading of a clock: beyond a Date's range, the snapshot would
		// never be too old.
		if savedAt, err = schema.ClockMillis(savedAtMs); err != nil {
			return fmt.Errorf("%s: savedAt: %w", where, err)
		}
	}
	envelope, _ := env.Get("datafetch").Float()
	version, _ := env.Get("version").Float()
	age := p.opts.Now().Sub(time.UnixMilli(savedAt))
	if !okAt || envelope != envelopeVersion || version != float64(controller.SnapshotVersion) ||
		env.Get("buster").Str() != p.opts.Buster || age > p.opts.MaxAge {
		// Another build, another buster, or too old: start empty.
		if err := p.opts.Storage.RemoveItem(p.opts.Key); err != nil {
			return fmt.Errorf("%s: removing an outdated snapshot: %w", where, err)
		}
		return nil
	}
	if err := p.c.Hydrate(env.Get("state")); err != nil {
		return fmt.Errorf("%s: the stored snapshot was refused: %w", where, err)
	}
	return nil
}

func orNotObject(err error) error {
	if err != nil {
		return err
	}
	return errors.New("not a JSON object")
}

// changed marks the store changed and arms a write, when none is armed.
func (p *Persister) changed() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dirty = true
	p.armLocked()
}

func (p *Persister) armLocked() {
	if p.stopped || p.timer != nil || !p.dirty {
		return
	}
	wait := max(p.writtenAt.Add(p.opts.Throttle).Sub(p.opts.Now()), 0)
	p.timer = p.opts.AfterFunc(wait, p.fire)
}

// fire is the throttle's timer: it writes, then arms again if the store
// changed meanwhile.
func (p *Persister) fire() {
	p.mu.Lock()
	p.timer = nil
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	if err := p.Flush(); err != nil && p.opts.OnError != nil {
		p.opts.OnError(err)
	}
	p.mu.Lock()
	p.armLocked()
	p.mu.Unlock()
}

// Flush writes the snapshot now if the store changed since the last
// write, whatever the throttle.
func (p *Persister) Flush() error {
	p.mu.Lock()
	if !p.dirty {
		p.mu.Unlock()
		return nil
	}
	p.dirty = false
	now := p.opts.Now()
	p.writtenAt = now
	p.mu.Unlock()
	text := `{"datafetch":` + strconv.Itoa(envelopeVersion) +
		`,"version":` + strconv.Itoa(controller.SnapshotVersion) +
		`,"savedAt":` + strconv.FormatInt(schema.ClockTime(now), 10) +
		`,"buster":` + value.Str(p.opts.Buster).JSON() +
		`,"state":` + p.c.Snapshot().JSON() + `}`
	if err := p.opts.Storage.SetItem(p.opts.Key, text); err != nil {
		p.mu.Lock()
		p.dirty = true
		p.mu.Unlock()
		return fmt.Errorf("persist: key %q: writing the storage: %w", p.opts.Key, err)
	}
	return nil
}

// Stop ends the writes; call Flush first to keep the last changes. Clear
// removes what is stored. Calling Stop twice is harmless.
func (p *Persister) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.stopped = true
	if p.timer != nil {
		p.timer()
		p.timer = nil
	}
	p.stopListen()
}

// Clear stops p and removes the stored snapshot, so the next start begins
// empty.
func (p *Persister) Clear() error {
	p.Stop()
	if err := p.opts.Storage.RemoveItem(p.opts.Key); err != nil {
		return fmt.Errorf("persist: key %q: removing: %w", p.opts.Key, err)
	}
	return nil
}
