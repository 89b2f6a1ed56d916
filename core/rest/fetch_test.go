package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
)

func TestFetchGET(t *testing.T) {
	srv := jsonServer(t, 200, `{"id":5,"title":"hello"}`)
	e := newEndpoint(t, srv, rest.Options{Path: "/articles/:id", Schema: article})
	v, err := e.Fetch(context.Background(), obj(`{"id":5,"lang":"en"}`), nil)
	require.NoError(t, err)
	assert.Equal(t, `{"id":5,"title":"hello"}`, v.JSON())
	got := srv.last(t)
	assert.Equal(t, "GET", got.Method)
	assert.Equal(t, "/articles/5", got.Path)
	assert.Equal(t, "lang=en", got.RawQuery)
}

func TestBodyRules(t *testing.T) {
	dflt := obj(`{"draft":true}`)
	tests := []struct {
		name        string
		method      string
		body        any
		wantBody    string
		wantCT      string
		wantNoCType bool
	}{
		{name: "GET sends no body", method: "GET", body: obj(`{"a":1}`), wantBody: "", wantNoCType: true},
		{name: "DELETE sends no body", method: "DELETE", body: obj(`{"a":1}`), wantBody: "", wantNoCType: true},
		{name: "POST object is JSON", method: "POST", body: obj(`{"title":"x"}`), wantBody: `{"title":"x"}`, wantCT: "application/json"},
		{name: "PUT array is JSON", method: "PUT", body: obj(`[1,2]`), wantBody: `[1,2]`, wantCT: "application/json"},
		{name: "explicit body replaces default", method: "PATCH", body: obj(`{"published":true}`), wantBody: `{"published":true}`, wantCT: "application/json"},
		{name: "nil body takes default", method: "POST", body: nil, wantBody: `{"draft":true}`, wantCT: "application/json"},
		{name: "undefined body takes default", method: "POST", body: value.Undef, wantBody: `{"draft":true}`, wantCT: "application/json"},
		{name: "null body sends none", method: "POST", body: value.NullV, wantBody: "", wantNoCType: true},
		{name: "string passes through", method: "POST", body: "a=1&b=2", wantBody: "a=1&b=2", wantNoCType: true},
		{name: "string value passes through", method: "POST", body: value.Str("plain"), wantBody: "plain", wantNoCType: true},
		{name: "bytes pass through", method: "POST", body: []byte{'h', 'i'}, wantBody: "hi", wantNoCType: true},
		{name: "reader goes to RawBody", method: "POST", body: strings.NewReader("streamed"), wantBody: "streamed", wantNoCType: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := jsonServer(t, 200, `{}`)
			e := newEndpoint(t, srv, rest.Options{Path: "/articles", Method: tt.method, Body: dflt})
			_, err := e.Fetch(context.Background(), value.Undef, tt.body)
			require.NoError(t, err)
			got := srv.last(t)
			assert.Equal(t, tt.method, got.Method)
			assert.Equal(t, tt.wantBody, got.Body)
			if tt.wantNoCType {
				assert.Empty(t, got.Header.Get("Content-Type"))
			} else {
				assert.Equal(t, tt.wantCT, got.Header.Get("Content-Type"))
			}
		})
	}
}

func TestGetHeaders(t *testing.T) {
	srv := jsonServer(t, 200, `{}`)
	var gotIn rest.Header
	e := newEndpoint(t, srv, rest.Options{
		Path:   "/articles",
		Method: "POST",
		GetHeaders: func(ctx context.Context, h rest.Header) (rest.Header, error) {
			gotIn = h.Clone()
			h.Set("Authorization", "Bearer secret")
			return h, nil
		},
	})
	_, err := e.Fetch(context.Background(), value.Undef, obj(`{"a":1}`))
	require.NoError(t, err)
	assert.Equal(t, "application/json", gotIn.Get("content-type"), "GetHeaders sees the JSON content type")
	got := srv.last(t)
	assert.Equal(t, "Bearer secret", got.Header.Get("Authorization"))
	assert.Equal(t, "application/json", got.Header.Get("Content-Type"))

	failing, err := e.Extend(func(o *rest.Options) {
		o.GetHeaders = func(context.Context, rest.Header) (rest.Header, error) { return nil, errors.New("no token") }
	})
	require.NoError(t, err)
	_, err = failing.Fetch(context.Background(), value.Undef, nil)
	assert.EqualError(t, err, "/articles: getHeaders: no token")
}

func TestGetRequestInit(t *testing.T) {
	t.Run("adds a temporary id through DefaultRequestInit", func(t *testing.T) {
		srv := jsonServer(t, 201, `{"id":"real-1","title":"x"}`)
		var this *rest.Endpoint
		e := newEndpoint(t, srv, rest.Options{
			Path:   "/articles",
			Method: "POST",
			Name:   "createArticle",
			GetHeaders: func(ctx context.Context, h rest.Header) (rest.Header, error) {
				h.Set("X-Auth", "1")
				return h, nil
			},
			GetRequestInit: func(ctx context.Context, e *rest.Endpoint, body any) (rest.RequestInit, error) {
				this = e
				return e.DefaultRequestInit(ctx, body.(value.Value).With("id", value.Str("tmp-1")))
			},
		})
		v, err := e.Fetch(context.Background(), value.Undef, obj(`{"title":"x"}`))
		require.NoError(t, err)
		assert.Same(t, e, this, "getRequestInit is called with the endpoint")
		assert.Equal(t, "real-1", v.Get("id").Str())
		got := srv.last(t)
		assert.JSONEq(t, `{"title":"x","id":"tmp-1"}`, got.Body)
		assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
		assert.Equal(t, "1", got.Header.Get("X-Auth"))
	})
	t.Run("a partial init takes the endpoint's method and headers", func(t *testing.T) {
		srv := jsonServer(t, 200, `{}`)
		e := newEndpoint(t, srv, rest.Options{
			Path:   "/api/count/increment",
			Method: "POST",
			GetHeaders: func(ctx context.Context, h rest.Header) (rest.Header, error) {
				h.Set("X-Auth", "1")
				return h, nil
			},
			GetRequestInit: func(ctx context.Context, e *rest.Endpoint, body any) (rest.RequestInit, error) {
				return rest.RequestInit{Body: obj(`{"updatedAt":1700000000000}`)}, nil
			},
		})
		_, err := e.Fetch(context.Background(), value.Undef, nil)
		require.NoError(t, err)
		got := srv.last(t)
		assert.Equal(t, "POST", got.Method)
		assert.Equal(t, `{"updatedAt":1700000000000}`, got.Body)
		assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
		assert.Equal(t, "1", got.Header.Get("X-Auth"))
	})
	t.Run("init reaches the transport", func(t *testing.T) {
		var req *rest.Request
		tr := transportFunc(func(ctx context.Context, r *rest.Request) (*rest.Response, error) {
			req = r
			return &rest.Response{Status: 200, Body: []byte(`{}`)}, nil
		})
		e, err := rest.New(rest.Options{Path: "/a", Method: "PUT", Transport: tr,
			GetRequestInit: func(ctx context.Context, e *rest.Endpoint, body any) (rest.RequestInit, error) {
				return rest.RequestInit{Method: "patch", Header: rest.Header{{Name: "Content-Type", Value: "application/merge-patch+json"}}, Body: body, Init: "credentials"}, nil
			}})
		require.NoError(t, err)
		_, err = e.Fetch(context.Background(), value.Undef, obj(`{"a":1}`))
		require.NoError(t, err)
		assert.Equal(t, "PATCH", req.Method)
		assert.Equal(t, "credentials", req.Init)
		assert.Equal(t, rest.Header{{Name: "Content-Type", Value: "application/merge-patch+json"}}, req.Header)
		assert.Equal(t, `{"a":1}`, string(req.Body))
	})
}

// transportFunc adapts a function to rest.Transport.
type transportFunc func(ctx context.Context, r *rest.Request) (*rest.Response, error)

func (f transportFunc) RoundTrip(ctx context.Context, r *rest.Request) (*rest.Response, error) {
	return f(ctx, r)
}

func TestCustomFetch(t *testing.T) {
	// The token-in-header pagination example: the body is a list and the
	// next page is in the Link header.
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `</posts?page=2>; rel="next"`)
		io.WriteString(w, `[{"id":1},{"id":2}]`)
	})
	var url string
	e := newEndpoint(t, srv, rest.Options{
		Path: "/posts",
		Fetch: func(ctx context.Context, e *rest.Endpoint, params value.Value, body any) (value.Value, error) {
			var err error
			if url, err = e.URL(params); err != nil {
				return value.Undef, err
			}
			resp, err := e.Send(ctx, params, body)
			if err != nil {
				return value.Undef, err
			}
			results, err := value.Parse(resp.Body)
			if err != nil {
				return value.Undef, err
			}
			return value.Obj(value.M("link", value.Str(resp.Header.Get("link"))), value.M("results", results)), nil
		},
		Process: func(v, params value.Value) (value.Value, error) {
			return value.Undef, errors.New("process is not called after a custom fetch")
		},
	})
	v, err := e.Fetch(context.Background(), obj(`{"page":"1"}`), nil)
	require.NoError(t, err)
	assert.Equal(t, srv.URL+"/posts?page=1", url)
	assert.Equal(t, `{"link":"</posts?page=2>; rel=\"next\"","results":[{"id":1},{"id":2}]}`, v.JSON())

	failing, err := e.Extend(func(o *rest.Options) {
		o.Fetch = func(context.Context, *rest.Endpoint, value.Value, any) (value.Value, error) {
			return value.Undef, errors.New("boom")
		}
	})
	require.NoError(t, err)
	_, err = failing.Fetch(context.Background(), value.Undef, nil)
	assert.EqualError(t, err, "/posts: fetch: boom")
}

func TestParseResponse(t *testing.T) {
	srv := jsonServer(t, 404, `{"error":"gone"}`)
	var status int
	e := newEndpoint(t, srv, rest.Options{
		Path: "/a",
		ParseResponse: func(ctx context.Context, r *rest.Response) (value.Value, error) {
			status = r.Status
			return value.Obj(value.M("status", value.Int(int64(r.Status)))), nil
		},
	})
	v, err := e.Fetch(context.Background(), value.Undef, nil)
	require.NoError(t, err, "ParseResponse replaces the default for every status")
	assert.Equal(t, 404, status)
	assert.Equal(t, `{"status":404}`, v.JSON())

	t.Run("errors get the request's context", func(t *testing.T) {
		plain, err := e.Extend(func(o *rest.Options) {
			o.Name = "a"
			o.ParseResponse = func(context.Context, *rest.Response) (value.Value, error) { return value.Undef, errors.New("bad") }
		})
		require.NoError(t, err)
		_, err = plain.Fetch(context.Background(), value.Undef, nil)
		assert.EqualError(t, err, "a: GET "+srv.URL+"/a: parseResponse: bad")

		viaDefault, err := e.Extend(func(o *rest.Options) {
			o.Name = "a"
			o.ParseResponse = func(ctx context.Context, r *rest.Response) (value.Value, error) {
				return plain.DefaultParseResponse(r)
			}
		})
		require.NoError(t, err)
		_, err = viaDefault.Fetch(context.Background(), value.Undef, nil)
		ne, ok := errors.AsType[*rest.NetworkError](err)
		require.True(t, ok, "%v", err)
		assert.Equal(t, "GET", ne.Method)
		assert.Equal(t, srv.URL+"/a", ne.URL)
		assert.EqualError(t, err, `a: GET `+srv.URL+`/a: 404 Not Found: {"error":"gone"}`)
	})
}

func TestProcess(t *testing.T) {
	srv := jsonServer(t, 200, `{"data":{"id":1}}`)
	e := newEndpoint(t, srv, rest.Options{
		Path: "/comments/:id",
		Process: func(v, params value.Value) (value.Value, error) {
			return v.Get("data").With("requested", params.Get("id")), nil
		},
	})
	v, err := e.Fetch(context.Background(), obj(`{"id":1}`), nil)
	require.NoError(t, err)
	assert.Equal(t, `{"id":1,"requested":1}`, v.JSON())

	failing, err := e.Extend(func(o *rest.Options) {
		o.Process = func(v, params value.Value) (value.Value, error) { return value.Undef, errors.New("no") }
	})
	require.NoError(t, err)
	_, err = failing.Fetch(context.Background(), obj(`{"id":1}`), nil)
	assert.EqualError(t, err, "/comments/:id: process: no")
}

func TestEmptyResponsesAreNull(t *testing.T) {
	for _, tt := range []struct {
		name   string
		status int
		body   string
	}{
		{"204", 204, ""},
		{"200 empty", 200, ""},
		{"200 blank", 200, " \n"},
		{"201 empty", 201, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			})
			e := newEndpoint(t, srv, rest.Options{Path: "/a", Schema: article})
			v, err := e.Fetch(context.Background(), value.Undef, nil)
			require.NoError(t, err)
			assert.True(t, v.IsNull(), "got %v", v)
		})
	}
}

func TestNonJSONSuccess(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html>oops</html>")
	})
	t.Run("without a schema it is the text", func(t *testing.T) {
		e := newEndpoint(t, srv, rest.Options{Path: "/page"})
		v, err := e.Fetch(context.Background(), value.Undef, nil)
		require.NoError(t, err)
		assert.Equal(t, value.Str("<html>oops</html>"), v)
	})
	t.Run("JSON type, not JSON, with a schema: a 400 error", func(t *testing.T) {
		srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "<html>oops</html>")
		})
		e := newEndpoint(t, srv, rest.Options{Path: "/articles/:id", Name: "getArticle", Schema: article})
		_, err := e.Fetch(context.Background(), obj(`{"id":1}`), nil)
		ne, ok := errors.AsType[*rest.NetworkError](err)
		require.True(t, ok, "%v", err)
		assert.Equal(t, 400, ne.Status)
		assert.Equal(t, "NetworkError", ne.Name())
		assert.Equal(t, 200, ne.Response.Status, "the response is the one received")
		_, isSyntax := errors.AsType[*value.SyntaxError](err)
		assert.True(t, isSyntax)
		assert.Equal(t, `getArticle: GET `+srv.URL+`/articles/1: 400 invalid JSON at offset 0: unexpected character '<', expected a value: "<html>oops</html>"`, err.Error())
	})
}

// A schema expects data: a 2xx body that is not JSON is refused with
// status 400, and the message says, in data-client's words, what came
// instead (an HTML page, text, a type), with the request named as every
// NetworkError names it. JSON is read whatever its Content-Type.
func TestSchemaRefusesBodyNotJSON(t *testing.T) {
	const req = "getArticle: GET http://x.test/articles/1: "
	tests := []struct {
		name, contentType, body string
		status                  int    // 0: accepted, else 400
		message                 string // what the message holds after req
	}{
		{name: "an HTML page", contentType: "text/html; charset=utf-8", body: "<body>fallback</body>", status: 400,
			message: `400 unexpected html response for schema Article (likely no API endpoint is configured for this request, and this is an HTML fallback): invalid JSON at offset 0: unexpected character '<', expected a value: "<body>fallback</body>"`},
		{name: "HTML said to be text", contentType: "text/plain", body: "<!DOCTYPE html><p>hi", status: 400,
			message: "400 unexpected html response for schema Article"},
		{name: "JSON said to be text is read", contentType: "text/plain; charset=utf-8", body: `{"id":"1"}`},
		{name: "not JSON said to be JSON", contentType: "application/json", body: "<p>", status: 400,
			message: `400 invalid JSON at offset 0: unexpected character '<', expected a value: "<p>"`},
		{name: "text with no Content-Type", body: "plain words", status: 400,
			message: `400 unexpected text response for schema Article: invalid JSON at offset 0: unexpected character 'p', expected a value: "plain words"`},
		{name: "text of a type", contentType: "text/plain", body: "plain words", status: 400, message: `400 unexpected text/plain response for schema Article: invalid JSON`},
		{name: "binary", contentType: "image/png", body: "PNG", status: 400, message: `400 unexpected image/png response for schema Article: invalid JSON`},
		{name: "JSON with no Content-Type is taken", body: `{"id":"1"}`},
		{name: "JSON type", contentType: "application/vnd.api+json", body: `{"id":"1"}`},
		{name: "blank text is null", contentType: "text/plain", body: " "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := rest.Options{URLPrefix: "http://x.test", Path: "/articles/:id", Name: "getArticle", Schema: article,
				Transport: transportFunc(func(context.Context, *rest.Request) (*rest.Response, error) {
					h := rest.Header{}
					if tt.contentType != "" {
						h.Set("Content-Type", tt.contentType)
					}
					return &rest.Response{Status: 200, Header: h, Body: []byte(tt.body)}, nil
				})}
			e, err := rest.New(o)
			require.NoError(t, err)
			_, err = e.Fetch(context.Background(), obj(`{"id":1}`), nil)
			if tt.status == 0 {
				require.NoError(t, err)
				return
			}
			ne, ok := errors.AsType[*rest.NetworkError](err)
			require.True(t, ok, "%v", err)
			assert.Equal(t, tt.status, ne.Status)
			assert.Equal(t, 200, ne.Response.Status, "the response is the one received")
			assert.True(t, strings.HasPrefix(err.Error(), req+tt.message), "%s", err)
			if strings.Contains(tt.contentType, "json") {
				return // said to be JSON: an error whatever makes the data
			}
			// A Process makes data of any other body, as in data-client.
			o.Process = func(v, _ value.Value) (value.Value, error) { return value.MustParse(`{"id":"1"}`), nil }
			p, err := rest.New(o)
			require.NoError(t, err)
			_, err = p.Fetch(context.Background(), obj(`{"id":1}`), nil)
			require.NoError(t, err)
		})
	}
}

func TestErrorStatus(t *testing.T) {
	t.Run("JSON body", func(t *testing.T) {
		srv := jsonServer(t, 404, `{"error":"article 999 not found"}`)
		e := newEndpoint(t, srv, rest.Options{Path: "/articles/:id", Name: "getArticle", Schema: article})
		_, err := e.Fetch(context.Background(), obj(`{"id":999}`), nil)
		ne, ok := errors.AsType[*rest.NetworkError](err)
		require.True(t, ok, "%v", err)
		assert.Equal(t, 404, ne.Status)
		assert.Equal(t, "Not Found", ne.StatusText)
		assert.Equal(t, "getArticle", ne.Endpoint)
		assert.Equal(t, "GET", ne.Method)
		assert.Equal(t, `{"error":"article 999 not found"}`, ne.Body.JSON())
		require.NotNil(t, ne.Response)
		assert.Equal(t, "application/json", ne.Response.Header.Get("content-type"))
		assert.IsType(t, (*http.Response)(nil), ne.Response.Native)
		assert.Nil(t, ne.Unwrap())
		assert.Equal(t, `getArticle: GET `+srv.URL+`/articles/999: 404 Not Found: {"error":"article 999 not found"}`, err.Error())
		assert.Equal(t, "NetworkError", rest.ErrorName(err))
	})
	t.Run("text body", func(t *testing.T) {
		srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "database on fire", 500)
		})
		e := newEndpoint(t, srv, rest.Options{Path: "/a", Name: "a"})
		_, err := e.Fetch(context.Background(), value.Undef, nil)
		ne, ok := errors.AsType[*rest.NetworkError](err)
		require.True(t, ok, "%v", err)
		assert.True(t, ne.Body.IsUndefined())
		assert.Equal(t, `a: GET `+srv.URL+`/a: 500 Internal Server Error: "database on fire"`, err.Error())
	})
	t.Run("long body is cut", func(t *testing.T) {
		srv := jsonServer(t, 400, `"`+strings.Repeat("é", 300)+`"`)
		e := newEndpoint(t, srv, rest.Options{Path: "/a"})
		_, err := e.Fetch(context.Background(), value.Undef, nil)
		require.Error(t, err)
		assert.Less(t, len(err.Error()), 300)
		assert.True(t, strings.HasSuffix(err.Error(), "…"))
	})
}

func TestServerDown(t *testing.T) {
	srv := jsonServer(t, 200, `{}`)
	e := newEndpoint(t, srv, rest.Options{Path: "/a", Name: "a"})
	srv.Close()
	_, err := e.Fetch(context.Background(), value.Undef, nil)
	ne, ok := errors.AsType[*rest.NetworkError](err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, 0, ne.Status)
	assert.Nil(t, ne.Response)
	assert.NotNil(t, ne.Err)
	assert.Equal(t, "NetworkError", ne.Name())
	assert.Contains(t, err.Error(), "a: GET "+srv.URL+"/a: network error: ")
}

// blockingServer holds every request until the client goes away (or, as a
// hang guard only, for minutes).
func blockingServer(t *testing.T) (*server, <-chan struct{}) {
	arrived := make(chan struct{}, 10)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Minute):
		}
	})
	return srv, arrived
}

func TestCancel(t *testing.T) {
	srv, arrived := blockingServer(t)
	e := newEndpoint(t, srv, rest.Options{Path: "/slow", Name: "slow"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	_, err := e.Fetch(ctx, value.Undef, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, "AbortError", rest.ErrorName(err))
	assert.Equal(t, "slow: GET "+srv.URL+"/slow: request aborted: context canceled", err.Error())

	t.Run("with a cause", func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		go func() { <-arrived; cancel(errors.New("user left the page")) }()
		_, err := e.Fetch(ctx, value.Undef, nil)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, "AbortError", rest.ErrorName(err))
		assert.Contains(t, err.Error(), "request aborted: context canceled: user left the page")
	})
	t.Run("signal option", func(t *testing.T) {
		signal, abort := context.WithCancel(context.Background())
		withSignal, err := e.Extend(func(o *rest.Options) { o.Signal = signal })
		require.NoError(t, err)
		go func() { <-arrived; abort() }()
		_, err = withSignal.Fetch(context.Background(), value.Undef, nil)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, "AbortError", rest.ErrorName(err))
		_, err = withSignal.Fetch(context.Background(), value.Undef, nil)
		assert.Equal(t, "AbortError", rest.ErrorName(err), "an aborted signal aborts later requests at once")
	})
	t.Run("signal aborted before the fetch", func(t *testing.T) {
		signal, abort := context.WithCancel(context.Background())
		abort()
		// The request's context must be done when the fetch starts, not a
		// moment later: a request sent meanwhile could succeed.
		sawLive := 0
		custom, err := e.Extend(func(o *rest.Options) {
			o.Signal = signal
			o.Fetch = func(ctx context.Context, _ *rest.Endpoint, _ value.Value, _ any) (value.Value, error) {
				if ctx.Err() == nil {
					sawLive++
					return value.Str("sent"), nil
				}
				return value.Undef, ctx.Err()
			}
		})
		require.NoError(t, err)
		for range 200 {
			_, err := custom.Fetch(context.Background(), value.Undef, nil)
			assert.Equal(t, "AbortError", rest.ErrorName(err))
		}
		assert.Zero(t, sawLive, "requests started with an aborted signal")
	})
}

func TestTimeout(t *testing.T) {
	srv, _ := blockingServer(t)
	e := newEndpoint(t, srv, rest.Options{Path: "/slow", Name: "slow", Timeout: 50 * time.Millisecond})
	// The server never answers: only the timeout can end the request, so
	// its error is the proof that it fired (no bound on how fast).
	_, err := e.Fetch(context.Background(), value.Undef, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NotErrorIs(t, err, context.Canceled)
	assert.Equal(t, "TimeoutError", rest.ErrorName(err))
	ne, ok := errors.AsType[*rest.NetworkError](err)
	require.True(t, ok)
	assert.Equal(t, "TimeoutError", ne.Name())
	assert.Equal(t, "slow: GET "+srv.URL+"/slow: request timed out: timeout of 50ms exceeded", err.Error())

	t.Run("custom fetch", func(t *testing.T) {
		custom, err := e.Extend(func(o *rest.Options) {
			o.Fetch = func(ctx context.Context, e *rest.Endpoint, params value.Value, body any) (value.Value, error) {
				<-ctx.Done()
				return value.Undef, ctx.Err()
			}
		})
		require.NoError(t, err)
		_, err = custom.Fetch(context.Background(), value.Undef, nil)
		assert.Equal(t, "TimeoutError", rest.ErrorName(err))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})
}

func TestTransportPrecedence(t *testing.T) {
	answer := func(name string) rest.Transport {
		return transportFunc(func(ctx context.Context, r *rest.Request) (*rest.Response, error) {
			return &rest.Response{Status: 200, Body: []byte(`"` + name + `"`)}, nil
		})
	}
	saved := rest.DefaultTransport
	t.Cleanup(func() { rest.DefaultTransport = saved })
	rest.DefaultTransport = answer("default")

	plain, err := rest.New(rest.Options{Path: "/a", Name: "a"})
	require.NoError(t, err)
	own, err := plain.Extend(func(o *rest.Options) { o.Transport = answer("own") })
	require.NoError(t, err)
	ctx := rest.WithTransport(context.Background(), answer("context"))

	for _, tt := range []struct {
		name string
		e    *rest.Endpoint
		ctx  context.Context
		want string
	}{
		{"default", plain, context.Background(), "default"},
		{"context beats default", plain, ctx, "context"},
		{"endpoint beats context", own, ctx, "own"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := tt.e.Fetch(tt.ctx, value.Undef, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, v.Str())
		})
	}
	assert.Nil(t, rest.TransportFromContext(context.Background()))

	rest.DefaultTransport = nil
	_, err = plain.Fetch(context.Background(), value.Undef, nil)
	assert.ErrorIs(t, err, rest.ErrNoTransport)
	assert.Contains(t, err.Error(), "a: GET /a: no transport: ")
}

func TestErrorName(t *testing.T) {
	assert.Equal(t, "", rest.ErrorName(nil))
	assert.Equal(t, "Error", rest.ErrorName(errors.New("x")))
	assert.Equal(t, "AbortError", rest.ErrorName(context.Canceled))
	assert.Equal(t, "TimeoutError", rest.ErrorName(context.DeadlineExceeded))
	assert.Equal(t, "NetworkError", rest.ErrorName(&rest.NetworkError{Status: 500}))
}

func TestExtendImmutable(t *testing.T) {
	yes := true
	base, err := rest.New(rest.Options{Path: "/articles/:id", Method: "GET", Name: "getArticle", Schema: article, SideEffect: &yes,
		DataExpiryLength: time.Minute})
	require.NoError(t, err)
	ext, err := base.Extend(func(o *rest.Options) {
		o.Path = "/posts/:id"
		o.Method = "PATCH"
		*o.SideEffect = false
		o.DataExpiryLength = time.Second
	})
	require.NoError(t, err)

	u, _ := base.URL(obj(`{"id":1}`))
	assert.Equal(t, "/articles/1", u)
	assert.Equal(t, "GET", base.Method())
	assert.True(t, base.Spec().SideEffect)
	assert.True(t, *base.Options().SideEffect)
	assert.Equal(t, time.Minute, base.Spec().DataExpiryLength)

	u, _ = ext.URL(obj(`{"id":1}`))
	assert.Equal(t, "/posts/1", u)
	assert.Equal(t, "PATCH", ext.Method())
	assert.False(t, ext.Spec().SideEffect)
	assert.Equal(t, time.Second, ext.Spec().DataExpiryLength)

	o := base.Options()
	o.Path = "/changed"
	u, _ = base.URL(obj(`{"id":1}`))
	assert.Equal(t, "/articles/1", u, "changing a copy of the options changes nothing")

	_, err = base.Extend(func(o *rest.Options) { o.Method = "BREW" })
	assert.Error(t, err)
}

func TestSpec(t *testing.T) {
	for _, tt := range []struct {
		method string
		want   bool
	}{{"GET", false}, {"POST", true}, {"PUT", true}, {"PATCH", true}, {"DELETE", true}} {
		e, err := rest.New(rest.Options{Path: "/a", Method: tt.method})
		require.NoError(t, err)
		assert.Equal(t, tt.want, e.Spec().SideEffect, tt.method)
	}
	no := false
	update := func(newPKs, params value.Value) (map[string]func(value.Value) value.Value, error) { return nil, nil }
	e, err := rest.New(rest.Options{Path: "/a", Method: "POST", Name: "n", Schema: article, SideEffect: &no,
		DataExpiryLength: time.Minute, ErrorExpiryLength: time.Second, InvalidIfStale: true,
		PollFrequency: 5 * time.Second, Update: update, Retry: 4,
		RetryDelay: func(int, error) (time.Duration, error) { return time.Hour, nil }})
	require.NoError(t, err)
	s := e.Spec()
	assert.Same(t, s, e.Spec(), "built once")
	assert.Equal(t, "n", s.Name)
	assert.Equal(t, article, s.Schema)
	assert.False(t, s.SideEffect)
	assert.Equal(t, time.Minute, s.DataExpiryLength)
	assert.Equal(t, time.Second, s.ErrorExpiryLength)
	assert.True(t, s.InvalidIfStale)
	assert.Equal(t, 5*time.Second, s.PollFrequency)
	assert.Equal(t, 4, s.Retry)
	d, _ := s.RetryDelay(0, nil)
	assert.Equal(t, time.Hour, d)
	assert.NotNil(t, s.Update)
	assert.Nil(t, s.MergeResult)
}

// TestBodyIsJSON checks the encoded body is the value's JSON, escapes and all.
func TestBodyIsJSON(t *testing.T) {
	srv := jsonServer(t, 200, `{}`)
	e := newEndpoint(t, srv, rest.Options{Path: "/a", Method: "POST"})
	body := obj(`{"text":"line\nbreak \"quoted\" é","n":1.5}`)
	_, err := e.Fetch(context.Background(), value.Undef, body)
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(srv.last(t).Body), &got))
	assert.Equal(t, map[string]any{"text": "line\nbreak \"quoted\" é", "n": 1.5}, got)
}

// TestParsedBodyIsShared: the value a fetch parses shares the Response's
// body rather than a copy of it, which would double the memory a large
// body takes while it is stored (a UTF-8 byte-order mark dropped or not).
func TestParsedBodyIsShared(t *testing.T) {
	for _, prefix := range []string{"", "\xEF\xBB\xBF"} {
		body := []byte(prefix + `[{"id":1,"body":"` + strings.Repeat("x", 1000) + `"}]`)
		tr := transportFunc(func(ctx context.Context, r *rest.Request) (*rest.Response, error) {
			return &rest.Response{Status: 200, Body: body}, nil
		})
		e, err := rest.New(rest.Options{Path: "/comments", Name: "comments", Transport: tr})
		require.NoError(t, err)
		v, err := e.Fetch(context.Background(), value.Undef, nil)
		require.NoError(t, err)
		text := v.Elems()[0].Get("body").Raw()
		require.Len(t, text, 1000)
		at := uintptr(unsafe.Pointer(unsafe.StringData(text)))
		start := uintptr(unsafe.Pointer(unsafe.SliceData(body)))
		assert.True(t, at >= start && at+uintptr(len(text)) <= start+uintptr(len(body)),
			"prefix %q: the parsed string's bytes are the body's, not a copy", prefix)
	}
}

func TestDefaultFetchIsTheRequestAndItsParse(t *testing.T) {
	srv := jsonServer(t, 200, `{"id":1,"title":"from the server"}`)
	e := newEndpoint(t, srv, rest.Options{
		Path: "/posts/:id",
		// An override that calls the default, as a JavaScript super.fetch.
		Fetch: func(ctx context.Context, e *rest.Endpoint, params value.Value, body any) (value.Value, error) {
			v, err := e.DefaultFetch(ctx, params, body)
			if err != nil {
				return value.Undef, err
			}
			return value.Obj(value.M("wrapped", v)), nil
		},
		ParseResponse: func(ctx context.Context, r *rest.Response) (value.Value, error) {
			v, err := value.Parse(r.Body)
			return value.Obj(value.M("parsed", v)), err
		},
		Process: func(v, params value.Value) (value.Value, error) {
			return value.Undef, errors.New("process is not called after a custom fetch")
		},
	})
	v, err := e.Fetch(context.Background(), obj(`{"id":"1"}`), nil)
	require.NoError(t, err)
	assert.Equal(t, `{"wrapped":{"parsed":{"id":1,"title":"from the server"}}}`, v.JSON(), "the request, then ParseResponse, without Process")
	require.Len(t, srv.reqs, 1)
	assert.Equal(t, "/posts/1", srv.reqs[0].Path)

	failing := jsonServer(t, 404, `{"message":"no"}`)
	plain := newEndpoint(t, failing, rest.Options{Path: "/posts/:id"})
	_, err = plain.DefaultFetch(context.Background(), obj(`{"id":"2"}`), nil)
	var ne *rest.NetworkError
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, 404, ne.Status)
}
