//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/fetch"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// transport sends requests with the JavaScript fetch: the controller's
// fetch option when the context carries one (withFetch), else
// globalThis.fetch. It works in browsers, workers and Node.js, and keeps
// net/http out of the binary. Register makes it rest.DefaultTransport.
//
// Response.Native is the JavaScript Response, for parseResponse and for
// NetworkError.response. With datafetch.mjs attached and able to resume
// Go, the whole exchange is done in JavaScript (exchange below); without
// it (Go tests, attach without the Go instance) Go walks the Response
// itself, as package fetch does for any Go program.
type transport struct {
	// keepBody leaves the body unread, for an endpoint whose parseResponse
	// reads it itself.
	keepBody bool
}

type fetchKey struct{}

// withFetch returns a copy of ctx whose requests call fn(url, init)
// instead of the global fetch: the controller's fetch option.
func withFetch(ctx context.Context, fn safejs.Value) context.Context {
	return context.WithValue(ctx, fetchKey{}, fn)
}

// RoundTrip implements rest.Transport.
func (t transport) RoundTrip(ctx context.Context, req *rest.Request) (*rest.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if lib.request.Type() == safejs.TypeFunction {
		return t.exchange(ctx, req)
	}
	f := fetch.Transport{KeepBody: t.keepBody, Await: await}
	if fn, ok := ctx.Value(fetchKey{}).(safejs.Value); ok {
		f.Fetch = fn
	}
	return f.RoundTrip(ctx, req)
}

// exchange is RoundTrip through lib.request (internal/transport.mjs),
// which does the whole exchange with fetch in JavaScript: builds the init
// from what Go describes, calls fetch, reads status, headers and the body,
// and reports through the exports of wake.go, the body copied into Go's
// memory once. The crossings per request are a handful: the call that
// starts it, two exports and a resume from JavaScript, and lib.take for the
// Response (or what was thrown). Abort stays real: when ctx is done first,
// lib.abort aborts the request's AbortController.
func (t transport) exchange(ctx context.Context, req *rest.Request) (*rest.Response, error) {
	desc, body, err := describeRequest(req)
	if err != nil {
		return nil, err
	}
	fetchFn := safejs.Undefined()
	if fn, ok := ctx.Value(fetchKey{}).(safejs.Value); ok {
		fetchFn = fn
	}
	extra := safejs.Undefined()
	if v, ok := req.Init.(safejs.Value); ok && v.Type() == safejs.TypeObject {
		extra = v
	}
	id, ch := waits.add()
	if _, err := invoke(lib.request, id, fetchFn, req.URL, desc, extra, body, t.keepBody); err != nil {
		waits.drop(id)
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { _, _ = invoke(lib.abort, id) })
	var o woken
	select {
	case o = <-ch:
		stop()
	case <-ctx.Done():
		waits.drop(id)
		if stop() {
			// The AfterFunc did not run (ctx was done before it was
			// registered to run it): abort here.
			_, _ = invoke(lib.abort, id)
		}
		return nil, ctx.Err()
	}
	// What JavaScript kept for Go: the Response, or what was thrown.
	v, err := invoke(lib.take, id)
	if err != nil {
		return nil, err
	}
	switch o.kind {
	case wakeOK:
	case wakeThrown:
		return nil, newJSError(v)
	case wakeNotResponse:
		return nil, fmtlite.Errorf("fetch resolved to %s, not a Response", o.meta)
	default:
		return nil, errors.New("datafetch: the transport reported more bytes than it had room for")
	}
	r := &rest.Response{Native: v, Status: o.status}
	// meta is [statusText, [[name, value], ...]] as JSON.
	meta, err := value.Parse(o.meta)
	if err != nil || meta.Len() != 2 {
		return nil, fmtlite.Errorf("datafetch: the transport's response description %q: %w", o.meta, err)
	}
	r.StatusText = meta.Elems()[0].Str()
	r.Header = fetch.HeadersFrom(meta.Elems()[1])
	if !t.keepBody {
		r.Body = o.body
	}
	return r, nil
}

// describeRequest returns the JSON text of fetch's init as far as Go makes
// it (method and headers), and the body as fetch takes it: a string, the
// caller's JavaScript value, or undefined.
func describeRequest(req *rest.Request) (string, any, error) {
	var body any = safejs.Undefined()
	switch {
	case req.Body != nil:
		body = string(req.Body)
	case req.RawBody != nil:
		raw, ok := req.RawBody.(safejs.Value)
		if !ok {
			return "", nil, fmtlite.Errorf("cannot send a body of type %T", req.RawBody)
		}
		body = raw
	}
	return fetch.InitDescription(req).JSON(), body, nil
}
