package rest

import (
	"context"
	"errors"
)

// Transport performs one HTTP request. It is the seam between endpoints and
// the platform: package nethttp implements it with net/http for native
// programs, and the WebAssembly bridge implements it with the JavaScript
// fetch function, so that package rest itself links neither.
//
// RoundTrip must honour ctx: when ctx is done it should stop and return an
// error. A response with any status, 404 included, is not an error; an
// error means no response was received (a network failure).
type Transport interface {
	RoundTrip(ctx context.Context, req *Request) (*Response, error)
}

// Request is what an endpoint asks a Transport to send.
type Request struct {
	Method string
	URL    string
	Header Header
	// Body is the encoded request body; nil sends none.
	Body []byte
	// RawBody is a body the transport passes through untouched, such as a
	// JavaScript FormData or an io.Reader; it is set only when Body is nil.
	// A transport that cannot send it returns an error.
	RawBody any
	// Init is the opaque Init of the RequestInit that built this request,
	// for transport-specific settings such as fetch's credentials or mode.
	Init any
}

// Response is a received HTTP response with its body read in full.
type Response struct {
	Status int
	// StatusText is the reason phrase, as "Not Found"; it may be empty
	// (HTTP/2 has none).
	StatusText string
	Header     Header
	// Body is the whole body. It belongs to the Response from the moment
	// RoundTrip returns it: a Transport must not modify or reuse it after,
	// since the value DefaultParseResponse parses from it shares its bytes
	// rather than copying them (a copy would double the memory a large
	// body takes).
	Body []byte
	// Native is the transport's own response object, such as a JavaScript
	// Response or a *http.Response (whose body is already consumed), for
	// callers that need more than this struct carries.
	Native any
}

// OK reports whether the status is 2xx.
func (r *Response) OK() bool { return r.Status >= 200 && r.Status <= 299 }

// DefaultTransport is used by endpoints that have no Transport option when
// the context carries none either. It is nil until a program sets it: in
// a browser to jsbridge/fetch.Transport{} (datafetch.wasm does), natively
// by importing package nethttp for its side effect. Set it during
// initialization only: it is read without synchronization.
var DefaultTransport Transport

// ErrNoTransport is wrapped by the error of a fetch that found no Transport.
var ErrNoTransport = errors.New("no transport: set the endpoint's Transport option, " +
	"pass one with rest.WithTransport, or set rest.DefaultTransport " +
	"(jsbridge/fetch.Transport{} in a browser; natively, import " +
	`_ "github.com/datafetch/datafetch/core/rest/nethttp" to use net/http)`)

type transportKey struct{}

// WithTransport returns a copy of ctx that carries t, so every endpoint
// fetched with it that has no Transport option of its own uses t. This is
// how a controller-level fetch option reaches endpoints.
func WithTransport(ctx context.Context, t Transport) context.Context {
	return context.WithValue(ctx, transportKey{}, t)
}

// TransportFromContext returns the Transport stored by WithTransport, or nil.
func TransportFromContext(ctx context.Context) Transport {
	t, _ := ctx.Value(transportKey{}).(Transport)
	return t
}

// Do sends req with the context's transport (WithTransport), else
// DefaultTransport: a request outside any endpoint that goes where the
// endpoints' requests go.
func Do(ctx context.Context, req *Request) (*Response, error) {
	t, err := transportFor(ctx, nil)
	if err != nil {
		return nil, err
	}
	return t.RoundTrip(ctx, req)
}

// transportFor picks the transport for a fetch: the endpoint's own, then the
// context's, then DefaultTransport.
func transportFor(ctx context.Context, own Transport) (Transport, error) {
	if own != nil {
		return own, nil
	}
	if t := TransportFromContext(ctx); t != nil {
		return t, nil
	}
	if t := DefaultTransport; t != nil {
		return t, nil
	}
	return nil, ErrNoTransport
}
