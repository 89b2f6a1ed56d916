package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/goapp"
)

// articlesPage lists the articles, creates new ones and publishes or
// deletes them, all optimistically.
type articlesPage struct {
	app.Compo
	d *Demo

	list goapp.Query[[]*resources.Article]
	// create runs creates; act runs the rows' publish and delete.
	create, act goapp.Loading

	title, content string
}

func (c *articlesPage) OnMount(ctx app.Context) {
	c.list.Use(ctx, c.d.ctrl, c.d.api.Articles.GetList, resources.ListParams)
}

// OnPreRender reads on the server what OnMount reads in the browser: go-app
// pre-renders the page with it (goapp.Prerender).
func (c *articlesPage) OnPreRender(ctx app.Context) { c.OnMount(ctx) }

func (c *articlesPage) OnDismount() { c.list.Close() }

func (c *articlesPage) Render() app.UI {
	d := c.d
	return d.frame(page{
		path:  "/",
		title: "Articles",
		lede: "GET /articles, normalized into Article entities. Creating, publishing and deleting " +
			"are optimistic: the change shows at once, and is rolled back if the server fails.",
	},
		app.Div().Class("columns wide-left").Body(
			app.Section().Class("card").Body(
				app.Div().Class("card-head").Body(
					app.H2().Text("All articles"),
					app.Span().Class("count").ID("article-count").Text(countText(c.list.State().Has, len(c.list.Data()), "article")),
					refreshing(c.list.Refreshing()),
					revalidateButtons(d, d.api.Articles.GetList, resources.ListParams),
				),
				c.list.Render(d.boundary, c.renderList),
			),
			app.Div().Class("stack").Body(
				c.renderForm(),
				&publishedCard{d: d},
			),
		),
	)
}

func (c *articlesPage) renderList(list []*resources.Article) app.UI {
	if len(list) == 0 {
		return app.P().Class("muted").Text("No articles. Create one.")
	}
	return app.Ul().Class("rows article-list").ID("articles").Body(
		app.Range(list).Slice(func(i int) app.UI {
			return c.renderRow(list[i])
		}),
	)
}

func (c *articlesPage) renderRow(a *resources.Article) app.UI {
	d := c.d
	id := a.ID
	temp := resources.IsTemporary(id)
	published := a.Published

	var title, pk app.UI
	if temp {
		title = app.Span().Class("row-title").Text(a.Title)
		pk = app.Span().Class("pk pk-temp").Title("Temporary id " + id + ": the server has not answered yet").Text("saving…")
	} else {
		title = app.A().Class("row-title").Href("/articles/" + id).Text(a.Title)
		pk = app.Span().Class("pk").Text("#" + id)
	}
	toggleLabel := "Publish"
	if published {
		toggleLabel = "Unpublish"
	}
	row := app.Li().Class("row article-row").DataSet("id", id).DataSet("published", published).Body(
		app.Div().Class("row-main").Body(
			title,
			app.Div().Class("row-meta").Body(
				pk,
				app.If(!a.CreatedAt.IsZero(), func() app.UI {
					return app.Span().Text(dateText(a.CreatedAt))
				}),
				tags(a.Tags),
			),
		),
		app.Div().Class("row-actions").Body(
			publishedBadge(published),
			app.Button().Class("btn btn-small toggle-publish").Disabled(temp).Text(toggleLabel).
				OnClick(func(ctx app.Context, e app.Event) {
					togglePublished(d, ctx, &c.act, a)
				}, app.EventScope(id, published)),
			app.Button().Class("btn btn-small btn-danger delete").Disabled(temp).Text("Delete").
				OnClick(func(ctx app.Context, e app.Event) {
					mutate(d, ctx, &c.act, "Deleting “"+a.Title+"”",
						d.api.Articles.Delete, resources.ID(id), nil, nil)
				}, app.EventScope(id)),
		),
	)
	if temp {
		row = row.Class("row-pending")
	}
	return row
}

func (c *articlesPage) renderForm() app.UI {
	return app.Section().Class("card").Body(
		app.Div().Class("card-head").Body(app.H2().Text("New article")),
		app.Form().Class("form").ID("create-form").OnSubmit(c.onCreate).Body(
			app.Label().For("new-title").Text("Title"),
			app.Input().ID("new-title").Type("text").Required(true).Placeholder("What is it about?").
				Value(c.title).OnInput(c.ValueTo(&c.title)),
			app.Label().For("new-content").Text("Content"),
			app.Textarea().ID("new-content").Rows(4).Placeholder("A few sentences…").
				Attr("value", c.content).OnInput(c.ValueTo(&c.content)),
			app.Div().Class("form-actions").Body(
				app.Button().ID("create").Class("btn btn-primary").Type("submit").Text("Create article"),
				app.If(c.create.Busy(), func() app.UI {
					return app.Span().Class("muted").Text("saving…")
				}),
			),
			app.P().Class("hint").Text("The article is appended to the list at once under a temporary id, "+
				"then takes the id the server assigns."),
		),
	)
}

func (c *articlesPage) onCreate(ctx app.Context, e app.Event) {
	e.PreventDefault()
	title := strings.TrimSpace(c.title)
	if title == "" {
		return
	}
	body := resources.Draft(title, strings.TrimSpace(c.content))
	c.title, c.content = "", ""
	// go-app drops an empty value attribute instead of setting it, so the
	// fields are cleared by hand.
	for _, id := range []string{"new-title", "new-content"} {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Set("value", "")
		}
	}
	// getList.push: the draft is appended to the list at once under its
	// temporary id, which the server's replaces.
	mutate(c.d, ctx, &c.create, "Creating “"+title+"”", c.d.api.Articles.Push, resources.ListParams, body, nil)
}

// togglePublished publishes a draft or unpublishes a published article,
// optimistically; a failure's notice names which of the two failed.
func togglePublished(d *Demo, ctx app.Context, l *goapp.Loading, a *resources.Article) {
	what := "Publishing"
	if a.Published {
		what = "Unpublishing"
	}
	mutate(d, ctx, l, what+" “"+a.Title+"”", d.api.Articles.PartialUpdate,
		resources.ID(a.ID), map[string]bool{"published": !a.Published}, nil)
}

// publishedBadge shows an article's state.
func publishedBadge(published bool) app.UI {
	if published {
		return app.Span().Class("badge badge-valid state").Text("published")
	}
	return app.Span().Class("badge badge-muted state").Text("draft")
}

// tags renders a list of tags.
func tags(list []string) app.UI {
	if len(list) == 0 {
		return nil
	}
	return app.Span().Class("tags").Body(app.Range(list).Slice(func(i int) app.UI {
		return app.Span().Class("tag").Text(list[i])
	}))
}

// publishedCard is a derived view: the published articles sorted by
// title, with their count, read with a Query (Controller.Get) from the
// Article entities any page stored, with no request of its own. It reads
// again after every change of the cache (goapp.Listen); the read is
// memoized, so one that nothing changed costs a lookup. On the server it
// reads the request's controller, after the page's reads.
type publishedCard struct {
	app.Compo
	d *Demo

	read *controller.Controller // the controller to read: goapp.Listen's
	stop func()
}

func (c *publishedCard) OnMount(ctx app.Context)     { c.read, c.stop = goapp.Listen(ctx, c.d.ctrl) }
func (c *publishedCard) OnPreRender(ctx app.Context) { c.read, c.stop = goapp.Listen(ctx, c.d.ctrl) }

func (c *publishedCard) OnDismount() {
	if c.stop != nil {
		c.stop()
		c.stop = nil
	}
}

func (c *publishedCard) Render() app.UI {
	read := c.read
	if read == nil {
		read = c.d.ctrl
	}
	list, err := c.d.api.Articles.Published(read)
	var body app.UI
	switch {
	case err != nil:
		body = app.P().Class("error-text").Text(err.Error())
	case len(list) == 0:
		body = app.P().Class("muted").Text("Nothing published yet.")
	default:
		body = app.Ol().Class("rows published-list").ID("published").Body(
			app.Range(list).Slice(func(i int) app.UI {
				a := list[i]
				return app.Li().Class("row published-row").DataSet("id", a.ID).Body(
					app.A().Class("row-title").Href("/articles/" + a.ID).Text(a.Title),
				)
			}),
		)
	}
	return app.Section().Class("card").ID("published-card").Body(
		app.Div().Class("card-head").Body(
			app.H2().Text("Published, by title"),
			app.Span().Class("count").ID("published-count").Text(countText(true, len(list), "article")),
		),
		app.P().Class("hint").Text("A Query over every stored Article (schema.All): derived in the cache, no request."),
		body,
	)
}
