package sampleapi

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/datafetch/datafetch/web/restserver"
)

// Post is a post record as served by the paginated post routes.
type Post struct {
	ID      int    `json:"id"`
	Title   string `json:"title"`
	Content string `json:"content"`
	UserID  int    `json:"userId"`
}

// TokenPostsPage is the body of GET /posts: tokens are relative URLs such as
// "/posts?page=2" (with the base path in front), or null when there is no
// such page. A token can be fetched as it is, or passed back as ?page=.
type TokenPostsPage struct {
	Results  []Post  `json:"results"`
	NextPage *string `json:"nextPage"`
	PrevPage *string `json:"prevPage"`
}

// pageCount is the number of pages of posts; an empty list still has one,
// empty, page.
func (st *state) pageCount() int { return PageCount(len(st.posts), st.pageSize) }

// page returns the posts on page p (from 1), empty past the last page.
func (st *state) page(p int) []Post { return Page(st.posts, st.pageSize, p) }

// PageCount is the number of pages of size items that n items fill; an
// empty list still has one, empty, page.
func PageCount(n, size int) int {
	return max(1, (n+size-1)/size)
}

// Page returns page p (from 1) of items, size to a page; empty past the
// last page.
func Page[T any](items []T, size, p int) []T {
	lo := min((p-1)*size, len(items))
	hi := min(lo+size, len(items))
	return items[lo:hi]
}

// ParsePage reads a page number; the empty token means the first page.
func ParsePage(token string) (int, error) {
	if token == "" {
		return 1, nil
	}
	p, err := strconv.Atoi(token)
	if err != nil || p < 1 {
		return 0, fmt.Errorf("invalid page %q: want a page number from 1", token)
	}
	return p, nil
}

// parsePostsToken accepts what /posts hands out, a URL carrying ?page=N,
// as well as a bare page number.
func parsePostsToken(token string) (int, error) {
	if strings.Contains(token, "?") {
		u, err := url.Parse(token)
		if err != nil {
			return 0, fmt.Errorf("invalid page token %q: %v", token, err)
		}
		token = u.Query().Get("page")
	}
	return ParsePage(token)
}

func (st *state) tokenPosts(r *http.Request) restserver.Reply {
	p, err := parsePostsToken(r.URL.Query().Get("page"))
	if err != nil {
		return restserver.ErrorReply(http.StatusBadRequest, "%v", err)
	}
	token := func(p int) *string {
		t := st.basePath + "/posts?page=" + strconv.Itoa(p)
		return &t
	}
	body := TokenPostsPage{Results: st.page(p)}
	if p < st.pageCount() {
		body.NextPage = token(p + 1)
	}
	if p > 1 {
		body.PrevPage = token(min(p-1, st.pageCount()))
	}
	return restserver.JSONReply(http.StatusOK, body)
}

func (st *state) getPost(r *http.Request) restserver.Reply {
	id := r.PathValue("id")
	for _, p := range st.posts {
		if strconv.Itoa(p.ID) == id {
			return restserver.JSONReply(http.StatusOK, p)
		}
	}
	return restserver.ErrorReply(http.StatusNotFound, "post %s not found", id)
}
