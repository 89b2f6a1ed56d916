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
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/api"
	"github.com/datafetch/datafetch/web/resources"
)

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

// TestCounterNeverGoesBackwards is the demo's Counter as its page uses it,
// against the demo's server: 4 clicks, each sent before the server applies
// any (the time a request travels), applied in the order sent a minute
// later, and answered in every order. The count a subscriber sees never
// decreases and ends at the server's count. (With the server's time of
// applying an increment as its updatedAt, later than the clicks, it went
// 1, 2, 3, 4, 3, ... as in the demo.)
func TestCounterNeverGoesBackwards(t *testing.T) {
	const n = 4
	for _, order := range testkit.Permutations(n) {
		t.Run(fmt.Sprint(order), func(t *testing.T) {
			clk := testkit.NewClock(time.UnixMilli(1_750_000_000_000))
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
			require.Equal(t, 0, testkit.Wait(t, counts, "first count"))

			held := make([]*heldIncrement, n)
			done := make([]chan error, n)
			for i := range n {
				clk.Advance(time.Second)
				done[i] = make(chan error, 1)
				go func() {
					_, err := c.Fetch(t.Context(), a.Counter.Increment, value.Obj(), resources.IncrementBody(clk.Now()))
					done[i] <- err
				}()
				held[i] = testkit.Wait(t, arrived, fmt.Sprintf("click %d at the server", i+1))
			}
			clk.Advance(time.Minute) // the server applies them later, in order
			for _, h := range held {
				close(h.run)
				testkit.Wait(t, h.ran, "the server applying an increment")
			}
			for _, i := range order {
				close(held[i].respond)
				require.NoError(t, testkit.Wait(t, done[i], fmt.Sprintf("click %d", i+1)))
			}
			for last := -1; last != n; {
				last = testkit.Wait(t, counts, "the final count")
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
