package df_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	_ "github.com/datafetch/datafetch/core/rest/nethttp" // the net/http Transport
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// The entities of the tests: an Article with its author, a Date, tags, a
// plain struct and the members it has no field for.
type User struct {
	ID   int    `df:"id,pk"`
	Name string `df:"name"`
}

type Stats struct {
	Views int `json:"views"`
}

type Article struct {
	ID        string    `df:"id,pk"`
	Title     string    `df:"title"`
	Published bool      `df:"published"`
	Author    *User     `df:"author"`
	Tags      []string  `df:"tags"`
	CreatedAt time.Time `df:"createdAt"`
	Stats     Stats
	Extra     df.Unknown
}

type record = map[string]any

// api serves /articles and /articles/:id (GET, POST, PATCH, DELETE) from
// memory, counting requests. A PATCH fails with 500 while refuse is set;
// a PATCH or POST waits for a value on gate while gate is not nil, and
// tells held that it does.
type api struct {
	*httptest.Server
	mu       sync.Mutex
	articles []record
	requests atomic.Int64
	refuse   atomic.Bool
	gate     chan struct{}
	// patched receives every PATCH body as the server read it.
	patched chan record
	// held receives the method of every request that waits on gate.
	held chan string
}

func newAPI(t *testing.T) *api {
	t.Helper()
	ada := record{"id": 7, "name": "Ada"}
	a := &api{patched: make(chan record, 16), held: make(chan string, 16), articles: []record{
		{"id": "1", "title": "Hello", "published": false, "author": ada, "tags": []string{"go"},
			"createdAt": "2026-01-02T03:04:05.678Z", "stats": record{"views": 3}, "rating": 5},
		{"id": "2", "title": "Again", "published": false, "author": ada, "tags": []string{}},
	}}
	reply := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.requests.Add(1)
		if r.Method == http.MethodPatch || r.Method == http.MethodPost {
			a.mu.Lock()
			gate := a.gate
			a.mu.Unlock()
			if gate != nil {
				a.held <- r.Method
				select { // the test releases it; the limit only stops a hang
				case <-gate:
				case <-time.After(testkit.WaitLimit):
				}
			}
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		if r.URL.Path == "/articles" {
			if r.Method == http.MethodPost {
				var b record
				_ = json.NewDecoder(r.Body).Decode(&b)
				b["id"] = strconv.Itoa(len(a.articles) + 1)
				a.articles = append(a.articles, b)
				reply(w, http.StatusCreated, b)
				return
			}
			reply(w, http.StatusOK, a.articles)
			return
		}
		id := strings.TrimPrefix(r.URL.Path, "/articles/")
		for i, art := range a.articles {
			if art["id"] != id {
				continue
			}
			switch r.Method {
			case http.MethodPatch:
				if a.refuse.Load() {
					reply(w, http.StatusInternalServerError, record{"error": "refused"})
					return
				}
				var b record
				if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
					reply(w, http.StatusBadRequest, record{"error": err.Error()})
					return
				}
				a.patched <- b
				for k, v := range b {
					art[k] = v
				}
			case http.MethodDelete:
				a.articles = append(a.articles[:i:i], a.articles[i+1:]...)
				reply(w, http.StatusNoContent, nil)
				return
			}
			reply(w, http.StatusOK, art)
			return
		}
		reply(w, http.StatusNotFound, record{"error": "no such article"})
	}))
	t.Cleanup(a.Close)
	return a
}

// set changes an article on the server, as another client would.
func (a *api) set(id, key string, v any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, art := range a.articles {
		if art["id"] == id {
			art[key] = v
		}
	}
}

// articles returns the typed article resource on a, partialUpdate and
// delete optimistic.
func articles(t *testing.T, a *api) *df.Resource[Article] {
	t.Helper()
	r, err := df.NewResource[Article](rest.ResourceOptions{URLPrefix: a.URL, Path: "/articles/:id"})
	if err != nil {
		t.Fatal(err)
	}
	r, err = r.Extend(map[string]func(o *rest.Options){
		"partialUpdate": func(o *rest.Options) {
			o.GetOptimisticResponse = func(_ endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
				b, _ := body.(value.Value)
				return b.With("id", params.Get("id")), nil
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// newController returns a controller on a clock that does not move.
func newController() *controller.Controller {
	clock := testkit.NewClock(time.UnixMilli(1_767_225_600_000))
	return controller.New(controller.Options{Now: clock.Now})
}

// fixed is an endpoint named "fixed" that answers data; tests decode
// values with it.
type fixed struct{ data value.Value }

func (f *fixed) Key(value.Value) (string, error) { return "fixed", nil }
func (f *fixed) Fetch(context.Context, value.Value, any) (value.Value, error) {
	return f.data, nil
}
func (f *fixed) Spec() *endpoint.Spec { return &endpoint.Spec{Name: "fixed"} }

func controllerSubscribeOptions() controller.SubscribeOptions {
	return controller.SubscribeOptions{NoFetch: true}
}

// pages serves a list (any one-segment path, as /articles) as pages of
// two in an envelope, {"results": [...], "nextCursor": "2"} (nextCursor ""
// on the last page), the page named by the cursor query param; a POST
// appends its body as a new record with the next id. It counts requests.
// While gate is not nil a POST tells held and waits for a value on gate.
// With plain set a page is the bare list, without the envelope.
type pages struct {
	plain atomic.Bool
	*httptest.Server
	mu       sync.Mutex
	articles []record
	requests atomic.Int64
	gate     chan struct{}
	held     chan struct{}
}

func newPages(t *testing.T, titles ...string) *pages {
	p := servePages(titles...)
	t.Cleanup(p.Close)
	return p
}

// servePages starts pages; the caller closes it.
func servePages(titles ...string) *pages {
	p := &pages{held: make(chan struct{}, 4)}
	for i, title := range titles {
		p.articles = append(p.articles, record{"id": strconv.Itoa(i + 1), "title": title})
	}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		p.mu.Lock()
		gate := p.gate
		p.mu.Unlock()
		if gate != nil && r.Method == http.MethodPost {
			p.held <- struct{}{}
			select { // the test releases it; the limit only stops a hang
			case <-gate:
			case <-time.After(testkit.WaitLimit):
			}
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.Count(r.URL.Path, "/") != 1 {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		if r.Method == http.MethodPost {
			var b record
			_ = json.NewDecoder(r.Body).Decode(&b)
			b["id"] = strconv.Itoa(len(p.articles) + 1)
			p.articles = append(p.articles, b)
			_ = json.NewEncoder(w).Encode(b)
			return
		}
		from, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
		to := min(from+2, len(p.articles))
		next := ""
		if to < len(p.articles) {
			next = strconv.Itoa(to)
		}
		if p.plain.Load() {
			_ = json.NewEncoder(w).Encode(p.articles[from:to])
			return
		}
		_ = json.NewEncoder(w).Encode(record{"results": p.articles[from:to], "nextCursor": next})
	}))
	return p
}

// mustRest returns a REST endpoint on path.
func mustRest(t *testing.T, path string) *rest.Endpoint {
	t.Helper()
	ep, err := rest.New(rest.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	return ep
}
