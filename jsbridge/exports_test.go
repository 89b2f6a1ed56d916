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
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
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
			params, key, err := keyedParams(ids[tt.ep], tt.ep, lens[0])
			require.Equal(t, tt.ok, err == nil)
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
		_, key, err := keyedParams(ids[user], user, lens[0])
		require.NoError(t, err)
		require.Equal(t, "user GET http://x.test/users/"+strconv.Itoa(i), key)
		require.LessOrEqual(t, keptParams.n, maxKeptParams)
	}
}

// exportRig registers a controller over cc (nil: the caller sets c.c)
// and an endpoint of articles in the handle table, released when t ends.
func exportRig(t *testing.T, cc *controller.Controller) (c *ctrl, ep *rest.Endpoint, ctrlID, epID int32) {
	t.Helper()
	entity := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":""}`)}
	ep, err := rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles/:id", Name: "article", Schema: entity})
	require.NoError(t, err)
	c = &ctrl{c: cc, ids: encode.NewIdentities(), shared: &ctrlShared{now: math.NaN()}}
	ctrlID, epID = int32(table.add(c)), int32(table.add(ep))
	t.Cleanup(func() {
		table.release(int(ctrlID))
		table.release(int(epID))
	})
	return c, ep, ctrlID, epID
}

// exportSetResponse stores under the key kept from the params, and a read
// of other params right after it is not answered with the kept key.
func TestExportSetResponseUsesTheKeptKey(t *testing.T) {
	c, ep, ctrlID, epID := exportRig(t, controller.New(controller.Options{}))

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
	own := time.UnixMilli(5_000_000)
	c, ep, ctrlID, epID := exportRig(t, nil)
	c.c = controller.New(controller.Options{Now: c.clock(func() time.Time { return own })})
	shared := c.shared
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

// Every exported entry answers the calls it is given, errors included: it
// answers failed with the error the js.FuncOf entry would have reported
// (exchangeError throws it), so that JavaScript never makes the same call
// a second time. It declines only a change to a controller with a
// subscription open.
func TestExportsAnswerTheirErrors(t *testing.T) {
	c, _, ctrlID, epID := exportRig(t, controller.New(controller.Options{}))
	gone := int32(table.add(c))
	table.release(int(gone))
	broken := int32(table.add(&ctrl{})) // no controller: a call panics
	defer table.release(int(broken))
	function, err := safejs.Global().Get("Function")
	require.NoError(t, err)
	kept := lib.complete
	lib.complete = function // a function, as the library gives one
	defer func() { lib.complete = kept }()

	tests := []struct {
		name string
		call func() int32
		// err is a part of the error's message; empty: the call succeeds.
		err string
	}{
		{"getResponse, a controller released", func() int32 {
			return exportGetResponse(gone, epID, putInput(`{"id":1}`)[0])
		}, "a controller #" + strconv.Itoa(int(gone)) + " no longer exists"},
		{"getResponse, an endpoint handle that is a controller", func() int32 {
			return exportGetResponse(ctrlID, ctrlID, putInput(`{"id":1}`)[0])
		}, "is not an endpoint"},
		{"getResponse, params not JSON", func() int32 {
			return exportGetResponse(ctrlID, epID, putInput(`{"id":`)[0])
		}, "article: params"},
		{"getResponse, no key", func() int32 { return exportGetResponse(ctrlID, epID, putInput(`{}`)[0]) }, "id"},
		{"getResponse, null params", func() int32 { return exportGetResponse(ctrlID, epID, putInput(`null`)[0]) }, ""},
		{"setResponse, data not JSON", func() int32 {
			lens := putInput(`{"id":1}`, `{"id"`)
			return exportSetResponse(ctrlID, epID, lens[0], lens[1])
		}, "article: setResponse data"},
		{"setResponse, past the input", func() int32 { return exportSetResponse(ctrlID, epID, putInput(`{"id":1}`)[0], 1<<30) }, "past the input buffer"},
		{"invalidate, no key", func() int32 { return exportInvalidate(ctrlID, epID, putInput(`{}`)[0]) }, "id"},
		{"resetEntireStore, a controller released", func() int32 { return exportResetEntireStore(gone) }, "no longer exists"},
		{"keys, a controller released", func() int32 { return exportKeys(gone, 1) }, "no longer exists"},
		{"keys, a panic", func() int32 { return exportKeys(broken, 1) }, "datafetch ctrlExpireAll: internal error"},
		{"updateKeys, not an array", func() int32 { return exportUpdateKeys(ctrlID, putInput(`{}`)[0], 0) }, "ctrlInvalidateAll: keys: expected an array"},
		{"updateKeys, not strings", func() int32 { return exportUpdateKeys(ctrlID, putInput(`[1]`)[0], 1) }, "ctrlExpireAll: keys: expected strings"},
		{"updateKeys, a panic", func() int32 { return exportUpdateKeys(broken, putInput(`[]`)[0], 1) }, "datafetch ctrlExpireAll: internal error"},
		{"key, no key", func() int32 { return exportKey(epID, putInput(`{}`)[0]) }, "id"},
		{"url, no url", func() int32 { return exportURL(epID, putInput(`{}`)[0]) }, "id"},
		{"url, an endpoint released", func() int32 { return exportURL(gone, putInput(`{}`)[0]) }, "an endpoint #"},
		{"start, a controller released", func() int32 {
			return exportStart(startFetch, gone, epID, putInput(`{"id":1}`)[0], -1)
		}, "no longer exists"},
		{"start, a body for suspense", func() int32 {
			lens := putInput(`{"id":1}`, `{}`)
			return exportStart(startSuspense, ctrlID, epID, lens[0], lens[1])
		}, "ctrlSuspense: takes no body"},
		{"start, no such operation", func() int32 { return exportStart(9, ctrlID, epID, 0, -1) }, "no operation 9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exchange.err = nil
			r := tt.call()
			exportRelease()
			if tt.err == "" {
				assert.GreaterOrEqual(t, r, int32(0))
				assert.NoError(t, exchange.err)
				return
			}
			require.Equal(t, int32(failed), r, "answered, not declined")
			_, err := exchangeError(nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
			_, again := exchangeError(nil)
			assert.ErrorContains(t, again, "no exported call failed", "taken once")
		})
	}

	t.Run("a change with a subscription open is declined", func(t *testing.T) {
		c.subs.Add(1)
		defer c.subs.Add(-1)
		lens := putInput(`{"id":1}`, `{"id":1}`)
		assert.Equal(t, int32(declined), exportSetResponse(ctrlID, epID, lens[0], lens[1]))
		assert.Equal(t, int32(declined), exportInvalidate(ctrlID, epID, putInput(`{"id":1}`)[0]))
		assert.Equal(t, int32(declined), exportKeys(ctrlID, 0))
		assert.Equal(t, int32(declined), exportUpdateKeys(ctrlID, putInput(`[]`)[0], 0))
		assert.Equal(t, int32(declined), exportResetEntireStore(ctrlID))
	})
}
