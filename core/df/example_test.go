package df_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync/atomic"
	"time"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/articleapi"
)

// The typed example of docs/go.md: the articles of core/controller's
// Example as Go structs, read, compared by pointer, subscribed to and
// published optimistically (refused once, so rolled back, then accepted).
func Example() {
	var refuse atomic.Bool
	ada := articleapi.Record{"id": 7, "name": "Ada"}
	api := articleapi.New(&refuse,
		articleapi.Record{"id": "1", "title": "Hello", "published": false, "author": ada, "createdAt": "2026-01-02T10:00:00Z", "rating": 5},
		articleapi.Record{"id": "2", "title": "Again", "published": false, "author": ada},
	)
	defer api.Close()

	// Entities are structs: tags name the members and the pk.
	type User struct {
		ID   int    `df:"id,pk"`
		Name string `df:"name"`
	}
	type Article struct {
		ID        string     `df:"id,pk"`
		Title     string     `df:"title"`
		Published bool       `df:"published"`
		Author    *User      `df:"author"`    // a nested entity
		CreatedAt time.Time  `df:"createdAt"` // a Date
		Extra     df.Unknown // members without a field, kept
	}

	// The six endpoints of a resource, typed; partialUpdate optimistic.
	articles, err := df.NewResource[Article](rest.ResourceOptions{URLPrefix: api.URL, Path: "/articles/:id"})
	if err != nil {
		log.Fatal(err)
	}
	articles, err = articles.Extend(map[string]func(o *rest.Options){
		"partialUpdate": func(o *rest.Options) {
			o.GetOptimisticResponse = func(_ endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
				b, _ := body.(value.Value) // typed bodies arrive encoded
				return b.With("id", params.Get("id")), nil
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	ctrl := controller.New(controller.Options{})
	ctx := context.Background()

	// Reads return []*Article and *Article.
	list, err := articles.GetList.Suspense(ctx, ctrl, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range list {
		fmt.Println(a.Title, "by", a.Author.Name, "on", a.CreatedAt.Format(time.DateOnly), a.Extra.Get("rating"))
	}
	one, _ := articles.Get.Suspense(ctx, ctrl, map[string]string{"id": "2"})
	fmt.Println("same pointer:", one == list[1])

	// Subscriptions are typed too.
	published := make(chan bool, 8)
	unsubscribe, err := articles.Get.Subscribe(ctrl, map[string]string{"id": "1"}, func(st df.State[*Article]) {
		if st.Has {
			published <- st.Data.Published
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	defer unsubscribe()
	fmt.Println("published:", <-published)

	// Bodies are structs or maps, checked before anything is sent.
	type publish struct {
		Published bool `df:"published"`
	}
	refuse.Store(true)
	_, err = articles.PartialUpdate.Fetch(ctx, ctrl, map[string]string{"id": "1"}, publish{true})
	var nerr *rest.NetworkError
	if errors.As(err, &nerr) {
		fmt.Println("publish refused:", nerr.Status)
	}
	fmt.Println("published:", <-published, "→", <-published)
	refuse.Store(false)
	article, err := articles.PartialUpdate.Fetch(ctx, ctrl, map[string]string{"id": "1"}, publish{true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("published:", article.Published, <-published)
	_, err = articles.Create.Fetch(ctx, ctrl, nil, map[string]any{"title": "New", "onSave": func() {}})
	fmt.Println(err)

	// Output:
	// Hello by Ada on 2026-01-02 5
	// Again by Ada on 0001-01-01 undefined
	// same pointer: true
	// published: false
	// publish refused: 500
	// published: true → false
	// published: true true
	// Article.create: body: field ["onSave"]: cannot encode func()
}
