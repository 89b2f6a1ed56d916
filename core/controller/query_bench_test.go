package controller_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
)

// articleList returns n articles with authors (one per ten articles),
// every other one published, titles in no order.
func articleList(n int) value.Value {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"title":"title %05d","published":%t,"author":{"id":"u%d","name":"user %d"}}`,
			i, (i*7919)%n, i%2 == 0, i/10, i/10)
	}
	b.WriteByte(']')
	return value.MustParse(b.String())
}

// BenchmarkQueryAll10k: a Query over All of 10,000 articles (the
// published ones sorted by title, with a count). "first" is a read after
// the table changed (one article written: the list is read again, its
// unchanged entities from their memos, and processed again); "unchanged"
// a read with nothing changed.
func BenchmarkQueryAll10k(b *testing.B) {
	const n = 10000
	r := newQueryRig(&testing.T{})
	require.NoError(b, r.c.SetResponse(r.articles, obj(`{}`), articleList(n)))
	b.Run("first", func(b *testing.B) {
		for i := range b.N {
			b.StopTimer()
			require.NoError(b, r.c.SetResponse(r.articles, obj(`{"one":1}`),
				value.MustParse(fmt.Sprintf(`[{"id":1,"title":"t%d","published":true}]`, i))))
			b.StartTimer()
			v, err := r.c.Get(r.publishedByTitle)
			if err != nil || v.Get("count").IsUndefined() {
				b.Fatal(err)
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		first, _ := r.c.Get(r.publishedByTitle)
		for range b.N {
			v, _ := r.c.Get(r.publishedByTitle)
			if !value.Same(v, first) {
				b.Fatal("not memoized")
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		// A fresh controller each time: every entity built.
		data := articleList(n)
		for range b.N {
			b.StopTimer()
			c := controller.New(controller.Options{})
			require.NoError(b, c.SetResponse(r.articles, obj(`{}`), data))
			b.StartTimer()
			if _, err := c.Get(r.publishedByTitle); err != nil {
				b.Fatal(err)
			}
		}
	})
}
