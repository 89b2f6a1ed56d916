package goapp

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/inspect"
)

// DefaultInspectorInterval is how often an [Inspector] looks again when
// its Interval is 0: the time left and the requests in flight change with
// no change to the store.
const DefaultInspectorInterval = 250 * time.Millisecond

// Inspector is a go-app component that shows a controller's cache live:
// the entities by type, the endpoint results with their expiry status and
// time left, the optimistic queue, the requests in flight and the last
// errors. Its rows are core/inspect's model, the one df.inspect renders in
// JavaScript. Drop it into any page:
//
//	app.Aside().Body(&goapp.Inspector{Ctrl: ctrl, Prefix: apiBase})
//
// It renders again when the controller's data changes (Controller.Listen)
// and looks again every Interval for what changes with no store change
// (the time left, requests in flight), rendering only when what it shows
// has changed; it stops both when it is dismounted. On a server it shows
// the cache of the page's request (see [Prerender]) as it is once the
// page's reads are done, and starts no timer.
//
// It brings no style. Its markup, for a style sheet: a section.insp (with
// ID when set) holding .insp-head (an h2 and .insp-live), p.insp-summary of
// five span.stat (ids insp-entities, insp-results, insp-optimistic,
// insp-requests, insp-errors, each a strong count and a label), then h3
// headings each with a list or a p.muted for "none": ul.insp-types of
// li[data-type] (summary: .insp-type, .insp-count; with Full, a
// details with div.insp-scroll > table.insp-records of the records),
// ul.insp-results of li[data-status][data-key], ul.insp-queue
// (optimistic), ul.insp-queue.insp-requests of li[data-key], and
// ul.insp-results.insp-errors. A row holds a .badge with .badge-<status>
// (valid, stale, invalid, error, optimistic), code.insp-key (the label;
// the full key as its title), span.insp-ttl (time left or age) and, for
// an error, span.insp-error. With Full, the lists sit in div.insp-full's
// two columns.
type Inspector struct {
	app.Compo

	// Ctrl is the controller shown.
	Ctrl *controller.Controller
	// Prefix is cut from the start of result keys in labels (the API base,
	// as "https://example.com/rest"), as inspect.Options.Prefix.
	Prefix string
	// Full shows every entity's record, not just counts per type.
	Full bool
	// ID is the section's id; "" sets none.
	ID string
	// Title is the heading; "" is "Cache".
	Title string
	// Interval is how often it looks again; 0 is DefaultInspectorInterval.
	Interval time.Duration
	// AfterFunc replaces time.AfterFunc for its timer (as
	// controller.Options.AfterFunc); tests pass a fake.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)

	model   inspect.Model
	shown   string // model.Value() as JSON: equal text, equal view
	changed bool   // the store changed since model.State was taken
	// read is the controller read: Ctrl, or on the server the page
	// request's.
	read       *controller.Controller
	prerender  bool
	stopListen func()
	stopTimer  func() bool
	stopped    bool
}

// OnMount starts watching Ctrl.
func (c *Inspector) OnMount(ctx app.Context) {
	c.stopped = false
	c.read = c.Ctrl
	c.refresh(true)
	c.stopListen = c.Ctrl.Listen(func() {
		ctx.Dispatch(func(ctx app.Context) {
			if c.stopped {
				return
			}
			c.changed = true
			if !c.refresh(false) {
				ctx.PreventUpdate()
			}
		})
	})
	c.schedule(ctx)
}

// OnPreRender reads the page request's controller on a server ([Listen]);
// where OnServer is false (go-app's test engine) it is OnMount.
func (c *Inspector) OnPreRender(ctx app.Context) {
	if !OnServer {
		c.OnMount(ctx)
		return
	}
	c.read, _ = Listen(ctx, c.Ctrl)
	c.prerender = true
}

// OnDismount stops the listener and the timer.
func (c *Inspector) OnDismount() {
	c.stopped = true
	if c.stopListen != nil {
		c.stopListen()
		c.stopListen = nil
	}
	if c.stopTimer != nil {
		c.stopTimer()
		c.stopTimer = nil
	}
}

// schedule starts the timer of the next look, which runs on the UI
// goroutine and starts the one after, until dismount.
func (c *Inspector) schedule(ctx app.Context) {
	after := c.AfterFunc
	if after == nil {
		after = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	d := c.Interval
	if d <= 0 {
		d = DefaultInspectorInterval
	}
	c.stopTimer = after(d, func() {
		ctx.Dispatch(func(ctx app.Context) {
			if c.stopped {
				return
			}
			if !c.refresh(false) {
				ctx.PreventUpdate()
			}
			c.schedule(ctx)
		})
	})
}

// refresh derives the model now, taking a new State snapshot when the
// store changed (or all is set), and reports whether what it shows
// changed. Time is rounded to the second, the precision shown.
func (c *Inspector) refresh(all bool) bool {
	ctrl := c.read
	if ctrl == nil {
		ctrl = c.Ctrl
	}
	state := c.model.State
	if all || c.changed || state.IsUndefined() {
		state = ctrl.State()
		c.changed = false
	}
	now := ctrl.Now().UnixMilli() / 1000 * 1000
	m := inspect.Of(state, ctrl.Requests(), now, inspect.Options{Prefix: c.Prefix})
	shown := m.Value().JSON()
	if shown == c.shown {
		return false
	}
	c.model, c.shown = m, shown
	return true
}

// Render shows the model last derived; while pre-rendering, derives it
// again (the page's reads add to the request's cache between renders).
func (c *Inspector) Render() app.UI {
	if c.prerender || c.shown == "" {
		c.refresh(true)
	}
	m := c.model
	total := 0
	for _, t := range m.Entities {
		total += t.Count
	}
	kept := 0
	for _, e := range m.Errors {
		if e.Kept {
			kept++
		}
	}
	none := func(text string) app.UI { return app.P().Class("muted").Text(text) }
	entities := []app.UI{
		app.H3().Text("Entities by type"),
		app.If(len(m.Entities) == 0, func() app.UI { return none("Nothing stored yet.") }),
		app.Ul().Class("insp-types").Body(app.Range(m.Entities).Slice(func(i int) app.UI {
			return c.renderType(m.Entities[i])
		})),
	}
	others := []app.UI{
		app.H3().Text("Endpoint results"),
		app.If(len(m.Results) == 0, func() app.UI { return none("No results yet.") }),
		app.Ul().Class("insp-results").Body(app.Range(m.Results).Slice(func(i int) app.UI {
			r := m.Results[i]
			when, title := shortDuration(r.TimeLeft), "time left"
			if r.Status != inspect.Valid {
				when, title = "", ""
				if r.FetchedAt > 0 {
					when, title = shortDuration(m.Now-r.FetchedAt)+" ago", "fetched"
				}
			}
			return app.Li().DataSet("status", r.Status).DataSet("key", r.Key).Body(
				app.Span().Class("badge badge-"+r.Status).Text(r.Status),
				app.Code().Class("insp-key").Title(r.Key).Text(r.Label),
				app.Span().Class("insp-ttl").Title(title).Text(when),
				app.If(r.Error != "", func() app.UI { return app.Span().Class("insp-error").Text(r.Error) }),
			)
		})),
		app.H3().Text("Optimistic queue"),
		app.If(len(m.Optimistic) == 0, func() app.UI { return none("Empty: nothing waits for the server.") }),
		app.Ul().Class("insp-queue").Body(app.Range(m.Optimistic).Slice(func(i int) app.UI {
			q := m.Optimistic[i]
			return app.Li().Body(
				app.Span().Class("badge badge-optimistic").Text("pending"),
				app.Code().Class("insp-key").Title(q.Key).Text(q.Label),
				app.Span().Class("insp-ttl").Text(shortDuration(m.Now-q.FetchedAt)),
			)
		})),
		app.H3().Text("In flight"),
		app.If(len(m.Requests) == 0, func() app.UI { return none("No request in flight.") }),
		app.Ul().Class("insp-queue insp-requests").Body(app.Range(m.Requests).Slice(func(i int) app.UI {
			q := m.Requests[i]
			kind := "read"
			if q.Mutation {
				kind = "mutation"
			}
			return app.Li().DataSet("key", q.Key).Body(
				app.Span().Class("badge badge-optimistic").Text(kind),
				app.Code().Class("insp-key").Title(q.Key).Text(q.Label),
				app.Span().Class("insp-ttl").Text(shortDuration(m.Now-q.StartedAt)),
			)
		})),
		app.H3().Text("Last errors"),
		app.If(len(m.Errors) == 0, func() app.UI { return none("No errors.") }),
		app.Ul().Class("insp-results insp-errors").Body(app.Range(m.Errors).Slice(func(i int) app.UI {
			e := m.Errors[i]
			when := "expired"
			if e.Kept {
				when = "kept " + shortDuration(e.ExpiresAt-m.Now)
			}
			return app.Li().DataSet("key", e.Key).Body(
				app.Span().Class("badge badge-error").Text("error"),
				app.Code().Class("insp-key").Title(e.Key).Text(e.Label),
				app.Span().Class("insp-ttl").Text(when),
				app.Span().Class("insp-error").Text(e.Message),
			)
		})),
	}
	var body app.UI = app.Div().Body(append(entities, others...)...)
	if c.Full {
		body = app.Div().Class("insp-full").Body(app.Div().Body(entities...), app.Div().Body(others...))
	}
	title := c.Title
	if title == "" {
		title = "Cache"
	}
	section := app.Section().Class("insp")
	if c.ID != "" {
		section = section.ID(c.ID)
	}
	return section.Body(
		app.Div().Class("insp-head").Body(
			app.H2().Text(title),
			app.Span().Class("insp-live").Title("Updates as the store changes").Text("live"),
		),
		app.P().Class("insp-summary").Body(
			stat("insp-entities", total, "entities"),
			stat("insp-results", len(m.Results), "results"),
			stat("insp-optimistic", len(m.Optimistic), "optimistic"),
			stat("insp-requests", len(m.Requests), "in flight"),
			stat("insp-errors", kept, "errors"),
		),
		body,
	)
}

// renderType renders one entity table: its name and size, and with Full
// its records (from the snapshot the model was derived from).
func (c *Inspector) renderType(t inspect.Type) app.UI {
	head := app.Summary().Body(
		app.Span().Class("insp-type").Text(t.Type),
		app.Span().Class("insp-count").Text(t.Count),
	)
	if !c.Full {
		return app.Li().DataSet("type", t.Type).Body(head)
	}
	recs := c.model.State.Get("entities").Get(t.Type).Members()
	sort.SliceStable(recs, func(i, j int) bool { return pkLess(recs[i].Key, recs[j].Key) })
	return app.Li().DataSet("type", t.Type).Body(
		app.Details().Open(true).Body(
			head,
			app.Div().Class("insp-scroll").Body(app.Table().Class("insp-records").Body(app.TBody().Body(
				app.Range(recs).Slice(func(i int) app.UI {
					r := recs[i]
					text := "deleted"
					if !r.Value.IsNull() {
						text = truncate(r.Value.JSON(), 160)
					}
					return app.Tr().Body(
						app.Th().Scope("row").Text(r.Key),
						app.Td().Body(app.Code().Text(text)),
					)
				}),
			))),
		),
	)
}

func stat(id string, n int, label string) app.UI {
	return app.Span().Class("stat").ID(id).Body(
		app.Strong().Text(n),
		app.Text(" "+label),
	)
}

// shortDuration formats ms as "42s", "3m" or "1h".
func shortDuration(ms int64) string {
	s := max(ms, 0) / 1000
	switch {
	case s < 120:
		return fmt.Sprintf("%ds", s)
	case s < 7200:
		return fmt.Sprintf("%dm", s/60)
	}
	return fmt.Sprintf("%dh", s/3600)
}

// truncate shortens s to at most n bytes, at a rune boundary, with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// pkLess orders primary keys numerically when both are numbers.
func pkLess(a, b string) bool {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return x < y
	}
	return a < b
}
