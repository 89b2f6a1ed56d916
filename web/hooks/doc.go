// Package hooks connects go-app components to a datafetch controller: the
// go-app counterparts of data-client's React hooks.
//
// A component keeps a [Query] per result it shows. Query.Use subscribes it to
// an endpoint's result for some params, as useSuspense does: the component
// re-renders on its own whenever that result changes (new data, optimistic
// data, a rollback, loading, an error), with no refresh calls. A [Boundary]
// renders a Query the way Suspense and an error boundary around useSuspense
// would: a placeholder while nothing is cached, the cached value (a stale
// one too, while it revalidates), the error in place when the read failed.
// A [Loading] runs a mutation in the background and tracks it, as
// useLoading does.
//
//	type articleList struct {
//		app.Compo
//		list hooks.Query
//	}
//
//	func (c *articleList) OnMount(ctx app.Context) {
//		c.list.Use(ctx, ctrl, articles.GetList, value.Obj())
//	}
//
//	func (c *articleList) OnDismount() { c.list.Close() }
//
//	func (c *articleList) Render() app.UI {
//		return boundary.Render(&c.list, func(list value.Value) app.UI {
//			return app.Ul().Body(app.Range(list.Elems()).Slice(...))
//		})
//	}
//
// Everything here runs on go-app's UI goroutine except the controller's
// listeners, which hand their state over under a lock and ask go-app for an
// update with Context.Dispatch. On the server (go-app's pre-rendering)
// queries do not subscribe: pages render their placeholders.
package hooks
