package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/web/api"
)

// fixedNow is the clock of most tests, so timestamps and upcoming birthdays
// are predictable.
var fixedNow = time.Date(2025, time.June, 10, 15, 30, 0, 0, time.UTC)

// fixture is a fixture API served over a real loopback connection.
type fixture struct {
	t   *testing.T
	api *api.Server
	ts  *httptest.Server
}

func newFixture(t *testing.T, opts api.Options) *fixture {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return fixedNow }
	}
	s := api.New(opts)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	// Registered last, so it runs first: ts.Close waits for requests that
	// Close ends.
	t.Cleanup(s.Close)
	return &fixture{t: t, api: s, ts: ts}
}

// response is a fully read HTTP response.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) contentType() string { return r.header.Get("Content-Type") }

// decode unmarshals the body into a value of type T.
func decode[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(r.body, &v), "body: %s", r.body)
	return v
}

// errorMessage returns the "error" member of a JSON error body.
func errorMessage(t *testing.T, r response) string {
	t.Helper()
	require.Equal(t, "application/json; charset=utf-8", r.contentType())
	return decode[map[string]string](t, r)["error"]
}

// do sends a request to the fixture. A string body is sent as it is;
// any other non-nil body is JSON-encoded.
func (f *fixture) do(method, path string, body any) response {
	f.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		data, err := json.Marshal(b)
		require.NoError(f.t, err)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, f.ts.URL+path, rd)
	require.NoError(f.t, err)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return f.send(req)
}

func (f *fixture) send(req *http.Request) response {
	f.t.Helper()
	res, err := f.ts.Client().Do(req)
	require.NoError(f.t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(f.t, err)
	return response{status: res.StatusCode, header: res.Header, body: data}
}

// async sends a request from another goroutine; the channel yields the
// response once it arrives.
func (f *fixture) async(method, path string, body any) <-chan response {
	f.t.Helper()
	var data []byte
	if body != nil {
		var err error
		data, err = json.Marshal(body)
		require.NoError(f.t, err)
	}
	ch := make(chan response, 1)
	go func() {
		var rd io.Reader
		if data != nil {
			rd = bytes.NewReader(data)
		}
		req, err := http.NewRequest(method, f.ts.URL+path, rd)
		if err != nil {
			panic(err) // the URL is built by the test itself
		}
		res, err := f.ts.Client().Do(req)
		if err != nil {
			ch <- response{status: -1, body: []byte(err.Error())}
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		ch <- response{status: res.StatusCode, header: res.Header, body: b}
	}()
	return ch
}

// waitLimit bounds every wait of these tests: a guard against hangs, of
// minutes, never a check of speed (a loaded machine can be very slow).
const waitLimit = 3 * time.Minute

// await returns the response from ch or fails the test after waitLimit.
func await(t *testing.T, ch <-chan response) response {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(waitLimit):
		t.Fatal("timed out waiting for a response")
		return response{}
	}
}

// keys returns the member names of a decoded object.
func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}

// clock is a settable clock safe to read from the server's goroutines.
type clock struct{ ns atomic.Int64 }

func newClock(t time.Time) *clock {
	c := &clock{}
	c.set(t)
	return c
}

func (c *clock) set(t time.Time)     { c.ns.Store(t.UnixNano()) }
func (c *clock) now() time.Time      { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) add(d time.Duration) { c.set(c.now().Add(d)) }

func itoa(n int) string { return strconv.Itoa(n) }
