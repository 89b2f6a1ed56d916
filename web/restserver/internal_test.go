package restserver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/web/restserver"
	"github.com/datafetch/datafetch/web/sampleapi"
)

// A request made with restserver.Internal is answered while the API holds and
// delays requests, and is not counted: the test controls see only clients.
func TestInternalRequestsBypassControls(t *testing.T) {
	s := sampleapi.New(sampleapi.Options{})
	defer s.Close()
	s.Hold()
	s.HoldResponses()
	s.SetDelay(time.Hour)

	for _, path := range []string{"/articles", "/articles/1", "/users"} {
		req := httptest.NewRequestWithContext(restserver.Internal(context.Background()), http.MethodGet, path, nil)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req) // would block for an hour, or until released, if held or delayed
		assert.Equal(t, http.StatusOK, rec.Code, path)
		assert.Zero(t, s.Count("GET "+path), path)
	}
	assert.Empty(t, s.Held())
}
