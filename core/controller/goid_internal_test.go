package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGoid: re-entry detection rests on goid telling goroutines apart; a
// change of the stack trace format would make it 0 and silently turn the
// detection off, so that is checked here.
func TestGoid(t *testing.T) {
	mine := goid()
	assert.NotZero(t, mine)
	assert.Equal(t, mine, goid(), "the same goroutine has the same id")
	ids := make(chan uint64, 8)
	for range cap(ids) {
		go func() { ids <- goid() }()
	}
	seen := map[uint64]bool{mine: true}
	for range cap(ids) {
		id := <-ids
		assert.NotZero(t, id)
		assert.False(t, seen[id], "every goroutine has an id of its own: %d twice", id)
		seen[id] = true
	}
}
