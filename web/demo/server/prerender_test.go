//go:build !js

package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/goapp"
)

// noNetwork is a rest.Transport that fails every request: reads through
// it succeed only from the cache.
type noNetwork struct{}

func (noNetwork) RoundTrip(context.Context, *rest.Request) (*rest.Response, error) {
	return nil, errors.New("no network in this test")
}

// falseBoolean matches a boolean attribute written as set by false.
var falseBoolean = regexp.MustCompile(` (checked|disabled|hidden|open|required|selected)="false"`)

var snapshotElement = regexp.MustCompile(`<script type="application/json" id="` + goapp.SnapshotElementID + `">(.*?)</script>`)

// navigate GETs a page as a browser's navigation does.
func navigate(t *testing.T, url string, header map[string]string) (*http.Response, string) {
	t.Helper()
	h := map[string]string{"Accept": "text/html,*/*;q=0.8"}
	for k, v := range header {
		h[k] = v
	}
	resp, body := testkit.GetRaw(t, url, h)
	return resp, string(body)
}

// counts returns the API's request counts: the requests browsers made.
func counts(t *testing.T, base string) map[string]int {
	t.Helper()
	_, body := get(t, base+"/rest/_control/counts")
	var c map[string]int
	require.NoError(t, json.Unmarshal([]byte(body), &c))
	return c
}

// Every page of the demo is written with its data: no placeholder, no
// error, and a snapshot that a browser on another host name for the same
// server hydrates with no warning. The server's reads are its own: the
// API counted none.
func TestEveryPageRendersWithData(t *testing.T) {
	ts := newTestDemo(t)
	localhost := strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)
	// Not /cache: it shows the browser's cache and reads nothing.
	for _, path := range []string{"/", "/articles/3", "/counter", "/posts", "/comments", "/profiles", "/birthdays", "/account"} {
		t.Run(path, func(t *testing.T) {
			resp, page := navigate(t, ts.URL+path, nil)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Empty(t, resp.Header.Get("ETag"), "the page changes with the data")
			assert.NotContains(t, page, `aria-busy="true"`, "no placeholder")
			assert.NotContains(t, page, `error-box`)
			assert.NotRegexp(t, falseBoolean, page, "no boolean attribute set by false")
			m := snapshotElement.FindStringSubmatch(page)
			require.NotNil(t, m, "the page holds a snapshot")
			ctrl := controller.New(controller.Options{})
			require.NoError(t, goapp.HydrateJSON(ctrl, m[1], localhost+apiPath))
			assert.NotEmpty(t, ctrl.Keys())
		})
	}
	assert.Empty(t, counts(t, ts.URL), "the pages' reads were served in-process")
}

// The articles page carries the list: a browser hydrated from its
// snapshot, on localhost, reads it without a request, and the rows are in
// the page.
func TestArticlesPageCarriesSnapshot(t *testing.T) {
	ts := newTestDemo(t)
	_, page := navigate(t, ts.URL+"/", nil)
	assert.Regexp(t, `id="app-wasm-loader"`, page, "go-app's page otherwise as it was")
	m := snapshotElement.FindStringSubmatch(page)
	require.NotNil(t, m, "the page holds a snapshot: %.400s", page)

	localhost := strings.Replace(ts.URL, "127.0.0.1", "localhost", 1) + apiPath
	ctrl := controller.New(controller.Options{RequestContext: func(ctx context.Context) context.Context {
		return rest.WithTransport(ctx, noNetwork{})
	}})
	require.NoError(t, goapp.HydrateJSON(ctrl, m[1], localhost))
	a, err := resources.New(localhost)
	require.NoError(t, err)
	list, err := a.Articles.GetList.FetchIfStale(context.Background(), ctrl, resources.ListParams)
	require.NoError(t, err, "the list is read from the snapshot")

	_, body := get(t, ts.URL+"/rest/articles")
	var want []struct{ ID, Title string }
	require.NoError(t, json.Unmarshal([]byte(body), &want))
	require.Equal(t, len(want), len(list))
	assert.Equal(t, want[0].Title, list[0].Title)
	for _, w := range want {
		assert.Contains(t, page, `data-id="`+w.ID+`"`, "row %s is in the page", w.ID)
	}
	assert.Equal(t, map[string]int{"GET /articles": 1}, counts(t, ts.URL), "only the test's own GET was counted, not the page's")
}

// A page with data is written afresh even when the browser has go-app's
// ETag; other resources keep go-app's caching.
func TestPageWithDataNotCachedByETag(t *testing.T) {
	ts := newTestDemo(t)
	resp, _ := get(t, ts.URL+"/app.js")
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)
	resp, _ = testkit.GetRaw(t, ts.URL+"/app.js", map[string]string{"If-None-Match": etag})
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)

	resp, page := navigate(t, ts.URL+"/posts", map[string]string{"If-None-Match": etag})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Regexp(t, snapshotElement, page)
}

// The cache page reads nothing on the server: it is written without a
// snapshot, but with its unchecked boxes unchecked.
func TestCachePageWithoutReads(t *testing.T) {
	ts := newTestDemo(t)
	_, page := navigate(t, ts.URL+"/cache", nil)
	assert.NotRegexp(t, snapshotElement, page)
	box := regexp.MustCompile(`<input[^>]* id="latency-random"[^>]*>`).FindString(page)
	require.NotEmpty(t, box)
	assert.NotContains(t, box, "checked")
	assert.NotRegexp(t, falseBoolean, page)
}

// The demo's service worker caches nothing, so no page is answered from
// a cache with old data.
func TestServiceWorkerCachesNoPage(t *testing.T) {
	ts := newTestDemo(t)
	_, js := get(t, ts.URL+"/app-worker.js")
	assert.Equal(t, goapp.ServiceWorker, js)
}
