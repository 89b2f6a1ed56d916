package goapp

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Boundary says what a component shows in place of a result it cannot
// show yet: what React's Suspense fallback and an error boundary around a
// useSuspense call would. An app usually has one Boundary and renders every
// Query through it (Query.Render).
type Boundary struct {
	// Fallback is shown while there is nothing to show: nothing cached, or
	// the cached result was invalidated or lost a required entity (reads
	// then wait for the refetch, as useSuspense does). nil shows
	// "Loading…".
	Fallback func() app.UI
	// Error is shown in place of the content when the read failed and
	// nothing can be shown. retry fetches again. nil shows the error's
	// text.
	Error func(err error, retry func()) app.UI
}
