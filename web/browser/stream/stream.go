//go:build js && wasm

// Package stream writes what a server pushes into a Go front end's cache:
// what JavaScript's StreamManager does, for a go-app (or any Go) program
// in a browser. It listens to a message source (an EventSource for
// Server-Sent Events, a WebSocket), reads each message's data as JSON
// {"type": ..., "args": [...], "data": ...}, and stores data as the schema
// named type, read with args (controller.Set), so every result that shows
// that entity changes with it, as after a fetch. The message format is
// JavaScript's (docs/js-api.md, "Managers and live updates"): one server
// feeds both.
package stream

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/browser/internal/inbox"
)

// Options configure Listen. Schemas is required.
type Options struct {
	// Schemas maps a message's type to the schema its data is stored as
	// (an entity, usually).
	Schemas map[string]schema.Schema
	// OnError, when set, is told of every message that changed nothing: not
	// text, not JSON, of an unknown type, or refused by the schema. It runs
	// on the goroutine that applies messages.
	OnError func(err error)
	// OnOpen, when set, is called (from the browser's event loop) when an
	// EventSource opened by Listen is open.
	OnOpen func()
}

// Listen opens an EventSource on url and writes its messages into c (see
// ListenTo). The returned function closes it; calling it twice is
// harmless. It fails where there is no EventSource.
func Listen(c *controller.Controller, url string, opts Options) (stop func(), err error) {
	ctor := js.Global().Get("EventSource")
	if ctor.Type() != js.TypeFunction {
		return nil, errors.New("stream: there is no EventSource here")
	}
	source := ctor.New(url)
	var onOpen js.Func
	if opts.OnOpen != nil {
		onOpen = js.FuncOf(func(js.Value, []js.Value) any {
			opts.OnOpen()
			return nil
		})
		source.Call("addEventListener", "open", onOpen)
	}
	stopListening, err := ListenTo(c, source, opts)
	if err != nil {
		source.Call("close")
		return nil, err
	}
	return func() {
		if stopListening() && opts.OnOpen != nil {
			source.Call("removeEventListener", "open", onOpen)
			onOpen.Release()
		}
	}, nil
}

// ListenTo writes the messages of source (anything with message events:
// an EventSource, a WebSocket) into c, in order of arrival, on a goroutine
// of its own. The returned function stops listening and closes source; it
// reports whether this call stopped it.
func ListenTo(c *controller.Controller, source js.Value, opts Options) (stop func() bool, err error) {
	if len(opts.Schemas) == 0 {
		return nil, errors.New("stream: Options.Schemas names no message type")
	}
	if source.Type() != js.TypeObject || source.Get("addEventListener").Type() != js.TypeFunction {
		return nil, fmt.Errorf("stream: the source has no addEventListener (a %s)", source.Type())
	}
	in := inbox.New(func(data js.Value) {
		if err := apply(c, opts.Schemas, data); err != nil && opts.OnError != nil {
			opts.OnError(err)
		}
	})
	remove := in.Listen(source)
	return func() bool {
		if !in.Close() {
			return false
		}
		remove()
		if source.Get("close").Type() == js.TypeFunction {
			source.Call("close")
		}
		return true
	}, nil
}

// apply stores one message's data.
func apply(c *controller.Controller, schemas map[string]schema.Schema, data js.Value) error {
	if data.Type() != js.TypeString {
		return fmt.Errorf("stream: a message that is not text: %s", data.Type())
	}
	msg, err := value.ParseString(data.String())
	if err != nil {
		return fmt.Errorf("stream: a message that is not JSON: %w", err)
	}
	typ := msg.Get("type").Str()
	s := schemas[typ]
	if s == nil {
		return fmt.Errorf("stream: a message of no known type: %s", msg.Get("type").JSON())
	}
	args := msg.Get("args")
	if !args.IsUndefined() && args.Kind() != value.Array {
		return fmt.Errorf("stream: %s message: args is %s, not an array", typ, schema.KindName(args))
	}
	if err := c.Set(s, args.Elems(), msg.Get("data")); err != nil {
		return fmt.Errorf("stream: %s message: %w", typ, err)
	}
	return nil
}
