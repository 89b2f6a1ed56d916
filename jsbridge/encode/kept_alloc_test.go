package encode

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/store/storetest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// TestKeptListAllocatesOnce: a re-read of a list of 1,000 articles after
// one shared author changed (about 50 articles change) is written against
// the list JavaScript holds (keptList), and the references it collects,
// one an element, take one allocation: grown by doubling from the one a
// new entry holds inline they took ten, 16 KB of garbage a read.
func TestKeptListAllocatesOnce(t *testing.T) {
	const n = 1000
	s := pipelineSchema()
	user := s.(*schema.Array).Of.(*schema.Entity).Schema["author"]
	st, ids := store.New(), NewIdentities()
	buf := pipelineFetch(t, st, ids, nil, s, valuetest.Articles(n, 1), 1)
	// Three reads, each after another author changed: emitted in turn,
	// each is new to the table (it keeps the last two emissions) and
	// written against the one before.
	var reads [3]value.Value
	for i := range reads {
		at := int64(2 + i)
		storetest.Apply(t, st, fmt.Sprint("user", i), user, fmt.Appendf(nil, `{"id":%d,"name":"u %d"}`, 1+i, at), at)
		reads[i], _, _, _ = st.Read("list")
	}
	for _, v := range reads {
		buf = ids.Output(buf, wire.Header{}, "list", s, v)
	}
	i := 0
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = ids.Output(buf, wire.Header{}, "list", s, reads[i%len(reads)])
			i++
		}
	})
	t.Logf("%d B, %d allocations a re-read", res.AllocedBytesPerOp(), res.AllocsPerOp())
	// The references: 8 KB; the new entries of the changed articles and
	// the list, a few KB (and a scratch writer the race detector's pool
	// dropped).
	limit := int64(8*n + 8<<10)
	if raceEnabled {
		limit += 8 << 10
	}
	assert.Less(t, res.AllocedBytesPerOp(), limit, "bytes allocated by a re-read after one author changed")
}
