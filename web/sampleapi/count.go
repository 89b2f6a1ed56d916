package sampleapi

import (
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/datafetch/datafetch/web/restserver"
)

// Count is the singleton counter served by /api/count.
type Count struct {
	Count     int    `json:"count"`
	UpdatedAt string `json:"updatedAt"` // ISO 8601, the time of the last change (see countTime)
}

func (st *state) getCount(*http.Request) restserver.Reply {
	return restserver.JSONReply(http.StatusOK, st.count)
}

// incrementBody is the optional body of /api/count/increment: updatedAt is
// the time the client made the increment, in epoch ms.
type incrementBody struct {
	UpdatedAt *float64 `json:"updatedAt"`
}

// maxEpochMs is the last millisecond of year 9999, the largest time that
// ISO 8601 (and a JavaScript Date's toISOString) writes with a 4-digit year.
const maxEpochMs = 253402300799999

func (st *state) incrementCount(r *http.Request) restserver.Reply {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return restserver.ErrorReply(http.StatusBadRequest, "reading request body: %v", err)
	}
	var client time.Time
	if len(data) > 0 {
		var body incrementBody
		if err := json.Unmarshal(data, &body); err != nil {
			return restserver.ErrorReply(http.StatusBadRequest, "%s %s: invalid JSON body, want {\"updatedAt\": <ms>}: %v", r.Method, r.URL.Path, err)
		}
		if ms := body.UpdatedAt; ms != nil {
			if *ms < 0 || *ms > maxEpochMs {
				return restserver.ErrorReply(http.StatusBadRequest, "%s %s: updatedAt %v is not a time in epoch ms (0 to %d)", r.Method, r.URL.Path, *ms, int64(maxEpochMs))
			}
			client = time.UnixMilli(int64(*ms))
		}
	}
	st.count.Count++
	st.count.UpdatedAt = isoTime(st.countTime(client))
	return restserver.JSONReply(http.StatusOK, st.count)
}

// countTime is the updatedAt of an increment: the time the client made it
// (client, from the body), else the server's clock; and a millisecond past
// the previous increment when that is not later, so that increments are
// ordered as the server applied them, without ties.
//
// The client's time, not the server's time of applying it: the counter
// example's ordering (its Count entity's useIncoming keeps a record only
// when existing.updatedAt <= incoming.updatedAt) compares a response's
// updatedAt with the optimistic updates' snap.fetchedAt, the client's time
// of each click. A
// server time is later than the clicks made while the request travelled
// (and off by any clock skew), so a response to an earlier click would look
// newer than the optimistic updates of later clicks, and the count shown
// would go back (8 fast clicks showed ..., 7, 7, 7, 6, ...).
//
// Before the first increment, the floor is the seeded count's own
// updatedAt, so that no increment looks older than the count it changed.
func (st *state) countTime(client time.Time) time.Time {
	now := client
	if now.IsZero() {
		now = st.now()
	}
	now = now.Truncate(time.Millisecond)
	if st.countChanged.IsZero() {
		if seeded, err := time.Parse(time.RFC3339Nano, st.count.UpdatedAt); err == nil && now.Before(seeded) {
			now = seeded
		}
	} else if !now.After(st.countChanged) {
		now = st.countChanged.Add(time.Millisecond)
	}
	st.countChanged = now
	return now
}
