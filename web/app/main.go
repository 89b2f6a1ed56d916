// Command app is the go-app demo of datafetch, built to WebAssembly:
//
//	GOOS=js GOARCH=wasm go build -o web/build/app.wasm ./web/app
//
// The demo server (web/server) serves it along with the REST API it talks
// to. In the browser, Go's net/http sends requests with the browser's
// fetch, so the endpoints use the nethttp transport like any Go program.
package main

import (
	"fmt"
	"os"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	_ "github.com/datafetch/datafetch/core/rest/nethttp"
	"github.com/datafetch/datafetch/web/ui"
)

func main() {
	if app.IsServer {
		fmt.Fprintln(os.Stderr, "app: this is the demo's browser side; build it with GOOS=js GOARCH=wasm "+
			"and run the demo with ./build.sh serve")
		os.Exit(2)
	}
	d, err := ui.New(apiPrefix())
	if err != nil {
		panic(err) // go-app shows it in place of the loader
	}
	ui.Routes(d)
	app.RunWhenOnBrowser()
}

// apiPrefix is the full URL of the REST API: the page's origin and the
// path the server mounted the API at. net/http needs a full URL.
func apiPrefix() string {
	u := app.Window().URL()
	path := app.Getenv(ui.APIPathEnv)
	if path == "" {
		path = "/rest"
	}
	return u.Scheme + "://" + u.Host + path
}
