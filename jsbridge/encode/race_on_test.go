//go:build race

package encode

// raceEnabled is true under the race detector, which adds allocations of
// its own (and makes sync.Pool drop what is put in it at random: the
// scratch writer), so allocation bounds there get slack.
const raceEnabled = true
