//go:build js && wasm

package jsbridge

import (
	"context"
	"math"
	"sync"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/fetch"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// endpointIDs maps each endpoint handed to JavaScript to its handle, so
// that callbacks run with `this` = the endpoint (getRequestInit, fetch) can
// name it: package rest passes them the *rest.Endpoint, which is the
// extended or paginated copy when the option was inherited. Go holds no
// reference to the JavaScript object itself, which would keep it from ever
// being collected; datafetch.mjs looks it up by handle.
var endpointIDs = struct {
	sync.Mutex
	m map[*rest.Endpoint]int
}{m: map[*rest.Endpoint]int{}}

func addEndpoint(ep *rest.Endpoint) int {
	h := table.add(ep)
	endpointIDs.Lock()
	endpointIDs.m[ep] = h
	endpointIDs.Unlock()
	return h
}

// releaseEndpoint forgets the handle id of an endpoint. An endpoint handed
// out again (an unchanged member of an extended resource) has a newer
// handle, which stays.
func releaseEndpoint(id int) {
	if ep, ok := table.get(id); ok {
		if ep, ok := ep.(*rest.Endpoint); ok {
			endpointIDs.Lock()
			if endpointIDs.m[ep] == id {
				delete(endpointIDs.m, ep)
			}
			endpointIDs.Unlock()
		}
	}
}

func endpointHandle(ep *rest.Endpoint) int {
	endpointIDs.Lock()
	defer endpointIDs.Unlock()
	return endpointIDs.m[ep]
}

// endpointOptions are the options of a RestEndpoint (or of an extend) as
// datafetch.mjs passes them in four arguments:
//
//	json    the options JSON can hold: urlPrefix, path, method, name,
//	        schema (a handle, -1 for none), body (a JSON body), rawBody
//	        (true: the body is the raw argument), dataExpiryLength,
//	        errorExpiryLength, pollFrequency, timeout (ms), invalidIfStale,
//	        retry (a count; -1 for none, 0 for the controller's),
//	        sideEffect, signal (true: the signal argument), hooks (names of
//	        the adapters in fns), unset (function options set to
//	        undefined, which an extend removes) and optimistic (a
//	        resource's option, read by resourceNew; an endpoint has none)
//	fns     the adapters of the function options, which take and return
//	        JSON text (see the hook methods below); a generic Endpoint
//	        (generic.mjs) adds key, its store key of the params
//	raw     a body JSON cannot carry (FormData, Blob, ...)
//	signal  an AbortSignal
//
// Only the members present are applied, so an extend changes just those.
type endpointOptions struct {
	json                 value.Value
	fns, rawBody, signal safejs.Value
}

func endpointOptionsArgs(args []safejs.Value, i int) (endpointOptions, error) {
	j, err := jsonArg(arg(args, i), "endpoint options")
	return endpointOptions{json: j, fns: arg(args, i+1), rawBody: arg(args, i+2), signal: arg(args, i+3)}, err
}

func (eo endpointOptions) apply(o *rest.Options) error {
	for _, m := range eo.json.Members() {
		v := m.Value
		var err error
		switch m.Key {
		case "urlPrefix":
			o.URLPrefix = v.Str()
		case "path":
			o.Path = v.Str()
		case "method":
			o.Method = v.Str()
		case "name":
			o.Name = v.Str()
		case "schema":
			o.Schema, err = schemaFromHandle(v)
		case "body":
			o.Body = nil
			if !v.IsNullish() {
				o.Body = v
			}
		case "rawBody":
			o.Body = eo.rawBody
		case "dataExpiryLength":
			o.DataExpiryLength, err = millis(v, m.Key)
		case "errorExpiryLength":
			o.ErrorExpiryLength, err = millis(v, m.Key)
		case "pollFrequency":
			o.PollFrequency, err = millis(v, m.Key)
		case "timeout":
			o.Timeout, err = millis(v, m.Key)
		case "invalidIfStale":
			o.InvalidIfStale = v.Boolean()
		case "optimistic":
			// resource()'s option (resourceNew reads it): not one of an
			// endpoint, which keeps it as a member of its own, as
			// data-client's RestEndpoint does.
		case "paginationField":
			o.PaginationField = v.Str()
		case "movePath":
			o.MovePath = v.Str()
		case "retry":
			n, ok := v.Float()
			if !ok || n != math.Trunc(n) || n < -1 || n > math.MaxInt32 {
				err = fmtlite.Errorf("must be a whole number of retries, got %s", v)
			} else {
				o.Retry = int(n)
			}
		case "sideEffect":
			o.SideEffect = nil
			if v.Kind() == value.Bool {
				se := v.Boolean()
				o.SideEffect = &se
			}
		case "signal":
			o.Signal = nil
			if v.Boolean() {
				o.Signal, err = signalContext(eo.signal)
			}
		case "hooks":
			for _, name := range v.Elems() {
				var fn safejs.Value
				if fn, err = eo.fns.Get(name.Str()); err == nil {
					err = setEndpointHook(o, name.Str(), fn)
				}
				if err != nil {
					break
				}
			}
		case "unset":
			for _, name := range v.Elems() {
				if err = setEndpointHook(o, name.Str(), safejs.Undefined()); err != nil {
					break
				}
			}
		}
		if err != nil {
			return fmtlite.Errorf("option %s: %w", m.Key, err)
		}
	}
	return nil
}

// schemaFromHandle reads the schema member of the options: a handle, or -1
// (or null) for none.
func schemaFromHandle(v value.Value) (schema.Schema, error) {
	f, ok := v.Float()
	if !ok || f < 0 {
		return nil, nil
	}
	x, _ := table.get(int(f))
	s, ok := x.(schema.Schema)
	if !ok {
		return nil, fmtlite.Errorf("schema #%d no longer exists", int(f))
	}
	return s, nil
}

// setEndpointHook sets the option name to call the adapter fn; an undefined
// fn removes the option.
func setEndpointHook(o *rest.Options, name string, fn safejs.Value) error {
	unset := fn.Type() == safejs.TypeUndefined
	switch name {
	case "getHeaders":
		o.GetHeaders = nil
		if !unset {
			o.GetHeaders = getHeadersHook(fn)
		}
	case "getRequestInit":
		o.GetRequestInit = nil
		if !unset {
			o.GetRequestInit = getRequestInitHook(fn)
		}
	case "fetch":
		o.FetchText = nil
		if !unset {
			o.FetchText = fetchHook(fn)
		}
	case "parseResponse":
		o.ParseResponse, o.Transport = nil, nil
		if !unset {
			o.ParseResponse = parseResponseHook(fn)
			// The caller reads the body: the transport must leave it.
			o.Transport = transport{keepBody: true}
		}
	case "process":
		o.Process = nil
		if !unset {
			o.Process = processHook(fn)
		}
	case "getOptimisticResponse":
		o.GetOptimisticResponse = nil
		if !unset {
			o.GetOptimisticResponse = optimisticHook(fn)
		}
	case "update":
		o.Update = nil
		if !unset {
			o.Update = updateHook(fn)
		}
	case "searchToString":
		o.SearchToString = nil
		if !unset {
			o.SearchToString = searchToStringHook(fn)
		}
	case "key":
		o.Key = nil
		if !unset {
			o.Key = keyHook(fn)
		}
	case "retryDelay":
		o.RetryDelay = nil
		if !unset {
			o.RetryDelay = retryDelayHook(fn)
		}
	default:
		return fmtlite.Errorf("unknown option %q", name)
	}
	return nil
}

// getHeadersHook: adapter(headersJSON) → headers JSON ([[name, value]...])
// or a Promise of it.
func getHeadersHook(fn safejs.Value) func(context.Context, rest.Header) (rest.Header, error) {
	return func(ctx context.Context, h rest.Header) (rest.Header, error) {
		r, err := invoke(fn, headersJSON(h))
		if err == nil {
			r, err = await(ctx, r)
		}
		if err != nil {
			return nil, err
		}
		return headersArg(r)
	}
}

// getRequestInitHook: adapter(endpoint, bodyKind, body) → [initJSON, raw,
// extra] or a Promise of it. initJSON is {m: method, h: headers, b: JSON
// body} (each optional; "raw": true when the body is raw); extra holds the
// rest of the init (credentials, mode...) for the transport.
func getRequestInitHook(fn safejs.Value) func(context.Context, *rest.Endpoint, any) (rest.RequestInit, error) {
	return func(ctx context.Context, e *rest.Endpoint, body any) (rest.RequestInit, error) {
		kind, payload := bodyToJS(body)
		r, err := invoke(fn, endpointHandle(e), kind, payload)
		if err == nil {
			r, err = await(ctx, r)
		}
		if err != nil {
			return rest.RequestInit{}, err
		}
		descV, _ := r.Index(0)
		desc, err := jsonArg(descV, "request init")
		if err != nil {
			return rest.RequestInit{}, err
		}
		init := rest.RequestInit{Method: desc.Get("m").Str()}
		if h := desc.Get("h"); !h.IsUndefined() {
			init.Header = fetch.HeadersFrom(h)
		}
		if desc.Get("raw").Boolean() {
			init.Body, _ = r.Index(1)
		} else if b := desc.Get("b"); !b.IsUndefined() {
			init.Body = b
		}
		if extra, _ := r.Index(2); extra.Type() == safejs.TypeObject {
			init.Init = extra
		}
		return init, nil
	}
}

// fetchHook: adapter(endpoint, paramsJSON, bodyKind, body) → Promise of the
// result as JSON.
func fetchHook(fn safejs.Value) func(context.Context, *rest.Endpoint, value.Value, any) (string, error) {
	return func(ctx context.Context, e *rest.Endpoint, params value.Value, body any) (string, error) {
		kind, payload := bodyToJS(body)
		r, err := invoke(fn, endpointHandle(e), params.JSON(), kind, payload)
		if err != nil {
			return "", thrownStatus(err)
		}
		// The endpoint parses the text (rest.Options.FetchText), unless
		// the store holds it already.
		text, err := awaitText(ctx, r, "fetch result")
		if err != nil {
			return "", thrownStatus(err)
		}
		return text, nil
	}
}

// parseResponseHook: adapter(response) → Promise of the parsed value as
// JSON. The response is the JavaScript Response, body unread.
func parseResponseHook(fn safejs.Value) func(context.Context, *rest.Response) (value.Value, error) {
	return func(ctx context.Context, resp *rest.Response) (value.Value, error) {
		native, _ := resp.Native.(safejs.Value)
		r, err := invoke(fn, native)
		if err != nil {
			return value.Undef, err
		}
		return awaitJSON(ctx, r, "parseResponse result")
	}
}

// searchToStringHook: adapter(searchJSON) → the query string.
func searchToStringHook(fn safejs.Value) func(value.Value) (string, error) {
	return func(search value.Value) (string, error) {
		r, err := invoke(fn, search.JSON())
		if err != nil {
			return "", err
		}
		return r.String()
	}
}

// keyHook: adapter(paramsJSON) → the store key (a string); paramsJSON is
// "" for undefined params.
func keyHook(fn safejs.Value) func(value.Value) (string, error) {
	return func(params value.Value) (string, error) {
		r, err := invoke(fn, params.JSON())
		if err != nil {
			return "", err
		}
		return r.String()
	}
}

// processHook: adapter(valueJSON, paramsJSON) → JSON.
func processHook(fn safejs.Value) func(v, params value.Value) (value.Value, error) {
	return func(v, params value.Value) (value.Value, error) {
		r, err := invoke(fn, v.JSON(), params.JSON())
		if err != nil {
			return value.Undef, err
		}
		return jsonArg(r, "process result")
	}
}

// optimisticHook: adapter(snapshot, fetchedAt, paramsJSON, bodyKind, body)
// → JSON, or false when the caller threw AbortOptimistic. The snapshot is a
// handle valid during the call, for snap.getResponse (snapGetResponse).
func optimisticHook(fn safejs.Value) func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
	return func(snap endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
		sh := table.add(snap)
		defer table.release(sh)
		kind, payload := bodyToJS(body)
		r, err := invoke(fn, sh, snap.FetchedAt(), params.JSON(), kind, payload)
		if err != nil {
			return value.Undef, err
		}
		if r.Type() == safejs.TypeBoolean {
			return value.Undef, endpoint.ErrAbortOptimistic
		}
		return jsonArg(r, "getOptimisticResponse result")
	}
}

// updateHook: adapter(newPKsJSON, paramsJSON) → [keysJSON, call], where
// call(i, pksJSON) runs the function of the i-th key and returns the new
// pks as JSON.
func updateHook(fn safejs.Value) func(newPKs, params value.Value) (map[string]func(value.Value) value.Value, error) {
	return func(newPKs, params value.Value) (map[string]func(value.Value) value.Value, error) {
		r, err := invoke(fn, newPKs.JSON(), params.JSON())
		if err != nil {
			return nil, err
		}
		keysV, _ := r.Index(0)
		keys, err := jsonArg(keysV, "update keys")
		if err != nil {
			return nil, err
		}
		call, _ := r.Index(1)
		updates := make(map[string]func(value.Value) value.Value, keys.Len())
		for i, k := range keys.Elems() {
			key := k.Str()
			updates[key] = func(pks value.Value) value.Value {
				// The store calls these with no way to fail: an error
				// panics, and the controller fails the request with it.
				out, err := invoke(call, i, pks.JSON())
				if err != nil {
					panic(fmtlite.Errorf("update %s: %w", key, err))
				}
				v, err := jsonArg(out, "update result for "+key)
				if err != nil {
					panic(err)
				}
				return v
			}
		}
		return updates, nil
	}
}

// headersJSON returns h as JSON [[name, value]...].
func headersJSON(h rest.Header) string {
	pairs := make([]value.Value, len(h))
	for i, f := range h {
		pairs[i] = value.Arr(value.Str(f.Name), value.Str(f.Value))
	}
	return value.Arr(pairs...).JSON()
}

func headersArg(v safejs.Value) (rest.Header, error) {
	pairs, err := jsonArg(v, "headers")
	if err != nil {
		return nil, err
	}
	return fetch.HeadersFrom(pairs), nil
}

// endpointNew(optsJSON, fns, raw, signal) returns the handle of a new
// endpoint.
func endpointNew(args []safejs.Value) (any, error) {
	eo, err := endpointOptionsArgs(args, 0)
	if err != nil {
		return nil, err
	}
	var o rest.Options
	if err := eo.apply(&o); err != nil {
		return nil, fmtlite.Errorf("RestEndpoint %s: %w", o.Path, err)
	}
	ep, err := rest.New(o)
	if err != nil {
		return nil, err
	}
	return addEndpoint(ep), nil
}

// endpointExtend(handle, optsJSON, fns, raw, signal) returns the handle of
// the endpoint with those options replaced.
func endpointExtend(args []safejs.Value) (any, error) {
	ep, err := lookup[*rest.Endpoint](arg(args, 0), "an endpoint")
	if err != nil {
		return nil, err
	}
	eo, err := endpointOptionsArgs(args, 1)
	if err != nil {
		return nil, err
	}
	var applyErr error
	n, err := ep.Extend(func(o *rest.Options) { applyErr = eo.apply(o) })
	if applyErr != nil {
		return nil, fmtlite.Errorf("%s: extend: %w", ep.Name(), applyErr)
	}
	if err != nil {
		return nil, err
	}
	return addEndpoint(n), nil
}

// endpointPaginated(handle, cursor) returns the handle of the paginated
// endpoint: cursor is the cursor param's name, or the adapter of
// removeCursor, which takes the params as JSON text and returns them
// without the cursor, as process's does (processHook).
func endpointPaginated(args []safejs.Value) (any, error) {
	ep, err := lookup[*rest.Endpoint](arg(args, 0), "an endpoint")
	if err != nil {
		return nil, err
	}
	var n *rest.Endpoint
	if fn := arg(args, 1); fn.Type() == safejs.TypeFunction {
		strip := processHook(fn)
		n, err = ep.PaginatedBy(func(params value.Value) (value.Value, error) { return strip(params, value.Undef) })
	} else {
		var cursor string
		if cursor, err = stringArg(fn, "cursor param"); err == nil {
			n, err = ep.Paginated(cursor)
		}
	}
	if err != nil {
		return nil, err
	}
	return addEndpoint(n), nil
}

// endpointURL(handle, paramsJSON) returns the URL.
func endpointURL(args []safejs.Value) (any, error) {
	ep, params, err := endpointAndParams(args, 0)
	if err != nil {
		return nil, err
	}
	return ep.URL(params)
}

// endpointKey(handle, paramsJSON) returns the store key.
func endpointKey(args []safejs.Value) (any, error) {
	ep, params, err := endpointAndParams(args, 0)
	if err != nil {
		return nil, err
	}
	return ep.Key(params)
}

// endpointAndParams reads the (endpoint handle, params JSON) pair at i.
func endpointAndParams(args []safejs.Value, i int) (*rest.Endpoint, value.Value, error) {
	ep, err := lookup[*rest.Endpoint](arg(args, i), "an endpoint")
	if err != nil {
		return nil, value.Undef, err
	}
	params, err := jsonArg(arg(args, i+1), ep.Name()+": params")
	return ep, params, err
}
