package ui

import (
	"path"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/goapp"
	"github.com/datafetch/datafetch/web/resources"
)

// articlePage shows one article, /articles/{id}, with its author: a second
// read that depends on the first (the author's id comes from the article).
type articlePage struct {
	app.Compo
	d *Demo

	id      string
	article goapp.Query[value.Value]
	act     goapp.Loading
}

func (c *articlePage) OnNav(ctx app.Context) {
	c.id = path.Base(ctx.Page().URL().Path)
	c.article.Use(ctx, c.d.ctrl, df.Raw(c.d.api.Articles.Get), resources.ID(c.id))
}

func (c *articlePage) OnDismount() { c.article.Close() }

func (c *articlePage) Render() app.UI {
	d := c.d
	title := "Article"
	if t := c.article.Data().Get("title").Str(); t != "" {
		title = t
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

func (c *articlePage) renderArticle(a value.Value) app.UI {
	d := c.d
	published := a.Get("published").Boolean()
	toggle := "Publish"
	if published {
		toggle = "Unpublish"
	}
	author, _ := a.Get("author").Text()
	return app.Article().ID("article").DataSet("id", c.id).DataSet("published", published).Body(
		app.Dl().Class("facts").Body(
			app.Dt().Text("Id"), app.Dd().Body(app.Code().Text(c.id)),
			app.Dt().Text("State"), app.Dd().Body(publishedBadge(published)),
			app.Dt().Text("Created"), app.Dd().Text(dateText(a.Get("createdAt"))),
			app.Dt().Text("Tags"), app.Dd().Body(tags(a.Get("tags"))),
			app.Dt().Text("Author"), app.Dd().Body(&authorCard{d: d, UserID: author}),
		),
		app.P().Class("article-content").Text(a.Get("content").Str()),
		app.Div().Class("form-actions").Body(
			app.Button().Class("btn toggle-publish").Text(toggle).OnClick(func(ctx app.Context, e app.Event) {
				d.mutate(ctx, &c.act, "Publishing “"+a.Get("title").Str()+"”", d.api.Articles.PartialUpdate,
					resources.ID(c.id), value.Obj(value.M("published", value.BoolV(!published))), nil)
			}, app.EventScope(c.id, published)),
			app.Button().Class("btn btn-danger delete").Text("Delete").OnClick(func(ctx app.Context, e app.Event) {
				// Optimistic: the article is gone from the list at once,
				// and comes back there if the server refuses.
				d.mutate(ctx, &c.act, "Deleting “"+a.Get("title").Str()+"”", d.api.Articles.Delete,
					resources.ID(c.id), value.Undef, nil)
				ctx.Navigate("/")
			}, app.EventScope(c.id)),
		),
	)
}

// authorCard shows a user by id: a read whose params come from another
// read. Until the id is known its params are null, and it reads nothing.
type authorCard struct {
	app.Compo
	d *Demo

	// UserID is the user to show; "" for none.
	UserID string

	user goapp.Query[value.Value]
}

func (c *authorCard) OnMount(ctx app.Context)  { c.use(ctx) }
func (c *authorCard) OnUpdate(ctx app.Context) { c.use(ctx) }
func (c *authorCard) OnDismount()              { c.user.Close() }

func (c *authorCard) use(ctx app.Context) {
	params := value.NullV
	if c.UserID != "" {
		params = resources.ID(c.UserID)
	}
	c.user.Use(ctx, c.d.ctrl, df.Raw(c.d.api.Users.Get), params)
}

func (c *authorCard) Render() app.UI {
	if c.UserID == "" {
		return app.Span().Class("muted").Text("no author")
	}
	return app.Span().Class("author").Body(
		c.user.Render(c.d.boundary, func(u value.Value) app.UI {
			return app.Span().Body(
				avatar(u.Get("name").Str()),
				app.Span().Class("author-name").Text(u.Get("name").Str()),
				app.Span().Class("muted").Text(" · "+u.Get("email").Str()),
			)
		}),
	)
}
