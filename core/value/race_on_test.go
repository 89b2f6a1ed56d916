//go:build race

package value

// raceEnabled is true under the race detector, where sync.Pool drops a
// share of what is put in it at random, so pooled allocations are not
// reused every time.
const raceEnabled = true
