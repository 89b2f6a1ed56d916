package controller_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// bodyTransport answers each path with the body set for it; a request to
// a path in hold waits for release (an optimistic write stays pending)
// after telling entered.
type bodyTransport struct {
	mu      sync.Mutex
	bodies  map[string]string
	hold    string
	entered chan struct{}
	release chan struct{}
}

func (t *bodyTransport) set(path, body string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.bodies[path] = body
}

func (t *bodyTransport) RoundTrip(ctx context.Context, r *rest.Request) (*rest.Response, error) {
	path := r.URL[strings.Index(r.URL, "/articles"):]
	t.mu.Lock()
	body, held := t.bodies[path], path == t.hold
	entered, release := t.entered, t.release
	t.mu.Unlock()
	if held {
		entered <- struct{}{}
		<-release
	}
	// A new slice per response, as a real transport's: the store keeps
	// what it parsed.
	return &rest.Response{Status: 200, Body: []byte(body)}, nil
}

// reapplyRig is a controller over a bodyTransport with a list, a one-article
// and a mutation endpoint, and what its list subscriber was told.
type reapplyRig struct {
	c                *controller.Controller
	tr               *bodyTransport
	list, one, save  *rest.Endpoint
	told             []string
	lastTold         value.Value
	stop             func()
	pkCalls          *atomic.Int64
	article, userEnt *schema.Entity
}

func newReapplyRig(t *testing.T, now func() time.Time, fast bool) *reapplyRig {
	t.Helper()
	return newReapplyRigOf(t, now, fast, false)
}

// newReapplyRigOf is newReapplyRig whose list is a Collection (as a
// data-client resource's getList) when collection is set.
func newReapplyRigOf(t *testing.T, now func() time.Time, fast, collection bool) *reapplyRig {
	t.Helper()
	r := &reapplyRig{tr: &bodyTransport{bodies: map[string]string{}}, pkCalls: new(atomic.Int64)}
	// The user's key is computed, and counted: each count is one record
	// normalized.
	r.userEnt = &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`), PKFunc: func(rec, _ value.Value, _ string, _ value.Value) (string, bool, error) {
		r.pkCalls.Add(1)
		return rec.Get("id").JSON(), true, nil
	}}
	r.article = &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":"","author":null}`), Schema: map[string]schema.Schema{"author": r.userEnt}}
	var err error
	var listSchema schema.Schema = schema.ArrayOf(r.article)
	if collection {
		listSchema = &schema.Collection{Of: schema.ArrayOf(r.article)}
	}
	r.list, err = rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles", Name: "list",
		Schema: listSchema, Transport: r.tr})
	require.NoError(t, err)
	r.one, err = rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles/:id", Name: "one",
		Schema: r.article, Transport: r.tr})
	require.NoError(t, err)
	r.save, err = rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles/:id", Method: "PUT", Name: "save",
		Schema: r.article, Transport: r.tr,
		GetOptimisticResponse: func(_ endpoint.Snapshot, params value.Value, _ any) (value.Value, error) {
			return value.MustParse(fmt.Sprintf(`{"id":%s,"title":"optimistic"}`, params.Get("id").JSON())), nil
		}})
	require.NoError(t, err)
	r.c = controller.New(controller.Options{Now: now})
	controller.SetReapply(r.c, fast)
	r.stop, err = r.c.SubscribeWith(r.list, value.Obj(), func(s controller.State) {
		same := value.Same(s.Data, r.lastTold)
		r.lastTold = s.Data
		r.told = append(r.told, fmt.Sprintf("%s loading=%v err=%v %s same=%v", s.Data.JSON(), s.Loading, s.Err, s.ExpiryStatus, same))
	}, controller.SubscribeOptions{NoFetch: true})
	require.NoError(t, err)
	t.Cleanup(func() { r.stop(); r.c.Close() })
	return r
}

// reapplyLists are bodies of the list: the same data in other text,
// changed data, and one article listed twice with different titles; then
// the first with one element changed (store.ReapplyElem): its title, its
// own author's name, the name of an author another element repeats (in
// the first element, where the record is written, and in the third, which
// repeats it), another author, a bare key for its author, its key, null
// for it, and another author in place of one the third element repeats.
var reapplyLists = []string{
	`[{"id":1,"title":"a","author":{"id":1,"name":"u1"}},{"id":2,"title":"b","author":{"id":2,"name":"u2"}},{"id":3,"title":"c","author":{"id":1,"name":"u1"}}]`,
	`[{"id":1, "title":"a","author":{"id":1,"name":"u1"}},{"id":2,"title":"b","author":{"id":2,"name":"u2"}},{"id":3,"title":"c","author":{"id":1,"name":"u1"}}]`,
	`[{"id":1,"title":"a2","author":{"id":1,"name":"u1"}},{"id":2,"title":"b","author":{"id":2,"name":"U2"}}]`,
	`[{"id":1,"title":"a","author":{"id":1,"name":"u1"}},{"id":1,"title":"dup","author":{"id":1,"name":"u1"}}]`,
	`[{"id":1,"title":"a","author":{"id":1,"name":"u1"}},{"id":2,"title":"b2","author":{"id":2,"name":"u2"}},{"id":3,"title":"c","author":{"id":1,"name":"u1"}}]`,
	`[{"id":1,"title":"a","author":{"id":1,"name":"u1"}},{"id":2,"title":"b","author":{"id":2,"name":"u2 changed"}},{"id":3,"title":"c","author":{"id":1,"name":"u1"}}]`,
	`[{"id":1,"title":"a","author":{"id":1,"name":"u1 first"}},{"id":2,"title":"b","author":{"id":2,"name":"u2"}},{"id":3,"title":"c","author":{"id":1,"name":"u1"}}]`,
	`[{"id":1,"title":"a","author":{"id":1,"name":"u1"}},{"id":2,"title":"b","author":{"id":2,"name":"u2"}},{"id":3,"title":"c","author":{"id":1,"name":"u1 last"}}]`,
	`[{"id":1,"title":"a","author":{"id":1,"name":"u1"}},{"id":2,"title":"b","author":{"id":5,"name":"u5"}},{"id":3,"title":"c","author":{"id":1,"name":"u1"}}]`,
	`[{"id":1,"title":"a","author":{"id":1,"name":"u1"}},{"id":2,"title":"b","author":2},{"id":3,"title":"c","author":{"id":1,"name":"u1"}}]`,
	`[{"id":1,"title":"a","author":{"id":1,"name":"u1"}},{"id":4,"title":"b","author":{"id":2,"name":"u2"}},{"id":3,"title":"c","author":{"id":1,"name":"u1"}}]`,
	`[{"id":1,"title":"a","author":{"id":1,"name":"u1"}},null,{"id":3,"title":"c","author":{"id":1,"name":"u1"}}]`,
	`[{"id":1,"title":"a","author":{"id":6,"name":"u6"}},{"id":2,"title":"b","author":{"id":2,"name":"u2"}},{"id":3,"title":"c","author":{"id":1,"name":"u1"}}]`,
}

// reapplyOnes are bodies of one article: a whole record, and one with
// fewer fields (merged into the stored record).
var reapplyOnes = []string{
	`{"id":3,"title":"c","author":{"id":1,"name":"u1"}}`,
	`{"id":3,"title":"c3"}`,
	`{"id":1,"title":"a","author":{"id":1,"name":"u1"}}`,
}

// TestReapplyDifferential runs random sequences of fetches (the same list
// body again most often), other writes, invalidations, pending optimistic
// writes, resets and time moving on, against two controllers, one storing
// a body it holds already without parsing it, the other parsing every
// body, and requires the same state, metas included, the same snapshot,
// the same answers and the same notifications after every step.
func TestReapplyDifferential(t *testing.T) {
	var elems atomic.Int64
	t.Cleanup(func() { assert.Positive(t, elems.Load(), "some lists were stored with one element normalized") })
	for run := range 24 {
		seed, collection := uint64(run/2), run%2 == 1
		t.Run(fmt.Sprintf("%d collection=%v", seed, collection), func(t *testing.T) {
			var clock atomic.Int64
			clock.Store(1_000)
			now := func() time.Time { return time.UnixMilli(clock.Load()) }
			fast, slow := newReapplyRigOf(t, now, true, collection), newReapplyRigOf(t, now, false, collection)
			rigs := []*reapplyRig{fast, slow}
			rng := rand.New(rand.NewPCG(seed, 11))
			ctx := context.Background()
			var log []string
			for step := range 150 {
				op := rng.IntN(12)
				var got [2]string
				for i, r := range rigs {
					switch {
					case op < 5: // the list again, most often the same text
						b := 0
						if op == 4 {
							b = step % len(reapplyLists)
						}
						r.tr.set("/articles", reapplyLists[b])
						v, err := r.c.Fetch(ctx, r.list, value.Obj(), nil)
						got[i] = fmt.Sprintf("list %d: %s %v", b, v.JSON(), err)
					case op == 5:
						b := step % len(reapplyOnes)
						id := value.MustParse(reapplyOnes[b]).Get("id")
						r.tr.set("/articles/"+id.JSON(), reapplyOnes[b])
						v, err := r.c.Fetch(ctx, r.one, value.Obj(value.M("id", id)), nil)
						got[i] = fmt.Sprintf("one %d: %s %v", b, v.JSON(), err)
					case op == 6:
						err := r.c.SetResponse(r.one, value.Obj(value.M("id", value.Int(2))),
							value.MustParse(`{"id":2,"title":"set","author":{"id":2,"name":"u2"}}`))
						got[i] = fmt.Sprintf("set: %v", err)
					case op == 7:
						got[i] = fmt.Sprintf("invalidate: %v", r.c.Invalidate(r.list, value.Obj()))
					case op == 8:
						// A pending optimistic write while the list is
						// fetched again; then its response.
						r.tr.set("/articles", reapplyLists[0])
						r.tr.set("/articles/1", `{"id":1,"title":"saved","author":{"id":1,"name":"u1"}}`)
						r.tr.mu.Lock()
						r.tr.hold, r.tr.entered, r.tr.release = "/articles/1", make(chan struct{}), make(chan struct{})
						r.tr.mu.Unlock()
						done := make(chan error, 1)
						go func() {
							_, err := r.c.Fetch(ctx, r.save, value.Obj(value.M("id", value.Int(1))), value.MustParse(`{"title":"saved"}`))
							done <- err
						}()
						<-r.tr.entered
						v, err := r.c.Fetch(ctx, r.list, value.Obj(), nil)
						close(r.tr.release)
						got[i] = fmt.Sprintf("list under optimistic: %s %v; save: %v", v.JSON(), err, <-done)
						r.tr.mu.Lock()
						r.tr.hold = ""
						r.tr.mu.Unlock()
					case op == 9:
						r.c.ExpireAll(func(string) bool { return true })
						got[i] = "expireAll"
					case op == 10:
						if step%5 == 0 {
							r.c.ResetEntireStore()
							got[i] = "reset"
						} else {
							got[i] = fmt.Sprintf("invalidate one: %v", r.c.Invalidate(r.one, value.Obj(value.M("id", value.Int(3)))))
						}
					default:
						got[i] = "time"
					}
				}
				if op == 11 {
					// Forward, sometimes past the data's expiry; sometimes
					// not at all, so that fetchedAt stamps tie.
					clock.Add([]int64{0, 1, 30_000, 120_000}[rng.IntN(4)])
				}
				log = append(log, got[0])
				require.Equal(t, got[1], got[0], "step %d answers; steps: %v", step, log)
				require.Equal(t, slow.c.State().JSON(), fast.c.State().JSON(), "step %d state; steps: %v", step, log)
				require.Equal(t, slow.c.Snapshot().JSON(), fast.c.Snapshot().JSON(), "step %d snapshot; steps: %v", step, log)
				require.Equal(t, slow.told, fast.told, "step %d notifications; steps: %v", step, log)
			}
			assert.Zero(t, controller.Reapplied(slow.c)+controller.ReappliedElems(slow.c))
			assert.Positive(t, controller.Reapplied(fast.c), "the same text was stored again unparsed")
			elems.Add(int64(controller.ReappliedElems(fast.c)))
			t.Logf("seed %d: %d of 150 stored again unparsed, %d with one element normalized", seed, controller.Reapplied(fast.c), controller.ReappliedElems(fast.c))
		})
	}
}

// TestReapplySkipsNormalize fetches a list twice with the same text: the
// second fetch normalizes nothing (the user's PKFunc, called once per user
// record normalized, is not called), keeps the result's identity, and
// stores the new fetch's meta on the result and on every entity.
func TestReapplySkipsNormalize(t *testing.T) {
	var clock atomic.Int64
	clock.Store(1_000)
	r := newReapplyRig(t, func() time.Time { return time.UnixMilli(clock.Load()) }, true)
	ctx := context.Background()
	r.tr.set("/articles", reapplyLists[0])
	first, err := r.c.Fetch(ctx, r.list, value.Obj(), nil)
	require.NoError(t, err)
	normalized := r.pkCalls.Load()
	require.Positive(t, normalized)

	clock.Add(5_000)
	again, err := r.c.Fetch(ctx, r.list, value.Obj(), nil)
	require.NoError(t, err)
	assert.Equal(t, normalized, r.pkCalls.Load(), "the same text again is not normalized")
	assert.Equal(t, 1, controller.Reapplied(r.c))
	assert.True(t, value.Same(first, again), "the read keeps its identity")
	st := r.c.State()
	assert.Equal(t, "6000", st.Get("meta").Get(mustKey(t, r.list, value.Obj())).Get("fetchedAt").JSON())
	for _, ent := range []string{"Article", "User"} {
		metas := st.Get("entitiesMeta").Get(ent)
		require.Positive(t, metas.Len())
		for _, m := range metas.Members() {
			assert.Equal(t, "6000", m.Value.Get("fetchedAt").JSON(), "%s %s", ent, m.Key)
		}
	}

	// Other text, or anything stored in between, takes the usual path.
	r.tr.set("/articles", reapplyLists[1])
	_, err = r.c.Fetch(ctx, r.list, value.Obj(), nil)
	require.NoError(t, err)
	assert.Greater(t, r.pkCalls.Load(), normalized)
	normalized = r.pkCalls.Load()
	require.NoError(t, r.c.SetResponse(r.one, value.Obj(value.M("id", value.Int(9))), value.MustParse(`{"id":9,"title":"nine"}`)))
	_, err = r.c.Fetch(ctx, r.list, value.Obj(), nil)
	require.NoError(t, err)
	assert.Greater(t, r.pkCalls.Load(), normalized, "after other data is stored, the text is normalized again")
	normalized = r.pkCalls.Load()
	_, err = r.c.Fetch(ctx, r.list, value.Obj(), nil)
	require.NoError(t, err)
	assert.Equal(t, normalized, r.pkCalls.Load())
	assert.Equal(t, 2, controller.Reapplied(r.c))

	// An invalidation changes only the result's meta, which a response
	// replaces: the same text after it is not normalized either, and the
	// result is valid again.
	require.NoError(t, r.c.Invalidate(r.list, value.Obj()))
	require.Equal(t, endpoint.Invalid, r.c.GetResponse(r.list, value.Obj()).ExpiryStatus)
	_, err = r.c.Fetch(ctx, r.list, value.Obj(), nil)
	require.NoError(t, err)
	assert.Equal(t, normalized, r.pkCalls.Load())
	assert.Equal(t, 3, controller.Reapplied(r.c))
	assert.Equal(t, endpoint.Valid, r.c.GetResponse(r.list, value.Obj()).ExpiryStatus)
}

// TestRefetchMemoryBounded refetches a list of 1,000 articles 200 times,
// each time with titles changed and those changed before put back (as a
// poll of a list whose items change sees): next to each other (a run the
// store normalizes alone) or far apart (the whole text parsed). What the
// store keeps after a collection grows by the changed records' own text,
// where each response's records used to keep that response's whole text
// (and its tape) alive.
func TestRefetchMemoryBounded(t *testing.T) {
	for _, spread := range []int{0, 500} {
		t.Run(fmt.Sprint("changes ", spread, " apart"), func(t *testing.T) {
			tr := &bodyTransport{bodies: map[string]string{}}
			user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
			article := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":"","content":"","author":null}`),
				Schema: map[string]schema.Schema{"author": user}}
			list, err := rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles", Name: "list", Schema: schema.ArrayOf(article), Transport: tr})
			require.NoError(t, err)
			c := controller.New(controller.Options{})
			defer c.Close()
			body := func(changed int) string {
				var b strings.Builder
				b.WriteString("[")
				for i := range 1000 {
					if i > 0 {
						b.WriteString(",")
					}
					title := fmt.Sprint("title ", i)
					if changed >= 0 && (i == changed || i == (changed+spread)%1000) {
						title = fmt.Sprint("title ", i, " changed")
					}
					fmt.Fprintf(&b, `{"id":%d,"title":%q,"content":%q,"author":{"id":%d,"name":"user %d"}}`, i, title, strings.Repeat("content ", 50), i%20, i%20)
				}
				b.WriteString("]")
				return b.String()
			}
			live := func() uint64 {
				runtime.GC()
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				return m.HeapAlloc
			}
			ctx := context.Background()
			tr.set("/articles", body(-1))
			_, err = c.Fetch(ctx, list, value.Obj(), nil)
			require.NoError(t, err)
			text := len(body(-1))
			before := live()
			for i := range 200 {
				tr.set("/articles", body(i*7%1000))
				_, err := c.Fetch(ctx, list, value.Obj(), nil)
				require.NoError(t, err)
			}
			after := live()
			got := c.GetResponse(list, value.Obj()).Data.Elems()[199*7%1000].Get("title").Str()
			assert.Equal(t, fmt.Sprint("title ", 199*7%1000, " changed"), got)
			// Each refetch may keep its changed records' own text (a few of
			// the 1,000), not the response's: an eighth of a response each
			// at most.
			assert.Less(t, int64(after)-int64(before), int64(200*text/8),
				"live heap after 200 refetches: %d bytes more than after the first (a response is %d bytes)", int64(after)-int64(before), text)
		})
	}
}

// The same text under the same key is normalized again when the params
// differ: a key may leave out a param the normalization reads (here the
// params key the Collection the list is stored in).
func TestReapplyNeedsEqualParams(t *testing.T) {
	tr := &bodyTransport{bodies: map[string]string{}}
	body := `[{"id":"1","name":"one"},{"id":"2","name":"two"}]`
	tr.set("/articles?portfolio=A", body)
	tr.set("/articles?portfolio=B", body)
	holding := &schema.Entity{Key: "Holding", Defaults: value.MustParse(`{"id":"","name":""}`)}
	ep, err := rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles", Name: "holdings",
		Schema: &schema.Collection{Of: schema.ArrayOf(holding)}, Transport: tr,
		Key: func(value.Value) (string, error) { return "holdings", nil }})
	require.NoError(t, err)
	c := controller.New(controller.Options{Now: newClock().Now})
	defer c.Close()
	controller.SetReapply(c, true)
	onA, onB := value.MustParse(`{"portfolio":"A"}`), value.MustParse(`{"portfolio":"B"}`)
	collection := func() string { return c.State().Get("endpoints").Get("holdings").Str() }
	for i, params := range []value.Value{onA, onB, onB} {
		_, err := c.Fetch(context.Background(), ep, params, nil)
		require.NoError(t, err)
		assert.Equal(t, []int{0, 0, 1}[i], controller.Reapplied(c), "fetch %d: the same text is stored again unparsed only for the same params", i)
		assert.Equal(t, params.JSON(), collection(), "fetch %d: the collection of its params", i)
	}

	// One element changed, and the other params: normalized whole.
	tr.set("/articles?portfolio=A", strings.Replace(body, `"two"`, `"TWO"`, 1))
	_, err = c.Fetch(context.Background(), ep, onA, nil)
	require.NoError(t, err)
	assert.Equal(t, 0, controller.ReappliedElems(c))
	assert.Equal(t, onA.JSON(), collection())
	assert.Equal(t, "TWO", c.State().Get("entities").Get("Holding").Get("2").Get("name").Str())

	// The same params again: one element changed, then another, each
	// normalized alone (a run stored alone keeps the params it was for).
	for i, name := range []string{`"ONE"`, `"UNO"`} {
		body = strings.Replace(body, []string{`"one"`, `"ONE"`}[i], name, 1)
		tr.set("/articles?portfolio=A", strings.Replace(body, `"two"`, `"TWO"`, 1))
		_, err = c.Fetch(context.Background(), ep, onA, nil)
		require.NoError(t, err)
		assert.Equal(t, i+1, controller.ReappliedElems(c), "change %d", i)
	}
	assert.Equal(t, "UNO", c.State().Get("entities").Get("Holding").Get("1").Get("name").Str())
}
