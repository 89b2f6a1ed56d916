package controller_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
)

// BenchmarkControllerRefetch measures a fetch through a REST endpoint
// whose response is the same body the store holds (refetch), stored again
// unparsed (fast) or parsed and normalized (parse), and the first fetch
// into a new controller (cold), which with the fast path on pays for
// remembering the text. "one changed" fetches, one after the other, two
// bodies that differ in one article's title (the React bench's
// invalidate-and-resolve) and reads the list after each: what a re-fetch
// that changes one record costs, write and read.
func BenchmarkControllerRefetch(b *testing.B) {
	list, _, _ := benchSchema()
	ctx := context.Background()
	for _, n := range benchSizes {
		body := string(valuetest.Articles(n, 1))
		ep, _ := listEndpoint(b, list, body)
		now := benchClock()
		for _, mode := range []string{"fast", "parse"} {
			b.Run(fmt.Sprintf("refetch/%s/N=%d", mode, n), func(b *testing.B) {
				c := fetchedOnce(b, ep, now, mode == "fast")
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.Fetch(ctx, ep, value.Obj(), nil); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("one changed/%s/N=%d", mode, n), func(b *testing.B) {
				bodies := [2]string{body, changeTitle(b, body, n/2, "new ")}
				ep, tr := listEndpoint(b, list, body)
				c := fetchedOnce(b, ep, now, mode == "fast")
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					i++
					tr.set("/articles", bodies[i%2])
					if _, err := c.Fetch(ctx, ep, value.Obj(), nil); err != nil {
						b.Fatal(err)
					}
					if r := c.GetResponse(ep, value.Obj()); r.Err != nil {
						b.Fatal(r.Err)
					}
				}
			})
			b.Run(fmt.Sprintf("cold/%s/N=%d", mode, n), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					c := controller.New(controller.Options{Now: now})
					controller.SetReapply(c, mode == "fast")
					if _, err := c.Fetch(ctx, ep, value.Obj(), nil); err != nil {
						b.Fatal(err)
					}
					c.Close()
				}
			})
		}
	}
}

// fetchedOnce returns a new controller, with the whole-body fast path on
// or off, that has fetched ep once; the caller's cleanup closes it.
func fetchedOnce(b *testing.B, ep *rest.Endpoint, now func() time.Time, fast bool) *controller.Controller {
	b.Helper()
	c := controller.New(controller.Options{Now: now})
	b.Cleanup(c.Close)
	controller.SetReapply(c, fast)
	if _, err := c.Fetch(context.Background(), ep, value.Obj(), nil); err != nil {
		b.Fatal(err)
	}
	return c
}
