package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/goapp"
)

// profilesPage lists the profiles and shows one: the list and the detail
// are two results over the same Profile entities.
type profilesPage struct {
	app.Compo
	d *Demo

	list     goapp.Query[[]*resources.Profile]
	selected string
	detail   goapp.Query[*resources.Profile]
}

func (c *profilesPage) OnMount(ctx app.Context) {
	c.list.Use(ctx, c.d.ctrl, c.d.api.Profiles.GetList, nil)
	c.use(ctx)
}

// OnPreRender reads on the server what OnMount reads in the browser: go-app
// pre-renders the page with it (goapp.Prerender).
func (c *profilesPage) OnPreRender(ctx app.Context) { c.OnMount(ctx) }

func (c *profilesPage) OnDismount() {
	c.list.Close()
	c.detail.Close()
}

func (c *profilesPage) use(ctx app.Context) {
	if c.selected == "" {
		c.detail.Close() // nothing selected: read nothing
		return
	}
	c.detail.Use(ctx, c.d.ctrl, c.d.api.Profiles.Get, resources.ID(c.selected))
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
					app.Span().Class("count").Text(countText(c.list.State().Has, len(c.list.Data()), "profile")),
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
					return app.P().Class("muted").Text("Select someone to read their profile (nothing is read until then).")
				}).Else(func() app.UI {
					return c.detail.Render(d.boundary, func(p *resources.Profile) app.UI {
						return app.Div().Class("profile").Body(
							avatar(p.FullName),
							app.H3().Text(p.FullName),
							app.P().Text(p.Bio),
							app.P().Class("muted").Body(app.Text("id "), app.Code().Text(p.ID)),
						)
					})
				}),
			),
		),
	)
}

// renderList shows a profile per row; each row is a button, so it is
// reached with Tab and opened with Enter or Space as well as a click.
func (c *profilesPage) renderList(list []*resources.Profile) app.UI {
	return app.Ul().Class("rows profile-list").Body(app.Range(list).Slice(func(i int) app.UI {
		p := list[i]
		id := p.ID
		btn := app.Button().Type("button").Class("row row-click profile-row").DataSet("id", id).
			OnClick(func(ctx app.Context, e app.Event) {
				c.selected = id
				c.use(ctx)
			}, app.EventScope(id)).Body(
			avatar(p.FullName),
			app.Span().Class("row-main").Body(
				app.Span().Class("row-title").Text(p.FullName),
				app.Span().Class("row-meta").Body(app.Span().Class("clamp").Text(p.Bio)),
			),
		)
		if id == c.selected {
			btn = btn.Class("selected").Aria("current", true)
		}
		return app.Li().Body(btn)
	}))
}
