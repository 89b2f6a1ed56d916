package controller_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/store/storetest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
)

var benchSizes = []int{100, 1000, 10000}

func benchSchema() (list *schema.Array, article, user *schema.Entity) {
	user = &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	article = &schema.Entity{Key: "Article",
		Defaults: value.MustParse(`{"id":null,"title":"","content":"","published":false,"author":null,"tags":[]}`),
		Schema:   map[string]schema.Schema{"author": user}}
	return schema.ArrayOf(article), article, user
}

// listEndpoint returns the list endpoint of the benchmarks' articles,
// answered with body by a bodyTransport of its own, and the transport (to
// answer with another body).
func listEndpoint(tb testing.TB, list schema.Schema, body string) (*rest.Endpoint, *bodyTransport) {
	tb.Helper()
	tr := &bodyTransport{bodies: map[string]string{"/articles": body}}
	ep, err := rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles", Name: "list", Schema: list, Transport: tr})
	if err != nil {
		tb.Fatal(err)
	}
	return ep, tr
}

// benchClock returns a fake clock that moves a millisecond a call, so
// that each fetch is newer than the last.
func benchClock() func() time.Time {
	at := int64(1)
	return func() time.Time { at++; return time.UnixMilli(at) }
}

// BenchmarkParseNormalize measures response bytes to stored entities, into
// an empty store and into one that already holds the same data.
func BenchmarkParseNormalize(b *testing.B) {
	list, _, _ := benchSchema()
	for _, n := range benchSizes {
		body := valuetest.Articles(n, 1)
		b.Run(fmt.Sprintf("empty/N=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				storetest.Apply(b, store.New(), "list", list, body, 1)
			}
		})
		b.Run(fmt.Sprintf("full/N=%d", n), func(b *testing.B) {
			st := store.New()
			storetest.Apply(b, st, "list", list, body, 1)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			at := int64(2)
			for b.Loop() {
				storetest.Apply(b, st, "list", list, body, at)
				at++
			}
		})
	}
}

// BenchmarkDenormalize measures reads: cold (no memo), an unchanged re-read,
// and re-reads after one article or one shared author changed.
func BenchmarkDenormalize(b *testing.B) {
	list, article, user := benchSchema()
	for _, n := range benchSizes {
		body := valuetest.Articles(n, 1)
		st := store.New()
		storetest.Apply(b, st, "list", list, body, 1)
		b.Run(fmt.Sprintf("cold/N=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cold := store.New()
				storetest.Apply(b, cold, "list", list, body, 1)
				cold.Read("list")
			}
		})
		b.Run(fmt.Sprintf("cold-read-only/N=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			res, _ := st.Normalized("list")
			for b.Loop() {
				schema.Denormalize(list, res, st, nil, st.Version())
			}
		})
		b.Run(fmt.Sprintf("unchanged/N=%d", n), func(b *testing.B) {
			st.Read("list")
			b.ReportAllocs()
			for b.Loop() {
				st.Read("list")
			}
		})
		for _, c := range []struct {
			name string
			e    *schema.Entity
			rec  func(i int) string
		}{
			{"one-article", article, func(i int) string { return fmt.Sprintf(`{"id":3,"title":"changed %d"}`, i) }},
			{"one-author", user, func(i int) string { return fmt.Sprintf(`{"id":5,"name":"changed %d"}`, i) }},
		} {
			b.Run(fmt.Sprintf("%s/N=%d", c.name, n), func(b *testing.B) {
				st.Read("list")
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					b.StopTimer()
					i++
					nz, _ := schema.Normalize(c.e, value.MustParse(c.rec(i)))
					st.Apply(&store.Write{Entities: nz.Entities, Meta: schema.Meta{FetchedAt: int64(10 + i)}})
					b.StartTimer()
					st.Read("list")
				}
			})
		}
	}
}

// BenchmarkOptimistic measures applying and reading back one optimistic
// partial update, and the rebase cost with 10 pending updates.
func BenchmarkOptimistic(b *testing.B) {
	list, article, _ := benchSchema()
	for _, n := range benchSizes {
		body := valuetest.Articles(n, 1)
		b.Run(fmt.Sprintf("apply-read/N=%d", n), func(b *testing.B) {
			st := store.New()
			storetest.Apply(b, st, "list", list, body, 1)
			st.Read("list")
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				nz, _ := schema.Normalize(article, value.MustParse(fmt.Sprintf(`{"id":3,"published":%v}`, i%2 == 0)))
				p := st.AddPending(store.Write{Entities: nz.Entities, Meta: schema.Meta{FetchedAt: int64(10 + i)}})
				st.Read("list")
				b.StopTimer()
				st.RemovePending(p)
				b.StartTimer()
			}
		})
		b.Run(fmt.Sprintf("rebase-10-pending/N=%d", n), func(b *testing.B) {
			st := store.New()
			storetest.Apply(b, st, "list", list, body, 1)
			for i := range 10 {
				nz, _ := schema.Normalize(article, value.MustParse(fmt.Sprintf(`{"id":%d,"title":"pending %d"}`, i+1, i)))
				st.AddPending(store.Write{Entities: nz.Entities, Meta: schema.Meta{FetchedAt: int64(100 + i)}})
			}
			nz, _ := schema.Normalize(article, value.MustParse(`{"id":20000,"title":"x"}`))
			b.ReportAllocs()
			for b.Loop() {
				// A base write triggers a rebase of the 10 pending updates.
				st.Apply(&store.Write{Entities: nz.Entities, Meta: schema.Meta{FetchedAt: 50}})
			}
		})
	}
}

// BenchmarkControllerReread is a read through the controller's public API.
func BenchmarkControllerReread(b *testing.B) {
	list, _, _ := benchSchema()
	body := valuetest.Articles(1000, 1)
	ep := &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: list},
		fetch: func(context.Context, value.Value, any) (value.Value, error) { return value.Parse(body) }}
	c := controller.New(controller.Options{})
	if _, err := c.Suspense(context.Background(), ep, value.Obj()); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c.GetResponse(ep, value.Obj())
	}
}

// BenchmarkSetOne is a small synchronous write through the controller's
// public API, the record read back after it (the browser benchmark's
// setOne case, issue 11): its cost is per call, not per byte, so
// allocations and clock reads per operation show here.
func BenchmarkSetOne(b *testing.B) {
	list, article, _ := benchSchema()
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			body := valuetest.Articles(n, 1)
			listEp := &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: list}}
			one := &funcEndpoint{name: "article", spec: endpoint.Spec{Name: "article", Schema: article}}
			c := controller.New(controller.Options{})
			if err := c.SetResponse(listEp, value.Undef, value.MustParse(string(body))); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				k := 1 + i%n
				i++
				params := value.Obj(value.Member{Key: "id", Value: value.Int(int64(k))})
				record := value.MustParse(fmt.Sprintf(`{"id":%d,"title":"one %d","content":"c","published":true,"author":{"id":%d,"name":"u"},"tags":["a"]}`, k, i, 1+k%20))
				if err := c.SetResponse(one, params, record); err != nil {
					b.Fatal(err)
				}
				if r := c.GetResponse(one, params); r.Err != nil {
					b.Fatal(r.Err)
				}
			}
		})
	}
}

// BenchmarkSetOneREST is BenchmarkSetOne through rest.Endpoints, as the
// JavaScript bridge calls it: the key is the endpoint's URL (Key and URL
// per call show here), and "keyed" passes the key worked out once for
// both calls, as the bridge's exported entries do.
func BenchmarkSetOneREST(b *testing.B) {
	list, article, _ := benchSchema()
	listEp, err := rest.New(rest.Options{URLPrefix: "http://example.test", Path: "/articles", Name: "getList", Schema: list})
	if err != nil {
		b.Fatal(err)
	}
	one, err := rest.New(rest.Options{URLPrefix: "http://example.test", Path: "/articles/:id", Name: "getArticle", Schema: article})
	if err != nil {
		b.Fatal(err)
	}
	const n = 100
	for _, keyed := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "keyed"}[keyed], func(b *testing.B) {
			c := controller.New(controller.Options{})
			if err := c.SetResponse(listEp, value.Undef, value.MustParse(string(valuetest.Articles(n, 1)))); err != nil {
				b.Fatal(err)
			}
			records := make([]value.Value, n)
			params := make([]value.Value, n)
			for k := range records {
				params[k] = value.Obj(value.Member{Key: "id", Value: value.Int(int64(k + 1))})
				records[k] = value.MustParse(fmt.Sprintf(`{"id":%d,"title":"one %d","content":"c","published":true,"author":{"id":%d,"name":"u"},"tags":["a"]}`, k+1, k, 1+k%20))
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				k := i % n
				i++
				if !keyed {
					if err := c.SetResponse(one, params[k], records[k]); err != nil {
						b.Fatal(err)
					}
					if r := c.GetResponse(one, params[k]); r.Err != nil {
						b.Fatal(r.Err)
					}
					continue
				}
				key, err := one.Key(params[k])
				if err != nil {
					b.Fatal(err)
				}
				if err := c.SetResponseKeyed(one, key, params[k], records[k]); err != nil {
					b.Fatal(err)
				}
				if r := c.GetResponseKeyed(one, key, params[k]); r.Err != nil {
					b.Fatal(r.Err)
				}
			}
		})
	}
}

// BenchmarkDetailRead reads one article of a stored list of 1,000 by its
// pk: "stored" after its detail endpoint fetched it (a result of its own),
// "inferred" answered from the entity the list stored, never fetched.
func BenchmarkDetailRead(b *testing.B) {
	list, article, _ := benchSchema()
	body := valuetest.Articles(1000, 1)
	for _, stored := range []bool{true, false} {
		b.Run(map[bool]string{true: "stored", false: "inferred"}[stored], func(b *testing.B) {
			listEp := &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: list}}
			one := &funcEndpoint{name: "article", spec: endpoint.Spec{Name: "article", Schema: article}}
			c := controller.New(controller.Options{})
			if err := c.SetResponse(listEp, value.Undef, value.MustParse(string(body))); err != nil {
				b.Fatal(err)
			}
			params := value.Obj(value.Member{Key: "id", Value: value.Int(7)})
			if stored {
				r := c.GetResponse(listEp, value.Undef).Data.Elems()[6]
				if err := c.SetResponse(one, params, r); err != nil {
					b.Fatal(err)
				}
			}
			if r := c.GetResponse(one, params); r.ExpiryStatus != endpoint.Valid || r.Inferred == stored {
				b.Fatalf("read %s, inferred %v", r.ExpiryStatus, r.Inferred)
			}
			b.ReportAllocs()
			for b.Loop() {
				c.GetResponse(one, params)
			}
		})
	}
}

// BenchmarkCollectionPush measures a push into a collection of 10,000
// articles (normalize the created record, append its pk to the matching
// collection) and the re-read of the list after it, in which only the new
// article is built.
func BenchmarkCollectionPush(b *testing.B) {
	_, article, _ := benchSchema()
	coll := schema.CollectionOf(schema.ArrayOf(article))
	const n = 10000
	body := valuetest.Articles(n, 1)
	for _, read := range []bool{false, true} {
		b.Run(fmt.Sprintf("read=%v/N=%d", read, n), func(b *testing.B) {
			list := &funcEndpoint{name: "list", spec: endpoint.Spec{Schema: coll},
				fetch: func(context.Context, value.Value, any) (value.Value, error) { return value.Parse(body) }}
			push, err := coll.Adder(schema.Push)
			if err != nil {
				b.Fatal(err)
			}
			next := n
			create := &funcEndpoint{name: "push", spec: endpoint.Spec{Schema: push, SideEffect: true},
				fetch: func(context.Context, value.Value, any) (value.Value, error) {
					next++
					return value.Obj(value.M("id", value.Int(int64(next))), value.M("title", value.Str("new"))), nil
				}}
			c := controller.New(controller.Options{})
			ctx := context.Background()
			if _, err := c.Fetch(ctx, list, value.Undef, nil); err != nil {
				b.Fatal(err)
			}
			c.GetResponse(list, value.Undef)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Fetch(ctx, create, value.Undef, nil); err != nil {
					b.Fatal(err)
				}
				if read {
					if r := c.GetResponse(list, value.Undef); r.Data.Len() <= n {
						b.Fatalf("list has %d", r.Data.Len())
					}
				}
			}
		})
	}
}

// BenchmarkInvalidateAll measures InvalidateAll over N stored results, the
// test choosing one in ten: the keys are listed under the lock, tested
// outside it, and the chosen ones invalidated under it again.
func BenchmarkInvalidateAll(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			c := controller.New(controller.Options{Now: newClock().Now})
			ep := bookEndpoint("book", endpoint.Spec{Schema: book(nil)})
			for i := range n {
				require.NoError(b, c.SetResponse(ep, value.MustParse(fmt.Sprintf(`{"n":%d}`, i)),
					value.MustParse(fmt.Sprintf(`{"id":"%d","title":"t"}`, i))))
			}
			b.ReportAllocs()
			for b.Loop() {
				i := 0
				c.InvalidateAll(func(string) bool { i++; return i%10 == 0 })
			}
		})
	}
}
