//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hack-pad/safejs"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
)

// transport sends requests with the JavaScript fetch: the controller's
// fetch option when the context carries one (withFetch), else
// globalThis.fetch. It works in browsers, workers and Node.js, and keeps
// net/http out of the binary. Register makes it rest.DefaultTransport.
//
// Each request gets an AbortController that is aborted when the context is
// done (a timeout, the endpoint's signal, a reset), so the browser really
// stops the request. The body is read with arrayBuffer() and copied into Go
// in one go. Response.Native is the JavaScript Response, for parseResponse
// and for NetworkError.response. With datafetch.mjs attached and able to
// resume Go, the whole exchange is done in JavaScript (exchange below);
// without it (Go tests, attach without the Go instance) Go walks the
// Response itself.
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
	ac, err := abortController.New()
	if err != nil {
		return nil, err
	}
	signal, _ := ac.Get("signal")
	stop := context.AfterFunc(ctx, func() { _, _ = callMethod(ac, "abort") })
	defer stop()

	init, err := requestInit(req, signal)
	if err != nil {
		return nil, err
	}
	var pending safejs.Value
	if fn, ok := ctx.Value(fetchKey{}).(safejs.Value); ok {
		pending, err = invoke(fn, req.URL, init)
	} else {
		pending, err = callMethod(global, "fetch", req.URL, init)
	}
	if err != nil {
		return nil, err
	}
	resp, err := await(ctx, pending)
	if err != nil {
		return nil, err
	}
	if resp.Type() != safejs.TypeObject {
		return nil, fmt.Errorf("fetch resolved to %s, not a Response", resp.Type())
	}
	return t.read(ctx, resp)
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
	fetch := safejs.Undefined()
	if fn, ok := ctx.Value(fetchKey{}).(safejs.Value); ok {
		fetch = fn
	}
	extra := safejs.Undefined()
	if v, ok := req.Init.(safejs.Value); ok && v.Type() == safejs.TypeObject {
		extra = v
	}
	id, ch := waits.add()
	if _, err := invoke(lib.request, id, fetch, req.URL, desc, extra, body, t.keepBody); err != nil {
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
		return nil, fmt.Errorf("fetch resolved to %s, not a Response", o.meta)
	default:
		return nil, errors.New("datafetch: the transport reported more bytes than it had room for")
	}
	r := &rest.Response{Native: v, Status: o.status}
	// meta is [statusText, [[name, value], ...]] as JSON.
	meta, err := value.Parse(o.meta)
	if err != nil || meta.Len() != 2 {
		return nil, fmt.Errorf("datafetch: the transport's response description %q: %w", o.meta, err)
	}
	r.StatusText = meta.Elems()[0].Str()
	r.Header = headersFrom(meta.Elems()[1])
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
			return "", nil, fmt.Errorf("cannot send a body of type %T", req.RawBody)
		}
		body = raw
	}
	return initDescription(req).JSON(), body, nil
}

// initDescription is fetch's init as Go makes it: method and headers.
func initDescription(req *rest.Request) value.Value {
	return value.Obj(value.M("method", value.Str(req.Method)), value.M("headers", headerObject(req.Header)))
}

// headerObject returns h as a plain object, as a controller's fetch option
// may expect from data-client; repeated names are joined with ", " as
// Headers would.
func headerObject(h rest.Header) value.Value {
	var headers []value.Member
	index := map[string]int{}
	for _, f := range h {
		name := strings.ToLower(f.Name)
		if i, ok := index[name]; ok {
			headers[i].Value = value.Str(headers[i].Value.Str() + ", " + f.Value)
			continue
		}
		index[name] = len(headers)
		headers = append(headers, value.M(f.Name, value.Str(f.Value)))
	}
	return value.Obj(headers...)
}

// requestInit builds fetch's init: method and headers from JSON in one
// call, then the body, the signal and whatever else getRequestInit
// returned (credentials, mode, ...). Headers are a plain object, as a
// controller's fetch option may expect from data-client; repeated names
// are joined with ", " as Headers would.
func requestInit(req *rest.Request, signal safejs.Value) (safejs.Value, error) {
	init, err := callMethod(jsonObject, "parse", initDescription(req).JSON())
	if err != nil {
		return init, err
	}
	if extra, ok := req.Init.(safejs.Value); ok && extra.Type() == safejs.TypeObject {
		// What the endpoint computed wins over the extra members.
		target, err := newObject()
		if err == nil {
			init, err = invoke(objectAssign, target, extra, init)
		}
		if err != nil {
			return init, err
		}
	}
	switch {
	case req.Body != nil:
		// Bodies in Go are JSON or text from JavaScript strings: sent as a
		// string, fetch adds the text Content-Type the caller expects.
		err = init.Set("body", string(req.Body))
	case req.RawBody != nil:
		raw, ok := req.RawBody.(safejs.Value)
		if !ok {
			return init, fmt.Errorf("cannot send a body of type %T", req.RawBody)
		}
		err = init.Set("body", raw)
	}
	if err == nil {
		err = init.Set("signal", signal)
	}
	return init, err
}

// read turns the Response into a rest.Response, reading the body unless
// keepBody. A response the caller may want to read again (an error status,
// or a body that is not JSON and will fail to parse) is read from a clone,
// so that NetworkError.response still has its body; a JSON success is read
// directly, since cloning a large body costs memory for nothing.
func (t transport) read(ctx context.Context, resp safejs.Value) (*rest.Response, error) {
	r := &rest.Response{Native: resp}
	status, err := resp.Get("status")
	if err == nil {
		r.Status, err = status.Int()
	}
	if err != nil {
		return nil, fmt.Errorf("fetch resolved to something that is not a Response: %w", err)
	}
	if text, err := resp.Get("statusText"); err == nil && text.Type() == safejs.TypeString {
		r.StatusText, _ = text.String()
	}
	if headers, err := resp.Get("headers"); err == nil && headers.Type() == safejs.TypeObject {
		if pairs, err := invoke(arrayFrom, headers); err == nil {
			if j, err := callMethod(jsonObject, "stringify", pairs); err == nil {
				r.Header, _ = headersArg(j)
			}
		}
	}
	if t.keepBody {
		return r, nil
	}
	reader := resp
	if !r.OK() || !strings.Contains(strings.ToLower(r.Header.Get("Content-Type")), "json") {
		if clone, err := callMethod(resp, "clone"); err == nil {
			reader = clone
		}
	}
	pending, err := callMethod(reader, "arrayBuffer")
	if err != nil {
		return nil, err
	}
	buf, err := await(ctx, pending)
	if err != nil {
		return nil, err
	}
	bytes, err := uint8Array.New(buf)
	if err != nil {
		return nil, err
	}
	n, err := bytes.Length()
	if err != nil {
		return nil, err
	}
	r.Body = make([]byte, n)
	if _, err := safejs.CopyBytesToGo(r.Body, bytes); err != nil {
		return nil, err
	}
	if n >= largeTransfer {
		detachBody(reader, buf)
	}
	return r, nil
}

// detachBody empties buf, the ArrayBuffer that reader's arrayBuffer()
// resolved to, now that Go has copied its bytes: a structured clone of
// nothing that transfers buf detaches it, and its memory is freed however
// long Go's handles on it (and on the Uint8Array over it) stay in
// wasm_exec.js's table of values. Those go only when the collector
// finalizes them, which a collection cannot promise: the finalizer of a
// handle allocated next to a long-lived object in the runtime's tiny
// allocator does not run (and a collection started here would run while
// the body is parsed, when it frees nothing). Without this, such a handle
// kept a body's whole buffer alive.
//
// It costs a few calls into JavaScript, so only large bodies get it: a
// small one kept a while longer is little memory. Only the buffer of a
// real Response is detached: its arrayBuffer() makes a new one each call.
// A Response-like object from a fetch option may hand out a buffer it
// keeps, which must stay as it is.
func detachBody(reader, buf safejs.Value) {
	if structuredClone.Type() != safejs.TypeFunction || responseConstructor.Type() != safejs.TypeFunction {
		return
	}
	if ok, err := reader.InstanceOf(responseConstructor); err != nil || !ok {
		return
	}
	list, err := invoke(arrayOf, buf)
	if err != nil {
		return
	}
	opts, err := newObject()
	if err == nil {
		err = opts.Set("transfer", list)
	}
	if err == nil {
		// The result is 0, a number: no handle on anything.
		_, _ = invoke(structuredClone, 0, opts)
	}
}
