// Package goapp connects go-app components (github.com/maxence-charriere/go-app)
// to a datafetch controller through the typed endpoints of package df: the
// go-app counterparts of data-client's React hooks.
//
// A component keeps a [Query] per result it shows. Query.Use subscribes it
// to an endpoint's result for some params, as useSuspense does: the
// component re-renders on its own whenever that result changes (new data,
// optimistic data, a rollback, loading, an error), with no refresh calls.
// Query.Render shows it through a [Boundary], as Suspense and an error
// boundary around useSuspense would: a placeholder while nothing is cached,
// the data (stale data too, while it revalidates), the error in place when
// the read failed. Query.UseCache reads only what the cache holds, as
// useCache does. A Query of an endpoint with a PollFrequency is a live
// read: the controller refetches it that often while it is shown. A
// [Pager] is a "load more" list: a Query of a paginated list (df.ListOf)
// whose More appends the next page, as getList.getPage does. A [Mutation] runs a typed mutation endpoint in the
// background for the component, tracks it as useLoading does, and hands its
// outcome to that component even when the clicked element is gone (an
// optimistic update that removes the button); a [Loading] tracks any other
// asynchronous action. An [Inspector] shows a controller's cache live.
//
// Event handlers that use a loop variable (the row's article) must give
// go-app its scope (app.EventScope(a.ID)): go-app keeps the handler of the
// first render when the scope is the same, so without one a reordered list
// would run the handler of the article first shown in that row.
//
// Data is typed: a Query[[]*Article] renders a []*Article. Reads are shared
// and immutable (see package df): an article that did not change is the
// same pointer in every render, so child components can compare pointers.
//
//	type Article struct {
//		ID        string `df:"id,pk"`
//		Title     string `df:"title"`
//		Published bool   `df:"published"`
//	}
//
//	var boundary = goapp.Boundary{
//		Fallback: func() app.UI { return app.P().Text("Loading…") },
//		Error:    func(err error, retry func()) app.UI { return app.P().Text(err.Error()) },
//	}
//
//	type articleList struct {
//		app.Compo
//		list    goapp.Query[[]*Article]
//		publish goapp.Mutation[*Article]
//	}
//
//	func (c *articleList) OnMount(ctx app.Context) {
//		c.list.Use(ctx, ctrl, articles.GetList, nil)
//		c.publish.Use(ctx, ctrl, articles.PartialUpdate)
//	}
//
//	func (c *articleList) OnDismount() { c.list.Close() }
//
//	func (c *articleList) Render() app.UI {
//		return c.list.Render(boundary, func(list []*Article) app.UI {
//			return app.Ul().Body(app.Range(list).Slice(func(i int) app.UI {
//				a := list[i]
//				return app.Li().Body(
//					app.Text(a.Title),
//					app.If(!a.Published, func() app.UI {
//						// The scope renews the handler when the row shows another
//						// article: go-app keeps a handler of the same scope.
//						return app.Button().Text("Publish").OnClick(func(ctx app.Context, _ app.Event) {
//							c.publish.Run(ctx, map[string]string{"id": a.ID}, map[string]bool{"published": true}, nil)
//						}, app.EventScope(a.ID))
//					}),
//				)
//			}))
//		})
//	}
//
// The Example of this package runs that component against a test server.
//
// Everything here runs on go-app's UI goroutine except the controller's
// listeners, which hand their state over under a lock and ask go-app for an
// update.
//
// Pages can be served with their data: on a server, [Prerender] wraps the
// app.Handler and gives each page request a controller of its own; there
// Query.Use (called from OnPreRender, which go-app calls on the server in
// place of OnMount) reads into it before go-app writes the page, and the
// page carries the controller's snapshot, with keys relative to the API
// base. In the browser, [Hydrate] starts the app's controller from it
// before app.RunWhenOnBrowser, so the first render needs no request.
// Without a Prerender, queries on the server read nothing and pages render
// their placeholders.
package goapp
