package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// persistToggle is the top bar's "Keep cache" box: with it on, the cache
// is kept in the browser (Persistence) and a reload shows the data it
// held without asking the server.
type persistToggle struct {
	app.Compo
	d *Demo
}

func (c *persistToggle) Render() app.UI {
	on := c.d.persistence.Enabled()
	return app.Label().Class("persist-toggle").
		Title("Keep the cache in this browser (localStorage): a reload shows what it held with no request").
		Body(
			app.Input().Type("checkbox").ID("persist").Checked(on).OnChange(c.onChange),
			app.Text("Keep cache"),
		)
}

func (c *persistToggle) onChange(ctx app.Context, e app.Event) {
	on := ctx.JSSrc().Get("checked").Bool()
	if err := c.d.persistence.SetEnabled(on); err != nil {
		c.d.notify(noticeError, "Could not change the persistence: "+err.Error())
		ctx.JSSrc().Set("checked", c.d.persistence.Enabled())
		return
	}
	if on {
		c.d.notify(noticeInfo, "The cache is kept in this browser: reload the page and the data is there with no request.")
	} else {
		c.d.notify(noticeInfo, "The cache is no longer kept; what was kept is forgotten.")
	}
}
