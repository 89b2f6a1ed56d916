package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/web/api"
)

func TestBadBody(t *testing.T) {
	f := newFixture(t, api.Options{})
	r := f.do(http.MethodGet, "/bad/body?status=201&type=text/plain&text="+url.QueryEscape(`{"id":1} trailing`), nil)
	assert.Equal(t, 201, r.status)
	assert.Equal(t, "text/plain", r.contentType())
	assert.Equal(t, `{"id":1} trailing`, string(r.body))

	r = f.do(http.MethodGet, "/bad/body?bom=1&text=%7B%7D", nil)
	assert.Equal(t, 200, r.status)
	assert.Equal(t, "application/json; charset=utf-8", r.contentType())
	assert.Equal(t, "\xEF\xBB\xBF{}", string(r.body))

	r = f.do(http.MethodGet, "/bad/body?type=none", nil)
	assert.Equal(t, 200, r.status)
	assert.Empty(t, r.body)

	r = f.do(http.MethodGet, "/bad/body?status=204&text=ignored", nil)
	assert.Equal(t, 204, r.status)
	assert.Empty(t, r.body)

	r = f.do(http.MethodGet, "/bad/body?status=99", nil)
	assert.Equal(t, 400, r.status)
	assert.Contains(t, errorMessage(t, r), "status must be an integer from 200 to 599")
}

func TestBadDeep(t *testing.T) {
	f := newFixture(t, api.Options{})
	r := f.do(http.MethodGet, "/bad/deep?n=3", nil)
	assert.Equal(t, 200, r.status)
	assert.JSONEq(t, `{"postId":1,"id":1,"name":"deep","nested":[[[]]]}`, string(r.body))
	r = f.do(http.MethodGet, "/bad/deep", nil)
	assert.Equal(t, 1+10000+10000+len(`{"postId":1,"id":1,"name":"deep","nested":}`)-1, len(r.body))
	assert.True(t, json.Valid(r.body) || strings.Count(string(r.body), "[") == 10000)
}

func TestBadHuge(t *testing.T) {
	f := newFixture(t, api.Options{})
	r := f.do(http.MethodGet, "/bad/huge?mb=1", nil)
	assert.Equal(t, 200, r.status)
	var list []map[string]any
	require.NoError(t, json.Unmarshal(r.body, &list))
	assert.InDelta(t, 1<<20, len(r.body), 2048, "about a megabyte")
	assert.Greater(t, len(list), 900)
	for i, rec := range list {
		assert.EqualValues(t, i+1, rec["id"])
	}

	r = f.do(http.MethodGet, "/bad/huge?mb=1&tail=nopk", nil)
	list = nil
	require.NoError(t, json.Unmarshal(r.body, &list))
	assert.NotContains(t, list[len(list)-1], "id")

	r = f.do(http.MethodGet, "/bad/huge?mb=1&tail=truncated", nil)
	assert.Equal(t, 200, r.status)
	assert.False(t, json.Valid(r.body))
	assert.True(t, strings.HasSuffix(string(r.body), "cut off in the mid"))

	assert.Equal(t, 400, f.do(http.MethodGet, "/bad/huge?tail=x", nil).status)
	assert.Equal(t, 400, f.do(http.MethodGet, "/bad/huge?mb=-1", nil).status)
}

func TestBadDupes(t *testing.T) {
	f := newFixture(t, api.Options{})
	list := decode[[]map[string]any](t, f.do(http.MethodGet, "/bad/dupes", nil))
	require.Len(t, list, 3)
	assert.EqualValues(t, 1, list[0]["id"])
	assert.EqualValues(t, 1, list[2]["id"])
	assert.NotEqual(t, list[0]["name"], list[2]["name"])
}

func TestBadCyclicAndChain(t *testing.T) {
	f := newFixture(t, api.Options{})
	users := decode[[]struct {
		ID         int   `json:"id"`
		Friends    []int `json:"friends"`
		BestFriend struct {
			ID         int `json:"id"`
			BestFriend int `json:"bestFriend"`
		} `json:"bestFriend"`
	}](t, f.do(http.MethodGet, "/bad/cyclic?n=4", nil))
	require.Len(t, users, 4)
	assert.Equal(t, []int{1, 3, 4}, users[1].Friends)
	assert.Equal(t, 3, users[1].BestFriend.ID)
	assert.Equal(t, 4, users[1].BestFriend.BestFriend, "the nested record names the one after")
	assert.Equal(t, 1, users[3].BestFriend.ID, "the last one's best friend is the first")
	assert.Equal(t, 2, users[3].BestFriend.BestFriend)

	chain := decode[[]struct {
		ID         int  `json:"id"`
		BestFriend *int `json:"bestFriend"`
	}](t, f.do(http.MethodGet, "/bad/chain?n=3", nil))
	require.Len(t, chain, 3)
	assert.Equal(t, 2, *chain[0].BestFriend)
	assert.Nil(t, chain[2].BestFriend)
	assert.Len(t, decode[[]any](t, f.do(http.MethodGet, "/bad/chain", nil)), 10000)
}

func TestBadSlow(t *testing.T) {
	f := newFixture(t, api.Options{})
	start := time.Now()
	r := f.do(http.MethodGet, "/bad/slow?ms=60&id=7", nil)
	assert.GreaterOrEqual(t, time.Since(start), 60*time.Millisecond)
	assert.EqualValues(t, 7, decode[map[string]any](t, r)["id"])

	res := f.async(http.MethodGet, "/bad/slow?ms=60000", nil)
	require.Eventually(t, func() bool { return f.api.Count("GET /bad/slow?ms=60000") == 1 }, waitLimit, time.Millisecond)
	f.api.Close()
	assert.Equal(t, http.StatusServiceUnavailable, await(t, res).status, "Close ends the wait")
}

func TestBadFlaky(t *testing.T) {
	f := newFixture(t, api.Options{})
	var got []int
	for range 4 {
		got = append(got, f.do(http.MethodGet, "/bad/flaky?id=3", nil).status)
	}
	assert.Equal(t, []int{503, 200, 503, 200}, got)
	assert.Equal(t, 503, f.do(http.MethodGet, "/bad/flaky?id=4", nil).status, "each URL counts apart")
	f.api.Reset()
	assert.Equal(t, 503, f.do(http.MethodGet, "/bad/flaky?id=3", nil).status, "Reset starts over")
}
