package restserver

import (
	"context"
	"slices"
	"sync"
)

// HeldRequest describes a request that is waiting for a test to release it.
type HeldRequest struct {
	// Seq numbers held requests from 1 in the order they were held; it is
	// the handle passed to [Server.Release].
	Seq int `json:"seq"`
	// Method is the HTTP method, such as "PATCH".
	Method string `json:"method"`
	// Path is the request path relative to the handler root, with "?query"
	// appended when the request has one.
	Path string `json:"path"`
	// Stage is "request" when the request has not run yet and "response"
	// when it has run and only its answer is withheld (see [Server.HoldResponses]).
	Stage string `json:"stage"`
}

// holdMode says where new requests stop, if anywhere.
type holdMode int

const (
	holdOff holdMode = iota
	holdRequests
	holdResponses
)

const (
	stageRequest  = "request"
	stageResponse = "response"
)

// heldEntry is one parked request. The request's goroutine waits on release;
// whoever releases it waits on passed, which the request closes once it has
// taken the state lock (or given up). That handshake is what makes releases
// apply in release order: the next release cannot start before the previous
// request is queued on the lock.
type heldEntry struct {
	info     HeldRequest
	release  chan struct{}
	passed   chan struct{}
	passOnce sync.Once
	// dropped is written before release is closed and read after, so the
	// channel close orders the accesses.
	dropped bool
}

func (h *heldEntry) pass() {
	if h != nil {
		h.passOnce.Do(func() { close(h.passed) })
	}
}

// waitResult tells a held request what to do next.
type waitResult int

const (
	waitReleased waitResult = iota // run (or answer) normally
	waitDropped                    // the server was reset or closed
	waitGone                       // the client went away; write nothing
)

// holdQueue is the set of held requests and the current hold mode.
type holdQueue struct {
	mu      sync.Mutex
	mode    holdMode
	seq     int
	held    []*heldEntry // in seq order
	changed chan struct{}
}

// notifyLocked wakes every WaitHeld caller; they re-check the count.
func (q *holdQueue) notifyLocked() {
	if q.changed != nil {
		close(q.changed)
		q.changed = nil
	}
}

func (q *holdQueue) setMode(m holdMode) {
	q.mu.Lock()
	q.mode = m
	q.mu.Unlock()
}

// enqueue parks a request at stage if the current mode holds that stage,
// and returns nil otherwise.
func (q *holdQueue) enqueue(stage, method, path string) *heldEntry {
	q.mu.Lock()
	defer q.mu.Unlock()
	want := holdRequests
	if stage == stageResponse {
		want = holdResponses
	}
	if q.mode != want {
		return nil
	}
	q.seq++
	h := &heldEntry{
		info:    HeldRequest{Seq: q.seq, Method: method, Path: path, Stage: stage},
		release: make(chan struct{}),
		passed:  make(chan struct{}),
	}
	q.held = append(q.held, h)
	q.notifyLocked()
	return h
}

// wait blocks until h is released or its client goes away. On every result
// but waitReleased it has already called h.pass; on waitReleased the caller
// must call it once it holds what the release order protects.
func (q *holdQueue) wait(ctx context.Context, h *heldEntry) waitResult {
	select {
	case <-h.release:
		if h.dropped {
			h.pass()
			return waitDropped
		}
		return waitReleased
	case <-ctx.Done():
		q.mu.Lock()
		q.removeLocked(h)
		q.mu.Unlock()
		h.pass()
		return waitGone
	}
}

func (q *holdQueue) removeLocked(h *heldEntry) bool {
	i := slices.Index(q.held, h)
	if i < 0 {
		return false
	}
	q.held = slices.Delete(q.held, i, i+1)
	q.notifyLocked()
	return true
}

// release lets the request numbered seq go on and returns once it has
// passed the gate, so a following release is ordered after it.
func (q *holdQueue) release(seq int) bool {
	q.mu.Lock()
	var h *heldEntry
	for _, e := range q.held {
		if e.info.Seq == seq {
			h = e
			break
		}
	}
	if h != nil {
		q.removeLocked(h)
	}
	q.mu.Unlock()
	if h == nil {
		return false
	}
	close(h.release)
	<-h.passed
	return true
}

// releaseAll releases the requests held now, one at a time in seq order.
func (q *holdQueue) releaseAll() {
	for _, r := range q.list() {
		q.release(r.Seq)
	}
}

// dropAll stops holding and sends every held request away without letting it
// run, and restarts the sequence numbers. It does not wait for them.
func (q *holdQueue) dropAll() {
	q.mu.Lock()
	held := q.held
	q.held = nil
	q.mode = holdOff
	q.seq = 0
	q.notifyLocked()
	q.mu.Unlock()
	for _, h := range held {
		h.dropped = true
		close(h.release)
	}
}

func (q *holdQueue) list() []HeldRequest {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]HeldRequest, len(q.held))
	for i, h := range q.held {
		out[i] = h.info
	}
	return out
}

// waitCount blocks until at least n requests are held or ctx ends.
func (q *holdQueue) waitCount(ctx context.Context, n int) error {
	for {
		q.mu.Lock()
		if len(q.held) >= n {
			q.mu.Unlock()
			return nil
		}
		if q.changed == nil {
			q.changed = make(chan struct{})
		}
		ch := q.changed
		q.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
