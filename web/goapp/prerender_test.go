//go:build !(js && wasm)

package goapp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/goapp"
)

// The pages of these tests, routed once for the package: go-app's routes
// are global.
const (
	listPage  = "/prerender/list"
	plainPage = "/prerender/plain"
)

// prerendered is a page of the tests: the Example's list, a count read
// straight from the cache (Listen) and two buttons, one disabled.
type prerendered struct {
	app.Compo
	list    goapp.Query[[]*Article]
	counted *countCard
}

func (c *prerendered) OnPreRender(ctx app.Context) { c.list.Use(ctx, ctrl, articles.GetList, nil) }
func (c *prerendered) OnMount(ctx app.Context)     { c.list.Use(ctx, ctrl, articles.GetList, nil) }
func (c *prerendered) OnDismount()                 { c.list.Close() }

func (c *prerendered) Render() app.UI {
	return app.Main().Body(
		c.list.Render(boundary, func(list []*Article) app.UI {
			return app.Ul().ID("list").Body(app.Range(list).Slice(func(i int) app.UI {
				return app.Li().Text(list[i].Title)
			}))
		}),
		&countCard{},
		app.Button().ID("enabled").Disabled(false).Text("on"),
		app.Button().ID("disabled").Disabled(true).Text("off"),
	)
}

// countCard shows how many results the cache holds, read from it directly.
type countCard struct {
	app.Compo
	read *controller.Controller
	stop func()
}

func (c *countCard) OnPreRender(ctx app.Context) { c.read, c.stop = goapp.Listen(ctx, ctrl) }
func (c *countCard) OnMount(ctx app.Context)     { c.read, c.stop = goapp.Listen(ctx, ctrl) }
func (c *countCard) OnDismount()                 { c.stop() }

func (c *countCard) Render() app.UI {
	n := 0
	if c.read != nil {
		n = len(articles.GetList.Response(c.read, nil).Data)
	}
	return app.P().ID("count").Text(fmt.Sprintf("%d cached", n))
}

// plain is a page that reads nothing.
type plain struct{ app.Compo }

func (plain) Render() app.UI { return app.P().Text("nothing to read") }

var routeOnce sync.Once

func routeTestPages() {
	routeOnce.Do(func() {
		app.Route(listPage, func() app.Composer { return &prerendered{} })
		app.Route(plainPage, func() app.Composer { return &plain{} })
	})
}

// ssrServer serves the test pages through a Prerender whose controllers
// read the API at api through newCtrl (nil: the default transport).
func ssrServer(t *testing.T, api string, base string, newCtrl func(*http.Request) *controller.Controller) *httptest.Server {
	t.Helper()
	routeTestPages()
	var err error
	articles, err = df.NewResource[Article](rest.ResourceOptions{URLPrefix: api, Path: "/articles/:id"})
	require.NoError(t, err)
	ctrl = controller.New(controller.Options{}) // the app's: never read on the server
	var mu sync.Mutex
	var errs []error
	s := httptest.NewServer(&goapp.Prerender{
		App:           &app.Handler{Title: "prerender test"},
		NewController: newCtrl,
		Base:          base,
		OnError: func(_ *http.Request, err error) {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		},
	})
	t.Cleanup(func() {
		s.Close()
		mu.Lock()
		defer mu.Unlock()
		assert.Empty(t, errs)
	})
	return s
}

// getPage GETs a page as a browser's navigation does.
func getPage(t *testing.T, url string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(body)
}

var snapshotRE = regexp.MustCompile(`<script type="application/json" id="` + goapp.SnapshotElementID + `">(.*?)</script>`)

// noNetwork fails every request: reads through it succeed from the cache
// only.
type noNetwork struct{}

func (noNetwork) RoundTrip(context.Context, *rest.Request) (*rest.Response, error) {
	return nil, errors.New("no network in this test")
}

// A page is written with the data its queries read on the server, in its
// markup and in its snapshot; a browser on another host name for the same
// API (localhost rather than 127.0.0.1) hydrates from it and reads the
// list with no request.
func TestPrerenderWritesPageWithData(t *testing.T) {
	a := newLiveAPI(t)
	s := ssrServer(t, a.URL, a.URL, nil)
	resp, page := getPage(t, s.URL+listPage, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, page, "<li>Hello</li>")
	assert.Contains(t, page, "<li>Again</li>")
	assert.NotContains(t, page, "Loading…")
	assert.Contains(t, page, `<p id="count">2 cached</p>`, "a component reading the cache directly is rendered after the reads")
	assert.Empty(t, resp.Header.Get("ETag"), "the page changes with the data")
	a.mu.Lock()
	assert.Equal(t, 1, a.gets)
	a.mu.Unlock()

	m := snapshotRE.FindStringSubmatch(page)
	require.NotNil(t, m, "the page has its snapshot: %.600s", page)
	assert.NotContains(t, m[1], a.URL, "keys are written relative to the API base")
	assert.Contains(t, m[1], goapp.BaseMarker)

	other := strings.Replace(a.URL, "127.0.0.1", "localhost", 1)
	require.NotEqual(t, a.URL, other)
	client := controller.New(controller.Options{RequestContext: func(ctx context.Context) context.Context {
		return rest.WithTransport(ctx, noNetwork{})
	}})
	require.NoError(t, goapp.HydrateJSON(client, m[1], other))
	browser, err := df.NewResource[Article](rest.ResourceOptions{URLPrefix: other, Path: "/articles/:id"})
	require.NoError(t, err)
	list, err := browser.GetList.FetchIfStale(context.Background(), client, nil)
	require.NoError(t, err, "read from the hydrated snapshot")
	require.Len(t, list, 2)
	assert.Equal(t, "Hello", list[0].Title)
}

// A snapshot written without Prerender.Base holds the server's URLs: the
// browser's Hydrate says which results it will fetch again.
func TestHydrateWarnsOfKeysForAnotherBase(t *testing.T) {
	a := newLiveAPI(t)
	s := ssrServer(t, a.URL, "", nil)
	_, page := getPage(t, s.URL+listPage, nil)
	m := snapshotRE.FindStringSubmatch(page)
	require.NotNil(t, m)
	other := strings.Replace(a.URL, "127.0.0.1", "localhost", 1)
	client := controller.New(controller.Options{})
	err := goapp.HydrateJSON(client, m[1], other)
	require.Error(t, err)
	assert.Contains(t, err.Error(), a.URL+"/articles", "names the key")
	assert.Contains(t, err.Error(), other, "and the base the browser reads")

	require.NoError(t, goapp.HydrateJSON(controller.New(controller.Options{}), m[1], a.URL), "the same base: no warning")
}

// Each request is pre-rendered with its own controller: two pages
// rendered at the same time, for two users, each show their own data.
func TestPrerenderControllerPerRequest(t *testing.T) {
	var arrived sync.WaitGroup
	arrived.Add(2)
	both := make(chan struct{})
	go func() { arrived.Wait(); close(both) }()
	s := ssrServer(t, "http://api.test", "", func(r *http.Request) *controller.Controller {
		user := r.Header.Get("X-User")
		return controller.New(controller.Options{RequestContext: func(ctx context.Context) context.Context {
			return rest.WithTransport(ctx, transportFunc(func(context.Context, *rest.Request) (*rest.Response, error) {
				arrived.Done()
				select { // both reads are in flight at once; the limit only stops a hang
				case <-both:
				case <-time.After(testkit.WaitLimit):
				}
				var h rest.Header
				h.Add("Content-Type", "application/json")
				return &rest.Response{Status: 200, Header: h, Body: []byte(`[{"id":"1","title":"for ` + user + `"}]`)}, nil
			}))
		}})
	})
	pages := make([]string, 2)
	var wg sync.WaitGroup
	for i, user := range []string{"ann", "bob"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, pages[i] = getPage(t, s.URL+listPage, map[string]string{"X-User": user})
		}()
	}
	wg.Wait()
	assert.Contains(t, pages[0], "<li>for ann</li>")
	assert.NotContains(t, pages[0], "bob")
	assert.Contains(t, pages[1], "<li>for bob</li>")
	assert.NotContains(t, pages[1], "ann")
}

type transportFunc func(context.Context, *rest.Request) (*rest.Response, error)

func (f transportFunc) RoundTrip(ctx context.Context, r *rest.Request) (*rest.Response, error) {
	return f(ctx, r)
}

// go-app writes Disabled(false) as disabled="false", which HTML reads as
// disabled: a page with data is written without it.
func TestPrerenderDropsFalseBooleanAttributes(t *testing.T) {
	a := newLiveAPI(t)
	s := ssrServer(t, a.URL, a.URL, nil)
	_, page := getPage(t, s.URL+listPage, nil)
	assert.Contains(t, page, `<button id="enabled">on</button>`)
	assert.Regexp(t, `<button (disabled id="disabled"|id="disabled" disabled)>off</button>`, page)
	assert.NotContains(t, page, `="false"`)
}

// A page that reads nothing is go-app's as it was: no snapshot, its ETag
// kept, and 304 to a request that is not a navigation.
func TestPrerenderPageWithoutReads(t *testing.T) {
	a := newLiveAPI(t)
	var made atomic.Int32
	s := ssrServer(t, a.URL, a.URL, func(*http.Request) *controller.Controller {
		made.Add(1)
		return controller.New(controller.Options{})
	})
	resp, page := getPage(t, s.URL+plainPage, nil)
	assert.Contains(t, page, "nothing to read")
	assert.NotContains(t, page, goapp.SnapshotElementID)
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)
	resp, _ = testkit.GetRaw(t, s.URL+"/app.js", map[string]string{"If-None-Match": etag})
	assert.Equal(t, http.StatusNotModified, resp.StatusCode, "other resources keep go-app's caching")
	assert.Zero(t, made.Load(), "no controller is made for what reads nothing")
	resp, page = getPage(t, s.URL+listPage, map[string]string{"If-None-Match": etag})
	assert.Equal(t, http.StatusOK, resp.StatusCode, "a navigation is written afresh")
	assert.Contains(t, page, "<li>Hello</li>")
	assert.Equal(t, int32(1), made.Load(), "one controller for the page that reads")
}

// The snapshot element holds hostile text as JSON that reads back the
// same and that nothing in it can end or escape.
func TestSnapshotElementEscapesHostileText(t *testing.T) {
	hostile := []string{
		`</script><script>alert(1)</script>`,
		`</SCRIPT  ><img src=x onerror=alert(1)>`,
		`<!--<script>`,
		`]]>--><svg onload=alert(1)>`,
		`"quotes" & 'apostrophes' &amp; &lt;`,
		"line\u2028separators\u2029and\x00nul",
		`\u003c/script>`,
	}
	for _, s := range hostile {
		t.Run(s, func(t *testing.T) {
			el := goapp.SnapshotElement(value.Obj(value.M(s, value.Str(s))))
			const open = `<script type="application/json" id="` + goapp.SnapshotElementID + `">`
			require.True(t, strings.HasPrefix(el, open))
			require.True(t, strings.HasSuffix(el, "</script>"))
			inner := strings.TrimSuffix(strings.TrimPrefix(el, open), "</script>")
			assert.NotContains(t, inner, "<", "nothing in it opens or closes a tag")
			assert.NotContains(t, inner, ">")
			assert.NotContains(t, inner, "&", "no character reference")
			assert.NotContains(t, inner, "\u2028")
			v, err := value.ParseString(inner)
			require.NoError(t, err)
			assert.Equal(t, s, v.Get(s).Str(), "reads back the same")
		})
	}
}
