package controller_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// A server renders what a page shows into its HTML as a snapshot; the
// client starts its controller from it and reads the data with no request
// (docs/go.md, Snapshots).
func ExampleController_Snapshot() {
	Article := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":""}`)}
	articles, err := rest.NewResource(rest.ResourceOptions{URLPrefix: "https://example.test/rest", Path: "/articles/:id", Schema: Article})
	if err != nil {
		log.Fatal(err)
	}
	list := articles.Endpoint("getList")

	// The server: what its own requests stored (set here by hand).
	ctrl := controller.New(controller.Options{})
	if err := ctrl.SetResponse(list, value.Obj(), value.MustParse(`[{"id":1,"title":"a < b"}]`)); err != nil {
		log.Fatal(err)
	}
	snap := ctrl.Snapshot().JSON() // after fetching what the page shows
	page := `<script id="state" type="application/json">` +
		strings.ReplaceAll(snap, "<", `\u003c`) + `</script>`

	// What the client finds in the page.
	text := strings.TrimSuffix(strings.TrimPrefix(page, `<script id="state" type="application/json">`), `</script>`)
	// In the client:
	c := controller.New(controller.Options{InitialState: value.MustParse(text)})
	r := c.GetResponse(list, value.Obj())
	fmt.Println(r.ExpiryStatus, r.Data.Elems()[0].Get("title").Str())
	// Output: valid a < b
}
