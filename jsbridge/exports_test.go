//go:build js && wasm

package jsbridge

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/encode"
)

// putInput writes texts one after the other into the exported input
// buffer, as Exchange does, and returns their lengths in bytes.
func putInput(texts ...string) []int32 {
	size := 0
	for _, s := range texts {
		size += len(s)
	}
	exportInput(int32(size))
	lens := make([]int32, len(texts))
	off := 0
	for i, s := range texts {
		off += copy(exchange.in[off:], s)
		lens[i] = int32(len(s))
	}
	return lens
}

// The params exported entries were given are kept with their key: the
// same text for the same endpoint gives the same params and key, and
// anything else (other text, another endpoint) is parsed and keyed afresh.
func TestKeyedParamsKeepsParams(t *testing.T) {
	article, err := rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles/:id", Name: "article"})
	require.NoError(t, err)
	user, err := rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/users/:id", Name: "user"})
	require.NoError(t, err)
	ids := map[*rest.Endpoint]int32{article: int32(table.add(article)), user: int32(table.add(user))}
	defer table.release(int(ids[article]))
	defer table.release(int(ids[user]))

	tests := []struct {
		name string
		ep   *rest.Endpoint
		text string
		key  string
		ok   bool
	}{
		{"first", article, `{"id":7}`, "article GET http://x.test/articles/7", true},
		{"same text again", article, `{"id":7}`, "article GET http://x.test/articles/7", true},
		{"other endpoint, same text", user, `{"id":7}`, "user GET http://x.test/users/7", true},
		{"other text", user, `{"id":8}`, "user GET http://x.test/users/8", true},
		{"a query param", user, `{"id":8,"q":"a b"}`, "user GET http://x.test/users/8?q=a+b", true},
		{"a prefix of a kept text", user, `{"id":8}`, "user GET http://x.test/users/8", true},
		{"the first again", article, `{"id":7}`, "article GET http://x.test/articles/7", true},
		{"not JSON", user, `{"id":`, "", false},
		{"no key: a missing token", user, `{}`, "", false},
		{"no key again", user, `{}`, "", false},
		{"after a failure", user, `{"id":8}`, "user GET http://x.test/users/8", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lens := putInput(tt.text)
			params, key, ok, err := keyedParams(ids[tt.ep], tt.ep, lens[0])
			require.Equal(t, tt.ok, ok && err == nil)
			if !tt.ok {
				return
			}
			assert.Equal(t, tt.key, key)
			assert.True(t, value.Equal(value.MustParse(tt.text), params), "params %s", params.JSON())
		})
	}

	// What is kept is bounded: past maxKeptParams it starts afresh, and
	// still answers right.
	for i := range maxKeptParams + 10 {
		lens := putInput(`{"id":` + strconv.Itoa(i) + `}`)
		_, key, ok, err := keyedParams(ids[user], user, lens[0])
		require.True(t, ok)
		require.NoError(t, err)
		require.Equal(t, "user GET http://x.test/users/"+strconv.Itoa(i), key)
		require.LessOrEqual(t, keptParams.n, maxKeptParams)
	}
}

// exportSetResponse stores under the key kept from the params, and a read
// of other params right after it is not answered with the kept key.
func TestExportSetResponseUsesTheKeptKey(t *testing.T) {
	entity := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":""}`)}
	ep, err := rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles/:id", Name: "article", Schema: entity})
	require.NoError(t, err)
	c := &ctrl{c: controller.New(controller.Options{}), ids: encode.NewIdentities(), shared: &ctrlShared{now: math.NaN()}}
	ctrlID, epID := int32(table.add(c)), int32(table.add(ep))
	defer table.release(int(ctrlID))
	defer table.release(int(epID))

	for _, id := range []string{"1", "2", "1"} {
		lens := putInput(`{"id":`+id+`}`, `{"id":`+id+`,"title":"t`+id+`"}`)
		require.Equal(t, int32(done), exportSetResponse(ctrlID, epID, lens[0], lens[1]))
	}
	for _, id := range []string{"1", "2"} {
		r := c.c.GetResponse(ep, value.MustParse(`{"id":`+id+`}`))
		require.NoError(t, r.Err)
		assert.Equal(t, "t"+id, r.Data.Get("title").Str())
	}
}

// An exported entry takes the controller's time from the shared memory
// when JavaScript gives one (ctrlShared.now), for that call only; with NaN
// there it reads the controller's own clock.
func TestExportTakesTheTimeGiven(t *testing.T) {
	entity := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":""}`)}
	ep, err := rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles/:id", Name: "article", Schema: entity})
	require.NoError(t, err)
	own := time.UnixMilli(5_000_000)
	shared := &ctrlShared{now: math.NaN()}
	c := &ctrl{ids: encode.NewIdentities(), shared: shared}
	c.c = controller.New(controller.Options{Now: c.clock(func() time.Time { return own })})
	ctrlID, epID := int32(table.add(c)), int32(table.add(ep))
	defer table.release(int(ctrlID))
	defer table.release(int(epID))
	expiry := controller.DefaultDataExpiryLength.Milliseconds()

	tests := []struct {
		name  string
		given float64
		at    int64
	}{
		{"a time given", 1_000_000.7, 1_000_000},
		{"none given", math.NaN(), own.UnixMilli()},
		{"out of a Date's range", 9e15, own.UnixMilli()},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := string(rune('1' + i))
			shared.now = tt.given
			lens := putInput(`{"id":`+id+`}`, `{"id":`+id+`}`)
			require.Equal(t, int32(done), exportSetResponse(ctrlID, epID, lens[0], lens[1]))
			assert.False(t, c.pinSet, "unpinned after the call")
			shared.now = math.NaN()
			r := c.c.GetResponse(ep, value.MustParse(`{"id":`+id+`}`))
			require.NoError(t, r.Err)
			assert.Equal(t, tt.at+expiry, r.ExpiresAt)
		})
	}
}
