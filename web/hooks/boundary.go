package hooks

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// Boundary says what a component shows in place of a result it cannot
// show yet: what React's Suspense fallback and an error boundary around a
// useSuspense call would. An app usually has one Boundary and renders every
// Query through it.
type Boundary struct {
	// Fallback is shown while there is nothing to show: nothing cached, or
	// the cached result was invalidated or lost a required entity (reads
	// then wait for the refetch, as useSuspense does).
	Fallback func() app.UI
	// Error is shown in place of the content when the read failed and
	// nothing can be shown. retry fetches again.
	Error func(err error, retry func()) app.UI
}

// Render renders q through the boundary: Fallback, Error, or
// render(data) with the data to show, stale data included while it
// revalidates (see Query.Refreshing to mark it). When a refetch fails but
// data is cached, the data is shown; the error is in q.State().Err.
func (b Boundary) Render(q *Query, render func(data value.Value) app.UI) app.UI {
	st := q.State()
	usable := !st.Data.IsUndefined() && st.ExpiryStatus != endpoint.Invalid
	switch {
	case usable:
		return render(st.Data)
	case st.Err != nil && !st.Loading:
		if b.Error == nil {
			return app.P().Text(st.Err.Error())
		}
		return b.Error(st.Err, q.Retry)
	case b.Fallback != nil:
		return b.Fallback()
	}
	return app.P().Text("Loading…")
}
