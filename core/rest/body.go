package rest

import (
	"bytes"
	"context"
	"unsafe"

	"github.com/datafetch/datafetch/core/value"
)

// FetchBody is Fetch in two steps, for a caller that may already hold what
// the response says: it sends the request and hands back the JSON text of
// a 2xx response before parsing it, with parse, which parses it (or hands
// back what Fetch would have returned) exactly as Fetch does, errors
// included.
//
// text is the body without its byte-order mark, sharing its bytes (no
// copy): the text parse reads, so that a caller comparing it with the text
// of an earlier response that it stored compares with what that one's
// value was parsed from. A caller that finds text unchanged may skip
// parse. With a Fetch, ParseResponse or Process option, whose hook decides
// what the value is, the hook runs first and text is the JSON text its
// value is a parse of (value.Source: a hook that hands over JSON text or
// the parsed body, or a part of it), "" when it built the value; with a
// FetchText option, the text it hands over, unparsed. text is also "" for
// a response that is not 2xx, a 204 or a blank body.
//
// err is an error of the request itself (no response: a *NetworkError with
// Status 0, or an error building the request), as Fetch returns it.
func (e *Endpoint) FetchBody(ctx context.Context, params value.Value, body any) (text string, parse func() (value.Value, error), err error) {
	if e.opts.FetchText != nil && e.opts.Fetch == nil {
		ctx, cancel := e.requestContext(ctx)
		defer cancel()
		text, err := e.fetchText(ctx, params, body)
		if err != nil {
			return "", nil, err
		}
		parse = func() (value.Value, error) { return e.parseFetched(text) }
		if text == "" || text[0] == 0 {
			// Marked JSON (with undefined in it): the text alone does not
			// say what the value is.
			v, err := parse()
			return "", func() (value.Value, error) { return v, err }, nil
		}
		return text, parse, nil
	}
	if e.opts.Fetch != nil || e.opts.ParseResponse != nil || e.opts.Process != nil {
		v, err := e.Fetch(ctx, params, body)
		if err != nil {
			return "", nil, err
		}
		// Two values with the same Source are Equal: the text stands for
		// the value as the body's does.
		return v.Source(), func() (value.Value, error) { return v, nil }, nil
	}
	ctx, cancel := e.requestContext(ctx)
	defer cancel()
	req, resp, err := e.send(ctx, params, body)
	if err != nil {
		return "", nil, err
	}
	parse = func() (value.Value, error) {
		v, err := e.DefaultParseResponse(resp)
		if err != nil {
			return value.Undef, e.parseError(req, resp, err)
		}
		return v, nil
	}
	if !resp.OK() || resp.Status == 204 {
		return "", parse, nil
	}
	b := bytes.TrimPrefix(resp.Body, utf8BOM)
	if isBlank(b) {
		return "", parse, nil
	}
	// The Response owns its body (see Response.Body), and so does the
	// value DefaultParseResponse parses from it: the text shares it.
	return unsafe.String(unsafe.SliceData(b), len(b)), parse, nil
}
