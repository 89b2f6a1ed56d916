package ui

import (
	"path"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/goapp"
)

// articlePage shows one article, /articles/{id}, with its author: a second
// read that depends on the first (the author's id comes from the article).
type articlePage struct {
	app.Compo
	d *Demo

	id      string
	article goapp.Query[*resources.Article]
	act     goapp.Loading
}

func (c *articlePage) OnNav(ctx app.Context) {
	c.id = path.Base(ctx.Page().URL().Path)
	c.article.Use(ctx, c.d.ctrl, c.d.api.Articles.Get, resources.ID(c.id))
}

func (c *articlePage) OnDismount() { c.article.Close() }

func (c *articlePage) Render() app.UI {
	d := c.d
	title := "Article"
	if a := c.article.Data(); a != nil && a.Title != "" {
		title = a.Title
	}
	return d.frame(page{
		path:  "/",
		title: title,
		lede:  "GET /articles/" + c.id + ": the same Article entity the list shows, so a change here shows there.",
	},
		app.A().Class("back").Href("/").Text("← All articles"),
		app.Section().Class("card article-detail").Body(
			app.Div().Class("card-head").Body(
				app.H2().Text("Details"),
				refreshing(c.article.Refreshing()),
				revalidateButtons(d, d.api.Articles.Get, resources.ID(c.id)),
			),
			c.article.Render(d.boundary, c.renderArticle),
		),
	)
}

func (c *articlePage) renderArticle(a *resources.Article) app.UI {
	d := c.d
	published := a.Published
	toggle := "Publish"
	if published {
		toggle = "Unpublish"
	}
	return app.Article().ID("article").DataSet("id", c.id).DataSet("published", published).Body(
		app.Dl().Class("facts").Body(
			app.Dt().Text("Id"), app.Dd().Body(app.Code().Text(c.id)),
			app.Dt().Text("State"), app.Dd().Body(publishedBadge(published)),
			app.Dt().Text("Created"), app.Dd().Text(dateText(a.CreatedAt)),
			app.Dt().Text("Tags"), app.Dd().Body(tags(a.Tags)),
			app.Dt().Text("Author"), app.Dd().Body(&authorCard{d: d, UserID: a.Author}),
		),
		app.P().Class("article-content").Text(a.Content),
		app.Div().Class("form-actions").Body(
			app.Button().Class("btn toggle-publish").Text(toggle).OnClick(func(ctx app.Context, e app.Event) {
				togglePublished(d, ctx, &c.act, a)
			}, app.EventScope(c.id, published)),
			app.Button().Class("btn btn-danger delete").Text("Delete").OnClick(func(ctx app.Context, e app.Event) {
				// Optimistic: the article is gone from the list at once,
				// and comes back there if the server refuses.
				mutate(d, ctx, &c.act, "Deleting “"+a.Title+"”", d.api.Articles.Delete,
					resources.ID(c.id), nil, nil)
				ctx.Navigate("/")
			}, app.EventScope(c.id)),
		),
	)
}

// authorCard shows a user by id: a read whose params come from another
// read. Without an id it reads nothing.
type authorCard struct {
	app.Compo
	d *Demo

	// UserID is the user to show; 0 for none.
	UserID int

	user goapp.Query[*resources.User]
}

func (c *authorCard) OnMount(ctx app.Context)     { c.use(ctx) }
func (c *authorCard) OnPreRender(ctx app.Context) { c.use(ctx) }
func (c *authorCard) OnUpdate(ctx app.Context)    { c.use(ctx) }
func (c *authorCard) OnDismount()                 { c.user.Close() }

func (c *authorCard) use(ctx app.Context) {
	if c.UserID == 0 {
		c.user.Close() // no author: read nothing
		return
	}
	c.user.Use(ctx, c.d.ctrl, c.d.api.Users.Get, resources.UserID(c.UserID))
}

func (c *authorCard) Render() app.UI {
	if c.UserID == 0 {
		return app.Span().Class("muted").Text("no author")
	}
	b := goapp.Boundary{Fallback: authorPlaceholder, Error: c.d.boundary.Error}
	return app.Span().Class("author").Body(
		c.user.Render(b, func(u *resources.User) app.UI {
			return app.Span().Body(
				avatar(u.Name),
				app.Span().Class("author-name").Text(u.Name),
				app.Span().Class("muted").Text(" · "+u.Email),
			)
		}),
	)
}

// authorPlaceholder stands in for the author while the user loads: an
// avatar-sized circle and a name-sized bar on the author's line, so the
// details keep their height instead of opening a gap.
func authorPlaceholder() app.UI {
	return app.Span().Class("author-placeholder").Aria("busy", "true").Body(
		app.Span().Class("skeleton-dot"),
		app.Span().Class("skeleton-bar"),
		app.Span().Class("visually-hidden").Text("Loading the author…"),
	)
}
