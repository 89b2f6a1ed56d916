package goapp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/goapp"
)

// live is a component of the tests: the list of Example, its context kept
// for the test to run mutations with.
type live struct {
	articleList
	ctx app.Context
}

func (c *live) OnPreRender(ctx app.Context) { c.ctx = ctx; c.OnMount(ctx) }

// liveAPI serves two articles; a PATCH waits for gate while it is set and
// then fails with 500 while refuse is set.
type liveAPI struct {
	*httptest.Server
	mu   sync.Mutex
	gate chan struct{}
	// getGate, while set, holds a GET until it is closed.
	getGate chan struct{}
	refuse  bool
	items   []map[string]any
	// gets counts the GET requests.
	gets int
}

func newLiveAPI(t *testing.T) *liveAPI {
	a := &liveAPI{items: []map[string]any{
		{"id": "1", "title": "Hello", "published": true},
		{"id": "2", "title": "Again", "published": false},
	}}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		gate, refuse := a.gate, a.refuse
		if r.Method == http.MethodGet {
			gate = a.getGate
			a.gets++
		}
		a.mu.Unlock()
		if gate != nil {
			select { // the test releases it; the limit only stops a hang
			case <-gate:
			case <-time.After(testkit.WaitLimit):
			}
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPatch && refuse:
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"error":"refused"}`))
		case r.Method == http.MethodPatch:
			id := strings.TrimPrefix(r.URL.Path, "/articles/")
			for _, it := range a.items {
				if it["id"] == id {
					_ = json.NewDecoder(r.Body).Decode(&it)
					_ = json.NewEncoder(w).Encode(it)
				}
			}
		default:
			_ = json.NewEncoder(w).Encode(a.items)
		}
	}))
	t.Cleanup(a.Close)
	return a
}

// mount sets up the package's ctrl and articles on a, with an optimistic
// partialUpdate, and mounts a live list in a test engine; prefetch reads the
// list first.
func mount(t *testing.T, a *liveAPI, prefetch bool) (app.TestEngine, *live) {
	t.Helper()
	return mountWith(t, a, prefetch, controller.Options{})
}

// mountWith is mount with a controller made with opts.
func mountWith(t *testing.T, a *liveAPI, prefetch bool, opts controller.Options) (app.TestEngine, *live) {
	t.Helper()
	setup(t, a, prefetch, opts)
	engine := app.NewTestEngine()
	c := &live{}
	require.NoError(t, engine.Load(c))
	engine.ConsumeAll()
	return engine, c
}

// setup is mountWith without the component: the package's ctrl and
// articles on a, and queries that read as in a browser.
func setup(t *testing.T, a *liveAPI, prefetch bool, opts controller.Options) {
	t.Helper()
	var err error
	articles, err = df.NewResource[Article](rest.ResourceOptions{URLPrefix: a.URL, Path: "/articles/:id"})
	require.NoError(t, err)
	articles, err = articles.Extend(map[string]func(o *rest.Options){
		"partialUpdate": func(o *rest.Options) {
			o.GetOptimisticResponse = func(_ endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
				b, _ := body.(value.Value)
				return b.With("id", params.Get("id")), nil
			}
		},
	})
	require.NoError(t, err)
	ctrl = controller.New(opts)
	if prefetch {
		_, err := articles.GetList.Suspense(context.Background(), ctrl, nil)
		require.NoError(t, err)
	}
	goapp.OnServer = false
	t.Cleanup(func() { goapp.OnServer = app.IsServer })
}

// watch reports on the returned channel when the list the controller
// holds passes ok. Start it before the change it waits for: the component's
// query subscribed first, so the controller tells it of each change before
// this watcher.
func watch(t *testing.T, ok func([]*Article) bool) <-chan struct{} {
	t.Helper()
	return watchList(t, articles.GetList, ok)
}

// loaded prefetches the list before mount, so that the query's first
// state has it.
func loaded(t *testing.T, engine app.TestEngine, c *live) {
	t.Helper()
	require.True(t, c.list.State().Usable(), "the list was prefetched")
	engine.ConsumeAll()
}

func TestQueryFetchesAndRerenders(t *testing.T) {
	a := newLiveAPI(t)
	getGate := make(chan struct{})
	a.getGate = getGate
	engine, c := mount(t, a, false)
	// Nothing was cached: the first render is the fallback, then the
	// fetch's result re-renders the component.
	assert.Contains(t, app.HTMLString(c), "Loading…")
	arrived := watch(t, func(l []*Article) bool { return len(l) == 2 })
	close(getGate)
	testkit.Wait(t, arrived, "the list")
	engine.ConsumeAll()
	html := app.HTMLString(c)
	assert.Contains(t, html, "<li>Hello</li>")
	assert.Contains(t, html, "<button>Publish</button>")
	assert.True(t, c.list.State().Usable())
}

func TestMutationOptimisticThenRolledBack(t *testing.T) {
	a := newLiveAPI(t)
	engine, c := mount(t, a, true)
	loaded(t, engine, c)
	before := c.list.Data()

	gate := make(chan struct{})
	a.mu.Lock()
	a.gate, a.refuse = gate, true
	a.mu.Unlock()
	optimistic := watch(t, func(l []*Article) bool { return l[1].Published })
	results := make(chan error, 1)
	c.publish.Run(c.ctx, map[string]string{"id": "2"}, map[string]bool{"published": true},
		func(_ app.Context, _ *Article, err error) { results <- err })
	assert.True(t, c.publish.Busy())

	// Optimistic: the query shows the article published before the server
	// answers; the other article keeps its pointer.
	testkit.Wait(t, optimistic, "the optimistic update")
	shown := c.list.Data()
	assert.True(t, shown[1].Published)
	assert.Same(t, before[0], shown[0])

	rolledBackSeen := watch(t, func(l []*Article) bool { return !l[1].Published })
	close(gate)
	testkit.Wait(t, rolledBackSeen, "the rollback")
	engine.ConsumeAll() // waits for the mutation, then runs done
	err := testkit.Wait(t, results, "the mutation's outcome")
	var nerr *rest.NetworkError
	require.ErrorAs(t, err, &nerr)
	assert.Equal(t, 500, nerr.Status)
	assert.False(t, c.publish.Busy())
	assert.ErrorAs(t, c.publish.Err(), &nerr)
	rolledBack := c.list.Data()
	assert.False(t, rolledBack[1].Published)
	assert.Same(t, before[1], rolledBack[1], "the rollback gives back the article read before")
	assert.Contains(t, app.HTMLString(c), "<button>Publish</button>")
}

func TestMutationRefusesBadBodiesAtTheCall(t *testing.T) {
	engine, c := mount(t, newLiveAPI(t), true)
	results := make(chan error, 1)
	c.publish.Run(c.ctx, map[string]string{"id": "2"}, map[string]any{"published": func() {}},
		func(_ app.Context, _ *Article, err error) { results <- err })
	engine.ConsumeAll()
	err := testkit.Wait(t, results, "the mutation's outcome")
	assert.EqualError(t, err, `Article.partialUpdate: body: field ["published"]: cannot encode func()`)
}

// getCount is how many GET requests a served.
func (a *liveAPI) getCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.gets
}

// A list shown past its expiry stays as it is (no request, no update), as
// data-client's hooks hold it; the next Use of the same params, as OnNav
// back to the page makes, revalidates it in the background while the
// stale list is shown. Use of a valid list fetches nothing.
func TestUseAgainRevalidatesWhatWentStale(t *testing.T) {
	a := newLiveAPI(t)
	clk := testkit.NewClock(time.UnixMilli(1_700_000_000_000))
	engine, c := mountWith(t, a, true, controller.Options{Now: clk.Now, DataExpiryLength: time.Minute})
	loaded(t, engine, c)
	require.Equal(t, 1, a.getCount())
	c.list.Use(c.ctx, ctrl, articles.GetList, nil) // valid: nothing to do
	a.mu.Lock()
	a.items[0]["title"] = "Changed"
	a.mu.Unlock()

	clk.Advance(80 * time.Second) // 80 s after a 60 s expiry
	engine.ConsumeAll()
	assert.Equal(t, endpoint.Stale, ctrl.GetResponse(articles.GetList.Endpoint(), value.Obj()).ExpiryStatus)
	assert.Equal(t, endpoint.Valid, c.list.State().ExpiryStatus, "what the subscription last told: time passing is no change")
	assert.Contains(t, app.HTMLString(c), "<li>Hello</li>")
	assert.Equal(t, 1, a.getCount(), "nothing fetched by itself")

	arrived := watch(t, func(l []*Article) bool { return l[0].Title == "Changed" })
	c.list.Use(c.ctx, ctrl, articles.GetList, nil)
	testkit.Wait(t, arrived, "the revalidated list")
	engine.ConsumeAll()
	assert.Contains(t, app.HTMLString(c), "<li>Changed</li>")
	assert.Equal(t, endpoint.Valid, c.list.State().ExpiryStatus)
	assert.Equal(t, 2, a.getCount())
}
