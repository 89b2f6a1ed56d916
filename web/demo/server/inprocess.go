//go:build !js

package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/web/restserver"
)

// Every page of the go-app demo is served with its data (goapp.Prerender):
// each page request gets a controller of its own that reads the REST API
// in-process, the page's queries read into it while go-app pre-renders
// the page, and the page carries that controller's snapshot, which the app
// hydrates its cache from before its first render. The first view then
// waits for no request; its data is fresh for as long as the endpoints'
// expiry says, as if the browser had fetched it when the page was served.

// prerenderController returns the controller of one page request: its
// reads are served by the API handler in this process (not counted as the
// browser's requests, not delayed by the network controls).
func prerenderController(apiHandler http.Handler) func(*http.Request) *controller.Controller {
	return func(*http.Request) *controller.Controller {
		return controller.New(controller.Options{RequestContext: func(ctx context.Context) context.Context {
			return rest.WithTransport(restserver.Internal(ctx), inProcess{apiHandler})
		}})
	}
}

// inProcess is a rest.Transport that serves requests with the API's
// handler in this process, without a connection.
type inProcess struct{ api http.Handler }

func (t inProcess) RoundTrip(ctx context.Context, req *rest.Request) (*rest.Response, error) {
	if req.RawBody != nil {
		return nil, fmt.Errorf("in-process %s %s: a raw body (%T) cannot be sent", req.Method, req.URL, req.RawBody)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return nil, fmt.Errorf("in-process %s %s: %w", req.Method, req.URL, err)
	}
	for _, f := range req.Header {
		hr.Header.Add(f.Name, f.Value)
	}
	rec := httptest.NewRecorder()
	http.StripPrefix(apiPath, t.api).ServeHTTP(rec, hr)
	var h rest.Header
	for name, vs := range rec.Header() {
		for _, v := range vs {
			h.Add(name, v)
		}
	}
	return &rest.Response{
		Status:     rec.Code,
		StatusText: http.StatusText(rec.Code),
		Header:     h,
		Body:       rec.Body.Bytes(),
	}, nil
}
