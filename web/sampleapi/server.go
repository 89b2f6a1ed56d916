package sampleapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/datafetch/datafetch/web/restserver"
)

// Options configures a [Server]. The zero value is ready to use.
type Options struct {
	// Now is the server's clock, used for timestamps it assigns and for
	// which birthdays are upcoming. Nil means [time.Now].
	Now func() time.Time
	// PageSize is the number of posts on each page of the paginated post
	// routes. Zero or less means 5.
	PageSize int
	// BasePath is the path prefix the handler is mounted under, such as
	// "/api" when wrapped in http.StripPrefix("/api", ...). It is put in
	// front of the URLs the server hands out (Link headers, page tokens),
	// because the handler cannot see the prefix that was stripped.
	BasePath string
	// TickEvery, when positive, changes a ticker that often while a /live
	// stream is open (the demo's feed); zero leaves it to Tick and the
	// /_control/tick route (tests).
	TickEvery time.Duration
}

const defaultPageSize = 5

// Server is the sample API: the resources of package doc on a
// [restserver.Server], whose methods (the test controls, the extension
// points) it has. It is safe for concurrent use.
type Server struct {
	*restserver.Server

	opts Options
	st   *state   // guarded by the restserver's lock
	live liveFeed // the open /live streams
}

// New returns a server holding freshly seeded data.
func New(opts Options) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.PageSize <= 0 {
		opts.PageSize = defaultPageSize
	}
	opts.BasePath = strings.TrimRight(opts.BasePath, "/")
	if opts.BasePath != "" && !strings.HasPrefix(opts.BasePath, "/") {
		opts.BasePath = "/" + opts.BasePath
	}
	s := &Server{
		Server: restserver.New(),
		st:     &state{now: opts.Now, pageSize: opts.PageSize, basePath: opts.BasePath},
		opts:   opts,
	}
	s.st.reseed()
	s.OnReset(s.st.reseed)
	s.routes()
	if opts.TickEvery > 0 {
		go s.tickEvery(opts.TickEvery)
	}
	return s
}

func (s *Server) routes() {
	st := s.st
	for _, r := range []struct {
		pattern string
		fn      func(*http.Request) restserver.Reply
	}{
		{"GET /comments", st.listComments},
		{"GET /comments/{id}", st.getComment},
		{"GET /wrapped/comments", st.listWrappedComments},
		{"GET /wrapped/comments/{id}", st.getWrappedComment},

		{"GET /profiles", st.listProfiles},
		{"GET /profiles/{id}", st.getProfile},

		{"GET /current_user/{$}", st.currentUser},
		{"GET /current_user", st.currentUser},
		{"GET /users", st.listUsers},
		{"GET /users/{id}", st.getUser},
		{"POST /users/{id}/make_manager", st.makeManager},

		{"GET /api/count", st.getCount},
		{"POST /api/count/increment", st.incrementCount},

		{"GET /posts", st.tokenPosts},
		{"GET /posts/{id}", st.getPost},

		{"GET /api/birthdays/{$}", st.listBirthdays},
		{"GET /api/birthdays", st.listBirthdays},
		{"GET /api/birthdays/upcoming/{$}", st.upcomingBirthdays},
		{"GET /api/birthdays/upcoming", st.upcomingBirthdays},
		{"GET /api/birthdays/{id}", st.getBirthday},

		{"GET /tickers", st.listTickers},
		{"GET /tickers/{id}", st.getTicker},
	} {
		s.HandleState(r.pattern, r.fn)
	}
	restserver.HandleCollection(s.Server, "/articles", st.articles, false)
	restserver.HandleCollection(s.Server, "/todos", st.todos, false)
	s.HandleRaw("GET /live", s.serveLive)
	s.liveControls()
}

// Options returns the options the server was made with, defaults filled in.
func (s *Server) Options() Options { return s.opts }

// SeedParagraph returns paragraph i (modulo their number) of the prose the
// seed records are written in, for an extension's seed records.
func SeedParagraph(i int) string { return articleParagraphs[i%len(articleParagraphs)] }

// SeedUserCount is the number of seeded users, whose ids are 1 to n.
func SeedUserCount() int { return len(seedPeople) }

// SeedPosts returns the seeded posts, as /posts pages them.
func SeedPosts() []Post { return seedPosts() }

// isoTime formats t the way JavaScript's Date.prototype.toISOString does, so
// clients can compare fixture timestamps with their own.
func isoTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}
