//go:build !(js && wasm)

package goapp_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/web/goapp"
)

// Server rendering with data: the component of the package doc reads on
// the server too (OnPreRender, as native does), a Prerender gives each
// page request its own controller and writes the page with the rows and
// their snapshot; the browser, here on another host name for the same
// API, starts from it with no request.
func ExamplePrerender() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `[{"id":"1","title":"Hello","published":true}]`)
	}))
	defer api.Close()
	var err error
	if articles, err = df.NewResource[Article](rest.ResourceOptions{URLPrefix: api.URL, Path: "/articles/:id"}); err != nil {
		log.Fatal(err)
	}

	// The server.
	app.Route("/articles", func() app.Composer { return &native{} })
	server := httptest.NewServer(&goapp.Prerender{
		App: &app.Handler{
			Title:                 "Articles",
			ServiceWorkerTemplate: goapp.ServiceWorker, // caches no page
		},
		NewController: func(r *http.Request) *controller.Controller {
			return controller.New(controller.Options{}) // one per request
		},
		Base: api.URL, // the page's keys are written relative to it
	})
	defer server.Close()

	req, _ := http.NewRequest(http.MethodGet, server.URL+"/articles", nil)
	req.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	page := string(body)
	fmt.Println(strings.Contains(page, "<li>Hello</li>"), strings.Contains(page, goapp.SnapshotElementID))

	// The browser, which calls goapp.Hydrate(ctrl, base) before
	// app.RunWhenOnBrowser; HydrateJSON is Hydrate from the element's text.
	base := strings.Replace(api.URL, "127.0.0.1", "localhost", 1)
	start := strings.Index(page, goapp.SnapshotElementID) + len(goapp.SnapshotElementID+`">`)
	text := page[start : start+strings.Index(page[start:], "</script>")]
	ctrl := controller.New(controller.Options{})
	if err := goapp.HydrateJSON(ctrl, text, base); err != nil {
		log.Fatal(err)
	}
	browser, _ := df.NewResource[Article](rest.ResourceOptions{URLPrefix: base, Path: "/articles/:id"})
	r := browser.GetList.Response(ctrl, nil)
	fmt.Println(r.ExpiryStatus, r.Data[0].Title)

	// Output:
	// true true
	// valid Hello
}
