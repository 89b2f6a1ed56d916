package resources

import (
	"github.com/datafetch/datafetch/core/df"
	"net/url"
	"time"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Post is a post of the paginated lists.
type Post struct {
	ID      int    `df:"id,pk"`
	Title   string `df:"title"`
	Content string `df:"content"`
	UserID  int    `df:"userId"`
}

// PostsPage is a page of posts: its posts and the tokens of the pages
// around it ("" on the first and last pages).
type PostsPage struct {
	Results  []*Post `df:"results"`
	NextPage string  `df:"nextPage"`
	PrevPage string  `df:"prevPage"`
}

// Posts holds the endpoints of /posts, whose pages carry their tokens in
// the body: {results, nextPage, prevPage}, a token being a URL such as
// "/rest/posts?page=2", or null on the first and last pages.
type Posts struct {
	// Page reads one page; params {page: token} (none for the first).
	Page *df.Endpoint[*PostsPage]
	// Infinite is Page made Paginated by "page": every page fetched is
	// appended to one list, stored under the params without the token.
	Infinite *df.Endpoint[*PostsPage]
}

func newPosts(prefix string) (*Posts, error) {
	post, err := df.EntityOf[Post]()
	if err != nil {
		return nil, err
	}
	// The shape of a page; non-entity members need defaults.
	pageSchema := schema.ObjectOf(
		schema.Nested("results", schema.ArrayOf(post)),
		schema.Default("nextPage", value.Str("")),
		schema.Default("prevPage", value.Str("")),
	)
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
	p := &Posts{}
	if p.Page, err = df.Wrap[*PostsPage](page); err != nil {
		return nil, err
	}
	if p.Infinite, err = df.Wrap[*PostsPage](infinite); err != nil {
		return nil, err
	}
	return p, nil
}

// PageParams returns the params of the page named by token; the empty
// token is the first page.
func PageParams(token string) map[string]string {
	if token == "" {
		return map[string]string{}
	}
	return map[string]string{"page": token}
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
