package goapp

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
)

// UseCache makes the query show what the cache holds of ep's result for
// params, as data-client's useCache does: it never fetches nor polls, and
// the component updates when other reads, fetches, mutations or pushed
// messages change that result. While nothing is cached, State().Has is
// false and Render shows the boundary's Fallback (use State to show
// something else). Call it as Use (from OnMount or OnNav, and again when
// params change) and Close from OnDismount; a query moved from Use to
// UseCache on the same params stops fetching. On the server it reads
// nothing: the page shows what the browser's cache holds once hydrated.
func (q *Query[T]) UseCache(ctx app.Context, ctrl *controller.Controller, ep *df.Endpoint[T], params any) {
	q.use(ctx, ctrl, ep, params, true)
}
