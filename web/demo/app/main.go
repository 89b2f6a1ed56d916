// Command app is the go-app demo of datafetch, built to WebAssembly:
//
//	GOOS=js GOARCH=wasm go build -o web/build/app.wasm ./web/demo/app
//
// The demo server (web/demo/server) serves it along with the REST API it talks
// to. Its endpoints send requests with the browser's fetch through package
// jsbridge/fetch, which keeps net/http out of the binary.
package main

import (
	"fmt"
	"os"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/demo/ui"
)

func main() {
	if app.IsServer {
		fmt.Fprintln(os.Stderr, "app: this is the demo's browser side; build it with GOOS=js GOARCH=wasm "+
			"and run the demo with ./build.sh serve")
		os.Exit(2)
	}
	useFetch()
	d, err := ui.New(apiPrefix())
	if err != nil {
		panic(err) // go-app shows it in place of the loader
	}
	hydrate(d)
	connect(d)
	ui.Routes(d)
	app.RunWhenOnBrowser()
}

// hydrate starts the cache from the snapshot the server wrote into the
// page, when there is one, so the first page shows its data without a
// request. A snapshot that cannot be read, or holds keys of another API
// base, is logged: what it does not give is fetched as it would be
// without one.
func hydrate(d *ui.Demo) {
	if err := d.Hydrate(); err != nil {
		app.Logf("datafetch demo: %v", err)
	}
}

// apiPrefix is the full URL of the REST API: the page's origin and the
// path the server mounted the API at. The snapshot the server writes into
// the page holds keys relative to its own prefix, which Hydrate makes
// keys of this one.
func apiPrefix() string {
	u := app.Window().URL()
	path := app.Getenv(ui.APIPathEnv)
	if path == "" {
		path = "/rest"
	}
	return u.Scheme + "://" + u.Host + path
}
