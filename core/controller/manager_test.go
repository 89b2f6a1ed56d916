package controller_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// recorder is a Manager that writes down what it is told: "Kind key" per
// event, and Start and Stop.
type recorder struct {
	mu     sync.Mutex
	c      *controller.Controller
	log    []string
	events []controller.Event
	// on, when set, is called with each event, outside mu.
	on func(c *controller.Controller, ev controller.Event)
}

func (r *recorder) Start(c *controller.Controller) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.c = c
	r.log = append(r.log, "Start")
}

func (r *recorder) Event(ev controller.Event) {
	r.mu.Lock()
	r.log = append(r.log, kindNames[ev.Kind]+" "+ev.Key)
	r.events = append(r.events, ev)
	on, c := r.on, r.c
	r.mu.Unlock()
	if on != nil {
		on(c, ev)
	}
}

func (r *recorder) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, "Stop")
}

// take returns the log so far and empties it.
func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.log
	r.log = nil
	return out
}

func valueEndpoint(name string, spec endpoint.Spec, fetch func(ctx context.Context, params value.Value, body any) (value.Value, error)) *funcEndpoint {
	return &funcEndpoint{name: name, spec: spec, fetch: fetch}
}

var errDown = errors.New("server down")

// A manager is told the events of each operation in the order they
// happened, before the operation returns.
func TestManagerEventsInOrder(t *testing.T) {
	ok := func(context.Context, value.Value, any) (value.Value, error) { return value.Str("ok"), nil }
	fail := func(context.Context, value.Value, any) (value.Value, error) { return value.Undef, errDown }
	guess := func(endpoint.Snapshot, value.Value, any) (value.Value, error) { return value.Str("guess"), nil }
	read := valueEndpoint("read", endpoint.Spec{}, ok)
	broken := valueEndpoint("broken", endpoint.Spec{}, fail)
	save := valueEndpoint("save", endpoint.Spec{SideEffect: true, GetOptimisticResponse: guess}, ok)
	lost := valueEndpoint("lost", endpoint.Spec{SideEffect: true, GetOptimisticResponse: guess}, fail)
	p := params("1")

	tests := []struct {
		name string
		op   func(t *testing.T, c *controller.Controller)
		want []string
	}{
		{"fetch", func(t *testing.T, c *controller.Controller) {
			_, err := c.Fetch(context.Background(), read, p, nil)
			require.NoError(t, err)
		}, []string{`FetchStart read {"id":"1"}`, `FetchResolve read {"id":"1"}`}},
		{"failed fetch", func(t *testing.T, c *controller.Controller) {
			_, err := c.Fetch(context.Background(), broken, p, nil)
			require.ErrorIs(t, err, errDown)
		}, []string{`FetchStart broken {"id":"1"}`, `FetchReject broken {"id":"1"}`}},
		{"optimistic mutation", func(t *testing.T, c *controller.Controller) {
			_, err := c.Fetch(context.Background(), save, p, nil)
			require.NoError(t, err)
		}, []string{`FetchStart save {"id":"1"}`, `OptimisticEnqueue save {"id":"1"}`,
			`FetchResolve save {"id":"1"}`, `OptimisticSettle save {"id":"1"}`}},
		{"optimistic mutation that fails", func(t *testing.T, c *controller.Controller) {
			_, err := c.Fetch(context.Background(), lost, p, nil)
			require.ErrorIs(t, err, errDown)
		}, []string{`FetchStart lost {"id":"1"}`, `OptimisticEnqueue lost {"id":"1"}`,
			`FetchReject lost {"id":"1"}`, `OptimisticRollback lost {"id":"1"}`}},
		{"writes", func(t *testing.T, c *controller.Controller) {
			require.NoError(t, c.SetResponse(read, p, value.Str("set")))
			require.NoError(t, c.Invalidate(read, p))
			c.ExpireAll(func(string) bool { return true })
			c.ResetEntireStore()
		}, []string{`Write read {"id":"1"}`, `Invalidate read {"id":"1"}`, `Expire `, `Reset `}},
		{"subscription", func(t *testing.T, c *controller.Controller) {
			require.NoError(t, c.SetResponse(read, p, value.Str("set")))
			unsubscribe, err := c.SubscribeWith(read, p, func(controller.State) {}, controller.SubscribeOptions{NoFetch: true})
			require.NoError(t, err)
			unsubscribe()
		}, []string{`Write read {"id":"1"}`, `Subscribe read {"id":"1"}`, `Unsubscribe read {"id":"1"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			c := controller.New(controller.Options{Now: newClock().Now, Managers: []controller.Manager{rec}})
			assert.Equal(t, []string{"Start"}, rec.take())
			tt.op(t, c)
			assert.Equal(t, tt.want, rec.take())
			c.Close()
			assert.Equal(t, []string{"Stop"}, rec.take())
		})
	}
}

// The events carry what a manager needs: the endpoint and params of a
// request, the error it failed with, the subscription, the keys of an
// ExpireAll, and whether a sync message made the change.
func TestManagerEventFields(t *testing.T) {
	rec := &recorder{}
	c := controller.New(controller.Options{Now: newClock().Now, Managers: []controller.Manager{rec}})
	defer c.Close()
	broken := valueEndpoint("broken", endpoint.Spec{}, func(context.Context, value.Value, any) (value.Value, error) {
		return value.Undef, errDown
	})
	_, err := c.Fetch(context.Background(), broken, params("1"), nil)
	require.Error(t, err)
	rej := rec.events[1]
	assert.Equal(t, controller.FetchReject, rej.Kind)
	assert.Same(t, broken, rej.Endpoint)
	assert.Equal(t, `{"id":"1"}`, rej.Params.JSON())
	assert.ErrorIs(t, rej.Err, errDown)

	unsubscribe, err := c.SubscribeWith(broken, params("2"), func(controller.State) {}, controller.SubscribeOptions{NoFetch: true})
	require.NoError(t, err)
	unsubscribe()
	sub, unsub := rec.events[2], rec.events[3]
	require.NotNil(t, sub.Sub)
	assert.Same(t, sub.Sub, unsub.Sub, "one subscription, started and ended")
	assert.True(t, sub.Sub.Options().NoFetch)
	assert.Equal(t, `broken {"id":"2"}`, sub.Sub.Key())

	require.NoError(t, c.ApplySync(value.Obj(value.M("datafetch", value.Str("sync")), value.M("version", value.Int(1)),
		value.M("op", value.Str("expire")), value.M("keys", value.Arr(value.Str("a"), value.Str("b"))))))
	exp := rec.events[4]
	assert.Equal(t, controller.Expire, exp.Kind)
	assert.Equal(t, []string{"a", "b"}, exp.Keys)
	assert.True(t, exp.Sync)
}

// A manager may call the controller from an event, as the rule says: the
// events come outside the controller's lock. What its calls change is told
// after the event that made them, in order.
func TestManagerMayCallTheController(t *testing.T) {
	read := valueEndpoint("read", endpoint.Spec{}, func(context.Context, value.Value, any) (value.Value, error) {
		return value.Str("fetched"), nil
	})
	echo := valueEndpoint("echo", endpoint.Spec{}, nil)
	var seen []string
	rec := &recorder{on: func(c *controller.Controller, ev controller.Event) {
		if ev.Kind != controller.FetchResolve {
			return
		}
		// Reads, writes and another subscription, all from the event.
		r := c.GetResponse(ev.Endpoint, ev.Params)
		require.NoError(t, r.Err)
		seen = append(seen, r.Data.Str())
		require.NoError(t, c.SetResponse(echo, ev.Params, r.Data))
		stop, err := c.SubscribeWith(echo, ev.Params, func(s controller.State) { seen = append(seen, "echo "+s.Data.Str()) },
			controller.SubscribeOptions{NoFetch: true})
		require.NoError(t, err)
		stop()
	}}
	c := controller.New(controller.Options{Now: newClock().Now, Managers: []controller.Manager{rec}})
	defer c.Close()
	rec.take()

	fetchOnGoroutine(t, c, read, "the fetch, whose manager calls the controller")
	assert.Equal(t, []string{"fetched", "echo fetched"}, seen)
	assert.Equal(t, []string{`FetchStart read {"id":"1"}`, `FetchResolve read {"id":"1"}`,
		`Write echo {"id":"1"}`, `Subscribe echo {"id":"1"}`, `Unsubscribe echo {"id":"1"}`}, rec.take())
	assert.Equal(t, "fetched", c.GetResponse(echo, params("1")).Data.Str())
}

// Polling is a manager: a subscription's poll timer starts with its
// Subscribe event and stops with its Unsubscribe event, beside the
// managers listed in Options. Nothing sleeps.
func TestPollingManager(t *testing.T) {
	timers := testkit.NewTimers()
	rec := &recorder{}
	c := controller.New(controller.Options{Now: newClock().Now, AfterFunc: timers.AfterFunc, Managers: []controller.Manager{rec}})
	defer c.Close()
	b := &books{}
	ep := b.endpoint(endpoint.Spec{PollFrequency: time.Minute})
	states := &states{}
	unsubscribe, err := c.Subscribe(ep, params("1"), states.listener)
	require.NoError(t, err)
	tm := timers.Next(t, "the poll timer")
	assert.Equal(t, time.Minute, tm.D)
	require.Eventually(t, func() bool { return rev(states.last().Data) == 1 }, testkit.WaitLimit, time.Millisecond, "fetched")
	require.True(t, tm.Fire())
	tm = timers.Next(t, "the next poll timer")
	require.Eventually(t, func() bool { return b.fetchesOf("1") == 2 }, testkit.WaitLimit, time.Millisecond, "polled")

	unsubscribe()
	// The Unsubscribe event may come from the goroutine delivering the
	// poll's own notifications, just after unsubscribe returns.
	require.Eventually(t, tm.Stopped, testkit.WaitLimit, time.Millisecond, "unsubscribing stops the timer")
	assert.False(t, tm.Fire())
	assert.Empty(t, timers.Pending())
	assert.EqualValues(t, 2, b.fetchesOf("1"))
}

// The periodic GC is a manager too: its timer starts in New and stops in
// Close, with the other managers.
func TestGCManager(t *testing.T) {
	timers := testkit.NewTimers()
	clk := newClock()
	rec := &recorder{}
	c := controller.New(controller.Options{Now: clk.Now, AfterFunc: timers.AfterFunc,
		GC: &controller.GCOptions{Interval: time.Minute}, Managers: []controller.Manager{rec}})
	read := valueEndpoint("read", endpoint.Spec{DataExpiryLength: time.Second}, nil)
	require.NoError(t, c.SetResponse(read, params("1"), value.Str("old")))
	clk.Advance(time.Hour)

	tm := timers.Next(t, "the sweep timer")
	assert.Equal(t, time.Minute, tm.D)
	require.True(t, tm.Fire())
	tm = timers.Next(t, "the next sweep timer")
	assert.Equal(t, endpoint.Missing, c.GetResponse(read, params("1")).ExpiryStatus, "swept")

	c.Close()
	assert.True(t, tm.Stopped())
	assert.Equal(t, []string{"Start", `Write read {"id":"1"}`, "Sweep ", "Stop"}, rec.take())
	assert.Equal(t, []string{`read {"id":"1"}`}, rec.events[1].Keys, "the removed keys")
}

// Events come on the goroutine that made the change: a manager that fails
// (panics) does not lose later events; they come with the next change.
func TestManagerPanicDoesNotStopDelivery(t *testing.T) {
	read := valueEndpoint("read", endpoint.Spec{}, nil)
	first := true
	rec := &recorder{on: func(_ *controller.Controller, ev controller.Event) {
		if first {
			first = false
			panic("manager bug")
		}
	}}
	c := controller.New(controller.Options{Now: newClock().Now, Managers: []controller.Manager{rec}})
	defer c.Close()
	rec.take()
	assert.Panics(t, func() { _ = c.SetResponse(read, params("1"), value.Str("a")) })
	require.NoError(t, c.SetResponse(read, params("2"), value.Str("b")))
	assert.Equal(t, []string{`Write read {"id":"1"}`, `Write read {"id":"2"}`}, rec.take())
}

// kindNames name the kinds in the tests' logs.
var kindNames = map[controller.EventKind]string{
	controller.FetchStart: "FetchStart", controller.FetchResolve: "FetchResolve", controller.FetchReject: "FetchReject",
	controller.OptimisticEnqueue: "OptimisticEnqueue", controller.OptimisticSettle: "OptimisticSettle",
	controller.OptimisticRollback: "OptimisticRollback", controller.Write: "Write", controller.Invalidate: "Invalidate",
	controller.Expire: "Expire", controller.Subscribe: "Subscribe", controller.Unsubscribe: "Unsubscribe", controller.Reset: "Reset",
	controller.Hydrate: "Hydrate", controller.Sweep: "Sweep",
}

// writtenRecorder is a recorder that wants Event.Written.
type writtenRecorder struct{ recorder }

func (*writtenRecorder) WantsWritten() bool { return true }

// A manager that implements WantsWritten gets, with each stored response
// and write, a snapshot of what it stored; without such a manager nothing
// is read back.
func TestManagerWritten(t *testing.T) {
	wants, plain := &writtenRecorder{}, &recorder{}
	for _, m := range []controller.Manager{wants, plain} {
		c := controller.New(controller.Options{Now: newClock().Now, Managers: []controller.Manager{m}})
		b := &books{}
		ep := b.endpoint(endpoint.Spec{})
		_, err := c.Fetch(context.Background(), ep, params("1"), nil)
		require.NoError(t, err)
		require.NoError(t, c.Set(bookEntity, nil, value.MustParse(`{"id":"2","title":"pushed","rev":9}`)))
		c.Close()
	}

	require.Len(t, wants.events, 3)
	resolved, set := wants.events[1], wants.events[2]
	assert.Equal(t, controller.FetchResolve, resolved.Kind)
	assert.Equal(t, "book 1", resolved.Written.Get("entities").Get("Book").Get("1").Get("title").Str())
	assert.Equal(t, controller.Write, set.Kind)
	assert.Equal(t, "pushed", set.Written.Get("entities").Get("Book").Get("2").Get("title").Str())
	assert.True(t, set.Written.Get("entities").Get("Book").Get("1").IsUndefined(), "only what the write stored")
	for _, ev := range plain.events {
		assert.True(t, ev.Written.IsUndefined(), "%v: not read back when no manager wants it", kindNames[ev.Kind])
	}
}

// Managers see the events of requests made on many goroutines, each
// request's in its order, while they call the controller themselves.
func TestManagerEventsUnderConcurrency(t *testing.T) {
	var mu sync.Mutex
	byKey := map[string][]controller.EventKind{}
	rec := &recorder{on: func(c *controller.Controller, ev controller.Event) {
		mu.Lock()
		byKey[ev.Key] = append(byKey[ev.Key], ev.Kind)
		mu.Unlock()
		if ev.Kind == controller.FetchResolve {
			_ = c.GetResponse(ev.Endpoint, ev.Params)
		}
	}}
	c := controller.New(controller.Options{Now: newClock().Now, Managers: []controller.Manager{rec}})
	defer c.Close()
	b := &books{}
	ep := b.endpoint(endpoint.Spec{SideEffect: true})
	var wg sync.WaitGroup
	const n = 20
	for i := range n {
		wg.Go(func() {
			_, err := c.Fetch(context.Background(), ep, params(string(rune('a'+i))), nil)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	// The last fetch's events may still be on their way from another
	// goroutine delivering them.
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(byKey) == n && func() bool {
			for _, kinds := range byKey {
				if len(kinds) != 2 {
					return false
				}
			}
			return true
		}()
	}, testkit.WaitLimit, time.Millisecond)
	for key, kinds := range byKey {
		assert.Equal(t, []controller.EventKind{controller.FetchStart, controller.FetchResolve}, kinds, key)
	}
}

// A manager may even wait for a request from an event: the request's own
// events are told after that event returns.
func TestManagerMayFetchFromAnEvent(t *testing.T) {
	read := valueEndpoint("read", endpoint.Spec{}, func(context.Context, value.Value, any) (value.Value, error) {
		return value.Str("first"), nil
	})
	next := valueEndpoint("next", endpoint.Spec{}, func(context.Context, value.Value, any) (value.Value, error) {
		return value.Str("second"), nil
	})
	var got value.Value
	rec := &recorder{on: func(c *controller.Controller, ev controller.Event) {
		if ev.Kind == controller.FetchResolve && ev.Endpoint == read {
			v, err := c.Suspense(context.Background(), next, ev.Params)
			assert.NoError(t, err)
			got = v
		}
	}}
	c := controller.New(controller.Options{Now: newClock().Now, Managers: []controller.Manager{rec}})
	defer c.Close()
	rec.take()
	fetchOnGoroutine(t, c, read, "the fetch, whose manager fetches from its event")
	assert.Equal(t, "second", got.Str())
	assert.Equal(t, []string{`FetchStart read {"id":"1"}`, `FetchResolve read {"id":"1"}`,
		`FetchStart next {"id":"1"}`, `FetchResolve next {"id":"1"}`}, rec.take(),
		"the delivering goroutine tells the inner request's events before Fetch returns")
}

// After Close no event is told: the managers are stopped, though the
// controller still reads and fetches.
func TestManagerNoEventsAfterClose(t *testing.T) {
	rec := &recorder{}
	c := controller.New(controller.Options{Now: newClock().Now, Managers: []controller.Manager{rec}})
	c.Close()
	read := valueEndpoint("read", endpoint.Spec{}, func(context.Context, value.Value, any) (value.Value, error) {
		return value.Str("ok"), nil
	})
	v, err := c.Fetch(context.Background(), read, params("1"), nil)
	require.NoError(t, err)
	assert.Equal(t, "ok", v.Str())
	c.ResetEntireStore()
	assert.Equal(t, []string{"Start", "Stop"}, rec.take())
}

// OnSync's sinks are told of changes after Close too, as before sync was a
// manager; adding and removing sinks while events are told is safe.
func TestSyncSinksOutliveClose(t *testing.T) {
	c := controller.New(controller.Options{Now: newClock().Now})
	var mu sync.Mutex
	var ops []string
	stop := c.OnSync(func(msg value.Value) {
		mu.Lock()
		ops = append(ops, msg.Get("op").Str())
		mu.Unlock()
	})
	defer stop()
	read := valueEndpoint("read", endpoint.Spec{}, nil)
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 50 {
			c.OnSync(func(value.Value) {})()
		}
	})
	for i := range 50 {
		require.NoError(t, c.SetResponse(read, params("1"), value.Int(int64(i))))
	}
	wg.Wait()
	c.Close()
	c.ResetEntireStore()
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, ops, 51)
	assert.Equal(t, "reset", ops[50], "told after Close")
}

// fetchOnGoroutine fetches ep for params "1" on a goroutine of its own and
// waits for it, failing as what after testkit.WaitLimit: a manager that
// deadlocks the controller shows as a failure, not a hung test.
func fetchOnGoroutine(t *testing.T, c *controller.Controller, ep endpoint.Endpoint, what string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := c.Fetch(context.Background(), ep, params("1"), nil)
		assert.NoError(t, err)
	}()
	testkit.Wait(t, done, what)
}

// A manager added to a running controller is started at once, told the
// events that follow (Hydrate among them), and stopped once, by its remove
// function or by Close, whichever comes first.
func TestAddManager(t *testing.T) {
	read := valueEndpoint("read", endpoint.Spec{}, nil)
	tests := []struct {
		name string
		end  func(c *controller.Controller, remove func())
	}{
		{"removed", func(c *controller.Controller, remove func()) { remove(); remove(); c.Close() }},
		{"closed", func(c *controller.Controller, remove func()) { c.Close(); remove() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := controller.New(controller.Options{Now: newClock().Now})
			require.NoError(t, c.SetResponse(read, params("1"), value.Str("before")))
			snap := c.Snapshot()
			rec := &recorder{}
			remove := c.AddManager(rec)
			assert.Equal(t, []string{"Start"}, rec.take())
			require.NoError(t, c.SetResponse(read, params("2"), value.Str("after")))
			require.NoError(t, controller.New(controller.Options{}).Hydrate(snap), "another controller's change is not told")
			c2 := controller.New(controller.Options{Now: newClock().Now})
			rec2 := &recorder{}
			c2.AddManager(rec2)
			require.NoError(t, c2.Hydrate(snap))
			assert.Equal(t, []string{"Start", "Hydrate "}, rec2.take(), "a snapshot that changed the store")
			require.NoError(t, c2.Hydrate(snap))
			assert.Empty(t, rec2.take(), "one that changed nothing")
			tt.end(c, remove)
			assert.Equal(t, []string{`Write read {"id":"2"}`, "Stop"}, rec.take())
			require.NoError(t, c.SetResponse(read, params("3"), value.Str("later")))
			assert.Empty(t, rec.take(), "nothing after")
		})
	}
	c := controller.New(controller.Options{})
	c.Close()
	rec := &recorder{}
	c.AddManager(rec)()
	assert.Equal(t, []string{"Start", "Stop"}, rec.take(), "added to a closed controller: started and stopped")
}
