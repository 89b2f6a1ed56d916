package restserver_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/web/sampleapi"
)

func assertCORS(t *testing.T, h http.Header) {
	t.Helper()
	assert.Equal(t, "*", h.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "GET, POST, PUT, PATCH, DELETE, OPTIONS", h.Get("Access-Control-Allow-Methods"))
	assert.Equal(t, "*, Content-Type, Authorization", h.Get("Access-Control-Allow-Headers"))
	assert.Equal(t, "Link", h.Get("Access-Control-Expose-Headers"))
}

func TestCORSOnEveryResponse(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	for _, tc := range []struct{ method, path string }{
		{http.MethodGet, "/articles/1"},
		{http.MethodGet, "/articles/999"},
		{http.MethodPost, "/articles"},
		{http.MethodDelete, "/articles/3"},
		{http.MethodPatch, "/articles/1"},
		{http.MethodGet, "/no/such/route"},
		{http.MethodGet, "/_control/counts"},
		{http.MethodPost, "/_control/reset"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			assertCORS(t, f.Do(tc.method, tc.path, nil).Header)
		})
	}
}

func TestPreflight(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	// Preflight must not be held: a browser sends it before the request a
	// test means to hold.
	f.API.Hold()
	req, err := http.NewRequest(http.MethodOptions, f.TS.URL+"/articles/1", nil)
	require.NoError(t, err)
	req.Header.Set("Origin", "http://localhost:9999")
	req.Header.Set("Access-Control-Request-Method", "PATCH")
	req.Header.Set("Access-Control-Request-Headers", "content-type, authorization")
	r := f.Send(req)
	assert.Equal(t, http.StatusNoContent, r.Status)
	assert.Empty(t, r.Body)
	assertCORS(t, r.Header)
	assert.Empty(t, f.API.Counts(), "preflight requests are not counted")
	assert.Empty(t, f.API.Held())
}
