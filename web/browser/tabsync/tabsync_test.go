//go:build js && wasm

package tabsync_test

import (
	"context"
	"errors"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/bookshelf"
	"github.com/datafetch/datafetch/web/browser/tabsync"
)

// hangGuard bounds every wait: the waits are for events, this only stops
// a hang.
const hangGuard = 2 * time.Minute

// watch subscribes to ep on c without fetching and returns the channel of
// its states.
func watch(t *testing.T, c *controller.Controller, ep endpoint.Endpoint) <-chan controller.State {
	states := make(chan controller.State, 16)
	stop, err := c.SubscribeWith(ep, value.Obj(), func(st controller.State) { states <- st }, controller.SubscribeOptions{NoFetch: true})
	require.NoError(t, err)
	t.Cleanup(stop)
	<-states // the first call, with what is stored now
	return states
}

func next(t *testing.T, states <-chan controller.State, what string) controller.State {
	t.Helper()
	select {
	case st := <-states:
		return st
	case <-time.After(hangGuard):
		t.Fatalf("no change: %s", what)
		return controller.State{}
	}
}

// TestSync: two controllers of one page, each on its own BroadcastChannel
// object of one name, sync: a response, an invalidation; a message that is
// not text and one of another version are ignored; after stop nothing is
// applied.
func TestSync(t *testing.T) {
	a, b := controller.New(controller.Options{}), controller.New(controller.Options{})
	ignored := make(chan error, 4)
	stopA, err := tabsync.Sync(a, tabsync.Options{Channel: "go-test"})
	require.NoError(t, err)
	defer stopA()
	stopB, err := tabsync.Sync(b, tabsync.Options{Channel: "go-test", OnIgnored: func(err error) { ignored <- err }})
	require.NoError(t, err)
	defer stopB()

	epA, epB := &bookshelf.Endpoint{}, &bookshelf.Endpoint{}
	states := watch(t, b, epB)
	_, err = a.Fetch(context.Background(), epA, value.Obj(), nil)
	require.NoError(t, err)
	st := next(t, states, "the response reaches b")
	assert.Equal(t, 2, st.Data.Len())
	assert.Equal(t, endpoint.Valid, st.ExpiryStatus)
	assert.Equal(t, a.Snapshot().JSON(), b.Snapshot().JSON(), "with its metadata")
	_, err = b.Suspense(context.Background(), epB, value.Obj())
	require.NoError(t, err)
	assert.Equal(t, 0, epB.Calls, "b made no request")

	// Bad messages from a third party on the channel.
	other := js.Global().Get("BroadcastChannel").New("go-test")
	defer other.Call("close")
	other.Call("postMessage", js.ValueOf(map[string]any{"not": "text"}))
	other.Call("postMessage", `{"datafetch":"sync","version":9,"op":"reset"}`)
	for i := range 2 {
		select {
		case err := <-ignored:
			if i == 1 {
				assert.True(t, errors.Is(err, controller.ErrSyncVersion), "%v", err)
			} else {
				assert.ErrorContains(t, err, "not a datafetch sync message")
			}
		case <-time.After(hangGuard):
			t.Fatal("the bad messages were not reported")
		}
	}

	require.NoError(t, a.Invalidate(epA, value.Obj()))
	assert.Equal(t, endpoint.Invalid, next(t, states, "the invalidation reaches b").ExpiryStatus)

	// After b stops, a's reset is on the channel (the third party sees it)
	// and b keeps its data.
	stopB()
	seen := make(chan string, 8)
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any { seen <- args[0].Get("data").String(); return nil })
	defer onMessage.Release()
	other.Set("onmessage", onMessage) // also gets a's invalidation, queued for it before
	a.ResetEntireStore()
	for reset := false; !reset; {
		select {
		case m := <-seen:
			reset = strings.Contains(m, `"op":"reset"`)
		case <-time.After(hangGuard):
			t.Fatal("a's reset was not posted")
		}
	}
	assert.Equal(t, 2, b.GetResponse(epB, value.Obj()).Data.Len(), "b no longer applies messages")
}

// TestOutOfRangeTimeIsIgnored: a store message whose time is out of range
// (which used to be taken, and outlived every later fetch) is reported to
// OnIgnored naming the time and changes nothing; the next good message is
// applied.
func TestOutOfRangeTimeIsIgnored(t *testing.T) {
	a, b := controller.New(controller.Options{}), controller.New(controller.Options{})
	ignored := make(chan error, 4)
	stopB, err := tabsync.Sync(b, tabsync.Options{Channel: "go-test-range", OnIgnored: func(err error) { ignored <- err }})
	require.NoError(t, err)
	defer stopB()

	// The message a would send for its fetch, with a poisoned title and
	// fetchedAt, from a third party.
	var msgs []string
	stopOut := a.OnSync(func(m value.Value) { msgs = append(msgs, m.JSON()) })
	epA, epB := &bookshelf.Endpoint{}, &bookshelf.Endpoint{}
	_, err = a.Fetch(context.Background(), epA, value.Obj(), nil)
	require.NoError(t, err)
	stopOut()
	require.Len(t, msgs, 1)
	fetchedAt := a.Snapshot().Get("meta").Get("books {}").Get("fetchedAt").Raw()
	bad := strings.Replace(strings.Replace(msgs[0], `"title":"one"`, `"title":"poisoned"`, 1),
		`"fetchedAt":`+fetchedAt, `"fetchedAt":1e300`, 1)
	require.NotEqual(t, msgs[0], bad)
	other := js.Global().Get("BroadcastChannel").New("go-test-range")
	defer other.Call("close")
	other.Call("postMessage", bad)
	// A message that is reported in any case, after it: were the bad one
	// applied, this would be the first report.
	other.Call("postMessage", js.ValueOf(map[string]any{"not": "text"}))
	for _, want := range []string{
		`sync message: state: meta["books {}"].fetchedAt: 1e300 is out of range (a time is epoch milliseconds within ±9007199254740991)`,
		"tabsync: a message that is not a datafetch sync message (JSON text): object",
	} {
		select {
		case err := <-ignored:
			require.EqualError(t, err, want)
		case <-time.After(hangGuard):
			t.Fatal("the messages were not reported")
		}
	}
	assert.True(t, b.GetResponse(epB, value.Obj()).Data.IsUndefined(), "nothing taken")

	// a's own messages reach b.
	stopA, err := tabsync.Sync(a, tabsync.Options{Channel: "go-test-range"})
	require.NoError(t, err)
	defer stopA()
	states := watch(t, b, epB)
	_, err = a.Fetch(context.Background(), epA, value.Obj(), nil)
	require.NoError(t, err)
	st := next(t, states, "the response reaches b")
	assert.Equal(t, "one", st.Data.Elems()[0].Get("title").Str())
}
