package restserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

const (
	jsonType = "application/json; charset=utf-8"

	// maxBodyBytes bounds request bodies; the fixtures are small and a
	// runaway client should get a clear 413 rather than exhaust memory.
	maxBodyBytes = 1 << 20
)

// Reply is a fully rendered response, as a route added with
// [Server.HandleState] returns it. Handlers build it while holding the
// state lock, so the body is encoded before the lock is released and no
// record is shared with a slow client or a held response.
type Reply struct {
	status      int
	contentType string
	header      http.Header // extra headers; may be nil
	body        []byte
}

// jsonReply encodes v now, while the caller still holds the state lock.
func jsonReply(status int, v any) Reply {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Bodies hold prose with < and &; escaping them would only make the
	// fixtures harder to read in a browser's network panel.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Every value encoded here is a plain record, so this is a bug in
		// the package, not bad input.
		panic(fmt.Sprintf("restserver: encoding %T: %v", v, err))
	}
	return Reply{status: status, contentType: jsonType, body: buf.Bytes()}
}

// errorBody is the shape of every JSON error this package writes.
type errorBody struct {
	Error string `json:"error"`
}

func errorReply(status int, format string, args ...any) Reply {
	return jsonReply(status, errorBody{Error: fmt.Sprintf(format, args...)})
}

func noContent() Reply {
	return Reply{status: http.StatusNoContent}
}

func (rp Reply) write(w http.ResponseWriter) {
	h := w.Header()
	for k, vs := range rp.header {
		h[k] = vs
	}
	if rp.contentType != "" {
		h.Set("Content-Type", rp.contentType)
	}
	if !bodyAllowed(rp.status) {
		w.WriteHeader(rp.status)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(rp.body)))
	w.WriteHeader(rp.status)
	// A write error means the client went away; there is no one to tell.
	_, _ = w.Write(rp.body)
}

// bodyAllowed reports whether net/http lets a response with this status
// carry a body.
func bodyAllowed(status int) bool {
	return !(status >= 100 && status < 200) && status != http.StatusNoContent && status != http.StatusNotModified
}

// readBody buffers the request body at arrival, so a request that is later
// held or run under the state lock never waits on the network.
func readBody(w http.ResponseWriter, r *http.Request) *Reply {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	r.Body.Close()
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			rp := errorReply(http.StatusRequestEntityTooLarge, "request body is larger than %d bytes", maxBodyBytes)
			return &rp
		}
		rp := errorReply(http.StatusBadRequest, "reading request body: %v", err)
		return &rp
	}
	r.Body = io.NopCloser(bytes.NewReader(data))
	return nil
}

// decodeObject reads the (buffered) request body as a JSON object and returns
// its members undecoded, so callers can tell a missing field from a null one.
func decodeObject(r *http.Request) (map[string]json.RawMessage, *Reply) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		rp := errorReply(http.StatusBadRequest, "reading request body: %v", err)
		return nil, &rp
	}
	if len(bytes.TrimSpace(data)) == 0 {
		rp := errorReply(http.StatusBadRequest, "%s %s: missing JSON body", r.Method, r.URL.Path)
		return nil, &rp
	}
	var fields map[string]json.RawMessage
	err = json.Unmarshal(data, &fields)
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) || (err == nil && fields == nil) {
		// Valid JSON of the wrong kind: say what was wanted, not which Go
		// type failed to decode.
		err = errors.New("want a JSON object")
	}
	if err != nil {
		rp := errorReply(http.StatusBadRequest, "%s %s: invalid JSON body: %v", r.Method, r.URL.Path, err)
		return nil, &rp
	}
	return fields, nil
}

// decodeField unmarshals one member of a decoded body, naming the field in
// the error so the client can tell which value was rejected.
func decodeField(name string, raw json.RawMessage, dst any) *Reply {
	if err := json.Unmarshal(raw, dst); err != nil {
		rp := errorReply(http.StatusBadRequest, "invalid field %q: %v", name, err)
		return &rp
	}
	return nil
}
