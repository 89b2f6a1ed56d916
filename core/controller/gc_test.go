package controller_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

var (
	gcAuthor  = &schema.Entity{Key: "GCAuthor", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	gcArticle = &schema.Entity{Key: "GCArticle", Defaults: value.MustParse(`{"id":null,"title":"","author":null}`),
		Schema: map[string]schema.Schema{"author": gcAuthor}}
)

// gcEndpoint is a read endpoint of schema s whose data the tests store with
// SetResponse; a fetch (which no test here expects) fails.
func gcEndpoint(name string, s schema.Schema, expiry time.Duration) *funcEndpoint {
	return &funcEndpoint{name: name, spec: endpoint.Spec{Name: name, Schema: s, DataExpiryLength: expiry},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			return value.Undef, errors.New("no fetch expected")
		}}
}

// articles returns a list of articles with the given ids, article i
// written by author "a<i mod 2>".
func articles(ids ...int) value.Value {
	out := make([]value.Value, len(ids))
	for i, id := range ids {
		out[i] = value.MustParse(fmt.Sprintf(`{"id":"%d","title":"t%d","author":{"id":"a%d","name":"n%d"}}`, id, id, id%2, id%2))
	}
	return value.Arr(out...)
}

// stored lists the entities State shows, as "Key/pk", sorted, and the
// result keys it shows.
func stored(c *controller.Controller) (entities, results []string) {
	st := c.State()
	for _, table := range st.Get("entities").Members() {
		for _, rec := range table.Value.Members() {
			entities = append(entities, table.Key+"/"+rec.Key)
		}
	}
	for _, m := range st.Get("meta").Members() {
		results = append(results, m.Key)
	}
	sort.Strings(entities)
	sort.Strings(results)
	return entities, results
}

func mustKey(t *testing.T, ep endpoint.Endpoint, p value.Value) string {
	t.Helper()
	k, err := ep.Key(p)
	require.NoError(t, err)
	return k
}

// An unheld result goes once expiresAt + (multiplier − 1) × its expiry
// length is before the clock, and its entities with it; not before.
func TestGCStretchedExpiry(t *testing.T) {
	for _, tc := range []struct {
		name       string
		multiplier float64
		after      time.Duration
		removed    bool
	}{
		{"fresh", 2, 30 * time.Second, false},
		{"stale, not stretched past", 2, 90 * time.Second, false},
		{"at the stretched expiry", 2, 2 * time.Minute, false},
		{"past the stretched expiry", 2, 2*time.Minute + time.Millisecond, true},
		{"multiplier 1: just past expiry", 1, time.Minute + time.Millisecond, true},
		{"multiplier 3", 3, 2*time.Minute + time.Millisecond, false},
		{"multiplier 1.5", 1.5, 90*time.Second + time.Millisecond, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newClock()
			c := controller.New(controller.Options{Now: clk.Now,
				GC: &controller.GCOptions{Interval: -1, ExpiryMultiplier: tc.multiplier}})
			list := gcEndpoint("list", schema.ArrayOf(gcArticle), time.Minute)
			require.NoError(t, c.SetResponse(list, value.Obj(), articles(1, 2)))
			clk.Advance(tc.after)

			stats := c.GC()

			ents, results := stored(c)
			r := c.GetResponse(list, value.Obj())
			if tc.removed {
				assert.Equal(t, controller.GCStats{Results: 1, Entities: 4, Keys: []string{mustKey(t, list, value.Obj())}}, stats)
				assert.Equal(t, endpoint.Missing, r.ExpiryStatus)
				assert.Empty(t, ents)
				assert.Empty(t, results)
			} else {
				assert.Equal(t, controller.GCStats{}, stats)
				assert.NotEqual(t, endpoint.Missing, r.ExpiryStatus)
				assert.Equal(t, []string{"GCArticle/1", "GCArticle/2", "GCAuthor/a0", "GCAuthor/a1"}, ents)
				assert.Equal(t, []string{mustKey(t, list, value.Obj())}, results)
			}
		})
	}
}

// A held result and everything it reaches survive any number of sweeps,
// reading the identical value; an unheld expired result next to it goes,
// with the entities only it reached, while those it shares stay.
func TestGCKeepsHeldResults(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	list := gcEndpoint("list", schema.ArrayOf(gcArticle), time.Minute)
	other := gcEndpoint("other", schema.ArrayOf(gcArticle), time.Minute)
	require.NoError(t, c.SetResponse(list, value.Obj(), articles(1, 2)))
	require.NoError(t, c.SetResponse(other, value.Obj(), articles(2, 3, 4)))

	var told []controller.State
	unsubscribe, err := c.SubscribeWith(list, value.Obj(), func(s controller.State) { told = append(told, s) },
		controller.SubscribeOptions{NoFetch: true})
	require.NoError(t, err)
	defer unsubscribe()
	before := c.GetResponse(list, value.Obj()).Data
	firstAuthor := before.Elems()[0].Get("author")

	clk.Advance(24 * time.Hour)
	stats := c.GC()

	assert.Equal(t, 1, stats.Results, "other goes")
	assert.Equal(t, 2, stats.Entities, "articles 3, 4 go")
	assert.Len(t, stats.Keys, 1, "the key of the result removed")
	ents, results := stored(c)
	assert.Equal(t, []string{"GCArticle/1", "GCArticle/2", "GCAuthor/a0", "GCAuthor/a1"}, ents)
	assert.Equal(t, []string{mustKey(t, list, value.Obj())}, results)
	after := c.GetResponse(list, value.Obj())
	assert.True(t, value.Same(before, after.Data), "a sweep never changes what a held result reads")
	assert.True(t, value.Same(firstAuthor, after.Data.Elems()[0].Get("author")))
	assert.Equal(t, endpoint.Stale, after.ExpiryStatus)
	assert.Equal(t, endpoint.Missing, c.GetResponse(other, value.Obj()).ExpiryStatus)
	assert.Len(t, told, 1, "subscribers hear nothing of a sweep")
	require.NoError(t, c.Invalidate(other, params("x"))) // a change elsewhere: time passing is no news to the subscriber
	assert.Len(t, told, 1)
	c.ExpireAll(func(k string) bool { return k == mustKey(t, list, value.Obj()) }) // a change of its own: the same data, stale
	require.Len(t, told, 2)
	assert.True(t, value.Same(before, told[1].Data))
	assert.Equal(t, endpoint.Stale, told[1].ExpiryStatus)

	// Released, it goes at the next sweep.
	unsubscribe()
	stats = c.GC()
	assert.Equal(t, 2, stats.Results, "list, and the mark Invalidate left")
	assert.Equal(t, 4, stats.Entities)
	assert.Equal(t, []string{mustKey(t, list, value.Obj()), stats.Keys[1]}, stats.Keys, "their keys, sorted")
	ents, results = stored(c)
	assert.Empty(t, ents)
	assert.Empty(t, results)
}

// An entity reached from a kept result stays though its own expiry has
// passed long ago; an unreached one goes once its own stretched expiry has
// passed, and not before.
func TestGCEntities(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	long := gcEndpoint("long", schema.ArrayOf(gcArticle), time.Hour)
	short := gcEndpoint("short", gcArticle, time.Second)
	require.NoError(t, c.SetResponse(long, value.Obj(), articles(1)))
	// Article 1 stored again by a short-lived response: its own expiry is
	// now that one's. Article 5 only ever came in such responses.
	require.NoError(t, c.SetResponse(short, params("1"), articles(1).Elems()[0]))
	require.NoError(t, c.SetResponse(short, params("5"), articles(5).Elems()[0]))
	// Article 7 arrives later, and is not yet expired long enough.
	clk.Advance(10 * time.Second)
	require.NoError(t, c.SetResponse(short, params("7"), value.MustParse(`{"id":"7","title":"t7","author":{"id":"a9","name":"n9"}}`)))
	clk.Advance(time.Second + time.Millisecond) // article 7 stale, not gone by 2×

	stats := c.GC()

	assert.Equal(t, controller.GCStats{Results: 2, Entities: 1, Keys: []string{mustKey(t, short, params("1")), mustKey(t, short, params("5"))}}, stats,
		"short 1 and short 5 go; article 5 goes")
	ents, _ := stored(c)
	assert.Equal(t, []string{"GCArticle/1", "GCArticle/7", "GCAuthor/a1", "GCAuthor/a9"}, ents,
		"article 1 stays (reached), author a1 stays (reached through it), article 7 stays (not gone yet)")
	assert.Equal(t, endpoint.Missing, c.GetResponse(short, params("5")).ExpiryStatus)
	r := c.GetResponse(long, value.Obj())
	require.Equal(t, endpoint.Valid, r.ExpiryStatus)
	assert.Equal(t, "n1", r.Data.Elems()[0].Get("author").Get("name").Str())

	clk.Advance(time.Minute)
	stats = c.GC()
	assert.Equal(t, controller.GCStats{Results: 1, Entities: 2, Keys: []string{mustKey(t, short, params("7"))}}, stats, "short 7 goes, then article 7 and author a9")
}

// What a pending optimistic write touches stays: its records, the result it
// writes, and what they reach, however old; after the rollback a sweep
// takes them.
func TestGCKeepsPendingOptimisticWrites(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	read := gcEndpoint("read", gcArticle, time.Second)
	require.NoError(t, c.SetResponse(read, params("1"), articles(1).Elems()[0]))

	gate := make(chan struct{})
	edit := &funcEndpoint{name: "edit", spec: endpoint.Spec{Name: "edit", Schema: gcArticle, SideEffect: true,
		DataExpiryLength: time.Second,
		GetOptimisticResponse: func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
			return value.MustParse(`{"id":"1","title":"optimistic","author":{"id":"a7","name":"new"}}`), nil
		}},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			<-gate
			return value.Undef, errors.New("edit refused")
		}}
	done := make(chan error, 1)
	go func() { _, err := c.Fetch(ctx, edit, params("1"), nil); done <- err }()
	require.Eventually(t, func() bool { return c.PendingOptimistic() == 1 }, time.Minute, time.Millisecond)

	clk.Advance(time.Hour)
	stats := c.GC()

	assert.Equal(t, controller.GCStats{Results: 1}, counts(stats), "only read's result goes")
	ents, results := stored(c)
	assert.Equal(t, []string{"GCArticle/1", "GCAuthor/a1", "GCAuthor/a7"}, ents,
		"the optimistic records stay, and the author the base record names (a rollback brings it back)")
	assert.Equal(t, []string{mustKey(t, edit, params("1"))}, results)

	close(gate)
	require.Error(t, <-done)
	// The rollback took the optimistic result and author a7; the error
	// the edit keeps holds its key for a second.
	clk.Advance(2 * time.Second)
	assert.Equal(t, controller.GCStats{Results: 1, Entities: 2}, counts(c.GC()), "the edit's error, article 1 and author a1 go")
	ents, _ = stored(c)
	assert.Empty(t, ents)
}

// A subscription whose read is inferred from the entity table holds that
// entity; Hold keeps what its roots name.
func TestGCInferredReadsAndHold(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	list := gcEndpoint("list", schema.ArrayOf(gcArticle), time.Minute)
	detail := gcEndpoint("detail", gcArticle, time.Minute)
	require.NoError(t, c.SetResponse(list, value.Obj(), articles(1, 2, 3)))
	clk.Advance(10 * time.Second)
	var got controller.State
	unsubscribe, err := c.SubscribeWith(detail, params("1"), func(s controller.State) { got = s },
		controller.SubscribeOptions{NoFetch: true})
	require.NoError(t, err)
	defer unsubscribe()
	require.Equal(t, "t1", got.Data.Get("title").Str(), "inferred from the list's record")
	release := c.Hold(func(r *store.Roots) { r.Entity(gcArticle, "3") })

	clk.Advance(time.Hour)
	assert.Equal(t, controller.GCStats{Results: 1, Entities: 2}, counts(c.GC()), "the list, article 2 and its author a0 go")
	ents, _ := stored(c)
	assert.Equal(t, []string{"GCArticle/1", "GCArticle/3", "GCAuthor/a1"}, ents)

	release()
	release()
	assert.Equal(t, controller.GCStats{Entities: 1}, counts(c.GC()), "article 3 goes; author a1 stays, article 1 names it")
	ents, _ = stored(c)
	assert.Equal(t, []string{"GCArticle/1", "GCAuthor/a1"}, ents)

	// A Hold's roots run without the lock: they may read and write the
	// controller, and see the store as it is before the sweep.
	var seen []string
	defer c.Hold(func(r *store.Roots) {
		ents, _ := stored(c)
		seen = ents
		require.NoError(t, c.SetResponse(detail, params("9"), value.MustParse(`{"id":"9","title":"t9","author":{"id":"a9"}}`)))
		r.Entity(gcArticle, "9")
	})()
	assert.Equal(t, controller.GCStats{}, counts(c.GC()), "what a hook stores, it may hold")
	assert.Equal(t, []string{"GCArticle/1", "GCAuthor/a1"}, seen)
	ents, _ = stored(c)
	assert.Equal(t, []string{"GCArticle/1", "GCArticle/9", "GCAuthor/a1", "GCAuthor/a9"}, ents)
}

// A kept error keeps its result until the error expires.
func TestGCKeptError(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	ep := gcEndpoint("e", gcArticle, time.Second)
	ep.spec.ErrorExpiryLength = time.Hour
	require.NoError(t, c.SetError(ep, params("1"), errors.New("down")))
	clk.Advance(time.Minute)
	assert.Equal(t, controller.GCStats{}, c.GC())
	assert.Error(t, c.GetResponse(ep, params("1")).Err)
	clk.Advance(time.Hour)
	assert.Equal(t, controller.GCStats{Results: 1}, counts(c.GC()))
	_, results := stored(c)
	assert.Empty(t, results)
}

// Options.GC sweeps on the controller's timers, every Interval, until
// Close.
func TestGCPeriodic(t *testing.T) {
	clk := newClock()
	timers := testkit.NewTimers()
	c := controller.New(controller.Options{Now: clk.Now, AfterFunc: timers.AfterFunc,
		GC: &controller.GCOptions{}})
	first := timers.Next(t, "the first sweep's timer")
	assert.Equal(t, controller.DefaultGCInterval, first.D)

	list := gcEndpoint("list", schema.ArrayOf(gcArticle), time.Minute)
	require.NoError(t, c.SetResponse(list, value.Obj(), articles(1)))
	clk.Advance(3 * time.Minute)
	require.True(t, first.Fire())
	second := timers.Next(t, "the next sweep's timer, started after the sweep")
	assert.Equal(t, endpoint.Missing, c.GetResponse(list, value.Obj()).ExpiryStatus)

	c.Close()
	assert.True(t, second.Stopped(), "Close stops the sweeps")
	assert.False(t, second.Fire())
	assert.Empty(t, timers.Pending())
}

// Without Options.GC nothing sweeps on its own; the options are checked.
func TestGCOptions(t *testing.T) {
	timers := testkit.NewTimers()
	c := controller.New(controller.Options{AfterFunc: timers.AfterFunc})
	c.Close()
	assert.Zero(t, timers.Started())
	c = controller.New(controller.Options{AfterFunc: timers.AfterFunc, GC: &controller.GCOptions{Interval: -1}})
	assert.Zero(t, timers.Started(), "a negative interval leaves the sweeps to the caller")
	c.Close()
	for _, m := range []float64{0.5, -1} {
		assert.PanicsWithError(t, fmt.Sprintf("controller.New: GC.ExpiryMultiplier must be at least 1, got %v", m), func() {
			controller.New(controller.Options{GC: &controller.GCOptions{ExpiryMultiplier: m}})
		})
	}
}

// A result hydrated from a snapshot has no schema until an endpoint reads
// it: while such a result is kept, no entity is removed (it could reach
// any); once read, the sweep knows what it reaches.
func TestGCHydratedResults(t *testing.T) {
	clk := newClock()
	a := controller.New(controller.Options{Now: clk.Now})
	long := gcEndpoint("long", schema.ArrayOf(gcArticle), time.Hour)
	short := gcEndpoint("short", gcArticle, time.Second)
	require.NoError(t, a.SetResponse(long, value.Obj(), articles(1)))
	require.NoError(t, a.SetResponse(short, params("5"), articles(5).Elems()[0]))
	b := controller.New(controller.Options{Now: clk.Now, InitialState: a.Snapshot()})
	clk.Advance(time.Minute)

	assert.Equal(t, controller.GCStats{Results: 1}, counts(b.GC()), "short 5 goes; article 5 stays while long's schema is unknown")
	require.Equal(t, endpoint.Valid, b.GetResponse(long, value.Obj()).ExpiryStatus)
	assert.Equal(t, controller.GCStats{Entities: 1}, counts(b.GC()), "article 5 goes once long's schema is known")
	ents, _ := stored(b)
	assert.Equal(t, []string{"GCArticle/1", "GCAuthor/a1"}, ents)
}

// A sweep that removes entities changes an All that lists them: the read
// is not answered from its memo.
func TestGCChangesAll(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	all := schema.AllOf(gcArticle)
	short := gcEndpoint("short", gcArticle, time.Second)
	require.NoError(t, c.SetResponse(short, params("1"), articles(1).Elems()[0]))
	before, err := c.Get(all)
	require.NoError(t, err)
	require.Equal(t, 1, before.Len())

	clk.Advance(time.Minute)
	require.Equal(t, controller.GCStats{Results: 1, Entities: 2}, counts(c.GC()), "the article and its author")

	after, err := c.Get(all)
	require.NoError(t, err)
	assert.Equal(t, 0, after.Len(), "the swept article is not listed")
}

// counts returns s without the keys of the results removed, for tests
// that check how many went.
func counts(s controller.GCStats) controller.GCStats {
	s.Keys = nil
	return s
}

// TestGCHoldMadeDuringRoots: a Hold made while a sweep runs the holders'
// roots (without the lock) may name what that sweep has not seen: the
// sweep removes nothing; the next one sweeps, keeping what it names.
func TestGCHoldMadeDuringRoots(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	list := gcEndpoint("list", schema.ArrayOf(gcArticle), time.Minute)
	require.NoError(t, c.SetResponse(list, value.Obj(), articles(1, 2)))
	var held bool
	defer c.Hold(func(*store.Roots) {
		if !held {
			held = true
			c.Hold(func(r *store.Roots) { r.Entity(gcArticle, "2") })
		}
	})()
	clk.Advance(time.Hour)
	assert.Equal(t, controller.GCStats{}, c.GC(), "a Hold was made meanwhile")
	assert.Equal(t, controller.GCStats{Results: 1, Entities: 2}, counts(c.GC()), "the list, article 1 and author a1 go")
	ents, _ := stored(c)
	assert.Equal(t, []string{"GCArticle/2", "GCAuthor/a0"}, ents)
}

// portfolioCompany returns an entity of key whose pct is a Scalar field
// (schema.Lens, of lens key lensKey) by the args' portfolio.
func portfolioCompany(key, lensKey string) *schema.Entity {
	company := &schema.Entity{Key: key, Defaults: value.MustParse(`{"id":"","name":"","pct":0}`)}
	lens := schema.LensOf(lensKey, func(args value.Value) (string, bool) {
		p := args.Elems()[0].Get("portfolio")
		return p.Str(), p.Kind() == value.String
	}, company)
	company.Schema = map[string]schema.Schema{"pct": lens}
	return company
}

// A held result keeps the Scalar cells (schema.Lens) of the records it
// reaches, whichever lens they are of: a read's args choose the cell, so
// a sweep must not take the one a held read shows.
func TestGCKeepsReachedCells(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	company := portfolioCompany("GCCompany", "gcPortfolio")
	list := gcEndpoint("companies", schema.ArrayOf(company), time.Minute)
	onA, onB := value.MustParse(`{"portfolio":"A"}`), value.MustParse(`{"portfolio":"B"}`)
	require.NoError(t, c.SetResponse(list, onA, value.MustParse(`[{"id":"1","name":"one","pct":0.5}]`)))
	require.NoError(t, c.SetResponse(list, onB, value.MustParse(`[{"id":"1","name":"one","pct":0.25}]`)))
	unsubscribe, err := c.SubscribeWith(list, onA, func(controller.State) {}, controller.SubscribeOptions{NoFetch: true})
	require.NoError(t, err)
	defer unsubscribe()

	clk.Advance(24 * time.Hour)
	stats := c.GC()

	assert.Equal(t, 1, stats.Results, "the list on B goes")
	assert.Equal(t, 0, stats.Entities, "the held record keeps both its cells")
	ents, _ := stored(c)
	assert.Equal(t, []string{"GCCompany/1", "Scalar(gcPortfolio)/GCCompany|1|A", "Scalar(gcPortfolio)/GCCompany|1|B"}, ents)
	got := c.GetResponse(list, onA)
	require.Equal(t, endpoint.Stale, got.ExpiryStatus)
	assert.JSONEq(t, `[{"id":"1","name":"one","pct":0.5}]`, got.Data.JSON(), "the held read still shows its cell")

	unsubscribe()
	stats = c.GC()
	assert.Equal(t, controller.GCStats{Results: 1, Entities: 3, Keys: []string{mustKey(t, list, onA)}}, stats, "released, the record and its cells go")
}
