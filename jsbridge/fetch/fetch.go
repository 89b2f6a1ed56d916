//go:build js && wasm

// Package fetch is a rest.Transport over JavaScript's fetch: the transport
// of datafetch.wasm, and the one a Go front end (go-app or any js/wasm
// program) should use. Unlike net/http's js/wasm port it adds nothing to
// the binary but this package (net/http costs about 0.8 MB brotli), it
// resolves paths against the page as the browser does, and aborting the
// request's context really aborts the request.
//
// Use it as the default transport in main:
//
//	rest.DefaultTransport = fetch.Transport{}
//
// or per endpoint (rest.Options.Transport) or per context
// (rest.WithTransport).
package fetch

import (
	"context"
	"strings"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/datafetch/datafetch/jsbridge/interop"
)

// The JavaScript globals it calls, looked up once (fetch is looked up per
// request instead, so a page may replace it after loading). Response and
// structuredClone may be missing (an old environment, a fetch polyfill):
// see detachBody.
var (
	global              = safejs.Global()
	objectConstructor   = interop.Lookup(global, "Object")
	objectAssign        = interop.Lookup(objectConstructor, "assign")
	arrayFrom           = interop.Lookup(interop.Lookup(global, "Array"), "from")
	arrayOf             = interop.Lookup(interop.Lookup(global, "Array"), "of")
	uint8Array          = interop.Lookup(global, "Uint8Array")
	jsonObject          = interop.Lookup(global, "JSON")
	abortController     = interop.Lookup(global, "AbortController")
	responseConstructor = interop.Lookup(global, "Response")
	structuredClone     = interop.Lookup(global, "structuredClone")
)

// largeBody is the body size from which Read detaches the body's buffer
// once Go has copied it (see detachBody).
const largeBody = 4 << 20

// Transport sends requests with fetch. The zero Transport calls
// globalThis.fetch and reads the whole body. It works in browsers, workers
// and Node.js.
//
// Each request gets an AbortController that is aborted when the context
// is done (a timeout, the endpoint's signal, a reset), so the browser
// really stops the request. The body is read with arrayBuffer() and copied
// into Go in one go. Response.Native is the JavaScript Response (a
// safejs.Value), for code that wants its headers or its body as a stream.
// A rest.Request's Init, when a safejs.Value object, is merged into
// fetch's init (credentials, mode...), under what Go sets itself.
type Transport struct {
	// Fetch, when a function, is called as Fetch(url, init) in place of
	// globalThis.fetch; it must return a Response or a promise of one.
	Fetch safejs.Value
	// KeepBody leaves the body unread, for a caller that reads it itself
	// through Response.Native.
	KeepBody bool
	// Await waits for a promise from the calling goroutine; nil is
	// interop.Await.
	Await func(context.Context, safejs.Value) (safejs.Value, error)
}

// RoundTrip implements rest.Transport.
func (t Transport) RoundTrip(ctx context.Context, req *rest.Request) (*rest.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ac, err := abortController.New()
	if err != nil {
		return nil, err
	}
	signal, _ := ac.Get("signal")
	stop := context.AfterFunc(ctx, func() { _, _ = interop.Call(ac, "abort") })
	defer stop()

	init, err := requestInit(req, signal)
	if err != nil {
		return nil, err
	}
	var pending safejs.Value
	if t.Fetch.Type() == safejs.TypeFunction {
		pending, err = interop.Invoke(t.Fetch, req.URL, init)
	} else {
		pending, err = interop.Call(global, "fetch", req.URL, init)
	}
	if err != nil {
		return nil, err
	}
	resp, err := t.await(ctx, pending)
	if err != nil {
		return nil, err
	}
	if resp.Type() != safejs.TypeObject {
		return nil, fmtlite.Errorf("fetch resolved to %s, not a Response", resp.Type())
	}
	return t.Read(ctx, resp)
}

func (t Transport) await(ctx context.Context, v safejs.Value) (safejs.Value, error) {
	if t.Await != nil {
		return t.Await(ctx, v)
	}
	return interop.Await(ctx, v)
}

// InitDescription is fetch's init as Go makes it: method and headers.
func InitDescription(req *rest.Request) value.Value {
	return value.Obj(value.M("method", value.Str(req.Method)), value.M("headers", HeaderObject(req.Header)))
}

// HeaderObject returns h as a plain object, as a fetch function written
// for data-client may expect; repeated names are joined with ", " as
// Headers would.
func HeaderObject(h rest.Header) value.Value {
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

// HeadersFrom returns the headers of pairs, an array of [name, value]
// arrays (what Array.from(headers) gives); other members are skipped.
func HeadersFrom(pairs value.Value) rest.Header {
	h := make(rest.Header, 0, pairs.Len())
	for _, p := range pairs.Elems() {
		if p.Len() == 2 {
			h.Add(p.Elems()[0].Str(), p.Elems()[1].Str())
		}
	}
	return h
}

// requestInit builds fetch's init: method and headers from JSON in one
// call, then the body, the signal and whatever else the request's Init
// holds.
func requestInit(req *rest.Request, signal safejs.Value) (safejs.Value, error) {
	init, err := interop.Call(jsonObject, "parse", InitDescription(req).JSON())
	if err != nil {
		return init, err
	}
	if extra, ok := req.Init.(safejs.Value); ok && extra.Type() == safejs.TypeObject {
		// What the endpoint computed wins over the extra members.
		target, err := objectConstructor.New()
		if err == nil {
			init, err = interop.Invoke(objectAssign, target, extra, init)
		}
		if err != nil {
			return init, err
		}
	}
	switch {
	case req.Body != nil:
		// Bodies in Go are JSON or text: sent as a string, fetch adds the
		// text Content-Type the caller expects.
		err = init.Set("body", string(req.Body))
	case req.RawBody != nil:
		raw, ok := req.RawBody.(safejs.Value)
		if !ok {
			return init, fmtlite.Errorf("cannot send a body of type %T", req.RawBody)
		}
		err = init.Set("body", raw)
	}
	if err == nil {
		err = init.Set("signal", signal)
	}
	return init, err
}

// Read turns resp, a JavaScript Response, into a rest.Response, reading
// the body unless t.KeepBody. A response the caller may want to read again
// (an error status, or a body that is not JSON and will fail to parse) is
// read from a clone, so that the Response still has its body; a JSON
// success is read directly, since cloning a large body costs memory for
// nothing.
func (t Transport) Read(ctx context.Context, resp safejs.Value) (*rest.Response, error) {
	r := &rest.Response{Native: resp}
	status, err := resp.Get("status")
	if err == nil {
		r.Status, err = status.Int()
	}
	if err != nil {
		return nil, fmtlite.Errorf("fetch resolved to something that is not a Response: %w", err)
	}
	if text, err := resp.Get("statusText"); err == nil && text.Type() == safejs.TypeString {
		r.StatusText, _ = text.String()
	}
	if headers, err := resp.Get("headers"); err == nil && headers.Type() == safejs.TypeObject {
		if pairs, err := interop.Invoke(arrayFrom, headers); err == nil {
			if j, err := interop.Call(jsonObject, "stringify", pairs); err == nil {
				if s, err := j.String(); err == nil {
					if v, err := value.Parse([]byte(s)); err == nil {
						r.Header = HeadersFrom(v)
					}
				}
			}
		}
	}
	if t.KeepBody {
		return r, nil
	}
	reader := resp
	if !r.OK() || !strings.Contains(strings.ToLower(r.Header.Get("Content-Type")), "json") {
		if clone, err := interop.Call(resp, "clone"); err == nil {
			reader = clone
		}
	}
	pending, err := interop.Call(reader, "arrayBuffer")
	if err != nil {
		return nil, err
	}
	buf, err := t.await(ctx, pending)
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
	if n >= largeBody {
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
	list, err := interop.Invoke(arrayOf, buf)
	if err != nil {
		return
	}
	opts, err := objectConstructor.New()
	if err == nil {
		err = opts.Set("transfer", list)
	}
	if err == nil {
		// The result is 0, a number: no handle on anything.
		_, _ = interop.Invoke(structuredClone, 0, opts)
	}
}
