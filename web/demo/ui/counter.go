package ui

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/goapp"
)

// counterPage increments a singleton counter as fast as one can click.
// Each click is optimistic (+1 at once); with random latency the
// responses arrive out of order, and the Count entity's UseIncoming keeps
// the one with the newest updatedAt, so the count never goes backwards and
// ends at the server's count.
type counterPage struct {
	app.Compo
	d *Demo

	count goapp.Query[*resources.Count]

	mu       sync.Mutex
	sent     int
	answered int
	log      []counterEvent
}

// counterEvent is one answered click: which it was, in what order it was
// answered and what the page showed then.
type counterEvent struct {
	click, order int
	shown        string
	err          bool
}

// counterLogSize bounds the log.
const counterLogSize = 8

func (c *counterPage) OnMount(ctx app.Context) {
	c.count.Use(ctx, c.d.ctrl, c.d.api.Counter.Get, nil)
}

// OnPreRender reads on the server what OnMount reads in the browser: go-app
// pre-renders the page with it (goapp.Prerender).
func (c *counterPage) OnPreRender(ctx app.Context) { c.OnMount(ctx) }

func (c *counterPage) OnDismount() { c.count.Close() }

func (c *counterPage) onClick(ctx app.Context, e app.Event) {
	d := c.d
	c.mu.Lock()
	c.sent++
	click := c.sent
	c.mu.Unlock()
	ctx.Async(func() {
		_, err := d.api.Counter.Increment.Fetch(context.Background(), d.ctrl, nil, resources.IncrementBody(time.Now()))
		d.setFailArmed(false)
		if err != nil {
			d.notify(noticeError, fmt.Sprintf("Click #%d failed, so its +1 was rolled back. %s", click, errorText(err)))
		}
		shown := "?"
		if r := d.api.Counter.Get.Response(d.ctrl, nil); r.Data != nil {
			shown = strconv.Itoa(r.Data.Count)
		}
		c.mu.Lock()
		c.answered++
		c.log = append(c.log, counterEvent{click: click, order: c.answered, shown: shown, err: err != nil})
		if len(c.log) > counterLogSize {
			c.log = c.log[len(c.log)-counterLogSize:]
		}
		c.mu.Unlock()
		ctx.Update()
	})
}

func (c *counterPage) Render() app.UI {
	d := c.d
	c.mu.Lock()
	inFlight := c.sent - c.answered
	log := append([]counterEvent(nil), c.log...)
	c.mu.Unlock()
	return d.frame(page{
		path:  "/counter",
		title: "Counter",
		lede: "POST /api/count/increment with an optimistic +1. Turn on random latency and click fast: " +
			"responses come back out of order, and useIncoming keeps the newest by updatedAt.",
	},
		app.Div().Class("columns").Body(
			app.Section().Class("card counter-card").Body(
				app.Div().Class("card-head").Body(
					app.H2().Text("Count"),
					refreshing(c.count.Refreshing()),
				),
				c.count.Render(d.boundary, func(v *resources.Count) app.UI {
					return app.Div().Class("counter").Body(
						app.Output().Class("counter-value").ID("count").Text(strconv.Itoa(v.Count)),
						app.P().Class("muted").Body(
							app.Text("updatedAt "),
							app.Code().ID("count-updated").Text(clockText(v.UpdatedAt)),
						),
					)
				}),
				app.Div().Class("form-actions").Body(
					app.Button().ID("increment").Class("btn btn-primary btn-big").Text("+1").OnClick(c.onClick),
					app.Span().Class("muted").ID("in-flight").DataSet("n", inFlight).
						Text(fmt.Sprintf("%d in flight", inFlight)),
				),
			),
			app.Section().Class("card").Body(
				app.Div().Class("card-head").Body(app.H2().Text("Answers, in arrival order")),
				app.If(len(log) == 0, func() app.UI {
					return app.P().Class("muted").Text("Click +1 a few times.")
				}),
				app.Ol().Class("log").ID("counter-log").Body(app.Range(log).Slice(func(i int) app.UI {
					ev := log[i]
					text := fmt.Sprintf("click #%d answered %s; count shows %s", ev.click, ordinal(ev.order), ev.shown)
					if ev.err {
						text = fmt.Sprintf("click #%d failed (%s answer); rolled back to %s", ev.click, ordinal(ev.order), ev.shown)
					}
					cls := "log-line"
					if ev.click != ev.order {
						cls += " log-reordered"
					}
					return app.Li().Class(cls).Text(text)
				})),
			),
		),
	)
}

// ordinal writes n as "1st", "2nd", "3rd", "4th"...
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
