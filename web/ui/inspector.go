package ui

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/inspect"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/goapp"
)

// inspectorPoll is how often the inspector looks at the store: it takes a
// new snapshot when the controller's change count has moved (OnChange),
// derives the model again (time left, requests in flight) and updates when
// what it shows has changed.
const inspectorPoll = 250 * time.Millisecond

// inspector shows the cache live: entities by type, endpoint results with
// their expiry status and time left, the optimistic queue, the requests in
// flight and the last errors. Its rows are core/inspect's model, the one
// df.inspect renders in JavaScript; the records come from the State()
// snapshot the model was derived from.
type inspector struct {
	app.Compo
	d *Demo

	// Full shows every record, not just counts (the Cache page).
	Full bool

	snap inspection
	stop chan struct{}
	// prerender is the request's controller while the server pre-renders
	// the page (goapp.Listen), nil in the browser.
	prerender *controller.Controller
}

// inspection is what the inspector shows, derived from one snapshot.
type inspection struct {
	model   inspect.Model
	changes uint64 // the demo's change count when model.State was taken
	shown   string // model.Value() as JSON: equal text, equal view
}

func (c *inspector) OnMount(ctx app.Context) {
	c.snap = c.inspect(inspection{})
	c.stop = make(chan struct{})
	stop := c.stop
	ctx.Async(func() { c.watch(ctx, stop) })
}

// OnPreRender shows the cache of the page's request, as it is once the
// page's reads are done (goapp.Listen updates the inspector after each).
func (c *inspector) OnPreRender(ctx app.Context) {
	if read, _ := goapp.Listen(ctx, c.d.ctrl); read != c.d.ctrl {
		c.prerender = read
	}
}

func (c *inspector) OnDismount() {
	if c.stop != nil {
		close(c.stop)
	}
}

// watch polls the store until stop is closed and updates the inspector
// when what it shows changes.
func (c *inspector) watch(ctx app.Context, stop <-chan struct{}) {
	t := time.NewTicker(inspectorPoll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		last := c.snap
		next := c.inspect(last)
		ctx.Dispatch(func(ctx app.Context) {
			if next.shown == c.snap.shown {
				ctx.PreventUpdate()
				return
			}
			c.snap = next
		})
	}
}

// inspect derives the model now, keeping last's State snapshot when the
// store has not changed since it was taken. Time is rounded to the second,
// the precision the inspector shows.
func (c *inspector) inspect(last inspection) inspection {
	if ctrl := c.prerender; ctrl != nil {
		now := ctrl.Now().UnixMilli() / 1000 * 1000
		m := inspect.Of(ctrl.State(), ctrl.Requests(), now, inspect.Options{Prefix: c.d.api.Prefix})
		return inspection{model: m, shown: m.Value().JSON()}
	}
	n := c.d.changes.Load()
	state := last.model.State
	if n != last.changes || state.IsUndefined() {
		state = c.d.ctrl.State()
	}
	now := c.d.ctrl.Now().UnixMilli() / 1000 * 1000
	m := inspect.Of(state, c.d.ctrl.Requests(), now, inspect.Options{Prefix: c.d.api.Prefix})
	return inspection{model: m, changes: n, shown: m.Value().JSON()}
}

func (c *inspector) Render() app.UI {
	if c.prerender != nil {
		c.snap = c.inspect(inspection{})
	}
	m := c.snap.model
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
	return app.Section().Class("insp").ID("inspector").Body(
		app.Div().Class("insp-head").Body(
			app.H2().Text("Cache"),
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

// renderType renders one entity table: its name and size, and in Full
// mode its records (from the snapshot the model was derived from).
func (c *inspector) renderType(t inspect.Type) app.UI {
	head := app.Summary().Body(
		app.Span().Class("insp-type").Text(t.Type),
		app.Span().Class("insp-count").Text(t.Count),
	)
	if !c.Full {
		return app.Li().DataSet("type", t.Type).Body(head)
	}
	recs := c.snap.model.State.Get("entities").Get(t.Type).Members()
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

// msOf returns a Number as int64 milliseconds (schema.Millis); 0 for
// anything else.
func msOf(v value.Value) int64 {
	f, _ := v.Float()
	t, err := schema.Millis(f)
	if err != nil {
		return 0
	}
	return t
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
