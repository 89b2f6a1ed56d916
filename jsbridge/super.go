//go:build js && wasm

package jsbridge

import (
	"context"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/fetch"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// The defaults of an endpoint's function options, for a JavaScript
// override that calls super (RestEndpoint.prototype in
// internal/endpoints.mjs): the rules stay in package rest.

// endpointRequestInit(endpoint, bodyKind, body) resolves to the request
// init the endpoint builds for body when nothing overrides getRequestInit,
// as [descJSON, rawBody]: desc is {method, headers: {name: value}, body}
// with a JSON body as its text (fetch's form); rawBody is a body JSON
// cannot carry, passed through (undefined otherwise).
func endpointRequestInit(args []safejs.Value) (any, error) {
	ep, err := lookup[*rest.Endpoint](arg(args, 0), "an endpoint")
	if err != nil {
		return nil, err
	}
	body, err := bodyArg(arg(args, 1), arg(args, 2))
	if err != nil {
		return nil, err
	}
	init, err := ep.DefaultRequestInit(context.Background(), body)
	if err != nil {
		return nil, err
	}
	desc := []value.Member{value.M("method", value.Str(init.Method)), value.M("headers", fetch.HeaderObject(init.Header))}
	var raw any = safejs.Undefined()
	switch b := init.Body.(type) {
	case value.Value:
		if b.Kind() == value.String {
			desc = append(desc, value.M("body", b))
		} else if !b.IsNullish() {
			desc = append(desc, value.M("body", value.Str(b.JSON())))
		}
	case safejs.Value:
		raw = b
	}
	return []any{value.Obj(desc...).JSON(), raw}, nil
}

// endpointParseResponse(endpoint, response) resolves to the JSON text of
// the value the endpoint's default parsing makes of a fetch Response, or
// rejects with its error (a NetworkError for a failure status, status 400
// for a body that is not JSON where a schema expects data).
func endpointParseResponse(args []safejs.Value) (any, error) {
	ep, err := lookup[*rest.Endpoint](arg(args, 0), "an endpoint")
	if err != nil {
		return nil, err
	}
	resp, err := fetch.Transport{Await: await}.Read(context.Background(), arg(args, 1))
	if err != nil {
		return nil, err
	}
	v, err := ep.DefaultParseResponse(resp)
	if err != nil {
		return nil, err
	}
	return v.JSON(), nil
}
