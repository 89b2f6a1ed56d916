package controller_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// shelf is a list endpoint and a detail endpoint of one entity type. The
// list serves records; the detail serves its params with a title of
// "fetched", so a detail that was fetched (not inferred) tells itself
// apart, and its calls are counted.
type shelf struct {
	list, detail *funcEndpoint
}

const (
	listExpiry   = time.Minute
	detailExpiry = 10 * time.Minute
)

func newShelf(e *schema.Entity, records string) *shelf {
	return &shelf{
		list: &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: schema.ArrayOf(e), DataExpiryLength: listExpiry},
			fetch: func(context.Context, value.Value, any) (value.Value, error) { return value.MustParse(records), nil }},
		detail: &funcEndpoint{name: "detail", spec: endpoint.Spec{Name: "detail", Schema: e, DataExpiryLength: detailExpiry},
			fetch: func(_ context.Context, p value.Value, _ any) (value.Value, error) {
				return schema.ShallowMerge(p, value.MustParse(`{"title":"fetched"}`)), nil
			}},
	}
}

// listed fetches the list and returns it.
func (s *shelf) listed(t *testing.T, c *controller.Controller) value.Value {
	t.Helper()
	v, err := c.Suspense(context.Background(), s.list, value.Obj())
	require.NoError(t, err)
	return v
}

func obj(js string) value.Value { return value.MustParse(js) }

// TestInferredByPK: a detail read after the list is answered from the
// entity table, with no request, for each way an entity can name its pk;
// params that name no stored pk, or no pk at all, fetch.
func TestInferredByPK(t *testing.T) {
	cases := []struct {
		name   string
		entity func() *schema.Entity
		list   string
		hit    value.Value // names the second record
		misses []value.Value
	}{
		{
			name:   "default pk",
			entity: func() *schema.Entity { return book(nil) },
			list:   `[{"id":"1","title":"one"},{"id":2,"title":"two"}]`,
			hit:    obj(`{"id":"2"}`), // 2 and "2" are one entity
			misses: []value.Value{obj(`{"id":"9"}`), obj(`{"slug":"2"}`), obj(`{"id":""}`), obj(`{"id":{"n":2}}`)},
		},
		{
			name:   "pk field",
			entity: func() *schema.Entity { return book(func(e *schema.Entity) { e.PK = "slug" }) },
			list:   `[{"slug":"a","title":"one"},{"slug":"b","title":"two"}]`,
			hit:    obj(`{"slug":"b"}`),
			misses: []value.Value{obj(`{"id":"b"}`), obj(`{"slug":"z"}`)},
		},
		{
			name: "pk function",
			entity: func() *schema.Entity {
				return book(func(e *schema.Entity) {
					e.PKFunc = func(r, _ value.Value, _ string, _ value.Value) (string, bool, error) {
						lang, id := r.Get("lang"), r.Get("id")
						if lang.IsUndefined() || id.IsUndefined() {
							return "", false, errors.New("a book needs lang and id")
						}
						return lang.Str() + "-" + id.Str(), true, nil
					}
				})
			},
			list: `[{"lang":"en","id":"1","title":"one"},{"lang":"fr","id":"1","title":"two"}]`,
			hit:  obj(`{"lang":"fr","id":"1"}`),
			// The function refuses params without lang: no inference.
			misses: []value.Value{obj(`{"id":"1"}`), obj(`{"lang":"de","id":"1"}`)},
		},
		{
			name: "pk function that panics on params",
			entity: func() *schema.Entity {
				return book(func(e *schema.Entity) {
					e.PKFunc = func(r, _ value.Value, _ string, _ value.Value) (string, bool, error) {
						if r.Get("title").IsUndefined() {
							panic("not a record")
						}
						return r.Get("id").Str(), true, nil
					}
				})
			},
			list:   `[{"id":"1","title":"one"},{"id":"2","title":"two"}]`,
			misses: []value.Value{obj(`{"id":"2"}`)},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			clk := newClock()
			c := controller.New(controller.Options{Now: clk.Now})
			s := newShelf(tc.entity(), tc.list)
			list := s.listed(t, c)

			if !tc.hit.IsUndefined() {
				r := c.GetResponse(s.detail, tc.hit)
				assert.Equal(t, endpoint.Valid, r.ExpiryStatus)
				assert.True(t, r.Inferred)
				assert.Equal(t, clk.Now().Add(listExpiry).UnixMilli(), r.ExpiresAt, "the entity's expiry, from the list")
				assert.True(t, value.Same(list.Elems()[1], r.Data), "the very value inside the list")

				v, err := c.Suspense(ctx, s.detail, tc.hit)
				require.NoError(t, err)
				assert.True(t, value.Same(list.Elems()[1], v))
				v, err = c.FetchIfStale(ctx, s.detail, tc.hit)
				require.NoError(t, err)
				assert.Equal(t, "two", v.Get("title").Str())
				assert.EqualValues(t, 0, s.detail.calls.Load(), "inferred: no request")
			}

			for i, p := range tc.misses {
				r := c.GetResponse(s.detail, p)
				assert.Equal(t, endpoint.Missing, r.ExpiryStatus, "%s", p)
				assert.False(t, r.Inferred)
				// The fake server answers with params as the record, which
				// fails to store when they lack the pk: what matters is the
				// request.
				v, err := c.Suspense(ctx, s.detail, p)
				if err == nil {
					assert.Equal(t, "fetched", v.Get("title").Str(), "%s", p)
				}
				assert.EqualValues(t, i+1, s.detail.calls.Load(), "%s fetched", p)
			}
		})
	}
}

// TestInferredNotWhen: a read is not inferred when the entity expired, was
// deleted, when the key was invalidated or keeps an error; each of them
// fetches and waits instead.
func TestInferredNotWhen(t *testing.T) {
	cases := []struct {
		name string
		// then does it to a controller where the list holds book 2.
		then   func(t *testing.T, c *controller.Controller, s *shelf, clk *testkit.Clock)
		status endpoint.ExpiryStatus
		// fetches is false when the read fails without a request.
		noFetch bool
	}{
		{name: "expired", status: endpoint.Missing,
			then: func(_ *testing.T, _ *controller.Controller, _ *shelf, clk *testkit.Clock) { clk.Advance(listExpiry) }},
		{name: "deleted", status: endpoint.Missing,
			then: func(t *testing.T, c *controller.Controller, s *shelf, _ *testkit.Clock) {
				del := &funcEndpoint{name: "delete", spec: endpoint.Spec{Name: "delete", Schema: schema.InvalidateOf(s.detail.spec.Schema.(*schema.Entity)), SideEffect: true},
					fetch: func(_ context.Context, p value.Value, _ any) (value.Value, error) { return p, nil }}
				_, err := c.Fetch(context.Background(), del, params("2"), nil)
				require.NoError(t, err)
			}},
		{name: "invalidated", status: endpoint.Missing,
			then: func(t *testing.T, c *controller.Controller, s *shelf, _ *testkit.Clock) {
				require.NoError(t, c.Invalidate(s.detail, params("2")))
			}},
		{name: "a kept error", status: endpoint.Missing, noFetch: true,
			then: func(t *testing.T, c *controller.Controller, s *shelf, _ *testkit.Clock) {
				require.NoError(t, c.SetError(s.detail, params("2"), errors.New("set")))
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newClock()
			c := controller.New(controller.Options{Now: clk.Now})
			s := newShelf(book(nil), `[{"id":"1","title":"one"},{"id":"2","title":"two"}]`)
			s.listed(t, c)
			require.True(t, c.GetResponse(s.detail, params("2")).Inferred)

			tc.then(t, c, s, clk)
			r := c.GetResponse(s.detail, params("2"))
			assert.Equal(t, tc.status, r.ExpiryStatus)
			assert.False(t, r.Inferred)
			assert.True(t, r.Data.IsUndefined())

			v, err := c.Suspense(context.Background(), s.detail, params("2"))
			if tc.noFetch {
				require.EqualError(t, err, "set")
				assert.EqualValues(t, 0, s.detail.calls.Load())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "fetched", v.Get("title").Str())
			assert.EqualValues(t, 1, s.detail.calls.Load())
		})
	}
}

// TestInferredStoredResultWins: a result stored under the detail's key is
// its answer, stale or not, even while the list holds a fresher entity.
func TestInferredStoredResultWins(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	s := newShelf(book(nil), `[{"id":"2","title":"two"}]`)
	_, err := c.Suspense(ctx, s.detail, params("2"))
	require.NoError(t, err)
	clk.Advance(detailExpiry)
	s.listed(t, c) // fresh entity, stale detail

	r := c.GetResponse(s.detail, params("2"))
	assert.Equal(t, endpoint.Stale, r.ExpiryStatus)
	assert.False(t, r.Inferred)
	assert.Equal(t, clk.Now().UnixMilli(), r.ExpiresAt, "the detail's own expiry")
}

// TestInferredNotForMutations: a mutation's result is what its request
// returned; GetResponse of one is not read from the entity table.
func TestInferredNotForMutations(t *testing.T) {
	c := controller.New(controller.Options{Now: newClock().Now})
	s := newShelf(book(nil), `[{"id":"2","title":"two"}]`)
	s.listed(t, c)
	update := &funcEndpoint{name: "update", spec: endpoint.Spec{Name: "update", Schema: s.detail.spec.Schema, SideEffect: true}}
	assert.Equal(t, endpoint.Missing, c.GetResponse(update, params("2")).ExpiryStatus)
}

// TestInferredIdentity: the inferred read is the list's value of the entity,
// the same again while it is unchanged (a refetch with equal data included),
// and a new value, the list's new one, when it changes.
func TestInferredIdentity(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	title := "two"
	e := book(nil)
	list := &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: schema.ArrayOf(e)},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			return value.MustParse(fmt.Sprintf(`[{"id":"1","title":"one"},{"id":"2","title":%q}]`, title)), nil
		}}
	detail := newShelf(e, `[]`).detail
	read := func() value.Value { return c.GetResponse(detail, params("2")).Data }
	fetchList := func() value.Value {
		v, err := c.Fetch(context.Background(), list, value.Obj(), nil)
		require.NoError(t, err)
		return v
	}

	l1 := fetchList()
	d1 := read()
	require.Equal(t, "two", d1.Get("title").Str())
	assert.True(t, value.Same(l1.Elems()[1], d1))
	assert.True(t, value.Same(d1, read()), "an unchanged re-read")

	clk.Advance(time.Second)
	fetchList() // equal data: no change
	assert.True(t, value.Same(d1, read()))

	title = "two, edited"
	l3 := fetchList()
	d3 := read()
	assert.False(t, value.Same(d1, d3))
	assert.Equal(t, "two, edited", d3.Get("title").Str())
	assert.True(t, value.Same(l3.Elems()[1], d3))
	assert.True(t, value.Same(l1.Elems()[0], l3.Elems()[0]), "the unchanged entity keeps its value")
	assert.EqualValues(t, 0, detail.calls.Load())
}

// TestInferredOptimistic: an entity an optimistic update writes is inferred
// (the visible state) while the request is pending, and goes with its
// rollback.
func TestInferredOptimistic(t *testing.T) {
	ctx := context.Background()
	c := controller.New(controller.Options{Now: newClock().Now})
	s := newShelf(book(nil), `[{"id":"1","title":"one"}]`)
	s.listed(t, c)

	gate := make(chan struct{})
	create := &funcEndpoint{name: "create", spec: endpoint.Spec{Name: "create", Schema: s.detail.spec.Schema, SideEffect: true,
		GetOptimisticResponse: func(_ endpoint.Snapshot, _ value.Value, body any) (value.Value, error) {
			return body.(value.Value), nil
		}},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			<-gate
			return value.Undef, errors.New("refused")
		}}
	done := make(chan error, 1)
	go func() {
		_, err := c.Fetch(ctx, create, value.Obj(), obj(`{"id":"5","title":"draft"}`))
		done <- err
	}()
	require.Eventually(t, func() bool { return c.PendingOptimistic() == 1 }, testkit.WaitLimit, time.Millisecond)

	r := c.GetResponse(s.detail, params("5"))
	assert.Equal(t, endpoint.Valid, r.ExpiryStatus)
	assert.Equal(t, "draft", r.Data.Get("title").Str())
	v, err := c.Suspense(ctx, s.detail, params("5"))
	require.NoError(t, err)
	assert.True(t, value.Same(r.Data, v))

	close(gate)
	require.EqualError(t, testkit.Wait(t, done, "the create"), "refused")
	assert.Equal(t, endpoint.Missing, c.GetResponse(s.detail, params("5")).ExpiryStatus, "rolled back")
	assert.EqualValues(t, 0, s.detail.calls.Load())
}

// TestInferredSubscription: a subscription's first state is inferred with
// no request; a change of the entity reaches it; once the entity expires,
// the next change makes it fetch.
func TestInferredSubscription(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	s := newShelf(book(nil), `[{"id":"1","title":"one"}]`)
	list := s.listed(t, c)

	rec := &states{}
	unsub, err := c.Subscribe(s.detail, params("1"), rec.listener)
	require.NoError(t, err)
	defer unsub()
	first := rec.last()
	assert.True(t, value.Same(list.Elems()[0], first.Data))
	assert.False(t, first.Loading)
	assert.Equal(t, endpoint.Valid, first.ExpiryStatus)

	require.NoError(t, c.SetResponse(s.list, value.Obj(), obj(`[{"id":"1","title":"renamed"}]`)))
	assert.Equal(t, "renamed", rec.last().Data.Get("title").Str())
	assert.EqualValues(t, 0, s.detail.calls.Load())

	clk.Advance(listExpiry)
	require.NoError(t, c.Invalidate(s.list, value.Obj())) // a change: subscriptions look again
	require.Eventually(t, func() bool { return rec.last().Data.Get("title").Str() == "fetched" }, testkit.WaitLimit, time.Millisecond)
	assert.EqualValues(t, 1, s.detail.calls.Load())
}

// TestInferredObjectSchema: an endpoint whose schema is an object of
// entities and defaults ({book: Book, author: Author, extra: ”}) is
// inferred as data-client infers it: every entity member named by the
// params and stored, the defaults filled in, Valid until the earliest of
// their expiries. A member that is not an entity or an object of them (a
// list) needs the stored result.
func TestInferredObjectSchema(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	bookE := book(nil)
	author := &schema.Entity{Key: "Author", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	books := newShelf(bookE, `[{"id":"1","title":"one"},{"id":"2","title":"two"}]`)
	authors := &funcEndpoint{name: "authors", spec: endpoint.Spec{Name: "authors", Schema: schema.ArrayOf(author), DataExpiryLength: detailExpiry},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			return obj(`[{"id":"2","name":"ann"}]`), nil
		}}
	page := schema.ObjectOf(schema.Default("first", value.NullV), schema.Nested("inner", schema.ObjectOf(schema.Default("n", value.Num(0)))))
	shape := schema.ObjectOf(schema.Nested("book", bookE), schema.Nested("author", author),
		schema.Default("extra", value.Str("")), schema.Nested("page", page))
	detail := &funcEndpoint{name: "both", spec: endpoint.Spec{Name: "both", Schema: shape},
		fetch: func(context.Context, value.Value, any) (value.Value, error) { return obj(`{}`), nil }}
	withList := &funcEndpoint{name: "withList", spec: endpoint.Spec{Name: "withList", Schema: schema.ObjectOf(schema.Nested("book", bookE), schema.Nested("all", schema.ArrayOf(author)))}}

	books.listed(t, c)
	_, err := c.Suspense(ctx, authors, value.Obj())
	require.NoError(t, err)

	r := c.GetResponse(detail, params("2"))
	require.Equal(t, endpoint.Valid, r.ExpiryStatus)
	assert.True(t, r.Inferred)
	assert.JSONEq(t, `{"book":{"id":"2","title":"two"},"author":{"id":"2","name":"ann"},"extra":"","page":{"first":null,"inner":{"n":0}}}`, r.Data.JSON())
	assert.Equal(t, clk.Now().Add(listExpiry).UnixMilli(), r.ExpiresAt, "the earlier of the two entities' expiries")

	assert.Equal(t, endpoint.Missing, c.GetResponse(detail, params("1")).ExpiryStatus, "author 1 is not stored")
	assert.Equal(t, endpoint.Missing, c.GetResponse(withList, params("2")).ExpiryStatus, "a list member is not inferred")
	clk.Advance(listExpiry)
	assert.Equal(t, endpoint.Missing, c.GetResponse(detail, params("2")).ExpiryStatus, "book 2 expired")
	assert.Zero(t, detail.calls.Load())
}

// TestInferredCollection: a read of an endpoint whose schema is a
// Collection is answered from the collection its params name when the
// endpoint's own key holds nothing (data-client's Collection.queryKey):
// here an argsKey that leaves out the lens, so another lens reads the
// stored list with no request, its Scalar fields read for that lens; not
// once the key is invalidated, nor once the collection expired.
func TestInferredCollection(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	company := portfolioCompany("Company", "portfolio")
	argsKeys := 0
	coll := &schema.Collection{Of: schema.ArrayOf(company), ArgsKey: func(value.Value, value.Value) (value.Value, error) {
		argsKeys++
		return value.Obj(), nil
	}}
	list := &funcEndpoint{name: "companies", spec: endpoint.Spec{Name: "companies", Schema: coll, DataExpiryLength: listExpiry},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			return obj(`[{"id":"1","name":"one","pct":0.5}]`), nil
		}}
	onA, onB := obj(`{"portfolio":"A"}`), obj(`{"portfolio":"B"}`)
	_, err := c.Suspense(ctx, list, onA)
	require.NoError(t, err)
	argsKeys = 0
	for range 3 {
		require.Equal(t, endpoint.Valid, c.GetResponse(list, onA).ExpiryStatus)
	}
	assert.Zero(t, argsKeys, "a stored result is read without working out what to infer")

	v, err := c.Suspense(ctx, list, onB)
	require.NoError(t, err)
	assert.JSONEq(t, `[{"id":"1","name":"one"}]`, v.JSON(), "B's lens has no cell yet")
	assert.Equal(t, int64(1), list.calls.Load(), "no request")
	r := c.GetResponse(list, onB)
	assert.True(t, r.Inferred)
	assert.Equal(t, endpoint.Valid, r.ExpiryStatus)
	assert.Equal(t, clk.Now().Add(listExpiry).UnixMilli(), r.ExpiresAt, "the collection's expiry")

	require.NoError(t, c.Invalidate(list, onB))
	assert.Equal(t, endpoint.Missing, c.GetResponse(list, onB).ExpiryStatus, "the key invalidated: its own state")
	onC := obj(`{"portfolio":"C"}`)
	assert.True(t, c.GetResponse(list, onC).Inferred)
	clk.Advance(listExpiry)
	assert.Equal(t, endpoint.Missing, c.GetResponse(list, onC).ExpiryStatus, "the collection expired")

	// Without an argsKey the params name the collection: others name
	// one not stored.
	plain := &funcEndpoint{name: "plain", spec: endpoint.Spec{Name: "plain", Schema: &schema.Collection{Of: schema.ArrayOf(company)}, DataExpiryLength: listExpiry},
		fetch: list.fetch}
	_, err = c.Suspense(ctx, plain, onA)
	require.NoError(t, err)
	assert.Equal(t, endpoint.Missing, c.GetResponse(plain, onB).ExpiryStatus)
}
