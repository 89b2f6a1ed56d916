package api

import (
	"bufio"
	"fmt"
	"net/http"
	"strconv"
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
