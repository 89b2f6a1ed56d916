package ui

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/goapp"
)

// commentsPage reads the comments of a post in the two envelopes of the
// API, a bare array and {data: [...]}, which normalize into the same
// Comment entities.
type commentsPage struct {
	app.Compo
	d *Demo

	postID  int
	plain   goapp.Query[[]*resources.Comment]
	wrapped goapp.Query[*resources.WrappedComments]
}

// commentPosts are the posts that have comments.
const commentPosts = 6

func (c *commentsPage) OnMount(ctx app.Context) {
	if c.postID == 0 {
		c.postID = 1
	}
	c.use(ctx)
}

// OnPreRender reads on the server what OnMount reads in the browser: go-app
// pre-renders the page with it (goapp.Prerender).
func (c *commentsPage) OnPreRender(ctx app.Context) { c.OnMount(ctx) }

func (c *commentsPage) OnDismount() {
	c.plain.Close()
	c.wrapped.Close()
}

func (c *commentsPage) use(ctx app.Context) {
	params := map[string]int{"postId": c.postID}
	c.plain.Use(ctx, c.d.ctrl, c.d.api.Comments.List, params)
	c.wrapped.Use(ctx, c.d.ctrl, c.d.api.Comments.Wrapped, params)
}

func (c *commentsPage) Render() app.UI {
	d := c.d
	tabs := make([]app.UI, commentPosts)
	for i := range tabs {
		id := i + 1
		b := app.Button().Class("tab").Text("Post "+strconv.Itoa(id)).OnClick(func(ctx app.Context, e app.Event) {
			c.postID = id
			c.use(ctx)
		}, app.EventScope(id))
		if id == c.postID {
			b = b.Class("active").Aria("selected", true)
		}
		tabs[i] = b
	}
	return d.frame(page{
		path:  "/comments",
		title: "Comments",
		lede: "GET /comments?postId=… answers a bare array; GET /wrapped/comments?postId=… answers " +
			"{data: [...]}. Two endpoints, two schemas, one set of Comment entities in the cache.",
	},
		app.Div().Class("tabs").Role("tablist").Body(tabs...),
		app.Div().Class("columns").Body(
			app.Section().Class("card").ID("comments-plain").Body(
				app.Div().Class("card-head").Body(
					app.H2().Text("Plain"),
					app.Code().Class("schema").Text("[Comment]"),
					refreshing(c.plain.Refreshing()),
				),
				c.plain.Render(d.boundary, commentList),
			),
			app.Section().Class("card").ID("comments-wrapped").Body(
				app.Div().Class("card-head").Body(
					app.H2().Text("Wrapped"),
					app.Code().Class("schema").Text("{data: [Comment]}"),
					refreshing(c.wrapped.Refreshing()),
				),
				c.wrapped.Render(d.boundary, func(v *resources.WrappedComments) app.UI { return commentList(v.Data) }),
			),
		),
	)
}

// commentList renders comments.
func commentList(list []*resources.Comment) app.UI {
	return app.Ul().Class("rows comment-list").Body(app.Range(list).Slice(func(i int) app.UI {
		cm := list[i]
		id := strconv.Itoa(cm.ID)
		return app.Li().Class("row comment-row").DataSet("id", id).Body(
			app.Div().Class("row-main").Body(
				app.Span().Class("row-title").Text(cm.Name),
				app.Div().Class("row-meta").Body(
					app.Span().Class("pk").Text("#"+id),
					app.Span().Text(cm.Email),
				),
				app.P().Class("comment-body").Text(strings.ReplaceAll(cm.Body, "\n", " ")),
			),
		)
	}))
}
