package controller_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/rest/nethttp"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// heldServer is an httptest server that counts requests by method and path
// on arrival, answers them with the test's handler and, while holding,
// keeps each request at the server (before the handler runs) until the test
// releases it. Tests wait for arrivals instead of sleeping.
type heldServer struct {
	*httptest.Server
	t *testing.T

	mu     sync.Mutex
	counts map[string]int
	hold   bool

	// arrived receives each held request as it arrives.
	arrived chan *heldRequest
	// stop, closed when the test ends, releases whatever is still held.
	stop chan struct{}
	// unheld, closed by Unhold, releases every held request.
	unheld     chan struct{}
	unholdOnce sync.Once
}

// heldRequest is a request waiting at the server.
type heldRequest struct {
	Method, Path string
	release      chan struct{}
	done         chan struct{} // closed once its answer was written
}

// Release lets the request run and waits until it has been answered.
func (h *heldRequest) Release(t *testing.T) {
	t.Helper()
	close(h.release)
	select {
	case <-h.done:
	case <-time.After(testkit.WaitLimit):
		t.Fatalf("%s %s: not answered after its release", h.Method, h.Path)
	}
}

func newHeldServer(t *testing.T, handler http.HandlerFunc) *heldServer {
	t.Helper()
	s := &heldServer{t: t, counts: map[string]int{}, arrived: make(chan *heldRequest, 64),
		stop: make(chan struct{}), unheld: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read the body first: only then does net/http watch the connection
		// and cancel r.Context() when the client gives up.
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.mu.Lock()
		s.counts[r.Method+" "+r.URL.Path]++
		hold := s.hold
		s.mu.Unlock()
		if hold {
			h := &heldRequest{Method: r.Method, Path: r.URL.Path, release: make(chan struct{}), done: make(chan struct{})}
			defer close(h.done)
			s.arrived <- h
			select {
			case <-h.release:
			case <-r.Context().Done():
				return // the client gave up (an abort or a timeout)
			case <-s.unheld:
			case <-s.stop:
				return
			}
		}
		handler(w, r)
	}))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(s.stop) }) // runs first
	return s
}

// Count returns how many requests "METHOD /path" arrived.
func (s *heldServer) Count(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[key]
}

// Hold makes the server hold every request from now on (or not).
func (s *heldServer) Hold(on bool) {
	s.mu.Lock()
	s.hold = on
	s.mu.Unlock()
}

// Unhold stops holding and lets every held request run, now and later.
func (s *heldServer) Unhold() {
	s.Hold(false)
	s.unholdOnce.Do(func() { close(s.unheld) })
}

// Next waits for the next held request.
func (s *heldServer) Next() *heldRequest {
	s.t.Helper()
	select {
	case h := <-s.arrived:
		return h
	case <-time.After(testkit.WaitLimit):
		s.t.Fatal("no request arrived at the server")
		return nil
	}
}

// jsonHandler answers with status and body as JSON.
func jsonHandler(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// restEndpoint makes a REST endpoint on s that sends with net/http.
func restEndpoint(t *testing.T, s *heldServer, o rest.Options) *rest.Endpoint {
	t.Helper()
	o.URLPrefix = s.URL
	o.Transport = &nethttp.Transport{Client: s.Client()}
	ep, err := rest.New(o)
	require.NoError(t, err)
	return ep
}
