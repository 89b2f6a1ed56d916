package controller_test

import (
	"context"
	"errors"
	"fmt"
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

// hookPlace is a place where caller code runs in the middle of a write. setup stores what the hook needs to run, unarmed; trigger runs it
// and returns the error of the triggering call.
type hookPlace struct {
	name           string
	setup, trigger func(r *rig) error
	// ep returns the endpoint the trigger stores (nil: none to read back).
	ep func() *funcEndpoint
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
		ep:      func() *funcEndpoint { return ep },
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
// methods with no error result report a failure so.
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

// TestHooksMayCallTheController: the hooks that compute a write run with
// the controller's lock released (see Controller), so a call from one is
// served instead of deadlocking or failing, and the write it ran for is
// stored; the goroutine that ran it, and every other, keeps working.
func TestHooksMayCallTheController(t *testing.T) {
	t.Run("from every hook place", func(t *testing.T) {
		for _, place := range hookPlaces() {
			t.Run(place.name, func(t *testing.T) {
				r := newRig(func(c *controller.Controller) error { return c.GetResponse(plain(), value.Obj()).Err })
				require.NoError(t, place.setup(r))
				r.armed.Store(true)
				var err error
				require.Nil(t, within(t, place.name, func() { err = place.trigger(r) }))
				require.NoError(t, err, "the request the hook ran for succeeds")
				require.Len(t, r.got, 1, "the hook ran")
				require.NoError(t, <-r.got, "the hook's call is served")
				assert.NoError(t, r.c.GetResponse(plain(), value.Obj()).Err, "the controller works after")
				assert.Zero(t, r.c.PendingOptimistic())
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
				require.Len(t, r.got, 1, "the hook ran")
				require.NoError(t, <-r.got, "the hook's call is served")
				if call.method == "ResetEntireStore" {
					// The store was emptied while the response was being
					// stored: as for any reset during a request.
					require.ErrorIs(t, err, controller.ErrReset)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, "served", r.c.GetResponse(place.ep(), value.Obj()).Data.Get("title").Str())
			})
		}
	})
}

// TestHookReadsAndWrites: what a hook sees and what wins when it writes
// (see Controller): a read sees the store before the write that runs the
// hook; a write from the hook comes first, and the write is made again
// over it (its hooks run again and see it).
func TestHookReadsAndWrites(t *testing.T) {
	t.Run("Entity.Merge", func(t *testing.T) {
		c := controller.New(controller.Options{Now: newClock().Now})
		other := bookEndpoint("other", endpoint.Spec{Schema: book(nil)})
		var ep *funcEndpoint
		var seen []string
		ep = bookEndpoint("book", endpoint.Spec{Schema: book(func(e *schema.Entity) {
			e.Merge = func(a, b value.Value) value.Value {
				seen = append(seen, c.GetResponse(ep, value.Obj()).Data.Get("title").Str())
				if len(seen) == 1 {
					// The same record, and another result.
					require.NoError(t, c.SetResponse(ep, value.Obj(), value.MustParse(`{"id":"1","title":"from the hook"}`)))
					require.NoError(t, c.SetResponse(other, value.Obj(), value.MustParse(`{"id":"2","title":"other"}`)))
				}
				return schema.ShallowMerge(a, b)
			}
		})})
		require.NoError(t, c.SetResponse(ep, value.Obj(), value.MustParse(`{"id":"1","title":"first"}`)))
		require.Empty(t, seen, "no record to merge with yet")
		var err error
		require.Nil(t, within(t, "SetResponse", func() {
			err = c.SetResponse(ep, value.Obj(), value.MustParse(`{"id":"1","title":"second"}`))
		}))
		require.NoError(t, err)
		// 1: the write's first attempt, before anything of it is stored.
		// The hook's SetResponse of the same record merged (running the
		// hook, whose own read saw "first" again). 2: the write made again
		// over the hook's write, which it sees.
		assert.Equal(t, []string{"first", "first", "from the hook"}, seen)
		// As between any two writes, the newer wins: the hook's, stamped
		// after the write that ran it was.
		assert.Equal(t, "from the hook", c.GetResponse(ep, value.Obj()).Data.Get("title").Str())
		assert.Equal(t, "other", c.GetResponse(other, value.Obj()).Data.Get("title").Str())
	})
	t.Run("Update function", func(t *testing.T) {
		c := controller.New(controller.Options{Now: newClock().Now})
		list := &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: schema.ArrayOf(book(nil))},
			fetch: func(context.Context, value.Value, any) (value.Value, error) {
				return value.MustParse(`[{"id":"1","title":"a"}]`), nil
			}}
		listKey, err := list.Key(value.Obj())
		require.NoError(t, err)
		require.NoError(t, fetch(c, list))
		marker := bookEndpoint("marker", endpoint.Spec{Schema: book(nil)})
		runs := 0
		var seenLen []int
		create := &funcEndpoint{name: "create", spec: endpoint.Spec{Name: "create", Schema: book(nil), SideEffect: true,
			Update: func(created, _ value.Value) (map[string]func(value.Value) value.Value, error) {
				return map[string]func(value.Value) value.Value{listKey: func(pks value.Value) value.Value {
					runs++
					// Reads the list as stored before this write.
					seenLen = append(seenLen, c.GetResponse(list, value.Obj()).Data.Len())
					if runs == 1 {
						require.NoError(t, c.SetResponse(marker, value.Obj(), value.MustParse(`{"id":"9","title":"marker"}`)))
					}
					return value.Arr(append(pks.Elems(), created)...)
				}}, nil
			}},
			fetch: func(context.Context, value.Value, any) (value.Value, error) {
				return value.MustParse(`{"id":"2","title":"b"}`), nil
			}}
		require.Nil(t, within(t, "create", func() { err = fetch(c, create) }))
		require.NoError(t, err)
		assert.Equal(t, 2, runs, "made again after the hook's write")
		assert.Equal(t, []int{1, 1}, seenLen, "the update never sees its own write")
		assert.Equal(t, 2, c.GetResponse(list, value.Obj()).Data.Len())
		assert.Equal(t, "marker", c.GetResponse(marker, value.Obj()).Data.Get("title").Str())
	})
	t.Run("a hook that writes every time fails the write", func(t *testing.T) {
		c := controller.New(controller.Options{Now: newClock().Now})
		other := bookEndpoint("other", endpoint.Spec{Schema: book(nil)})
		runs := 0
		ep := bookEndpoint("book", endpoint.Spec{Schema: book(func(e *schema.Entity) {
			e.UseIncoming = func(_, _ schema.Meta, _, _ value.Value) bool {
				runs++
				require.NoError(t, c.SetResponse(other, value.Obj(), value.MustParse(fmt.Sprintf(`{"id":"2","title":"%d"}`, runs))))
				return true
			}
		})})
		require.NoError(t, c.SetResponse(ep, value.Obj(), value.MustParse(`{"id":"1","title":"first"}`)))
		var err error
		require.Nil(t, within(t, "SetResponse", func() {
			err = c.SetResponse(ep, value.Obj(), value.MustParse(`{"id":"1","title":"second"}`))
		}))
		require.ErrorIs(t, err, controller.ErrHooksKeepChanging)
		assert.Equal(t, 8, runs)
		assert.Equal(t, "first", c.GetResponse(ep, value.Obj()).Data.Get("title").Str(), "nothing of the write stored")
		assert.Equal(t, "8", c.GetResponse(other, value.Obj()).Data.Get("title").Str(), "the hook's writes stay")
	})
	t.Run("a settled optimistic write whose replay keeps changing drops the queue", func(t *testing.T) {
		c := controller.New(controller.Options{Now: newClock().Now})
		other := bookEndpoint("other", endpoint.Spec{Schema: book(nil)})
		var armed, nested atomic.Bool
		e := book(func(e *schema.Entity) {
			e.Merge = func(a, b value.Value) value.Value {
				// The hook's write replays the queue, and so runs the hook:
				// that run must not write again, or it would recurse.
				if armed.Load() && nested.CompareAndSwap(false, true) {
					require.NoError(t, c.SetResponse(other, value.Obj(), value.MustParse(`{"id":"2"}`)))
					nested.Store(false)
				}
				return schema.ShallowMerge(a, b)
			}
		})
		read := bookEndpoint("read", endpoint.Spec{Schema: e})
		require.NoError(t, fetch(c, read))
		mutate := &funcEndpoint{name: "mutate", spec: endpoint.Spec{Name: "mutate", Schema: e, SideEffect: true,
			GetOptimisticResponse: func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
				return value.MustParse(`{"id":"1","title":"optimistic"}`), nil
			}},
			fetch: func(context.Context, value.Value, any) (value.Value, error) {
				armed.Store(true) // queued: from now on the hook writes every time
				return value.MustParse(`{"id":"1","title":"saved"}`), nil
			}}
		var err error
		require.Nil(t, within(t, "mutate", func() { err = fetch(c, mutate) }))
		armed.Store(false)
		require.ErrorIs(t, err, controller.ErrHooksKeepChanging)
		assert.Zero(t, c.PendingOptimistic(), "the queue was dropped")
		assert.Equal(t, "served", c.GetResponse(read, value.Obj()).Data.Get("title").Str(), "the base shows again")
	})
}

// TestHookRunsWithoutTheLock: while a hook runs, other goroutines read and
// write without waiting for it; the reader sees the store before the
// write, and the write is made again over what they wrote. (Under the old
// rule, hooks ran under the lock: the reader waited.)
func TestHookRunsWithoutTheLock(t *testing.T) {
	c := controller.New(controller.Options{Now: newClock().Now})
	var armed atomic.Bool
	entered, release := make(chan struct{}), make(chan struct{})
	var titles []string // what the hook merged into, one per run
	var ep *funcEndpoint
	ep = bookEndpoint("book", endpoint.Spec{Schema: book(func(e *schema.Entity) {
		e.Merge = func(a, b value.Value) value.Value {
			titles = append(titles, a.Get("title").Str())
			if armed.CompareAndSwap(true, false) {
				close(entered)
				<-release
			}
			return schema.ShallowMerge(a, b)
		}
	})})
	require.NoError(t, c.SetResponse(ep, value.Obj(), value.MustParse(`{"id":"1","title":"first"}`)))
	armed.Store(true)

	fetched := make(chan error, 1)
	go func() { fetched <- fetch(c, ep) }()
	<-entered // the hook runs, the lock released

	var read endpoint.Response
	require.Nil(t, within(t, "GetResponse", func() { read = c.GetResponse(ep, value.Obj()) }))
	require.NoError(t, read.Err)
	assert.Equal(t, "first", read.Data.Get("title").Str(), "nothing of the write is visible yet")
	var err error
	require.Nil(t, within(t, "SetResponse", func() {
		err = c.SetResponse(ep, value.Obj(), value.MustParse(`{"id":"1","title":"meanwhile"}`))
	}))
	require.NoError(t, err)
	close(release)

	require.NoError(t, <-fetched)
	// The fetch's first run; the other write's; the fetch's again over it,
	// where the other write, the newer request, is the existing record
	// and the response merges under it (as Entity.Merge's older one).
	assert.Equal(t, []string{"first", "first", "served"}, titles)
	assert.Equal(t, "meanwhile", c.GetResponse(ep, value.Obj()).Data.Get("title").Str(), "the newer write wins, as always")
}

// TestConcurrentWritersWithHooks: writers on several goroutines whose
// hooks read and write the controller, started together, all succeed
// (under -race: no data race) and leave every record and result they
// wrote, each record as some writer merged it.
func TestConcurrentWritersWithHooks(t *testing.T) {
	const writers = 4
	c := controller.New(controller.Options{Now: newClock().Now})
	shared := bookEndpoint("shared", endpoint.Spec{Schema: book(nil)})
	var merges, failedReads atomic.Int64
	e := book(func(e *schema.Entity) {
		e.Merge = func(a, b value.Value) value.Value {
			merges.Add(1)
			if c.GetResponse(shared, value.Obj()).Err != nil {
				failedReads.Add(1)
			}
			return schema.ShallowMerge(a, b)
		}
	})
	eps := make([]*funcEndpoint, writers)
	for i := range eps {
		eps[i] = bookEndpoint(fmt.Sprintf("w%d", i), endpoint.Spec{Schema: e})
		require.NoError(t, c.SetResponse(eps[i], value.Obj(), value.MustParse(`{"id":"1","title":"start"}`)))
	}
	start := make(chan struct{})
	errs := make(chan error, writers)
	for i := range eps {
		go func() {
			<-start
			var err error
			for round := range 3 {
				data := value.MustParse(fmt.Sprintf(`{"id":"1","title":"w%d.%d"}`, i, round))
				err = errors.Join(err, c.SetResponse(eps[i], value.Obj(), data))
				err = errors.Join(err, c.SetResponse(shared, value.Obj(), value.MustParse(`{"id":"2"}`)))
			}
			errs <- err
		}()
	}
	close(start)
	for range writers {
		require.NoError(t, <-errs)
	}
	title := c.GetResponse(eps[0], value.Obj()).Data.Get("title").Str()
	assert.Regexp(t, `^w\d\.2$`, title, "the record as a writer's last round left it")
	for _, ep := range eps {
		assert.Equal(t, title, c.GetResponse(ep, value.Obj()).Data.Get("title").Str(), "one record")
	}
	assert.GreaterOrEqual(t, merges.Load(), int64(writers*3))
	assert.Zero(t, failedReads.Load(), "every hook's read was served")
}

// TestHookPanicFailsRequest: a hook that calls the controller and then
// panics fails its request only: nothing of the write is stored, the lock
// is free again, and the goroutine the hook ran on uses the controller
// afterwards.
func TestHookPanicFailsRequest(t *testing.T) {
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
						c.State()
						panic(errors.New("hook failed"))
					}
					return schema.ShallowMerge(a, b)
				}
			})})
			require.NoError(t, c.SetResponse(ep, value.Obj(), value.MustParse(`{"id":"1","title":"first"}`)))
			armed.Store(true)
			var err error
			require.Nil(t, within(t, tt.name, func() {
				err = fetch(c, ep)
				armed.Store(false)
				if rerr := c.GetResponse(plain(), value.Obj()).Err; rerr != nil {
					err = errors.Join(err, fmt.Errorf("after the request: %w", rerr))
				}
			}))
			require.ErrorContains(t, err, "internal error")
			assert.ErrorContains(t, err, "hook failed")
			assert.NotContains(t, err.Error(), "after the request")
			assert.Equal(t, "first", c.GetResponse(ep, value.Obj()).Data.Get("title").Str())
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
