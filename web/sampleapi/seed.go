package sampleapi

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The seed data is built by code from fixed word lists rather than loaded
// from files, so it is deterministic, needs no embedding, and a reset is a
// plain rebuild. Only birthdays depend on the clock, because "upcoming" is
// relative to now.

var seedPeople = []struct {
	name, email, bio string
}{
	{"Ada Whitfield", "ada.whitfield@example.com", "Writes the caching layer and the release notes nobody reads."},
	{"Bruno Castellanos", "bruno@castellanos.example.org", "Engineering manager; keeps a spreadsheet of every flaky test since 2019."},
	{"Chiara Lindqvist", "chiara.l@example.net", "Frontend developer who prefers her state normalized and her coffee black."},
	{"Dmitri Okafor", "d.okafor@example.com", "Builds offline-first apps for field researchers."},
	{"Esther Nakamura", "esther@nakamura.example.org", "Accessibility advocate and keyboard-shortcut collector."},
	{"Farid Haddad", "farid.haddad@example.net", "Runs the platform team; answers pages at 3 a.m. with suspicious cheer."},
	{"Greta Solberg", "greta.solberg@example.com", "Designs APIs and argues about trailing slashes."},
	{"Hiro Takemura", "hiro@takemura.example.org", "Performance tinkerer; measures twice, optimizes once."},
	{"Imani Mbeki", "imani.mbeki@example.net", "Data engineer who dreams in pagination tokens."},
	{"Jonas Vermeer", "jonas.vermeer@example.com", "Technical writer; turns edge cases into examples."},
}

// seedManagers holds the ids of users who start as managers; user 1, the
// current user, is not one, so make_manager visibly changes it.
var seedManagers = map[int]bool{2: true, 6: true}

func seedUsers() []User {
	users := make([]User, len(seedPeople))
	for i, p := range seedPeople {
		users[i] = User{ID: i + 1, Name: p.name, Email: p.email, IsManager: seedManagers[i+1]}
	}
	return users
}

func seedProfiles() []Profile {
	profiles := make([]Profile, 8)
	for i := range profiles {
		p := seedPeople[i]
		profiles[i] = Profile{ID: strconv.Itoa(i + 1), FullName: p.name, Bio: p.bio}
	}
	return profiles
}

var commentSubjects = []string{
	"great write-up, one question",
	"this fixed my stale cache",
	"what about optimistic deletes",
	"tried it with a slow network",
	"the example needs a default",
	"pagination tokens are tricky",
	"small typo in the second snippet",
	"works in the worker too",
	"how does this handle 404s",
	"thanks for the clear diagram",
}

var commentLines = []string{
	"I ran the example against our staging API and it behaved exactly as described.",
	"The part about stale-while-revalidate finally clicked for me.",
	"Would be nice to see how errors propagate when the server returns HTML.",
	"We hit the same race between two quick updates last sprint.",
	"Normalizing by primary key removed a whole class of bugs for us.",
	"Does the rollback keep later responses that arrived in between?",
	"Our list endpoint returns nextPage as null on the last page; that works too.",
	"Please keep the snippets short like this one.",
	"I had to add a default for the non-entity member before it rendered.",
	"Deduplicating identical requests cut our traffic by a third.",
	"The temporary id trick is clever but needs a note about keys.",
	"Tested on a flaky train connection; the retry story holds up.",
}

// commentsPerPost matches the shape of typical placeholder APIs: a handful of
// comments on each of the first few posts.
const (
	commentsPerPost  = 5
	postsWithComment = 6
)

func seedComments() []Comment {
	n := commentsPerPost * postsWithComment
	comments := make([]Comment, n)
	for i := range comments {
		lines := []string{
			commentLines[i%len(commentLines)],
			commentLines[(i*5+3)%len(commentLines)],
			commentLines[(i*7+1)%len(commentLines)],
		}
		comments[i] = Comment{
			PostID: i/commentsPerPost + 1,
			ID:     i + 1,
			Name:   commentSubjects[(i*3)%len(commentSubjects)],
			Email:  seedPeople[(i*7+2)%len(seedPeople)].email,
			Body:   strings.Join(lines, "\n"),
		}
	}
	return comments
}

var articleTitles = []string{
	"Normalizing nested API responses",
	"Stale-while-revalidate in practice",
	"Why your cache needs primary keys",
	"Optimistic updates without tears",
	"Rolling back a failed mutation",
	"Pagination tokens in the body",
	"Reading the Link header",
	"Deduplicating identical requests",
	"Temporary ids for new records",
	"Ordering out-of-order responses",
	"Invalidate or expire?",
	"Singletons: one record, no list",
	"Dates on the wire",
	"Schemas with default values",
	"Polymorphic lists with unions",
	"Testing against a fake server",
	"Timeouts and aborted requests",
	"Error boundaries for data",
	"Referential stability explained",
	"Shipping Go to the browser",
	"A tour of the controller",
	"Sequential reads done right",
	"Polling without hammering the API",
	"Migrating from legacy resources",
}

var articleParagraphs = []string{
	"A normalized cache stores each record once, keyed by its primary key, and every list holds keys rather than copies.",
	"When the cached value is stale the reader gets it at once while a fresh copy is fetched in the background.",
	"An optimistic update is applied the moment the request starts and is replaced, or undone, when the server answers.",
	"Two identical reads in flight share one request; a mutation is never shared.",
	"Responses that arrive out of order must not overwrite newer data, so each carries the moment its request began.",
	"Pages of a list are fetched by token; an empty or null token means there is no such page.",
}

var articleTags = []string{"caching", "rest", "optimistic", "pagination", "testing", "performance", "wasm", "go"}

// articleEpoch anchors seeded creation times; fixed, so responses do not
// depend on when the server started.
var articleEpoch = time.Date(2024, time.March, 1, 9, 0, 0, 0, time.UTC)

func seedArticles() []Article {
	articles := make([]Article, len(articleTitles))
	for i, title := range articleTitles {
		tags := []string{articleTags[i%len(articleTags)]}
		if i%3 != 2 {
			tags = append(tags, articleTags[(i+3)%len(articleTags)])
		}
		author := i%len(seedPeople) + 1
		articles[i] = Article{
			ID:    strconv.Itoa(i + 1),
			Title: title,
			Content: articleParagraphs[i%len(articleParagraphs)] + " " +
				articleParagraphs[(i+2)%len(articleParagraphs)],
			Published: i%4 != 3,
			Tags:      tags,
			Author:    &author,
			CreatedAt: isoTime(articleEpoch.Add(time.Duration(i) * (29*time.Hour + 17*time.Minute))),
		}
	}
	return articles
}

var postTitles = []string{
	"Hello from the fixture server",
	"Caching basics",
	"Keys and identity",
	"The first page",
	"Where lists end",
	"Tokens, not offsets",
	"A post about posts",
	"Retries and backoff",
	"Loading states",
	"Empty lists are data too",
	"Server-assigned ids",
	"Partial updates",
	"Headers worth reading",
	"Slow networks",
	"Fast networks",
	"Bodies that are not JSON",
	"Connections that drop",
	"Requests that never end",
	"Counting requests",
	"Holding requests",
	"Releasing requests",
	"Resetting the world",
	"The last post",
}

func seedPosts() []Post {
	posts := make([]Post, len(postTitles))
	for i, title := range postTitles {
		posts[i] = Post{
			ID:      i + 1,
			Title:   title,
			Content: fmt.Sprintf("Post %d. %s", i+1, articleParagraphs[i%len(articleParagraphs)]),
			UserID:  (i*3)%len(seedPeople) + 1,
		}
	}
	return posts
}

// seedBirthdayOffsets places birthdays relative to today: four within seven
// days (today and day 7 included), four within 8..30 days, and four outside,
// including yesterday's, whose next occurrence is a year away.
var seedBirthdayOffsets = []struct {
	name, source string
	days         int
}{
	{"Marta Ruiz", "contacts", 0},
	{"Kwame Asante", "calendar", 3},
	{"Lena Fischer", "contacts", 6},
	{"Oskar Nilsen", "social", 7},
	{"Priya Raman", "calendar", 9},
	{"Tomás Silva", "social", 16},
	{"Yuki Aoki", "contacts", 23},
	{"Zanele Dlamini", "calendar", 30},
	{"Noor Haddad", "social", 45},
	{"Sven Eriksson", "contacts", 120},
	{"Amara Obi", "calendar", -1},
	{"Felix Braun", "social", -60},
}

func seedBirthdays(now time.Time) []Birthday {
	today := civilDay(now)
	out := make([]Birthday, len(seedBirthdayOffsets))
	for i, b := range seedBirthdayOffsets {
		day := today.AddDate(0, 0, b.days)
		year := 1975 + i*3
		if day.Month() == time.February && day.Day() == 29 {
			year = 1988 + i*4 // a leap year, or the date would roll over to March 1
		}
		born := time.Date(year, day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
		out[i] = Birthday{
			ID:     strconv.Itoa(i + 1),
			Name:   b.name,
			Image:  fmt.Sprintf("/images/avatars/%d.png", i+1),
			Source: b.source,
			Date:   isoTime(born),
		}
	}
	return out
}

// civilDay truncates t to midnight UTC, the day birthdays are counted in.
func civilDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
