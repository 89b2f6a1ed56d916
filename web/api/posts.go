package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Post is a post record as served by the paginated post routes.
type Post struct {
	ID      int    `json:"id"`
	Title   string `json:"title"`
	Content string `json:"content"`
	UserID  int    `json:"userId"`
}

// LastPagePostsPage is the body of GET /post: tokens are page numbers as
// strings, and nextPage is empty on the last page.
type LastPagePostsPage struct {
	Results  []Post `json:"results"`
	NextPage string `json:"nextPage"`
	LastPage string `json:"lastPage"`
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
func (st *state) pageCount() int {
	return max(1, (len(st.posts)+st.pageSize-1)/st.pageSize)
}

// page returns the posts on page p (from 1), empty past the last page.
func (st *state) page(p int) []Post {
	lo := min((p-1)*st.pageSize, len(st.posts))
	hi := min(lo+st.pageSize, len(st.posts))
	return st.posts[lo:hi]
}

// parsePage reads a page number; the empty token means the first page.
func parsePage(token string) (int, error) {
	if token == "" {
		return 1, nil
	}
	p, err := strconv.Atoi(token)
	if err != nil || p < 1 {
		return 0, fmt.Errorf("invalid page %q: want a page number from 1", token)
	}
	return p, nil
}

func (st *state) lastPagePosts(r *http.Request) reply {
	p, err := parsePage(r.URL.Query().Get("page"))
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
	}
	body := LastPagePostsPage{Results: st.page(p), LastPage: strconv.Itoa(st.pageCount())}
	if p < st.pageCount() {
		body.NextPage = strconv.Itoa(p + 1)
	}
	return jsonReply(http.StatusOK, body)
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
	return parsePage(token)
}

func (st *state) tokenPosts(r *http.Request) reply {
	p, err := parsePostsToken(r.URL.Query().Get("page"))
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
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
	return jsonReply(http.StatusOK, body)
}

func (st *state) getPost(r *http.Request) reply {
	id := r.PathValue("id")
	for _, p := range st.posts {
		if strconv.Itoa(p.ID) == id {
			return jsonReply(http.StatusOK, p)
		}
	}
	return errorReply(http.StatusNotFound, "post %s not found", id)
}

// linkedPosts answers a bare array and puts the page links in an RFC 8288
// Link header, as APIs such as GitHub's do. Links are absolute, built from
// the request's host and the configured base path.
func (st *state) linkedPosts(r *http.Request) reply {
	p, err := parsePage(r.URL.Query().Get("page"))
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	link := func(p int, rel string) string {
		return fmt.Sprintf(`<%s://%s%s/linked/posts?page=%d>; rel="%s"`, scheme, r.Host, st.basePath, p, rel)
	}
	var links []string
	if p < st.pageCount() {
		links = append(links, link(p+1, "next"))
	}
	if p > 1 {
		links = append(links, link(min(p-1, st.pageCount()), "prev"))
	}
	rp := jsonReply(http.StatusOK, st.page(p))
	if len(links) > 0 {
		rp.header = http.Header{"Link": {strings.Join(links, ", ")}}
	}
	return rp
}
