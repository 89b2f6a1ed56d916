package controller_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// within runs f in a goroutine and fails the test if it has not returned
// after testkit.WaitLimit: the sign of a deadlock. A panic in f is returned.
func within(t *testing.T, what string, f func()) (panicked any) {
	t.Helper()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	select {
	case p := <-done:
		return p
	case <-time.After(testkit.WaitLimit):
		t.Fatalf("%s: deadlock, still waiting after %v", what, testkit.WaitLimit)
		return nil
	}
}

// rig is a controller whose hooks, once armed, call it back one time and
// report what that call returned.
type rig struct {
	c     *controller.Controller
	armed atomic.Bool
	// call is what the hook does with the controller.
	call func(c *controller.Controller) error
	got  chan error
}

func newRig(call func(c *controller.Controller) error) *rig {
	return &rig{c: controller.New(controller.Options{Now: newClock().Now}), call: call, got: make(chan error, 1)}
}

// hook is what every hook of the rig runs.
func (r *rig) hook() {
	if r.armed.CompareAndSwap(true, false) {
		r.got <- r.call(r.c)
	}
}

// book returns a fresh entity type (hooks are fields of the type) changed
// by with.
func book(with func(*schema.Entity)) *schema.Entity {
	e := &schema.Entity{Key: "Book", Defaults: value.MustParse(`{"id":null,"title":""}`)}
	if with != nil {
		with(e)
	}
	return e
}

// bookEndpoint serves book 1.
func bookEndpoint(name string, spec endpoint.Spec) *funcEndpoint {
	spec.Name = name
	return &funcEndpoint{name: name, spec: spec, fetch: func(context.Context, value.Value, any) (value.Value, error) {
		return value.MustParse(`{"id":"1","title":"served"}`), nil
	}}
}

func fetch(c *controller.Controller, ep endpoint.Endpoint) error {
	_, err := c.Fetch(context.Background(), ep, value.Obj(), nil)
	return err
}

// hookPlace is a place where caller code runs with the controller's lock
// held. setup stores what the hook needs to run, unarmed; trigger runs it
// and returns the error of the triggering call.
type hookPlace struct {
	name           string
	setup, trigger func(r *rig) error
}

// hookPlaces returns every hook place, with fresh endpoints.
func hookPlaces() []hookPlace {
	return []hookPlace{
		entityHook("Entity.Merge", func(e *schema.Entity, hook func()) {
			e.Merge = func(a, b value.Value) value.Value { hook(); return schema.ShallowMerge(a, b) }
		}),
		entityHook("Entity.UseIncoming", func(e *schema.Entity, hook func()) {
			e.UseIncoming = func(_, _ schema.Meta, _, _ value.Value) bool { hook(); return true }
		}),
		entityHook("Entity.ShouldReorder", func(e *schema.Entity, hook func()) {
			e.ShouldReorder = func(_, _ schema.Meta, _, _ value.Value) bool { hook(); return false }
		}),
		mergeResultPlace(),
		updatePlace(),
		optimisticPlace(),
		setResponsePlace(),
	}
}

// entityHook is the place of an entity's merge hook, set by install: a
// second response for the same record runs it.
func entityHook(name string, install func(e *schema.Entity, hook func())) hookPlace {
	var ep *funcEndpoint
	return hookPlace{
		name: name,
		setup: func(r *rig) error {
			ep = bookEndpoint("book", endpoint.Spec{Schema: book(func(e *schema.Entity) { install(e, r.hook) })})
			return fetch(r.c, ep)
		},
		trigger: func(r *rig) error { return fetch(r.c, ep) },
	}
}

// mergeResultPlace: the merge function MergeResult returns runs when a
// second result is stored under the same key.
func mergeResultPlace() hookPlace {
	var ep *funcEndpoint
	return hookPlace{
		name: "the merge function of MergeResult",
		setup: func(r *rig) error {
			ep = bookEndpoint("list", endpoint.Spec{Schema: book(nil),
				MergeResult: func(value.Value) func(existing, incoming value.Value) value.Value {
					return func(_, incoming value.Value) value.Value { r.hook(); return incoming }
				}})
			return fetch(r.c, ep)
		},
		trigger: func(r *rig) error { return fetch(r.c, ep) },
	}
}

// updatePlace: the functions Update returns rewrite a stored result.
func updatePlace() hookPlace {
	var target, updater *funcEndpoint
	return hookPlace{
		name: "a function that Update returns",
		setup: func(r *rig) error {
			target = bookEndpoint("target", endpoint.Spec{Schema: book(nil)})
			key, err := target.Key(value.Obj())
			if err != nil {
				return err
			}
			updater = bookEndpoint("updater", endpoint.Spec{Schema: book(nil), SideEffect: true,
				Update: func(_, _ value.Value) (map[string]func(value.Value) value.Value, error) {
					return map[string]func(value.Value) value.Value{
						key: func(pks value.Value) value.Value { r.hook(); return pks },
					}, nil
				}})
			return fetch(r.c, target)
		},
		trigger: func(r *rig) error { return fetch(r.c, updater) },
	}
}

// optimisticPlace: queuing an optimistic write replays the queue over the
// stored record, through the entity's Merge.
func optimisticPlace() hookPlace {
	var read, mutate *funcEndpoint
	return hookPlace{
		name: "Entity.Merge replayed by the optimistic queue",
		setup: func(r *rig) error {
			e := book(func(e *schema.Entity) {
				e.Merge = func(a, b value.Value) value.Value { r.hook(); return schema.ShallowMerge(a, b) }
			})
			read = bookEndpoint("read", endpoint.Spec{Schema: e})
			mutate = bookEndpoint("mutate", endpoint.Spec{Schema: e, SideEffect: true,
				GetOptimisticResponse: func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
					return value.MustParse(`{"id":"1","title":"optimistic"}`), nil
				}})
			return fetch(r.c, read)
		},
		trigger: func(r *rig) error { return fetch(r.c, mutate) },
	}
}

// setResponsePlace: SetResponse merges into the stored record.
func setResponsePlace() hookPlace {
	var ep *funcEndpoint
	return hookPlace{
		name: "Entity.Merge in SetResponse",
		setup: func(r *rig) error {
			ep = bookEndpoint("set", endpoint.Spec{Schema: book(func(e *schema.Entity) {
				e.Merge = func(a, b value.Value) value.Value { r.hook(); return schema.ShallowMerge(a, b) }
			})})
			return r.c.SetResponse(ep, value.Obj(), value.MustParse(`{"id":"1","title":"set"}`))
		},
		trigger: func(r *rig) error {
			return r.c.SetResponse(ep, value.Obj(), value.MustParse(`{"id":"1","title":"set again"}`))
		},
	}
}

// asError calls f, turning a panic with an error into that error: the
// methods with no error result panic when called from a hook.
func asError(f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			pe, ok := p.(error)
			if !ok {
				panic(p)
			}
			err = pe
		}
	}()
	f()
	return nil
}

// controllerCalls are the controller's methods, as a hook would call them.
var controllerCalls = []struct {
	method string
	call   func(c *controller.Controller) error
}{
	{"GetResponse", func(c *controller.Controller) error { return c.GetResponse(plain(), value.Obj()).Err }},
	{"Fetch", func(c *controller.Controller) error { return fetch(c, plain()) }},
	{"Suspense", func(c *controller.Controller) error {
		_, err := c.Suspense(context.Background(), plain(), value.Obj())
		return err
	}},
	{"FetchIfStale", func(c *controller.Controller) error {
		_, err := c.FetchIfStale(context.Background(), plain(), value.Obj())
		return err
	}},
	{"Subscribe", func(c *controller.Controller) error {
		_, err := c.Subscribe(plain(), value.Obj(), func(controller.State) {})
		return err
	}},
	{"Invalidate", func(c *controller.Controller) error { return c.Invalidate(plain(), value.Obj()) }},
	{"SetResponse", func(c *controller.Controller) error {
		return c.SetResponse(plain(), value.Obj(), value.MustParse(`{"id":"2"}`))
	}},
	// The keyed entries report the method they stand for.
	{"GetResponse", func(c *controller.Controller) error { return c.GetResponseKeyed(plain(), "plain {}", value.Obj()).Err }},
	{"SetResponse", func(c *controller.Controller) error {
		return c.SetResponseKeyed(plain(), "plain {}", value.Obj(), value.MustParse(`{"id":"2"}`))
	}},
	{"SetError", func(c *controller.Controller) error {
		return c.SetError(plain(), value.Obj(), errors.New("set by a hook"))
	}},
	{"InvalidateAll", func(c *controller.Controller) error {
		return asError(func() { c.InvalidateAll(func(string) bool { return true }) })
	}},
	{"ExpireAll", func(c *controller.Controller) error {
		return asError(func() { c.ExpireAll(func(string) bool { return true }) })
	}},
	{"ResetEntireStore", func(c *controller.Controller) error { return asError(c.ResetEntireStore) }},
	{"State", func(c *controller.Controller) error { return asError(func() { c.State() }) }},
	{"PendingOptimistic", func(c *controller.Controller) error { return asError(func() { c.PendingOptimistic() }) }},
}

// plain is an endpoint with no hooks, for the calls hooks make.
func plain() *funcEndpoint { return bookEndpoint("plain", endpoint.Spec{Schema: book(nil)}) }

// requireReentrant checks the error a hook's call got.
func requireReentrant(t *testing.T, err error, method string) {
	t.Helper()
	require.ErrorIs(t, err, controller.ErrReentrant)
	assert.Contains(t, err.Error(), "controller."+method+" called from a hook")
	assert.Contains(t, err.Error(), "hooks must not call the controller")
}

// TestReentrantCallFails: a hook that runs under the controller's lock and
// calls the controller gets ErrReentrant at once instead of deadlocking;
// the request it ran for succeeds and the controller keeps working.
func TestReentrantCallFails(t *testing.T) {
	t.Run("from every hook place", func(t *testing.T) {
		for _, place := range hookPlaces() {
			t.Run(place.name, func(t *testing.T) {
				r := newRig(func(c *controller.Controller) error { return c.GetResponse(plain(), value.Obj()).Err })
				require.NoError(t, place.setup(r))
				r.armed.Store(true)
				var err error
				require.Nil(t, within(t, place.name, func() { err = place.trigger(r) }))
				require.NoError(t, err, "the hook got the error and returned; its request succeeds")
				require.Len(t, r.got, 1, "the hook ran")
				requireReentrant(t, <-r.got, "GetResponse")
				assert.NoError(t, r.c.GetResponse(plain(), value.Obj()).Err, "the controller works after")
			})
		}
	})
	t.Run("every method", func(t *testing.T) {
		for _, call := range controllerCalls {
			t.Run(call.method, func(t *testing.T) {
				r := newRig(call.call)
				place := hookPlaces()[0] // Entity.Merge
				require.NoError(t, place.setup(r))
				r.armed.Store(true)
				var err error
				require.Nil(t, within(t, call.method, func() { err = place.trigger(r) }))
				require.NoError(t, err)
				require.Len(t, r.got, 1, "the hook ran")
				requireReentrant(t, <-r.got, call.method)
			})
		}
	})
}

// TestReentrantPanicFailsRequest: a method with no error result panics in
// the hook; the request fails with the error, and the goroutine the hook
// ran on can use the controller afterwards.
func TestReentrantPanicFailsRequest(t *testing.T) {
	tests := []struct {
		name string
		// mutation runs the request on the caller's goroutine (a side
		// effect), where the hook then runs too.
		mutation bool
	}{
		{"shared read, hook on a background goroutine", false},
		{"mutation, hook on the caller's goroutine", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := controller.New(controller.Options{Now: newClock().Now})
			var armed atomic.Bool
			ep := bookEndpoint("book", endpoint.Spec{SideEffect: tt.mutation, Schema: book(func(e *schema.Entity) {
				e.Merge = func(a, b value.Value) value.Value {
					if armed.Load() {
						c.State() // panics: it cannot return the error
					}
					return schema.ShallowMerge(a, b)
				}
			})})
			require.NoError(t, fetch(c, ep))
			armed.Store(true)
			var err error
			require.Nil(t, within(t, tt.name, func() {
				err = fetch(c, ep)
				armed.Store(false)
				// Same goroutine as the hook for a mutation: no longer
				// taken for a hook once the request is over.
				if rerr := c.GetResponse(plain(), value.Obj()).Err; rerr != nil {
					err = errors.Join(err, fmt.Errorf("after the request: %w", rerr))
				}
			}))
			requireReentrant(t, err, "State")
			assert.Contains(t, err.Error(), "internal error")
			assert.NotContains(t, err.Error(), "after the request")
			assert.Zero(t, c.PendingOptimistic())
		})
	}
}

// TestCallbacksOutsideTheLockMayCallTheController: Process and
// GetOptimisticResponse run outside the lock, so calls back work.
func TestCallbacksOutsideTheLockMayCallTheController(t *testing.T) {
	c := controller.New(controller.Options{Now: newClock().Now})
	other := plain()
	require.NoError(t, fetch(c, other))
	var fromProcess, fromOptimistic endpoint.Response
	e := book(func(e *schema.Entity) {
		e.Process = func(rec, _ value.Value, _ string, _ value.Value) (value.Value, error) {
			fromProcess = c.GetResponse(other, value.Obj())
			return rec, nil
		}
	})
	ep := bookEndpoint("mutate", endpoint.Spec{Schema: e, SideEffect: true,
		GetOptimisticResponse: func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
			fromOptimistic = c.GetResponse(other, value.Obj())
			return value.MustParse(`{"id":"1","title":"optimistic"}`), nil
		}})
	var err error
	require.Nil(t, within(t, "fetch", func() { err = fetch(c, ep) }))
	require.NoError(t, err)
	for name, r := range map[string]endpoint.Response{"Process": fromProcess, "GetOptimisticResponse": fromOptimistic} {
		assert.NoError(t, r.Err, name)
		assert.Equal(t, "1", r.Data.Get("id").Str(), name)
	}
}

// TestKeyTestsMayCallTheController: the test of InvalidateAll and ExpireAll
// runs outside the controller's lock, over the keys stored when the call
// began, so it may call the controller back (read, write, fetch, subscribe,
// and every other method): the call is served, and the outer call still
// changes the results test chose. Under the lock, such a call failed.
func TestKeyTestsMayCallTheController(t *testing.T) {
	updates := []struct {
		name   string
		update func(c *controller.Controller, test func(string) bool)
		want   endpoint.ExpiryStatus
	}{
		{"InvalidateAll", (*controller.Controller).InvalidateAll, endpoint.Invalid},
		{"ExpireAll", (*controller.Controller).ExpireAll, endpoint.Stale},
	}
	// These calls change the target themselves.
	changesTarget := map[string]bool{"InvalidateAll": true, "ExpireAll": true, "ResetEntireStore": true}
	for _, u := range updates {
		for _, call := range controllerCalls {
			t.Run(u.name+"/"+call.method, func(t *testing.T) {
				c := controller.New(controller.Options{Now: newClock().Now})
				target := bookEndpoint("target", endpoint.Spec{Schema: book(nil)})
				require.NoError(t, fetch(c, target))
				key, err := target.Key(value.Obj())
				require.NoError(t, err)
				var got error
				called := false
				test := func(k string) bool {
					if !called {
						called = true
						got = call.call(c)
					}
					return k == key
				}
				require.Nil(t, within(t, call.method, func() { u.update(c, test) }))
				require.True(t, called, "test ran")
				require.NoError(t, got, "the call from test is served")
				status := c.GetResponse(target, value.Obj()).ExpiryStatus
				if changesTarget[call.method] {
					assert.NotEqual(t, endpoint.Valid, status)
				} else {
					assert.Equal(t, u.want, status)
				}
			})
		}
	}

	t.Run("a result gone before test returns is skipped", func(t *testing.T) {
		c := controller.New(controller.Options{Now: newClock().Now})
		require.NoError(t, fetch(c, plain()))
		c.InvalidateAll(func(string) bool { c.ResetEntireStore(); return true })
		assert.Empty(t, c.Keys(), "not made again by the invalidation")
	})
}

// TestOnChangeMayCallTheController: Options.OnChange is called once the
// controller's lock is released, so it may call the controller back (read,
// write, fetch, subscribe, and every other method); it is still called
// before the changing method returns. Under the lock, such a call waited
// for the lock forever.
func TestOnChangeMayCallTheController(t *testing.T) {
	for _, call := range controllerCalls {
		t.Run(call.method, func(t *testing.T) {
			var c *controller.Controller
			var armed atomic.Bool
			got := make(chan error, 1)
			c = controller.New(controller.Options{Now: newClock().Now, OnChange: func() {
				if armed.CompareAndSwap(true, false) {
					got <- call.call(c)
				}
			}})
			target := bookEndpoint("target", endpoint.Spec{Schema: book(nil)})
			require.NoError(t, fetch(c, target))
			armed.Store(true)
			var err error
			require.Nil(t, within(t, call.method, func() {
				err = c.SetResponse(target, value.Obj(), value.MustParse(`{"id":"1","title":"set"}`))
			}))
			require.NoError(t, err)
			require.Len(t, got, 1, "OnChange ran before SetResponse returned")
			require.NoError(t, <-got, "the call from OnChange is served")
		})
	}
}

// TestOtherGoroutineWaitsForHooks: while a hook runs under the lock, a call
// from another goroutine is not taken for a re-entrant one: it waits for
// the lock and then succeeds.
func TestOtherGoroutineWaitsForHooks(t *testing.T) {
	c := controller.New(controller.Options{Now: newClock().Now})
	var armed atomic.Bool
	entered, release := make(chan struct{}), make(chan struct{})
	ep := bookEndpoint("book", endpoint.Spec{Schema: book(func(e *schema.Entity) {
		e.Merge = func(a, b value.Value) value.Value {
			if armed.CompareAndSwap(true, false) {
				close(entered)
				<-release
			}
			return schema.ShallowMerge(a, b)
		}
	})})
	require.NoError(t, fetch(c, ep))
	armed.Store(true)

	fetched := make(chan error, 1)
	go func() { fetched <- fetch(c, ep) }()
	<-entered // the hook runs, with the lock held

	read := make(chan endpoint.Response, 1)
	go func() { read <- c.GetResponse(ep, value.Obj()) }()
	// The reader must wait for the lock, not fail: wait until its goroutine
	// is seen blocked on it, unless it returned (wrongly) first.
	deadline := time.Now().Add(testkit.WaitLimit)
	for !blockedIn("(*Controller).GetResponse") {
		select {
		case r := <-read:
			t.Fatalf("GetResponse returned while the hook held the lock: %+v", r)
		default:
		}
		require.True(t, time.Now().Before(deadline), "GetResponse never blocked on the lock")
		runtime.Gosched() // a poll of the goroutines, not a wait: blockedIn is the event
	}
	close(release)

	r := <-read
	require.NoError(t, r.Err)
	assert.Equal(t, "served", r.Data.Get("title").Str())
	require.NoError(t, <-fetched)
}

// blockedIn reports whether some goroutine is waiting for a sync.Mutex
// inside the function fn.
func blockedIn(fn string) bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "[sync.Mutex.Lock") && strings.Contains(g, fn) {
			return true
		}
	}
	return false
}
