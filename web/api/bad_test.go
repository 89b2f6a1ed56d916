package api_test

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/web/api"
)

func TestHangWaitsForClient(t *testing.T) {
	f := newFixture(t, api.Options{})
	// start is read before the deadline is set, so the deadline is at least
	// 100ms after it whatever the clock's granularity.
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.ts.URL+"/bad/hang", nil)
	require.NoError(t, err)
	_, err = f.ts.Client().Do(req)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.GreaterOrEqual(t, time.Since(start), 100*time.Millisecond)
	assert.Equal(t, 1, f.api.Count("GET /bad/hang"))
}

func TestCloseEndsHang(t *testing.T) {
	f := newFixture(t, api.Options{})
	r := f.async(http.MethodGet, "/bad/hang", nil)
	require.Eventually(t, func() bool { return f.api.Count("GET /bad/hang") == 1 }, waitLimit, time.Millisecond)
	f.api.Close()
	got := await(t, r)
	assert.Equal(t, http.StatusServiceUnavailable, got.status)
	assert.Equal(t, http.StatusServiceUnavailable, f.do(http.MethodGet, "/bad/hang", nil).status, "after Close, hang answers at once")
	assert.Equal(t, http.StatusOK, f.do(http.MethodGet, "/comments/1", nil).status, "the rest keeps working")
}

func TestConnectionClosedMidBody(t *testing.T) {
	f := newFixture(t, api.Options{})
	res, err := f.ts.Client().Get(f.ts.URL + "/bad/close")
	require.NoError(t, err, "headers arrive intact")
	defer res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, jsonType, res.Header.Get("Content-Type"))
	assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	body, err := io.ReadAll(res.Body)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Contains(t, string(body), `"postId": 1`)

	// The server itself is fine afterwards.
	assert.Equal(t, http.StatusOK, f.do(http.MethodGet, "/comments/1", nil).status)
}
