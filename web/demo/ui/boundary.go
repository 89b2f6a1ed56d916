package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// skeleton is the demo's Suspense fallback: grey bars where content will
// be, marked busy for assistive technology and for the tests.
func skeleton() app.UI {
	return app.Div().Class("skeleton").Aria("busy", "true").Body(
		app.Div().Class("skeleton-line w80"),
		app.Div().Class("skeleton-line w60"),
		app.Div().Class("skeleton-line w70"),
		app.Span().Class("visually-hidden").Text("Loading…"),
	)
}

// errorBox is the demo's error boundary: the error in place of the
// content, and a way to try again.
func errorBox(err error, retry func()) app.UI {
	return app.Div().Class("error-box").Role("alert").Body(
		app.Strong().Text("Could not load this. "),
		app.Span().Class("error-text").Text(errorText(err)),
		app.Button().Class("btn btn-small").Text("Retry").OnClick(func(app.Context, app.Event) { retry() }),
	)
}

// refreshing marks content that shows a stale value while it revalidates.
func refreshing(on bool) app.UI {
	if !on {
		return nil
	}
	return app.Span().Class("refreshing").Title("Showing the cached value while a fresh one loads").Text("refreshing…")
}
