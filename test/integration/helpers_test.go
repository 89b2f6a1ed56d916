// Package integration runs datafetch's core (controller, rest, schema,
// store) end to end against the fixture REST API of web/api, over real HTTP
// on an httptest server. Every test builds its own server and controller.
package integration

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	_ "github.com/datafetch/datafetch/core/rest/nethttp"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/api"
)

// waitLimit bounds every wait of a test, so a bug fails instead of hanging.
const waitLimit = 10 * time.Second

// clock is a controllable time source for the controller.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.UnixMilli(1_750_000_000_000)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

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

// env is one fixture server and one controller.
type env struct {
	t    *testing.T
	srv  *api.Server
	ts   *httptest.Server
	rec  *recorder
	url  string
	clk  *clock
	ctrl *controller.Controller
}

// newEnv starts a fixture server and a controller. The controller uses a
// controllable clock unless copts sets Now.
func newEnv(t *testing.T, aopts api.Options, copts controller.Options) *env {
	t.Helper()
	e := &env{t: t, srv: api.New(aopts), clk: newClock()}
	e.rec = &recorder{next: e.srv}
	e.ts = httptest.NewServer(e.rec)
	// Cleanups run last-in first-out: srv.Close ends held and hanging
	// requests first, so that ts.Close does not wait for them.
	t.Cleanup(e.ts.Close)
	t.Cleanup(e.srv.Close)
	e.url = e.ts.URL
	if copts.Now == nil {
		copts.Now = e.clk.Now
	}
	e.ctrl = controller.New(copts)
	return e
}

// ep makes an endpoint on the fixture server.
func (e *env) ep(o rest.Options) *rest.Endpoint {
	e.t.Helper()
	if o.URLPrefix == "" && !isAbsolute(o.Path) {
		o.URLPrefix = e.url
	}
	ep, err := rest.New(o)
	require.NoError(e.t, err)
	return ep
}

func isAbsolute(p string) bool { return len(p) > 7 && p[:7] == "http://" }

// resource makes a resource on the fixture server.
func (e *env) resource(path string, ent *schema.Entity, opts rest.Options) *rest.Resource {
	e.t.Helper()
	r, err := rest.NewResource(rest.ResourceOptions{URLPrefix: e.url, Path: path, Schema: ent, Options: opts})
	require.NoError(e.t, err)
	return r
}

// suspense reads through the controller and fails the test on error.
func (e *env) suspense(ep endpoint.Endpoint, params value.Value) value.Value {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	v, err := e.ctrl.Suspense(ctx, ep, params)
	require.NoError(e.t, err)
	return v
}

// fetch runs an endpoint through the controller and fails the test on error.
func (e *env) fetch(ep endpoint.Endpoint, params value.Value, body any) value.Value {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	v, err := e.ctrl.Fetch(ctx, ep, params, body)
	require.NoError(e.t, err)
	return v
}

// async runs a controller fetch in a goroutine; the result arrives on the
// returned channel.
func (e *env) async(ep endpoint.Endpoint, params value.Value, body any) <-chan result {
	ch := make(chan result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		v, err := e.ctrl.Fetch(ctx, ep, params, body)
		ch <- result{v, err}
	}()
	return ch
}

type result struct {
	v   value.Value
	err error
}

// wait receives one result, failing the test after waitLimit.
func wait(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(waitLimit):
		t.Fatal("timed out waiting for a fetch to return")
		return result{}
	}
}

// waitHeld waits until n requests are held at the server.
func (e *env) waitHeld(n int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	require.NoError(e.t, e.srv.WaitHeld(ctx, n), "held: %v", e.srv.Held())
}

// direct is the client of requests that bypass datafetch; its timeout turns
// a request left held at the server into a failure rather than a hang.
var direct = &http.Client{Timeout: waitLimit}

// get reads path from the fixture server directly with net/http, bypassing
// datafetch, and returns the status and the parsed body.
func (e *env) get(path string) (int, value.Value) {
	e.t.Helper()
	resp, err := direct.Get(e.url + path)
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
	req, err := http.NewRequest(method, e.url+path, bytes.NewBufferString(body))
	require.NoError(e.t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := direct.Do(req)
	require.NoError(e.t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// state returns the controller's store snapshot.
func (e *env) state() value.Value { return e.ctrl.State() }

// stateWithoutMeta returns st without meta[key], for comparing the store
// before and after a request for key failed.
func stateWithoutMeta(st value.Value, key string) value.Value {
	return st.With("meta", st.Get("meta").Without(key))
}

// obj parses a JSON literal.
func obj(s string) value.Value { return value.MustParse(s) }

// id returns params {"id": id}.
func id(v any) value.Value {
	switch v := v.(type) {
	case int:
		return value.Obj(value.M("id", value.Int(int64(v))))
	case string:
		return value.Obj(value.M("id", value.Str(v)))
	}
	panic("id: want int or string")
}

// num returns the number member key of v.
func num(v value.Value, key string) float64 {
	f, _ := v.Get(key).Float()
	return f
}

// text returns member key of v as text: a string's contents, a number's
// literal.
func text(v value.Value, key string) string {
	s, _ := v.Get(key).Text()
	return s
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
