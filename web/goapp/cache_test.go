package goapp_test

import (
	"context"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/goapp"
)

// cached shows the list of articles the cache holds, fetching nothing.
type cached struct {
	app.Compo
	list goapp.Query[[]*Article]
}

func (c *cached) OnPreRender(ctx app.Context) { c.list.UseCache(ctx, ctrl, articles.GetList, nil) }
func (c *cached) Render() app.UI {
	return c.list.Render(boundary, func(list []*Article) app.UI {
		return app.P().Textf("%d cached", len(list))
	})
}

// A cache-only query of a result the cache does not hold fetches nothing:
// it shows the fallback, and re-renders with what another read brings.
func TestUseCacheFetchesNothingAndFollowsTheCache(t *testing.T) {
	a := newLiveAPI(t)
	setup(t, a, false, controller.Options{})
	engine := app.NewTestEngine()
	c := &cached{}
	require.NoError(t, engine.Load(c))
	engine.ConsumeAll()
	assert.False(t, c.list.State().Has)
	assert.False(t, c.list.State().Loading, "no request started")
	assert.Contains(t, app.HTMLString(c), "Loading…")
	assert.Equal(t, 0, a.getCount(), "a cache read fetches nothing")

	arrived := watch(t, func(l []*Article) bool { return len(l) == 2 })
	_, err := articles.GetList.Fetch(context.Background(), ctrl, nil, nil)
	require.NoError(t, err)
	testkit.Wait(t, arrived, "the list")
	engine.ConsumeAll()
	assert.Equal(t, "<p>2 cached</p>", app.HTMLString(c))
	assert.Equal(t, 1, a.getCount())
}
