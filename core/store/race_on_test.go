//go:build race

package store_test

// raceEnabled is true under the race detector, which adds allocations of
// its own (and makes sync.Pool drop what is put in it at random), so
// allocation counts there get slack.
const raceEnabled = true
