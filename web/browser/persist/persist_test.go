package persist_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/bookshelf"
	"github.com/datafetch/datafetch/web/browser/persist"
)

// memory is a Storage in a map; fail, when set, fails every call.
type memory struct {
	items map[string]string
	fail  error
}

func (m *memory) GetItem(key string) (string, bool, error) {
	if m.fail != nil {
		return "", false, m.fail
	}
	s, ok := m.items[key]
	return s, ok, nil
}

func (m *memory) SetItem(key, text string) error {
	if m.fail != nil {
		return m.fail
	}
	m.items[key] = text
	return nil
}

func (m *memory) RemoveItem(key string) error {
	if m.fail != nil {
		return m.fail
	}
	delete(m.items, key)
	return nil
}

// timers are AfterFunc timers fired by hand.
type timers struct {
	armed []timer
}

type timer struct {
	d  time.Duration
	f  func()
	on *bool
}

func (ts *timers) AfterFunc(d time.Duration, f func()) func() bool {
	on := true
	ts.armed = append(ts.armed, timer{d, f, &on})
	return func() bool { was := on; on = false; return was }
}

// fire runs the armed timers and reports the waits they were armed with.
func (ts *timers) fire() []time.Duration {
	armed := ts.armed
	ts.armed = nil
	var waits []time.Duration
	for _, t := range armed {
		if *t.on {
			*t.on = false
			waits = append(waits, t.d)
			t.f()
		}
	}
	return waits
}

// clock is a settable clock.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type rig struct {
	store  *memory
	clock  *clock
	timers *timers
}

func newRig() *rig {
	return &rig{
		store:  &memory{items: map[string]string{}},
		clock:  &clock{time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)},
		timers: &timers{},
	}
}

func (r *rig) controller() *controller.Controller {
	return controller.New(controller.Options{Now: r.clock.Now})
}

func (r *rig) options() persist.Options {
	return persist.Options{Storage: r.store, Key: "k", Now: r.clock.Now, AfterFunc: r.timers.AfterFunc, Throttle: time.Second}
}

func TestRoundTripServesWithoutRequest(t *testing.T) {
	r := newRig()
	ep := &bookshelf.Endpoint{}
	c1 := r.controller()
	p1, err := persist.Start(c1, r.options())
	require.NoError(t, err)
	defer p1.Stop()
	assert.Empty(t, r.store.items, "nothing is written before a timer fires")

	_, err = c1.Fetch(context.Background(), ep, value.Obj(), nil)
	require.NoError(t, err)
	r.timers.fire()
	text := r.store.items["k"]
	require.True(t, strings.HasPrefix(text, `{"datafetch":1,"version":1,"savedAt":`+
		"1740830400000"+`,"buster":"","state":{`), text)

	c2 := r.controller()
	p2, err := persist.Start(c2, r.options())
	require.NoError(t, err)
	defer p2.Stop()
	got, err := c2.Suspense(context.Background(), ep, value.Obj())
	require.NoError(t, err)
	assert.Equal(t, 1, ep.Calls, "the restored result is read with no request")
	assert.Equal(t, "two", got.Elems()[1].Get("title").Str())
}

func TestWritesAreThrottled(t *testing.T) {
	r := newRig()
	ep := &bookshelf.Endpoint{}
	c := r.controller()
	p, err := persist.Start(c, r.options())
	require.NoError(t, err)
	defer p.Stop()
	_, err = c.Fetch(context.Background(), ep, value.Obj(), nil)
	require.NoError(t, err)
	assert.Equal(t, []time.Duration{0}, r.timers.fire(), "the first write waits for nothing")
	first := r.store.items["k"]

	r.clock.t = r.clock.t.Add(300 * time.Millisecond)
	require.NoError(t, c.Invalidate(ep, value.Obj()))
	_, err = c.Fetch(context.Background(), ep, value.Obj(), nil)
	require.NoError(t, err)
	assert.Equal(t, first, r.store.items["k"], "not written before the timer")
	assert.Equal(t, []time.Duration{700 * time.Millisecond}, r.timers.fire(), "one write for both changes, a throttle after the last")
	assert.Equal(t, first, r.store.items["k"], "a timer that fires early waits again")
	r.clock.t = r.clock.t.Add(700 * time.Millisecond)
	assert.Equal(t, []time.Duration{700 * time.Millisecond}, r.timers.fire(), "for the rest")
	assert.NotEqual(t, first, r.store.items["k"])
	assert.Empty(t, r.timers.fire(), "nothing changed since: no timer")
}

func TestOutdatedSnapshotsAreDropped(t *testing.T) {
	tests := []struct {
		name string
		edit func(o *persist.Options, r *rig)
	}{
		{"older than MaxAge", func(_ *persist.Options, r *rig) { r.clock.t = r.clock.t.Add(persist.DefaultMaxAge + time.Minute) }},
		{"another buster", func(o *persist.Options, _ *rig) { o.Buster = "v2" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig()
			ep := &bookshelf.Endpoint{}
			c1 := r.controller()
			p1, err := persist.Start(c1, r.options())
			require.NoError(t, err)
			_, err = c1.Fetch(context.Background(), ep, value.Obj(), nil)
			require.NoError(t, err)
			r.timers.fire()
			p1.Stop()
			require.Contains(t, r.store.items, "k")

			opts := r.options()
			tt.edit(&opts, r)
			c2 := r.controller()
			p2, err := persist.Start(c2, opts)
			require.NoError(t, err)
			defer p2.Stop()
			assert.NotContains(t, r.store.items, "k", "removed")
			assert.True(t, c2.GetResponse(ep, value.Obj()).Data.IsUndefined(), "not restored")
		})
	}
}

func TestUnreadableSnapshotIsAnErrorStoreIntact(t *testing.T) {
	for _, text := range []string{`garbage`, `[1]`, `{"datafetch":1,"version":1,"savedAt":1740830400000,"buster":"","state":{"version":1,"entities":7}}`} {
		r := newRig()
		r.store.items["k"] = text
		c := r.controller()
		ep := &bookshelf.Endpoint{}
		require.NoError(t, c.SetResponse(ep, value.Obj(), value.MustParse(`[{"id":"9","title":"kept"}]`)))
		p, err := persist.Start(c, r.options())
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), `persist: key "k"`)
		require.NotNil(t, p, "it still runs")
		p.Stop()
		assert.Equal(t, "kept", c.GetResponse(ep, value.Obj()).Data.Elems()[0].Get("title").Str(), "the store is intact")
	}
}

// TestOutOfRangeTimesAreRefused: a stored snapshot with a time out of range
// (in its state, which used to be taken and outlive every fetch, or its
// savedAt, which made it never too old) is an error naming the time; the
// store is intact and a later fetch is stored.
func TestOutOfRangeTimesAreRefused(t *testing.T) {
	r := newRig()
	ep := &bookshelf.Endpoint{}
	c1 := r.controller()
	p1, err := persist.Start(c1, r.options())
	require.NoError(t, err)
	_, err = c1.Fetch(context.Background(), ep, value.Obj(), nil)
	require.NoError(t, err)
	require.NoError(t, p1.Flush())
	p1.Stop()
	good := strings.Replace(r.store.items["k"], `"title":"one"`, `"title":"poisoned"`, 1)
	fetchedAt := c1.Snapshot().Get("meta").Get("books {}").Get("fetchedAt").Raw()
	tests := []struct{ name, text, err string }{
		{"fetchedAt", strings.Replace(good, `"fetchedAt":`+fetchedAt, `"fetchedAt":1e300`, 1),
			`persist: key "k": the stored snapshot was refused: hydrate: meta["books {}"].fetchedAt: 1e300 is out of range (a time is epoch milliseconds within ±9007199254740991)`},
		{"fetchedAt near 2^63", strings.Replace(good, `"fetchedAt":`+fetchedAt, `"fetchedAt":9300000000000000000`, 1),
			`persist: key "k": the stored snapshot was refused: hydrate: meta["books {}"].fetchedAt: 9300000000000000000 is out of range (a time is epoch milliseconds within ±9007199254740991)`},
		{"savedAt", strings.Replace(good, `"savedAt":1740830400000`, `"savedAt":1e300`, 1),
			`persist: key "k": savedAt: 1e300 is out of range (a time is epoch milliseconds within ±8640000000000000)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotEqual(t, good, tt.text)
			r.store.items["k"] = tt.text
			c := r.controller()
			p, err := persist.Start(c, r.options())
			assert.EqualError(t, err, tt.err)
			p.Stop()
			assert.Equal(t, controller.New(controller.Options{}).State().JSON(), c.State().JSON(), "the store is intact")
			got, err := c.Fetch(context.Background(), ep, value.Obj(), nil)
			require.NoError(t, err)
			assert.Equal(t, "one", got.Elems()[0].Get("title").Str(), "a fetch is stored")
		})
	}
}

func TestStorageErrorsAreReported(t *testing.T) {
	r := newRig()
	boom := errors.New("quota exceeded")
	r.store.fail = boom
	c := r.controller()
	var reported []error
	opts := r.options()
	opts.OnError = func(err error) { reported = append(reported, err) }
	p, err := persist.Start(c, opts)
	require.ErrorIs(t, err, boom)
	defer p.Stop()
	require.NoError(t, c.SetResponse(&bookshelf.Endpoint{}, value.Obj(), value.MustParse(`[]`)))
	r.timers.fire()
	require.Len(t, reported, 1)
	assert.ErrorIs(t, reported[0], boom)
	assert.Contains(t, reported[0].Error(), "writing the storage")

	r.store.fail = nil
	r.clock.t = r.clock.t.Add(time.Second)
	assert.Equal(t, []time.Duration{time.Second}, r.timers.fire(), "a throttle later")
	assert.Contains(t, r.store.items, "k", "a failed write is tried again")
}

func TestStopAndClear(t *testing.T) {
	r := newRig()
	c := r.controller()
	p, err := persist.Start(c, r.options())
	require.NoError(t, err)
	require.NoError(t, c.SetResponse(&bookshelf.Endpoint{}, value.Obj(), value.MustParse(`[]`)))
	require.NoError(t, p.Flush())
	require.Contains(t, r.store.items, "k")
	require.NoError(t, p.Clear())
	assert.NotContains(t, r.store.items, "k")
	require.NoError(t, c.SetResponse(&bookshelf.Endpoint{}, value.Obj(), value.MustParse(`[{"id":"1"}]`)))
	assert.Empty(t, r.timers.fire(), "stopped: no write armed")
	assert.NotContains(t, r.store.items, "k")
}
