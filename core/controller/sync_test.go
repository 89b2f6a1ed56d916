package controller_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// outbox collects a controller's sync messages as JSON text, as a channel
// would carry them.
type outbox struct {
	mu   sync.Mutex
	msgs []string
}

func (o *outbox) send(msg value.Value) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.msgs = append(o.msgs, msg.JSON())
}

// take returns the messages sent since the last take.
func (o *outbox) take() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := o.msgs
	o.msgs = nil
	return out
}

// deliver applies messages (JSON text) to c.
func deliver(t *testing.T, c *controller.Controller, msgs []string) {
	t.Helper()
	for _, m := range msgs {
		v, err := value.ParseString(m)
		require.NoError(t, err)
		require.NoError(t, c.ApplySync(v), "applying %s", m)
	}
}

// peers returns two controllers on one clock, each with an outbox.
func peers(clk interface{ Now() time.Time }) (a, b *controller.Controller, outA, outB *outbox) {
	a = controller.New(controller.Options{Now: clk.Now, DataExpiryLength: time.Minute})
	b = controller.New(controller.Options{Now: clk.Now, DataExpiryLength: time.Minute})
	outA, outB = &outbox{}, &outbox{}
	a.OnSync(outA.send)
	b.OnSync(outB.send)
	return a, b, outA, outB
}

// TestSyncResponse: a response one controller fetched is read by the other
// as it was stored, metadata included, with no request; nothing applied is
// sent again.
func TestSyncResponse(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	a, b, outA, outB := peers(clk)
	_, err := a.Fetch(ctx, shelfEndpoint("one"), value.Obj(), nil)
	require.NoError(t, err)
	msgs := outA.take()
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], `"datafetch":"sync","version":1,"op":"store"`)

	deliver(t, b, msgs)
	assert.Empty(t, outB.take(), "a change applied from the channel is not sent again")
	epB := shelfEndpoint("fetched by b")
	rA, rB := a.GetResponse(shelfEndpoint(""), value.Obj()), b.GetResponse(epB, value.Obj())
	assert.Equal(t, endpoint.Valid, rB.ExpiryStatus)
	assert.Equal(t, rA.ExpiresAt, rB.ExpiresAt)
	assert.Equal(t, rA.Data.JSON(), rB.Data.JSON())
	assert.Equal(t, a.Snapshot().JSON(), b.Snapshot().JSON(), "fetchedAt, expiresAt and date as a stored them")
	_, err = b.Suspense(ctx, epB, value.Obj())
	require.NoError(t, err)
	assert.EqualValues(t, 0, epB.calls.Load(), "no request")
}

// TestSyncNewerWins: a message older than what the receiver holds changes
// nothing; a newer one replaces it.
func TestSyncNewerWins(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	a, b, outA, _ := peers(clk)
	_, err := a.Fetch(ctx, shelfEndpoint("old"), value.Obj(), nil)
	require.NoError(t, err)
	old := outA.take()
	clk.Advance(time.Second)
	_, err = b.Fetch(ctx, shelfEndpoint("new"), value.Obj(), nil)
	require.NoError(t, err)
	before := b.Snapshot().JSON()
	deliver(t, b, old)
	assert.Equal(t, before, b.Snapshot().JSON(), "the older message lost")

	clk.Advance(time.Second)
	_, err = a.Fetch(ctx, shelfEndpoint("newest"), value.Obj(), nil)
	require.NoError(t, err)
	deliver(t, b, outA.take())
	assert.Equal(t, "newest", b.GetResponse(shelfEndpoint(""), value.Obj()).Data.Elems()[0].Get("title").Str())
}

// TestSyncOptimisticStaysLocal: an optimistic update sends nothing; the
// server's answer is sent when it comes, with the results its Update
// rewrote (which the receiver holds with the same fetchedAt).
func TestSyncOptimisticStaysLocal(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	a, b, outA, _ := peers(clk)
	list := &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: schema.ArrayOf(bookEntity)},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			return value.MustParse(`[{"id":"1","title":"one","rev":1}]`), nil
		}}
	listKey, err := list.Key(value.Obj())
	require.NoError(t, err)
	_, err = a.Fetch(ctx, list, value.Obj(), nil)
	require.NoError(t, err)
	deliver(t, b, outA.take())

	var duringFetch []string
	var seenOptimistic string
	create := &funcEndpoint{name: "create", spec: endpoint.Spec{Name: "create", Schema: bookEntity, SideEffect: true,
		GetOptimisticResponse: func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
			return value.MustParse(`{"id":"tmp","title":"two (optimistic)"}`), nil
		},
		Update: func(newPK, _ value.Value) (map[string]func(value.Value) value.Value, error) {
			return map[string]func(value.Value) value.Value{listKey: func(pks value.Value) value.Value {
				return value.Arr(append(append([]value.Value(nil), pks.Elems()...), newPK)...)
			}}, nil
		}},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			// The optimistic update is in a's store by now.
			seenOptimistic = a.GetResponse(list, value.Obj()).Data.JSON()
			duringFetch = outA.take()
			return value.MustParse(`{"id":"2","title":"two","rev":1}`), nil
		}}
	_, err = a.Fetch(ctx, create, value.Obj(), nil)
	require.NoError(t, err)
	assert.Contains(t, seenOptimistic, "two (optimistic)")
	assert.Empty(t, duringFetch, "the optimistic update sent nothing")
	msgs := outA.take()
	require.Len(t, msgs, 1, "one message, for the server's answer")
	assert.NotContains(t, msgs[0], "tmp", "nothing optimistic is sent")
	deliver(t, b, msgs)
	got := b.GetResponse(list, value.Obj()).Data
	require.Equal(t, 2, got.Len(), "the Update's rewrite reached b: %s", got.JSON())
	assert.Equal(t, "two", got.Elems()[1].Get("title").Str())
}

// TestSyncKeysAndReset: invalidate, invalidateAll, expireAll and a reset
// reach the receiver, as they changed the sender.
func TestSyncKeysAndReset(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		do   func(c *controller.Controller, ep endpoint.Endpoint)
		want endpoint.ExpiryStatus
	}{
		{"invalidate", func(c *controller.Controller, ep endpoint.Endpoint) {
			require.NoError(t, c.Invalidate(ep, value.Obj()))
		}, endpoint.Invalid},
		{"invalidateAll", func(c *controller.Controller, _ endpoint.Endpoint) {
			c.InvalidateAll(func(k string) bool { return strings.HasPrefix(k, "shelf") })
		}, endpoint.Invalid},
		{"expireAll", func(c *controller.Controller, _ endpoint.Endpoint) { c.ExpireAll(func(string) bool { return true }) }, endpoint.Stale},
		{"resetEntireStore", func(c *controller.Controller, _ endpoint.Endpoint) { c.ResetEntireStore() }, endpoint.Missing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newClock()
			a, b, outA, outB := peers(clk)
			ep := shelfEndpoint("one")
			_, err := a.Fetch(ctx, ep, value.Obj(), nil)
			require.NoError(t, err)
			deliver(t, b, outA.take())
			require.Equal(t, endpoint.Valid, b.GetResponse(ep, value.Obj()).ExpiryStatus)

			tc.do(a, ep)
			require.Equal(t, tc.want, a.GetResponse(ep, value.Obj()).ExpiryStatus)
			deliver(t, b, outA.take())
			assert.Equal(t, tc.want, b.GetResponse(ep, value.Obj()).ExpiryStatus)
			assert.Equal(t, a.State().JSON(), b.State().JSON())
			assert.Empty(t, outB.take(), "nothing sent back")
		})
	}
}

// TestSyncReplayDoesNotRevive: a store message replayed after an
// invalidate or an expireAll (posted again by a buggy or hostile tab) does
// not make the result valid again, in the tab that invalidated it or in
// the one that was told, nor in one that held no data when told; a newer
// fetch, from either tab, does.
func TestSyncReplayDoesNotRevive(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		do   func(c *controller.Controller, ep endpoint.Endpoint)
		want endpoint.ExpiryStatus
	}{
		{"invalidate", func(c *controller.Controller, ep endpoint.Endpoint) {
			require.NoError(t, c.Invalidate(ep, value.Obj()))
		}, endpoint.Invalid},
		{"invalidateAll", func(c *controller.Controller, _ endpoint.Endpoint) {
			c.InvalidateAll(func(k string) bool { return strings.HasPrefix(k, "shelf") })
		}, endpoint.Invalid},
		{"expireAll", func(c *controller.Controller, _ endpoint.Endpoint) { c.ExpireAll(func(string) bool { return true }) }, endpoint.Stale},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newClock()
			a, b, outA, outB := peers(clk)
			late := controller.New(controller.Options{Now: clk.Now, DataExpiryLength: time.Minute})
			ep := shelfEndpoint("one")
			status := func(c *controller.Controller) endpoint.ExpiryStatus {
				return c.GetResponse(ep, value.Obj()).ExpiryStatus
			}
			_, err := a.Fetch(ctx, ep, value.Obj(), nil)
			require.NoError(t, err)
			stored := outA.take()
			deliver(t, b, stored)

			tc.do(a, ep)
			marked := outA.take()
			deliver(t, b, marked)
			deliver(t, late, marked) // late joined after the store message
			for name, c := range map[string]*controller.Controller{"a": a, "b": b} {
				require.Equal(t, tc.want, status(c), name)
				deliver(t, c, stored)
				assert.Equal(t, tc.want, status(c), "%s: the replayed message revived the result", name)
			}
			deliver(t, late, stored)
			if tc.want == endpoint.Invalid {
				assert.Equal(t, endpoint.Invalid, status(late), "late: the replayed message revived the result")
			}
			assert.Empty(t, outB.take(), "nothing sent back")

			// A fetch after the mark, in b: its message revives a's.
			_, err = b.Fetch(ctx, shelfEndpoint("two"), value.Obj(), nil)
			require.NoError(t, err)
			deliver(t, a, outB.take())
			assert.Equal(t, endpoint.Valid, status(a))
			assert.Equal(t, "two", a.GetResponse(ep, value.Obj()).Data.Elems()[0].Get("title").Str())
		})
	}
}

// TestSyncBadMessages: a malformed message or one of another version is an
// error saying what is wrong, and the receiver is unchanged and still
// applies the next good message.
func TestSyncBadMessages(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	a, b, outA, _ := peers(clk)
	_, err := a.Fetch(ctx, shelfEndpoint("one"), value.Obj(), nil)
	require.NoError(t, err)
	good := outA.take()
	deliver(t, b, good)
	require.NoError(t, a.Invalidate(shelfEndpoint(""), value.Obj()))
	invalidate := outA.take()

	for _, tc := range []struct{ msg, want string }{
		{`"hello"`, "a string, not an object"},
		{`{"version":1,"op":"reset"}`, `datafetch: missing, not "sync"`},
		{`{"datafetch":"sync","version":2,"op":"reset"}`, "version 2: sync message of an unknown version"},
		{`{"datafetch":"sync","op":"reset"}`, "version missing: sync message of an unknown version"},
		{`{"datafetch":"sync","version":1}`, "op: missing, not a string"},
		{`{"datafetch":"sync","version":1,"op":"explode"}`, `op "explode" is not known`},
		{`{"datafetch":"sync","version":1,"op":"invalidate","keys":"shelf {}"}`, "keys: a string, not an array"},
		{`{"datafetch":"sync","version":1,"op":"expire","keys":["a",3]}`, "keys[1]: a number, not a string"},
		{`{"datafetch":"sync","version":1,"op":"invalidate","keys":["a"],"at":"now"}`, "at: a string, not a number"},
		{`{"datafetch":"sync","version":1,"op":"invalidate","keys":["a"],"at":1e300}`,
			"at: 1e300 is out of range (a time is epoch milliseconds within ±9007199254740991)"},
		{`{"datafetch":"sync","version":1,"op":"store"}`, "state: the snapshot is missing, not an object"},
		{`{"datafetch":"sync","version":1,"op":"store","state":{"version":1,"endpoints":{"k":[]},"meta":{}}}`, `meta["k"]: missing`},
	} {
		before := b.State().JSON()
		err := b.ApplySync(value.MustParse(tc.msg))
		require.Error(t, err, tc.msg)
		assert.Contains(t, err.Error(), tc.want)
		assert.Equal(t, strings.Contains(tc.want, "unknown version"), errors.Is(err, controller.ErrSyncVersion), tc.msg)
		assert.Equal(t, before, b.State().JSON(), "unchanged by %s", tc.msg)
	}
	deliver(t, b, invalidate)
	assert.Equal(t, endpoint.Invalid, b.GetResponse(shelfEndpoint(""), value.Obj()).ExpiryStatus, "still applies good messages")
}

// TestSyncTimesOutOfRange: a store message with a time beyond
// ±schema.MaxTime (which used to freeze the record it carries: no later
// fetch could replace it) is refused, naming the time, and the receiver is
// unchanged and keeps taking what it fetches.
func TestSyncTimesOutOfRange(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	a, b, outA, _ := peers(clk)
	_, err := a.Fetch(ctx, shelfEndpoint("one"), value.Obj(), nil)
	require.NoError(t, err)
	msgs := outA.take()
	require.Len(t, msgs, 1)
	for _, field := range []string{"fetchedAt", "expiresAt", "date"} {
		for _, bad := range []string{"1e300", "9300000000000000000"} {
			stored := a.Snapshot().Get("meta").Get("shelf {}").Get(field).Raw()
			msg := strings.Replace(msgs[0], `"`+field+`":`+stored, `"`+field+`":`+bad, 1)
			require.NotEqual(t, msgs[0], msg)
			before := b.State().JSON()
			err := b.ApplySync(value.MustParse(msg))
			assert.EqualError(t, err, `sync message: state: meta["shelf {}"].`+field+`: `+bad+
				` is out of range (a time is epoch milliseconds within ±9007199254740991)`)
			assert.Equal(t, before, b.State().JSON(), "unchanged")
		}
	}
	_, err = b.Fetch(ctx, shelfEndpoint("fetched by b"), value.Obj(), nil)
	require.NoError(t, err)
	assert.Equal(t, "fetched by b", b.GetResponse(shelfEndpoint(""), value.Obj()).Data.Elems()[0].Get("title").Str())
}

// TestClockOutOfRange: a clock that reads beyond the range of a
// JavaScript Date reads as its bound (schema.MaxClock), so that stamps and
// expiry times do not overflow: a fetch is fresh for its expiry length, a
// later fetch replaces it, and the snapshot is one other controllers take.
func TestClockOutOfRange(t *testing.T) {
	ctx := context.Background()
	for _, at := range []time.Time{time.UnixMilli(math.MaxInt64 - 1000), time.UnixMilli(9_300_000_000_000_000), time.Unix(1<<60, 0),
		time.UnixMilli(math.MinInt64 + 1000)} {
		c := controller.New(controller.Options{Now: func() time.Time { return at }, DataExpiryLength: time.Minute})
		_, err := c.Fetch(ctx, shelfEndpoint("one"), value.Obj(), nil)
		require.NoError(t, err)
		r := c.GetResponse(shelfEndpoint(""), value.Obj())
		assert.Equal(t, endpoint.Valid, r.ExpiryStatus, "%v", at)
		bound := int64(schema.MaxClock)
		if at.Unix() < 0 {
			bound = -bound
		}
		assert.Equal(t, bound+time.Minute.Milliseconds(), r.ExpiresAt, "%v", at)
		assert.Equal(t, bound, c.Now().UnixMilli())
		_, err = c.Fetch(ctx, shelfEndpoint("two"), value.Obj(), nil)
		require.NoError(t, err)
		assert.Equal(t, "two", c.GetResponse(shelfEndpoint(""), value.Obj()).Data.Elems()[0].Get("title").Str(), "%v", at)
		require.NoError(t, controller.New(controller.Options{}).Hydrate(c.Snapshot()), "%v", at)
	}
}

// TestSyncStop: after stop, nothing more is sent to that sink; no sink
// means no message at all.
func TestSyncStop(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	var one, two outbox
	stopOne := c.OnSync(one.send)
	c.OnSync(two.send)
	require.NoError(t, c.Invalidate(shelfEndpoint(""), value.Obj()))
	stopOne()
	stopOne() // twice is harmless
	_, err := c.Fetch(ctx, shelfEndpoint("one"), value.Obj(), nil)
	require.NoError(t, err)
	assert.Len(t, one.take(), 1, "only what came before stop")
	assert.Len(t, two.take(), 2)
}
