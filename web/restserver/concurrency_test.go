package restserver_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/web/sampleapi"
)

// TestConcurrentUse mixes reads, writes and control calls from many
// goroutines; it is meant to be run with -race.
func TestConcurrentUse(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 10 {
				id := fmt.Sprint((i+j)%24 + 1)
				read := f.Async(http.MethodGet, "/articles/"+id, nil)
				write := f.Async(http.MethodPatch, "/articles/"+id, map[string]any{"title": fmt.Sprint("t", i, j)})
				inc := f.Async(http.MethodPost, "/api/count/increment", nil)
				page := f.Async(http.MethodGet, "/posts?page=2", nil)
				// Only assert here: require and await may not stop the
				// test from another goroutine.
				for _, ch := range []<-chan apitest.Response{read, write, inc, page} {
					r := <-ch
					assert.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
				}
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			f.API.Counts()
			f.API.Held()
			f.API.FailNext(0, 0)
			f.API.SetDelay(0)
		}
	})
	wg.Wait()
	assert.Equal(t, 80, f.API.Count("POST /api/count/increment"))
	assert.Equal(t, 80, apitest.Decode[sampleapi.Count](t, f.Do(http.MethodGet, "/api/count", nil)).Count)
}
