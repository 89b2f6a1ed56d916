package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
)

// TestSmallWriteAllocatesLittle: a new store that takes one record (a
// cold fetch of one entity, an optimistic update) allocates a few
// kilobytes, not a whole slab of entries sized for a large response (it
// was 80 KB, a sixth of what a cold fetch of 100 articles allocated in
// all), while a large response still takes its entries from few slabs.
func TestSmallWriteAllocatesLittle(t *testing.T) {
	user := &schema.Entity{Key: "User"}
	article := &schema.Entity{Key: "Article", Schema: map[string]schema.Schema{"author": user}}
	list := schema.ArrayOf(article)
	write := func(s schema.Schema, text []byte) *store.Write {
		v, err := value.Parse(text)
		require.NoError(t, err)
		n, err := schema.Normalize(s, v)
		require.NoError(t, err)
		return &store.Write{Key: "k", Schema: s, Result: n.Result, Entities: n.Entities, Meta: schema.Meta{FetchedAt: 1}}
	}
	one := write(user, []byte(`{"id":1,"name":"a"}`))
	many := write(list, valuetest.Articles(1000, 1))
	applied := func(w *store.Write) testing.BenchmarkResult {
		return testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				store.New().Apply(w)
			}
		})
	}
	small := applied(one)
	assert.Less(t, small.AllocedBytesPerOp(), int64(16<<10), "bytes allocated by a new store taking one record")
	large := applied(many)
	// 1,020 entries (1,000 articles, 20 users): slabs of 16, 16, 32, 64,
	// 128, then 256s: as few allocations and no more room than slabs of
	// 256 from the start.
	limit := int64(40)
	if raceEnabled {
		limit = 80 // still far below a slab per record or per 16
	}
	assert.LessOrEqual(t, large.AllocsPerOp()-small.AllocsPerOp(), limit, "allocations of a new store taking 1,020 records")
	t.Logf("one record: %d B, %d allocations; 1,020 records: %d B, %d allocations",
		small.AllocedBytesPerOp(), small.AllocsPerOp(), large.AllocedBytesPerOp(), large.AllocsPerOp())
}
