package badinput

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	_ "github.com/datafetch/datafetch/core/rest/nethttp"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/api"
)

// waitLimit bounds every wait, so a bug fails a test instead of hanging it.
const waitLimit = 20 * time.Second

// clock is a controllable time source, so kept errors do not expire
// during a test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// env is one fixture server and one controller with some data stored.
type env struct {
	t    *testing.T
	srv  *api.Server
	url  string
	clk  *clock
	ctrl *controller.Controller
	// took is how long the case's call took.
	took time.Duration
	// down makes the server drop every connection.
	down atomic.Bool

	// Endpoints populate reads, so that "unchanged" means something.
	comment, comments, articles, article *rest.Endpoint
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, srv: api.New(api.Options{}), clk: &clock{t: time.UnixMilli(1_750_000_000_000)}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e.down.Load() {
			// Down: the connection is dropped without an answer.
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
				return
			}
			panic(http.ErrAbortHandler)
		}
		e.srv.ServeHTTP(w, r)
	}))
	// Cleanups run last-in first-out: srv.Close ends held and hanging
	// requests first, so that ts.Close does not wait for them.
	t.Cleanup(ts.Close)
	t.Cleanup(e.srv.Close)
	e.url = ts.URL
	e.ctrl = controller.New(controller.Options{Now: e.clk.Now})
	e.comment = e.ep(rest.Options{Name: "comment", Path: "/comments/:id", Schema: commentE})
	e.comments = e.ep(rest.Options{Name: "comments", Path: "/comments", Schema: schema.ArrayOf(commentE)})
	e.articles = e.ep(rest.Options{Name: "articles", Path: "/articles", Schema: schema.ArrayOf(articleE)})
	e.article = e.ep(rest.Options{Name: "article", Path: "/articles/:id", Schema: articleE})
	return e
}

// populate stores a comment, a list of comments, the articles and one
// article.
func (e *env) populate() {
	e.t.Helper()
	e.suspense(e.comment, id(1))
	e.suspense(e.comments, obj(`{"postId":1}`))
	e.suspense(e.articles, value.Undef)
	e.suspense(e.article, id("1"))
}

// ep makes an endpoint on the fixture server (URLPrefix filled in when the
// path is not a full URL and no prefix is set).
func (e *env) ep(o rest.Options) *rest.Endpoint {
	e.t.Helper()
	if o.URLPrefix == "" && len(o.Path) > 0 && o.Path[0] == '/' {
		o.URLPrefix = e.url
	}
	ep, err := rest.New(o)
	require.NoError(e.t, err)
	return ep
}

func (e *env) suspense(ep endpoint.Endpoint, params value.Value) value.Value {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	v, err := e.ctrl.Suspense(ctx, ep, params)
	require.NoError(e.t, err)
	return v
}

// alive checks that normal requests work: a new read goes to the server,
// and the populated list is still fresh (no new request).
func (e *env) alive() {
	e.t.Helper()
	before := e.srv.Count("GET /comments?postId=1")
	c := e.suspense(e.comment, id(2))
	require.Equal(e.t, "2", text(c, "id"), "the next normal request works")
	list := e.suspense(e.comments, obj(`{"postId":1}`))
	require.Equal(e.t, 5, list.Len())
	require.Equal(e.t, before, e.srv.Count("GET /comments?postId=1"), "the populated list is still fresh")
}

// state is the controller's store snapshot.
func (e *env) state() value.Value { return e.ctrl.State() }

// withoutMeta returns st without meta[key], for comparing the store before
// and after a request for key failed.
func withoutMeta(st value.Value, key string) value.Value {
	return st.With("meta", st.Get("meta").Without(key))
}

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
	unionS = &schema.Union{Schemas: map[string]*schema.Entity{"comment": commentE, "user": userE}, Attribute: "type"}
)

func obj(s string) value.Value { return value.MustParse(s) }

// id returns params {"id": v}.
func id(v any) value.Value {
	switch v := v.(type) {
	case int:
		return value.Obj(value.M("id", value.Int(int64(v))))
	case string:
		return value.Obj(value.M("id", value.Str(v)))
	}
	panic("id: want int or string")
}

// body returns the params of /bad/body that make it answer text.
func body(text string) value.Value { return value.Obj(value.M("text", value.Str(text))) }

// text returns member key of v as text.
func text(v value.Value, key string) string {
	s, _ := v.Get(key).Text()
	return s
}
