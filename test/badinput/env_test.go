package badinput

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture"
)

// env is one fixture server and one controller with some data stored.
type env struct {
	*fixture.Env
	t *testing.T
	// caseOpts and caseParams are the endpoint options and params of the
	// matrix case being run, for checks that read the endpoint again.
	caseOpts   rest.Options
	caseParams value.Value
	// down makes the server drop every connection.
	down atomic.Bool

	// Endpoints populate reads, so that "unchanged" means something.
	comment, comments, articles, article *rest.Endpoint
}

// newEnv starts a fixture server, which drops connections while e.down is
// set, and a controller on the fixture clock, and makes the endpoints that
// populate uses.
func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t}
	e.Env = fixture.New(t, fixture.Options{Wrap: func(api http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if e.down.Load() {
				// Down: the connection is dropped without an answer.
				if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
					conn.Close()
					return
				}
				panic(http.ErrAbortHandler)
			}
			api.ServeHTTP(w, r)
		})
	}})
	e.comment = e.Endpoint(rest.Options{Name: "comment", Path: "/comments/:id", Schema: commentE})
	e.comments = e.Endpoint(rest.Options{Name: "comments", Path: "/comments", Schema: schema.ArrayOf(commentE)})
	e.articles = e.Endpoint(rest.Options{Name: "articles", Path: "/articles", Schema: schema.ArrayOf(articleE)})
	e.article = e.Endpoint(rest.Options{Name: "article", Path: "/articles/:id", Schema: articleE})
	return e
}

// populate stores a comment, a list of comments, the articles and one
// article. The list is of post 2 (comments 6 to 10): the cases read
// comments 2 and 3 through endpoints of their own and must reach the
// server, which a stored Comment 2 or 3 would spare them (a read of one
// entity by its pk is answered from the entity table).
func (e *env) populate() {
	e.t.Helper()
	e.Suspense(e.comment, id(1))
	e.Suspense(e.comments, populatedList)
	e.Suspense(e.articles, value.Undef)
	e.Suspense(e.article, id("1"))
}

// alive checks that normal requests work: a new read goes to the server,
// and the populated list is still fresh (no new request).
func (e *env) alive() {
	e.t.Helper()
	before := e.API.Count("GET /comments?postId=2")
	c := e.Suspense(e.comment, id(2))
	require.Equal(e.t, "2", text(c, "id"), "the next normal request works")
	list := e.Suspense(e.comments, populatedList)
	require.Equal(e.t, 5, list.Len())
	require.Equal(e.t, before, e.API.Count("GET /comments?postId=2"), "the populated list is still fresh")
}

// populatedList is the params of the list populate stores.
var populatedList = obj(`{"postId":2}`)

// The schemas of the cases: a comment, users that reference each other,
// articles with an author and a date, and a union of comments and users.
var (
	commentE = &schema.Entity{Key: "Comment",
		Defaults: value.MustParse(`{"id":null,"postId":0,"name":"","email":"","body":""}`)}
	userE = func() *schema.Entity {
		u := &schema.Entity{Key: "User",
			Defaults: value.MustParse(`{"id":null,"name":"","email":"","isManager":false,"bestFriend":null,"friends":[]}`)}
		u.Schema = map[string]schema.Schema{"bestFriend": u, "friends": schema.ArrayOf(u)}
		return u
	}()
	articleE = &schema.Entity{Key: "Article",
		Defaults: value.MustParse(`{"id":null,"title":"","content":"","published":false,"author":null,"tags":[],"createdAt":null}`),
		Schema:   map[string]schema.Schema{"author": userE, "createdAt": schema.Date}}
	unionS = &schema.Union{Schemas: map[string]schema.Schema{"comment": commentE, "user": userE}, Attribute: "type"}
)

// Short names for the helpers the case tables use on almost every line.
var (
	obj  = value.MustParse
	id   = fixture.ID
	text = fixture.Text
)

// body returns the params of /bad/body that make it answer text.
func body(text string) value.Value { return value.Obj(value.M("text", value.Str(text))) }
