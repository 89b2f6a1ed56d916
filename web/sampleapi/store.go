package sampleapi

import (
	"strconv"
	"time"

	"github.com/datafetch/datafetch/web/restserver"
)

// state is everything a request can read or change. All access goes through
// the restserver's lock: handlers are methods on state added as its state
// routes, which run with the lock held, and other changes go through
// [restserver.Server.Locked].
type state struct {
	now      func() time.Time
	pageSize int
	basePath string

	comments     []Comment
	profiles     []Profile
	users        *restserver.Table[User]
	articles     *restserver.Collection[Article]
	todos        *restserver.Collection[Todo]
	posts        []Post
	birthdays    []Birthday
	count        Count
	countChanged time.Time // time of the last increment; zero when none
	tickers      []Ticker
	// nextTick is the ticker the next tick changes; tickCount counts ticks.
	nextTick, tickCount int
}

// reseed replaces all data with freshly built seed records. Building anew
// (rather than copying a template) means no slice is ever shared between a
// reset state and an old one.
func (st *state) reseed() {
	now := st.now()
	st.comments = seedComments()
	st.profiles = seedProfiles()
	st.users = restserver.NewTable[User]()
	for _, u := range seedUsers() {
		st.users.Put(strconv.Itoa(u.ID), u)
	}
	if st.articles == nil {
		st.articles = restserver.NewCollection(articleSpec(st.now))
		st.todos = restserver.NewCollection(todoSpec())
	} else {
		st.articles.Reset()
		st.todos.Reset()
	}
	st.posts = seedPosts()
	st.birthdays = seedBirthdays(now)
	st.count = Count{Count: 0, UpdatedAt: isoTime(now)}
	st.countChanged = time.Time{}
	st.tickers = seedTickers()
	st.nextTick, st.tickCount = 0, 0
}
