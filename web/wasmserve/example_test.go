package wasmserve_test

import (
	"net/http"
	"os"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/wasmserve"
)

// A go-app server that sends app.wasm compressed, under a URL versioned by
// its content.
func ExampleGoApp() {
	// The app's build, beside its other files under web/.
	const wasm = "web/app.wasm"
	cache := wasmserve.New(os.Stderr)
	cache.Warm(wasm) // compressed before the first visitor asks
	http.Handle("/", &app.Handler{
		Name:  "Bookshelf",
		Title: "Bookshelf",
		Resources: wasmserve.GoApp{
			Wasm:   wasm,
			Cache:  cache,
			Static: http.FileServer(http.Dir("web")),
		},
	})
	// Then http.ListenAndServe, as any net/http server.
}
