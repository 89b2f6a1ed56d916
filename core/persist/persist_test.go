package persist_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/persist"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/bookshelf"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// start is 2025-03-01 12:00 UTC, in ms: the fake clock's start.
const startMs = 1_740_830_400_000

// timers are fake timers the test fires by hand, on its own goroutine.
type timers struct{ armed []*timer }

type timer struct {
	d  time.Duration
	f  func()
	on bool
}

func (ts *timers) AfterFunc(d time.Duration, f func()) func() bool {
	t := &timer{d: d, f: f, on: true}
	ts.armed = append(ts.armed, t)
	return func() bool { was := t.on; t.on = false; return was }
}

// pending returns the waits of the timers armed and not fired nor stopped.
func (ts *timers) pending() []time.Duration {
	var out []time.Duration
	for _, t := range ts.armed {
		if t.on {
			out = append(out, t.d)
		}
	}
	return out
}

// fire fires the pending timers, early or not.
func (ts *timers) fire() {
	armed := ts.armed
	ts.armed = nil
	for _, t := range armed {
		if t.on {
			t.on = false
			t.f()
		}
	}
}

// storage keeps the saves; hold, when set, holds each save's done until
// release; fail fails the saves.
type storage struct {
	saves []string
	hold  bool
	held  []func(error)
	fail  error
}

func (s *storage) Save(text string, done func(error)) {
	if s.fail != nil {
		done(s.fail)
		return
	}
	s.saves = append(s.saves, text)
	if s.hold {
		s.held = append(s.held, done)
		return
	}
	done(nil)
}

func (s *storage) release(err error) {
	held := s.held
	s.held = nil
	for _, done := range held {
		done(err)
	}
}

type rig struct {
	clock   *testkit.Clock
	timers  *timers
	storage *storage
	errs    []error
}

func newRig() *rig {
	return &rig{clock: testkit.NewClock(time.UnixMilli(startMs)), timers: &timers{}, storage: &storage{}}
}

func (r *rig) controller() *controller.Controller {
	return controller.New(controller.Options{Now: r.clock.Now, AfterFunc: r.timers.AfterFunc})
}

func (r *rig) options() persist.Options {
	return persist.Options{Storage: r.storage, Throttle: time.Second, MaxAge: time.Hour,
		OnError: func(err error) { r.errs = append(r.errs, err) }}
}

func set(t *testing.T, c *controller.Controller, title string) {
	t.Helper()
	require.NoError(t, c.SetResponse(&bookshelf.Endpoint{}, value.Obj(), value.MustParse(`[{"id":"1","title":"`+title+`"}]`)))
}

func flush(m *persist.Manager) error {
	var got error
	m.Flush(func(err error) { got = err })
	return got
}

// TestSaveSchedule: the saves a sequence of changes, clock moves, timer
// firings and flushes makes, by the controller's clock and timers.
func TestSaveSchedule(t *testing.T) {
	type step struct {
		advance time.Duration
		change  string // SetResponse of this title
		fire    bool
		flush   bool
		gc      bool
		// then: the saves so far, and the timers pending after the step.
		saves   int
		pending []time.Duration
	}
	tests := []struct {
		name     string
		throttle time.Duration
		before   string // a title set before Start
		steps    []step
	}{
		{"a change is saved at once, later ones a throttle after the last save", time.Second, "", []step{
			{change: "one", pending: []time.Duration{0}},
			{fire: true, saves: 1},
			{advance: 300 * time.Millisecond, change: "two", saves: 1, pending: []time.Duration{700 * time.Millisecond}},
			{change: "three", saves: 1, pending: []time.Duration{700 * time.Millisecond}},
			{fire: true, saves: 1, pending: []time.Duration{700 * time.Millisecond}}, // early: waits the rest
			{advance: 700 * time.Millisecond, fire: true, saves: 2},
			{fire: true, saves: 2},
		}},
		{"flush saves at once, and only what changed", time.Second, "", []step{
			{flush: true, saves: 0},
			{change: "one", flush: true, saves: 1}, // the armed timer is stopped
			{change: "two", saves: 1, pending: []time.Duration{time.Second}},
			{flush: true, saves: 2},
			{fire: true, saves: 2},
			{flush: true, saves: 2},
		}},
		{"a negative throttle saves only on flush", -1, "", []step{
			{change: "one", saves: 0},
			{flush: true, saves: 1},
		}},
		{"what the controller held before is saved", time.Second, "before", []step{
			{pending: []time.Duration{0}},
			{fire: true, saves: 1},
		}},
		{"a sweep is a change", time.Second, "before", []step{
			{fire: true, saves: 1},
			{advance: time.Hour, gc: true, saves: 1, pending: []time.Duration{0}},
			{fire: true, saves: 2},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig()
			c := r.controller()
			if tt.before != "" {
				set(t, c, tt.before)
			}
			opts := r.options()
			opts.Throttle = tt.throttle
			m, out, err := persist.Start(c, opts, "", false)
			require.NoError(t, err)
			assert.Equal(t, persist.Nothing, out)
			defer m.Stop()
			for i, s := range tt.steps {
				r.clock.Advance(s.advance)
				if s.change != "" {
					set(t, c, s.change)
				}
				if s.gc {
					assert.Equal(t, 1, c.GC().Results)
				}
				if s.fire {
					r.timers.fire()
				}
				if s.flush {
					require.NoError(t, flush(m))
				}
				assert.Len(t, r.storage.saves, s.saves, "step %d: saves", i)
				assert.Equal(t, s.pending, r.timers.pending(), "step %d: timers", i)
			}
		})
	}
}

// TestSavedText: the envelope, stamped by the controller's clock.
func TestSavedText(t *testing.T) {
	r := newRig()
	c := r.controller()
	opts := r.options()
	opts.Buster = `v"2`
	m, _, err := persist.Start(c, opts, "", false)
	require.NoError(t, err)
	defer m.Stop()
	set(t, c, "one")
	r.timers.fire()
	require.Len(t, r.storage.saves, 1)
	assert.Equal(t, `{"datafetch":1,"version":1,"savedAt":1740830400000,"buster":"v\"2","state":`+c.Snapshot().JSON()+`}`, r.storage.saves[0])
}

// TestRestoreRule: which stored texts are taken, dropped or refused, and
// what the cache holds after.
func TestRestoreRule(t *testing.T) {
	// saved is the text a controller holding "stored" saves.
	r := newRig()
	c := r.controller()
	set(t, c, "stored")
	saved := persist.Envelope(c.Snapshot(), r.clock.Now(), "b")
	ep := &bookshelf.Endpoint{}
	fetchedAt := c.Snapshot().Get("meta").Get("books {}").Get("fetchedAt").Raw()

	tests := []struct {
		name    string
		text    string
		advance time.Duration
		buster  string
		maxAge  time.Duration // 0: an hour
		held    string        // a title the cache holds before, fetched a minute after the save
		out     persist.Outcome
		err     string
		title   string // the title read after; "" for none
		dirty   bool   // a save is armed after Start
	}{
		{name: "taken", text: saved, buster: "b", out: persist.Restored, title: "stored"},
		{name: "exactly MaxAge old", text: saved, buster: "b", advance: time.Hour, out: persist.Restored, title: "stored"},
		{name: "older than MaxAge", text: saved, buster: "b", advance: time.Hour + time.Millisecond, out: persist.Dropped},
		{name: "any age with a negative MaxAge", text: saved, buster: "b", maxAge: -1, advance: 200 * 365 * 24 * time.Hour, out: persist.Restored, title: "stored"},
		{name: "another buster", text: saved, buster: "c", out: persist.Dropped},
		{name: "another snapshot version", text: strings.Replace(saved, `"version":1`, `"version":99`, 1), buster: "b", out: persist.Dropped},
		{name: "another envelope version", text: strings.Replace(saved, `"datafetch":1`, `"datafetch":2`, 1), buster: "b", out: persist.Dropped},
		{name: "members in another order", text: `{"state":` + c.Snapshot().JSON() + `,"buster":"b","savedAt":1740830400000,"version":1,"datafetch":1}`,
			buster: "b", out: persist.Restored, title: "stored"},
		{name: "merged: what the cache fetched later wins", text: saved, buster: "b", held: "later", out: persist.Restored, title: "later", dirty: true},
		{name: "not JSON", text: "garbage", err: "the stored value is not JSON (invalid JSON at offset 0"},
		{name: "not an envelope", text: `{"a":1}`, err: "the stored value is not a datafetch snapshot (expected {datafetch, version, savedAt, buster, state})"},
		{name: "a damaged snapshot", text: saved[:len(saved)-20], buster: "b", err: "the stored snapshot was refused: hydrate: snapshot: invalid JSON at offset"},
		{name: "a refused snapshot", buster: "b", text: strings.Replace(saved, `"fetchedAt":`+fetchedAt, `"fetchedAt":1e300`, 1),
			err: `the stored snapshot was refused: hydrate: meta["books {}"].fetchedAt: 1e300 is out of range`},
		{name: "savedAt out of range", buster: "b", text: strings.Replace(saved, `"savedAt":1740830400000`, `"savedAt":9300000000000000000`, 1),
			err: "savedAt: 9300000000000000000 is out of range (a time is epoch milliseconds within ±8640000000000000)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig()
			c := r.controller()
			if tt.held != "" {
				r.clock.Advance(time.Minute)
				set(t, c, tt.held)
			}
			r.clock.Advance(tt.advance)
			before := c.Snapshot().JSON()
			opts := r.options()
			opts.Buster = tt.buster
			if tt.maxAge != 0 {
				opts.MaxAge = tt.maxAge
			}
			m, out, err := persist.Start(c, opts, tt.text, true)
			require.NotNil(t, m)
			defer m.Stop()
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.Equal(t, before, c.Snapshot().JSON(), "the cache is as it was")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.out, out)
			got := c.GetResponse(ep, value.Obj())
			if tt.title == "" {
				assert.Equal(t, endpoint.Missing, got.ExpiryStatus)
			} else {
				assert.Equal(t, tt.title, got.Data.Elems()[0].Get("title").Str())
			}
			assert.Equal(t, tt.dirty, len(r.timers.pending()) > 0, "a save is armed")
		})
	}
}

// TestAsynchronousStorage: one save at a time; a flush during a save waits
// for it, then saves what changed since.
func TestAsynchronousStorage(t *testing.T) {
	r := newRig()
	r.storage.hold = true
	c := r.controller()
	m, _, err := persist.Start(c, r.options(), "", false)
	require.NoError(t, err)
	defer m.Stop()
	set(t, c, "one")
	r.timers.fire()
	require.Len(t, r.storage.saves, 1)
	set(t, c, "two")
	assert.Empty(t, r.timers.pending(), "no timer while a save is in flight")
	var flushed []error
	m.Flush(func(err error) { flushed = append(flushed, err) })
	assert.Len(t, r.storage.saves, 1, "the flush waits for the save in flight")
	r.storage.release(errors.New("quota"))
	require.Len(t, r.storage.saves, 2, "then saves what changed")
	assert.Contains(t, r.storage.saves[1], `"two"`)
	assert.Empty(t, flushed, "until that save ends")
	require.Len(t, r.errs, 1, "the background save's failure is told to OnError")
	r.storage.release(nil)
	assert.Equal(t, []error{nil}, flushed)
	assert.Len(t, r.errs, 1)
}

// TestFailedSaveIsTriedAgain: a failed save leaves the cache changed; the
// next timer saves it again.
func TestFailedSaveIsTriedAgain(t *testing.T) {
	r := newRig()
	boom := errors.New("quota exceeded")
	r.storage.fail = boom
	c := r.controller()
	m, _, err := persist.Start(c, r.options(), "", false)
	require.NoError(t, err)
	defer m.Stop()
	set(t, c, "one")
	r.timers.fire()
	require.Len(t, r.errs, 1)
	assert.ErrorIs(t, r.errs[0], boom)
	assert.Equal(t, []time.Duration{time.Second}, r.timers.pending(), "tried again a throttle later")
	assert.ErrorIs(t, flush(m), boom, "a flush is told its own failure")
	assert.Len(t, r.errs, 1, "not OnError")
	r.storage.fail = nil
	r.clock.Advance(time.Second)
	r.timers.fire()
	assert.Len(t, r.storage.saves, 1)
}

// TestStop: no save after Stop, from timers or changes; Close stops too.
func TestStop(t *testing.T) {
	for _, end := range []string{"Stop", "Close"} {
		t.Run(end, func(t *testing.T) {
			r := newRig()
			c := r.controller()
			m, _, err := persist.Start(c, r.options(), "", false)
			require.NoError(t, err)
			set(t, c, "one")
			require.Len(t, r.timers.pending(), 1)
			if end == "Stop" {
				m.Stop()
				m.Stop()
			} else {
				c.Close()
			}
			assert.Empty(t, r.timers.pending(), "the armed save is stopped")
			set(t, c, "two")
			r.timers.fire()
			assert.Empty(t, r.storage.saves)
			m.Stop()
		})
	}
}

// onHydrate is a manager that calls f when a snapshot changes the store.
type onHydrate struct{ f func() }

func (h *onHydrate) Start(*controller.Controller) {}
func (h *onHydrate) Stop()                        {}
func (h *onHydrate) Event(ev controller.Event) {
	if ev.Kind == controller.Hydrate {
		h.f()
	}
}

// TestChangeDuringStartIsSaved: a change made while Start restores (here
// by another manager, reacting to the restore) is saved; the restore
// alone is not (TestRestoreRule's "taken").
func TestChangeDuringStartIsSaved(t *testing.T) {
	r := newRig()
	src := r.controller()
	set(t, src, "stored")
	saved := persist.Envelope(src.Snapshot(), r.clock.Now(), "")
	c := r.controller()
	r.clock.Advance(time.Minute)
	c.AddManager(&onHydrate{f: func() { set(t, c, "meanwhile") }})
	m, out, err := persist.Start(c, r.options(), saved, true)
	require.NoError(t, err)
	defer m.Stop()
	require.Equal(t, persist.Restored, out)
	require.Equal(t, []time.Duration{0}, r.timers.pending(), "a save is armed")
	r.timers.fire()
	require.Len(t, r.storage.saves, 1)
	assert.Contains(t, r.storage.saves[0], `"title":"meanwhile"`)
}
