package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/goapp"
)

// accountPage shows the current user and the team, and makes people
// managers. /current_user/ and /users answer the same User entities, so
// promoting yourself in the team list updates your own card too.
type accountPage struct {
	app.Compo
	d *Demo

	me   goapp.Query[*resources.User]
	team goapp.Query[[]*resources.User]
	act  goapp.Loading
}

func (c *accountPage) OnMount(ctx app.Context) {
	c.me.Use(ctx, c.d.ctrl, c.d.api.Users.Current, nil)
	c.team.Use(ctx, c.d.ctrl, c.d.api.Users.GetList, nil)
}

// OnPreRender reads on the server what OnMount reads in the browser: go-app
// pre-renders the page with it (goapp.Prerender).
func (c *accountPage) OnPreRender(ctx app.Context) { c.OnMount(ctx) }

func (c *accountPage) OnDismount() {
	c.me.Close()
	c.team.Close()
}

func (c *accountPage) makeManager(ctx app.Context, u *resources.User) {
	mutate(c.d, ctx, &c.act, "Making "+u.Name+" a manager",
		c.d.api.Users.MakeManager, resources.UserID(u.ID), nil, nil)
}

func (c *accountPage) Render() app.UI {
	d := c.d
	return d.frame(page{
		path:  "/account",
		title: "Current user",
		lede: "GET /current_user/ and POST /users/{id}/make_manager (optimistic). Both answer User " +
			"entities, so every place that shows a user updates together.",
	},
		app.Div().Class("columns").Body(
			app.Section().Class("card").ID("current-user").Body(
				app.Div().Class("card-head").Body(
					app.H2().Text("Signed in as"),
					refreshing(c.me.Refreshing()),
				),
				c.me.Render(d.boundary, func(u *resources.User) app.UI {
					manager := u.IsManager
					return app.Div().Class("profile").DataSet("manager", manager).Body(
						avatar(u.Name),
						app.H3().Text(u.Name),
						app.P().Class("muted").Text(u.Email),
						roleBadge(manager),
						app.Div().Class("form-actions").Body(
							app.Button().ID("make-me-manager").Class("btn btn-primary").Disabled(manager).
								Text("Make me a manager").
								OnClick(func(ctx app.Context, e app.Event) { c.makeManager(ctx, u) }, app.EventScope(u.ID)),
						),
					)
				}),
			),
			app.Section().Class("card").ID("team").Body(
				app.Div().Class("card-head").Body(
					app.H2().Text("Team"),
					app.Span().Class("count").Text(countText(c.team.State().Has, len(c.team.Data()), "person")),
					refreshing(c.team.Refreshing()),
				),
				c.team.Render(d.boundary, func(list []*resources.User) app.UI {
					return app.Ul().Class("rows").Body(app.Range(list).Slice(func(i int) app.UI {
						u := list[i]
						manager := u.IsManager
						return app.Li().Class("row user-row").DataSet("id", u.ID).Body(
							avatar(u.Name),
							app.Div().Class("row-main").Body(
								app.Span().Class("row-title").Text(u.Name),
								app.Div().Class("row-meta").Body(roleBadge(manager), app.Span().Text(u.Email)),
							),
							app.Div().Class("row-actions").Body(
								app.Button().Class("btn btn-small make-manager").Disabled(manager).Text("Make manager").
									OnClick(func(ctx app.Context, e app.Event) { c.makeManager(ctx, u) }, app.EventScope(u.ID)),
							),
						)
					}))
				}),
			),
		),
	)
}

// roleBadge shows whether a user is a manager.
func roleBadge(manager bool) app.UI {
	if manager {
		return app.Span().Class("badge badge-valid role").Text("manager")
	}
	return app.Span().Class("badge badge-muted role").Text("member")
}
