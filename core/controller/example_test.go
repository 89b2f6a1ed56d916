package controller_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync/atomic"
	"time"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	_ "github.com/datafetch/datafetch/core/rest/nethttp" // the net/http Transport
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/articleapi"
)

// The example of docs/go.md: articles with their author, read, subscribed
// to, published optimistically (once refused by the server, so rolled
// back, then accepted), and gone stale on a controller clock moved by hand.
func Example() {
	var refuse atomic.Bool
	ada := articleapi.Record{"id": 7, "name": "Ada"}
	api := articleapi.New(&refuse,
		articleapi.Record{"id": "1", "title": "Hello", "published": false, "author": ada},
		articleapi.Record{"id": "2", "title": "Again", "published": false, "author": ada},
	)
	defer api.Close()

	// Schemas: an Article embeds its author, a User.
	User := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	Article := &schema.Entity{
		Key:      "Article",
		Defaults: value.MustParse(`{"id":null,"title":"","published":false,"author":null}`),
		Schema:   map[string]schema.Schema{"author": User},
	}

	// Endpoints: the six of a resource, partialUpdate made optimistic.
	articles, err := rest.NewResource(rest.ResourceOptions{URLPrefix: api.URL, Path: "/articles/:id", Schema: Article})
	if err != nil {
		log.Fatal(err)
	}
	articles, err = articles.Extend(map[string]func(o *rest.Options){
		"partialUpdate": func(o *rest.Options) {
			o.GetOptimisticResponse = func(_ endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
				b, _ := body.(value.Value)
				return b.With("id", params.Get("id")), nil
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}

	// A controller on a clock the example moves.
	var clock atomic.Int64 // epoch ms; atomic, since request goroutines read it
	clock.Store(1_767_225_600_000)
	ctrl := controller.New(controller.Options{Now: func() time.Time { return time.UnixMilli(clock.Load()) }})
	ctx := context.Background()

	// Read, as useSuspense does: fetched once, then from the cache.
	list, err := ctrl.Suspense(ctx, articles.GetList, value.Obj())
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range list.Elems() {
		fmt.Println(a.Get("title").Str(), "by", a.Get("author").Get("name").Str())
	}
	again, _ := ctrl.Suspense(ctx, articles.GetList, value.Obj())
	fmt.Println("same value:", value.Same(list, again))

	// Subscribe: the listener hears every change of the list, optimistic
	// ones and rollbacks included. It runs on whichever goroutine made the
	// change, one call at a time, so it hands over through a channel.
	published := make(chan bool, 8)
	var last atomic.Value
	unsubscribe, err := ctrl.Subscribe(articles.GetList, value.Obj(), func(st controller.State) {
		p := st.Data.Elems()[0].Get("published").Boolean()
		if prev, ok := last.Load().(bool); !ok || prev != p {
			last.Store(p)
			published <- p
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	defer unsubscribe()

	one := value.Obj(value.M("id", value.Str("1")))
	publish := articles.PartialUpdate
	refuse.Store(true)
	_, err = ctrl.Fetch(ctx, publish, one, value.Obj(value.M("published", value.True)))
	var nerr *rest.NetworkError
	if errors.As(err, &nerr) {
		fmt.Println("publish refused:", nerr.Status)
	}
	fmt.Println("published:", <-published, "→", <-published, "→", <-published)

	refuse.Store(false)
	if _, err := ctrl.Fetch(ctx, publish, one, value.Obj(value.M("published", value.True))); err != nil {
		log.Fatal(err)
	}
	fmt.Println("published:", <-published)

	// Time passes on the controller's clock: the list goes stale.
	clock.Add((2 * time.Minute).Milliseconds())
	fmt.Println("after 2 minutes:", ctrl.GetResponse(articles.GetList, value.Obj()).ExpiryStatus)

	// Output:
	// Hello by Ada
	// Again by Ada
	// same value: true
	// publish refused: 500
	// published: false → true → false
	// published: true
	// after 2 minutes: stale
}
