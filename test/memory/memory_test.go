// Package memory checks memory and lifetime: memory.mjs in headless
// Chromium (./build.sh memory), and this file natively, where the Go heap
// can be read exactly (runtime.MemStats) on the same core code.
package memory

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// liveHeap is the Go heap in use after full collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

const mb = 1 << 20

var (
	user = &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	item = &schema.Entity{Key: "Item", Defaults: value.MustParse(`{"id":null,"title":"","body":"","author":null}`),
		Schema: map[string]schema.Schema{"author": user}}
)

// TestResetFreesTheStore: after ResetEntireStore the heap is back where it
// was, however many times the store is filled and reset. (A record kept by
// the store after a reset would keep its whole response text alive, since
// parsed strings share it.)
func TestResetFreesTheStore(t *testing.T) {
	c := controller.New(controller.Options{})
	body := strings.Repeat("y", 2000)
	base := liveHeap()
	for g := 1; g <= 3; g++ {
		ep, err := rest.New(rest.Options{Name: "big" + strconv.Itoa(g), URLPrefix: "http://x", Path: "/big", Schema: schema.ArrayOf(item)})
		require.NoError(t, err)
		var b strings.Builder
		b.WriteByte('[')
		for i := range 10000 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":"g%d-%d","title":"generation %d","body":"%s","author":{"id":%d,"name":"a"}}`, g, i, g, body, i%50)
		}
		b.WriteByte(']')
		data := value.MustParse(b.String())
		b.Reset()
		require.NoError(t, c.SetResponse(ep, value.Obj(), data))
		require.Equal(t, 10000, c.GetResponse(ep, value.Obj()).Data.Len())
		data = value.Undef
		filled := liveHeap()
		c.ResetEntireStore()
		after := liveHeap()
		t.Logf("generation %d: %d MB before, %d MB filled, %d MB after ResetEntireStore", g, base/mb, filled/mb, after/mb)
		assert.Greater(t, filled, base+10*mb, "the store holds the data")
		assert.Less(t, after, base+2*mb, "generation %d: the reset freed what the store held", g)
	}
}

// TestCyclesLevelOff: subscribe / fetch / unsubscribe / invalidate over a
// working set of 1,000 entities; the heap levels off.
func TestCyclesLevelOff(t *testing.T) {
	const n, cycles = 1000, 20000
	texts := make([]string, n)
	for i := range texts {
		texts[i] = fmt.Sprintf(`{"id":%d,"title":"item %d","body":"%s","author":{"id":%d,"name":"author"}}`, i, i, strings.Repeat("x", 200), i%50)
	}
	ep, err := rest.New(rest.Options{Name: "item", URLPrefix: "http://x", Path: "/items/:id", Schema: item,
		Fetch: func(_ context.Context, _ *rest.Endpoint, params value.Value, _ any) (value.Value, error) {
			i, _ := strconv.Atoi(params.Get("id").Raw())
			return value.ParseString(texts[i])
		}})
	require.NoError(t, err)
	c := controller.New(controller.Options{})
	var notified atomic.Int64 // listeners run on the controller's goroutines too
	cycle := func(i int) {
		params := value.Obj(value.M("id", value.Int(int64(i%n))))
		unsub, err := c.Subscribe(ep, params, func(s controller.State) {
			if !s.Data.IsUndefined() {
				notified.Add(1)
			}
		})
		require.NoError(t, err)
		_, err = c.Fetch(context.Background(), ep, params, nil)
		require.NoError(t, err)
		unsub()
		require.NoError(t, c.Invalidate(ep, params))
	}
	for i := range 2 * n {
		cycle(i)
	}
	start := liveHeap()
	for i := 2 * n; i < cycles/2; i++ {
		cycle(i)
	}
	mid := liveHeap()
	for i := cycles / 2; i < cycles; i++ {
		cycle(i)
	}
	end := liveHeap()
	t.Logf("Go heap: %.1f MB start, %.1f MB middle, %.1f MB end of %d cycles", float64(start)/mb, float64(mid)/mb, float64(end)/mb, cycles)
	assert.LessOrEqual(t, float64(end), 1.5*float64(mid), "the heap levels off")
	assert.Positive(t, notified.Load())
	assert.Zero(t, c.PendingOptimistic())
}
