package api

import (
	"strconv"
	"time"
)

// table is an insertion-ordered map of records keyed by their id as a
// string, so list endpoints answer in a stable order across requests.
type table[T any] struct {
	ids  []string
	rows map[string]T
}

func newTable[T any]() *table[T] {
	return &table[T]{rows: make(map[string]T)}
}

func (t *table[T]) all() []T {
	out := make([]T, 0, len(t.ids))
	for _, id := range t.ids {
		out = append(out, t.rows[id])
	}
	return out
}

func (t *table[T]) get(id string) (T, bool) {
	v, ok := t.rows[id]
	return v, ok
}

// put stores v under id, appending id to the order when it is new.
func (t *table[T]) put(id string, v T) {
	if _, ok := t.rows[id]; !ok {
		t.ids = append(t.ids, id)
	}
	t.rows[id] = v
}

func (t *table[T]) remove(id string) bool {
	if _, ok := t.rows[id]; !ok {
		return false
	}
	delete(t.rows, id)
	for i, v := range t.ids {
		if v == id {
			t.ids = append(t.ids[:i:i], t.ids[i+1:]...)
			break
		}
	}
	return true
}

// firstCreatedID is where server-assigned ids start, far enough above the
// seed ids that a test can tell a created record from a seeded one.
const firstCreatedID = 101

// state is everything a request can read or change. All access goes through
// Server.mu; handlers are methods on state and run with the lock held.
type state struct {
	now      func() time.Time
	pageSize int
	basePath string

	comments     []Comment
	profiles     []Profile
	users        *table[User]
	articles     *Collection[Article]
	todos        *Collection[Todo]
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
	st.users = newTable[User]()
	for _, u := range seedUsers() {
		st.users.put(strconv.Itoa(u.ID), u)
	}
	if st.articles == nil {
		st.articles = NewCollection(articleSpec(st.now))
		st.todos = NewCollection(todoSpec())
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
