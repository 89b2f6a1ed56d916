package goapp_test

import (
	"context"
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

// pollEvery is the PollFrequency of the live list.
const pollEvery = 10 * time.Second

// liveList shows a polled list of articles.
type liveList struct {
	app.Compo
	getList *df.Endpoint[[]*Article]
	list    goapp.Query[[]*Article]
}

func (c *liveList) OnPreRender(ctx app.Context) { c.list.Use(ctx, ctrl, c.getList, nil) }
func (c *liveList) OnDismount()                 { c.list.Close() }

func (c *liveList) Render() app.UI {
	return c.list.Render(boundary, func(list []*Article) app.UI {
		return app.Ul().Body(app.Range(list).Slice(func(i int) app.UI {
			return app.Li().Text(list[i].Title)
		}))
	})
}

// A live read: a shown Query of an endpoint with a PollFrequency refetches
// it on each tick of the controller's timers and the component shows what
// came; after Close a tick sends nothing. The timers are fakes the test
// fires: nothing sleeps.
func TestQueryPollsWhileShown(t *testing.T) {
	a := newLiveAPI(t)
	timers := testkit.NewTimers()
	setup(t, a, false, controller.Options{AfterFunc: timers.AfterFunc})
	polled, err := articles.Rest.GetList.Extend(func(o *rest.Options) { o.PollFrequency = pollEvery })
	require.NoError(t, err)
	c := &liveList{}
	c.getList, err = df.Wrap[[]*Article](polled)
	require.NoError(t, err)
	// Fetched beforehand (a read that polls nothing), so that the first
	// render has the list.
	_, err = c.getList.Suspense(context.Background(), ctrl, nil)
	require.NoError(t, err)
	engine := app.NewTestEngine()
	require.NoError(t, engine.Load(c))
	engine.ConsumeAll()
	assert.Contains(t, app.HTMLString(c), "<li>Hello</li>")

	tick := timers.Next(t, "the poll timer")
	assert.Equal(t, pollEvery, tick.D)
	for i, title := range []string{"Changed", "Changed again"} {
		a.mu.Lock()
		a.items[0]["title"] = title
		a.mu.Unlock()
		arrived := watchList(t, c.getList, func(l []*Article) bool { return l[0].Title == title })
		require.True(t, tick.Fire())
		testkit.Wait(t, arrived, "the polled list")
		tick = timers.Next(t, "the next poll timer")
		engine.ConsumeAll()
		assert.Contains(t, app.HTMLString(c), "<li>"+title+"</li>")
		assert.Equal(t, i+2, a.getCount(), "one request a tick")
	}

	c.list.Close()
	// The Unsubscribe event may come from the goroutine delivering the
	// last poll's notifications, just after Close returns.
	require.Eventually(t, tick.Stopped, testkit.WaitLimit, time.Millisecond, "Close stops the poll timer")
	assert.False(t, tick.Fire())
	assert.Empty(t, timers.Pending(), "no timer started after Close")
	assert.Equal(t, 3, a.getCount(), "nothing polled after Close")
}

// watchList reports on the returned channel when ep's result for no
// params passes ok; start it after the component's query subscribed, so
// that the query is told of each change first.
func watchList(t *testing.T, ep *df.Endpoint[[]*Article], ok func([]*Article) bool) <-chan struct{} {
	t.Helper()
	seen := make(chan struct{}, 1)
	unsub, err := ep.Subscribe(ctrl, nil, func(st df.State[[]*Article]) {
		if st.Has && ok(st.Data) {
			select {
			case seen <- struct{}{}:
			default:
			}
		}
	}, controller.SubscribeOptions{NoFetch: true})
	require.NoError(t, err)
	t.Cleanup(unsub)
	return seen
}
