//go:build js && wasm

package jsbridge

import (
	"runtime"
	"sync/atomic"
	_ "unsafe" // for go:linkname
)

// setGCPercent is runtime/debug.SetGCPercent's body in the runtime, which
// the runtime pushes to runtime/debug by linkname. Importing runtime/debug
// would link os and fmt into datafetch.wasm (wasm/main.go).
//
//go:linkname setGCPercent runtime/debug.setGCPercent
func setGCPercent(percent int32) int32

// gcSentinel is an object no one references, whose finalizer runs after
// the collection that finds it: pace arms a new one each time.
type gcSentinel struct{ _ *byte }

// startPacing makes the bridge set the runtime's GOGC after every
// collection from the live heap it left (gcPercentFor), so that a small
// heap may grow to minHeapGoal before the next and a large one to five
// times itself. load() starts the runtime at GOGC=1000 (GO_ENV), which
// gives the first target, 40 MB, before any collection ran.
func startPacing() {
	runtime.SetFinalizer(&gcSentinel{}, pace)
}

// pace runs after a collection, from the finalizer goroutine, which may
// run before the collection has swept (MemStats.HeapAlloc then still
// counts what it freed) or once more has been allocated: either way the
// heap it reads is at least what is live, which only lowers the GOGC it
// sets. After the bridge's own collections (collect), which set the
// pacing once the collection is complete, it leaves it to them.
func pace(*gcSentinel) {
	if !collecting.Load() {
		setPacing()
	}
	startPacing()
}

// collecting is whether collect is in runtime.GC: pace, which may run
// while it sweeps, leaves the pacing to it. (Not collector.running, which
// is also true while a collection waits for JavaScript to be idle: a page
// that never is would then never be paced.)
var collecting atomic.Bool

// setPacing sets the GOGC for the heap now.
func setPacing() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	setGCPercent(gcPercentFor(m.HeapAlloc))
}
