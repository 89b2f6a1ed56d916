//go:build js && wasm

package lifecycle

import (
	"context"
	"errors"
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hangGuard bounds every wait: the waits are for events, this only stops
// a hang.
const hangGuard = 2 * time.Minute

// gate is a Revalidator that reports each call and returns only when
// released, so the test knows what is running.
type gate struct {
	calls   chan context.Context
	release chan error
}

func (g *gate) RevalidateActive(ctx context.Context) error {
	g.calls <- ctx
	return <-g.release
}

func (g *gate) call(t *testing.T, what string) context.Context {
	t.Helper()
	select {
	case ctx := <-g.calls:
		return ctx
	case <-time.After(hangGuard):
		t.Fatalf("no RevalidateActive: %s", what)
		return nil
	}
}

// dispatch fires a plain event of the name at target; listeners run
// before it returns.
func dispatch(target js.Value, name string) {
	target.Call("dispatchEvent", js.Global().Get("Event").New(name))
}

// setVisibility makes document.visibilityState read state.
func setVisibility(state string) {
	js.Global().Get("Object").Call("defineProperty", js.Global().Get("document"), "visibilityState",
		map[string]any{"configurable": true, "value": state})
}

func TestRevalidatesOnOnlineAndVisible(t *testing.T) {
	t.Cleanup(func() { js.Global().Get("document").Delete("visibilityState") })
	doc := js.Global().Get("document")
	g := &gate{calls: make(chan context.Context, 4), release: make(chan error)}
	var reported []error
	errs := make(chan error, 1)
	w, stop := start(g, Options{OnError: func(err error) { reported = append(reported, err); errs <- err }})
	defer stop()

	dispatch(js.Global(), "online")
	g.call(t, "online")
	// The first revalidation runs (held by the gate): what the events ask
	// for now waits in w.wake.
	setVisibility("hidden")
	dispatch(doc, "visibilitychange")
	assert.Empty(t, w.wake, "a page hidden asks for nothing")
	setVisibility("visible")
	dispatch(doc, "visibilitychange")
	assert.Len(t, w.wake, 1, "a page shown again asks for a revalidation")
	dispatch(js.Global(), "online")
	assert.Len(t, w.wake, 1, "events during a revalidation start one more, not one each")

	boom := errors.New("GET /articles: 503")
	g.release <- boom
	select {
	case err := <-errs:
		assert.ErrorIs(t, err, boom)
	case <-time.After(hangGuard):
		t.Fatal("the error was not reported")
	}
	ctx := g.call(t, "the one asked for during the first")
	stop()
	assert.Error(t, ctx.Err(), "stop ends the wait of a revalidation")
	dispatch(js.Global(), "online")
	setVisibility("visible")
	dispatch(doc, "visibilitychange")
	assert.Empty(t, w.wake, "no listener after stop")
	g.release <- errors.New("after stop")
	stop() // twice is harmless
	require.Len(t, reported, 1, "an error after stop is not reported")
}

func TestOptionsTurnListenersOff(t *testing.T) {
	g := &gate{calls: make(chan context.Context, 1), release: make(chan error)}
	w, stop := start(g, Options{NoFocus: true, NoReconnect: true})
	defer stop()
	dispatch(js.Global(), "online")
	setVisibility("visible")
	t.Cleanup(func() { js.Global().Get("document").Delete("visibilityState") })
	dispatch(js.Global().Get("document"), "visibilitychange")
	assert.Empty(t, w.wake)
	assert.Empty(t, g.calls)
}
