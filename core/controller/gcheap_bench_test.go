package controller_test

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
)

// heapNow returns the live heap and the part of it the collector scans
// (objects that hold pointers, up to their last pointer), after a forced
// collection: what each later collection marks again.
func heapNow() (live, scan uint64) {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/heap:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// BenchmarkColdHeap measures what a cold read leaves for the collector:
// the live and scannable heap (-B, scan-B) a new controller holds after
// one fetch of N articles, less what was live before, and, at the store
// level, the same after each phase of the write (the parsed tape, the
// normalized writes, the stored entities, the read). In wasm the
// collector runs on the page's only thread and its marking, the largest
// phase of a cold read's profile, scales with the scannable bytes.
// The time it reports is not the read's: it includes forced collections.
func BenchmarkColdHeap(b *testing.B) {
	list, _, _ := benchSchema()
	ctx := context.Background()
	for _, n := range []int{1000, 10000} {
		body := string(valuetest.Articles(n, 1))
		ep, _ := listEndpoint(b, list, body)
		now := benchClock()
		b.Run(fmt.Sprintf("controller/N=%d", n), func(b *testing.B) {
			var live, scan uint64
			for b.Loop() {
				l0, s0 := heapNow()
				c := controller.New(controller.Options{Now: now})
				v, err := c.Fetch(ctx, ep, value.Obj(), nil)
				if err != nil {
					b.Fatal(err)
				}
				l1, s1 := heapNow()
				live += l1 - l0
				scan += s1 - s0
				runtime.KeepAlive(v)
				c.Close()
			}
			b.ReportMetric(float64(live)/float64(b.N), "live-B")
			b.ReportMetric(float64(scan)/float64(b.N), "scan-B")
		})
		b.Run(fmt.Sprintf("store/N=%d", n), func(b *testing.B) {
			var phase [4]struct{ live, scan uint64 }
			for b.Loop() {
				l0, s0 := heapNow()
				add := func(i int) {
					l, s := heapNow()
					phase[i].live += l - l0
					phase[i].scan += s - s0
				}
				v, err := value.ParseLazy(body)
				if err != nil {
					b.Fatal(err)
				}
				add(0)
				nz, err := schema.Normalize(list, v)
				if err != nil {
					b.Fatal(err)
				}
				add(1)
				st := store.New()
				w := &store.Write{Key: "list", Schema: list, Result: nz.Result, Entities: nz.Entities, Text: body,
					Meta: schema.Meta{Date: 1, FetchedAt: 1, ExpiresAt: 60_001}}
				st.Apply(w)
				w, nz = nil, nil
				add(2)
				r, _, _, _ := st.Read("list")
				add(3)
				runtime.KeepAlive(r)
				runtime.KeepAlive(st)
			}
			for i, name := range []string{"parsed", "normalized", "stored", "read"} {
				b.ReportMetric(float64(phase[i].live)/float64(b.N), name+"-B")
				b.ReportMetric(float64(phase[i].scan)/float64(b.N), name+"-scan-B")
			}
		})
	}
}

// coldCPUWarmup is the number of untimed fetches BenchmarkColdCPU makes
// first.
const coldCPUWarmup = 20

// BenchmarkColdCPU is BenchmarkControllerRefetch's cold fetch with the
// process's CPU time per fetch (cpu-ns/op), the collector's included, and
// the collections per fetch (gcs/op):
// on a machine shared with other jobs the wall clock moves far more.
// Run it with -cpu 1 and GOGC=400, as datafetch.wasm runs: one thread,
// the collection target load() sets.
func BenchmarkColdCPU(b *testing.B) {
	list, _, _ := benchSchema()
	ctx := context.Background()
	for _, n := range []int{1000, 10000} {
		body := string(valuetest.Articles(n, 1))
		ep, _ := listEndpoint(b, list, body)
		now := benchClock()
		cold := func(b *testing.B) {
			c := controller.New(controller.Options{Now: now})
			if _, err := c.Fetch(ctx, ep, value.Obj(), nil); err != nil {
				b.Fatal(err)
			}
			c.Close()
		}
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			// Untimed rounds first: in WebAssembly, until V8 has compiled
			// the hot functions again with its optimizing compiler (on
			// other threads, whose time the process's CPU time counts).
			for range coldCPUWarmup {
				cold(b)
			}
			b.ReportAllocs()
			gcs := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
			metrics.Read(gcs)
			before, cycles := cpuTime(), gcs[0].Value.Uint64()
			for b.Loop() {
				cold(b)
			}
			b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
			metrics.Read(gcs)
			b.ReportMetric(float64(gcs[0].Value.Uint64()-cycles)/float64(b.N), "gcs/op")
		})
	}
}
