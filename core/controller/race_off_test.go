//go:build !race

package controller_test

// raceEnabled: see race_on_test.go.
const raceEnabled = false
