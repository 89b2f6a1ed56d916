// Package nethttp sends the requests of package rest with net/http.
//
// Importing it for its side effect makes it the default transport of native
// programs, which package rest cannot do itself without linking net/http
// into the WebAssembly binary:
//
//	import _ "github.com/datafetch/datafetch/core/rest/nethttp"
//
// Its init sets rest.DefaultTransport only when nothing else has, so a
// program that sets its own default keeps it.
package nethttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/datafetch/datafetch/core/rest"
)

func init() {
	if rest.DefaultTransport == nil {
		rest.DefaultTransport = &Transport{}
	}
}

// Transport is a rest.Transport that uses an *http.Client.
type Transport struct {
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
}

var _ rest.Transport = (*Transport)(nil)

// RoundTrip sends req with ctx and reads the whole response body. A
// RawBody must be an io.Reader. The request's Init is ignored: net/http has
// no use for fetch's extra settings. The returned Response's Native is the
// *http.Response, whose body is already read and closed.
func (t *Transport) RoundTrip(ctx context.Context, req *rest.Request) (*rest.Response, error) {
	var body io.Reader
	switch {
	case req.Body != nil:
		body = bytes.NewReader(req.Body)
	case req.RawBody != nil:
		r, ok := req.RawBody.(io.Reader)
		if !ok {
			return nil, fmt.Errorf("nethttp: cannot send a body of type %T; want []byte, string, value.Value or io.Reader", req.RawBody)
		}
		body = r
	}
	hreq, err := http.NewRequestWithContext(ctx, req.Method, req.URL, body)
	if err != nil {
		return nil, fmt.Errorf("nethttp: %w", err)
	}
	for _, f := range req.Header {
		if strings.EqualFold(f.Name, "Host") {
			hreq.Host = f.Value // net/http sends Host from here, not Header
			continue
		}
		hreq.Header.Add(f.Name, f.Value)
	}
	c := t.Client
	if c == nil {
		c = http.DefaultClient
	}
	hresp, err := c.Do(hreq)
	if err != nil {
		return nil, unwrapURLError(err)
	}
	defer hresp.Body.Close()
	data, err := io.ReadAll(hresp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading response body: %w", err)
	}
	return &rest.Response{
		Status:     hresp.StatusCode,
		StatusText: statusText(hresp),
		Header:     header(hresp.Header),
		Body:       data,
		Native:     hresp,
	}, nil
}

// unwrapURLError drops the *url.Error that http.Client wraps errors in:
// its message repeats the method and URL, which rest's errors already name.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

// statusText returns the reason phrase the server sent, as fetch's
// statusText does, falling back to the standard one.
func statusText(r *http.Response) string {
	if s, ok := strings.CutPrefix(r.Status, strconv.Itoa(r.StatusCode)+" "); ok {
		return s
	}
	return http.StatusText(r.StatusCode)
}

// header copies h in sorted name order, since a map has none.
func header(h http.Header) rest.Header {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	var out rest.Header
	for _, name := range names {
		for _, v := range h[name] {
			out.Add(name, v)
		}
	}
	return out
}
