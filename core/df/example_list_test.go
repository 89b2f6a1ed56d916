package df_test

import (
	"context"
	"fmt"
	"log"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
)

// A paginated list in an envelope ({results, nextCursor}) that a new
// record is pushed to, typed from end to end with package df alone: the
// params are a struct, the pages and records are structs.
func ExampleListOf() {
	api := servePages("One", "Two", "Three")
	defer api.Close()

	type Post struct {
		ID    string `df:"id,pk"`
		Title string `df:"title"`
	}
	// The envelope: the results are the Collection Push adds to.
	type PostPage struct {
		Results    []*Post `df:"results,collection"`
		NextCursor string  `df:"nextCursor"`
	}
	// The params of a page: the cursor (left out when "").
	type PageParams struct {
		Cursor string `df:"cursor,omitempty"`
	}

	posts, err := df.NewResource[Post](df.ResourceOptions{
		URLPrefix: api.URL, Path: "/posts/:id",
		Options: df.Options{PaginationField: "cursor"},
	})
	if err != nil {
		log.Fatal(err)
	}
	feed, err := df.ListOf[PostPage](posts)
	if err != nil {
		log.Fatal(err)
	}
	getList, err := df.WithParams[PageParams](feed.GetList)
	if err != nil {
		log.Fatal(err)
	}
	getPage, err := df.WithParams[PageParams](feed.GetPage)
	if err != nil {
		log.Fatal(err)
	}
	ctrl := controller.New(controller.Options{})
	ctx := context.Background()
	show := func(p PostPage) {
		for _, post := range p.Results {
			fmt.Print(post.ID, ":", post.Title, " ")
		}
		fmt.Printf("next %q\n", p.NextCursor)
	}

	first, err := getList.Suspense(ctx, ctrl, PageParams{})
	if err != nil {
		log.Fatal(err)
	}
	show(first)

	// Load more: the next page is appended to the list GetList reads.
	_, err = getPage.Fetch(ctx, ctrl, PageParams{Cursor: first.NextCursor}, nil)
	if err != nil {
		log.Fatal(err)
	}
	all, err := getList.Suspense(ctx, ctrl, PageParams{})
	if err != nil {
		log.Fatal(err)
	}
	show(all)

	// Push creates a post and appends it to the stored list.
	created, err := feed.Push.Fetch(ctx, ctrl, nil, Post{Title: "Four"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created", created.ID)
	all, _ = getList.Suspense(ctx, ctrl, PageParams{})
	show(all)
	fmt.Println("requests:", api.requests.Load())

	// Output:
	// 1:One 2:Two next "2"
	// 1:One 2:Two 3:Three next ""
	// created 4
	// 1:One 2:Two 3:Three 4:Four next ""
	// requests: 3
}

// Extend changes endpoints and adds new ones, as data-client's
// resource.extend does, but refuses a new name that is a near miss of a
// known one, the typo that would otherwise add an endpoint; Add adds a
// name that close on purpose.
func ExampleResource_Extend() {
	type Article struct {
		ID    string `df:"id,pk"`
		Title string `df:"title"`
	}
	articles, err := df.NewResource[Article](df.ResourceOptions{URLPrefix: "https://api.test", Path: "/articles/:id"})
	if err != nil {
		log.Fatal(err)
	}
	_, err = articles.Extend(map[string]func(o *df.Options){
		"partialUpdte": func(o *df.Options) { o.Method = "PUT" },
	})
	fmt.Println(err)

	articles, err = articles.Extend(map[string]func(o *df.Options){
		"partialUpdate": func(o *df.Options) { o.Method = "PUT" },                                    // changed
		"publish":       func(o *df.Options) { o.Method = "POST"; o.Path = "/articles/:id/publish" }, // added
	})
	if err != nil {
		log.Fatal(err)
	}
	articles, err = articles.Add(map[string]func(o *df.Options){
		"created": func(o *df.Options) { o.Path = "/articles/created" },
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(articles.Rest.Names())
	fmt.Println(articles.Rest.PartialUpdate.Method())

	// Output:
	// df: Extend: the resource has no endpoint "partialUpdte": did you mean "partialUpdate"? (Add adds an endpoint of that name)
	// [get getList create update partialUpdate delete publish created]
	// PUT
}
