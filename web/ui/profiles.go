package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/goapp"
	"github.com/datafetch/datafetch/web/resources"
)

// profilesPage lists the profiles and shows one: the list and the detail
// are two results over the same Profile entities.
type profilesPage struct {
	app.Compo
	d *Demo

	list     goapp.Query[value.Value]
	selected string
	detail   goapp.Query[value.Value]
}

func (c *profilesPage) OnMount(ctx app.Context) {
	c.list.Use(ctx, c.d.ctrl, df.Raw(c.d.api.Profiles.GetList), value.Obj())
	c.use(ctx)
}

func (c *profilesPage) OnDismount() {
	c.list.Close()
	c.detail.Close()
}

func (c *profilesPage) use(ctx app.Context) {
	params := value.NullV // nothing selected: read nothing
	if c.selected != "" {
		params = resources.ID(c.selected)
	}
	c.detail.Use(ctx, c.d.ctrl, df.Raw(c.d.api.Profiles.Get), params)
}

func (c *profilesPage) Render() app.UI {
	d := c.d
	return d.frame(page{
		path:  "/profiles",
		title: "Profiles",
		lede:  "GET /profiles and GET /profiles/{id}. Pick a profile: its detail is a second endpoint, read from the entities the list stored, with no request.",
	},
		app.Div().Class("columns").Body(
			app.Section().Class("card").Body(
				app.Div().Class("card-head").Body(
					app.H2().Text("People"),
					app.Span().Class("count").Text(countText(c.list.Data(), "profile")),
					refreshing(c.list.Refreshing()),
				),
				c.list.Render(d.boundary, c.renderList),
			),
			app.Section().Class("card").ID("profile-detail").Body(
				app.Div().Class("card-head").Body(
					app.H2().Text("Profile"),
					refreshing(c.detail.Refreshing()),
				),
				app.If(c.selected == "", func() app.UI {
					return app.P().Class("muted").Text("Select someone to read their profile (params are null until then).")
				}).Else(func() app.UI {
					return c.detail.Render(d.boundary, func(p value.Value) app.UI {
						return app.Div().Class("profile").Body(
							avatar(p.Get("fullName").Str()),
							app.H3().Text(p.Get("fullName").Str()),
							app.P().Text(p.Get("bio").Str()),
							app.P().Class("muted").Body(app.Text("id "), app.Code().Text(p.Get("id").Str())),
						)
					})
				}),
			),
		),
	)
}

func (c *profilesPage) renderList(list value.Value) app.UI {
	return app.Ul().Class("rows profile-list").Body(app.Range(list.Elems()).Slice(func(i int) app.UI {
		p := list.Elems()[i]
		id := p.Get("id").Str()
		row := app.Li().Class("row row-click profile-row").DataSet("id", id).
			OnClick(func(ctx app.Context, e app.Event) {
				c.selected = id
				c.use(ctx)
			}, app.EventScope(id)).Body(
			avatar(p.Get("fullName").Str()),
			app.Div().Class("row-main").Body(
				app.Span().Class("row-title").Text(p.Get("fullName").Str()),
				app.Div().Class("row-meta").Body(app.Span().Class("clamp").Text(p.Get("bio").Str())),
			),
		)
		if id == c.selected {
			row = row.Class("selected").Aria("current", true)
		}
		return row
	}))
}
