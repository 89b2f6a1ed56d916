package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// cachePage shows the cache inspector full size, with every record.
type cachePage struct {
	app.Compo
	d *Demo
}

func (c *cachePage) Render() app.UI {
	return c.d.frame(page{
		path:  "/cache",
		title: "Cache inspector",
		lede: "controller.State(): the normalized entities by type, each endpoint result with its " +
			"expiry status and time left, and the optimistic updates waiting for the server. Live.",
	},
		app.Div().Class("card").Body(&inspector{d: c.d, Full: true}),
	)
}
