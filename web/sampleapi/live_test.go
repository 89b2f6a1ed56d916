package sampleapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/testkit"
	"github.com/datafetch/datafetch/web/sampleapi"
)

// The /live stream pushes each tick to every open stream, as Server-Sent
// Events whose data is datafetch's StreamManager message, and /tickers
// serves what the ticks changed.
func TestLiveStreamPushesTicks(t *testing.T) {
	s := sampleapi.New(sampleapi.Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer s.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/live", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	lines := bufio.NewScanner(resp.Body)
	require.True(t, lines.Scan())
	assert.True(t, strings.HasPrefix(lines.Text(), ":"), "a comment opens the stream: %q", lines.Text())
	require.Equal(t, 1, s.Live().Streams, "the stream is registered once its first bytes are out")

	pushed := s.Tick(4)
	require.Len(t, pushed, 4)
	var got []sampleapi.LiveMessage
	for len(got) < 4 && lines.Scan() {
		line := lines.Text()
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var m sampleapi.LiveMessage
			require.NoError(t, json.Unmarshal([]byte(data), &m))
			got = append(got, m)
		}
	}
	assert.Equal(t, pushed, got)
	assert.Equal(t, []string{"BTC", "ETH", "SOL", "BTC"}, []string{got[0].Data.ID, got[1].Data.ID, got[2].Data.ID, got[3].Data.ID})
	assert.Equal(t, "Ticker", got[0].Type)
	assert.Equal(t, []map[string]any{{"id": "BTC"}}, got[0].Args)
	assert.Equal(t, 64507.0, got[0].Data.Price, "+0.4%, rounded to cents")
	assert.Equal(t, 2, got[3].Data.Ticks)

	r, err := http.Get(ts.URL + "/tickers/BTC")
	require.NoError(t, err)
	var btc sampleapi.Ticker
	require.NoError(t, json.NewDecoder(r.Body).Decode(&btc))
	r.Body.Close()
	assert.Equal(t, got[3].Data, btc, "the list serves what the stream said")

	// The counts, and a reset brings the seed back.
	r, err = http.Get(ts.URL + "/_control/live")
	require.NoError(t, err)
	var stats sampleapi.LiveStats
	require.NoError(t, json.NewDecoder(r.Body).Decode(&stats))
	r.Body.Close()
	assert.Equal(t, sampleapi.LiveStats{Streams: 1, Sent: 4}, stats)
	s.Reset()
	r, err = http.Get(ts.URL + "/tickers/BTC")
	require.NoError(t, err)
	require.NoError(t, json.NewDecoder(r.Body).Decode(&btc))
	r.Body.Close()
	assert.Equal(t, 64250.0, btc.Price)
	assert.Equal(t, 0, btc.Ticks)

	// The client goes: the server sees its stream close.
	cancel()
	wait, stop := context.WithTimeout(context.Background(), testkit.WaitLimit) // a hang guard
	defer stop()
	require.NoError(t, s.WaitStreams(wait, 0))
	assert.Equal(t, 0, s.Live().Streams)
}
