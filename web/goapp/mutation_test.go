package goapp_test

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/goapp"
)

// rowContexts holds the context of each publishRow mounted, by article id,
// and rowGone is called when one is dismounted (both used on go-app's UI
// goroutine, which the test drives).
var (
	rowContexts = map[string]app.Context{}
	rowGone     = func(id string) {}
)

// publishRow is an unpublished article's row: its context is that of an
// element the optimistic update of its own mutation removes.
type publishRow struct {
	app.Compo
	ID string
}

func (r *publishRow) OnPreRender(ctx app.Context) { rowContexts[r.ID] = ctx }
func (r *publishRow) OnDismount()                 { rowGone(r.ID) }
func (r *publishRow) Render() app.UI              { return app.Button().Text("Publish " + r.ID) }

// publisher lists the unpublished articles, each a publishRow, and
// publishes them through a Mutation.
type publisher struct {
	app.Compo
	list    goapp.Query[[]*Article]
	publish goapp.Mutation[*Article]
}

func (c *publisher) OnPreRender(ctx app.Context) {
	c.list.Use(ctx, ctrl, articles.GetList, nil)
	c.publish.Use(ctx, ctrl, articles.PartialUpdate)
}

func (c *publisher) Render() app.UI {
	return c.list.Render(boundary, func(list []*Article) app.UI {
		var rows []app.UI
		for _, a := range list {
			if !a.Published {
				rows = append(rows, &publishRow{ID: a.ID})
			}
		}
		return app.Div().Body(rows...)
	})
}

// A mutation started from a row that its optimistic update removes still
// reaches the component that owns it: done runs with that component's
// context, and Result, Busy and the render follow the outcome.
func TestMutationOutcomeReachesTheOwnerWhenTheElementIsGone(t *testing.T) {
	a := newLiveAPI(t)
	engine, _ := mount(t, a, true) // sets up ctrl and articles, prefetched
	c := &publisher{}
	require.NoError(t, engine.Load(c))
	engine.ConsumeAll()
	row, ok := rowContexts["2"]
	require.True(t, ok, "the unpublished article has a row")
	require.True(t, row.Src().Mounted())

	// The server answers once the row is gone, so that the outcome arrives
	// after the optimistic update removed the element that started it.
	gate := make(chan struct{})
	a.mu.Lock()
	a.gate = gate
	a.mu.Unlock()
	rowGone = func(id string) {
		if id == "2" {
			close(gate)
		}
	}
	t.Cleanup(func() { rowGone = func(string) {} })
	optimistic := watch(t, func(l []*Article) bool { return l[1].Published })
	type outcome struct {
		src       app.UI
		published bool
		err       error
	}
	results := make(chan outcome, 1)
	c.publish.Run(row, map[string]string{"id": "2"}, map[string]bool{"published": true},
		func(ctx app.Context, r *Article, err error) {
			results <- outcome{ctx.Src(), r != nil && r.Published, err}
		})
	assert.True(t, c.publish.Busy())
	testkit.Wait(t, optimistic, "the optimistic update")
	// Renders the optimistic list, which removes the row and so lets the
	// server answer; then waits for the mutation and runs done.
	engine.ConsumeAll()
	assert.False(t, row.Src().Mounted(), "the optimistic update removed the row")
	got := testkit.Wait(t, results, "the mutation's outcome")
	require.NoError(t, got.err)
	assert.Same(t, c, got.src, "done runs with the owner's context")
	assert.True(t, got.published)
	assert.False(t, c.publish.Busy())
	require.NotNil(t, c.publish.Result())
	assert.True(t, c.publish.Result().Published)
	assert.NotContains(t, app.HTMLString(c), "Publish 2")
}

func TestMutationRunBeforeUseFails(t *testing.T) {
	engine, c := mount(t, newLiveAPI(t), true)
	var m goapp.Mutation[*Article]
	results := make(chan error, 1)
	m.Run(c.ctx, nil, nil, func(_ app.Context, _ *Article, err error) { results <- err })
	engine.ConsumeAll()
	assert.ErrorContains(t, testkit.Wait(t, results, "the outcome"), "Mutation.Run before Mutation.Use")
	assert.ErrorContains(t, m.Err(), "before Mutation.Use")
	assert.Nil(t, m.Result())
}
