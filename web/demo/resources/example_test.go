package resources_test

import (
	"context"
	"fmt"
	"log"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	_ "github.com/datafetch/datafetch/core/rest/nethttp" // net/http transport
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// The README's Go example: the core API against the demo's REST API, as
// any Go program (or the go-app demo) uses it. It needs the demo server
// (./build.sh serve), so it is compiled but not run.
func Example_core() {
	Article := &schema.Entity{
		Key:      "Article",
		Defaults: value.MustParse(`{"id":null,"title":"","content":"","published":false}`),
	}
	articles, err := rest.NewResource(rest.ResourceOptions{
		URLPrefix: "http://127.0.0.1:8080/rest", Path: "/articles/:id", Schema: Article,
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	ctrl := controller.New(controller.Options{})

	// Read like useSuspense: from the cache when fresh, else fetched.
	list, err := ctrl.Suspense(ctx, articles.GetList, value.Obj()) // like useSuspense
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(list.Len(), "articles; first:", list.Elems()[0].Get("title").Str())

	// Subscribe: called now and after every change of the result.
	four := value.Obj(value.M("id", value.Str("4")))
	unsubscribe, err := ctrl.Subscribe(articles.Get, four, func(st controller.State) {
		fmt.Println(st.Data.Get("published").Boolean(), st.Loading)
	})
	if err != nil {
		log.Fatal(err)
	}
	defer unsubscribe()

	// Mutate: the PATCH response is normalized into the same entity, so
	// the subscription above sees it.
	_, err = ctrl.Fetch(ctx, articles.PartialUpdate, four, value.Obj(value.M("published", value.True)))
	if err != nil {
		log.Fatal(err)
	}
}
