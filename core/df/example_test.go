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
	"github.com/datafetch/datafetch/test/fixture/articleapi"
)

// The typed example of docs/go.md: the articles of core/controller's
// Example as Go structs, read, compared by pointer, subscribed to and
// published optimistically (refused once, so rolled back, then accepted):
// package df alone, with no rest, value or endpoint import.
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

	// Params and bodies are structs too.
	type ArticleParams struct {
		ID string `df:"id"`
	}
	type Publish struct {
		Published bool `df:"published"`
	}

	// The six endpoints of a resource, typed; partialUpdate optimistic,
	// its optimistic response written in the same types.
	articles, err := df.NewResource[Article](df.ResourceOptions{URLPrefix: api.URL, Path: "/articles/:id"})
	if err != nil {
		log.Fatal(err)
	}
	articles, err = articles.Extend(map[string]func(o *df.Options){
		"partialUpdate": func(o *df.Options) {
			o.GetOptimisticResponse = df.Optimistic(func(snap df.Snapshot, p ArticleParams, b Publish) (*Article, error) {
				stored, err := df.Stored[Article](snap, p)
				if stored == nil || err != nil {
					return nil, df.ErrAbortOptimistic // nothing to change
				}
				changed := *stored // a copy: reads are shared
				changed.Published = b.Published
				return &changed, nil
			})
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	// Typed params: the compiler checks every call's params.
	get, err := df.WithParams[ArticleParams](articles.Get)
	if err != nil {
		log.Fatal(err)
	}
	publish, err := df.WithParams[ArticleParams](articles.PartialUpdate)
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
	one, _ := get.Suspense(ctx, ctrl, ArticleParams{ID: "2"})
	fmt.Println("same pointer:", one == list[1])

	// Subscriptions are typed too.
	published := make(chan bool, 8)
	unsubscribe, err := get.Subscribe(ctrl, ArticleParams{ID: "1"}, func(st df.State[*Article]) {
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
	refuse.Store(true)
	_, err = publish.Fetch(ctx, ctrl, ArticleParams{ID: "1"}, Publish{true})
	var nerr *df.NetworkError
	if errors.As(err, &nerr) {
		fmt.Println("publish refused:", nerr.Status)
	}
	fmt.Println("published:", <-published, "→", <-published)
	refuse.Store(false)
	article, err := publish.Fetch(ctx, ctrl, ArticleParams{ID: "1"}, Publish{true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("published:", article.Published, <-published)
	_, err = articles.Create.Fetch(ctx, ctrl, nil, map[string]any{"title": "New", "onSave": func() {}})
	fmt.Println(err)
	_, err = get.Suspense(ctx, ctrl, ArticleParams{})
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
	// Article.get: params: field ID is empty: path token :id of /articles/:id needs it
}
