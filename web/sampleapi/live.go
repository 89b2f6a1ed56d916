package sampleapi

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/datafetch/datafetch/web/restserver"
)

// Ticker is a price that the live feed changes: served by /tickers and
// pushed by /live, as data-client's coin example streams prices.
type Ticker struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
	// Ticks counts the changes the ticker has had since the seed.
	Ticks int `json:"ticks"`
}

func seedTickers() []Ticker {
	return []Ticker{
		{ID: "BTC", Name: "Bitcoin", Price: 64250},
		{ID: "ETH", Name: "Ether", Price: 3120.5},
		{ID: "SOL", Name: "Solana", Price: 142.25},
	}
}

// tickSteps are the relative price changes of successive ticks: a fixed
// cycle, so that a test knows what a tick does.
var tickSteps = []float64{0.004, -0.0025, 0.0015, -0.001}

// LiveMessage is one message of the /live stream (its data: line): the
// entity type, the args that name it, and its new data, as datafetch's
// StreamManager reads them.
type LiveMessage struct {
	Type string           `json:"type"`
	Args []map[string]any `json:"args"`
	Data Ticker           `json:"data"`
}

// liveFeed is the set of open /live streams.
type liveFeed struct {
	mu      sync.Mutex
	streams map[chan []byte]struct{}
	sent    int // messages written to streams
	// changed is closed (and replaced) when a stream opens or closes.
	changed chan struct{}
}

// changedLocked tells WaitStreams that the set of streams changed.
func (f *liveFeed) changedLocked() {
	if f.changed != nil {
		close(f.changed)
	}
	f.changed = make(chan struct{})
}

// WaitStreams waits until n /live streams are open, or ctx is done.
func (s *Server) WaitStreams(ctx context.Context, n int) error {
	for {
		s.live.mu.Lock()
		if len(s.live.streams) == n {
			s.live.mu.Unlock()
			return nil
		}
		if s.live.changed == nil {
			s.live.changed = make(chan struct{})
		}
		changed := s.live.changed
		s.live.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// streamBuffer is how many messages a stream may be behind before it is
// closed (a client that stopped reading).
const streamBuffer = 256

func (st *state) listTickers(*http.Request) restserver.Reply {
	return restserver.JSONReply(http.StatusOK, st.tickers)
}

func (st *state) getTicker(r *http.Request) restserver.Reply {
	id := r.PathValue("id")
	for _, t := range st.tickers {
		if t.ID == id {
			return restserver.JSONReply(http.StatusOK, t)
		}
	}
	return restserver.ErrorReply(http.StatusNotFound, "no ticker %q", id)
}

// Tick changes the price of n tickers, one after another, and pushes each
// change to every open /live stream. It returns the messages it pushed.
func (s *Server) Tick(n int) []LiveMessage {
	msgs := make([]LiveMessage, 0, n)
	s.Locked(func() {
		st := s.st
		for range n {
			t := &st.tickers[st.nextTick%len(st.tickers)]
			step := tickSteps[st.tickCount%len(tickSteps)]
			t.Price = math.Round(t.Price*(1+step)*100) / 100
			t.Ticks++
			st.nextTick++
			st.tickCount++
			msgs = append(msgs, LiveMessage{Type: "Ticker", Args: []map[string]any{{"id": t.ID}}, Data: *t})
		}
	})
	for _, m := range msgs {
		b, _ := json.Marshal(m) // a struct of strings and numbers
		s.live.push(b)
	}
	return msgs
}

// push hands b to every stream; a stream too far behind is dropped.
func (f *liveFeed) push(b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.streams {
		select {
		case ch <- b:
		default:
			delete(f.streams, ch)
			close(ch)
			f.changedLocked()
		}
	}
}

// LiveStats are the counts of /_control/live.
type LiveStats struct {
	// Streams is how many /live streams are open.
	Streams int `json:"streams"`
	// Sent is how many messages were written to streams, all together.
	Sent int `json:"sent"`
}

// Live returns the feed's counts.
func (s *Server) Live() LiveStats {
	s.live.mu.Lock()
	defer s.live.mu.Unlock()
	return LiveStats{Streams: len(s.live.streams), Sent: s.live.sent}
}

// serveLive streams ticker changes as Server-Sent Events until the client
// goes or the server closes.
func (s *Server) serveLive(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		restserver.ErrorReply(http.StatusInternalServerError, "streaming is not supported here").Write(w)
		return
	}
	// Registered before anything is written: a client that has seen the
	// stream open gets every tick after that.
	ch := make(chan []byte, streamBuffer)
	s.live.mu.Lock()
	if s.live.streams == nil {
		s.live.streams = map[chan []byte]struct{}{}
	}
	s.live.streams[ch] = struct{}{}
	s.live.changedLocked()
	s.live.mu.Unlock()
	defer func() {
		s.live.mu.Lock()
		if _, open := s.live.streams[ch]; open {
			delete(s.live.streams, ch)
			s.live.changedLocked()
		}
		s.live.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	// A comment, so the client sees the stream open before any message.
	_, _ = w.Write([]byte(": datafetch live feed\n\n"))
	flusher.Flush()
	for {
		select {
		case b, open := <-ch:
			if !open {
				return
			}
			// Counted before it is written: once a client has it, the
			// count has it too.
			s.live.mu.Lock()
			s.live.sent++
			s.live.mu.Unlock()
			if _, err := w.Write(append(append([]byte("data: "), b...), '\n', '\n')); err != nil {
				return
			}
			flusher.Flush()
		case <-r.Context().Done():
			return
		case <-s.Closed():
			return
		}
	}
}

// tickEvery runs Tick(1) every d while streams are open, until the server
// closes: the demo's feed. Tests tick through the control route instead.
func (s *Server) tickEvery(d time.Duration) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if s.Live().Streams > 0 {
				s.Tick(1)
			}
		case <-s.Closed():
			return
		}
	}
}

// liveControls adds the feed's test controls:
//
//	POST /_control/tick?count=N   Tick (count 1 by default); answers the messages pushed
//	GET  /_control/live           Live: open streams and messages sent (?streams=N&timeout=MS: WaitStreams first)
func (s *Server) liveControls() {
	s.HandleControl("POST /_control/tick", func(w http.ResponseWriter, r *http.Request) {
		n, err := restserver.QueryInt(r, "count", 1)
		if err != nil || n < 0 {
			restserver.BadControl(w, r, err)
			return
		}
		restserver.JSONReply(http.StatusOK, s.Tick(n)).Write(w)
	})
	s.HandleControl("GET /_control/live", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("streams") {
			n, err := restserver.QueryInt(r, "streams", 0)
			ms, err2 := restserver.QueryInt(r, "timeout", int(restserver.DefaultWaitTimeout/time.Millisecond))
			if err != nil || err2 != nil || n < 0 {
				restserver.BadControl(w, r, errors.Join(err, err2))
				return
			}
			ctx, cancel := context.WithTimeout(r.Context(), time.Duration(ms)*time.Millisecond)
			defer cancel()
			if err := s.WaitStreams(ctx, n); err != nil {
				restserver.ErrorReply(http.StatusGatewayTimeout, "waiting for %d open streams: %v (open: %d)", n, err, s.Live().Streams).Write(w)
				return
			}
		}
		restserver.JSONReply(http.StatusOK, s.Live()).Write(w)
	})
}
