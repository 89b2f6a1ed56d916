package encode

import (
	"fmt"
	"testing"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/store/storetest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// The browser benchmark's cold and re-fetch cases, natively and without
// the controller: response bytes → parse → normalize → store → read →
// the output handed to JavaScript.

// pipelineSchema is test/bench's schema as datafetch.mjs hands it over:
// JSON.stringify drops the defaults' "id: undefined".
func pipelineSchema() schema.Schema {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"name":""}`)}
	article := &schema.Entity{Key: "Article",
		Defaults: value.MustParse(`{"title":"","content":"","published":false,"author":null,"tags":[]}`),
		Schema:   map[string]schema.Schema{"author": user}}
	return schema.ArrayOf(article)
}

// pipelineFetch stores body under "list" and emits the read, as a fetch
// through a bridge controller does.
func pipelineFetch(b testing.TB, st *store.Store, ids *Identities, buf []byte, s schema.Schema, body []byte, at int64) []byte {
	storetest.Apply(b, st, "list", s, body, at)
	out, _, _, _ := st.Read("list")
	return ids.Output(buf, wire.Header{}, "list", s, out)
}

func BenchmarkPipeline(b *testing.B) {
	s := pipelineSchema()
	for _, n := range []int{100, 1000, 10000} {
		body := valuetest.Articles(n, 1)
		b.Run(fmt.Sprintf("cold/N=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				buf = pipelineFetch(b, store.New(), NewIdentities(), buf, s, body, 1)
			}
		})
		b.Run(fmt.Sprintf("refetch/N=%d", n), func(b *testing.B) {
			st, ids := store.New(), NewIdentities()
			buf := pipelineFetch(b, st, ids, nil, s, body, 1)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			at := int64(2)
			for b.Loop() {
				buf = pipelineFetch(b, st, ids, buf, s, body, at)
				at++
			}
		})
		// One shared user changes (stored by its own endpoint, as
		// setResponse of a user does), then the list is read and emitted:
		// about N/20 articles change, the rest are kept.
		b.Run(fmt.Sprintf("changeUser/N=%d", n), func(b *testing.B) {
			st, ids := store.New(), NewIdentities()
			buf := pipelineFetch(b, st, ids, nil, s, body, 1)
			user := s.(*schema.Array).Of.(*schema.Entity).Schema["author"]
			b.ReportAllocs()
			at := int64(2)
			for b.Loop() {
				u := 1 + at%valuetest.Authors
				storetest.Apply(b, st, fmt.Sprintf("user%d", u), user, fmt.Appendf(nil, `{"id":%d,"name":"u %d"}`, u, at), at)
				out, _, _, _ := st.Read("list")
				buf = ids.Output(buf, wire.Header{}, "list", s, out)
				at++
			}
		})
		b.Run(fmt.Sprintf("encode-cold/N=%d", n), func(b *testing.B) {
			st := store.New()
			pipelineFetch(b, st, NewIdentities(), nil, s, body, 1)
			v, _, _, _ := st.Read("list")
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				buf = NewIdentities().Output(buf, wire.Header{}, "list", s, v)
			}
		})
	}
}
