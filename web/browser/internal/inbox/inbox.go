//go:build js && wasm

// Package inbox hands values that JavaScript callbacks receive (the data
// of message events) to a goroutine that handles them in order of arrival:
// a js.FuncOf callback must not wait for a controller's lock, and the
// handler may. The browser packages that listen to message sources
// (tabsync, stream) share it.
package inbox

import (
	"sync"
	"syscall/js"
)

// Inbox queues values for its handler.
type Inbox struct {
	mu      sync.Mutex
	queue   []js.Value
	stopped bool
	wake    chan struct{}
	done    chan struct{}
}

// New starts the goroutine that calls handle with each value Put, in
// order, until Close.
func New(handle func(js.Value)) *Inbox {
	in := &Inbox{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		for {
			select {
			case <-in.done:
				return
			case <-in.wake:
			}
			for {
				in.mu.Lock()
				if in.stopped || len(in.queue) == 0 {
					in.mu.Unlock()
					break
				}
				v := in.queue[0]
				in.queue = in.queue[1:]
				in.mu.Unlock()
				handle(v)
			}
		}
	}()
	return in
}

// Put queues v; it never blocks, so a js.FuncOf callback may call it.
func (in *Inbox) Put(v js.Value) {
	in.mu.Lock()
	if !in.stopped {
		in.queue = append(in.queue, v)
	}
	in.mu.Unlock()
	select {
	case in.wake <- struct{}{}:
	default:
	}
}

// Close drops what is queued and stops the goroutine; it reports whether
// this call closed it (false when it was closed already).
func (in *Inbox) Close() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.stopped {
		return false
	}
	in.stopped = true
	in.queue = nil
	close(in.done)
	return true
}

// Listen adds a "message" listener to source that Puts each event's data,
// and returns the function that removes it (and releases the callback).
func (in *Inbox) Listen(source js.Value) (remove func()) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		in.Put(args[0].Get("data"))
		return nil
	})
	source.Call("addEventListener", "message", fn)
	return func() {
		source.Call("removeEventListener", "message", fn)
		fn.Release()
	}
}
