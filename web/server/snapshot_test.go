package main

import (
	"context"
	"encoding/json"
	"errors"
	"html"
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/resources"
	"github.com/datafetch/datafetch/web/ui"
)

// noNetwork is a rest.Transport that fails every request: reads through
// it succeed only from the cache.
type noNetwork struct{}

func (noNetwork) RoundTrip(context.Context, *rest.Request) (*rest.Response, error) {
	return nil, errors.New("no network in this test")
}

var snapshotElement = regexp.MustCompile(`<script type="application/json" id="` + ui.SnapshotElementID + `">(.*?)</script>`)

// The articles page carries its data: a client hydrated from the snapshot
// reads the list without a request, and the API counted none.
func TestArticlesPageCarriesSnapshot(t *testing.T) {
	ts := newTestDemo(t)
	resp, page := get(t, ts.URL+"/")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("ETag"), "the page changes with the data")
	m := snapshotElement.FindStringSubmatch(page)
	require.NotNil(t, m, "the page holds a snapshot: %.400s", page)
	assert.Regexp(t, `id="app-wasm-loader"`, page, "go-app's page otherwise as it was")

	snap, err := value.ParseString(m[1])
	require.NoError(t, err)
	ctrl := controller.New(controller.Options{InitialState: snap, RequestContext: func(ctx context.Context) context.Context {
		return rest.WithTransport(ctx, noNetwork{})
	}})
	a, err := resources.New(ts.URL + "/rest")
	require.NoError(t, err)
	list, err := a.Articles.GetList.FetchIfStale(context.Background(), ctrl, resources.ListParams)
	require.NoError(t, err, "the list is read from the snapshot")

	_, body := get(t, ts.URL+"/rest/articles")
	var want []struct{ ID, Title string }
	require.NoError(t, json.Unmarshal([]byte(body), &want))
	require.Equal(t, len(want), len(list))
	assert.Equal(t, want[0].Title, list[0].Title)

	_, counts := get(t, ts.URL+"/rest/_control/counts")
	var c map[string]int
	require.NoError(t, json.Unmarshal([]byte(counts), &c))
	assert.Equal(t, 1, c["GET /articles"], "only the test's own GET was counted, not the page's: %v", c)
}

// A page with a snapshot is rendered afresh even when the browser has
// go-app's ETag; other pages have none and keep go-app's caching.
func TestSnapshotPageNotCachedByETag(t *testing.T) {
	ts := newTestDemo(t)
	resp, posts := get(t, ts.URL+"/posts")
	assert.NotContains(t, posts, ui.SnapshotElementID)
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)

	resp, page := testkit.GetRaw(t, ts.URL+"/", map[string]string{"If-None-Match": etag})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Regexp(t, snapshotElement, string(page))
}

func TestInjectSnapshotEscapesScriptEnd(t *testing.T) {
	page := injectSnapshot([]byte("<html><head><title>t</title></head><body></body></html>"), `{"a":"</script><b>"}`)
	m := snapshotElement.FindSubmatch(page)
	require.NotNil(t, m)
	assert.Equal(t, `{"a":"\u003c/script>\u003cb>"}`, string(m[1]))
	var v map[string]string
	require.NoError(t, json.Unmarshal(m[1], &v))
	assert.Equal(t, "</script><b>", v["a"])
	assert.Equal(t, "<html><head><title>t</title>", html.UnescapeString(string(page[:len("<html><head><title>t</title>")])))
}
