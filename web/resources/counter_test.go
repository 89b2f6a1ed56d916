package resources_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/api"
	"github.com/datafetch/datafetch/web/resources"
)

// hangLimit bounds every wait for an event: only a hang reaches it.
const hangLimit = 5 * time.Minute

// fakeClock is a controllable time source shared by the demo's server and
// the client's controller.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *fakeClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// heldIncrement is an increment at the gate in front of the demo's server:
// it waits for run before the server applies it, then for respond before
// its answer goes out.
type heldIncrement struct {
	run, ran, respond chan struct{}
}

// incrementGate serves the demo's API under /rest and holds every
// increment twice (see heldIncrement), so that a test decides when the
// server applies each one and in which order the answers arrive.
func incrementGate(t *testing.T, srv *api.Server) (*httptest.Server, <-chan *heldIncrement) {
	arrived := make(chan *heldIncrement, 16)
	stop := make(chan struct{})
	inner := httpStrip("/rest", srv)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/api/count/increment") {
			inner.ServeHTTP(w, r)
			return
		}
		h := &heldIncrement{run: make(chan struct{}), ran: make(chan struct{}), respond: make(chan struct{})}
		arrived <- h
		select {
		case <-h.run:
		case <-stop:
			return
		}
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		close(h.ran)
		select {
		case <-h.respond:
		case <-stop:
			return
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(stop) })
	return ts, arrived
}

func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(hangLimit):
		t.Fatalf("%s: nothing after %s", what, hangLimit)
		var zero T
		return zero
	}
}

// permutations returns every order of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			out = append(out, append(append(append([]int{}, p[:i]...), n-1), p[i:]...))
		}
	}
	return out
}

// TestCounterNeverGoesBackwards is the demo's Counter as its page uses it,
// against the demo's server: 4 clicks, each sent before the server applies
// any (the time a request travels), applied in the order sent a minute
// later, and answered in every order. The count a subscriber sees never
// decreases and ends at the server's count. (With the server's time of
// applying an increment as its updatedAt, later than the clicks, it went
// 1, 2, 3, 4, 3, ... as in the demo.)
func TestCounterNeverGoesBackwards(t *testing.T) {
	const n = 4
	for _, order := range permutations(n) {
		t.Run(fmt.Sprint(order), func(t *testing.T) {
			clk := &fakeClock{t: time.UnixMilli(1_750_000_000_000)}
			srv := api.New(api.Options{BasePath: "/rest", Now: clk.Now})
			t.Cleanup(srv.Close)
			ts, arrived := incrementGate(t, srv)
			a, err := resources.New(ts.URL + "/rest")
			require.NoError(t, err)
			c := controller.New(controller.Options{Now: clk.Now})

			var mu sync.Mutex
			var seen []int
			counts := make(chan int, 64)
			unsub, err := c.Subscribe(a.Counter.Get, value.Obj(), func(s controller.State) {
				if s.Data.IsUndefined() {
					return
				}
				f, _ := s.Data.Get("count").Float()
				mu.Lock()
				seen = append(seen, int(f))
				mu.Unlock()
				counts <- int(f)
			})
			require.NoError(t, err)
			defer unsub()
			require.Equal(t, 0, waitFor(t, counts, "first count"))

			held := make([]*heldIncrement, n)
			done := make([]chan error, n)
			for i := range n {
				clk.Advance(time.Second)
				done[i] = make(chan error, 1)
				go func() {
					_, err := c.Fetch(t.Context(), a.Counter.Increment, value.Obj(), resources.IncrementBody(clk.Now()))
					done[i] <- err
				}()
				held[i] = waitFor(t, arrived, fmt.Sprintf("click %d at the server", i+1))
			}
			clk.Advance(time.Minute) // the server applies them later, in order
			for _, h := range held {
				close(h.run)
				waitFor(t, h.ran, "the server applying an increment")
			}
			for _, i := range order {
				close(held[i].respond)
				require.NoError(t, waitFor(t, done[i], fmt.Sprintf("click %d", i+1)))
			}
			for last := -1; last != n; {
				last = waitFor(t, counts, "the final count")
			}
			assert.Zero(t, c.PendingOptimistic())

			mu.Lock()
			defer mu.Unlock()
			for i := 1; i < len(seen); i++ {
				assert.GreaterOrEqual(t, seen[i], seen[i-1], "the count went backwards: %v", seen)
			}
		})
	}
}
