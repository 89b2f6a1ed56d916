package goapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
	_ "github.com/datafetch/datafetch/core/rest/nethttp" // the net/http Transport
	"github.com/datafetch/datafetch/web/goapp"
)

type Article struct {
	ID        string `df:"id,pk"`
	Title     string `df:"title"`
	Published bool   `df:"published"`
}

var boundary = goapp.Boundary{
	Fallback: func() app.UI { return app.P().Text("Loading…") },
	Error:    func(err error, retry func()) app.UI { return app.P().Text(err.Error()) },
}

var (
	ctrl     *controller.Controller
	articles *df.Resource[Article]
)

type articleList struct {
	app.Compo
	list    goapp.Query[[]*Article]
	publish goapp.Mutation[*Article]
}

func (c *articleList) OnMount(ctx app.Context) {
	c.list.Use(ctx, ctrl, articles.GetList, nil)
	c.publish.Use(ctx, ctrl, articles.PartialUpdate)
}

func (c *articleList) OnDismount() { c.list.Close() }

func (c *articleList) Render() app.UI {
	return c.list.Render(boundary, func(list []*Article) app.UI {
		return app.Ul().Body(app.Range(list).Slice(func(i int) app.UI {
			a := list[i]
			return app.Li().Body(
				app.Text(a.Title),
				app.If(!a.Published, func() app.UI {
					// The scope renews the handler when the row shows another
					// article: go-app keeps a handler of the same scope.
					return app.Button().Text("Publish").OnClick(func(ctx app.Context, _ app.Event) {
						c.publish.Run(ctx, map[string]string{"id": a.ID}, map[string]bool{"published": true}, nil)
					}, app.EventScope(a.ID))
				}),
			)
		}))
	})
}

// native runs articleList natively, as go-app's test engine does: there
// go-app calls OnPreRender where a browser calls OnMount.
type native struct{ articleList }

func (c *native) OnPreRender(ctx app.Context) { c.OnMount(ctx) }

// The component of the package doc, mounted in go-app's test engine
// against a server with two articles.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode([]map[string]any{
			{"id": "1", "title": "Hello", "published": true},
			{"id": "2", "title": "Again", "published": false},
		})
	}))
	defer api.Close()
	var err error
	if articles, err = df.NewResource[Article](rest.ResourceOptions{URLPrefix: api.URL, Path: "/articles/:id"}); err != nil {
		log.Fatal(err)
	}
	ctrl = controller.New(controller.Options{})
	goapp.OnServer = false // this native test plays the browser
	defer func() { goapp.OnServer = app.IsServer }()

	// Fetched beforehand, so that the component's first render has data.
	if _, err := articles.GetList.Suspense(context.Background(), ctrl, nil); err != nil {
		log.Fatal(err)
	}
	engine := app.NewTestEngine()
	c := &native{}
	if err := engine.Load(c); err != nil {
		log.Fatal(err)
	}
	engine.ConsumeAll()
	fmt.Println(app.HTMLString(c))

	// Output:
	// <ul>
	//   <li>Hello</li>
	//   <li>
	//     Again
	//     <button>Publish</button>
	//   </li>
	// </ul>
}
