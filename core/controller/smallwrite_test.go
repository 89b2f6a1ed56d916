package controller_test

import (
	"context"
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

// countingEndpoint is a funcEndpoint that counts how often its key is made.
type countingEndpoint struct {
	funcEndpoint
	keys int
}

func (e *countingEndpoint) Key(params value.Value) (string, error) {
	e.keys++
	return e.funcEndpoint.Key(params)
}

// TestSmallWriteCallCosts pins the fixed costs of a small synchronous write
// and its read back (issue 11): each reads the clock once (under js/wasm a
// read is two calls into JavaScript), and the keyed entries, which the
// JavaScript bridge uses with the key it kept, do not make the key again.
func TestSmallWriteCallCosts(t *testing.T) {
	_, article, _ := benchSchema()
	c, reads := countingClock()
	one := &countingEndpoint{funcEndpoint: funcEndpoint{name: "article", spec: endpoint.Spec{Name: "article", Schema: article}}}
	params := value.Obj(value.M("id", value.Int(7)))
	record := value.MustParse(`{"id":7,"title":"seven","author":{"id":1,"name":"u"}}`)

	tests := []struct {
		name       string
		set        func() error
		get        func() endpoint.Response
		keysPerSet int
		keysPerGet int
	}{
		{
			name:       "plain",
			set:        func() error { return c.SetResponse(one, params, record) },
			get:        func() endpoint.Response { return c.GetResponse(one, params) },
			keysPerSet: 1, keysPerGet: 1,
		},
		{
			name:       "keyed",
			set:        func() error { return c.SetResponseKeyed(one, "article {\"id\":7}", params, record) },
			get:        func() endpoint.Response { return c.GetResponseKeyed(one, "article {\"id\":7}", params) },
			keysPerSet: 0, keysPerGet: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.ResetEntireStore()
			*reads, one.keys = 0, 0
			require.NoError(t, tt.set())
			assert.Equal(t, 1, *reads, "clock reads of a setResponse")
			assert.Equal(t, tt.keysPerSet, one.keys, "keys made by a setResponse")

			*reads, one.keys = 0, 0
			r := tt.get()
			require.NoError(t, r.Err)
			assert.Equal(t, 1, *reads, "clock reads of a getResponse")
			assert.Equal(t, tt.keysPerGet, one.keys, "keys made by a getResponse")
			assert.Equal(t, endpoint.Valid, r.ExpiryStatus)
			assert.Equal(t, "seven", r.Data.Get("title").Str())
			assert.Equal(t, int64(1000+controller.DefaultDataExpiryLength.Milliseconds()), r.ExpiresAt, "expiry counted from the one clock read")
		})
	}
	// The keyed and plain entries name the same result.
	require.NoError(t, c.SetResponseKeyed(one, "article {\"id\":7}", params, value.MustParse(`{"id":7,"title":"keyed"}`)))
	assert.Equal(t, "keyed", c.GetResponse(one, params).Data.Get("title").Str())
}

// An optimistic mutation reads the clock when it is tracked, when it
// starts (its fetchedAt, and the optimistic data's Date and expiry) and
// when the answer is stored: three reads, none for the optimistic write on
// its own (issue 11).
func TestOptimisticFetchClockReads(t *testing.T) {
	_, article, _ := benchSchema()
	c, reads := countingClock()
	patch := &funcEndpoint{name: "patch", spec: endpoint.Spec{Name: "patch", Schema: article, SideEffect: true,
		GetOptimisticResponse: func(_ endpoint.Snapshot, params value.Value, _ any) (value.Value, error) {
			return value.Obj(value.M("id", params.Get("id")), value.M("title", value.Str("optimistic"))), nil
		}},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			return value.MustParse(`{"id":7,"title":"saved"}`), nil
		}}
	v, err := c.Fetch(context.Background(), patch, value.Obj(value.M("id", value.Int(7))), nil)
	require.NoError(t, err)
	assert.Equal(t, "saved", v.Get("title").Str())
	assert.Equal(t, 3, *reads, "clock reads of an optimistic mutation")
}

// countingClock returns a controller whose clock stands at 1000 ms and
// counts its reads.
func countingClock() (*controller.Controller, *int) {
	reads := 0
	return controller.New(controller.Options{Now: func() time.Time {
		reads++
		return time.UnixMilli(1000)
	}}), &reads
}
