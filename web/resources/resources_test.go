package resources_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	_ "github.com/datafetch/datafetch/core/rest/nethttp"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/web/api"
	"github.com/datafetch/datafetch/web/resources"
)

// setup serves a fresh demo API under /rest and returns its endpoints
// and a controller.
func setup(t *testing.T) (*api.Server, *resources.API, *controller.Controller) {
	t.Helper()
	f, a := serve(t, api.Options{})
	return f.API, a, controller.New(controller.Options{})
}

// serve serves a fresh demo API made with opts under /rest, as the demo
// server mounts it, until the end of t, and returns it and its endpoints.
func serve(t *testing.T, opts api.Options) (*apitest.Fixture[*api.Server], *resources.API) {
	t.Helper()
	opts.BasePath = "/rest"
	f := apitest.Mount(t, api.New(opts), "/rest")
	a, err := resources.New(f.TS.URL + "/rest")
	require.NoError(t, err)
	return f, a
}

func TestArticleCreateAppendsToList(t *testing.T) {
	srv, a, c := setup(t)
	ctx := context.Background()
	list, err := c.Suspense(ctx, a.Articles.GetList, resources.ListParams)
	require.NoError(t, err)
	n := list.Len()

	srv.SetDelay(200 * time.Millisecond)
	draft := resources.Draft("Hello", "World")
	done := make(chan value.Value, 1)
	go func() {
		v, err := c.Fetch(ctx, a.Articles.Create, value.Obj(), draft)
		assert.NoError(t, err)
		done <- v
	}()
	require.Eventually(t, func() bool {
		return c.GetResponse(a.Articles.GetList, resources.ListParams).Data.Len() == n+1
	}, time.Second, 5*time.Millisecond, "the optimistic article is appended at once")
	last := c.GetResponse(a.Articles.GetList, resources.ListParams).Data.Elems()[n]
	assert.True(t, resources.IsTemporary(last.Get("id").Str()), "under its temporary id: %s", last.JSON())

	created := <-done
	assert.Equal(t, "101", created.Get("id").Str())
	got := c.GetResponse(a.Articles.GetList, resources.ListParams).Data
	require.Equal(t, n+1, got.Len())
	assert.Equal(t, "101", got.Elems()[n].Get("id").Str(), "the server id replaces the temporary one")
	assert.Equal(t, 0, c.PendingOptimistic())
}

func TestPublishRollsBack(t *testing.T) {
	srv, a, c := setup(t)
	ctx := context.Background()
	art, err := c.Suspense(ctx, a.Articles.Get, resources.ID("4"))
	require.NoError(t, err)
	require.False(t, art.Get("published").Boolean())

	srv.FailNext(1, 500)
	srv.SetDelay(100 * time.Millisecond)
	errc := make(chan error, 1)
	go func() {
		_, err := c.Fetch(ctx, a.Articles.PartialUpdate, resources.ID("4"), value.Obj(value.M("published", value.True)))
		errc <- err
	}()
	require.Eventually(t, func() bool {
		return c.GetResponse(a.Articles.Get, resources.ID("4")).Data.Get("published").Boolean()
	}, time.Second, 5*time.Millisecond, "optimistic")
	require.Error(t, <-errc)
	assert.False(t, c.GetResponse(a.Articles.Get, resources.ID("4")).Data.Get("published").Boolean(), "rolled back")
}

func TestCounterEndsAtServerCount(t *testing.T) {
	srv, a, c := setup(t)
	ctx := context.Background()
	_, err := c.Suspense(ctx, a.Counter.Get, value.Obj())
	require.NoError(t, err)
	srv.SetJitter(80 * time.Millisecond)
	errc := make(chan error, 10)
	for range 10 {
		go func() {
			_, err := c.Fetch(ctx, a.Counter.Increment, value.Obj(), resources.IncrementBody(time.Now()))
			errc <- err
		}()
	}
	for range 10 {
		require.NoError(t, <-errc)
	}
	got := c.GetResponse(a.Counter.Get, value.Obj()).Data
	assert.Equal(t, "10", got.Get("count").Raw(), "%s", got.JSON())
}

func TestPostsPages(t *testing.T) {
	_, a, c := setup(t)
	ctx := context.Background()
	p1, err := c.Suspense(ctx, a.Posts.Page, resources.PageParams(""))
	require.NoError(t, err)
	assert.Equal(t, 5, p1.Get("results").Len())
	next := p1.Get("nextPage").Str()
	assert.Equal(t, "2", resources.PageNumber(next))
	p2, err := c.Suspense(ctx, a.Posts.Page, resources.PageParams(next))
	require.NoError(t, err)
	assert.Equal(t, "6", p2.Get("results").Elems()[0].Get("id").Raw())
	assert.Equal(t, "1", resources.PageNumber(p2.Get("prevPage").Str()))

	inf, err := c.Suspense(ctx, a.Posts.Infinite, resources.PageParams(""))
	require.NoError(t, err)
	_, err = c.Fetch(ctx, a.Posts.Infinite, resources.PageParams(inf.Get("nextPage").Str()), nil)
	require.NoError(t, err)
	all := c.GetResponse(a.Posts.Infinite, resources.PageParams("")).Data
	assert.Equal(t, 10, all.Get("results").Len())
	assert.Equal(t, "3", resources.PageNumber(all.Get("nextPage").Str()))
}

func TestMakeManagerUpdatesCurrentUser(t *testing.T) {
	_, a, c := setup(t)
	ctx := context.Background()
	me, err := c.Suspense(ctx, a.Users.Current, value.Obj())
	require.NoError(t, err)
	require.False(t, me.Get("isManager").Boolean())
	_, err = c.Fetch(ctx, a.Users.MakeManager, value.Obj(value.M("id", me.Get("id"))), nil)
	require.NoError(t, err)
	assert.True(t, c.GetResponse(a.Users.Current, value.Obj()).Data.Get("isManager").Boolean())
}

func TestOtherEndpoints(t *testing.T) {
	_, a, c := setup(t)
	ctx := context.Background()
	up, err := c.Suspense(ctx, a.Birthdays.Upcoming, value.Obj())
	require.NoError(t, err)
	assert.Equal(t, 4, up.Get("withinSevenDays").Len())
	assert.Equal(t, 4, up.Get("withinThirtyDays").Len())
	assert.Equal(t, value.Number, up.Get("withinSevenDays").Elems()[0].Get("date").Kind(), "dates are epoch ms")

	plain, err := c.Suspense(ctx, a.Comments.List, value.Obj(value.M("postId", value.Int(1))))
	require.NoError(t, err)
	wrapped, err := c.Suspense(ctx, a.Comments.Wrapped, value.Obj(value.M("postId", value.Int(1))))
	require.NoError(t, err)
	assert.Equal(t, plain.JSON(), wrapped.Get("data").JSON(), "one entity table behind both shapes")

	profiles, err := c.Suspense(ctx, a.Profiles.GetList, value.Obj())
	require.NoError(t, err)
	assert.Equal(t, 8, profiles.Len())
}
