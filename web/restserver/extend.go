package restserver

import (
	"encoding/json"
	"net/http"
	"time"
)

// Extending the server. Packages built on it (web/sampleapi,
// test/fixture/testapi) add routes that go through its request pipeline:
// counted, delayed, held, failed and reset like every other.

// JSONReply encodes v as the JSON body of a reply with status.
func JSONReply(status int, v any) Reply { return jsonReply(status, v) }

// ErrorReply is a reply with status and the body {"error": message}.
func ErrorReply(status int, format string, args ...any) Reply {
	return errorReply(status, format, args...)
}

// RawReply is a reply with status, Content-Type contentType (none when
// empty) and body as it is.
func RawReply(status int, contentType string, body []byte) Reply {
	return Reply{status: status, contentType: contentType, body: body}
}

// NoContent is a 204 reply with no body.
func NoContent() Reply { return noContent() }

// WithHeader returns rp with header key set to value.
func (rp Reply) WithHeader(key, value string) Reply {
	h := rp.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set(key, value)
	rp.header = h
	return rp
}

// Write sends rp on w.
func (rp Reply) Write(w http.ResponseWriter) { rp.write(w) }

// DecodeObject reads the request body (buffered at arrival) as a JSON
// object and returns its members undecoded, so a handler can tell a
// missing field from a null one; a body that is not a JSON object is a 400
// reply.
func DecodeObject(r *http.Request) (map[string]json.RawMessage, *Reply) { return decodeObject(r) }

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
// lock, after the functions added before it: each package built on the
// server restores its own data.
func (s *Server) OnReset(fn func()) {
	s.mu.Lock()
	s.onReset = append(s.onReset, fn)
	s.mu.Unlock()
}

// Closed is closed by [Server.Close]: a route that waits for something
// that may never come returns when it is.
func (s *Server) Closed() <-chan struct{} { return s.closed }

// Locked runs fn holding the lock that routes added with
// [Server.HandleState] run under, for a change to their data made outside
// a request (a timer's, a test control's). fn must not block.
func (s *Server) Locked(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn()
}

// HandleControl adds a route under /_control/, as the server's own test
// controls are: never counted, delayed, held or failed. pattern is a
// [http.ServeMux] pattern whose path starts with /_control/.
func (s *Server) HandleControl(pattern string, fn http.HandlerFunc) {
	s.control.HandleFunc(pattern, fn)
}

// DefaultWaitTimeout bounds a control route that waits (GET
// /_control/held?wait=N) when its caller gives no timeout, so a browser
// test that miscounts fails instead of hanging. It is a hang guard of
// minutes: a loaded machine may take many seconds to send what a test
// waits for.
const DefaultWaitTimeout = 2 * time.Minute

// QueryInt reads the integer query parameter name of r, or def when it is
// absent; a value that is not an integer is an error naming it.
func QueryInt(r *http.Request, name string, def int) (int, error) { return queryInt(r, name, def) }

// BadControl answers a control request whose query was refused: 400
// {"error": "METHOD /path: <err>"}, or a generic message when err is nil.
func BadControl(w http.ResponseWriter, r *http.Request, err error) { badControl(w, r, err) }
