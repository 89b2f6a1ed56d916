// Package persist is the persistence policy of a controller, written once
// for every front end: what is stored (the envelope around the
// controller's Snapshot), when (after changes, at most once per
// throttle), and the restore rule (which stored snapshot is taken, and
// how it merges with what the cache holds). The storage is the front
// end's: web/browser/persist gives localStorage to Go programs, and
// df.persist (jsbridge) any storage JavaScript has, through the bridge.
//
// The stored text is one JSON object, the envelope's members first and
// the snapshot last:
//
//	{"datafetch":1,"version":<snapshot version>,"savedAt":<ms>,"buster":"…","state":<snapshot>}
//
// A stored snapshot is taken (controller.Hydrate: what the cache fetched
// later wins) unless it was written with another envelope or snapshot
// version, another buster, or longer than MaxAge ago: then it is to be
// removed, and the cache starts as it is.
package persist

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// EnvelopeVersion is the version of the envelope around the snapshot.
const EnvelopeVersion = 1

// Storage is the front end's I/O: where the envelope's text is kept.
type Storage interface {
	// Save stores text in place of what is stored, then calls done once
	// with the outcome: before it returns for a synchronous storage, later
	// (on any goroutine) for an asynchronous one. The Manager makes one
	// Save at a time.
	Save(text string, done func(error))
}

// Options are the policy's settings. The zero values are not defaults:
// each front end has its own (web/browser/persist, df.persist).
type Options struct {
	Storage Storage
	// Throttle is the least time between the starts of two saves, by the
	// clock; a negative Throttle saves only on Flush.
	Throttle time.Duration
	// MaxAge: a stored snapshot saved longer ago than this is not taken;
	// a negative MaxAge takes any age.
	MaxAge time.Duration
	// Buster: a stored snapshot saved with another Buster is not taken.
	Buster string
	// Now and AfterFunc are the clock and the timers; nil are the
	// controller's (Controller.Now, Controller.AfterFunc). A timer may
	// fire early: the Manager then waits again for the rest.
	Now       func() time.Time
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// OnError is told of a save that failed with no Flush waiting for it;
	// nil drops such errors. The next change saves again.
	OnError func(error)
}

// Outcome is what Start did with the stored text.
type Outcome uint8

const (
	// Nothing was stored, or what was stored could not be read (Start's
	// error says why).
	Nothing Outcome = iota
	// Restored: the stored snapshot was merged into the cache.
	Restored
	// Dropped: the stored snapshot is outdated (another version or
	// buster, or too old); the caller removes it from the storage.
	Dropped
)

// Manager saves a controller's snapshot after its changes: a
// controller.Manager that Start adds.
type Manager struct {
	c      *controller.Controller
	opts   Options
	remove func()

	mu      sync.Mutex
	dirty   bool        // changed since the last save began
	timer   func() bool // the armed save, nil when none
	saving  bool        // a save is in flight
	saved   bool        // a save has begun: savedAt is set
	savedAt time.Time   // when the last save began
	stopped bool
	// restored is the snapshot Start is hydrating c with, while it does.
	restored value.Value
	// flushes wait for the save in flight.
	flushes []func(error)
}

// Start restores stored (found: the storage holds it) into c by the
// restore rule, then saves c's snapshot after each change, at most once
// per Throttle. What c held before Start is saved too; what it restored
// alone is not (it is what is stored). The returned error names what is
// wrong with a stored text that cannot be read or is refused (c is then
// left as it was); the Manager runs all the same, and its next save
// replaces that text. Stop the Manager to end the saves.
func Start(c *controller.Controller, opts Options, stored string, found bool) (*Manager, Outcome, error) {
	if opts.Now == nil {
		opts.Now = c.Now
	}
	if opts.AfterFunc == nil {
		opts.AfterFunc = c.AfterFunc
	}
	// m is told of changes before it looks at what c holds and restores:
	// a change another goroutine (or another manager, reacting to the
	// restore) makes meanwhile is saved too.
	m := &Manager{c: c, opts: opts}
	m.remove = c.AddManager(m)
	if holdsData(c.Snapshot()) {
		m.mu.Lock()
		m.dirty = true
		m.armLocked()
		m.mu.Unlock()
	}
	out, err := Nothing, error(nil)
	if found {
		out, err = m.restore(stored)
	}
	return m, out, err
}

// holdsData reports whether a snapshot holds any result or entity.
func holdsData(snap value.Value) bool {
	for _, k := range [...]string{"endpoints", "entities", "meta"} {
		if snap.Get(k).Len() > 0 {
			return true
		}
	}
	return false
}

// restore applies the restore rule to stored.
func (m *Manager) restore(stored string) (Outcome, error) {
	h, state, err := readEnvelope(stored)
	if err != nil {
		return Nothing, err
	}
	at := h.Get("savedAt")
	f, _ := at.Float()
	// A reading of a clock: beyond its range the snapshot would never be
	// too old. It is named as it is written, as JavaScript writes it.
	savedAt, err := schema.ClockMillis(f)
	if err != nil {
		return Nothing, errors.New("savedAt: " + at.Raw() + " is out of range (a time is epoch milliseconds within ±" +
			strconv.FormatInt(schema.MaxClock, 10) + ")")
	}
	age := schema.ClockTime(m.opts.Now()) - savedAt
	if h.Get("datafetch").Raw() != strconv.Itoa(EnvelopeVersion) || h.Get("version").Raw() != strconv.Itoa(controller.SnapshotVersion) ||
		h.Get("buster").Str() != m.opts.Buster || m.opts.MaxAge >= 0 && age > m.opts.MaxAge.Milliseconds() {
		return Dropped, nil
	}
	snap, err := value.ParseLazy(state)
	if err == nil {
		m.setRestored(snap)
		err = m.c.Hydrate(snap)
		// Its event, if it changed the store, has been told, unless
		// another goroutine was telling events: that one then tells it
		// later, and marks the cache changed (a save of what is stored).
		m.setRestored(value.Undef)
	} else {
		err = errors.New("hydrate: snapshot: " + err.Error())
	}
	if err != nil {
		return Nothing, fmtlite.Errorf("the stored snapshot was refused: %w", err)
	}
	return Restored, nil
}

// setRestored sets m.restored.
func (m *Manager) setRestored(snap value.Value) {
	m.mu.Lock()
	m.restored = snap
	m.mu.Unlock()
}

// readEnvelope splits stored into the envelope's header (its members but
// the snapshot) and the snapshot's text. A text as Manager saves it is
// split where the snapshot starts, so that a damaged snapshot is reported
// as the snapshot's fault (by hydrate); another is parsed whole.
func readEnvelope(stored string) (header value.Value, state string, err error) {
	if i := strings.Index(stored, stateMember); i > 0 && strings.HasSuffix(stored, "}") {
		if h, err := value.ParseLazy(stored[:i] + "}"); err == nil && isHeader(h) {
			return h, stored[i+len(stateMember) : len(stored)-1], nil
		}
	}
	env, err := value.ParseLazy(stored)
	if err != nil {
		return env, "", errors.New("the stored value is not JSON (" + err.Error() + ")")
	}
	st := env.Get("state")
	if !isHeader(env) || st.Kind() != value.Object {
		return env, "", errors.New("the stored value is not a datafetch snapshot (expected {datafetch, version, savedAt, buster, state})")
	}
	return env, st.JSON(), nil
}

// stateMember is what comes before the snapshot in a saved envelope.
const stateMember = `,"state":`

// isHeader reports whether v has an envelope's members, of their kinds.
func isHeader(v value.Value) bool {
	return v.Kind() == value.Object && v.Get("datafetch").Kind() == value.Number &&
		v.Get("savedAt").Kind() == value.Number && v.Get("buster").Kind() == value.String
}

// Envelope returns the text saved for snapshot at savedAt with buster.
func Envelope(snapshot value.Value, savedAt time.Time, buster string) string {
	return `{"datafetch":` + strconv.Itoa(EnvelopeVersion) +
		`,"version":` + strconv.Itoa(controller.SnapshotVersion) +
		`,"savedAt":` + strconv.FormatInt(schema.ClockTime(savedAt), 10) +
		`,"buster":` + value.Str(buster).JSON() +
		stateMember + snapshot.JSON() + `}`
}

// Start is the controller.Manager's: Start (the function) has set m up.
func (m *Manager) Start(*controller.Controller) {
	m.mu.Lock()
	m.armLocked()
	m.mu.Unlock()
}

// Event marks the cache changed by what changes a snapshot, and arms a
// save.
func (m *Manager) Event(ev controller.Event) {
	switch ev.Kind {
	case controller.FetchStart, controller.OptimisticEnqueue, controller.Subscribe, controller.Unsubscribe:
		return // the snapshot is as it was
	}
	m.mu.Lock()
	if ev.Kind == controller.Hydrate && value.Same(ev.Params, m.restored) {
		m.mu.Unlock()
		return // what Start restored is what is stored
	}
	m.dirty = true
	m.armLocked()
	m.mu.Unlock()
}

// wait returns how long the throttle still holds a save back.
func (m *Manager) wait() time.Duration {
	if !m.saved {
		return 0
	}
	return max(m.savedAt.Add(m.opts.Throttle).Sub(m.opts.Now()), 0)
}

// armLocked arms the timer of the next save, if one is due and none is
// armed or in flight (then its end arms it).
func (m *Manager) armLocked() {
	if m.stopped || m.timer != nil || m.saving || !m.dirty || m.opts.Throttle < 0 {
		return
	}
	m.timer = m.opts.AfterFunc(m.wait(), m.fire)
}

// fire is the timer: it saves, or waits again when it fired early.
func (m *Manager) fire() {
	m.mu.Lock()
	m.timer = nil
	if d := m.wait(); d > 0 {
		m.armLocked()
		m.mu.Unlock()
		return
	}
	if m.stopped || m.saving || !m.dirty {
		m.mu.Unlock()
		return
	}
	m.saveLocked(nil)
}

// saveLocked begins a save (m.mu held; it unlocks it). done, when set,
// is the Flush waiting for it; else a failure goes to OnError.
func (m *Manager) saveLocked(done func(error)) {
	if m.timer != nil { // a flush: the end of the save arms again
		m.timer()
		m.timer = nil
	}
	m.dirty, m.saving, m.saved = false, true, true
	m.savedAt = m.opts.Now()
	at := m.savedAt
	m.mu.Unlock()
	text := Envelope(m.c.Snapshot(), at, m.opts.Buster)
	m.opts.Storage.Save(text, func(err error) { m.saveDone(err, done) })
}

// saveDone ends a save: a failed one leaves the cache changed, to be
// saved again; the Flushes that waited for it go on.
func (m *Manager) saveDone(err error, done func(error)) {
	m.mu.Lock()
	m.saving = false
	if err != nil {
		m.dirty = true
	}
	waiting := m.flushes
	m.flushes = nil
	m.armLocked()
	m.mu.Unlock()
	switch {
	case done != nil:
		done(err)
	case err != nil && m.opts.OnError != nil:
		m.opts.OnError(err)
	}
	for _, f := range waiting {
		m.Flush(f)
	}
}

// Flush saves now, whatever the throttle, if the cache changed since the
// last save began, and calls done with the outcome (nil when there was
// nothing to save). A save in flight is waited for first (its failure was
// told where it began; the cache is then saved again).
func (m *Manager) Flush(done func(error)) {
	m.mu.Lock()
	switch {
	case m.saving:
		m.flushes = append(m.flushes, done)
		m.mu.Unlock()
	case !m.dirty:
		m.mu.Unlock()
		done(nil)
	default:
		m.saveLocked(done)
	}
}

// Stop ends the saves (Flush first to keep the last changes) and removes
// m from its controller; a save in flight still ends. A second Stop does
// nothing.
func (m *Manager) Stop() {
	m.mu.Lock()
	if m.stopped {
		m.mu.Unlock()
		return
	}
	m.stopped = true
	if m.timer != nil {
		m.timer()
		m.timer = nil
	}
	m.mu.Unlock()
	if m.remove != nil { // nil while AddManager stops m on a closed controller
		m.remove()
	}
}
