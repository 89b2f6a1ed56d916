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
// remembering the text.
func BenchmarkControllerRefetch(b *testing.B) {
	list, _, _ := benchSchema()
	ctx := context.Background()
	for _, n := range benchSizes {
		body := string(valuetest.Articles(n, 1))
		tr := &bodyTransport{bodies: map[string]string{"/articles": body}}
		ep, err := rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles", Name: "list", Schema: list, Transport: tr})
		if err != nil {
			b.Fatal(err)
		}
		at := int64(1)
		now := func() time.Time { at++; return time.UnixMilli(at) }
		for _, mode := range []string{"fast", "parse"} {
			b.Run(fmt.Sprintf("refetch/%s/N=%d", mode, n), func(b *testing.B) {
				c := controller.New(controller.Options{Now: now})
				defer c.Close()
				controller.SetReapply(c, mode == "fast")
				if _, err := c.Fetch(ctx, ep, value.Obj(), nil); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.Fetch(ctx, ep, value.Obj(), nil); err != nil {
						b.Fatal(err)
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
