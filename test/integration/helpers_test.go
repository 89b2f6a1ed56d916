// Package integration runs datafetch's core (controller, rest, schema,
// store) end to end against the test REST API (test/fixture/testapi), over real HTTP
// on an httptest server. Every test builds its own server and controller.
package integration

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture"
	"github.com/datafetch/datafetch/test/fixture/testapi"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// seenRequest is one request as it reached the fixture server.
type seenRequest struct {
	Method, Path, Body string
}

// recorder sits in front of the fixture API and records every request with
// its body, so tests can check what the client sent.
type recorder struct {
	next http.Handler
	mu   sync.Mutex
	reqs []seenRequest
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	path := r.URL.Path
	if r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	rc.mu.Lock()
	rc.reqs = append(rc.reqs, seenRequest{Method: r.Method, Path: path, Body: string(body)})
	rc.mu.Unlock()
	rc.next.ServeHTTP(w, r)
}

// find returns the requests with method and path.
func (rc *recorder) find(method, path string) []seenRequest {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []seenRequest
	for _, r := range rc.reqs {
		if r.Method == method && r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// env is one fixture server, with a recorder in front, and one controller.
type env struct {
	*fixture.Env
	t   *testing.T
	rec *recorder
}

// newEnv starts a fixture server and a controller. The controller uses the
// fixture's controllable clock unless copts sets Now.
func newEnv(t *testing.T, aopts testapi.Options, copts controller.Options) *env {
	t.Helper()
	e := &env{t: t}
	e.Env = fixture.New(t, fixture.Options{API: aopts, Controller: copts, Wrap: func(api http.Handler) http.Handler {
		e.rec = &recorder{next: api}
		return e.rec
	}})
	return e
}

// async runs a controller fetch in a goroutine; the result arrives on the
// returned channel.
func (e *env) async(ep endpoint.Endpoint, params value.Value, body any) <-chan result {
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	e.t.Cleanup(cancel)
	return e.asyncIn(ctx, ep, params, body)
}

// asyncIn is async with ctx as the fetch's context, used as it is: a
// testkit.WaitingContext given here tells when the fetch waits on it, and
// any context made from it (context.WithTimeout calls its Done at once)
// would close that signal early.
func (e *env) asyncIn(ctx context.Context, ep endpoint.Endpoint, params value.Value, body any) <-chan result {
	ch := make(chan result, 1)
	go func() {
		v, err := e.Ctrl.Fetch(ctx, ep, params, body)
		ch <- result{v, err}
	}()
	return ch
}

type result struct {
	v   value.Value
	err error
}

// wait receives one result, failing the test after testkit.WaitLimit.
func wait(t *testing.T, ch <-chan result) result {
	t.Helper()
	return testkit.Wait(t, ch, "a fetch to return")
}

// direct is the client of requests that bypass datafetch; its timeout turns
// a request left held at the server into a failure rather than a hang.
var direct = &http.Client{Timeout: testkit.WaitLimit}

// get reads path from the fixture server directly with net/http, bypassing
// datafetch, and returns the status and the parsed body.
func (e *env) get(path string) (int, value.Value) {
	e.t.Helper()
	resp, err := direct.Get(e.URL + path)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(e.t, err)
	if len(bytes.TrimSpace(data)) == 0 {
		return resp.StatusCode, value.Undef
	}
	v, err := value.Parse(data)
	require.NoError(e.t, err, "body of GET %s: %s", path, data)
	return resp.StatusCode, v
}

// send makes a request to the fixture server directly with net/http.
func (e *env) send(method, path, body string) int {
	e.t.Helper()
	req, err := http.NewRequest(method, e.URL+path, bytes.NewBufferString(body))
	require.NoError(e.t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := direct.Do(req)
	require.NoError(e.t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// Short names for the helpers the tests use on almost every line.
var (
	obj  = value.MustParse
	id   = fixture.ID
	text = fixture.Text
)

// num returns the number member key of v.
func num(v value.Value, key string) float64 {
	f, _ := v.Get(key).Float()
	return f
}

// ids returns the id of every element of list, as text.
func ids(list value.Value) []string {
	out := make([]string, 0, list.Len())
	for _, el := range list.Elems() {
		out = append(out, text(el, "id"))
	}
	return out
}

// seq returns the decimal strings from lo to hi.
func seq(lo, hi int) []string {
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// ms returns t as epoch milliseconds, as datafetch stores dates.
func ms(t time.Time) float64 { return float64(t.UnixMilli()) }
