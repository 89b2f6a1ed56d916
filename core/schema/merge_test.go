package schema_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// wideRecord returns the JSON of one record with id 1 and n fields named
// f0..f(n-1) in the order given by order (nil: ascending), each valued
// "<i>-<version>".
func wideRecord(n int, version int, order []int) []byte {
	if order == nil {
		order = make([]int, n)
		for i := range order {
			order[i] = i
		}
	}
	var b strings.Builder
	b.WriteString(`{"id":1`)
	for _, i := range order {
		fmt.Fprintf(&b, `,"f%d":"%d-%d"`, i, i, version)
	}
	b.WriteString("}")
	return []byte(b.String())
}

// referenceMerge is the shallow merge's meaning, spelled out the slow way:
// a's members in a's order, each with b's value where b has the key, then
// b's other members in b's order.
func referenceMerge(a, b value.Value) value.Value {
	out := slices.Clone(a.Members())
	for _, m := range b.Members() {
		i := slices.IndexFunc(out, func(o value.Member) bool { return o.Key == m.Key })
		if i >= 0 {
			out[i].Value = m.Value
		} else {
			out = append(out, m)
		}
	}
	return value.Obj(out...)
}

// memberKeys returns an object's keys in order.
func memberKeys(v value.Value) []string {
	keys := make([]string, 0, v.Len())
	for _, m := range v.Members() {
		keys = append(keys, m.Key)
	}
	return keys
}

// reversed returns 0..n-1 backwards.
func reversed(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = n - 1 - i
	}
	return r
}

func TestShallowMergeKeepsOrderAndValues(t *testing.T) {
	// Small objects are searched, large ones (over 16 members) indexed:
	// both sizes, with b in a's order, backwards, overlapping a part of a
	// and adding keys of its own.
	for _, n := range []int{3, 16, 17, 200} {
		partial := make([]int, 0, n)
		for i := n / 2; i < n+n/2; i++ {
			partial = append(partial, i)
		}
		cases := []struct {
			name string
			a, b []byte
		}{
			{"same order, new values", wideRecord(n, 1, nil), wideRecord(n, 2, nil)},
			{"reversed, new values", wideRecord(n, 1, nil), wideRecord(n, 2, reversed(n))},
			{"overlap and new keys", wideRecord(n, 1, nil), wideRecord(n+n/2, 2, partial)},
			{"new keys backwards", wideRecord(n, 1, nil), wideRecord(n+n/2, 2, reversed(n+n/2))},
			{"b is a subset", wideRecord(n, 1, nil), wideRecord(n/2, 2, nil)},
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(t *testing.T) {
				a, b := value.MustParse(string(c.a)), value.MustParse(string(c.b))
				got := schema.ShallowMerge(a, b)
				want := referenceMerge(a, b)
				assert.Equal(t, memberKeys(want), memberKeys(got), "member order")
				assert.Equal(t, want.JSON(), got.JSON())
			})
		}
	}
}

func TestShallowMergeUnchangedIsSame(t *testing.T) {
	// Merging what a already holds (in any order) gives a itself, so
	// memoized reads keep their identity.
	for _, n := range []int{5, 100} {
		a := value.MustParse(string(wideRecord(n, 1, nil)))
		for _, order := range [][]int{nil, reversed(n)} {
			b := value.MustParse(string(wideRecord(n, 1, order)))
			assert.True(t, value.Same(a, schema.ShallowMerge(a, b)), "n=%d", n)
		}
	}
	a := value.MustParse(`{"id":1,"x":2}`)
	empty := value.MustParse(`{}`)
	assert.True(t, value.Same(a, schema.ShallowMerge(a, empty)))
	assert.True(t, value.Same(a, schema.ShallowMerge(empty, a)))
	assert.True(t, value.Same(a, schema.ShallowMerge(a, value.NullV)))
}

// bodyTransport answers every request with the body it currently holds.
type bodyTransport struct{ body []byte }

func (t *bodyTransport) RoundTrip(context.Context, *rest.Request) (*rest.Response, error) {
	return &rest.Response{Status: 200, Header: rest.Header{{Name: "Content-Type", Value: "application/json"}},
		Body: t.body}, nil
}

// wideFixture is a controller with an endpoint that fetches one record of
// the Wide entity from tr.
func wideFixture(tb testing.TB, tr *bodyTransport) (*controller.Controller, *rest.Endpoint) {
	tb.Helper()
	wide := &schema.Entity{Key: "Wide", Defaults: value.MustParse(`{"id":null}`)}
	ep, err := rest.New(rest.Options{URLPrefix: "http://api.test", Path: "/wide/:id", Schema: wide, Transport: tr})
	require.NoError(tb, err)
	clock := time.UnixMilli(1_000_000)
	ctrl := controller.New(controller.Options{Now: func() time.Time { clock = clock.Add(time.Millisecond); return clock }})
	return ctrl, ep
}

func TestRefetchMergesWideRecord(t *testing.T) {
	// Fetched again with every value changed and the fields backwards,
	// the record keeps its first order and takes the new values.
	const n = 300
	tr := &bodyTransport{body: wideRecord(n, 1, nil)}
	ctrl, ep := wideFixture(t, tr)
	params := value.MustParse(`{"id":1}`)
	_, err := ctrl.Fetch(context.Background(), ep, params, nil)
	require.NoError(t, err)
	tr.body = wideRecord(n+1, 2, reversed(n+1))
	got, err := ctrl.Fetch(context.Background(), ep, params, nil)
	require.NoError(t, err)
	want := referenceMerge(value.MustParse(string(wideRecord(n, 1, nil))), value.MustParse(string(tr.body)))
	assert.Equal(t, memberKeys(want), memberKeys(got))
	assert.Equal(t, want.JSON(), got.JSON())
}

// BenchmarkWideRecord measures fetching one record of many fields into an
// empty cache (first) and again over itself with every value changed
// (refetch), which merges the two. The refetch must stay within 2x of the
// first fetch and grow linearly with the field count.
func BenchmarkWideRecord(b *testing.B) {
	for _, n := range []int{5_000, 20_000, 40_000} {
		bodies := [2][]byte{wideRecord(n, 1, nil), wideRecord(n, 2, nil)}
		params := value.MustParse(`{"id":1}`)
		b.Run(fmt.Sprintf("first/fields=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(bodies[0])))
			for b.Loop() {
				ctrl, ep := wideFixture(b, &bodyTransport{body: bodies[0]})
				if _, err := ctrl.Fetch(context.Background(), ep, params, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		// The fields of the other version come in the same order, or
		// backwards (which no longer lines up with the stored record).
		reordered := [2][]byte{bodies[0], wideRecord(n, 2, reversed(n))}
		for _, rc := range []struct {
			name   string
			bodies [2][]byte
		}{{"refetch", bodies}, {"refetch-reordered", reordered}} {
			b.Run(fmt.Sprintf("%s/fields=%d", rc.name, n), func(b *testing.B) {
				tr := &bodyTransport{body: rc.bodies[0]}
				ctrl, ep := wideFixture(b, tr)
				if _, err := ctrl.Fetch(context.Background(), ep, params, nil); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(rc.bodies[0])))
				i := 0
				for b.Loop() {
					i++
					tr.body = rc.bodies[i%2]
					if _, err := ctrl.Fetch(context.Background(), ep, params, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func TestMergeWithStoreReplacesTheMergeRules(t *testing.T) {
	var calls int
	e := &schema.Entity{
		Key:      "Counted",
		Defaults: value.MustParse(`{"id":null,"n":0}`),
		// Ignored once MergeWithStore is set: it decides alone.
		UseIncoming: func(em, im schema.Meta, existing, incoming value.Value) bool { return false },
		MergeWithStore: func(em, im schema.Meta, existing, incoming value.Value) value.Value {
			calls++
			a, _ := existing.Get("n").Float()
			b, _ := incoming.Get("n").Float()
			sum := a + b
			return value.Obj(value.M("id", incoming.Get("id")), value.M("n", value.Num(sum)))
		},
		MergeMetaWithStore: func(em, im schema.Meta, existing, incoming value.Value) schema.Meta {
			return schema.Meta{Date: im.Date, FetchedAt: im.FetchedAt, ExpiresAt: em.ExpiresAt}
		},
	}
	stored := value.MustParse(`{"id":1,"n":2}`)
	merged, meta, keep := e.Resolve(stored, schema.Meta{Date: 1, FetchedAt: 1, ExpiresAt: 100}, true,
		value.MustParse(`{"id":1,"n":3}`), schema.Meta{Date: 5, FetchedAt: 5, ExpiresAt: 500})
	assert.Equal(t, 1, calls)
	assert.False(t, keep)
	assert.Equal(t, `{"id":1,"n":5}`, merged.JSON())
	assert.Equal(t, schema.Meta{Date: 5, FetchedAt: 5, ExpiresAt: 100}, meta, "MergeMetaWithStore's meta")

	_, _, keep = e.Resolve(value.Undef, schema.Meta{}, false, value.MustParse(`{"id":2,"n":1}`), schema.Meta{})
	assert.False(t, keep)
	assert.Equal(t, 1, calls, "nothing stored: nothing to merge with")
}
