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
		lede: "core/inspect's model of the controller, the one df.inspect shows in JavaScript: the " +
			"normalized entities by type, each endpoint result with its expiry status and time left, " +
			"the optimistic updates waiting for the server, the requests in flight and the last errors. Live.",
	},
		app.Div().Class("card").Body(c.d.inspector(true)),
	)
}
