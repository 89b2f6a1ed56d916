package restserver

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Server is an in-memory REST server for tests and demos. It is safe for
// concurrent use; its methods are the test controls and are also reachable
// over HTTP under /_control/. It serves no resource of its own: a package
// built on it adds its routes with [Server.HandleState], [Server.HandleRaw]
// and [HandleCollection], and resets its data in [Server.OnReset].
//
// Each API request goes through the same steps: it is counted on arrival,
// waits out the delay, waits while held (see [Server.Hold]), then runs, one
// request at a time, unless [Server.FailNext] fails it, and finally may have
// its response held (see [Server.HoldResponses]).
type Server struct {
	api     *http.ServeMux
	control *http.ServeMux

	// mu guards the data of the routes added with HandleState (and
	// Locked) and the fail-next budget. Every state handler runs with
	// it held, which serializes requests the way a single database would
	// and gives held requests a well-defined order.
	mu         sync.Mutex
	failLeft   int
	failStatus int
	// getFailLeft and getFailStatus are the FailNextGets budget.
	getFailLeft   int
	getFailStatus int

	delay  atomic.Int64 // time.Duration added before each API request
	jitter atomic.Int64 // up to this much more, at random, per request

	countMu sync.Mutex
	counts  map[string]int

	holds holdQueue

	closeOnce sync.Once
	closed    chan struct{} // closed by Close; ends routes that wait forever

	onReset []func() // run by Reset under mu (see OnReset)
}

// New returns a server with no routes but the /_control/ ones: every other
// request answers 404 {"error": "no route for GET /path"} until routes are
// added.
func New() *Server {
	s := &Server{
		api:     http.NewServeMux(),
		control: http.NewServeMux(),
		counts:  make(map[string]int),
		closed:  make(chan struct{}),
	}
	s.HandleRaw("/", notFound)
	s.controlRoutes()
	return s
}

// apiFunc handles a request against the state. It runs with Server.mu held
// and must not block.
type apiFunc func(r *http.Request) Reply

// ServeHTTP answers CORS preflight requests itself, sends /_control/ requests
// to the test controls and everything else to the API. The control routes
// mirror the Go methods:
//
//	POST /_control/delay?ms=N&jitter=J          SetDelay and SetJitter (J defaults to 0)
//	POST /_control/fail-next?count=N&status=S   FailNext (count 1, status 500 by default)
//	POST /_control/fail-next-get?count=N&status=S  FailNextGets (count 1, status 503 by default)
//	POST /_control/hold                         Hold (?mode=response: HoldResponses)
//	GET  /_control/held                         Held (?wait=N&timeout=MS: WaitHeld first)
//	POST /_control/release?seq=N                Release; 404 if N is not held
//	POST /_control/release-all                  ReleaseAll
//	POST /_control/unhold                       Unhold
//	POST /_control/reset                        Reset
//	GET  /_control/counts                       Counts
//
// Setters answer 204. A package built on the server adds control routes of
// its own with [Server.HandleControl].
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setCORS(w.Header())
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.URL.Path == "/_control" || strings.HasPrefix(r.URL.Path, "/_control/") {
		s.control.ServeHTTP(w, r)
		return
	}
	s.api.ServeHTTP(w, r)
}

// requestKey names a request as "METHOD /path?query", the form used by
// counts and the held list.
func requestKey(r *http.Request) (method, path string) {
	path = r.URL.Path
	if r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	return r.Method, path
}

// admit runs the steps every API request shares before it is handled: it is
// counted, its body is buffered and, when requests are held, it waits for
// release. It reports false when the request
// has already been answered (or abandoned); otherwise the caller must call
// h.pass once it is ready for the next release to proceed.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) (h *heldEntry, ok bool) {
	if isInternal(r) {
		if rp := readBody(w, r); rp != nil {
			rp.write(w)
			return nil, false
		}
		return nil, true
	}
	method, path := requestKey(r)
	s.countMu.Lock()
	s.counts[method+" "+path]++
	s.countMu.Unlock()

	if rp := readBody(w, r); rp != nil {
		rp.write(w)
		return nil, false
	}
	h = s.holds.enqueue(stageRequest, method, path)
	if h == nil {
		return nil, true
	}
	switch s.holds.wait(r.Context(), h) {
	case waitDropped:
		errorReply(http.StatusServiceUnavailable, "%s %s: held request dropped by a server reset", method, path).write(w)
		return nil, false
	case waitGone:
		return nil, false
	}
	return h, true
}

// travel waits out the configured latency of one request, or until its
// client is gone or the server closed (false). The state routes wait after they have run and
// before they answer, so requests change the state in the order they
// arrive and only their answers come back out of order: the case the
// counter's ordering rule is for (useIncoming on updatedAt, so answers
// that arrive out of order cannot overwrite newer data). Delayed before
// running, a counter's increments would be applied in a random order, and
// no ordering of the answers could keep the count it shows from going down.
func (s *Server) travel(r *http.Request) bool {
	d := s.latency()
	if d <= 0 || isInternal(r) {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-s.closed:
		return false
	}
}

// latency is the delay of one request: the fixed delay plus a random part
// of the jitter.
func (s *Server) latency() time.Duration {
	d := time.Duration(s.delay.Load())
	if j := s.jitter.Load(); j > 0 {
		d += time.Duration(rand.Int64N(j + 1))
	}
	return d
}

// stateRoute wraps a handler that reads or changes the state.
func (s *Server) stateRoute(fn apiFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, ok := s.admit(w, r)
		if !ok {
			return
		}
		s.mu.Lock()
		h.pass()
		rp := s.failOrRun(r, fn)
		s.mu.Unlock()
		if !s.travel(r) {
			return
		}

		method, path := requestKey(r)
		if isInternal(r) {
			rp.write(w)
			return
		}
		if out := s.holds.enqueue(stageResponse, method, path); out != nil {
			res := s.holds.wait(r.Context(), out)
			out.pass()
			if res == waitGone {
				return
			}
			// A dropped response-stage request has already changed the
			// state, so its real answer is still the truthful one.
		}
		rp.write(w)
	})
}

// rawRoute wraps a handler that does not touch the state. It is counted,
// delayed and held like any API request, but runs without the lock and is
// never failed by FailNext.
func (s *Server) rawRoute(fn http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, ok := s.admit(w, r)
		if !ok {
			return
		}
		h.pass()
		if !s.travel(r) {
			return
		}
		fn(w, r)
	})
}

// failOrRun spends one FailNext failure on a mutation, or runs fn. The
// failure is decided here, at run time, so held mutations fail in the order
// they are released.
func (s *Server) failOrRun(r *http.Request, fn apiFunc) Reply {
	if isMutation(r.Method) && s.failLeft > 0 {
		s.failLeft--
		return errorReply(s.failStatus, "%s %s: injected failure (fail-next)", r.Method, r.URL.Path)
	}
	if r.Method == http.MethodGet && s.getFailLeft > 0 && !isInternal(r) {
		s.getFailLeft--
		return errorReply(s.getFailStatus, "%s %s: injected failure (fail-next-get)", r.Method, r.URL.Path)
	}
	return fn(r)
}

func isMutation(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

func notFound(w http.ResponseWriter, r *http.Request) {
	errorReply(http.StatusNotFound, "no route for %s %s", r.Method, r.URL.Path).write(w)
}

// internalKey marks the context of a request the demo server makes to
// itself (see Internal).
type internalKey struct{}

// Internal returns a context for requests that the program serving the API
// makes to it in-process, such as the demo server reading the data it
// renders into a page: they are not counted, delayed or held, so the test
// controls and counts see only what clients send.
func Internal(ctx context.Context) context.Context {
	return context.WithValue(ctx, internalKey{}, true)
}

func isInternal(r *http.Request) bool {
	v, _ := r.Context().Value(internalKey{}).(bool)
	return v
}
