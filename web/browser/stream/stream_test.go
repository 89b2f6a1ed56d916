//go:build js && wasm

package stream_test

import (
	"context"
	"os"
	"sync"
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/fetch"
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/browser/stream"
)

// These tests run in headless Chromium under the fixture server (FIXTURE_URL),
// whose /live route streams ticker changes when told to tick.

var ticker = &schema.Entity{Key: "Ticker", Defaults: value.MustParse(`{"id":"","name":"","price":0,"ticks":0}`)}

// control sends a request to the fixture server's control routes and
// returns its JSON answer.
func control(t *testing.T, method, path string) value.Value {
	t.Helper()
	base := os.Getenv("FIXTURE_URL")
	if base == "" {
		t.Skip("FIXTURE_URL not set: run under the fixture server (./build.sh test)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	r, err := fetch.Transport{}.RoundTrip(ctx, &rest.Request{Method: method, URL: base + "/_control/" + path})
	require.NoError(t, err)
	require.Less(t, r.Status, 300, "%s %s: %s", method, path, r.Body)
	if len(r.Body) == 0 {
		return value.Undef
	}
	v, err := value.Parse(r.Body)
	require.NoError(t, err)
	return v
}

// waitFor waits, on c's changes, until cond holds.
func waitFor(t *testing.T, c *controller.Controller, cond func() bool, what string) {
	t.Helper()
	changed := make(chan struct{}, 1)
	stop := c.Listen(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer stop()
	deadline := time.After(testkit.WaitLimit)
	for !cond() {
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("waiting for %s", what)
		}
	}
}

func price(c *controller.Controller, id string) float64 {
	v, err := c.Get(ticker, value.Obj(value.M("id", value.Str(id))))
	if err != nil {
		return -1
	}
	f, _ := v.Get("price").Float()
	return f
}

func TestListenWritesPushedMessagesIntoTheCache(t *testing.T) {
	control(t, "POST", "reset")
	c := controller.New(controller.Options{})
	opened := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var errs []error
	stop, err := stream.Listen(c, os.Getenv("FIXTURE_URL")+"/live", stream.Options{
		Schemas: map[string]schema.Schema{"Ticker": ticker},
		OnOpen:  func() { once.Do(func() { close(opened) }) },
		OnError: func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() },
	})
	require.NoError(t, err)
	select {
	case <-opened:
	case <-time.After(testkit.WaitLimit):
		t.Fatal("the EventSource did not open")
	}
	msgs := control(t, "POST", "tick?count=2")
	require.Equal(t, 2, msgs.Len())
	btc, _ := msgs.Elems()[0].Get("data").Get("price").Float()
	eth, _ := msgs.Elems()[1].Get("data").Get("price").Float()
	waitFor(t, c, func() bool { return price(c, "ETH") == eth }, "ETH's pushed price")
	assert.Equal(t, btc, price(c, "BTC"))
	mu.Lock()
	assert.Empty(t, errs)
	mu.Unlock()
	sent, _ := control(t, "GET", "live").Get("sent").Float()
	assert.Equal(t, 2.0, sent, "the server wrote two messages")

	stop()
	stop() // twice is harmless
	// The server sees the stream go (it waits for it).
	n, _ := control(t, "GET", "live?streams=0").Get("streams").Float()
	assert.Equal(t, 0.0, n)
}

func TestBadMessagesChangeNothing(t *testing.T) {
	c := controller.New(controller.Options{})
	require.NoError(t, c.Set(ticker, []value.Value{value.Obj(value.M("id", value.Str("X")))}, value.MustParse(`{"id":"X","price":1}`)))
	source := js.Global().Get("EventTarget").New()
	errs := make(chan error, 8)
	stop, err := stream.ListenTo(c, source, stream.Options{
		Schemas: map[string]schema.Schema{"Ticker": ticker},
		OnError: func(err error) { errs <- err },
	})
	require.NoError(t, err)
	defer stop()
	send := func(data any) {
		init := js.Global().Get("Object").New()
		init.Set("data", data)
		source.Call("dispatchEvent", js.Global().Get("MessageEvent").New("message", init))
	}
	for _, tc := range []struct {
		data any
		want string
	}{
		{"not json", "stream: a message that is not JSON"},
		{`{"type":"Nope","data":{}}`, `stream: a message of no known type: "Nope"`},
		{`{"type":"Ticker","args":{},"data":{"id":"X"}}`, "stream: Ticker message: args is an object, not an array"},
		{42, "stream: a message that is not text: number"},
	} {
		send(tc.data)
		select {
		case err := <-errs:
			assert.ErrorContains(t, err, tc.want)
		case <-time.After(testkit.WaitLimit):
			t.Fatalf("no error for %v", tc.data)
		}
	}
	// A good one after the bad ones is applied.
	send(`{"type":"Ticker","args":[{"id":"X"}],"data":{"id":"X","price":2}}`)
	waitFor(t, c, func() bool { return price(c, "X") == 2 }, "the good message")

	_, err = stream.ListenTo(c, source, stream.Options{})
	assert.EqualError(t, err, "stream: Options.Schemas names no message type")
	_, err = stream.ListenTo(c, js.ValueOf(1), stream.Options{Schemas: map[string]schema.Schema{"T": ticker}})
	assert.EqualError(t, err, "stream: the source has no addEventListener (a number)")
}
