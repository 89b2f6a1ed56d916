package store_test

import (
	"testing"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/store/storetest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
)

// sweepStore returns a store holding one list result of articles with their
// authors, 10,000 entities in all, stored at time 0 with a minute's expiry,
// and the number of entities.
func sweepStore(b *testing.B) (*store.Store, int) {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	article := &schema.Entity{Key: "Article",
		Defaults: value.MustParse(`{"id":null,"title":"","content":"","published":false,"author":null,"tags":[]}`),
		Schema:   map[string]schema.Schema{"author": user}}
	st := store.New()
	storetest.Apply(b, st, "list", schema.ArrayOf(article), valuetest.Articles(sweepArticles, 1), 0)
	n := 0
	for _, table := range st.State().Get("entities").Members() {
		n += table.Value.Len()
	}
	return st, n
}

// sweepArticles makes sweepStore hold 10,000 entities: the articles and
// their 20 authors; BenchmarkSweep checks the count.
const sweepArticles = 9_980

// BenchmarkSweep measures one sweep over a store of 10,000 entities: held
// (the whole graph is walked, nothing removed) and expired (everything
// removed; the store is refilled outside the timer).
func BenchmarkSweep(b *testing.B) {
	policy := store.SweepPolicy{Now: 1 << 40, ExpiryMultiplier: 2}
	b.Run("held", func(b *testing.B) {
		st, n := sweepStore(b)
		if n != 10_000 {
			b.Fatalf("the store holds %d entities, not 10,000", n)
		}
		roots := &store.Roots{}
		roots.Result("list")
		b.ReportAllocs()
		for b.Loop() {
			if got := st.Sweep(policy, roots); got.Results != 0 || got.Entities != 0 {
				b.Fatalf("a held result's sweep removed %+v", got)
			}
		}
	})
	b.Run("expired", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			st, n := sweepStore(b)
			b.StartTimer()
			if got := st.Sweep(policy, nil); got.Entities != n || got.Results != 1 {
				b.Fatalf("swept %+v of %d entities", got, n)
			}
		}
	})
}
