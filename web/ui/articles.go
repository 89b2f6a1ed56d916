package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/goapp"
	"github.com/datafetch/datafetch/web/resources"
)

// articlesPage lists the articles, creates new ones and publishes or
// deletes them, all optimistically.
type articlesPage struct {
	app.Compo
	d *Demo

	list goapp.Query[value.Value]
	// create runs creates; act runs the rows' publish and delete.
	create, act goapp.Loading

	title, content string
}

func (c *articlesPage) OnMount(ctx app.Context) {
	c.list.Use(ctx, c.d.ctrl, df.Raw(c.d.api.Articles.GetList), resources.ListParams)
}

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
					app.Span().Class("count").ID("article-count").Text(countText(c.list.Data(), "article")),
					refreshing(c.list.Refreshing()),
					revalidateButtons(d, d.api.Articles.GetList, resources.ListParams),
				),
				c.list.Render(d.boundary, c.renderList),
			),
			c.renderForm(),
		),
	)
}

func (c *articlesPage) renderList(list value.Value) app.UI {
	if list.Len() == 0 {
		return app.P().Class("muted").Text("No articles. Create one.")
	}
	return app.Ul().Class("rows article-list").ID("articles").Body(
		app.Range(list.Elems()).Slice(func(i int) app.UI {
			return c.renderRow(list.Elems()[i])
		}),
	)
}

func (c *articlesPage) renderRow(a value.Value) app.UI {
	d := c.d
	id := a.Get("id").Str()
	temp := resources.IsTemporary(id)
	published := a.Get("published").Boolean()

	var title, pk app.UI
	if temp {
		title = app.Span().Class("row-title").Text(a.Get("title").Str())
		pk = app.Span().Class("pk pk-temp").Title("Temporary id " + id + ": the server has not answered yet").Text("saving…")
	} else {
		title = app.A().Class("row-title").Href("/articles/" + id).Text(a.Get("title").Str())
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
				app.If(!a.Get("createdAt").IsNullish(), func() app.UI {
					return app.Span().Text(dateText(a.Get("createdAt")))
				}),
				tags(a.Get("tags")),
			),
		),
		app.Div().Class("row-actions").Body(
			publishedBadge(published),
			app.Button().Class("btn btn-small toggle-publish").Disabled(temp).Text(toggleLabel).
				OnClick(func(ctx app.Context, e app.Event) {
					d.mutate(ctx, &c.act, "Publishing “"+a.Get("title").Str()+"”",
						d.api.Articles.PartialUpdate, resources.ID(id),
						value.Obj(value.M("published", value.BoolV(!published))), nil)
				}, app.EventScope(id, published)),
			app.Button().Class("btn btn-small btn-danger delete").Disabled(temp).Text("Delete").
				OnClick(func(ctx app.Context, e app.Event) {
					d.mutate(ctx, &c.act, "Deleting “"+a.Get("title").Str()+"”",
						d.api.Articles.Delete, resources.ID(id), value.Undef, nil)
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
	c.d.mutate(ctx, &c.create, "Creating “"+title+"”", c.d.api.Articles.Create, value.Obj(), body, nil)
}

// publishedBadge shows an article's state.
func publishedBadge(published bool) app.UI {
	if published {
		return app.Span().Class("badge badge-valid state").Text("published")
	}
	return app.Span().Class("badge badge-muted state").Text("draft")
}

// tags renders a list of tag strings.
func tags(v value.Value) app.UI {
	if v.Len() == 0 {
		return nil
	}
	return app.Span().Class("tags").Body(app.Range(v.Elems()).Slice(func(i int) app.UI {
		return app.Span().Class("tag").Text(v.Elems()[i].Str())
	}))
}
