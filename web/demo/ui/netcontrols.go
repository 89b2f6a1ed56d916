package ui

import (
	"context"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/goapp"
)

// netControls are the network controls of the top bar: added latency
// (fixed or random), "fail the next mutation" and a reset of the server's
// data. They drive the REST API's /_control/ routes, so optimistic
// updates, rollbacks and out-of-order responses can be watched.
type netControls struct {
	app.Compo
	d *Demo

	// Armed mirrors Demo.failArmed. It is set by the frame, so that the
	// page's update after a mutation (which spends the failure) updates
	// the button too.
	Armed bool

	// draftMS is the latency shown while the slider moves.
	draftMS int
	busy    goapp.Loading
}

func (c *netControls) OnMount(app.Context) { c.draftMS = c.d.latencyMS }

func (c *netControls) Render() app.UI {
	d := c.d
	fail := app.Button().ID("fail-next").Class("btn btn-warn").
		Title("The server answers the next POST, PUT, PATCH or DELETE with a 500").
		Text("Fail next mutation").OnClick(c.onFailNext)
	if d.armed() {
		fail = fail.Class("armed").Aria("pressed", true).Text("Next mutation fails")
	}
	// data-busy is "false" once the server has taken the last setting.
	return app.Div().Class("netctl").DataSet("busy", c.busy.Busy()).Body(
		app.Label().Class("netctl-latency").For("latency").Body(
			app.Span().Class("netctl-label").Text("Latency"),
		),
		app.Input().Type("range").ID("latency").Min(0).Max(3000).Step(100).
			Value(c.draftMS).
			Aria("valuetext", latencyText(c.draftMS, d.random)).
			OnInput(c.onLatencyInput).
			OnChange(c.onLatencyChange),
		app.Output().ID("latency-value").For("latency").Text(latencyText(c.draftMS, d.random)),
		app.Label().Class("netctl-random").Body(
			app.Input().Type("checkbox").ID("latency-random").Checked(d.random).OnChange(c.onRandom),
			app.Text("random"),
		),
		fail,
		app.Button().ID("fail-gets").Class("btn btn-warn").
			Title(fmt.Sprintf("The server answers the next %d GETs with a 503; reads retry up to %d times", failedGets, readRetries)).
			Text(fmt.Sprintf("Fail next %d GETs", failedGets)).OnClick(c.onFailGets),
		app.Button().ID("reset-data").Class("btn btn-ghost").
			Title("Restore the server's seed data and empty the cache").
			Text("Reset data").OnClick(c.onReset),
	)
}

// latencyText describes the latency setting, as "1.2 s" or "0–1.2 s".
func latencyText(ms int, random bool) string {
	s := fmt.Sprintf("%.1f s", float64(ms)/1000)
	if ms == 0 {
		return "none"
	}
	if random {
		return "0–" + s
	}
	return s
}

func (c *netControls) onLatencyInput(ctx app.Context, e app.Event) {
	fmt.Sscan(ctx.JSSrc().Get("value").String(), &c.draftMS)
}

func (c *netControls) onLatencyChange(ctx app.Context, e app.Event) {
	fmt.Sscan(ctx.JSSrc().Get("value").String(), &c.draftMS)
	c.d.latencyMS = c.draftMS
	c.apply(ctx)
}

func (c *netControls) onRandom(ctx app.Context, e app.Event) {
	c.d.random = ctx.JSSrc().Get("checked").Bool()
	c.apply(ctx)
}

// apply sends the latency setting to the server.
func (c *netControls) apply(ctx app.Context) {
	ms, random := c.d.latencyMS, c.d.random
	c.busy.Run(ctx, func(cx context.Context) error {
		return c.d.control.setLatency(cx, ms, random)
	}, func(ctx app.Context, err error) {
		if err != nil {
			c.d.notify(noticeError, "Could not set the latency: "+err.Error())
		}
	})
}

func (c *netControls) onFailNext(ctx app.Context, e app.Event) {
	c.d.setFailArmed(true)
	c.Armed = true
	c.busy.Run(ctx, c.d.control.failNext, func(ctx app.Context, err error) {
		if err != nil {
			c.d.setFailArmed(false)
			c.d.notify(noticeError, "Could not arm the failure: "+err.Error())
		}
	})
}

// failedGets is how many reads "fail the next GETs" fails: as many as the
// demo's reads retry, so a read survives it (readRetries).
const failedGets = readRetries

func (c *netControls) onFailGets(ctx app.Context, e app.Event) {
	d := c.d
	c.busy.Run(ctx, func(cx context.Context) error {
		return d.control.failNextGets(cx, failedGets)
	}, func(ctx app.Context, err error) {
		if err != nil {
			d.notify(noticeError, "Could not arm the failures: "+err.Error())
			return
		}
		d.notify(noticeInfo, fmt.Sprintf("The next %d reads fail with a 503: refresh a result to watch it retry.", failedGets))
	})
}

func (c *netControls) onReset(ctx app.Context, e app.Event) {
	d := c.d
	c.busy.Run(ctx, d.control.reset, func(ctx app.Context, err error) {
		if err != nil {
			d.notify(noticeError, "Could not reset the server: "+err.Error())
			return
		}
		d.latencyMS, d.random = 0, false
		d.setFailArmed(false)
		c.draftMS, c.Armed = 0, false
		// Every result on screen is refetched from the fresh data.
		d.ctrl.ResetEntireStore()
		d.notify(noticeInfo, "Server data reset to the seed; the cache was emptied.")
	})
}
