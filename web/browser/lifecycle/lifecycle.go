//go:build js && wasm

// Package lifecycle revalidates a Go front end's cache when the user comes
// back: on the document's visibilitychange to visible (the tab shown
// again) and on the window's online event (the network back), it calls
// the controller's RevalidateActive, which refetches only the held
// results that are stale or invalid. It is what the JavaScript bridge's
// revalidateOnFocus and revalidateOnReconnect do, for a go-app (or any
// Go) program running in a browser.
package lifecycle

import (
	"context"
	"sync"
	"syscall/js"
)

// Revalidator is what Watch drives; *controller.Controller is one.
type Revalidator interface {
	RevalidateActive(ctx context.Context) error
}

// Options configure Watch. The zero value listens to both events.
type Options struct {
	// NoFocus and NoReconnect turn off the visibilitychange and the
	// online listener.
	NoFocus, NoReconnect bool
	// OnError, when set, is told of a revalidation's error (the joined
	// errors of its fetches); nil drops them: the results keep them.
	OnError func(error)
}

// Watch listens for the events and revalidates c on each, on a goroutine
// of its own (a js.FuncOf callback must not wait for requests, which need
// the event loop it would block). Events that come while a revalidation
// runs start one more after it, not one each. It returns the function that
// removes the listeners and ends a revalidation's wait; calling it twice is
// harmless.
func Watch(c Revalidator, opts Options) (stop func()) {
	_, stop = start(c, opts)
	return stop
}

// start is Watch, returning the watcher too, for tests.
func start(c Revalidator, opts Options) (*watcher, func()) {
	w := &watcher{c: c, opts: opts, wake: make(chan struct{}, 1)}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	doc, win := js.Global().Get("document"), js.Global()
	onVisibility := js.FuncOf(func(js.Value, []js.Value) any {
		if doc.Get("visibilityState").String() == "visible" {
			w.trigger()
		}
		return nil
	})
	onOnline := js.FuncOf(func(js.Value, []js.Value) any {
		w.trigger()
		return nil
	})
	if !opts.NoFocus {
		doc.Call("addEventListener", "visibilitychange", onVisibility)
	}
	if !opts.NoReconnect {
		win.Call("addEventListener", "online", onOnline)
	}
	go w.loop()
	var once sync.Once
	return w, func() {
		once.Do(func() {
			doc.Call("removeEventListener", "visibilitychange", onVisibility)
			win.Call("removeEventListener", "online", onOnline)
			onVisibility.Release()
			onOnline.Release()
			w.cancel()
		})
	}
}

type watcher struct {
	c      Revalidator
	opts   Options
	wake   chan struct{} // holds one asked-for revalidation
	ctx    context.Context
	cancel context.CancelFunc
}

// trigger asks for a revalidation; one already asked for covers it.
func (w *watcher) trigger() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *watcher) loop() {
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-w.wake:
		}
		if err := w.c.RevalidateActive(w.ctx); err != nil && w.opts.OnError != nil && w.ctx.Err() == nil {
			w.opts.OnError(err)
		}
	}
}
