package badinput

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// Faults of the network and the caller: a server that goes down and comes
// back, one slower than the endpoint's timeout, one that fails some of the
// time, and requests the caller aborts while their optimistic update shows.

// patchTitle is a PATCH of an article with an optimistic update of its
// title, whose result is the article.
func patchTitle(e *env, name string, o rest.Options) *rest.Endpoint {
	o.Name, o.Path, o.Method, o.Schema = name, "/articles/:id", "PATCH", articleE
	o.GetOptimisticResponse = func(snap endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
		return value.Obj(value.M("id", params.Get("id")), value.M("title", body.(value.Value).Get("title"))), nil
	}
	return e.Endpoint(o)
}

func titleOf(e *env, pk string) string {
	return e.Ctrl.GetResponse(e.article, id(pk)).Data.Get("title").Str()
}

func TestServerDownAndBack(t *testing.T) {
	e := newEnv(t)
	e.populate()
	before := e.Ctrl.State()
	e.down.Store(true)

	_, err := e.Ctrl.Suspense(context.Background(), e.comment, id(3))
	var ne *rest.NetworkError
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, 0, ne.Status)
	assert.Equal(t, "NetworkError", rest.ErrorName(err))
	assert.Contains(t, err.Error(), "comment: GET "+e.URL+"/comments/3: network error")
	key, _ := e.comment.Key(id(3))
	assert.True(t, value.Equal(before, fixture.WithoutMeta(e.Ctrl.State(), key)), "only the failed key's error is new")

	// Fresh data is still served while the server is down.
	c1 := e.Suspense(e.comment, id(1))
	assert.Equal(t, "1", text(c1, "id"))

	// A mutation with an optimistic update fails and is rolled back.
	patch := patchTitle(e, "patch", rest.Options{})
	_, err = e.Ctrl.Fetch(context.Background(), patch, id("1"), obj(`{"title":"while down"}`))
	require.Error(t, err)
	assert.NotEqual(t, "while down", titleOf(e, "1"))
	assert.Zero(t, e.Ctrl.PendingOptimistic())

	// Back up: once the kept error expires, the read works.
	e.down.Store(false)
	_, err = e.Ctrl.Suspense(context.Background(), e.comment, id(3))
	assert.Error(t, err, "inside errorExpiryLength the error is kept")
	e.Clock.Advance(controller.DefaultErrorExpiryLength + time.Millisecond)
	assert.Equal(t, "3", text(e.Suspense(e.comment, id(3)), "id"))
	_, err = e.Ctrl.Fetch(context.Background(), patch, id("1"), obj(`{"title":"back up"}`))
	require.NoError(t, err)
	assert.Equal(t, "back up", titleOf(e, "1"))
	e.alive()
}

func TestSlowerThanTimeout(t *testing.T) {
	e := newEnv(t)
	e.populate()
	before := e.Ctrl.State()
	ep := e.Endpoint(rest.Options{Name: "slow", Path: "/comments/:id", Schema: commentE, Timeout: 50 * time.Millisecond})
	// The server holds every request until the test ends, so only the
	// endpoint's timeout can end this one, however loaded the machine is.
	e.API.Hold()

	_, err := e.Ctrl.Suspense(context.Background(), ep, id(3))
	assert.Equal(t, "TimeoutError", rest.ErrorName(err))
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "slow: GET "+e.URL+"/comments/3: request timed out: timeout of 50ms exceeded")
	key, _ := ep.Key(id(3))
	assert.True(t, value.Equal(before, fixture.WithoutMeta(e.Ctrl.State(), key)))

	// An optimistic mutation that times out is rolled back.
	patch := patchTitle(e, "slowPatch", rest.Options{Timeout: 50 * time.Millisecond})
	_, err = e.Ctrl.Fetch(context.Background(), patch, id("1"), obj(`{"title":"too slow"}`))
	assert.Equal(t, "TimeoutError", rest.ErrorName(err))
	assert.NotEqual(t, "too slow", titleOf(e, "1"))
	assert.Zero(t, e.Ctrl.PendingOptimistic())

	e.API.Unhold()
	e.Clock.Advance(controller.DefaultErrorExpiryLength + time.Millisecond)
	assert.Equal(t, "3", text(e.Suspense(ep, id(3)), "id"))
	e.alive()
}

func TestIntermittentReads(t *testing.T) {
	e := newEnv(t)
	e.populate()
	flaky := e.Endpoint(rest.Options{Name: "flaky", Path: "/bad/flaky", Schema: commentE})
	params := obj(`{"id":4}`)
	for i := range 4 {
		v, err := e.Ctrl.Suspense(context.Background(), flaky, params)
		if i%2 == 0 {
			var ne *rest.NetworkError
			require.ErrorAs(t, err, &ne, "attempt %d", i)
			assert.Equal(t, 503, ne.Status)
			assert.Contains(t, err.Error(), "intermittent failure")
		} else {
			require.NoError(t, err, "attempt %d", i)
			assert.Equal(t, "4", text(v, "id"))
		}
		// Past the kept error and the data's expiry: the next read fetches.
		e.Clock.Advance(controller.DefaultDataExpiryLength + time.Second)
		e.Ctrl.InvalidateAll(func(string) bool { return true })
	}
}

// TestIntermittentMutations: mutations that fail some of the time. Each
// failure rolls back only its own optimistic update, even while later ones
// are pending.
func TestIntermittentMutations(t *testing.T) {
	e := newEnv(t)
	e.populate()
	e.Suspense(e.article, id("2"))
	patch := patchTitle(e, "patch", rest.Options{})
	e.API.Hold()
	first := make(chan error, 1)
	go func() {
		_, err := e.Ctrl.Fetch(context.Background(), patch, id("1"), obj(`{"title":"first"}`))
		first <- err
	}()
	e.WaitHeld(1)
	second := make(chan error, 1)
	go func() {
		_, err := e.Ctrl.Fetch(context.Background(), patch, id("2"), obj(`{"title":"second"}`))
		second <- err
	}()
	e.WaitHeld(2)
	assert.Equal(t, "first", titleOf(e, "1"))
	assert.Equal(t, "second", titleOf(e, "2"))
	assert.Equal(t, 2, e.Ctrl.PendingOptimistic())

	e.API.FailNext(1, 502)
	held := e.API.Held()
	require.True(t, e.API.Release(held[0].Seq))
	err := <-first
	var ne *rest.NetworkError
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, 502, ne.Status)
	assert.NotEqual(t, "first", titleOf(e, "1"), "the failed update is rolled back")
	assert.Equal(t, "second", titleOf(e, "2"), "the other one still shows")
	require.True(t, e.API.Release(held[1].Seq))
	require.NoError(t, <-second)
	assert.Equal(t, "second", titleOf(e, "2"))
	assert.Zero(t, e.Ctrl.PendingOptimistic())
	e.API.Unhold()
	e.alive()
}

func TestCallerAborts(t *testing.T) {
	for _, how := range []string{"context", "signal"} {
		t.Run(how, func(t *testing.T) {
			e := newEnv(t)
			e.populate()
			prior := e.Ctrl.GetResponse(e.article, id("1")).Data
			before := e.Ctrl.State()
			e.API.Hold()
			defer e.API.Unhold()

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			o := rest.Options{}
			callCtx := context.Background()
			if how == "signal" {
				o.Signal = ctx // an AbortSignal, in Go
			} else {
				callCtx = ctx
			}
			patch := patchTitle(e, "abortable", o)
			done := make(chan error, 1)
			go func() {
				_, err := e.Ctrl.Fetch(callCtx, patch, id("1"), obj(`{"title":"optimistic"}`))
				done <- err
			}()
			e.WaitHeld(1)
			assert.Equal(t, "optimistic", titleOf(e, "1"), "the optimistic update shows while the request is out")
			assert.Equal(t, 1, e.Ctrl.PendingOptimistic())
			assert.Len(t, e.Ctrl.State().Get("optimistic").Elems(), 1)

			cancel()
			err := <-done
			require.Error(t, err)
			assert.Equal(t, "AbortError", rest.ErrorName(err))
			assert.ErrorIs(t, err, context.Canceled)
			assert.Contains(t, err.Error(), "abortable")
			assert.Contains(t, err.Error(), "/articles/1")
			assert.Contains(t, err.Error(), "request aborted")

			assert.Zero(t, e.Ctrl.PendingOptimistic(), "no optimistic residue")
			assert.Empty(t, e.Ctrl.State().Get("optimistic").Elems())
			now := e.Ctrl.GetResponse(e.article, id("1")).Data
			assert.True(t, value.Same(prior, now), "the article is back to its prior value, identity and all")
			key, _ := patch.Key(id("1"))
			assert.True(t, value.Equal(before, fixture.WithoutMeta(e.Ctrl.State(), key)),
				"store changed:\nbefore %s\nafter  %s", before, e.Ctrl.State())

			e.API.Unhold()
			e.alive()
			// A new request of the endpoint works (with the signal option,
			// an endpoint whose signal aborted stays aborted, as in JS).
			if how == "context" {
				_, err := e.Ctrl.Fetch(context.Background(), patch, id("1"), obj(`{"title":"after"}`))
				require.NoError(t, err)
				assert.Equal(t, "after", titleOf(e, "1"))
			} else {
				_, err := e.Ctrl.Fetch(context.Background(), patch, id("1"), obj(`{"title":"after"}`))
				assert.True(t, errors.Is(err, context.Canceled), "%v", err)
			}
		})
	}
}

// TestDeepSchema: a schema nested deeper than any real one is refused where
// it is written, with a clear error, rather than overflowing a walk over it.
func TestDeepSchema(t *testing.T) {
	e := newEnv(t)
	var s schema.Schema = commentE
	for range 10000 {
		s = schema.ArrayOf(s)
	}
	_, err := rest.New(rest.Options{Name: "deepSchema", URLPrefix: e.URL, Path: "/comments", Schema: s})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "deepSchema")
	assert.Contains(t, err.Error(), "schema nests deeper than 256 levels")
	assert.Less(t, len(err.Error()), 200)

	// A schema that names itself is not deep: each entity counts once.
	u := &schema.Entity{Key: "U", Defaults: obj(`{"id":null}`)}
	u.Schema = map[string]schema.Schema{"next": u, "all": schema.ArrayOf(u)}
	_, err = rest.New(rest.Options{Name: "selfSchema", URLPrefix: e.URL, Path: "/users", Schema: schema.ArrayOf(u)})
	assert.NoError(t, err)
}

// TestCallerAbortsRead: a read whose caller's context ends, or whose
// endpoint's Signal aborts, while the server holds the request gets an
// AbortError that names the endpoint and the URL; the store is as it was
// (but for the key's error), and other reads go on.
func TestCallerAbortsRead(t *testing.T) {
	for _, how := range []string{"context", "signal"} {
		t.Run(how, func(t *testing.T) {
			e := newEnv(t)
			e.populate()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			o := rest.Options{Name: "held", Path: "/comments/:id", Schema: commentE}
			callCtx := context.Background()
			if how == "signal" {
				o.Signal = ctx
			} else {
				callCtx = ctx
			}
			held := e.Endpoint(o)
			before := e.Ctrl.State()
			e.API.Hold()
			done := make(chan error, 1)
			go func() {
				_, err := e.Ctrl.Suspense(callCtx, held, id(3))
				done <- err
			}()
			e.WaitHeld(1)
			cancel()
			err := testkit.Wait(t, done, "the aborted read to return")

			require.Error(t, err)
			assert.Equal(t, "AbortError", rest.ErrorName(err))
			assert.ErrorIs(t, err, context.Canceled)
			for _, want := range []string{"held", "GET " + e.URL + "/comments/3", "request aborted"} {
				assert.Contains(t, err.Error(), want)
			}
			if how == "signal" {
				var ne *rest.NetworkError
				require.ErrorAs(t, err, &ne)
				assert.Equal(t, 0, ne.Status)
			}
			key, _ := held.Key(id(3))
			assert.True(t, value.Equal(before, fixture.WithoutMeta(e.Ctrl.State(), key)),
				"store changed:\nbefore %s\nafter  %s", before, e.Ctrl.State())
			// Released only now: with a caller's context, the shared request
			// goes on without its waiter and stores its answer.
			e.API.Unhold()
			e.alive()
		})
	}
}

// TestEntityWithoutKeyOrDefaults: an entity that cannot be used is refused
// where it is given, by Validate, NewResource and LegacyResource, with the
// resource's path in the message.
func TestEntityWithoutKeyOrDefaults(t *testing.T) {
	tests := []struct {
		name   string
		entity *schema.Entity
		want   string
	}{
		{"no key", &schema.Entity{Defaults: obj(`{"id":null}`)}, "entity has no key"},
		{"no defaults", &schema.Entity{Key: "Thing"}, "entity Thing: defaults must be an object, got undefined"},
		{"defaults not an object", &schema.Entity{Key: "Thing", Defaults: obj(`[]`)}, "entity Thing: defaults must be an object, got array"},
		{"nil", nil, "entity is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.EqualError(t, tt.entity.Validate(), tt.want)
			_, err := rest.NewResource(rest.ResourceOptions{URLPrefix: "http://x", Path: "/things/:id", Schema: tt.entity})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "/things/:id")
			assert.Contains(t, err.Error(), tt.want)
			_, err = rest.LegacyResource("http://x/thing/", tt.entity)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "http://x/thing/")
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
