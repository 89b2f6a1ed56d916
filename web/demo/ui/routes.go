package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the demo's pages with go-app. Call it once, in the
// browser before app.RunWhenOnBrowser and on the server before serving the
// app.Handler, so both know the same pages.
func Routes(d *Demo) {
	app.Route("/", func() app.Composer { return &articlesPage{d: d} })
	app.RouteWithRegexp(`^/articles/[^/]+$`, func() app.Composer { return &articlePage{d: d} })
	app.Route("/counter", func() app.Composer { return &counterPage{d: d} })
	app.Route("/posts", func() app.Composer { return &postsPage{d: d} })
	app.Route("/comments", func() app.Composer { return &commentsPage{d: d} })
	app.Route("/profiles", func() app.Composer { return &profilesPage{d: d} })
	app.Route("/birthdays", func() app.Composer { return &birthdaysPage{d: d} })
	app.Route("/account", func() app.Composer { return &accountPage{d: d} })
	app.Route("/cache", func() app.Composer { return &cachePage{d: d} })
}
