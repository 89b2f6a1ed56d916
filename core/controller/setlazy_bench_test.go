package controller_test

import (
	"fmt"
	"testing"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
)

// BenchmarkSetOneLazy is BenchmarkSetOne as the JavaScript bridge makes
// it: the list and each record set parse onto a tape (value.ParseLazy),
// and the record set is the stored one, every field sent again, with its
// title changed (the browser benchmark's setOne case, issue 11). Parsing
// the record is part of the operation, as it is there.
func BenchmarkSetOneLazy(b *testing.B) {
	list, article, _ := benchSchema()
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			body := string(valuetest.Articles(n, 1))
			listEp := &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: list}}
			one := &funcEndpoint{name: "article", spec: endpoint.Spec{Name: "article", Schema: article}}
			c := controller.New(controller.Options{})
			parsed, err := value.ParseLazy(body)
			if err != nil {
				b.Fatal(err)
			}
			if err := c.SetResponse(listEp, value.Undef, parsed); err != nil {
				b.Fatal(err)
			}
			// Two texts per record, with titles that take turns, so that
			// every set changes the stored record.
			eager := value.MustParse(body).Elems()
			texts := make([][2]string, n)
			params := make([]value.Value, n)
			for k, rec := range eager {
				params[k] = value.Obj(value.M("id", rec.Get("id")))
				for t := range 2 {
					texts[k][t] = rec.With("title", value.Str(fmt.Sprintf("one %d", t))).JSON()
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				k := i % n
				t := (i / n) % 2
				i++
				record, err := value.ParseLazy(texts[k][t])
				if err != nil {
					b.Fatal(err)
				}
				if err := c.SetResponse(one, params[k], record); err != nil {
					b.Fatal(err)
				}
				if r := c.GetResponse(one, params[k]); r.Err != nil {
					b.Fatal(r.Err)
				}
			}
		})
	}
}
