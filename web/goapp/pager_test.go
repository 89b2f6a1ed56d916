package goapp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/web/goapp"
)

// pageAPI serves titles two a page, as {results, nextCursor}, counts the
// requests and, while failPages is set, fails those of a page after the
// first with 500.
type pageAPI struct {
	*httptest.Server
	requests  atomic.Int32
	failPages atomic.Bool
}

func servePages(t *testing.T, titles ...string) *pageAPI {
	t.Helper()
	a := &pageAPI{}
	pages := pagesHandler(&a.requests, titles...)
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.failPages.Load() && r.URL.Query().Get("cursor") != "" {
			a.requests.Add(1)
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		pages(w, r)
	}))
	t.Cleanup(a.Close)
	return a
}

// moreButton is the "More" button of a feed: its context is that of an
// element the feed removes while the page loads.
type moreButton struct{ app.Compo }

var moreContext app.Context

func (b *moreButton) OnPreRender(ctx app.Context) { moreContext = ctx }
func (b *moreButton) Render() app.UI              { return app.Button().Text("More") }

// feed shows a paginated list and, below it, "More" or "Loading more…".
type feed struct {
	app.Compo
	ctrl     *controller.Controller
	list     *df.List[ArticlePage, Article]
	articles goapp.Pager[ArticlePage]
}

func (c *feed) OnPreRender(ctx app.Context) {
	c.articles.Use(ctx, c.ctrl, c.list.GetList, c.list.GetPage, nil,
		func(p ArticlePage) string { return p.NextCursor })
}

func (c *feed) OnDismount() { c.articles.Close() }

func (c *feed) Render() app.UI {
	return c.articles.Render(boundary, func(p ArticlePage) app.UI {
		return app.Div().Body(
			app.Ul().Body(app.Range(p.Results).Slice(func(i int) app.UI {
				return app.Li().Text(p.Results[i].Title)
			})),
			app.If(c.articles.Busy(), func() app.UI { return app.P().Text("Loading more…") }).
				ElseIf(c.articles.Err() != nil, func() app.UI { return app.P().Text("More failed") }).
				ElseIf(c.articles.HasMore(), func() app.UI { return &moreButton{} }),
		)
	})
}

// "More" appends the second page to the list shown, its outcome reaching
// the feed though the clicked button is gone; a More while one runs, or at
// the end of the list, sends nothing.
func TestPagerLoadsMoreIntoOneList(t *testing.T) {
	api := servePages(t, "One", "Two", "Three", "Four")
	engine, c := mountFeed(t, api)
	require.NotNil(t, moreContext.Src())
	button := moreContext

	c.articles.More(button)
	c.articles.More(button) // a second click while it loads sends nothing
	engine.ConsumeAll()     // renders "Loading more…", waits for the page
	assert.False(t, button.Src().Mounted(), "the clicked button is gone")
	engine.ConsumeAll()
	require.NoError(t, c.articles.Err())
	assert.False(t, c.articles.Busy())
	assert.False(t, c.articles.HasMore())
	html := app.HTMLString(c)
	for _, title := range []string{"One", "Two", "Three", "Four"} {
		assert.Contains(t, html, "<li>"+title+"</li>")
	}
	assert.NotContains(t, html, "Loading more…", "the end of More reached the feed")
	assert.Len(t, c.articles.Data().Results, 4)
	assert.Equal(t, int32(2), api.requests.Load())

	c.articles.More(button) // at the end of the list
	assert.False(t, c.articles.Busy())
	engine.ConsumeAll()
	assert.Equal(t, int32(2), api.requests.Load(), "a More at the end sends nothing")
}

// A More that fails changes no list, so only the Pager can tell the feed:
// it does, though the clicked button is gone, and the list shown stays.
func TestPagerFailureReachesTheFeed(t *testing.T) {
	api := servePages(t, "One", "Two", "Three", "Four")
	api.failPages.Store(true)
	engine, c := mountFeed(t, api)
	button := moreContext
	c.articles.More(button)
	engine.ConsumeAll()
	assert.False(t, button.Src().Mounted(), "the clicked button is gone")
	engine.ConsumeAll()
	var nerr *rest.NetworkError
	require.ErrorAs(t, c.articles.Err(), &nerr)
	assert.Equal(t, http.StatusInternalServerError, nerr.Status)
	html := app.HTMLString(c)
	assert.Contains(t, html, "More failed")
	assert.NotContains(t, html, "Loading more…")
	assert.Contains(t, html, "<li>Two</li>")
	assert.True(t, c.articles.HasMore(), "the page can be asked for again")
	assert.Equal(t, int32(2), api.requests.Load())
}

// mountFeed mounts a feed of api's articles in go-app's test engine, its
// first page shown.
func mountFeed(t *testing.T, api *pageAPI) (app.TestEngine, *feed) {
	t.Helper()
	posts, err := df.NewResource[Article](rest.ResourceOptions{URLPrefix: api.URL, Path: "/articles/:id",
		Options: rest.Options{PaginationField: "cursor"}})
	require.NoError(t, err)
	list, err := df.ListOf[ArticlePage](posts)
	require.NoError(t, err)
	c := &feed{ctrl: controller.New(controller.Options{}), list: list}
	goapp.OnServer = false
	t.Cleanup(func() { goapp.OnServer = app.IsServer })
	// Fetched beforehand, so that the feed's first render has the page.
	_, err = list.GetList.Suspense(context.Background(), c.ctrl, nil)
	require.NoError(t, err)
	engine := app.NewTestEngine()
	moreContext = app.Context{}
	require.NoError(t, engine.Load(c))
	engine.ConsumeAll()
	require.True(t, c.articles.HasMore())
	html := app.HTMLString(c)
	assert.Contains(t, html, "<li>Two</li>")
	assert.NotContains(t, html, "Three")
	return engine, c
}

// A Pager that cannot page says why in Err at the first More, and sends
// nothing.
func TestPagerMisuse(t *testing.T) {
	api := servePages(t, "One", "Two", "Three")
	engine, c := mountFeed(t, api)
	posts, err := df.NewResource[Article](rest.ResourceOptions{URLPrefix: api.URL, Path: "/articles/:id"})
	require.NoError(t, err)
	plain, err := df.ListOf[ArticlePage](posts)
	require.NoError(t, err)
	tests := []struct {
		name string
		use  func(p *goapp.Pager[ArticlePage])
		want string
	}{
		{"More before Use", func(*goapp.Pager[ArticlePage]) {}, "goapp: Pager.More before Pager.Use: no endpoint to page"},
		{"no GetPage", func(p *goapp.Pager[ArticlePage]) {
			p.Use(moreContext, c.ctrl, c.list.GetList, nil, nil, func(p ArticlePage) string { return p.NextCursor })
		}, "goapp: Pager.Use: getPage is nil: nothing fetches Article.getList's next page"},
		{"no cursor", func(p *goapp.Pager[ArticlePage]) {
			p.Use(moreContext, c.ctrl, c.list.GetList, c.list.GetPage, nil, nil)
		}, "goapp: Pager.Use: cursor is nil: nothing reads Article.getList's next cursor"},
		{"no PaginationField", func(p *goapp.Pager[ArticlePage]) {
			p.Use(moreContext, c.ctrl, plain.GetList, c.list.GetPage, nil, func(p ArticlePage) string { return p.NextCursor })
		}, "goapp: Pager.Use: Article.getList has no PaginationField: nothing to page"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p goapp.Pager[ArticlePage]
			tt.use(&p)
			t.Cleanup(p.Close)
			engine.ConsumeAll()
			sent := api.requests.Load()
			p.More(moreContext)
			engine.ConsumeAll()
			assert.EqualError(t, p.Err(), tt.want)
			assert.False(t, p.HasMore())
			assert.False(t, p.Busy())
			assert.Equal(t, sent, api.requests.Load(), "More sent nothing")
		})
	}
}
