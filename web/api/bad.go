package api

import (
	"bufio"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The /bad/ routes misbehave in the ways real servers do, so the client's
// error paths can be tested against a network rather than a mock.

func badHTML(*http.Request) reply {
	return reply{
		status:      http.StatusOK,
		contentType: htmlType,
		body:        []byte("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>The upstream server sent an HTML error page.</p></body></html>\n"),
	}
}

// truncatedBody is a comment record cut off mid-string.
const truncatedBody = `{"postId": 1, "id": 1, "name": "this record was cut off in the mid`

func badTruncated(*http.Request) reply {
	return reply{status: http.StatusOK, contentType: jsonType, body: []byte(truncatedBody)}
}

func badEmpty(*http.Request) reply {
	return noContent()
}

func badStatus(r *http.Request) reply {
	code, err := strconv.Atoi(r.PathValue("code"))
	if err != nil || code < 200 || code > 599 {
		return errorReply(http.StatusBadRequest, "/bad/status/%s: want a status code from 200 to 599", r.PathValue("code"))
	}
	return errorReply(code, "status %d %s requested from /bad/status", code, http.StatusText(code))
}

// noPKComment has every comment field but the primary key.
type noPKComment struct {
	PostID int    `json:"postId"`
	Name   string `json:"name"`
	Email  string `json:"email"`
	Body   string `json:"body"`
}

func badNoPK(*http.Request) reply {
	return jsonReply(http.StatusOK, noPKComment{
		PostID: 1,
		Name:   "a comment without an id",
		Email:  "nobody@example.com",
		Body:   "This record has no primary key.\nA normalizing client must reject it.",
	})
}

// badHang never answers on its own: it returns when the client gives up, or
// answers 503 once the server is closed, so shutdown is never blocked by it.
func (s *Server) badHang(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-s.closed:
		errorReply(http.StatusServiceUnavailable, "/bad/hang: server closed").write(w)
	}
}

// badClose promises a body twice as long as the one it sends, then closes
// the connection, so the client sees the failure while reading the body
// rather than while waiting for headers.
func badClose(w http.ResponseWriter, r *http.Request) {
	const half = `{"postId": 1, "id": 1, "name": "the connection drops in the middle of this`
	h := w.Header()
	h.Set("Content-Type", jsonType)
	h.Set("Content-Length", strconv.Itoa(2*len(half)))

	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// HTTP/2 connections cannot be hijacked; aborting the handler
		// resets the stream, which the client sees the same way.
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, half)
		_ = http.NewResponseController(w).Flush()
		panic(http.ErrAbortHandler)
	}
	defer conn.Close()
	h.Set("Connection", "close")
	writeRawResponse(buf, h, half)
}

// writeRawResponse writes an HTTP/1.1 response head and body by hand, for a
// hijacked connection.
func writeRawResponse(buf *bufio.ReadWriter, h http.Header, body string) {
	fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\n", http.StatusOK, http.StatusText(http.StatusOK))
	_ = h.Write(buf)
	fmt.Fprint(buf, "\r\n", body)
	// The connection is closed right after; a flush error has no reader.
	_ = buf.Flush()
}

// badParam reads the query parameter name as an integer in [lo, hi], or def
// when it is absent; ok is false (and an error is written) when it is not.
func badParam(w http.ResponseWriter, r *http.Request, name string, def, lo, hi int) (n int, ok bool) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return def, true
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		errorReply(http.StatusBadRequest, "%s: %s must be an integer from %d to %d, got %q", r.URL.Path, name, lo, hi, s).write(w)
		return 0, false
	}
	return n, true
}

// badBody answers with whatever the query asks for, so a test can get any
// malformed response without a route of its own: ?status= (default 200),
// ?type= the Content-Type (default JSON; "none" sends none), ?text= the body
// exactly (default empty) and ?bom=1 a UTF-8 byte-order mark before it.
func badBody(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	status, ok := badParam(w, r, "status", http.StatusOK, 200, 599)
	if !ok {
		return
	}
	rp := reply{status: status, contentType: jsonType, body: []byte(q.Get("text"))}
	switch t := q.Get("type"); t {
	case "":
	case "none":
		rp.contentType = ""
	default:
		rp.contentType = t
	}
	if q.Get("bom") == "1" {
		rp.body = append([]byte("\xEF\xBB\xBF"), rp.body...)
	}
	rp.write(w)
}

// badDeep answers a comment record whose "nested" member is ?n= arrays
// inside each other (default 10000), deeper than any JSON parser should
// follow: {"id":1,"nested":[[[...]]]}.
func badDeep(w http.ResponseWriter, r *http.Request) {
	n, ok := badParam(w, r, "n", 10000, 0, 1_000_000)
	if !ok {
		return
	}
	body := `{"postId":1,"id":1,"name":"deep","nested":` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}"
	reply{status: http.StatusOK, contentType: jsonType, body: []byte(body)}.write(w)
}

// hugeRecordBody pads each record of /bad/huge to about a kilobyte.
var hugeRecordBody = strings.Repeat("A long comment body that pads each record to about a kilobyte. ", 15)

// badHuge streams a JSON array of comment records (ids 1, 2, ...) of about
// ?mb= megabytes (default 50, at most 500). ?tail=nopk ends it with a record
// that has no id; ?tail=truncated stops in the middle of the last record.
func badHuge(w http.ResponseWriter, r *http.Request) {
	mb, ok := badParam(w, r, "mb", 50, 0, 500)
	if !ok {
		return
	}
	tail := r.URL.Query().Get("tail")
	switch tail {
	case "", "nopk", "truncated":
	default:
		errorReply(http.StatusBadRequest, "/bad/huge: tail must be nopk or truncated, got %q", tail).write(w)
		return
	}
	w.Header().Set("Content-Type", jsonType)
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
	limit := mb << 20
	written := 1
	bw.WriteString("[")
	for id := 1; written < limit; id++ {
		if id > 1 {
			bw.WriteByte(',')
		}
		n, _ := fmt.Fprintf(bw, `{"postId":%d,"id":%d,"name":"comment %d","email":"c%d@example.com","body":%q}`,
			id%100+1, id, id, id, hugeRecordBody)
		written += n + 1
	}
	switch tail {
	case "nopk":
		bw.WriteString(`,{"postId":1,"name":"the last record has no id"}]`)
	case "truncated":
		bw.WriteString(`,{"postId":1,"id":0,"name":"cut off in the mid`)
	default:
		bw.WriteString("]")
	}
}

// badDupes answers a comment list in which id 1 appears twice, with
// different fields each time.
func badDupes(*http.Request) reply {
	return reply{status: http.StatusOK, contentType: jsonType, body: []byte(`[` +
		`{"postId":1,"id":1,"name":"first copy","email":"a@example.com","body":"first"},` +
		`{"postId":1,"id":2,"name":"other","email":"b@example.com","body":"other"},` +
		`{"postId":1,"id":1,"name":"second copy","body":"second"}]` + "\n")}
}

// badCyclic answers ?n= users (default 20, at most 2000) that all reference
// each other: each lists every other user in "friends" and has the next one
// (the last: the first) as "bestFriend", nested as a record whose own
// bestFriend is the one after, so the references go round in a circle.
// A client that follows references without cutting cycles never ends, and
// one that cuts them only on the current path takes exponential time.
func badCyclic(w http.ResponseWriter, r *http.Request) {
	n, ok := badParam(w, r, "n", 20, 1, 2000)
	if !ok {
		return
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		next, after := i%n+1, (i+1)%n+1
		fmt.Fprintf(&b, `{"id":%d,"name":"user %d","friends":[`, i, i)
		first := true
		for j := 1; j <= n; j++ {
			if j == i {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(strconv.Itoa(j))
		}
		fmt.Fprintf(&b, `],"bestFriend":{"id":%d,"name":"user %d","bestFriend":%d}}`, next, next, after)
	}
	b.WriteString("]\n")
	reply{status: http.StatusOK, contentType: jsonType, body: []byte(b.String())}.write(w)
}

// badChain answers ?n= users (default 10000, at most 1000000) each naming
// the next as "bestFriend": flat as JSON, but n levels deep once the
// references are followed.
func badChain(w http.ResponseWriter, r *http.Request) {
	n, ok := badParam(w, r, "n", 10000, 1, 1_000_000)
	if !ok {
		return
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		if i == n {
			fmt.Fprintf(&b, `{"id":%d,"name":"user %d","bestFriend":null}`, i, i)
		} else {
			fmt.Fprintf(&b, `{"id":%d,"name":"user %d","bestFriend":%d}`, i, i, i+1)
		}
	}
	b.WriteString("]\n")
	reply{status: http.StatusOK, contentType: jsonType, body: []byte(b.String())}.write(w)
}

// badSlow answers comment ?id= (default 1) after ?ms= milliseconds (default
// 1000), or earlier with nothing when the client gives up or the server
// closes.
func (s *Server) badSlow(w http.ResponseWriter, r *http.Request) {
	ms, ok := badParam(w, r, "ms", 1000, 0, 600_000)
	if !ok {
		return
	}
	id, ok := badParam(w, r, "id", 1, 1, 1_000_000)
	if !ok {
		return
	}
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
		return
	case <-s.closed:
		errorReply(http.StatusServiceUnavailable, "/bad/slow: server closed").write(w)
		return
	}
	jsonReply(http.StatusOK, Comment{PostID: 1, ID: id, Name: "a slow comment", Email: "slow@example.com", Body: "it took a while"}).write(w)
}

// badFlaky fails every other request to the same URL (the first, third,
// ... with 503) and answers the others with comment ?id= (default 1), so a
// client sees a server that works only some of the time. Requests are told
// apart by the server's counts, which Reset clears.
func (s *Server) badFlaky(w http.ResponseWriter, r *http.Request) {
	id, ok := badParam(w, r, "id", 1, 1, 1_000_000)
	if !ok {
		return
	}
	method, path := requestKey(r)
	if s.Count(method+" "+path)%2 == 1 {
		errorReply(http.StatusServiceUnavailable, "%s: intermittent failure", path).write(w)
		return
	}
	jsonReply(http.StatusOK, Comment{PostID: 1, ID: id, Name: "a flaky comment", Email: "flaky@example.com", Body: "worked this time"}).write(w)
}
