package rest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/rest/nethttp"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// seen is one request as the test server received it.
type seen struct {
	Method   string
	Path     string // escaped, as sent
	RawQuery string
	Header   http.Header
	Body     string
}

// server is an httptest server that records the requests it serves and
// answers them with a handler of the test's own.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, seen{
			Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery,
			Header: r.Header.Clone(), Body: string(body),
		})
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// jsonServer answers every request with status and body as JSON.
func jsonServer(t *testing.T, status int, body string) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	})
}

func (s *server) last(t *testing.T) seen {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.NotEmpty(t, s.reqs, "server saw no request")
	return s.reqs[len(s.reqs)-1]
}

func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// transport returns a net/http transport using the server's client.
func (s *server) transport() rest.Transport { return &nethttp.Transport{Client: s.Client()} }

// newEndpoint makes an endpoint on s, failing the test on error.
func newEndpoint(t *testing.T, s *server, o rest.Options) *rest.Endpoint {
	t.Helper()
	o.URLPrefix = s.URL
	if o.Transport == nil {
		o.Transport = s.transport()
	}
	e, err := rest.New(o)
	require.NoError(t, err)
	return e
}

var article = &schema.Entity{
	Key:      "Article",
	Defaults: value.MustParse(`{"id":null,"title":"","content":"","published":false}`),
}

func obj(s string) value.Value { return value.MustParse(s) }
