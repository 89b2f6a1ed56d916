package goapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/web/goapp"
)

// ArticlePage is a page of articles in its envelope; its results are the
// list every page is appended to.
type ArticlePage struct {
	Results    []*Article `df:"results,collection"`
	NextCursor string     `df:"nextCursor"`
}

// pages is the articles' list read as pages (df.ListOf).
var pages *df.List[ArticlePage, Article]

type articlePages struct {
	app.Compo
	list goapp.Pager[ArticlePage]
}

func (c *articlePages) OnMount(ctx app.Context) {
	c.list.Use(ctx, ctrl, pages.GetList, pages.GetPage, nil, func(p ArticlePage) string { return p.NextCursor })
}

func (c *articlePages) OnDismount() { c.list.Close() }

func (c *articlePages) Render() app.UI {
	return c.list.Render(boundary, func(p ArticlePage) app.UI {
		return app.Div().Body(
			app.Ul().Body(app.Range(p.Results).Slice(func(i int) app.UI {
				return app.Li().Text(p.Results[i].Title)
			})),
			app.If(c.list.Busy(), func() app.UI {
				return app.P().Text("Loading more…")
			}).ElseIf(c.list.HasMore(), func() app.UI {
				return app.Button().Text("More").OnClick(func(ctx app.Context, _ app.Event) {
					c.list.More(ctx)
				})
			}),
		)
	})
}

// nativePages runs articlePages in go-app's test engine, its context kept
// to click "More" with.
type nativePages struct {
	articlePages
	ctx app.Context
}

func (c *nativePages) OnPreRender(ctx app.Context) { c.ctx = ctx; c.OnMount(ctx) }

// A "load more" list: the first page is shown, More appends the next one.
func ExamplePager() {
	var requests atomic.Int32
	api := httptest.NewServer(pagesHandler(&requests, "Hello", "Again", "Later"))
	defer api.Close()
	articles, err := df.NewResource[Article](df.ResourceOptions{
		URLPrefix: api.URL, Path: "/articles/:id",
		Options: df.Options{PaginationField: "cursor"},
	})
	if err != nil {
		log.Fatal(err)
	}
	if pages, err = df.ListOf[ArticlePage](articles); err != nil {
		log.Fatal(err)
	}
	ctrl = controller.New(controller.Options{})
	goapp.OnServer = false // this native test plays the browser
	defer func() { goapp.OnServer = app.IsServer }()

	// Fetched beforehand, so that the component's first render has data.
	if _, err := pages.GetList.Suspense(context.Background(), ctrl, nil); err != nil {
		log.Fatal(err)
	}
	engine := app.NewTestEngine()
	c := &nativePages{}
	if err := engine.Load(c); err != nil {
		log.Fatal(err)
	}
	engine.ConsumeAll()
	fmt.Println(app.HTMLString(c))

	c.list.More(c.ctx) // as a click on "More" does
	engine.ConsumeAll()
	fmt.Println(app.HTMLString(c))
	fmt.Println("requests:", requests.Load())

	// Output:
	// <div>
	//   <ul>
	//     <li>Hello</li>
	//     <li>Again</li>
	//   </ul>
	//   <button>More</button>
	// </div>
	// <div>
	//   <ul>
	//     <li>Hello</li>
	//     <li>Again</li>
	//     <li>Later</li>
	//   </ul>
	// </div>
	// requests: 2
}

// pagesHandler serves titles as articles two a page, in an envelope
// ({results, nextCursor}), the page after the cursor param; it counts the
// requests.
func pagesHandler(requests *atomic.Int32, titles ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		from, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
		from = min(max(from, 0), len(titles))
		to := min(from+2, len(titles))
		results := []map[string]any{}
		for i := from; i < to; i++ {
			results = append(results, map[string]any{"id": strconv.Itoa(i + 1), "title": titles[i]})
		}
		next := ""
		if to < len(titles) {
			next = strconv.Itoa(to)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"results": results, "nextCursor": next})
	}
}
