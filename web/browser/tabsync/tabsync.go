//go:build js && wasm

// Package tabsync syncs a Go front end's controller with the controllers
// of other tabs, workers and pages over a BroadcastChannel: what
// JavaScript's df.syncTabs does, for a go-app (or any Go) program running
// in a browser. The messages are the controller's (controller.OnSync,
// controller.ApplySync; the format is in core/controller/sync.go), posted as
// their JSON text, so a Go front end and a JavaScript page on the same
// channel sync with each other too.
package tabsync

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/browser/internal/inbox"
)

// DefaultChannel is the channel JavaScript's syncTabs uses by default.
const DefaultChannel = "datafetch"

// Options configure Sync. The zero value is usable.
type Options struct {
	// Channel is the BroadcastChannel's name; "" is DefaultChannel.
	Channel string
	// OnIgnored, when set, is told of every message that was not applied:
	// not text, malformed, or of another version (errors.Is(err,
	// controller.ErrSyncVersion)). nil ignores them silently. It runs on
	// the goroutine that applies messages.
	OnIgnored func(err error)
}

// Sync posts c's sync messages on the BroadcastChannel named
// opts.Channel and applies the messages other ends post there, in the
// order they arrive, on a goroutine of its own (a js.FuncOf callback must
// not wait for the controller's lock). It returns the function that stops
// both; calling it twice is harmless. It fails where there is no
// BroadcastChannel.
func Sync(c *controller.Controller, opts Options) (stop func(), err error) {
	name := opts.Channel
	if name == "" {
		name = DefaultChannel
	}
	ctor := js.Global().Get("BroadcastChannel")
	if ctor.Type() != js.TypeFunction {
		return nil, errors.New("tabsync: there is no BroadcastChannel here")
	}
	ch := ctor.New(name)
	ignored := func(err error) {
		if opts.OnIgnored != nil {
			opts.OnIgnored(err)
		}
	}
	in := inbox.New(func(data js.Value) {
		if err := apply(c, data); err != nil {
			ignored(err)
		}
	})
	remove := in.Listen(ch)
	var mu sync.Mutex // guards the channel's postMessage against close
	closed := false
	stopSink := c.OnSync(func(msg value.Value) {
		mu.Lock()
		defer mu.Unlock()
		if !closed {
			ch.Call("postMessage", msg.JSON())
		}
	})
	return func() {
		if !in.Close() {
			return
		}
		stopSink()
		mu.Lock()
		closed = true
		mu.Unlock()
		remove()
		ch.Call("close")
	}, nil
}

// apply applies one message's data: JSON text, as syncTabs posts it.
func apply(c *controller.Controller, data js.Value) error {
	if data.Type() != js.TypeString {
		return fmt.Errorf("tabsync: a message that is not a datafetch sync message (JSON text): %s", data.Type())
	}
	msg, err := value.ParseString(data.String())
	if err != nil {
		return fmt.Errorf("tabsync: a message that is not JSON: %w", err)
	}
	return c.ApplySync(msg)
}
