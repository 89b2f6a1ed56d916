package ui

import (
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/goapp"
)

// birthdaysPage shows the upcoming birthdays: one response holding two
// lists of Birthday entities, with dates read through the Date schema.
type birthdaysPage struct {
	app.Compo
	d *Demo

	upcoming goapp.Query[*resources.UpcomingBirthdays]
}

func (c *birthdaysPage) OnMount(ctx app.Context) {
	c.upcoming.Use(ctx, c.d.ctrl, c.d.api.Birthdays.Upcoming, nil)
}

// OnPreRender reads on the server what OnMount reads in the browser: go-app
// pre-renders the page with it (goapp.Prerender).
func (c *birthdaysPage) OnPreRender(ctx app.Context) { c.OnMount(ctx) }

func (c *birthdaysPage) OnDismount() { c.upcoming.Close() }

func (c *birthdaysPage) Render() app.UI {
	d := c.d
	return d.frame(page{
		path:  "/birthdays",
		title: "Upcoming birthdays",
		lede: "GET /api/birthdays/upcoming/ answers {withinSevenDays, withinThirtyDays}: " +
			"an object schema with two lists of Birthday entities whose date field is a Date.",
	},
		c.upcoming.Render(d.boundary, func(v *resources.UpcomingBirthdays) app.UI {
			return app.Div().Class("columns").Body(
				birthdayCard("birthdays-7", "Within 7 days", v.WithinSevenDays),
				birthdayCard("birthdays-30", "Within 30 days", v.WithinThirtyDays),
			)
		}),
	)
}

func birthdayCard(id, title string, list []*resources.Birthday) app.UI {
	today := time.Now().UTC().Truncate(24 * time.Hour)
	return app.Section().Class("card").ID(id).Body(
		app.Div().Class("card-head").Body(
			app.H2().Text(title),
			app.Span().Class("count").Text(countText(true, len(list), "birthday")),
		),
		app.Ul().Class("rows").Body(app.Range(list).Slice(func(i int) app.UI {
			b := list[i]
			born := b.Date.UTC()
			next := time.Date(today.Year(), born.Month(), born.Day(), 0, 0, 0, 0, time.UTC)
			if next.Before(today) {
				next = next.AddDate(1, 0, 0)
			}
			days := int(next.Sub(today).Hours()+0.5) / 24
			when := fmt.Sprintf("in %d days", days)
			switch days {
			case 0:
				when = "today"
			case 1:
				when = "tomorrow"
			}
			return app.Li().Class("row birthday-row").DataSet("id", b.ID).Body(
				avatar(b.Name),
				app.Div().Class("row-main").Body(
					app.Span().Class("row-title").Text(b.Name),
					app.Div().Class("row-meta").Body(
						app.Span().Text(next.Format("Mon, Jan 2")),
						app.Span().Text(fmt.Sprintf("turns %d", next.Year()-born.Year())),
						app.Span().Class("tag").Text(b.Source),
					),
				),
				app.Span().Class("badge badge-when").Text(when),
			)
		})),
	)
}
