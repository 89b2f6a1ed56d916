package controller_test

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
)

// TestSmallWriteMemory bounds the heap a small synchronous write costs: a
// setResponse of one record and the read of it back, in a store that holds
// a list of a thousand articles. In wasm the page's only thread pays for
// every byte twice, in the allocation and in the collector's marking (which
// export calls can only do as assists), so per-call scratch sized for large
// documents made a one-record write cost 6 KB; it must stay near what the
// record needs (issue 11).
func TestSmallWriteMemory(t *testing.T) {
	list, article, _ := benchSchema()
	const n = 1000
	listEp := &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: list}}
	one := &funcEndpoint{name: "article", spec: endpoint.Spec{Name: "article", Schema: article}}
	c := controller.New(controller.Options{Now: func() time.Time { return time.UnixMilli(1) }})
	require.NoError(t, c.SetResponse(listEp, value.Undef, value.MustParse(string(valuetest.Articles(n, 1)))))

	const ops = 200
	params := make([]value.Value, ops)
	records := make([]string, ops)
	for i := range ops {
		k := 1 + i*7%n
		params[i] = value.Obj(value.M("id", value.Int(int64(k))))
		records[i] = fmt.Sprintf(`{"id":%d,"title":"one %d","content":"c","published":true,"author":{"id":%d,"name":"u"},"tags":["a"]}`, k, i, 1+k%20)
	}
	write := func(i int) {
		require.NoError(t, c.SetResponse(one, params[i], value.MustParse(records[i])))
		r := c.GetResponse(one, params[i])
		require.NoError(t, r.Err)
		require.Equal(t, fmt.Sprintf("one %d", i), r.Data.Get("title").Str())
	}
	for i := range ops {
		write(i) // every key once: the store's maps have grown to hold them
	}

	// No collection while measuring: one would empty the parser's pool.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range ops {
		write(i)
	}
	runtime.ReadMemStats(&after)
	perOp := float64(after.TotalAlloc-before.TotalAlloc) / ops
	t.Logf("%.0f heap bytes per write", perOp)
	limit := 3000.0
	if raceEnabled {
		limit += 700
	}
	assert.LessOrEqual(t, perOp, limit, "heap bytes per one-record setResponse + getResponse")
}
