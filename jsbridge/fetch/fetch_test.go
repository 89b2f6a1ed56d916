//go:build js && wasm

package fetch_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/fetch"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/datafetch/datafetch/jsbridge/interop"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// These tests run in headless Chromium (wasmbrowsertest) under the fixture
// server, which sets FIXTURE_URL:
//
//	GOOS=js GOARCH=wasm go test -exec "fixtureserver wasmbrowsertest" ./jsbridge/fetch/

// fixture returns the fixture server's URL after resetting its data.
func fixture(t *testing.T) string {
	t.Helper()
	u := os.Getenv("FIXTURE_URL")
	if u == "" {
		t.Skip("FIXTURE_URL not set: run under the fixture server (./build.sh test)")
	}
	control(t, u, "POST", "/_control/reset")
	return u
}

// control sends a request to the fixture server's control API with the
// transport under test, and returns the response.
func control(t *testing.T, base, method, path string) *rest.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	r, err := fetch.Transport{}.RoundTrip(ctx, &rest.Request{Method: method, URL: base + path})
	require.NoError(t, err, "%s %s", method, path)
	require.Less(t, r.Status, 300, "%s %s: %s", method, path, r.Body)
	return r
}

// jsFunc returns the JavaScript function of params and body, made with
// Function, as a page would write it.
func jsFunc(t *testing.T, params, body string) safejs.Value {
	t.Helper()
	fn, err := safejs.Global().Get("Function")
	require.NoError(t, err)
	f, err := fn.New(params, body)
	require.NoError(t, err)
	return f
}

func TestReadsAJSONResponse(t *testing.T) {
	base := fixture(t)
	r, err := fetch.Transport{}.RoundTrip(context.Background(), &rest.Request{Method: "GET", URL: base + "/articles/1"})
	require.NoError(t, err)
	assert.Equal(t, 200, r.Status)
	assert.Contains(t, r.Header.Get("content-type"), "json")
	v, err := value.Parse(r.Body)
	require.NoError(t, err)
	assert.Equal(t, "1", v.Get("id").Str(), "the record of /articles/1: %s", r.Body)
	native, ok := r.Native.(safejs.Value)
	require.True(t, ok, "Native is the JavaScript Response")
	status, _ := native.Get("status")
	n, _ := status.Int()
	assert.Equal(t, 200, n)
}

func TestFetchOptionGetsTheInitAndItsResponseIsRead(t *testing.T) {
	// The fetch function records what it was called with and answers with
	// a text error, which is read from a clone: the Response keeps its body.
	must := func(v safejs.Value, err error) safejs.Value { require.NoError(t, err); return v }
	seen := must(jsFunc(t, "", "return []").Invoke())
	fn := jsFunc(t, "seen", `return (url, init) => {
		seen.push({url, method: init.method, headers: init.headers, body: init.body,
			credentials: init.credentials, aborted: init.signal.aborted});
		return new Response('not json', {status: 500, statusText: 'Oops', headers: {'x-a': '1'}});
	}`)
	f := must(fn.Invoke(seen))
	extra := must(jsFunc(t, "", "return {}").Invoke())
	require.NoError(t, extra.Set("credentials", "include"))
	require.NoError(t, extra.Set("method", "DELETE")) // Go's method wins

	req := &rest.Request{Method: "POST", URL: "https://example.test/x", Body: []byte(`{"a":1}`), Init: extra}
	req.Header.Add("Content-Type", "application/json")
	req.Header.Add("X-Two", "a")
	req.Header.Add("x-two", "b")
	r, err := fetch.Transport{Fetch: f}.RoundTrip(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, 500, r.Status)
	assert.Equal(t, "Oops", r.StatusText)
	assert.Equal(t, "1", r.Header.Get("X-A"))
	assert.Equal(t, "not json", string(r.Body))
	used, _ := r.Native.(safejs.Value).Get("bodyUsed")
	b, _ := used.Bool()
	assert.False(t, b, "the body was read from a clone: the Response can still be read")

	j := must(must(safejs.Global().Get("JSON")).Call("stringify", seen))
	s, _ := j.String()
	assert.JSONEq(t, `[{"url":"https://example.test/x","method":"POST","headers":{"Content-Type":"application/json","X-Two":"a, b"},
		"body":"{\"a\":1}","credentials":"include","aborted":false}]`, s)
}

func TestKeepBodyLeavesTheBodyUnread(t *testing.T) {
	f := jsFunc(t, "", `return new Response('{"a":1}', {headers: {'content-type': 'application/json'}})`)
	r, err := fetch.Transport{Fetch: f, KeepBody: true}.RoundTrip(context.Background(), &rest.Request{Method: "GET", URL: "/x"})
	require.NoError(t, err)
	assert.Nil(t, r.Body)
	used, _ := r.Native.(safejs.Value).Get("bodyUsed")
	b, _ := used.Bool()
	assert.False(t, b)
}

func TestWhatFetchThrowsOrRejectsIsAnInteropError(t *testing.T) {
	for name, body := range map[string]string{
		"throws":  `throw new TypeError('boom')`,
		"rejects": `return Promise.reject(new TypeError('boom'))`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := fetch.Transport{Fetch: jsFunc(t, "", body)}.RoundTrip(context.Background(), &rest.Request{Method: "GET", URL: "/x"})
			var je *interop.Error
			require.ErrorAs(t, err, &je)
			assert.Equal(t, "TypeError: boom", err.Error())
			errName, _ := je.Value.Get("name")
			s, _ := errName.String()
			assert.Equal(t, "TypeError", s, "the thrown value is kept")
		})
	}
	_, err := fetch.Transport{Fetch: jsFunc(t, "", "return 42")}.RoundTrip(context.Background(), &rest.Request{Method: "GET", URL: "/x"})
	assert.ErrorContains(t, err, "fetch resolved to number, not a Response")
}

func TestCancellingTheContextAbortsTheRequest(t *testing.T) {
	base := fixture(t)
	control(t, base, "POST", "/_control/hold")
	defer control(t, base, "POST", "/_control/unhold")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := fetch.Transport{}.RoundTrip(ctx, &rest.Request{Method: "GET", URL: base + "/articles/1"})
		done <- err
	}()
	// The server holds the request: it cannot have been answered.
	control(t, base, "GET", "/_control/held?wait=1")
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(testkit.WaitLimit):
		t.Fatal("RoundTrip did not return after its context was cancelled")
	}
	// The browser really aborted it: the server sees the request go.
	deadline := time.Now().Add(testkit.WaitLimit)
	for {
		v, err := value.Parse(control(t, base, "GET", "/_control/held").Body)
		require.NoError(t, err)
		if v.Len() == 0 {
			break
		}
		require.True(t, time.Now().Before(deadline), "the held request is still at the server: %s", v.JSON())
		waitAMoment(t)
	}
}

// waitAMoment yields to the browser's event loop for one timer turn, so
// that the server's view (asked for over the network) can change.
func waitAMoment(t *testing.T) {
	ch := make(chan struct{})
	f, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any { close(ch); return nil })
	require.NoError(t, err)
	defer f.Release()
	st, _ := safejs.Global().Get("setTimeout")
	_, _ = st.Invoke(f, 10)
	<-ch
}

func TestAsTheTransportOfARestEndpoint(t *testing.T) {
	base := fixture(t)
	ep, err := rest.New(rest.Options{URLPrefix: base, Path: "/articles/:id", Transport: fetch.Transport{}})
	require.NoError(t, err)
	c := controller.New(controller.Options{})
	v, err := c.Fetch(context.Background(), ep, value.Obj(value.M("id", value.Str("2"))), nil)
	require.NoError(t, err)
	assert.Equal(t, "2", v.Get("id").Str())
	assert.NotEmpty(t, v.Get("title").Str())

	_, err = c.Fetch(context.Background(), ep, value.Obj(value.M("id", value.Str("999999"))), nil)
	var ne *rest.NetworkError
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, 404, ne.Status)
}

func TestADoneContextSendsNothing(t *testing.T) {
	// A context already done fails before anything is sent.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := fetch.Transport{Fetch: jsFunc(t, "", "throw new Error('called')")}.RoundTrip(ctx, &rest.Request{Method: "GET", URL: "/x"})
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
}
