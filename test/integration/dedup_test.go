package integration

import (
	"context"
	"errors"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testapi"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// The fetch triggers of useSuspense, observed at the server: the first
// read, new params, a deleted required entity, an invalidation; only when
// the result is missing or stale, nothing identical is in flight and the
// params are not null (docs/js-api.md, useSuspense).

func TestFetchTriggers(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{DataExpiryLength: time.Minute})
	r := e.Resource("/articles/:id", plainArticleE, rest.Options{})
	get := r.Get
	count := func() int { return e.API.Count("GET /articles/1") }

	t.Run("first read fetches", func(t *testing.T) {
		v := e.Suspense(get, id("1"))
		assert.Equal(t, "Normalizing nested API responses", v.Get("title").Str())
		assert.Equal(t, 1, count())
		assert.Equal(t, endpoint.Valid, e.Ctrl.GetResponse(get, id("1")).ExpiryStatus)
	})
	t.Run("fresh read makes no request", func(t *testing.T) {
		before := e.Ctrl.GetResponse(get, id("1")).Data
		e.Clock.Advance(59 * time.Second)
		for _, read := range []func(context.Context, endpoint.Endpoint, value.Value) (value.Value, error){
			e.Ctrl.Suspense, e.Ctrl.FetchIfStale,
		} {
			v, err := read(context.Background(), get, id("1"))
			require.NoError(t, err)
			assert.True(t, value.Same(before, v))
		}
		assert.Equal(t, 1, count())
	})
	t.Run("other params fetch", func(t *testing.T) {
		v := e.Suspense(get, id("2"))
		assert.Equal(t, "2", v.Get("id").Str())
		assert.Equal(t, 1, e.API.Count("GET /articles/2"))
		assert.Equal(t, 1, count())
	})
	t.Run("stale returns the cached value and revalidates", func(t *testing.T) {
		require.Equal(t, 200, e.send("PATCH", "/articles/1", `{"title":"Changed on the server"}`))
		e.Clock.Advance(2 * time.Second) // 61 s after the fetch
		assert.Equal(t, endpoint.Stale, e.Ctrl.GetResponse(get, id("1")).ExpiryStatus)
		v := e.Suspense(get, id("1"))
		assert.Equal(t, "Normalizing nested API responses", v.Get("title").Str(), "stale value returned at once")
		require.Eventually(t, func() bool {
			return e.Ctrl.GetResponse(get, id("1")).Data.Get("title").Str() == "Changed on the server"
		}, testkit.WaitLimit, time.Millisecond, "background revalidation stores the new data")
		assert.Equal(t, 2, count())
		assert.Equal(t, endpoint.Valid, e.Ctrl.GetResponse(get, id("1")).ExpiryStatus)
	})
	t.Run("invalidate makes the next read fetch and wait", func(t *testing.T) {
		require.Equal(t, 200, e.send("PATCH", "/articles/1", `{"title":"Changed again"}`))
		require.NoError(t, e.Ctrl.Invalidate(get, id("1")))
		assert.Equal(t, endpoint.Invalid, e.Ctrl.GetResponse(get, id("1")).ExpiryStatus)
		v := e.Suspense(get, id("1"))
		assert.Equal(t, "Changed again", v.Get("title").Str(), "the read waited for the new data")
		assert.Equal(t, 3, count())
	})
	t.Run("expireAll and invalidateAll by key", func(t *testing.T) {
		onArticles := func(k string) bool { return strings.Contains(k, "/articles/") }
		e.Ctrl.ExpireAll(onArticles)
		assert.Equal(t, endpoint.Stale, e.Ctrl.GetResponse(get, id("1")).ExpiryStatus)
		assert.Equal(t, endpoint.Stale, e.Ctrl.GetResponse(get, id("2")).ExpiryStatus)
		e.Suspense(get, id("2"))
		// Wait for the revalidation to be stored, not only to reach the
		// server: stored after InvalidateAll, it would make the result valid
		// again and the read below would not fetch.
		require.Eventually(t, func() bool {
			return e.API.Count("GET /articles/2") == 2 && e.Ctrl.GetResponse(get, id("2")).ExpiryStatus == endpoint.Valid
		}, testkit.WaitLimit, time.Millisecond, "the background revalidation is stored")

		e.Ctrl.InvalidateAll(onArticles)
		for _, p := range []string{"1", "2"} {
			assert.Equal(t, endpoint.Invalid, e.Ctrl.GetResponse(get, id(p)).ExpiryStatus)
		}
		e.Suspense(get, id("1"))
		assert.Equal(t, 4, count())
		e.Suspense(get, id("2"))
		assert.Equal(t, 3, e.API.Count("GET /articles/2"))
	})
	t.Run("a required entity deleted locally makes the next read fetch", func(t *testing.T) {
		// A delete that is not sent (as one learnt from another tab).
		forget := e.Endpoint(rest.Options{Name: "forget", Path: "/articles/:id", Method: "DELETE",
			Schema: schema.InvalidateOf(plainArticleE),
			Fetch: func(_ context.Context, _ *rest.Endpoint, params value.Value, _ any) (value.Value, error) {
				return params, nil
			}})
		e.Fetch(forget, id("2"), nil)
		assert.Equal(t, endpoint.Invalid, e.Ctrl.GetResponse(get, id("2")).ExpiryStatus)
		before := e.API.Count("GET /articles/2")
		v := e.Suspense(get, id("2"))
		assert.Equal(t, "Stale-while-revalidate in practice", v.Get("title").Str())
		assert.Equal(t, before+1, e.API.Count("GET /articles/2"))
		assert.Equal(t, endpoint.Valid, e.Ctrl.GetResponse(get, id("2")).ExpiryStatus)
	})
	t.Run("a required entity deleted at the server makes the next read fetch", func(t *testing.T) {
		e.Fetch(r.Delete, id("1"), nil)
		assert.Equal(t, endpoint.Invalid, e.Ctrl.GetResponse(get, id("1")).ExpiryStatus)
		before := count()
		_, err := e.Ctrl.Suspense(context.Background(), get, id("1"))
		var ne *rest.NetworkError
		require.ErrorAs(t, err, &ne, "the refetch reports the server's 404")
		assert.Equal(t, 404, ne.Status)
		assert.Equal(t, before+1, count())
	})
	t.Run("null params do nothing", func(t *testing.T) {
		counts := e.API.Counts()
		st := e.Ctrl.State()
		v, err := e.Ctrl.Suspense(context.Background(), get, value.NullV)
		require.NoError(t, err)
		assert.True(t, v.IsUndefined())
		v, err = e.Ctrl.FetchIfStale(context.Background(), get, value.NullV)
		require.NoError(t, err)
		assert.True(t, v.IsUndefined())
		var seen []controller.State
		unsub, err := e.Ctrl.Subscribe(get, value.NullV, func(s controller.State) { seen = append(seen, s) })
		require.NoError(t, err)
		unsub()
		require.Len(t, seen, 1)
		assert.True(t, seen[0].Data.IsUndefined())
		assert.False(t, seen[0].Loading)
		assert.Equal(t, counts, e.API.Counts(), "no request")
		assert.True(t, value.Equal(st, e.Ctrl.State()), "no store change")
	})
}

// waitingContext is a reader's context that reports when the reader starts
// waiting on it: a call that blocks until a shared request ends must watch
// its context's Done channel meanwhile (to honour cancellation), so the
// first call of Done is the event "this reader is waiting". The request
// itself runs detached from every reader's context.
type waitingContext struct {
	context.Context
	once    sync.Once
	waiting chan<- struct{}
}

func (c *waitingContext) Done() <-chan struct{} {
	c.once.Do(func() { c.waiting <- struct{}{} })
	return c.Context.Done()
}

// TestConcurrentIdenticalReads holds the one request at the server until
// eight readers of every kind are waiting for it, then counts at the
// server. No reader can be served from the cache (nothing is stored before
// the release), and a reader that did not join would send a request of its
// own: one request at the server means all eight shared it.
func TestConcurrentIdenticalReads(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	get := e.Resource("/articles/:id", plainArticleE, rest.Options{}).Get
	e.API.Hold()

	readers := []struct {
		name string
		read func(context.Context, endpoint.Endpoint, value.Value) (value.Value, error)
	}{
		{"Suspense", e.Ctrl.Suspense},
		{"FetchIfStale", e.Ctrl.FetchIfStale},
		{"Fetch", func(ctx context.Context, ep endpoint.Endpoint, p value.Value) (value.Value, error) {
			return e.Ctrl.Fetch(ctx, ep, p, nil)
		}},
	}
	const n = 8
	waiting := make(chan struct{}, n)
	results := make(chan result, n)
	for i := range n {
		rd := readers[i%len(readers)]
		go func() {
			ctx := &waitingContext{Context: context.Background(), waiting: waiting}
			v, err := rd.read(ctx, get, id("8"))
			results <- result{v, err}
		}()
	}
	var mu sync.Mutex
	var states []controller.State
	unsub, err := e.Ctrl.Subscribe(get, id("8"), func(s controller.State) {
		mu.Lock()
		states = append(states, s)
		mu.Unlock()
	})
	require.NoError(t, err)
	defer unsub()

	for range n {
		testkit.Wait(t, waiting, "a reader waiting for the request in flight")
	}
	e.WaitHeld(1)
	assert.Len(t, e.API.Held(), 1, "one request for eight readers and a subscriber")
	assert.Empty(t, results, "no reader returns before the response")
	mu.Lock()
	assert.True(t, states[len(states)-1].Loading, "the subscriber sees loading")
	mu.Unlock()
	e.API.Unhold()

	var first value.Value
	for i := range n {
		r := wait(t, results)
		require.NoError(t, r.err)
		assert.Equal(t, "Deduplicating identical requests", r.v.Get("title").Str())
		if i == 0 {
			first = r.v
		} else {
			assert.True(t, value.Same(first, r.v), "every reader gets the identical value")
		}
	}
	assert.Equal(t, 1, e.API.Count("GET /articles/8"), "counted at the server: every reader shared the one request")
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		last := states[len(states)-1]
		return !last.Loading && value.Same(first, last.Data)
	}, testkit.WaitLimit, time.Millisecond)
}

func TestMutationsAreNeverShared(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	r := e.Resource("/articles/:id", plainArticleE, rest.Options{})
	e.API.Hold()
	body := obj(`{"published":true}`)
	var chs []<-chan result
	for range 3 {
		chs = append(chs, e.async(r.PartialUpdate, id("4"), body))
	}
	e.WaitHeld(3) // times out if the three were shared
	e.API.Unhold()
	for _, ch := range chs {
		res := wait(t, ch)
		require.NoError(t, res.err)
		assert.True(t, res.v.Get("published").Boolean())
	}
	assert.Equal(t, 3, e.API.Count("PATCH /articles/4"))
	assert.Len(t, e.rec.find("PATCH", "/articles/4"), 3)
}

func TestErrorKeptForErrorExpiryLength(t *testing.T) {
	tests := []struct {
		name   string
		expiry time.Duration // the endpoint's; 0 takes the default
		window time.Duration
	}{
		{"controller default", 0, controller.DefaultErrorExpiryLength},
		{"endpoint option", 5 * time.Second, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, testapi.Options{}, controller.Options{})
			get := e.Endpoint(rest.Options{Name: "article", Path: "/articles/:id", Schema: plainArticleE, ErrorExpiryLength: tt.expiry})
			count := func() int { return e.API.Count("GET /articles/999") }

			_, err := e.Ctrl.Suspense(context.Background(), get, id("999"))
			var ne *rest.NetworkError
			require.ErrorAs(t, err, &ne)
			assert.Equal(t, 404, ne.Status)
			assert.Equal(t, 1, count())

			e.Clock.Advance(tt.window - time.Millisecond)
			_, err2 := e.Ctrl.Suspense(context.Background(), get, id("999"))
			require.Error(t, err2)
			assert.True(t, errors.Is(err2, err) || err2.Error() == err.Error(), "the kept error: %v", err2)
			assert.Equal(t, 1, count(), "inside the window: no request")
			assert.Error(t, e.Ctrl.GetResponse(get, id("999")).Err)

			e.Clock.Advance(time.Millisecond)
			_, err3 := e.Ctrl.Suspense(context.Background(), get, id("999"))
			require.Error(t, err3)
			assert.Equal(t, 2, count(), "the error expired: a new request")
		})
	}
}

func TestNullParamsNeverRequest(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	get := e.Resource("/articles/:id", plainArticleE, rest.Options{}).Get
	before := maps.Clone(e.API.Counts())
	for range 3 {
		v, err := e.Ctrl.Suspense(context.Background(), get, value.NullV)
		require.NoError(t, err)
		assert.True(t, v.IsUndefined())
	}
	assert.Equal(t, before, e.API.Counts())
	assert.Equal(t, `{"version":1,"entities":{},"endpoints":{},"meta":{},"entitiesMeta":{},"optimistic":[]}`, e.Ctrl.State().JSON())
}
