package controller_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/rest/nethttp"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// retryServer answers GET /item/{id} with an Item, failing the first fail
// requests with status (0: the connection is closed with no response) and
// the Retry-After header retryAfter when set. It counts the requests, which
// is how the tests count attempts.
type retryServer struct {
	*httptest.Server
	mu         sync.Mutex
	attempts   int
	fail       int
	status     int
	retryAfter string
}

func newRetryServer(t *testing.T, fail, status int, retryAfter string) *retryServer {
	s := &retryServer{fail: fail, status: status, retryAfter: retryAfter}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.attempts++
		n := s.attempts
		s.mu.Unlock()
		if n <= s.fail {
			if s.status == 0 {
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					_ = conn.Close()
				}
				return
			}
			if s.retryAfter != "" {
				w.Header().Set("Retry-After", s.retryAfter)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(s.status)
			_, _ = w.Write([]byte(`{"error":"failure ` + strconv.Itoa(n) + `"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"` + strings.TrimPrefix(r.URL.Path, "/item/") + `","attempt":` + strconv.Itoa(n) + `}`))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *retryServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

var retryItem = &schema.Entity{Key: "Item", Defaults: value.MustParse(`{"id":null,"attempt":0}`)}

// endpoint returns GET /item/:id on s, with change applied to its options.
func (s *retryServer) endpoint(t *testing.T, change func(o *rest.Options)) *rest.Endpoint {
	o := rest.Options{URLPrefix: s.URL, Path: "/item/:id", Name: "item", Schema: retryItem, Transport: &nethttp.Transport{Client: s.Client()}}
	if change != nil {
		change(&o)
	}
	ep, err := rest.New(o)
	require.NoError(t, err)
	return ep
}

func itemParams(id string) value.Value { return value.Obj(value.M("id", value.Str(id))) }

type result struct {
	v   value.Value
	err error
}

// start runs f on a goroutine and returns where its result arrives.
func start(f func() (value.Value, error)) <-chan result {
	ch := make(chan result, 1)
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	return ch
}

func newRetryController(opts controller.Options) (*controller.Controller, *testkit.Timers, *testkit.Clock) {
	timers := testkit.NewTimers()
	clk := newClock()
	opts.Now, opts.AfterFunc = clk.Now, timers.AfterFunc
	return controller.New(opts), timers, clk
}

func TestDefaultRetryDelay(t *testing.T) {
	for attempt, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second, 30 * time.Second} {
		d, err := controller.DefaultRetryDelay(attempt, nil)
		require.NoError(t, err)
		assert.Equal(t, want, d, "attempt %d", attempt)
	}
	d, _ := controller.DefaultRetryDelay(1000, nil)
	assert.Equal(t, 30*time.Second, d, "no overflow")
}

// Errors a retry may cure retry, with the default delays; the others fail
// at once, with the one error.
func TestRetryByStatus(t *testing.T) {
	for _, tc := range []struct {
		status int
		retry  bool
	}{
		{0, true}, {408, true}, {429, true}, {500, true}, {502, true}, {503, true}, {504, true},
		{400, false}, {401, false}, {403, false}, {404, false}, {409, false}, {422, false},
	} {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			s := newRetryServer(t, 2, tc.status, "")
			c, timers, _ := newRetryController(controller.Options{Retry: 3})
			ep := s.endpoint(t, nil)
			got := start(func() (value.Value, error) { return c.Suspense(context.Background(), ep, itemParams("1")) })
			if !tc.retry {
				r := testkit.Wait(t, got, "the failed read")
				var ne *rest.NetworkError
				require.ErrorAs(t, r.err, &ne)
				assert.Equal(t, tc.status, ne.Status)
				assert.Equal(t, 0, controller.Retries(r.err))
				assert.Equal(t, 1, s.count(), "one attempt")
				assert.Zero(t, timers.Started(), "no wait for a retry")
				return
			}
			for i, want := range []time.Duration{time.Second, 2 * time.Second} {
				tm := timers.Next(t, "the wait before retry "+strconv.Itoa(i))
				assert.Equal(t, want, tm.D)
				assert.Equal(t, i+1, s.count(), "attempts made before retry %d", i)
				require.True(t, tm.Fire())
			}
			r := testkit.Wait(t, got, "the read")
			require.NoError(t, r.err)
			assert.Equal(t, `{"id":"1","attempt":3}`, r.v.JSON())
			assert.Equal(t, 3, s.count())
			assert.Empty(t, timers.Pending())
		})
	}
}

// The caller sees the last error only, with the number of retries; it is
// kept as the result's error.
func TestRetryGivesUpWithLastError(t *testing.T) {
	s := newRetryServer(t, 10, 503, "")
	c, timers, _ := newRetryController(controller.Options{Retry: 5})
	ep := s.endpoint(t, func(o *rest.Options) { o.Retry = 2 }) // the endpoint's wins
	got := start(func() (value.Value, error) { return c.Suspense(context.Background(), ep, itemParams("1")) })
	timers.Next(t, "first wait").Fire()
	timers.Next(t, "second wait").Fire()
	r := testkit.Wait(t, got, "the failed read")
	require.Error(t, r.err)
	assert.Equal(t, 3, s.count())
	assert.Equal(t, 2, controller.Retries(r.err))
	var ne *rest.NetworkError
	require.ErrorAs(t, r.err, &ne)
	assert.Equal(t, `{"error":"failure 3"}`, ne.Body.JSON(), "the last attempt's error")
	assert.Equal(t, "NetworkError", rest.ErrorName(r.err))
	assert.Contains(t, r.err.Error(), "503 Service Unavailable")
	assert.Contains(t, r.err.Error(), "(after 2 retries)")
	assert.Equal(t, r.err, c.GetResponse(ep, itemParams("1")).Err, "kept as the result's error")
	assert.Empty(t, timers.Pending())
}

func TestRetryAfter(t *testing.T) {
	clockNow := newClock().Now()
	for _, tc := range []struct {
		name       string
		status     int
		retryAfter string
		want       time.Duration
	}{
		{"seconds on 429", 429, "7", 7 * time.Second},
		{"seconds on 503", 503, "120", 2 * time.Minute},
		{"date on 503", 503, clockNow.Add(90 * time.Second).UTC().Format(http.TimeFormat), 90 * time.Second},
		{"date in the past", 429, clockNow.Add(-time.Hour).UTC().Format(http.TimeFormat), 0},
		{"RFC 850 date", 503, clockNow.Add(5 * time.Second).UTC().Format("Monday, 02-Jan-06 15:04:05 GMT"), 5 * time.Second},
		{"ignored on 500", 500, "7", time.Second},
		{"ignored on 502", 502, "7", time.Second},
		{"garbage", 503, "soon", time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRetryServer(t, 1, tc.status, tc.retryAfter)
			c, timers, _ := newRetryController(controller.Options{Retry: 1})
			ep := s.endpoint(t, nil)
			got := start(func() (value.Value, error) { return c.Suspense(context.Background(), ep, itemParams("1")) })
			tm := timers.Next(t, "the wait")
			assert.Equal(t, tc.want, tm.D)
			tm.Fire()
			require.NoError(t, testkit.Wait(t, got, "the read").err)
			assert.Equal(t, 2, s.count())
		})
	}
}

// RetryDelay: the endpoint's, else the controller's, gets the attempt and
// the error; an error from it stops the retries.
func TestRetryDelayOption(t *testing.T) {
	type call struct {
		attempt int
		status  int
	}
	var mu sync.Mutex
	var calls []call
	delay := func(scale time.Duration) func(int, error) (time.Duration, error) {
		return func(attempt int, err error) (time.Duration, error) {
			var ne *rest.NetworkError
			errors.As(err, &ne)
			mu.Lock()
			calls = append(calls, call{attempt, ne.Status})
			mu.Unlock()
			return time.Duration(attempt+1) * scale, nil
		}
	}
	s := newRetryServer(t, 2, 500, "")
	c, timers, _ := newRetryController(controller.Options{Retry: 3, RetryDelay: delay(time.Hour)})
	ep := s.endpoint(t, func(o *rest.Options) { o.RetryDelay = delay(time.Millisecond) })
	got := start(func() (value.Value, error) { return c.Suspense(context.Background(), ep, itemParams("1")) })
	tm := timers.Next(t, "first wait")
	assert.Equal(t, time.Millisecond, tm.D)
	tm.Fire()
	tm = timers.Next(t, "second wait")
	assert.Equal(t, 2*time.Millisecond, tm.D)
	tm.Fire()
	require.NoError(t, testkit.Wait(t, got, "the read").err)
	assert.Equal(t, []call{{0, 500}, {1, 500}}, calls)

	// The controller's, for an endpoint without one. Another item: item 1
	// is stored now, and a read of it would be answered from the entity.
	s = newRetryServer(t, 1, 500, "")
	got = start(func() (value.Value, error) {
		return c.Suspense(context.Background(), s.endpoint(t, nil), itemParams("2"))
	})
	tm = timers.Next(t, "the controller's wait")
	assert.Equal(t, time.Hour, tm.D)
	tm.Fire()
	require.NoError(t, testkit.Wait(t, got, "the read").err)

	// A failing delay function fails the request with its error.
	s = newRetryServer(t, 5, 500, "")
	ep = s.endpoint(t, func(o *rest.Options) {
		o.RetryDelay = func(int, error) (time.Duration, error) { return 0, errors.New("no more") }
	})
	r := testkit.Wait(t, start(func() (value.Value, error) { return c.Suspense(context.Background(), ep, itemParams("3")) }), "the read")
	require.ErrorContains(t, r.err, "retryDelay: no more")
	assert.Equal(t, 1, s.count())
}

// Mutations, and endpoints without retries, never retry.
func TestNoRetry(t *testing.T) {
	yes := true
	for name, change := range map[string]func(o *rest.Options){
		"POST":                func(o *rest.Options) { o.Method = "POST" },
		"GET with sideEffect": func(o *rest.Options) { o.SideEffect = &yes },
		"retry -1":            func(o *rest.Options) { o.Retry = -1 },
	} {
		t.Run(name, func(t *testing.T) {
			s := newRetryServer(t, 5, 503, "")
			c, timers, _ := newRetryController(controller.Options{Retry: 3})
			_, err := c.Fetch(context.Background(), s.endpoint(t, change), itemParams("1"), nil)
			require.Error(t, err)
			assert.Equal(t, 1, s.count())
			assert.Zero(t, timers.Started())
			assert.Equal(t, 0, controller.Retries(err))
		})
	}
	// No Retry option anywhere: the error is the request's own.
	s := newRetryServer(t, 5, 503, "")
	c, timers, _ := newRetryController(controller.Options{})
	_, err := c.Fetch(context.Background(), s.endpoint(t, nil), itemParams("1"), nil)
	var re *controller.RetryError
	assert.False(t, errors.As(err, &re), "no RetryError without retries configured")
	assert.Equal(t, 1, s.count())
	assert.Zero(t, timers.Started())
}

// While it retries, the request is one request in flight: joined by other
// callers, loading for subscribers from the first attempt to the last.
func TestRetryIsOneRequestInFlight(t *testing.T) {
	s := newRetryServer(t, 2, 503, "")
	c, timers, _ := newRetryController(controller.Options{Retry: 3})
	ep := s.endpoint(t, nil)
	var mu sync.Mutex
	var states []controller.State
	first := start(func() (value.Value, error) { return c.Fetch(context.Background(), ep, itemParams("1"), nil) })
	tm := timers.Next(t, "first wait")
	require.Equal(t, 1, s.count())

	unsubscribe, err := c.Subscribe(ep, itemParams("1"), func(st controller.State) {
		mu.Lock()
		states = append(states, st)
		mu.Unlock()
	})
	require.NoError(t, err)
	defer unsubscribe()
	// A second caller joins the request: with a context already done it
	// returns at once, and had it started a request of its own the server
	// would count it.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Fetch(done, ep, itemParams("1"), nil)
	require.ErrorIs(t, err, context.Canceled)
	_, err = c.Suspense(done, ep, itemParams("1"))
	require.ErrorIs(t, err, context.Canceled)
	// The second caller joins before the request may finish: it waits on
	// its context once it has joined.
	joined := testkit.NewWaitingContext(context.Background())
	second := start(func() (value.Value, error) { return c.Fetch(joined, ep, itemParams("1"), nil) })
	testkit.Wait(t, joined.Waiting, "the second caller joining")
	assert.Equal(t, 1, s.count(), "no request besides the one retrying")

	tm.Fire()
	timers.Next(t, "second wait").Fire()
	r1, r2 := testkit.Wait(t, first, "first caller"), testkit.Wait(t, second, "second caller")
	require.NoError(t, r1.err)
	require.NoError(t, r2.err)
	assert.Equal(t, `{"id":"1","attempt":3}`, r1.v.JSON())
	assert.Equal(t, 3, s.count())
	assert.Empty(t, timers.Pending())

	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, states)
	last := states[len(states)-1]
	assert.False(t, last.Loading)
	assert.NoError(t, last.Err)
	assert.Equal(t, `{"id":"1","attempt":3}`, last.Data.JSON())
	for _, st := range states[:len(states)-1] {
		assert.True(t, st.Loading, "loading until the last attempt: %+v", st)
		assert.NoError(t, st.Err, "no error between attempts")
	}
}

// The endpoint's signal aborts a request waiting to retry: AbortError, no
// further attempt, no error kept. A timeout is not retried.
func TestRetryStoppedByAbort(t *testing.T) {
	s := newRetryServer(t, 5, 503, "")
	c, timers, _ := newRetryController(controller.Options{Retry: 3})
	sig, abort := context.WithCancel(context.Background())
	ep := s.endpoint(t, func(o *rest.Options) { o.Signal = sig })
	got := start(func() (value.Value, error) { return c.Suspense(context.Background(), ep, itemParams("1")) })
	tm := timers.Next(t, "first wait")
	abort()
	r := testkit.Wait(t, got, "the aborted read")
	require.ErrorIs(t, r.err, context.Canceled)
	assert.Equal(t, "AbortError", rest.ErrorName(r.err))
	assert.Equal(t, 0, controller.Retries(r.err))
	assert.True(t, tm.Stopped(), "the wait's timer is stopped")
	assert.Equal(t, 1, s.count())
	assert.NoError(t, c.GetResponse(ep, itemParams("1")).Err, "an abort is not kept")

	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer hang.Close()
	c, timers, _ = newRetryController(controller.Options{Retry: 3})
	slow, err := rest.New(rest.Options{URLPrefix: hang.URL, Path: "/slow", Name: "slow", Timeout: time.Millisecond,
		Transport: &nethttp.Transport{Client: hang.Client()}})
	require.NoError(t, err)
	_, err = c.Fetch(context.Background(), slow, value.Undef, nil)
	assert.Equal(t, "TimeoutError", rest.ErrorName(err))
	assert.Zero(t, controller.Retries(err))
	assert.Zero(t, timers.Started(), "no retry after a timeout")
}

// ResetEntireStore and Close stop a request waiting to retry.
func TestRetryStoppedByResetAndClose(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(c *controller.Controller)
		want error
	}{
		{"reset", (*controller.Controller).ResetEntireStore, controller.ErrReset},
		{"close", (*controller.Controller).Close, controller.ErrClosed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRetryServer(t, 5, 503, "")
			c, timers, _ := newRetryController(controller.Options{Retry: 3})
			ep := s.endpoint(t, nil)
			got := start(func() (value.Value, error) { return c.Suspense(context.Background(), ep, itemParams("1")) })
			timers.Next(t, "first wait").Fire()
			tm := timers.Next(t, "second wait")
			tc.stop(c)
			r := testkit.Wait(t, got, "the stopped read")
			require.ErrorIs(t, r.err, tc.want)
			var ne *rest.NetworkError
			require.ErrorAs(t, r.err, &ne, "the last attempt's error is told")
			assert.Equal(t, 503, ne.Status)
			assert.Equal(t, 1, controller.Retries(r.err))
			assert.Equal(t, 2, s.count())
			assert.True(t, tm.Stopped(), "the wait's timer is stopped")
		})
	}
}
