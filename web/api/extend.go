package api

import "net/http"

// Extending the server. Test fixtures add routes of their own (see
// test/fixture/testapi) that go through the same request pipeline as the
// API's: counted, delayed, held, failed and reset like the rest.

// Reply is a fully rendered response, as a route added with
// [Server.HandleState] returns it.
type Reply = reply

// JSONReply encodes v as the JSON body of a reply with status.
func JSONReply(status int, v any) Reply { return jsonReply(status, v) }

// ErrorReply is a reply with status and the body {"error": message}.
func ErrorReply(status int, format string, args ...any) Reply {
	return errorReply(status, format, args...)
}

// RawReply is a reply with status, Content-Type contentType (none when
// empty) and body as it is.
func RawReply(status int, contentType string, body []byte) Reply {
	return reply{status: status, contentType: contentType, body: body}
}

// NoContent is a 204 reply with no body.
func NoContent() Reply { return noContent() }

// WithHeader returns rp with header key set to value.
func (rp reply) WithHeader(key, value string) reply {
	h := rp.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set(key, value)
	rp.header = h
	return rp
}

// Write sends rp on w.
func (rp reply) Write(w http.ResponseWriter) { rp.write(w) }

// DecodeField unmarshals the member name of a request body into dst, or
// returns a 400 reply that names the field.
func DecodeField(name string, raw []byte, dst any) *Reply { return decodeField(name, raw, dst) }

// HandleState adds a route that reads or changes data: counted, delayed
// and held like every API request, run one at a time under the server's
// lock (so fn needs no lock of its own and must not block), failed by
// [Server.FailNext] when it is a mutation, and its response held in
// [Server.HoldResponses] mode.
func (s *Server) HandleState(pattern string, fn func(*http.Request) Reply) {
	s.api.Handle(pattern, s.stateRoute(fn))
}

// HandleRaw adds a route that touches no data: counted, delayed and held
// like every API request, but run without the lock (it may wait as long as
// its client does) and never failed by FailNext.
func (s *Server) HandleRaw(pattern string, fn http.HandlerFunc) {
	s.api.Handle(pattern, s.rawRoute(fn))
}

// OnReset adds fn to what [Server.Reset] does while it holds the server's
// lock, after the seed data is back: an extension resets its own data.
func (s *Server) OnReset(fn func()) {
	s.mu.Lock()
	s.onReset = append(s.onReset, fn)
	s.mu.Unlock()
}

// Closed is closed by [Server.Close]: a route that waits for something
// that may never come returns when it is.
func (s *Server) Closed() <-chan struct{} { return s.closed }

// Options returns the options the server was made with, defaults filled in.
func (s *Server) Options() Options { return s.opts }

// SeedParagraph returns paragraph i (modulo their number) of the prose the
// seed records are written in, for an extension's seed records.
func SeedParagraph(i int) string { return articleParagraphs[i%len(articleParagraphs)] }

// SeedUserCount is the number of seeded users, whose ids are 1 to n.
func SeedUserCount() int { return len(seedPeople) }

// SeedPosts returns the seeded posts, as /posts pages them.
func SeedPosts() []Post { return seedPosts() }
