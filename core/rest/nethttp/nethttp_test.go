package nethttp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/rest/nethttp"
)

func TestInitSetsDefault(t *testing.T) {
	assert.IsType(t, &nethttp.Transport{}, rest.DefaultTransport)
}

func TestRoundTrip(t *testing.T) {
	var gotHost, gotBody string
	var gotHeader http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotHost, gotHeader = r.Host, r.Header.Clone()
		b, _ := io.ReadAll(r.Body)
		gotBody = string(b)
		w.Header().Add("Z-Last", "z")
		w.Header().Add("A-First", "1")
		w.Header().Add("A-First", "2")
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, "short and stout")
	}))
	defer srv.Close()
	tr := &nethttp.Transport{Client: srv.Client()}

	resp, err := tr.RoundTrip(context.Background(), &rest.Request{
		Method: "POST",
		URL:    srv.URL + "/pot",
		Header: rest.Header{{Name: "X-One", Value: "1"}, {Name: "x-one", Value: "2"}, {Name: "Host", Value: "example.test"}},
		Body:   []byte("tea"),
	})
	require.NoError(t, err)
	assert.Equal(t, 418, resp.Status)
	assert.Equal(t, "I'm a teapot", resp.StatusText)
	assert.Equal(t, "short and stout", string(resp.Body))
	assert.Equal(t, rest.Header{{Name: "A-First", Value: "1"}, {Name: "A-First", Value: "2"}}, rest.Header(resp.Header[:2]), "sorted by name")
	assert.Equal(t, "z", resp.Header.Get("z-last"))
	assert.IsType(t, (*http.Response)(nil), resp.Native)
	assert.Equal(t, "tea", gotBody)
	assert.Equal(t, []string{"1", "2"}, gotHeader.Values("X-One"))
	assert.Equal(t, "example.test", gotHost)

	resp, err = tr.RoundTrip(context.Background(), &rest.Request{Method: "PUT", URL: srv.URL, RawBody: strings.NewReader("raw")})
	require.NoError(t, err)
	assert.Equal(t, "raw", gotBody)

	_, err = tr.RoundTrip(context.Background(), &rest.Request{Method: "PUT", URL: srv.URL, RawBody: 42})
	assert.EqualError(t, err, "nethttp: cannot send a body of type int; want []byte, string, value.Value or io.Reader")

	_, err = tr.RoundTrip(context.Background(), &rest.Request{Method: "GET", URL: "::bad"})
	assert.ErrorContains(t, err, "nethttp: ")
}

func TestZeroTransportUsesDefaultClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	var tr nethttp.Transport
	resp, err := tr.RoundTrip(context.Background(), &rest.Request{Method: "GET", URL: srv.URL})
	require.NoError(t, err)
	assert.Equal(t, "OK", resp.StatusText)
	assert.Equal(t, "ok", string(resp.Body))
}
