package goapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/goapp"
)

// heldAPI serves two articles; each GET tells arrived and then waits for
// release.
func heldAPI(t *testing.T) (api *httptest.Server, arrived chan struct{}, release chan struct{}) {
	t.Helper()
	arrived, release = make(chan struct{}, 10), make(chan struct{})
	api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		arrived <- struct{}{}
		select { // the test releases it; the limit only stops a hang
		case <-release:
		case <-time.After(testkit.WaitLimit):
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode([]map[string]any{
			{"id": "1", "title": "Hello"}, {"id": "2", "title": "Again"},
		})
	}))
	t.Cleanup(api.Close)
	return api, arrived, release
}

// empty is the component that replaces the inspector to dismount it.
type empty struct{ app.Compo }

func (*empty) Render() app.UI { return app.Div() }

// The inspector shows a request while the server holds it, then the
// entities and the result it stored, counts the time left down on its
// timer, and stops its timer when it is dismounted.
func TestInspectorFollowsTheController(t *testing.T) {
	api, arrived, release := heldAPI(t)
	clk := testkit.NewClock(time.UnixMilli(1_700_000_000_000))
	timers := testkit.NewTimers()
	setup(t, &liveAPI{Server: api}, false, controller.Options{Now: clk.Now, DataExpiryLength: time.Minute})

	engine := app.NewTestEngine()
	insp := &goapp.Inspector{Ctrl: ctrl, Prefix: api.URL, ID: "inspector", AfterFunc: timers.AfterFunc}
	require.NoError(t, engine.Load(insp))
	engine.ConsumeAll()
	html := app.HTMLString(insp)
	assert.Regexp(t, `^<section (class="insp" id="inspector"|id="inspector" class="insp")>`, html)
	assert.Contains(t, html, "Nothing stored yet.")
	assert.Contains(t, html, "No request in flight.")
	tick := timers.Next(t, "the inspector's timer")
	assert.Equal(t, goapp.DefaultInspectorInterval, tick.D)

	// look fires the timer and waits for the look it runs, which starts
	// the next timer.
	look := func(what string) {
		t.Helper()
		require.True(t, tick.Fire(), what)
		engine.ConsumeNext() // the timer's dispatch
		engine.ConsumeAll()
		tick = timers.Next(t, "the timer after "+what)
	}

	fetched := make(chan error, 1)
	go func() {
		_, err := articles.GetList.Suspense(context.Background(), ctrl, nil)
		fetched <- err
	}()
	testkit.Wait(t, arrived, "the GET at the server")
	clk.Advance(3 * time.Second)
	look("a look while the GET is held")
	html = app.HTMLString(insp)
	assert.Regexp(t, `id="insp-requests"[^>]*>\s*<strong>1</strong>\s*in flight`, html)
	assert.Regexp(t, `<li data-key="Article.getList GET http://[^"]*/articles">\s*<span class="badge badge-optimistic">read</span>\s*<code [^>]*>Article.getList /articles</code>\s*<span class="insp-ttl">3s</span>`, html)

	stored := watch(t, func(l []*Article) bool { return len(l) == 2 })
	close(release)
	require.NoError(t, testkit.Wait(t, fetched, "the fetch"))
	testkit.Wait(t, stored, "the list")
	engine.ConsumeAll() // the inspector's listener was told first
	html = app.HTMLString(insp)
	assert.Regexp(t, `<li data-type="Article">\s*<summary>\s*<span class="insp-type">Article</span>\s*<span class="insp-count">2</span>`, html)
	assert.Regexp(t, `<li [^>]*data-status="valid"`, html)
	assert.Regexp(t, `insp-ttl"[^>]*>60s</span>`, html)

	clk.Advance(20 * time.Second)
	look("a look 20 s later")
	html = app.HTMLString(insp)
	assert.Regexp(t, `insp-ttl"[^>]*>40s</span>`, html)
	assert.Contains(t, html, "No request in flight.")

	// Dismounted: the timer is stopped and none is started.
	require.NoError(t, engine.Load(&empty{}))
	engine.ConsumeAll()
	assert.True(t, tick.Stopped(), "the timer is stopped on dismount")
	assert.False(t, tick.Fire())
	assert.Empty(t, timers.Pending(), "no timer started after dismount")
	clk.Advance(20 * time.Second)
	assert.Regexp(t, `insp-ttl"[^>]*>40s</span>`, app.HTMLString(insp), "no look after dismount")
}

// With Full, every record of each type is listed.
func TestInspectorFull(t *testing.T) {
	api, arrived, release := heldAPI(t)
	close(release)
	setup(t, &liveAPI{Server: api}, true, controller.Options{})
	<-arrived
	html := app.HTMLString(&goapp.Inspector{Ctrl: ctrl, Prefix: api.URL, Full: true})
	assert.Contains(t, html, `<div class="insp-full">`)
	assert.Regexp(t, `<tr>\s*<th scope="row">1</th>\s*<td>\s*<code>\{&#34;id&#34;:&#34;1&#34;,&#34;title&#34;:&#34;Hello&#34;\}</code>`, html)
	assert.Contains(t, html, `<th scope="row">2</th>`)
}

// shell is a page with the cache inspector beside its content.
type shell struct {
	app.Compo
	ctrl *controller.Controller
	base string // the API base, cut from the keys shown
}

func (s *shell) Render() app.UI {
	return app.Div().Body(
		app.Main().Body(app.H1().Text("Articles")),
		app.Aside().Body(&goapp.Inspector{Ctrl: s.ctrl, Prefix: s.base, ID: "inspector"}),
	)
}

// A page with the inspector beside its content, mounted in go-app's test
// engine: it shows what the controller holds and follows it live until
// it is dismounted.
func ExampleInspector() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode([]map[string]any{{"id": "1", "title": "Hello"}})
	}))
	defer api.Close()
	articles, err := df.NewResource[Article](rest.ResourceOptions{URLPrefix: api.URL, Path: "/articles/:id"})
	if err != nil {
		log.Fatal(err)
	}
	ctrl := controller.New(controller.Options{})
	if _, err := articles.GetList.Suspense(context.Background(), ctrl, nil); err != nil {
		log.Fatal(err)
	}
	goapp.OnServer = false // this native test plays the browser
	defer func() { goapp.OnServer = app.IsServer }()

	engine := app.NewTestEngine()
	page := &shell{ctrl: ctrl, base: api.URL}
	if err := engine.Load(page); err != nil {
		log.Fatal(err)
	}
	engine.ConsumeAll()
	html := app.HTMLString(page)
	fmt.Println(strings.Contains(html, `<span class="insp-type">Article</span>`))
	fmt.Println(strings.Contains(html, `>Article.getList /articles</code>`))
	// Replacing the page dismounts the inspector, which stops its timer.
	if err := engine.Load(&empty{}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// true
	// true
}
