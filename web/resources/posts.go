package resources

import (
	"net/url"
	"time"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Post is a post of the paginated lists.
var Post = &schema.Entity{
	Key:      "Post",
	Defaults: value.MustParse(`{"id":null,"title":"","content":"","userId":null}`),
}

// Posts holds the endpoints of /posts, whose pages carry their tokens in
// the body: {results, nextPage, prevPage}, a token being a URL such as
// "/rest/posts?page=2", or null on the first and last pages.
type Posts struct {
	// Page reads one page; params {page: token} (none for the first).
	Page *rest.Endpoint
	// Infinite is Page made Paginated by "page": every page fetched is
	// appended to one list, stored under the params without the token.
	Infinite *rest.Endpoint
}

// pageSchema is the shape of a page; non-entity members need defaults.
var pageSchema = schema.ObjectOf(
	schema.Nested("results", schema.ArrayOf(Post)),
	schema.Default("nextPage", value.Str("")),
	schema.Default("prevPage", value.Str("")),
)

func newPosts(prefix string) (*Posts, error) {
	page, err := rest.New(rest.Options{URLPrefix: prefix, Path: "/posts", Name: "getPosts", Schema: pageSchema})
	if err != nil {
		return nil, err
	}
	infinite, err := page.Extend(func(o *rest.Options) {
		o.Name = "getPosts.infinite"
		// A refetch of the first page would take the next token back to
		// page 2 while more pages are shown, so the growing list stays
		// fresh for as long as a demo session lasts.
		o.DataExpiryLength = time.Hour
	})
	if err != nil {
		return nil, err
	}
	if infinite, err = infinite.Paginated("page"); err != nil {
		return nil, err
	}
	return &Posts{Page: page, Infinite: infinite}, nil
}

// PageParams returns the params of the page named by token; the empty
// token is the first page.
func PageParams(token string) value.Value {
	if token == "" {
		return value.Obj()
	}
	return value.Obj(value.M("page", value.Str(token)))
}

// PageNumber returns the page number a token names, as "2" for
// "/rest/posts?page=2"; "1" for the empty token.
func PageNumber(token string) string {
	if token == "" {
		return "1"
	}
	u, err := url.Parse(token)
	if err != nil || u.Query().Get("page") == "" {
		return token
	}
	return u.Query().Get("page")
}
