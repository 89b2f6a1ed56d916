package controller_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// shelf serves a list of Books, each with a nested Author: a result that
// reaches entities of two types.
var (
	authorEntity = &schema.Entity{Key: "Author", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	shelfBook    = &schema.Entity{Key: "Book", Defaults: value.MustParse(`{"id":null,"title":"","rev":0,"author":null}`),
		Schema: map[string]schema.Schema{"author": authorEntity}}
)

func shelfEndpoint(title string) *funcEndpoint {
	return &funcEndpoint{name: "shelf", spec: endpoint.Spec{Name: "shelf", Schema: schema.ArrayOf(shelfBook)},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			return value.MustParse(fmt.Sprintf(`[
				{"id":"1","title":%q,"rev":1,"author":{"id":"a","name":"Ann"}},
				{"id":"2","title":"two","rev":1,"author":{"id":"a","name":"Ann"}}]`, title)), nil
		}}
}

// TestHydrateRoundTrip: a second controller hydrated from the first one's
// snapshot (through its JSON text) reads the same data with the same expiry,
// without a request.
func TestHydrateRoundTrip(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	server := controller.New(controller.Options{Now: clk.Now, DataExpiryLength: time.Minute})
	ep := shelfEndpoint("one")
	want, err := server.Fetch(ctx, ep, value.Obj(), nil)
	require.NoError(t, err)
	wantResp := server.GetResponse(ep, value.Obj())

	text := server.Snapshot().JSON()
	snap, err := value.ParseString(text)
	require.NoError(t, err)
	assert.Equal(t, float64(controller.SnapshotVersion), must(snap.Get("version").Float()))

	client := controller.New(controller.Options{Now: clk.Now, InitialState: snap})
	clientEp := shelfEndpoint("from the client")
	r := client.GetResponse(clientEp, value.Obj())
	assert.Equal(t, endpoint.Valid, r.ExpiryStatus)
	assert.Equal(t, wantResp.ExpiresAt, r.ExpiresAt, "expiry metadata kept")
	assert.Equal(t, want.JSON(), r.Data.JSON(), "denormalized as on the server")
	assert.Equal(t, "Ann", r.Data.Elems()[1].Get("author").Get("name").Str())

	v, err := client.Suspense(ctx, clientEp, value.Obj())
	require.NoError(t, err)
	assert.Equal(t, want.JSON(), v.JSON())
	assert.EqualValues(t, 0, clientEp.calls.Load(), "fresh hydrated data needs no request")
	assert.Equal(t, server.Snapshot().JSON(), client.Snapshot().JSON(), "the snapshot round-trips")

	// Expired on the client's clock: stale, shown at once, refetched.
	clk.Advance(2 * time.Minute)
	r = client.GetResponse(clientEp, value.Obj())
	assert.Equal(t, endpoint.Stale, r.ExpiryStatus)
	_, err = client.Fetch(ctx, clientEp, value.Obj(), nil)
	require.NoError(t, err)
	assert.Equal(t, "from the client", client.GetResponse(clientEp, value.Obj()).Data.Elems()[0].Get("title").Str(),
		"a later fetch replaces hydrated data")
}

func must[T any](v T, ok bool) T {
	if !ok {
		panic("not ok")
	}
	return v
}

// TestHydrateNewerWins: by fetchedAt, per result and per entity, in both
// directions; a tie keeps what is stored.
func TestHydrateNewerWins(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	snapshotOf := func(title string) value.Value {
		c := controller.New(controller.Options{Now: clk.Now})
		_, err := c.Fetch(ctx, shelfEndpoint(title), value.Obj(), nil)
		require.NoError(t, err)
		return c.Snapshot()
	}
	title := func(c *controller.Controller) string {
		return c.GetResponse(shelfEndpoint(""), value.Obj()).Data.Elems()[0].Get("title").Str()
	}

	older := snapshotOf("older")
	clk.Advance(time.Second)

	// The store is newer: the older snapshot changes nothing.
	c := controller.New(controller.Options{Now: clk.Now})
	_, err := c.Fetch(ctx, shelfEndpoint("stored"), value.Obj(), nil)
	require.NoError(t, err)
	before := c.State().JSON()
	require.NoError(t, c.Hydrate(older))
	assert.Equal(t, "stored", title(c))
	assert.Equal(t, before, c.State().JSON(), "nothing of the older snapshot taken")

	// The snapshot is newer: it wins, results and entities.
	clk.Advance(time.Second)
	newer := snapshotOf("newer")
	require.NoError(t, c.Hydrate(newer))
	assert.Equal(t, "newer", title(c))
	assert.Equal(t, newer.Get("entitiesMeta").JSON(), c.Snapshot().Get("entitiesMeta").JSON(), "the entities' metas came along")

	// Per entity: a newer stored record survives a snapshot whose result is
	// newer than the stored result.
	clk.Advance(time.Second)
	b := &books{}
	_, err = c.Fetch(ctx, b.endpoint(endpoint.Spec{Schema: shelfBook}), params("1"), nil)
	require.NoError(t, err)
	require.NoError(t, c.Hydrate(newer), "the same snapshot again")
	assert.Equal(t, "book 1", title(c), "the newer record of Book 1 stays")

	// A tie keeps what is stored.
	d := controller.New(controller.Options{Now: clk.Now, InitialState: newer})
	tie := strings.Replace(newer.JSON(), `"newer"`, `"tie"`, 1)
	require.NoError(t, d.Hydrate(value.MustParse(tie)))
	assert.Equal(t, "newer", title(d))
}

// TestHydrateStampsAfterSnapshot: a snapshot from a server whose clock is
// ahead does not make this controller's next responses lose to it.
func TestHydrateStampsAfterSnapshot(t *testing.T) {
	ctx := context.Background()
	ahead := newClock()
	ahead.Advance(time.Hour)
	server := controller.New(controller.Options{Now: ahead.Now})
	_, err := server.Fetch(ctx, shelfEndpoint("server"), value.Obj(), nil)
	require.NoError(t, err)

	client := controller.New(controller.Options{Now: newClock().Now, InitialState: server.Snapshot()})
	_, err = client.Fetch(ctx, shelfEndpoint("client"), value.Obj(), nil)
	require.NoError(t, err)
	assert.Equal(t, "client", client.GetResponse(shelfEndpoint(""), value.Obj()).Data.Elems()[0].Get("title").Str())
}

// TestHydrateSkipsOptimisticAndErrors: pending optimistic updates are in
// State but not in Snapshot, and a snapshot's optimistic list and kept
// errors are not taken.
func TestHydrateSkipsOptimisticAndErrors(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	b := &books{gate: make(chan struct{})}
	read := b.endpoint(endpoint.Spec{})
	c := controller.New(controller.Options{Now: clk.Now})
	require.NoError(t, c.SetResponse(read, params("1"), value.MustParse(`{"id":"1","title":"real","rev":1}`)))

	edit := b.endpoint(endpoint.Spec{SideEffect: true,
		GetOptimisticResponse: func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
			return value.MustParse(`{"id":"1","title":"optimistic","rev":1}`), nil
		}})
	done := make(chan error, 1)
	go func() { _, err := c.Fetch(ctx, edit, params("1"), nil); done <- err }()
	require.Eventually(t, func() bool { return c.PendingOptimistic() == 1 }, time.Minute, time.Millisecond)

	state, snap := c.State(), c.Snapshot()
	assert.Equal(t, 1, state.Get("optimistic").Len())
	assert.Equal(t, "optimistic", state.Get("entities").Get("Book").Get("1").Get("title").Str())
	assert.Equal(t, 0, snap.Get("optimistic").Len())
	assert.Equal(t, "real", snap.Get("entities").Get("Book").Get("1").Get("title").Str(), "the snapshot holds what the server sent")

	// Hydrating State (optimistic list included) takes no optimistic update.
	d := controller.New(controller.Options{Now: clk.Now, InitialState: state})
	assert.Equal(t, 0, d.PendingOptimistic())
	close(b.gate)
	require.NoError(t, <-done)

	// A kept error is not part of a snapshot.
	b2 := &books{}
	b2.fail.Store(true)
	_, err := c.Suspense(ctx, b2.endpoint(endpoint.Spec{}), params("9"))
	require.Error(t, err)
	assert.Contains(t, c.State().Get("meta").JSON(), "server said no")
	assert.NotContains(t, c.Snapshot().JSON(), "server said no")
}

// TestHydrateExpiryMetadata: date, fetchedAt and expiresAt are taken as they
// are, up to the largest time a snapshot may hold (schema.MaxTime); an
// invalidated result stays invalid.
func TestHydrateExpiryMetadata(t *testing.T) {
	clk := newClock()
	now := clk.Now().UnixMilli()
	b := &books{}
	ep := b.endpoint(endpoint.Spec{})
	key, err := ep.Key(params("1"))
	require.NoError(t, err)
	key2, err := ep.Key(params("2"))
	require.NoError(t, err)
	snap := value.MustParse(fmt.Sprintf(`{"version":1,
		"entities":{"Book":{"1":{"id":"1","title":"t","rev":1},"2":{"id":"2","title":"u","rev":1}}},
		"entitiesMeta":{"Book":{"1":{"date":%d,"fetchedAt":%d,"expiresAt":%d},"2":{"date":1,"fetchedAt":1,"expiresAt":9007199254740991}}},
		"endpoints":{%q:"1",%q:"2"},
		"meta":{%q:{"date":%d,"fetchedAt":%d,"expiresAt":%d},%q:{"date":1,"fetchedAt":1,"expiresAt":9007199254740991,"invalidated":true}},
		"optimistic":[]}`, now-10, now-5, now+1000, key, key2, key, now-10, now-5, now+1000, key2))
	c := controller.New(controller.Options{Now: clk.Now})
	require.NoError(t, c.Hydrate(snap))
	r := c.GetResponse(ep, params("1"))
	assert.Equal(t, endpoint.Valid, r.ExpiryStatus)
	assert.Equal(t, now+1000, r.ExpiresAt)
	clk.Advance(1001 * time.Millisecond)
	assert.Equal(t, endpoint.Stale, c.GetResponse(ep, params("1")).ExpiryStatus, "expires on this controller's clock")

	r2 := c.GetResponse(ep, params("2"))
	assert.Equal(t, endpoint.Invalid, r2.ExpiryStatus, "invalidated stays invalid")
	assert.Equal(t, int64(schema.MaxTime), r2.ExpiresAt)
	meta := c.Snapshot().Get("meta").Get(key)
	assert.Equal(t, fmt.Sprint(now-10), meta.Get("date").Raw())
	assert.Equal(t, fmt.Sprint(now-5), meta.Get("fetchedAt").Raw())
}

// TestHydrateMalformed: every malformed snapshot is an error naming what is
// wrong, and the store is exactly as it was.
func TestHydrateMalformed(t *testing.T) {
	const book = `{"id":"4","title":"t","rev":1}`
	const meta = `{"date":1,"fetchedAt":1,"expiresAt":2}`
	snap := func(entities, entitiesMeta, endpoints, metas string) string {
		return fmt.Sprintf(`{"version":1,"entities":%s,"entitiesMeta":%s,"endpoints":%s,"meta":%s,"optimistic":[]}`,
			entities, entitiesMeta, endpoints, metas)
	}
	good := snap(`{"Book":{"4":`+book+`}}`, `{"Book":{"4":`+meta+`}}`, `{"k":"4"}`, `{"k":`+meta+`}`)
	require.NoError(t, controller.New(controller.Options{}).Hydrate(value.MustParse(good)), "the base case is good")

	cases := []struct {
		name, snapshot, err string
	}{
		{"not an object", `[1]`, `hydrate: the snapshot is an array, not an object`},
		{"no version", `{"entities":{}}`, `hydrate: version is missing (this build reads 1)`},
		{"unknown version", `{"version":7}`, `hydrate: version 7 is not known (this build reads 1)`},
		{"version as text", `{"version":"1"}`, `hydrate: version "1" is not known (this build reads 1)`},
		{"entities not an object", `{"version":1,"entities":[]}`, `hydrate: entities: an array, not an object`},
		{"record not an object", snap(`{"Book":{"4":"x"}}`, `{"Book":{"4":`+meta+`}}`, `{}`, `{}`),
			`hydrate: entities.Book["4"]: a string, not an object or an array`},
		{"table not an object", snap(`{"Book":3}`, `{}`, `{}`, `{}`), `hydrate: entities.Book: a number, not an object`},
		{"odd table name", snap(`{"my-type":{"4":1}}`, `{"my-type":{}}`, `{}`, `{}`),
			`hydrate: entities["my-type"]["4"]: a number, not an object or an array`},
		{"no metas for the table", snap(`{"Book":{"4":`+book+`}}`, `{}`, `{}`, `{}`),
			`hydrate: entitiesMeta.Book: missing, not an object`},
		{"no meta for a record", snap(`{"Book":{"4":`+book+`}}`, `{"Book":{}}`, `{}`, `{}`),
			`hydrate: entitiesMeta.Book["4"]: missing`},
		{"fetchedAt not a number", snap(`{"Book":{"4":`+book+`}}`, `{"Book":{"4":{"fetchedAt":"now","expiresAt":2}}}`, `{}`, `{}`),
			`hydrate: entitiesMeta.Book["4"].fetchedAt: a string, not a number`},
		{"deleted not a boolean", snap(`{"Book":{"4":null}}`, `{"Book":{"4":{"fetchedAt":1,"expiresAt":2,"deleted":1}}}`, `{}`, `{}`),
			`hydrate: entitiesMeta.Book["4"].deleted: a number, not a boolean`},
		{"meta of no record", snap(`{"Book":{}}`, `{"Book":{"5":`+meta+`}}`, `{}`, `{}`),
			`hydrate: entitiesMeta.Book["5"]: no such record in entities`},
		{"result without meta", snap(`{}`, `{}`, `{"GET /x":1}`, `{}`), `hydrate: meta["GET /x"]: missing`},
		{"result meta without expiresAt", snap(`{}`, `{}`, `{"k":1}`, `{"k":{"fetchedAt":1}}`),
			`hydrate: meta["k"].expiresAt: missing, not a number`},
		{"invalidated not a boolean", snap(`{}`, `{}`, `{"k":1}`, `{"k":{"fetchedAt":1,"expiresAt":2,"invalidated":"yes"}}`),
			`hydrate: meta["k"].invalidated: a string, not a boolean`},
		{"lone meta malformed", snap(`{}`, `{}`, `{}`, `{"k":[]}`), `hydrate: meta["k"]: an array, not an object`},
		{"optimistic not an array", `{"version":1,"optimistic":{}}`, `hydrate: optimistic: an object, not an array`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			c := controller.New(controller.Options{Now: newClock().Now})
			_, err := c.Fetch(ctx, shelfEndpoint("kept"), value.Obj(), nil)
			require.NoError(t, err)
			before := c.State().JSON()
			// A malformed snapshot that starts with good parts: nothing of
			// them may be stored either.
			v := value.MustParse(tc.snapshot)
			err = c.Hydrate(v)
			require.Error(t, err)
			assert.Equal(t, tc.err, err.Error())
			assert.Equal(t, before, c.State().JSON(), "the store is unchanged")

			assert.PanicsWithError(t, "controller.New: InitialState: "+tc.err, func() {
				controller.New(controller.Options{InitialState: v})
			})
		})
	}
}

// TestHydrateTimesOutOfRange: a time of a snapshot beyond ±schema.MaxTime
// (or near the range of int64, where it used to saturate and make every
// later stamp overflow, so that no fetch could replace the record again) is
// refused with an error naming it, wherever it is, and the store is
// unchanged; the largest time taken still lets a later fetch win.
func TestHydrateTimesOutOfRange(t *testing.T) {
	ctx := context.Background()
	ep := shelfEndpoint("")
	key, err := ep.Key(value.Obj())
	require.NoError(t, err)
	// snap puts bad as the time at path, 1 everywhere else.
	snap := func(path, bad string) string {
		at := func(p string) string {
			if p == path {
				return bad
			}
			return "1"
		}
		return fmt.Sprintf(`{"version":1,
			"entities":{"Book":{"1":{"id":"1","title":"t","rev":1,"author":null}}},
			"entitiesMeta":{"Book":{"1":{"date":%s,"fetchedAt":%s,"expiresAt":%s}}},
			"endpoints":{%q:["1"]},
			"meta":{%q:{"date":%s,"fetchedAt":%s,"expiresAt":%s}}}`,
			at("e.date"), at("e.fetchedAt"), at("e.expiresAt"), key, key, at("r.date"), at("r.fetchedAt"), at("r.expiresAt"))
	}
	where := map[string]string{
		"e.date": `entitiesMeta.Book["1"].date`, "e.fetchedAt": `entitiesMeta.Book["1"].fetchedAt`,
		"e.expiresAt": `entitiesMeta.Book["1"].expiresAt`,
		"r.date":      fmt.Sprintf(`meta[%q].date`, key), "r.fetchedAt": fmt.Sprintf(`meta[%q].fetchedAt`, key),
		"r.expiresAt": fmt.Sprintf(`meta[%q].expiresAt`, key),
	}
	for _, path := range []string{"e.date", "e.fetchedAt", "e.expiresAt", "r.date", "r.fetchedAt", "r.expiresAt"} {
		for _, bad := range []string{"1e300", "-1e300", "9300000000000000000", "9223372036854775807", "8000000000000000000", "9007199254740992"} {
			t.Run(path+"="+bad, func(t *testing.T) {
				c := controller.New(controller.Options{Now: newClock().Now})
				_, err := c.Fetch(ctx, shelfEndpoint("kept"), value.Obj(), nil)
				require.NoError(t, err)
				before := c.State().JSON()
				err = c.Hydrate(value.MustParse(snap(path, bad)))
				assert.EqualError(t, err, fmt.Sprintf("hydrate: %s: %s is out of range (a time is epoch milliseconds within ±9007199254740991)", where[path], bad))
				assert.Equal(t, before, c.State().JSON(), "the store is unchanged")

				_, err = c.Fetch(ctx, shelfEndpoint("fetched"), value.Obj(), nil)
				require.NoError(t, err)
				assert.Equal(t, "fetched", c.GetResponse(ep, value.Obj()).Data.Elems()[0].Get("title").Str())
			})
		}
	}

	// The largest time taken: a later fetch is stamped after it, and wins.
	c := controller.New(controller.Options{Now: newClock().Now})
	require.NoError(t, c.Hydrate(value.MustParse(snap("r.fetchedAt", "9007199254740991"))))
	_, err = c.Fetch(ctx, shelfEndpoint("fetched"), value.Obj(), nil)
	require.NoError(t, err)
	assert.Equal(t, "fetched", c.GetResponse(ep, value.Obj()).Data.Elems()[0].Get("title").Str())
}

// TestHydrateGoodPartsBeforeBadOnes: a snapshot whose first records are
// good and a later one is not stores none of them.
func TestHydrateGoodPartsBeforeBadOnes(t *testing.T) {
	c := controller.New(controller.Options{})
	err := c.Hydrate(value.MustParse(`{"version":1,
		"entities":{"Book":{"1":{"id":"1"},"2":{"id":"2"}}},
		"entitiesMeta":{"Book":{"1":{"fetchedAt":1,"expiresAt":2},"2":{"fetchedAt":"x","expiresAt":2}}}}`))
	require.EqualError(t, err, `hydrate: entitiesMeta.Book["2"].fetchedAt: a string, not a number`)
	assert.Equal(t, controller.New(controller.Options{}).State().JSON(), c.State().JSON())
}

// TestHydrateDeletedEntity: a deleted entity stays deleted: a result that
// needs it is invalid.
func TestHydrateDeletedEntity(t *testing.T) {
	clk := newClock()
	now := clk.Now().UnixMilli()
	b := &books{}
	ep := b.endpoint(endpoint.Spec{})
	key, err := ep.Key(params("1"))
	require.NoError(t, err)
	c := controller.New(controller.Options{Now: clk.Now})
	require.NoError(t, c.Hydrate(value.MustParse(fmt.Sprintf(`{"version":1,
		"entities":{"Book":{"1":null}},
		"entitiesMeta":{"Book":{"1":{"date":%d,"fetchedAt":%d,"expiresAt":%d,"deleted":true}}},
		"endpoints":{%q:"1"},"meta":{%q:{"date":%d,"fetchedAt":%d,"expiresAt":%d}}}`,
		now, now, now+1000, key, key, now, now, now+1000))))
	assert.Equal(t, endpoint.Invalid, c.GetResponse(ep, params("1")).ExpiryStatus)
	assert.Equal(t, `null`, c.State().Get("entities").Get("Book").Get("1").JSON())
}

// A snapshot holding what no response could have stored: a record under
// another pk than its own, a record without its pk, a list endpoint's
// result that is not a list, an entity endpoint's result that is a record
// rather than its pk.
func badSnapshots(t *testing.T, now int64) map[string]string {
	b := &books{}
	bookKey, err := b.endpoint(endpoint.Spec{}).Key(params("1"))
	require.NoError(t, err)
	shelfKey, err := shelfEndpoint("").Key(value.Obj())
	require.NoError(t, err)
	meta := fmt.Sprintf(`{"date":%d,"fetchedAt":%d,"expiresAt":%d}`, now, now, now+60_000)
	snap := func(entities, entitiesMeta, endpoints, metas string) string {
		return fmt.Sprintf(`{"version":1,"entities":%s,"entitiesMeta":%s,"endpoints":%s,"meta":%s}`, entities, entitiesMeta, endpoints, metas)
	}
	return map[string]string{
		"a record under another pk": snap(`{"Book":{"1":{"id":"2","title":"forged","rev":9}}}`, `{"Book":{"1":`+meta+`}}`,
			fmt.Sprintf(`{%q:"1"}`, bookKey), fmt.Sprintf(`{%q:%s}`, bookKey, meta)),
		"a record without its pk": snap(`{"Book":{"1":{"title":"forged","rev":9}}}`, `{"Book":{"1":`+meta+`}}`,
			fmt.Sprintf(`{%q:"1"}`, bookKey), fmt.Sprintf(`{%q:%s}`, bookKey, meta)),
		"a list's result that is a string": snap(`{"Book":{"1":{"id":"1","title":"good","rev":9,"author":null}}}`, `{"Book":{"1":`+meta+`}}`,
			fmt.Sprintf(`{%q:"1"}`, shelfKey), fmt.Sprintf(`{%q:%s}`, shelfKey, meta)),
		"an entity's result that is a record": snap(`{}`, `{}`,
			fmt.Sprintf(`{%q:{"title":"forged","rev":9}}`, bookKey), fmt.Sprintf(`{%q:%s}`, bookKey, meta)),
	}
}

// TestHydrateUncheckedDataIsNotRead: a snapshot taken before its schemas
// are known (a new controller's, as the initial state of a page) is
// checked when they are: data no response could have stored is read as
// missing, and fetched, instead of served; good data beside it still is.
func TestHydrateUncheckedDataIsNotRead(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	for name, text := range badSnapshots(t, clk.Now().UnixMilli()) {
		t.Run(name, func(t *testing.T) {
			c := controller.New(controller.Options{Now: clk.Now, InitialState: value.MustParse(text)})
			got, err := c.Get(bookEntity, value.Obj(value.M("id", value.Str("2"))))
			require.NoError(t, err)
			assert.True(t, got.IsUndefined(), "no Book 2: %s", got.JSON())
			got, err = c.Get(bookEntity, value.Obj(value.M("id", value.Str("1"))))
			require.NoError(t, err)
			assert.NotContains(t, got.JSON(), "forged", "Book 1 as an entity")
			b := &books{}
			for _, ep := range []endpoint.Endpoint{b.endpoint(endpoint.Spec{}), shelfEndpoint("fetched")} {
				p := params("1")
				if ep.Spec().Name == "shelf" {
					p = value.Obj()
				}
				key, err := ep.Key(p)
				require.NoError(t, err)
				if c.State().Get("endpoints").Get(key).IsUndefined() {
					continue
				}
				r := c.GetResponse(ep, p)
				assert.NotEqual(t, endpoint.Valid, r.ExpiryStatus, "%s: %s", key, r.Data.JSON())
				assert.NotContains(t, r.Data.JSON(), "forged")
				v, err := c.Suspense(ctx, ep, p)
				require.NoError(t, err)
				assert.NotContains(t, v.JSON(), "forged", "fetched")
			}
		})
	}

	// Good data in the same snapshot is read as usual, with no request.
	now := clk.Now().UnixMilli()
	b := &books{}
	ep := b.endpoint(endpoint.Spec{})
	key, err := ep.Key(params("1"))
	require.NoError(t, err)
	meta := fmt.Sprintf(`{"date":%d,"fetchedAt":%d,"expiresAt":%d}`, now, now, now+60_000)
	c := controller.New(controller.Options{Now: clk.Now, InitialState: value.MustParse(fmt.Sprintf(
		`{"version":1,"entities":{"Book":{"1":{"id":"1","title":"kept","rev":1}}},"entitiesMeta":{"Book":{"1":%s}},"endpoints":{%q:"1"},"meta":{%q:%s}}`,
		meta, key, key, meta))})
	v, err := c.Suspense(ctx, ep, params("1"))
	require.NoError(t, err)
	assert.Equal(t, "kept", v.Get("title").Str())
	_, fetched := b.fetches.Load("1")
	assert.False(t, fetched, "no request")
}

// TestHydrateChecksKnownSchemas: once the controller knows the schemas
// (it has read those endpoints), a snapshot or a sync message holding data
// no response could have stored is refused whole with an error naming the
// place, and the store is unchanged.
func TestHydrateChecksKnownSchemas(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	want := map[string]string{
		"a record under another pk":           `entities.Book["1"].id: "2", not the record's key "1"`,
		"a record without its pk":             `entities.Book["1"].id: missing: the record has no primary key`,
		"a list's result that is a string":    `endpoints["shelf {}"]: a string, not an array (the schema of its endpoint is [Book])`,
		"an entity's result that is a record": `endpoints["book {\"id\":\"1\"}"]: an object, not a pk of Book (a string or a number) (the schema of its endpoint is Book)`,
	}
	for name, text := range badSnapshots(t, clk.Now().UnixMilli()) {
		t.Run(name, func(t *testing.T) {
			c := controller.New(controller.Options{Now: clk.Now})
			b := &books{}
			_, err := c.Fetch(ctx, b.endpoint(endpoint.Spec{}), params("1"), nil)
			require.NoError(t, err)
			_, err = c.Fetch(ctx, shelfEndpoint("fetched"), value.Obj(), nil)
			require.NoError(t, err)
			before := c.State().JSON()

			err = c.Hydrate(value.MustParse(text))
			assert.EqualError(t, err, "hydrate: "+want[name])
			assert.Equal(t, before, c.State().JSON(), "the store is unchanged")

			msg := `{"datafetch":"sync","version":1,"op":"store","state":` + text + `}`
			err = c.ApplySync(value.MustParse(msg))
			assert.EqualError(t, err, "sync message: state: "+want[name])
			assert.Equal(t, before, c.State().JSON(), "the store is unchanged")
		})
	}
}
