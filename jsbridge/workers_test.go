package jsbridge

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWorkersRunEverythingAndKeepAFew(t *testing.T) {
	w := newWorkers()
	const n = 50
	var ran atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(n)
	for range n {
		w.run(func() {
			defer wg.Done()
			<-release // all n at once: none can be reused yet
			ran.Add(1)
		})
	}
	close(release)
	wg.Wait()
	assert.EqualValues(t, n, ran.Load())
	require.Eventually(t, func() bool { return w.waiting() == maxIdleWorkers }, 5*time.Second, time.Millisecond,
		"the workers beyond %d end", maxIdleWorkers)

	// The next calls go to the kept workers.
	wg.Add(n)
	for range n {
		w.run(func() { defer wg.Done(); ran.Add(1) })
	}
	wg.Wait()
	assert.EqualValues(t, 2*n, ran.Load())
	require.Eventually(t, func() bool { return w.waiting() == maxIdleWorkers }, 5*time.Second, time.Millisecond)
}
