package controller_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/rest/nethttp"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// counterServer is the seed's counter API (GET /count, POST
// /count/increment) as a test server. An increment runs as soon as it
// arrives, so the server applies increments in the order they were sent;
// its response is then held until the test releases it, so responses
// resolve in whatever order the test picks (the case of the counter's
// ordering rule: useIncoming on updatedAt). updatedAt is the time the client made the request (the body's
// updatedAt, in epoch ms), or a millisecond past the previous one when that
// is not later: the scale of the optimistic update's snap.fetchedAt, with
// which the Count entity compares it. (Stamped instead with a server clock
// later than the clicks, as the demo's server did, 18 of the 24 orders of
// TestCounterNeverGoesBackwards go backwards: a response then looks newer
// than the optimistic updates of clicks made after its request was sent.)
type counterServer struct {
	*httptest.Server
	mu        sync.Mutex
	count     int
	updatedAt int64
	held      chan heldResponse
}

// heldResponse is an increment that has run at the server and whose
// response waits for release to be closed.
type heldResponse struct {
	count   int
	release chan struct{}
}

func newCounterServer(t *testing.T) *counterServer {
	s := &counterServer{held: make(chan heldResponse, 16)}
	stop := make(chan struct{})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.Method + " " + r.URL.Path {
		case "GET /count":
			s.mu.Lock()
			body := s.bodyLocked()
			s.mu.Unlock()
			_, _ = io.WriteString(w, body)
		case "POST /count/increment":
			var in struct{ UpdatedAt int64 }
			if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			s.mu.Lock()
			s.count++
			s.updatedAt = max(in.UpdatedAt, s.updatedAt+1)
			h := heldResponse{count: s.count, release: make(chan struct{})}
			body := s.bodyLocked()
			s.mu.Unlock()
			s.held <- h
			select {
			case <-h.release:
			case <-stop:
				return
			}
			_, _ = io.WriteString(w, body)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(stop) })
	return s
}

func (s *counterServer) bodyLocked() string {
	return fmt.Sprintf(`{"count":%d,"updatedAt":%d}`, s.count, s.updatedAt)
}

// seedCount is the seed's Count entity in its ordering variant: a singleton
// whose updatedAt decides which of two versions is newer (useIncoming).
var seedCount = &schema.Entity{
	Key:      "Count",
	PKFunc:   func(_, _ value.Value, _ string, _ value.Value) (string, bool, error) { return "SINGLETON", true, nil },
	Defaults: value.MustParse(`{"count":0,"updatedAt":0}`),
	UseIncoming: func(_, _ schema.Meta, existing, incoming value.Value) bool {
		return num(existing.Get("updatedAt")) <= num(incoming.Get("updatedAt"))
	},
}

func num(v value.Value) float64 { f, _ := v.Float(); return f }

// counterEndpoints are the seed's getCount and increment, whose optimistic
// response is the cached count plus one, stamped with snap.fetchedAt.
func counterEndpoints(t *testing.T, s *counterServer) (get, inc *rest.Endpoint) {
	t.Helper()
	tr := &nethttp.Transport{Client: s.Client()}
	get, err := rest.New(rest.Options{URLPrefix: s.URL, Path: "/count", Name: "getCount", Schema: seedCount, Transport: tr})
	require.NoError(t, err)
	inc, err = rest.New(rest.Options{
		URLPrefix: s.URL, Path: "/count/increment", Method: "POST", Name: "increment", Schema: seedCount, Transport: tr,
		GetOptimisticResponse: func(snap endpoint.Snapshot, _ value.Value, _ any) (value.Value, error) {
			r := snap.GetResponse(get, value.Obj())
			if r.Data.IsUndefined() {
				return value.Undef, endpoint.ErrAbortOptimistic
			}
			return value.Obj(
				value.M("count", value.Num(num(r.Data.Get("count"))+1)),
				value.M("updatedAt", value.Int(snap.FetchedAt())),
			), nil
		},
	})
	require.NoError(t, err)
	return get, inc
}

// TestCounterNeverGoesBackwards: N optimistic increments, all sent before
// any response arrives; their responses are released in every order. What
// a subscriber sees never decreases and ends at the server's count (the
// counter's ordering rule: responses that resolve out of order cannot
// overwrite newer data).
func TestCounterNeverGoesBackwards(t *testing.T) {
	const n = 4
	for _, order := range testkit.Permutations(n) {
		t.Run(fmt.Sprint(order), func(t *testing.T) {
			srv := newCounterServer(t)
			get, inc := counterEndpoints(t, srv)
			clk := newClock()
			c := controller.New(controller.Options{Now: clk.Now})

			var mu sync.Mutex
			var seen []int
			counts := make(chan int, 64)
			unsub, err := c.Subscribe(get, value.Obj(), func(s controller.State) {
				if s.Data.IsUndefined() {
					return
				}
				n := int(num(s.Data.Get("count")))
				mu.Lock()
				seen = append(seen, n)
				mu.Unlock()
				counts <- n
			})
			require.NoError(t, err)
			defer unsub()
			require.Equal(t, 0, testkit.Wait(t, counts, "first count"))

			// Each click a second after the last; each request has run at
			// the server before the next click.
			held := make([]heldResponse, n)
			done := make([]chan error, n)
			for i := range n {
				clk.Advance(time.Second)
				done[i] = make(chan error, 1)
				body := value.Obj(value.M("updatedAt", value.Int(clk.Now().UnixMilli())))
				go func() {
					_, err := c.Fetch(t.Context(), inc, value.Obj(), body)
					done[i] <- err
				}()
				held[i] = testkit.Wait(t, srv.held, fmt.Sprintf("increment %d at the server", i+1))
				require.Equal(t, i+1, held[i].count)
			}
			for _, i := range order {
				close(held[i].release)
				require.NoError(t, testkit.Wait(t, done[i], fmt.Sprintf("increment %d", i+1)))
			}
			for last := -1; last != n; {
				last = testkit.Wait(t, counts, "the final count")
			}
			assert.Equal(t, n, int(num(c.GetResponse(get, value.Obj()).Data.Get("count"))))
			assert.Zero(t, c.PendingOptimistic())

			mu.Lock()
			defer mu.Unlock()
			for i := 1; i < len(seen); i++ {
				assert.GreaterOrEqual(t, seen[i], seen[i-1], "the count went backwards: %v", seen)
			}
		})
	}
}
