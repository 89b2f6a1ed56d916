package rest

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"time"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Options configures an Endpoint. Only Path is required. Function options
// are called from the goroutine that runs Fetch and must be safe for
// concurrent use, since one endpoint may serve many fetches at once.
type Options struct {
	// URLPrefix is prepended to Path, as "http://127.0.0.1:8080". It is
	// literal text: tokens in it are not filled.
	URLPrefix string
	// Path is the path template, as "/articles/:id": each :name token is
	// filled from the param of that name. It starts with "/" or is a full
	// URL (then URLPrefix must be empty).
	Path string
	// Method is the HTTP method; "" means GET. Case does not matter.
	Method string
	// Name names the endpoint in keys and error messages; "" means Path.
	// Keys are Name, method and URL, so two endpoints with one method and
	// URL that differ in anything else (a schema, a Process) need different
	// names, or their results are stored under one key.
	Name string
	// Schema normalizes the response; nil stores it as it is.
	Schema schema.Schema
	// Body is the default request body, used when Fetch is given none. An
	// explicit body replaces it; the two are never merged.
	Body any
	// GetHeaders returns the request headers, given those the endpoint
	// would send (Content-Type for a JSON body). It may add, say, an
	// Authorization header.
	GetHeaders func(ctx context.Context, h Header) (Header, error)
	// GetRequestInit replaces the building of the request from the body
	// (after the default Body and the method's body rule are applied). It
	// may call e.DefaultRequestInit, as a JavaScript override calls super.
	// See RequestInit for how its result is completed and encoded.
	GetRequestInit func(ctx context.Context, e *Endpoint, body any) (RequestInit, error)
	// Fetch replaces the whole request: its result is what the endpoint
	// returns, without ParseResponse or Process. It gets the endpoint so it
	// can call e.URL or e.Send, and the body with the Body option applied.
	Fetch func(ctx context.Context, e *Endpoint, params value.Value, body any) (value.Value, error)
	// FetchText is Fetch for a hook that hands over its result as JSON
	// text (marked JSON, value.ParseMarked; "" is undefined), which the
	// endpoint parses: a caller that holds that text already may skip the
	// parse (FetchBody). Fetch, when set too, is used instead.
	FetchText func(ctx context.Context, e *Endpoint, params value.Value, body any) (string, error)
	// ParseResponse replaces the default parsing of a response of any
	// status; returning an error fails the fetch. It may call
	// e.DefaultParseResponse.
	ParseResponse func(ctx context.Context, r *Response) (value.Value, error)
	// Process transforms the parsed response before it is normalized.
	Process func(v, params value.Value) (value.Value, error)
	// SearchToString, when set, encodes the params that are not path
	// tokens (an object of them, never empty) as the URL's query string,
	// without its '?', in place of the default (sorted by name, as
	// URLSearchParams encodes): data-client's searchToString. It must be
	// a pure function of the params, as keys are made from the URL.
	SearchToString func(search value.Value) (string, error)
	// Key, when set, makes the store key of params in place of Name,
	// method and URL: data-client's generic Endpoint, whose key is a
	// function of its args and which has no URL (its Fetch makes the
	// data). It must be a pure function of the params.
	Key func(params value.Value) (string, error)
	// GetOptimisticResponse returns the data to apply before the network
	// answers; see endpoint.Spec. Only mutations (SideEffect) run it.
	GetOptimisticResponse func(snap endpoint.Snapshot, params value.Value, body any) (value.Value, error)
	// Update rewrites other stored results once this one is stored; see
	// endpoint.Spec.
	Update func(newPKs, params value.Value) (map[string]func(pks value.Value) value.Value, error)
	// DataExpiryLength is how long a result stays fresh; 0 takes the
	// controller's default (60 s).
	DataExpiryLength time.Duration
	// ErrorExpiryLength is how long an error is kept; 0 takes the
	// controller's default (1 s).
	ErrorExpiryLength time.Duration
	// InvalidIfStale makes reads of a stale result wait for the refetch.
	InvalidIfStale bool
	// PollFrequency, when non-zero, refetches a subscribed result this often.
	PollFrequency time.Duration
	// SideEffect marks a mutation; nil means true for every method but GET.
	SideEffect *bool
	// Retry is how many times a failed request is retried: 0 takes the
	// controller's default, a negative value means none. See
	// endpoint.Spec.Retry for which requests and errors retry.
	Retry int
	// RetryDelay says how long to wait before retry number attempt (from
	// 0); nil takes the controller's. See endpoint.Spec.RetryDelay.
	RetryDelay func(attempt int, err error) (time.Duration, error)
	// Signal, when set, aborts every request of the endpoint once it is
	// done, as data-client's signal option (an AbortSignal) does. A single
	// call is aborted through the ctx given to Fetch instead.
	Signal context.Context
	// Timeout, when non-zero, aborts a request that takes longer and fails
	// it with an error named TimeoutError.
	Timeout time.Duration
	// Transport sends the requests of this endpoint; nil takes the one in
	// the context (WithTransport), then DefaultTransport.
	Transport Transport
	// PaginationField names the param that selects a page of a list (as
	// "cursor" or "page"): a Collection in the schema is stored without
	// it, and GetPage returns the endpoint that appends a page to it.
	PaginationField string
	// MovePath, when set, is the path of Move's endpoint (one record's, as
	// "/todos/:id"): a resource's getList has its record path.
	MovePath string
}

// RequestInit is what a request is built from, as fetch's init argument:
// GetRequestInit returns one. A zero Method means the endpoint's method and
// a nil Header means the endpoint's headers (with GetHeaders applied). Body
// is encoded by type: a value.Value object, array, number or boolean is
// sent as JSON with Content-Type: application/json (unless Header sets a
// Content-Type), a value.Value string, a string or a []byte is sent as it
// is, nil, undefined and null send no body, and anything else goes to the
// transport untouched as Request.RawBody.
type RequestInit struct {
	Method string
	Header Header
	Body   any
	// Init is passed to the transport as Request.Init.
	Init any
}

// Endpoint is a REST endpoint: it implements endpoint.Endpoint. Endpoints
// are immutable and safe for concurrent use; Extend makes changed copies.
type Endpoint struct {
	opts   Options // as given, except that SideEffect is a private copy
	path   pathTemplate
	name   string
	method string
	// cursor is the cursor param of a Paginated endpoint; strip, set on a
	// paginated endpoint, takes the cursor out of params for keys.
	cursor string
	strip  func(params value.Value) (value.Value, error)
	spec   *endpoint.Spec
}

var _ endpoint.Endpoint = (*Endpoint)(nil)

// knownMethods are the methods an endpoint may use.
var knownMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// New returns an endpoint for o, or an error naming what is wrong with o:
// a missing or relative path, an unknown method, a token named twice, a
// negative duration.
func New(o Options) (*Endpoint, error) {
	label := o.Name
	if label == "" {
		label = o.Path
	}
	fail := func(format string, args ...any) (*Endpoint, error) {
		if label == "" {
			return nil, fmtlite.Errorf("rest: endpoint: "+format, args...)
		}
		return nil, fmtlite.Errorf("rest: endpoint %s: "+format, append([]any{label}, args...)...)
	}
	if o.Schema != nil {
		if err := schema.Check(o.Schema); err != nil {
			return fail("schema: %v", err)
		}
	}
	method := strings.ToUpper(o.Method)
	if method == "" {
		// As data-client: an endpoint marked as a side effect posts.
		method = "GET"
		if o.SideEffect != nil && *o.SideEffect {
			method = "POST"
		}
	}
	known := false
	for _, m := range knownMethods {
		known = known || m == method
	}
	if !known {
		return fail("unknown method %q: want one of %s", o.Method, strings.Join(knownMethods, ", "))
	}
	switch {
	case o.Path == "":
		// A resource on "/:id" lists at its URL prefix alone.
		if o.URLPrefix == "" {
			return fail("path is required")
		}
	case isFullURL(o.Path):
		if o.URLPrefix != "" {
			return fail("path %s is a full URL, so urlPrefix %s must be empty", o.Path, o.URLPrefix)
		}
	case o.Path[0] != '/' && !strings.HasPrefix(o.Path, "{/"):
		// A path may open with an optional group that starts with "/", as
		// data-client's "{/:id}" under a urlPrefix.
		return fail("path %q must start with \"/\" or be a full URL", o.Path)
	}
	if o.URLPrefix != "" && o.URLPrefix[0] != '/' && !isFullURL(o.URLPrefix) {
		return fail("urlPrefix %q must be a full URL or start with \"/\"", o.URLPrefix)
	}
	for _, d := range []struct {
		name string
		d    time.Duration
	}{
		{"dataExpiryLength", o.DataExpiryLength},
		{"errorExpiryLength", o.ErrorExpiryLength},
		{"pollFrequency", o.PollFrequency},
		{"timeout", o.Timeout},
	} {
		if d.d < 0 {
			return fail("%s must not be negative, got %v", d.name, d.d)
		}
	}
	path, err := parsePath(o.Path)
	if err != nil {
		return fail("%v", err)
	}
	if o.SideEffect != nil {
		se := *o.SideEffect
		o.SideEffect = &se
	}
	// The method is fixed now, as data-client fixes it: Extend keeps it.
	o.Method = method
	e := &Endpoint{opts: o, path: path, name: label, method: method}
	e.spec = e.buildSpec()
	return e, nil
}

func (e *Endpoint) buildSpec() *endpoint.Spec {
	sideEffect := e.method != "GET"
	if e.opts.SideEffect != nil {
		sideEffect = *e.opts.SideEffect
	}
	return &endpoint.Spec{
		Name:                  e.name,
		Schema:                e.opts.Schema,
		DataExpiryLength:      e.opts.DataExpiryLength,
		ErrorExpiryLength:     e.opts.ErrorExpiryLength,
		InvalidIfStale:        e.opts.InvalidIfStale,
		SideEffect:            sideEffect,
		PollFrequency:         e.opts.PollFrequency,
		Retry:                 e.opts.Retry,
		RetryDelay:            e.opts.RetryDelay,
		GetOptimisticResponse: e.opts.GetOptimisticResponse,
		Update:                e.opts.Update,
		Args:                  e.args(),
	}
}

// args is the endpoint's Spec.Args: nil unless params are left out of
// its collections' args.
func (e *Endpoint) args() func(params value.Value, body any) schema.Args {
	if e.opts.PaginationField == "" && e.strip == nil {
		return nil
	}
	return e.collectionArgs()
}

// Name returns the endpoint's name: the Name option, or Path when unset.
func (e *Endpoint) Name() string { return e.name }

// Signal returns the Signal option, nil when unset: a controller stops
// waiting to retry a request of the endpoint once it is done.
func (e *Endpoint) Signal() context.Context { return e.opts.Signal }

var _ endpoint.Signaler = (*Endpoint)(nil)

// Method returns the endpoint's HTTP method in upper case.
func (e *Endpoint) Method() string { return e.method }

// Spec returns the endpoint's caching behaviour. Callers must not modify it.
func (e *Endpoint) Spec() *endpoint.Spec { return e.spec }

// Options returns a copy of the options the endpoint was made with; changing
// it does not change the endpoint.
func (e *Endpoint) Options() Options {
	o := e.opts
	if o.SideEffect != nil {
		se := *o.SideEffect
		o.SideEffect = &se
	}
	return o
}

// Extend returns a new endpoint with the options as change leaves them; the
// original is unchanged. A Paginated endpoint stays paginated by the same
// cursor param.
func (e *Endpoint) Extend(change func(o *Options)) (*Endpoint, error) {
	o := e.Options()
	if change != nil {
		change(&o)
	}
	n, err := New(o)
	if err != nil {
		return nil, err
	}
	if e.strip != nil {
		return n.paginate(e.cursor, e.strip)
	}
	return n, nil
}

// Key returns the store key of params: Name, method and URL separated by
// spaces, so equal params give equal keys (params are sorted into the URL)
// and endpoints of different names never share one. A Paginated endpoint
// leaves its cursor param out, so every page has the key of the list.
func (e *Endpoint) Key(params value.Value) (string, error) {
	if e.strip != nil {
		var err error
		if params, err = e.strip(params); err != nil {
			return "", err
		}
	}
	if e.opts.Key != nil {
		return e.opts.Key(params)
	}
	// One string, written in one buffer: the key is made on every call
	// (twice for a setResponse and the read after it).
	var b strings.Builder
	b.Grow(len(e.name) + len(e.method) + 2 + e.urlSize())
	b.WriteString(e.name)
	b.WriteByte(' ')
	b.WriteString(e.method)
	b.WriteByte(' ')
	if err := e.writeURL(&b, params); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Fetch runs the endpoint: the Fetch option when set; otherwise the
// request and its parsing (see DefaultFetch), then Process. Failures of the
// request are *NetworkError; cancelling ctx or reaching Timeout aborts the
// request.
func (e *Endpoint) Fetch(ctx context.Context, params value.Value, body any) (value.Value, error) {
	ctx, cancel := e.requestContext(ctx)
	defer cancel()
	if e.opts.Fetch != nil {
		v, err := e.opts.Fetch(ctx, e, params, e.withDefaultBody(body))
		if err != nil {
			return value.Undef, e.customFetchError(ctx, params, err)
		}
		return v, nil
	}
	if e.opts.FetchText != nil {
		text, err := e.fetchText(ctx, params, body)
		if err != nil {
			return value.Undef, err
		}
		return e.parseFetched(text)
	}
	v, err := e.fetchParsed(ctx, params, body)
	if err != nil {
		return value.Undef, err
	}
	if e.opts.Process != nil {
		if v, err = e.opts.Process(v, params); err != nil {
			return value.Undef, fmtlite.Errorf("%s: process: %w", e.name, err)
		}
	}
	return v, nil
}

// fetchText runs the FetchText option, its errors as Fetch's.
func (e *Endpoint) fetchText(ctx context.Context, params value.Value, body any) (string, error) {
	text, err := e.opts.FetchText(ctx, e, params, e.withDefaultBody(body))
	if err != nil {
		return "", e.customFetchError(ctx, params, err)
	}
	return text, nil
}

// parseFetched parses the text FetchText handed over.
func (e *Endpoint) parseFetched(text string) (value.Value, error) {
	if text == "" {
		return value.Undef, nil
	}
	v, err := value.ParseMarked(text)
	if err != nil {
		// As an error of the hook's (customFetchError) would read.
		return value.Undef, fmtlite.Errorf("%s: fetch: fetch result: %w", e.name, err)
	}
	return v, nil
}

// DefaultFetch is what the endpoint fetches when no Fetch option replaces
// it: it sends the request (see Send) and parses the response
// (ParseResponse, or DefaultParseResponse), without Process. A Fetch
// option may call it, as a JavaScript override of fetch calls super.fetch.
func (e *Endpoint) DefaultFetch(ctx context.Context, params value.Value, body any) (value.Value, error) {
	ctx, cancel := e.requestContext(ctx)
	defer cancel()
	return e.fetchParsed(ctx, params, body)
}

func (e *Endpoint) fetchParsed(ctx context.Context, params value.Value, body any) (value.Value, error) {
	req, resp, err := e.send(ctx, params, body)
	if err != nil {
		return value.Undef, err
	}
	var v value.Value
	if e.opts.ParseResponse != nil {
		v, err = e.opts.ParseResponse(ctx, resp)
	} else {
		v, err = e.DefaultParseResponse(resp)
	}
	if err != nil {
		return value.Undef, e.parseError(req, resp, err)
	}
	return v, nil
}

// Send builds the request for params and body as Fetch does and sends it,
// returning the response whatever its status. It is for Fetch options that
// need the response itself, such as one that reads a Link header. Errors
// are those of building the request, or a *NetworkError with Status 0 when
// no response arrived.
func (e *Endpoint) Send(ctx context.Context, params value.Value, body any) (*Response, error) {
	ctx, cancel := e.requestContext(ctx)
	defer cancel()
	_, resp, err := e.send(ctx, params, body)
	return resp, err
}

func (e *Endpoint) send(ctx context.Context, params value.Value, body any) (*Request, *Response, error) {
	u, err := e.URL(params)
	if err != nil {
		return nil, nil, err
	}
	req, err := e.newRequest(ctx, u, e.requestBody(body))
	if err != nil {
		return nil, nil, err
	}
	t, err := transportFor(ctx, e.opts.Transport)
	if err != nil {
		return nil, nil, fmtlite.Errorf("%s: %s %s: %w", e.name, req.Method, req.URL, err)
	}
	resp, err := t.RoundTrip(ctx, req)
	if err != nil {
		ne := &NetworkError{Endpoint: e.name, Method: req.Method, URL: req.URL, Err: err}
		if ctx.Err() != nil {
			// Whatever the transport made of it, the cause is the
			// cancellation or the timeout.
			ne.Err = contextError(ctx)
		}
		return nil, nil, ne
	}
	if resp == nil {
		return nil, nil, fmtlite.Errorf("%s: %s %s: transport returned no response and no error", e.name, req.Method, req.URL)
	}
	return req, resp, nil
}

// withDefaultBody returns body, or the Body option when body is nil or
// undefined: an explicit body replaces the default, it is not merged.
func (e *Endpoint) withDefaultBody(body any) any {
	if isNoBody(body) {
		return e.opts.Body
	}
	return body
}

// requestBody is the body to send: withDefaultBody, and none for methods
// that take none (GET, HEAD and DELETE).
func (e *Endpoint) requestBody(body any) any {
	switch e.method {
	case "GET", "HEAD", "DELETE":
		return nil
	}
	return e.withDefaultBody(body)
}

func isNoBody(body any) bool {
	if body == nil {
		return true
	}
	v, ok := body.(value.Value)
	return ok && v.IsUndefined()
}

// DefaultRequestInit returns the request init the endpoint uses when it has
// no GetRequestInit option: its method, its headers (Content-Type for a
// JSON body, then GetHeaders) and body. A GetRequestInit option can call it
// with a changed body.
func (e *Endpoint) DefaultRequestInit(ctx context.Context, body any) (RequestInit, error) {
	h, err := e.headers(ctx, body)
	if err != nil {
		return RequestInit{}, err
	}
	return RequestInit{Method: e.method, Header: h, Body: body}, nil
}

func (e *Endpoint) headers(ctx context.Context, body any) (Header, error) {
	h := Header{}
	if isJSONBody(body) {
		h.Set("Content-Type", "application/json")
	}
	if e.opts.GetHeaders == nil {
		return h, nil
	}
	h, err := e.opts.GetHeaders(ctx, h)
	if err != nil {
		return nil, fmtlite.Errorf("%s: getHeaders: %w", e.name, err)
	}
	return h, nil
}

// isJSONBody reports whether body is encoded as JSON: a value.Value other
// than a string or nullish.
func isJSONBody(body any) bool {
	v, ok := body.(value.Value)
	return ok && v.Kind() > value.Null && v.Kind() != value.String
}

// newRequest builds the Request for url and body through GetRequestInit or
// DefaultRequestInit, then encodes the body as RequestInit describes.
func (e *Endpoint) newRequest(ctx context.Context, url string, body any) (*Request, error) {
	var init RequestInit
	var err error
	if e.opts.GetRequestInit != nil {
		if init, err = e.opts.GetRequestInit(ctx, e, body); err != nil {
			return nil, fmtlite.Errorf("%s: getRequestInit: %w", e.name, err)
		}
		if init.Header == nil {
			if init.Header, err = e.headers(ctx, init.Body); err != nil {
				return nil, err
			}
		}
	} else if init, err = e.DefaultRequestInit(ctx, body); err != nil {
		return nil, err
	}
	req := &Request{Method: strings.ToUpper(init.Method), URL: url, Header: init.Header.Clone(), Init: init.Init}
	if req.Method == "" {
		req.Method = e.method
	}
	switch b := init.Body.(type) {
	case nil:
	case value.Value:
		switch b.Kind() {
		case value.Undefined, value.Null:
		case value.String:
			req.Body = []byte(b.Str())
		default:
			req.Body = value.AppendJSON(nil, b)
			if !req.Header.Has("Content-Type") {
				req.Header.Set("Content-Type", "application/json")
			}
		}
	case string:
		req.Body = []byte(b)
	case []byte:
		req.Body = b
	default:
		req.RawBody = b
	}
	return req, nil
}

// DefaultParseResponse parses a response as the endpoint does when it has
// no ParseResponse option: a 2xx JSON body is parsed; a 204 or an empty body
// is null; a 2xx body that is not JSON is an error with Status 400 (see
// notJSON) when the endpoint has a Schema (which expects data) and no
// Process, or the Content-Type says JSON, or else its text as a string,
// except that JSON nested deeper than value.MaxDepth is always that error;
// any other status is a *NetworkError with the body parsed when it is JSON.
// A parsed 2xx value shares resp.Body's bytes (see Response.Body).
func (e *Endpoint) DefaultParseResponse(resp *Response) (value.Value, error) {
	if !resp.OK() {
		ne := &NetworkError{Endpoint: e.name, Status: resp.Status, StatusText: resp.StatusText, Response: resp}
		if v, err := value.Parse(resp.Body); err == nil {
			ne.Body = v
		}
		return value.Undef, ne
	}
	// A UTF-8 byte-order mark is not part of the JSON; fetch's json()
	// drops it too.
	body := bytes.TrimPrefix(resp.Body, utf8BOM)
	if resp.Status == 204 || isBlank(body) {
		return value.NullV, nil
	}
	// The body is the Response's own (see Response.Body), so the value
	// may share it: the store then holds the body once, not twice.
	v, err := value.ParseLazyOwned(body)
	if err != nil {
		// Text that is not JSON is a string to an endpoint without a
		// schema, or with a Process (which makes data of any body, as in
		// data-client). JSON nested too deep to parse is JSON all the
		// same: handing back its text as if it were the data would be
		// wrong. A body said to be JSON that is not is an error, as in
		// data-client.
		ct := strings.ToLower(resp.Header.Get("Content-Type"))
		if (e.opts.Schema == nil || e.opts.Process != nil) && !errors.Is(err, value.ErrTooDeep) && !strings.Contains(ct, "json") {
			return value.Str(string(resp.Body)), nil
		}
		return value.Undef, &NetworkError{Endpoint: e.name, Status: 400, Response: resp, Err: e.notJSON(ct, body, err)}
	}
	return v, nil
}

var utf8BOM = []byte("\xEF\xBB\xBF")

// notJSON is the error of a 2xx body that is not JSON where a schema
// expects data: perr, the error of parsing it, after what data-client says
// of a body not said to be JSON: an HTML page (a server's fallback for a
// route it does not have), text, or the body's type.
func (e *Endpoint) notJSON(ct string, body []byte, perr error) error {
	if strings.Contains(ct, "json") {
		return perr
	}
	what := ct
	switch {
	case strings.Contains(ct, "html") || len(body) >= len(htmlDoctype) && strings.EqualFold(string(body[:len(htmlDoctype)]), htmlDoctype):
		what = "html"
	case ct == "":
		what = "text"
	}
	what = "unexpected " + what + " response for schema " + schema.Describe(e.opts.Schema)
	if strings.HasPrefix(what, "unexpected html") {
		what += " (likely no API endpoint is configured for this request, and this is an HTML fallback)"
	}
	return fmtlite.Errorf("%s: %w", what, perr)
}

const htmlDoctype = "<!doctype html>"

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// parseError gives a parsing failure the request's context: a
// *NetworkError gets the endpoint, method, URL and response it lacks, and
// any other error is wrapped with them.
func (e *Endpoint) parseError(req *Request, resp *Response, err error) error {
	ne, ok := err.(*NetworkError)
	if !ok {
		return fmtlite.Errorf("%s: %s %s: parseResponse: %w", e.name, req.Method, req.URL, err)
	}
	c := *ne // the error may be the caller's; fill in a copy
	c.fill(e.name, req.Method, req.URL)
	if c.Response == nil {
		c.Response = resp
	}
	return &c
}

// customFetchError gives an error of a Fetch option the endpoint's context.
// When ctx is done the error is an AbortError or TimeoutError whatever the
// option returned, so callers can tell cancellation from failure.
func (e *Endpoint) customFetchError(ctx context.Context, params value.Value, err error) error {
	u, _ := e.URL(params)
	if ne, ok := err.(*NetworkError); ok {
		c := *ne
		c.fill(e.name, e.method, u)
		return &c
	}
	if ctx.Err() != nil {
		cerr := contextError(ctx)
		if !errors.Is(err, ctx.Err()) {
			cerr = fmtlite.Errorf("%w: %w", cerr, err)
		}
		return &NetworkError{Endpoint: e.name, Method: e.method, URL: u, Err: cerr}
	}
	return fmtlite.Errorf("%s: fetch: %w", e.name, err)
}

// requestContext derives the context of one request: cancelled when the
// Signal option is done, and bounded by the Timeout option.
func (e *Endpoint) requestContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if e.opts.Signal == nil && e.opts.Timeout <= 0 {
		return ctx, func() {}
	}
	var cancels []func()
	if sig := e.opts.Signal; sig != nil {
		c, cancel := context.WithCancelCause(ctx)
		stop := func() bool { return false }
		if sig.Err() != nil {
			// Already aborted: cancel now. AfterFunc would cancel on another
			// goroutine, later, and the request could go out meanwhile
			// (a fetch with an aborted signal rejects at once in JS).
			cancel(contextError(sig))
		} else {
			stop = context.AfterFunc(sig, func() { cancel(contextError(sig)) })
		}
		ctx = c
		cancels = append(cancels, func() { stop(); cancel(nil) })
	}
	if d := e.opts.Timeout; d > 0 {
		c, cancel := context.WithTimeoutCause(ctx, d, &timeoutError{d})
		ctx = c
		cancels = append(cancels, cancel)
	}
	return ctx, func() {
		for i := len(cancels) - 1; i >= 0; i-- {
			cancels[i]()
		}
	}
}
