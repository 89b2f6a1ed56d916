//go:build race

package controller_test

// raceEnabled is true under the race detector, where sync.Pool drops a
// share of what is put in it at random, so pooled scratch is not reused
// every time and a call allocates more.
const raceEnabled = true
