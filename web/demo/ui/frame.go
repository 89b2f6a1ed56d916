package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// navItem is one entry of the side navigation.
type navItem struct {
	path, title, hint string
}

// navItems lists the pages in navigation order.
var navItems = []navItem{
	{"/", "Articles", "CRUD, optimistic"},
	{"/counter", "Counter", "ordering"},
	{"/posts", "Posts", "pagination"},
	{"/comments", "Comments", "plain & wrapped"},
	{"/profiles", "Profiles", "list & detail"},
	{"/birthdays", "Birthdays", "nested lists"},
	{"/account", "Current user", "make manager"},
	{"/cache", "Cache inspector", "live store"},
}

// page describes the page a frame holds.
type page struct {
	// path is the navigation entry to highlight.
	path string
	// title and lede head the page.
	title, lede string
}

// frame lays a page out: the top bar with the network controls, the side
// navigation, the page's content and, when open, the cache inspector.
func (d *Demo) frame(p page, content ...app.UI) app.UI {
	showPanel := d.showInspector && p.path != "/cache"
	return app.Div().Class("app").ID("demo").Body(
		app.Header().Class("topbar").Body(
			app.A().Class("brand").Href("/").Body(
				app.Img().Src("/web/icon.svg").Alt("").Width(28).Height(28),
				app.Span().Class("brand-name").Text("datafetch"),
				app.Span().Class("brand-sub").Text("go-app demo"),
			),
			&netControls{d: d, Armed: d.armed()},
			app.Div().Class("topbar-links").Body(
				app.If(d.persistence != nil, func() app.UI { return &persistToggle{d: d} }),
				// A full page load, not go-app's in-app navigation: the
				// inline handler keeps the click from go-app's listener.
				app.A().Class("toplink").Href("/index.html").Attr("onclick", "event.stopPropagation()").
					Text("Plain JS page"),
				app.Button().ID("toggle-inspector").Class("btn btn-ghost").
					Aria("pressed", strconv.FormatBool(d.showInspector)).
					Text("Inspector").
					OnClick(func(app.Context, app.Event) { d.showInspector = !d.showInspector }),
			),
		),
		app.Nav().Class("sidebar").Aria("label", "Pages").Body(
			app.Ul().Body(app.Range(navItems).Slice(func(i int) app.UI {
				it := navItems[i]
				a := app.A().Href(it.path).Body(
					app.Span().Class("nav-title").Text(it.title),
					app.Span().Class("nav-hint").Text(it.hint),
				)
				if it.path == p.path {
					a = a.Class("active").Aria("current", "page")
				}
				return app.Li().Body(a)
			})),
		),
		app.Main().Class("content").Body(
			app.Div().Class("page-head").Body(
				app.H1().Text(p.title),
				app.P().Class("lede").Text(p.lede),
			),
			app.Div().Class("page-body").Body(content...),
		),
		app.If(showPanel, func() app.UI {
			return app.Aside().Class("inspector-panel").Aria("label", "Cache inspector").Body(d.inspector(false))
		}),
		&notices{d: d},
	)
}
