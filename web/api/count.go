package api

import (
	"encoding/json"
	"io"
	"net/http"
	"time"
)

// Count is the singleton counter served by /api/count.
type Count struct {
	Count     int    `json:"count"`
	UpdatedAt string `json:"updatedAt"` // ISO 8601, the server's time of the last change
}

func (st *state) getCount(*http.Request) reply {
	return jsonReply(http.StatusOK, st.count)
}

// incrementBody is the optional body of /api/count/increment. The client's
// timestamp is checked but not stored: the answer carries the server's own
// time, which orders increments as the server applied them.
type incrementBody struct {
	UpdatedAt *float64 `json:"updatedAt"`
}

func (st *state) incrementCount(r *http.Request) reply {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return errorReply(http.StatusBadRequest, "reading request body: %v", err)
	}
	if len(data) > 0 {
		var body incrementBody
		if err := json.Unmarshal(data, &body); err != nil {
			return errorReply(http.StatusBadRequest, "%s %s: invalid JSON body, want {\"updatedAt\": <ms>}: %v", r.Method, r.URL.Path, err)
		}
	}
	st.count.Count++
	st.count.UpdatedAt = isoTime(st.countTime())
	return jsonReply(http.StatusOK, st.count)
}

// countTime is the time of an increment: the clock, or a millisecond past
// the previous increment when the clock has not moved on since, so that
// clients can order increments by updatedAt without ties.
func (st *state) countTime() time.Time {
	now := st.now().Truncate(time.Millisecond)
	if !st.countChanged.IsZero() && !now.After(st.countChanged) {
		now = st.countChanged.Add(time.Millisecond)
	}
	st.countChanged = now
	return now
}
