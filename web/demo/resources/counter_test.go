package resources_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/restserver"
	"github.com/datafetch/datafetch/web/sampleapi"
)

// newestHeld returns the number of the request held last.
func newestHeld(held []restserver.HeldRequest) int {
	seq := 0
	for _, h := range held {
		seq = max(seq, h.Seq)
	}
	return seq
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
			f, a := serve(t, sampleapi.Options{Now: clk.Now})
			srv := f.API
			c := controller.New(controller.Options{Now: clk.Now})

			var mu sync.Mutex
			var seen []int
			counts := make(chan int, 64)
			unsub, err := c.Subscribe(a.Counter.Get.Endpoint(), value.Obj(), func(s controller.State) {
				if s.Data.IsUndefined() {
					return
				}
				v, _ := s.Data.Get("count").Float()
				mu.Lock()
				seen = append(seen, int(v))
				mu.Unlock()
				counts <- int(v)
			})
			require.NoError(t, err)
			defer unsub()
			require.Equal(t, 0, testkit.Wait(t, counts, "first count"))

			// Each click is held at the server before it runs.
			srv.Hold()
			done := make([]chan error, n)
			for i := range n {
				clk.Advance(time.Second)
				done[i] = make(chan error, 1)
				go func() {
					_, err := a.Counter.Increment.Fetch(t.Context(), c, nil, resources.IncrementBody(clk.Now()))
					done[i] <- err
				}()
				f.WaitHeld(i + 1)
			}
			// The server applies them later, in the order sent, and holds
			// each answer: answer[i] is the held number of click i's.
			clk.Advance(time.Minute)
			srv.HoldResponses()
			answer := make([]int, n)
			for i := range n {
				require.True(t, srv.Release(i+1), "click %d held before it ran", i+1)
				// Release took click i off the list; it is back once it
				// has run and its answer waits.
				f.WaitHeld(n)
				answer[i] = newestHeld(srv.Held())
			}
			for _, i := range order {
				require.True(t, srv.Release(answer[i]), "answer to click %d held", i+1)
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
