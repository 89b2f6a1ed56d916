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

	var mu sync.Mutex
	var queue []js.Value // message data, in order of arrival
	var stopped bool
	wake := make(chan struct{}, 1)
	done := make(chan struct{})
	ignored := func(err error) {
		if opts.OnIgnored != nil {
			opts.OnIgnored(err)
		}
	}
	go func() {
		for {
			select {
			case <-done:
				return
			case <-wake:
			}
			for {
				mu.Lock()
				if stopped || len(queue) == 0 {
					mu.Unlock()
					break
				}
				data := queue[0]
				queue = queue[1:]
				mu.Unlock()
				if err := apply(c, data); err != nil {
					ignored(err)
				}
			}
		}
	}()
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		mu.Lock()
		if !stopped {
			queue = append(queue, args[0].Get("data"))
		}
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
		return nil
	})
	ch.Set("onmessage", onMessage)

	stopSink := c.OnSync(func(msg value.Value) {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			ch.Call("postMessage", msg.JSON())
		}
	})
	return func() {
		mu.Lock()
		if stopped {
			mu.Unlock()
			return
		}
		stopped = true
		queue = nil
		mu.Unlock()
		stopSink()
		ch.Set("onmessage", js.Null())
		ch.Call("close")
		onMessage.Release()
		close(done)
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
