package resources_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	_ "github.com/datafetch/datafetch/core/rest/nethttp"
	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/web/demo/resources"
	"github.com/datafetch/datafetch/web/sampleapi"
)

// setup serves a fresh demo API under /rest and returns its endpoints
// and a controller.
func setup(t *testing.T) (*sampleapi.Server, *resources.API, *controller.Controller) {
	t.Helper()
	f, a := serve(t, sampleapi.Options{})
	return f.API, a, controller.New(controller.Options{})
}

// serve serves a fresh demo API made with opts under /rest, as the demo
// server mounts it, until the end of t, and returns it and its endpoints.
func serve(t *testing.T, opts sampleapi.Options) (*apitest.Fixture[*sampleapi.Server], *resources.API) {
	t.Helper()
	opts.BasePath = "/rest"
	f := apitest.Mount(t, sampleapi.New(opts), "/rest")
	a, err := resources.New(f.TS.URL + "/rest")
	require.NoError(t, err)
	return f, a
}

func TestArticlePushAppendsToList(t *testing.T) {
	srv, a, c := setup(t)
	ctx := context.Background()
	list, err := a.Articles.GetList.Suspense(ctx, c, resources.ListParams)
	require.NoError(t, err)
	n := len(list)

	srv.SetDelay(200 * time.Millisecond)
	draft := resources.Draft("Hello", "World")
	done := make(chan *resources.Article, 1)
	go func() {
		v, err := a.Articles.Push.Fetch(ctx, c, resources.ListParams, draft)
		assert.NoError(t, err)
		done <- v
	}()
	read := func() []*resources.Article {
		l, err := a.Articles.GetList.Decode(c.GetResponse(a.Articles.Rest.GetList, resources.ListParams).Data)
		require.NoError(t, err)
		return l
	}
	require.Eventually(t, func() bool { return len(read()) == n+1 },
		time.Minute, 5*time.Millisecond, "the optimistic article is appended at once")
	last := read()[n]
	assert.True(t, resources.IsTemporary(last.ID), "under its temporary id: %+v", last)
	assert.Equal(t, "Hello", last.Title)

	created := <-done
	assert.Equal(t, "101", created.ID)
	got := read()
	require.Len(t, got, n+1)
	assert.Equal(t, "101", got[n].ID, "the server id replaces the temporary one")
	assert.Same(t, got[0], list[0], "unchanged articles keep their pointers")
	assert.Equal(t, 0, c.PendingOptimistic())
}

func TestPublishedQueryFollowsPublish(t *testing.T) {
	_, a, c := setup(t)
	ctx := context.Background()
	none, err := a.Articles.Published(c)
	require.NoError(t, err)
	assert.Empty(t, none, "nothing stored, nothing read, no request")

	list, err := a.Articles.GetList.Suspense(ctx, c, resources.ListParams)
	require.NoError(t, err)
	before, err := a.Articles.Published(c)
	require.NoError(t, err)
	again, err := a.Articles.Published(c)
	require.NoError(t, err)
	assert.True(t, df.Same(before, again), "memoized: the same list until an article changes")
	want := 0
	for _, x := range list {
		if x.Published {
			want++
		}
	}
	require.Len(t, before, want)
	for i := 1; i < len(before); i++ {
		assert.LessOrEqual(t, before[i-1].Title, before[i].Title, "sorted by title")
	}
	var draft *resources.Article
	for _, x := range list {
		if !x.Published {
			draft = x
			break
		}
	}
	require.NotNil(t, draft)

	_, err = a.Articles.PartialUpdate.Fetch(ctx, c, resources.ID(draft.ID), map[string]bool{"published": true})
	require.NoError(t, err)
	after, err := a.Articles.Published(c)
	require.NoError(t, err)
	assert.Len(t, after, want+1)
	assert.Contains(t, ids(after), draft.ID)
}

// ids returns the ids of articles.
func ids(list []*resources.Article) []string {
	out := make([]string, len(list))
	for i, a := range list {
		out[i] = a.ID
	}
	return out
}

func TestPublishRollsBack(t *testing.T) {
	srv, a, c := setup(t)
	ctx := context.Background()
	art, err := a.Articles.Get.Suspense(ctx, c, resources.ID("4"))
	require.NoError(t, err)
	require.False(t, art.Published)

	srv.FailNext(1, 500)
	srv.SetDelay(100 * time.Millisecond)
	errc := make(chan error, 1)
	go func() {
		_, err := a.Articles.PartialUpdate.Fetch(ctx, c, resources.ID("4"), map[string]bool{"published": true})
		errc <- err
	}()
	published := func() bool {
		r := a.Articles.Get.Response(c, resources.ID("4"))
		require.NoError(t, r.Err)
		return r.Data.Published
	}
	require.Eventually(t, published, time.Minute, 5*time.Millisecond, "optimistic")
	require.Error(t, <-errc)
	assert.False(t, published(), "rolled back")
}

func TestCounterEndsAtServerCount(t *testing.T) {
	srv, a, c := setup(t)
	ctx := context.Background()
	_, err := a.Counter.Get.Suspense(ctx, c, nil)
	require.NoError(t, err)
	srv.SetJitter(80 * time.Millisecond)
	errc := make(chan error, 10)
	for range 10 {
		go func() {
			_, err := a.Counter.Increment.Fetch(ctx, c, nil, resources.IncrementBody(time.Now()))
			errc <- err
		}()
	}
	for range 10 {
		require.NoError(t, <-errc)
	}
	got := a.Counter.Get.Response(c, nil).Data
	assert.Equal(t, 10, got.Count, "%+v", got)
}

func TestPostsPages(t *testing.T) {
	_, a, c := setup(t)
	ctx := context.Background()
	p1, err := a.Posts.Page.Suspense(ctx, c, resources.PageParams(""))
	require.NoError(t, err)
	assert.Len(t, p1.Results, 5)
	next := p1.NextPage
	assert.Equal(t, "2", resources.PageNumber(next))
	p2, err := a.Posts.Page.Suspense(ctx, c, resources.PageParams(next))
	require.NoError(t, err)
	assert.Equal(t, 6, p2.Results[0].ID)
	assert.Equal(t, "1", resources.PageNumber(p2.PrevPage))

	inf, err := a.Posts.Infinite.Suspense(ctx, c, resources.PageParams(""))
	require.NoError(t, err)
	_, err = a.Posts.Infinite.Fetch(ctx, c, resources.PageParams(inf.NextPage), nil)
	require.NoError(t, err)
	all := a.Posts.Infinite.Response(c, resources.PageParams("")).Data
	assert.Len(t, all.Results, 10)
	assert.Equal(t, "3", resources.PageNumber(all.NextPage))
}

func TestMakeManagerUpdatesCurrentUser(t *testing.T) {
	_, a, c := setup(t)
	ctx := context.Background()
	me, err := a.Users.Current.Suspense(ctx, c, nil)
	require.NoError(t, err)
	require.False(t, me.IsManager)
	_, err = a.Users.MakeManager.Fetch(ctx, c, resources.UserID(me.ID), nil)
	require.NoError(t, err)
	assert.True(t, a.Users.Current.Response(c, nil).Data.IsManager)
}

func TestOtherEndpoints(t *testing.T) {
	_, a, c := setup(t)
	ctx := context.Background()
	up, err := a.Birthdays.Upcoming.Suspense(ctx, c, nil)
	require.NoError(t, err)
	assert.Len(t, up.WithinSevenDays, 4)
	assert.Len(t, up.WithinThirtyDays, 4)
	assert.False(t, up.WithinSevenDays[0].Date.IsZero(), "dates decode as times")

	postOne := map[string]int{"postId": 1}
	plain, err := a.Comments.List.Suspense(ctx, c, postOne)
	require.NoError(t, err)
	wrapped, err := a.Comments.Wrapped.Suspense(ctx, c, postOne)
	require.NoError(t, err)
	require.NotEmpty(t, plain)
	assert.Equal(t, plain, wrapped.Data, "one entity table behind both shapes")
	assert.Same(t, plain[0], wrapped.Data[0], "the same entity decodes to the same pointer")

	profiles, err := a.Profiles.GetList.Suspense(ctx, c, nil)
	require.NoError(t, err)
	assert.Len(t, profiles, 8)
}
