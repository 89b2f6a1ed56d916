package ui

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/value"
)

// inspectorPoll is how often the inspector looks at the store: it takes a
// new snapshot when the controller's change count has moved (OnChange) and
// updates when the snapshot differs or a time left it shows has changed.
const inspectorPoll = 250 * time.Millisecond

// inspector shows the cache live: entities by type, endpoint results with
// their expiry status and time left, and the optimistic queue. It reads
// controller.State(), a JSON snapshot shaped like data-client's state.
type inspector struct {
	app.Compo
	d *Demo

	// Full shows every record, not just counts (the Cache page).
	Full bool

	snap inspection
	stop chan struct{}
}

// inspection is what the inspector shows, taken from one snapshot.
type inspection struct {
	state   value.Value
	changes uint64 // the demo's change count when state was taken
	now     int64  // epoch ms, rounded to the second
	pending int
}

func (c *inspector) OnMount(ctx app.Context) {
	c.snap = c.inspect()
	c.stop = make(chan struct{})
	stop := c.stop
	ctx.Async(func() { c.watch(ctx, stop) })
}

func (c *inspector) OnDismount() { close(c.stop) }

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
		next := c.inspectSince(c.snap)
		ctx.Dispatch(func(ctx app.Context) {
			if next.now == c.snap.now && next.pending == c.snap.pending && value.Equal(next.state, c.snap.state) {
				ctx.PreventUpdate()
				return
			}
			c.snap = next
		})
	}
}

func (c *inspector) inspect() inspection {
	n := c.d.changes.Load()
	return inspection{
		state:   c.d.ctrl.State(),
		changes: n,
		now:     time.Now().UnixMilli() / 1000 * 1000,
		pending: c.d.ctrl.PendingOptimistic(),
	}
}

// inspectSince is inspect, keeping last's snapshot when the store has not
// changed since it was taken.
func (c *inspector) inspectSince(last inspection) inspection {
	if c.d.changes.Load() != last.changes {
		return c.inspect()
	}
	next := last
	next.now = time.Now().UnixMilli() / 1000 * 1000
	next.pending = c.d.ctrl.PendingOptimistic()
	return next
}

// resultRow is one endpoint result of the store.
type resultRow struct {
	key      string
	status   string // valid, stale, invalid or error
	timeLeft string
	age      string
}

func (c *inspector) results() []resultRow {
	st, now := c.snap.state, c.snap.now
	var rows []resultRow
	for _, m := range st.Get("meta").Members() {
		meta := m.Value
		r := resultRow{key: m.Key, status: "valid"}
		expires := msOf(meta.Get("expiresAt"))
		errUntil := msOf(meta.Get("errorExpiresAt"))
		switch {
		case meta.Get("error").Kind() == value.String && errUntil > now:
			r.status = "error"
		case meta.Get("invalidated").Boolean():
			r.status = "invalid"
		case !st.Get("endpoints").Has(m.Key):
			r.status = "error"
		case now >= expires:
			r.status = "stale"
		}
		if r.status == "valid" {
			r.timeLeft = shortDuration(expires - now)
		}
		if fetched := msOf(meta.Get("fetchedAt")); fetched > 0 {
			r.age = shortDuration(now-fetched) + " ago"
		}
		rows = append(rows, r)
	}
	return rows
}

func (c *inspector) Render() app.UI {
	st := c.snap.state
	types := st.Get("entities").Members()
	total := 0
	for _, t := range types {
		total += t.Value.Len()
	}
	results := c.results()
	queue := st.Get("optimistic").Elems()
	entities := []app.UI{
		app.H3().Text("Entities by type"),
		app.If(len(types) == 0, func() app.UI { return app.P().Class("muted").Text("Nothing stored yet.") }),
		app.Ul().Class("insp-types").Body(app.Range(types).Slice(func(i int) app.UI {
			return c.renderType(types[i])
		})),
	}
	others := []app.UI{
		app.H3().Text("Endpoint results"),
		app.If(len(results) == 0, func() app.UI { return app.P().Class("muted").Text("No results yet.") }),
		app.Ul().Class("insp-results").Body(app.Range(results).Slice(func(i int) app.UI {
			r := results[i]
			return app.Li().DataSet("status", r.status).Body(
				app.Span().Class("badge badge-"+r.status).Text(r.status),
				app.Code().Class("insp-key").Title(r.key).Text(c.shortKey(r.key)),
				app.Span().Class("insp-ttl").Title("fetched "+r.age).Text(r.timeLeft),
			)
		})),
		app.H3().Text("Optimistic queue"),
		app.If(len(queue) == 0, func() app.UI { return app.P().Class("muted").Text("Empty: nothing waits for the server.") }),
		app.Ul().Class("insp-queue").Body(app.Range(queue).Slice(func(i int) app.UI {
			q := queue[i]
			return app.Li().Body(
				app.Span().Class("badge badge-optimistic").Text("pending"),
				app.Code().Class("insp-key").Text(c.shortKey(q.Get("key").Str())),
				app.Span().Class("insp-ttl").Text(shortDuration(c.snap.now-msOf(q.Get("fetchedAt")))),
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
			stat("insp-results", len(results), "results"),
			stat("insp-optimistic", c.snap.pending, "optimistic"),
		),
		body,
	)
}

// renderType renders one entity table: its name and size, and in Full
// mode its records.
func (c *inspector) renderType(t value.Member) app.UI {
	head := app.Summary().Body(
		app.Span().Class("insp-type").Text(t.Key),
		app.Span().Class("insp-count").Text(t.Value.Len()),
	)
	if !c.Full {
		return app.Li().DataSet("type", t.Key).Body(head)
	}
	recs := t.Value.Members()
	sort.SliceStable(recs, func(i, j int) bool { return pkLess(recs[i].Key, recs[j].Key) })
	return app.Li().DataSet("type", t.Key).Body(
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

// shortKey makes a result key, "name METHOD url", easier to read: the
// API's URL prefix dropped (also inside page tokens), the query unescaped,
// GET left implicit.
func (c *inspector) shortKey(key string) string {
	key = strings.Replace(key, c.d.api.Prefix, "", 1)
	if k, err := url.PathUnescape(key); err == nil {
		key = k
	}
	if u, err := url.Parse(c.d.api.Prefix); err == nil && u.Path != "" {
		key = strings.ReplaceAll(key, "="+u.Path+"/", "=/")
	}
	return strings.Replace(key, " GET ", " ", 1)
}

func stat(id string, n int, label string) app.UI {
	return app.Span().Class("stat").ID(id).Body(
		app.Strong().Text(n),
		app.Text(" "+label),
	)
}

// msOf returns a Number as int64 milliseconds; 0 for anything else.
func msOf(v value.Value) int64 {
	f, _ := v.Float()
	return int64(f)
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
