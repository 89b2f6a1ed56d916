package ui

import (
	"context"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/goapp"
)

// postsPage shows the two kinds of pagination of GET /posts, whose pages
// carry next and previous tokens in the body: page by page, each page its
// own result; and an infinite list, where a Paginated endpoint appends
// every page to one result.
type postsPage struct {
	app.Compo
	d *Demo

	token string // the page shown; "" is the first
	page  goapp.Query[*resources.PostsPage]

	all  goapp.Query[*resources.PostsPage]
	more goapp.Loading
}

func (c *postsPage) OnMount(ctx app.Context) {
	c.page.Use(ctx, c.d.ctrl, c.d.api.Posts.Page, resources.PageParams(c.token))
	c.all.Use(ctx, c.d.ctrl, c.d.api.Posts.Infinite, resources.PageParams(""))
}

// OnPreRender reads on the server what OnMount reads in the browser: go-app
// pre-renders the page with it (goapp.Prerender).
func (c *postsPage) OnPreRender(ctx app.Context) { c.OnMount(ctx) }

func (c *postsPage) OnDismount() {
	c.page.Close()
	c.all.Close()
}

// goTo shows the page named by token.
func (c *postsPage) goTo(ctx app.Context, token string) {
	c.token = token
	c.page.Use(ctx, c.d.ctrl, c.d.api.Posts.Page, resources.PageParams(token))
}

func (c *postsPage) Render() app.UI {
	d := c.d
	return d.frame(page{
		path:  "/posts",
		title: "Posts",
		lede: "GET /posts?page=… answers {results, nextPage, prevPage}. Pages are cached by token: " +
			"going back shows the cached page at once.",
	},
		app.Div().Class("columns").Body(
			app.Section().Class("card").ID("paged").Body(
				app.Div().Class("card-head").Body(
					app.H2().Text("Page by page"),
					app.Span().Class("count").ID("page-number").Text("page "+resources.PageNumber(c.token)),
					refreshing(c.page.Refreshing()),
				),
				c.page.Render(d.boundary, c.renderPage),
			),
			app.Section().Class("card").ID("infinite").Body(
				app.Div().Class("card-head").Body(
					app.H2().Text("Infinite list"),
					app.Span().Class("count").ID("infinite-count").Text(postCount(c.all.Data())),
					refreshing(c.all.Refreshing()),
				),
				c.all.Render(d.boundary, c.renderInfinite),
			),
		),
	)
}

func (c *postsPage) renderPage(p *resources.PostsPage) app.UI {
	prev, next := p.PrevPage, p.NextPage
	return app.Div().Body(
		postList(p.Results),
		app.Div().Class("pager").Body(
			app.Button().ID("prev-page").Class("btn").Disabled(prev == "").Text("← Previous").
				OnClick(func(ctx app.Context, e app.Event) { c.goTo(ctx, prev) }, app.EventScope(prev)),
			app.Button().ID("next-page").Class("btn").Disabled(next == "").Text("Next →").
				OnClick(func(ctx app.Context, e app.Event) { c.goTo(ctx, next) }, app.EventScope(next)),
		),
	)
}

func (c *postsPage) renderInfinite(p *resources.PostsPage) app.UI {
	d := c.d
	next := p.NextPage
	busy := c.more.Busy() || c.all.State().Loading
	return app.Div().Body(
		app.Div().Class("scroll-list").Body(postList(p.Results)),
		app.Div().Class("pager").Body(
			app.If(next != "", func() app.UI {
				label := "Load more"
				if busy {
					label = "Loading…"
				}
				return app.Button().ID("load-more").Class("btn").Disabled(busy).Text(label).
					OnClick(func(ctx app.Context, e app.Event) {
						c.more.Run(ctx, func(cx context.Context) error {
							_, err := d.api.Posts.Infinite.Fetch(cx, d.ctrl, resources.PageParams(next), nil)
							return err
						}, func(ctx app.Context, err error) {
							if err != nil {
								d.notify(noticeError, "Loading more posts failed. "+errorText(err))
							}
						})
					}, app.EventScope(next))
			}).Else(func() app.UI {
				return app.P().Class("muted").ID("list-end").Text("That is every post.")
			}),
		),
	)
}

// postCount says how many posts the infinite list holds; "" while it is
// not loaded.
func postCount(p *resources.PostsPage) string {
	if p == nil {
		return ""
	}
	return countText(true, len(p.Results), "post")
}

// postList renders posts.
func postList(posts []*resources.Post) app.UI {
	return app.Ul().Class("rows post-list").Body(app.Range(posts).Slice(func(i int) app.UI {
		p := posts[i]
		id := strconv.Itoa(p.ID)
		return app.Li().Class("row post-row").DataSet("id", id).Body(
			app.Div().Class("row-main").Body(
				app.Span().Class("row-title").Text(p.Title),
				app.Div().Class("row-meta").Body(
					app.Span().Class("pk").Text("#"+id),
					app.Span().Class("clamp").Text(p.Content),
				),
			),
		)
	}))
}
