package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/web/api"
	"github.com/datafetch/datafetch/web/resources"
	"github.com/datafetch/datafetch/web/ui"
)

// The articles page ("/") is served with its data: the server reads the
// article list from its own API, in-process, into a controller and renders
// that controller's snapshot into the page (ui.SnapshotElementID), which
// the app hydrates its cache from before its first render. The first view
// then waits for no request; the list is fresh for as long as the
// endpoint's expiry says, as if the browser had fetched it when the page
// was served.

// snapshotter renders the first page's data into pages.
type snapshotter struct {
	api  http.Handler // the REST API, mounted at apiPath
	log  io.Writer
	apis sync.Map // API prefix → *resources.API
}

// endpoints returns the demo's endpoints for the API at prefix, the URL the
// browser uses, so the snapshot's endpoint keys are the ones the app reads.
func (s *snapshotter) endpoints(prefix string) (*resources.API, error) {
	if a, ok := s.apis.Load(prefix); ok {
		return a.(*resources.API), nil
	}
	a, err := resources.New(prefix)
	if err != nil {
		return nil, err
	}
	s.apis.Store(prefix, a)
	return a, nil
}

// snapshot returns the JSON snapshot of the data of the page r asks for, or
// "" for a page without one.
func (s *snapshotter) snapshot(r *http.Request) (string, error) {
	if r.URL.Path != "/" {
		return "", nil
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	a, err := s.endpoints(scheme + "://" + r.Host + apiPath)
	if err != nil {
		return "", err
	}
	ctrl := controller.New(controller.Options{RequestContext: func(ctx context.Context) context.Context {
		return rest.WithTransport(api.Internal(ctx), inProcess{s.api})
	}})
	if _, err := a.Articles.GetList.Fetch(r.Context(), ctrl, resources.ListParams, nil); err != nil {
		return "", fmt.Errorf("reading the article list: %w", err)
	}
	return ctrl.Snapshot().JSON(), nil
}

// withSnapshot serves pages from next with the snapshot of their data in
// the head. Such a page is never answered 304: go-app's ETag names the
// build, not the data.
func (s *snapshotter) withSnapshot(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			next.ServeHTTP(w, r)
			return
		}
		snap, err := s.snapshot(r)
		if err != nil {
			fmt.Fprintf(s.log, "server: %s: no snapshot in the page: %v\n", r.URL.Path, err)
		}
		if snap == "" {
			next.ServeHTTP(w, r)
			return
		}
		r = r.Clone(r.Context())
		r.Header.Del("If-None-Match")
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if rec.Code == http.StatusOK && strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			body = injectSnapshot(body, snap)
			rec.Header().Del("ETag")
			rec.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

// injectSnapshot puts the snapshot at the end of the page's head, as a
// JSON script element. JSON has "<" only inside strings, where \u003c
// means the same, so no "</script>" can end the element early.
func injectSnapshot(page []byte, snap string) []byte {
	i := bytes.Index(page, []byte("</head>"))
	if i < 0 {
		return page
	}
	el := `<script type="application/json" id="` + ui.SnapshotElementID + `">` +
		strings.ReplaceAll(snap, "<", `\u003c`) + "</script>"
	out := make([]byte, 0, len(page)+len(el))
	out = append(out, page[:i]...)
	out = append(out, el...)
	return append(out, page[i:]...)
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
