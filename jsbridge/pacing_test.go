package jsbridge

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name string
		live uint64
		want int32
	}{
		{"nothing live", 0, 1000},
		{"a few bytes: the runtime's floor, 4 MB × 10, is the target", 1 << 10, 1000},
		{"1 MB", 1 * mb, 1000},
		{"3.6 MB: 11 times it is 40 MB", 3*mb + 6*mb/10, 1000},
		{"4 MB", 4 * mb, 900},
		{"5 MB", 5 * mb, 700},
		{"8 MB: 40 MB is five times it", 8 * mb, gcPercent},
		{"9 MB: five times it is more than 40 MB", 9 * mb, gcPercent},
		{"40 MB", 40 * mb, gcPercent},
		{"1 GB", 1 << 30, gcPercent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, gcPercentFor(tc.live))
			// The runtime's target: the larger of live × (1 + GOGC/100)
			// and its floor, 4 MB × GOGC/100.
			goal := max(tc.live*uint64(100+tc.want)/100, uint64(4*mb)*uint64(tc.want)/100)
			assert.GreaterOrEqual(t, goal, uint64(minHeapGoal)-tc.live/100, "the target is at least minHeapGoal")
			assert.GreaterOrEqual(t, goal, tc.live*(100+gcPercent)/100, "and at least what gcPercent gives")
			if tc.live*(100+gcPercent)/100 < minHeapGoal {
				assert.LessOrEqual(t, goal, uint64(minHeapGoal)+tc.live/100, "and no more than minHeapGoal for a small heap")
			}
		})
	}
}
