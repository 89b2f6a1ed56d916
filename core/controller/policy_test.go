package controller_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
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
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// newClock returns the controller's clock in these tests: it stands still
// at a fixed instant until a test advances it.
func newClock() *testkit.Clock { return testkit.NewClock(time.UnixMilli(1_700_000_000_000)) }

var bookEntity = &schema.Entity{Key: "Book", Defaults: value.MustParse(`{"id":null,"title":"","rev":0}`)}

// books serves one Book per id; rev counts the fetches of that id, so a test
// can tell a refetched value from a cached one. gate, when set, holds every
// fetch until a value is sent on it.
type books struct {
	fetches sync.Map // id -> *atomic.Int64
	gate    chan struct{}
	fail    atomic.Bool
}

func (b *books) endpoint(spec endpoint.Spec) *funcEndpoint {
	spec.Name = "book"
	if spec.Schema == nil {
		spec.Schema = bookEntity
	}
	return &funcEndpoint{name: "book", spec: spec, fetch: func(ctx context.Context, p value.Value, _ any) (value.Value, error) {
		if b.gate != nil {
			select {
			case <-b.gate:
			case <-ctx.Done():
				return value.Undef, ctx.Err()
			}
		}
		if b.fail.Load() {
			return value.Undef, errors.New("server said no")
		}
		id, _ := p.Get("id").Text()
		n, _ := b.fetches.LoadOrStore(id, new(atomic.Int64))
		rev := n.(*atomic.Int64).Add(1)
		return value.MustParse(fmt.Sprintf(`{"id":%q,"title":"book %s","rev":%d}`, id, id, rev)), nil
	}}
}

func params(id string) value.Value { return value.Obj(value.M("id", value.Str(id))) }

func rev(v value.Value) int { f, _ := v.Get("rev").Float(); return int(f) }

func TestSuspenseTriggers(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now, DataExpiryLength: time.Minute})
	b := &books{}
	ep := b.endpoint(endpoint.Spec{})

	// 1. First read fetches and waits.
	v, err := c.Suspense(ctx, ep, params("1"))
	require.NoError(t, err)
	assert.Equal(t, 1, rev(v))
	assert.EqualValues(t, 1, ep.calls.Load())

	// Fresh: no request, identical value.
	v2, err := c.Suspense(ctx, ep, params("1"))
	require.NoError(t, err)
	assert.True(t, value.Same(v, v2))
	assert.EqualValues(t, 1, ep.calls.Load())
	assert.Equal(t, endpoint.Valid, c.GetResponse(ep, params("1")).ExpiryStatus)

	// 2. Other params fetch.
	v3, err := c.Suspense(ctx, ep, params("2"))
	require.NoError(t, err)
	assert.Equal(t, "book 2", v3.Get("title").Str())
	assert.EqualValues(t, 2, ep.calls.Load())

	// 7. Null params do nothing.
	v4, err := c.Suspense(ctx, ep, value.NullV)
	require.NoError(t, err)
	assert.True(t, v4.IsUndefined())
	assert.EqualValues(t, 2, ep.calls.Load())

	// 6. Stale: the cached value now, a revalidation in the background.
	clk.Advance(2 * time.Minute)
	assert.Equal(t, endpoint.Stale, c.GetResponse(ep, params("1")).ExpiryStatus)
	stale, err := c.Suspense(ctx, ep, params("1"))
	require.NoError(t, err)
	assert.Equal(t, 1, rev(stale))
	require.Eventually(t, func() bool { return rev(c.GetResponse(ep, params("1")).Data) == 2 }, testkit.WaitLimit, time.Millisecond)

	// 4. Invalidation: the next read fetches and waits.
	require.NoError(t, c.Invalidate(ep, params("1")))
	assert.Equal(t, endpoint.Invalid, c.GetResponse(ep, params("1")).ExpiryStatus)
	v5, err := c.Suspense(ctx, ep, params("1"))
	require.NoError(t, err)
	assert.Equal(t, 3, rev(v5))

	// 3. A required entity deleted: the next read fetches and waits.
	del := &funcEndpoint{name: "delete", spec: endpoint.Spec{Name: "delete", Schema: schema.InvalidateOf(bookEntity), SideEffect: true},
		fetch: func(context.Context, value.Value, any) (value.Value, error) { return params("1"), nil }}
	_, err = c.Fetch(ctx, del, params("1"), nil)
	require.NoError(t, err)
	assert.Equal(t, endpoint.Invalid, c.GetResponse(ep, params("1")).ExpiryStatus)
	v6, err := c.Suspense(ctx, ep, params("1"))
	require.NoError(t, err)
	assert.Equal(t, 4, rev(v6))
}

func TestInvalidIfStaleWaits(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	ep := (&books{}).endpoint(endpoint.Spec{InvalidIfStale: true, DataExpiryLength: time.Second})
	_, err := c.Suspense(context.Background(), ep, params("1"))
	require.NoError(t, err)
	clk.Advance(2 * time.Second)
	assert.Equal(t, endpoint.Invalid, c.GetResponse(ep, params("1")).ExpiryStatus)
	v, err := c.Suspense(context.Background(), ep, params("1"))
	require.NoError(t, err)
	assert.Equal(t, 2, rev(v), "waited for the refetch instead of returning stale data")
}

// joinSignal is a context that reports when a reader starts waiting on
// it: Controller.shared asks for Done only once the reader has joined the
// request in flight (or started it), so each report means one reader joined.
type joinSignal struct {
	context.Context
	joined chan<- struct{}
	once   sync.Once
}

func (j *joinSignal) Done() <-chan struct{} {
	j.once.Do(func() { j.joined <- struct{}{} })
	return j.Context.Done()
}

// TestIdenticalRequestsShared: readers of the same result while its request
// is held at the server all join that request: the server holds it until
// every reader has joined, and counts one request.
func TestIdenticalRequestsShared(t *testing.T) {
	srv := newHeldServer(t, jsonHandler(http.StatusOK, `{"id":"1","title":"book 1"}`))
	srv.Hold(true)
	ep := restEndpoint(t, srv, rest.Options{Path: "/books/:id", Name: "book", Schema: bookEntity})
	c := controller.New(controller.Options{})
	const readers = 8
	joined := make(chan struct{}, readers)
	var wg sync.WaitGroup
	results := make([]value.Value, readers)
	for i := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := &joinSignal{Context: context.Background(), joined: joined}
			v, err := c.Suspense(ctx, ep, params("1"))
			assert.NoError(t, err)
			results[i] = v
		}()
	}
	held := srv.Next()
	for i := range readers {
		testkit.Wait(t, joined, fmt.Sprintf("reader %d joining", i))
	}
	held.Release(t)
	srv.Unhold() // should sharing fail, the other requests answer too
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	testkit.Wait(t, done, "readers")
	assert.Equal(t, 1, srv.Count("GET /books/1"), "one request for all readers")
	for _, v := range results {
		assert.Equal(t, "book 1", v.Get("title").Str())
		assert.True(t, value.Same(results[0], v))
	}
}

func TestMutationsNeverShared(t *testing.T) {
	b := &books{}
	ep := b.endpoint(endpoint.Spec{SideEffect: true})
	c := controller.New(controller.Options{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = c.Fetch(context.Background(), ep, params("1"), nil) }()
	}
	wg.Wait()
	assert.EqualValues(t, 4, ep.calls.Load())
}

func TestErrorsKeptForErrorExpiry(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now, ErrorExpiryLength: 5 * time.Second})
	b := &books{}
	b.fail.Store(true)
	ep := b.endpoint(endpoint.Spec{})
	_, err := c.Suspense(context.Background(), ep, params("1"))
	require.ErrorContains(t, err, "server said no")
	b.fail.Store(false)
	_, err = c.Suspense(context.Background(), ep, params("1"))
	require.ErrorContains(t, err, "server said no", "kept error, no new request")
	assert.EqualValues(t, 1, ep.calls.Load())
	clk.Advance(6 * time.Second)
	v, err := c.Suspense(context.Background(), ep, params("1"))
	require.NoError(t, err)
	assert.Equal(t, "book 1", v.Get("title").Str())
	assert.EqualValues(t, 2, ep.calls.Load())
}

func TestResetIgnoresEarlierResponses(t *testing.T) {
	b := &books{gate: make(chan struct{})}
	ep := b.endpoint(endpoint.Spec{})
	c := controller.New(controller.Options{})
	done := make(chan error)
	go func() { _, err := c.Suspense(context.Background(), ep, params("1")); done <- err }()
	require.Eventually(t, func() bool { return ep.calls.Load() == 1 }, testkit.WaitLimit, time.Millisecond)
	c.ResetEntireStore()
	close(b.gate)
	assert.ErrorIs(t, <-done, controller.ErrReset)
	assert.Equal(t, endpoint.Missing, c.GetResponse(ep, params("1")).ExpiryStatus)
}

func TestSubscribe(t *testing.T) {
	b := &books{gate: make(chan struct{}, 10)}
	ep := b.endpoint(endpoint.Spec{})
	c := controller.New(controller.Options{})
	var mu sync.Mutex
	var seen []controller.State
	unsub, err := c.Subscribe(ep, params("1"), func(s controller.State) {
		mu.Lock()
		seen = append(seen, s)
		mu.Unlock()
	})
	require.NoError(t, err)
	mu.Lock()
	require.Len(t, seen, 1, "called before Subscribe returned")
	assert.True(t, seen[0].Loading)
	assert.True(t, seen[0].Data.IsUndefined())
	mu.Unlock()

	b.gate <- struct{}{}
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(seen) == 2 }, testkit.WaitLimit, time.Millisecond)
	mu.Lock()
	first := seen[1]
	mu.Unlock()
	assert.False(t, first.Loading)
	assert.Equal(t, 1, rev(first.Data))

	// Invalidation refetches while subscribed.
	b.gate <- struct{}{}
	require.NoError(t, c.Invalidate(ep, params("1")))
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		last := seen[len(seen)-1]
		return !last.Loading && rev(last.Data) == 2
	}, testkit.WaitLimit, time.Millisecond)

	// An unrelated write does not notify.
	mu.Lock()
	n := len(seen)
	mu.Unlock()
	require.NoError(t, c.SetResponse(ep, params("9"), value.MustParse(`{"id":"9"}`)))
	mu.Lock()
	assert.Len(t, seen, n)
	mu.Unlock()

	unsub()
	unsub()
	require.NoError(t, c.SetResponse(ep, params("1"), value.MustParse(`{"id":"1","title":"set"}`)))
	mu.Lock()
	assert.Len(t, seen, n, "no calls after unsubscribe")
	mu.Unlock()
	assert.Equal(t, "set", c.GetResponse(ep, params("1")).Data.Get("title").Str())
}

func TestExpireAllAndState(t *testing.T) {
	clk := newClock()
	c := controller.New(controller.Options{Now: clk.Now})
	ep := (&books{}).endpoint(endpoint.Spec{})
	for _, id := range []string{"1", "2"} {
		_, err := c.Suspense(context.Background(), ep, params(id))
		require.NoError(t, err)
	}
	c.ExpireAll(func(k string) bool { return k == `book {"id":"2"}` })
	assert.Equal(t, endpoint.Valid, c.GetResponse(ep, params("1")).ExpiryStatus)
	assert.Equal(t, endpoint.Stale, c.GetResponse(ep, params("2")).ExpiryStatus)
	c.InvalidateAll(func(string) bool { return true })
	assert.Equal(t, endpoint.Invalid, c.GetResponse(ep, params("1")).ExpiryStatus)

	st := c.State()
	assert.JSONEq(t, `{"1":{"id":"1","title":"book 1","rev":1},"2":{"id":"2","title":"book 2","rev":1}}`, st.Get("entities").Get("Book").JSON())
	assert.Equal(t, `"1"`, st.Get("endpoints").Get(`book {"id":"1"}`).JSON())
	assert.True(t, st.Get("meta").Get(`book {"id":"1"}`).Get("invalidated").Boolean())
}

func TestRollbackRestoresIdentity(t *testing.T) {
	ctx := context.Background()
	list := &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: schema.ArrayOf(bookEntity)},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			return value.MustParse(`[{"id":"1","title":"a"},{"id":"2","title":"b"}]`), nil
		}}
	gate := make(chan struct{})
	edit := &funcEndpoint{name: "edit", spec: endpoint.Spec{Name: "edit", Schema: bookEntity, SideEffect: true,
		GetOptimisticResponse: func(_ endpoint.Snapshot, p value.Value, _ any) (value.Value, error) {
			return p.With("title", value.Str("optimistic")), nil
		}},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			<-gate
			return value.Undef, errors.New("refused")
		}}
	c := controller.New(controller.Options{})
	before, err := c.Suspense(ctx, list, value.Obj())
	require.NoError(t, err)

	done := make(chan error)
	go func() { _, err := c.Fetch(ctx, edit, params("2"), nil); done <- err }()
	require.Eventually(t, func() bool { return c.PendingOptimistic() == 1 }, testkit.WaitLimit, time.Millisecond)
	during := c.GetResponse(list, value.Obj()).Data
	assert.Equal(t, "optimistic", during.Elems()[1].Get("title").Str())
	assert.True(t, value.Same(before.Elems()[0], during.Elems()[0]), "untouched entity keeps identity")

	close(gate)
	require.Error(t, <-done)
	after := c.GetResponse(list, value.Obj()).Data
	assert.True(t, value.Same(before, after), "rolled back list is the identical value")
	assert.True(t, value.Same(before.Elems()[1], after.Elems()[1]))
}
