package jsbridge

// The collector's pacing (see pacer.go): the GOGC the bridge gives the
// runtime after each collection, from the live heap that collection left.

const (
	// gcPercent is the GOGC the heap is paced at once it is large: it may
	// grow to five times what the cache holds between collections.
	gcPercent = 400

	// minHeapGoal is the heap the runtime may reach before it collects
	// when the live heap is small: a cold read of 10,000 articles
	// (test/bench) allocates about 30 MB from a heap of 2 MB after a
	// reset. At gcPercent alone the runtime's smallest target is 16 MB
	// (4 MB × GOGC/100), and it collected in the middle of that read,
	// marking the half-built read: a third of its CPU time.
	minHeapGoal = 40 << 20

	// maxGCPercent is the GOGC for a heap of at most 3.6 MB: the runtime's
	// smallest target is 4 MB × GOGC/100, so this alone makes it
	// minHeapGoal (more would raise that floor past minHeapGoal).
	maxGCPercent = minHeapGoal / (4 << 20) * 100
)

// gcPercentFor returns the GOGC after a collection that left live bytes:
// the runtime's next target is the larger of live × (1 + GOGC/100) and
// 4 MB × GOGC/100, and this makes it minHeapGoal or five times live
// (gcPercent), whichever is more. A small heap grows to minHeapGoal before
// the next collection, a large one to five times itself, as with GOGC=400
// alone. (GOGC=1000 for every heap did the first, but let a store of 25 MB
// grow to 280 MB between collections, and reads and writes into that store
// in the untouched memory were slower.)
func gcPercentFor(live uint64) int32 {
	if live == 0 {
		return maxGCPercent
	}
	p := uint64(minHeapGoal)*100/live - 100
	switch {
	case uint64(minHeapGoal) <= live || p < gcPercent:
		return gcPercent
	case p > maxGCPercent:
		return maxGCPercent
	}
	return int32(p)
}
