package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/df"
)

// revalidateButtons are the two ways to refresh the result of ep for
// params, side by side to show the difference: expiring it keeps the stale
// value on screen while it refetches, invalidating it shows the
// placeholder until the refetch is done.
func revalidateButtons[R any](d *Demo, ep *df.Endpoint[R], params any) app.UI {
	key, err := ep.Key(params)
	if err != nil {
		return nil
	}
	is := func(k string) bool { return k == key }
	return app.Div().Class("card-tools").Body(
		app.Button().Class("btn btn-small btn-ghost revalidate").
			Title("Mark the result stale: the cached value stays on screen while it refetches").
			Text("Revalidate").OnClick(func(app.Context, app.Event) { d.ctrl.ExpireAll(is) }, app.EventScope(key)),
		app.Button().Class("btn btn-small btn-ghost invalidate").
			Title("Mark the result invalid: the page waits for the refetch").
			Text("Invalidate").OnClick(func(app.Context, app.Event) { d.ctrl.InvalidateAll(is) }, app.EventScope(key)),
	)
}
