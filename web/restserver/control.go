package restserver

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"time"
)

// SetDelay adds d of latency before every API request from now on; zero
// turns it off. The delay comes before any hold, like a slow network would.
func (s *Server) SetDelay(d time.Duration) {
	s.delay.Store(int64(max(d, 0)))
}

// SetJitter adds, on top of the delay, a random latency between zero and d
// to every API request from now on, drawn anew for each, so that responses
// can arrive in another order than their requests were sent; zero turns it
// off.
func (s *Server) SetJitter(d time.Duration) {
	s.jitter.Store(int64(max(d, 0)))
}

// Latency returns the added delay and jitter in force, as SetDelay,
// SetJitter and /_control/delay left them.
func (s *Server) Latency() (delay, jitter time.Duration) {
	return time.Duration(s.delay.Load()), time.Duration(s.jitter.Load())
}

// FailNext makes the next n mutations (any method but GET, HEAD and
// OPTIONS) answer status with a JSON error and change nothing; a status
// outside 400-599, such as zero, means 500. Reads are never failed, so a
// test can fail a save and still read the unchanged record. Failures are
// spent when a request runs, so held mutations fail in release order.
func (s *Server) FailNext(n, status int) {
	if status < 400 || status > 599 {
		status = http.StatusInternalServerError
	}
	s.mu.Lock()
	s.failLeft, s.failStatus = max(n, 0), status
	s.mu.Unlock()
}

// FailNextGets makes the next n GET requests to the data routes answer
// status with a JSON error, as a flaky network or an overloaded server
// would, so a client's retries can be watched; a status outside 400-599,
// such as zero, means 503. Mutations are not failed by it, nor the
// in-process requests of [Internal]. Like FailNext, failures are spent
// when a request runs.
func (s *Server) FailNextGets(n, status int) {
	if status < 400 || status > 599 {
		status = http.StatusServiceUnavailable
	}
	s.mu.Lock()
	s.getFailLeft, s.getFailStatus = max(n, 0), status
	s.mu.Unlock()
}

// Hold makes every API request that arrives from now on wait, before it
// runs, until it is released. A released request runs against the state as
// it is at release time, so mutations apply in release order.
func (s *Server) Hold() {
	s.holds.setMode(holdRequests)
}

// HoldResponses makes every API request that arrives from now on run at
// once but withhold its response until released. It lets a test deliver
// answers out of the order in which the server applied them. Routes that do
// not touch the data (/bad/hang, /bad/close, unknown paths) are not held in
// this mode.
func (s *Server) HoldResponses() {
	s.holds.setMode(holdResponses)
}

// Held lists the requests waiting to be released, oldest first.
func (s *Server) Held() []HeldRequest {
	return s.holds.list()
}

// WaitHeld blocks until at least n requests are held, so a test can act as
// soon as its requests have reached the server. It returns ctx's error if
// ctx ends first.
func (s *Server) WaitHeld(ctx context.Context, n int) error {
	return s.holds.waitCount(ctx, n)
}

// Release lets the held request numbered seq proceed and reports whether
// there was one. It returns once the request has taken its turn on the state,
// so a following Release is applied after it.
func (s *Server) Release(seq int) bool {
	return s.holds.release(seq)
}

// ReleaseAll releases every request held now, in the order they were held.
// Holding stays on for requests that arrive later.
func (s *Server) ReleaseAll() {
	s.holds.releaseAll()
}

// Unhold stops holding new requests and releases those held now, in order.
func (s *Server) Unhold() {
	s.holds.setMode(holdOff)
	s.holds.releaseAll()
}

// Reset runs the [Server.OnReset] functions (which restore the data of the
// routes added to the server), clears the delay, the jitter, the pending
// failures and the counts, and stops holding. Requests still held before running are
// answered 503 without running, so a finished test cannot change the state
// of the next one; held responses are delivered, as their requests already ran.
func (s *Server) Reset() {
	s.holds.dropAll()
	s.delay.Store(0)
	s.jitter.Store(0)
	s.mu.Lock()
	for _, fn := range s.onReset {
		fn()
	}
	s.failLeft, s.failStatus = 0, 0
	s.getFailLeft, s.getFailStatus = 0, 0
	s.mu.Unlock()
	s.countMu.Lock()
	clear(s.counts)
	s.countMu.Unlock()
}

// Close ends every request that would otherwise wait forever: held requests
// are answered 503 and routes that wait on [Server.Closed] return. Call it before closing the
// http.Server (or httptest.Server) that serves s, whose Close waits for
// outstanding requests. The handler keeps serving afterwards, but routes
// that wait on [Server.Closed] answer at once.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closed) })
	s.holds.dropAll()
}

// Count returns how many API requests have arrived for key, written
// "METHOD /path" with "?query" when the request had one, for example
// "GET /articles/1" or "GET /posts?page=2". Preflight and control requests
// are not counted.
func (s *Server) Count(key string) int {
	s.countMu.Lock()
	defer s.countMu.Unlock()
	return s.counts[key]
}

// Counts returns a copy of all request counts, keyed as for [Server.Count].
func (s *Server) Counts() map[string]int {
	s.countMu.Lock()
	defer s.countMu.Unlock()
	return maps.Clone(s.counts)
}

func (s *Server) controlRoutes() {
	m := s.control
	m.HandleFunc("POST /_control/delay", func(w http.ResponseWriter, r *http.Request) {
		ms, err := queryInt(r, "ms", 0)
		if err != nil || ms < 0 {
			badControl(w, r, err)
			return
		}
		jitter, err := queryInt(r, "jitter", 0)
		if err != nil || jitter < 0 {
			badControl(w, r, err)
			return
		}
		s.SetDelay(time.Duration(ms) * time.Millisecond)
		s.SetJitter(time.Duration(jitter) * time.Millisecond)
		w.WriteHeader(http.StatusNoContent)
	})
	m.HandleFunc("POST /_control/fail-next", func(w http.ResponseWriter, r *http.Request) {
		n, err := queryInt(r, "count", 1)
		if err != nil || n < 0 {
			badControl(w, r, err)
			return
		}
		status, err := queryInt(r, "status", http.StatusInternalServerError)
		if err != nil || status < 400 || status > 599 {
			badControl(w, r, err)
			return
		}
		s.FailNext(n, status)
		w.WriteHeader(http.StatusNoContent)
	})
	m.HandleFunc("POST /_control/fail-next-get", func(w http.ResponseWriter, r *http.Request) {
		n, err := queryInt(r, "count", 1)
		if err != nil || n < 0 {
			badControl(w, r, err)
			return
		}
		status, err := queryInt(r, "status", http.StatusServiceUnavailable)
		if err != nil || status < 400 || status > 599 {
			badControl(w, r, err)
			return
		}
		s.FailNextGets(n, status)
		w.WriteHeader(http.StatusNoContent)
	})
	m.HandleFunc("POST /_control/hold", func(w http.ResponseWriter, r *http.Request) {
		switch mode := r.URL.Query().Get("mode"); mode {
		case "", stageRequest:
			s.Hold()
		case stageResponse:
			s.HoldResponses()
		default:
			errorReply(http.StatusBadRequest, "hold: unknown mode %q, want %q or %q", mode, stageRequest, stageResponse).write(w)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	m.HandleFunc("GET /_control/held", func(w http.ResponseWriter, r *http.Request) {
		n, err := queryInt(r, "wait", 0)
		if err != nil {
			badControl(w, r, err)
			return
		}
		ms, err := queryInt(r, "timeout", int(DefaultWaitTimeout/time.Millisecond))
		if err != nil {
			badControl(w, r, err)
			return
		}
		if n > 0 {
			ctx, cancel := context.WithTimeout(r.Context(), time.Duration(ms)*time.Millisecond)
			defer cancel()
			if err := s.WaitHeld(ctx, n); err != nil {
				errorReply(http.StatusGatewayTimeout, "waiting for %d held requests: %v (held: %d)", n, err, len(s.Held())).write(w)
				return
			}
		}
		jsonReply(http.StatusOK, s.Held()).write(w)
	})
	m.HandleFunc("POST /_control/release", func(w http.ResponseWriter, r *http.Request) {
		seq, err := queryInt(r, "seq", -1)
		if err != nil || seq < 0 {
			badControl(w, r, err)
			return
		}
		if !s.Release(seq) {
			errorReply(http.StatusNotFound, "no held request with seq %d", seq).write(w)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	for path, fn := range map[string]func(){
		"POST /_control/release-all": s.ReleaseAll,
		"POST /_control/unhold":      s.Unhold,
		"POST /_control/reset":       s.Reset,
	} {
		m.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			fn()
			w.WriteHeader(http.StatusNoContent)
		})
	}
	m.HandleFunc("GET /_control/counts", func(w http.ResponseWriter, r *http.Request) {
		jsonReply(http.StatusOK, s.Counts()).write(w)
	})
	m.HandleFunc("/", notFound)
}

// queryInt reads an integer query parameter, returning def when it is absent.
func queryInt(r *http.Request, name string, def int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("query parameter %s=%q is not an integer", name, v)
	}
	return n, nil
}

func badControl(w http.ResponseWriter, r *http.Request, err error) {
	msg := "missing or out-of-range query parameter"
	if err != nil {
		msg = err.Error()
	}
	errorReply(http.StatusBadRequest, "%s %s: %s", r.Method, r.URL.Path, msg).write(w)
}
