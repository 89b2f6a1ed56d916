package df_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
)

// benchArticle is the record of valuetest.Articles.
type benchArticle struct {
	ID        int        `df:"id"`
	Title     string     `df:"title"`
	Content   string     `df:"content"`
	Published bool       `df:"published"`
	Author    *benchUser `df:"author"`
	Tags      []string   `df:"tags"`
}

type benchUser struct {
	ID   int    `df:"id"`
	Name string `df:"name"`
}

// stored is an endpoint whose results are only ever set (SetResponse).
type stored struct {
	name string
	s    schema.Schema
}

func (e *stored) Key(p value.Value) (string, error) { return e.name + " " + p.JSON(), nil }
func (e *stored) Fetch(context.Context, value.Value, any) (value.Value, error) {
	return value.Undef, fmt.Errorf("%s: not fetched in benchmarks", e.name)
}
func (e *stored) Spec() *endpoint.Spec { return &endpoint.Spec{Name: e.name, Schema: e.s} }

// BenchmarkRead compares a read of N articles as value.Value with the
// same read typed ([]*benchArticle): cold (a new controller that just stored
// the list: denormalized and decoded for the first time), unchanged (a
// re-read), and one-changed (a re-read after one article changed: the
// store re-denormalizes the list, the typed read decodes that article and
// the list, and finds the others in its cache).
func BenchmarkRead(b *testing.B) {
	listSchema, err := df.SchemaOf[[]*benchArticle]()
	if err != nil {
		b.Fatal(err)
	}
	oneSchema, _ := df.SchemaOf[*benchArticle]()
	list := &stored{name: "list", s: listSchema}
	one := &stored{name: "one", s: oneSchema}
	typed, err := df.Wrap[[]*benchArticle](list)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{100, 1000} {
		data := value.MustParse(string(valuetest.Articles(n, 1)))
		filled := func(b *testing.B) *controller.Controller {
			c := controller.New(controller.Options{})
			if err := c.SetResponse(list, value.Obj(), data); err != nil {
				b.Fatal(err)
			}
			return c
		}
		reads := []struct {
			name string
			read func(b *testing.B, c *controller.Controller)
		}{
			{"value", func(b *testing.B, c *controller.Controller) {
				if c.GetResponse(list, value.Obj()).Data.Len() != n {
					b.Fatal("short read")
				}
			}},
			{"typed", func(b *testing.B, c *controller.Controller) {
				if r := typed.Response(c, nil); len(r.Data) != n {
					b.Fatal("short read", r.Err)
				}
			}},
		}
		for _, r := range reads {
			b.Run(fmt.Sprintf("cold/%s/N=%d", r.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					c := filled(b)
					b.StartTimer()
					r.read(b, c)
				}
			})
			b.Run(fmt.Sprintf("unchanged/%s/N=%d", r.name, n), func(b *testing.B) {
				c := filled(b)
				r.read(b, c)
				b.ReportAllocs()
				for b.Loop() {
					r.read(b, c)
				}
			})
			b.Run(fmt.Sprintf("one-changed/%s/N=%d", r.name, n), func(b *testing.B) {
				c := filled(b)
				r.read(b, c)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					i++
					b.StopTimer()
					rec := value.Obj(value.M("id", value.Int(3)), value.M("title", value.Str(fmt.Sprint("title ", i))))
					if err := c.SetResponse(one, value.Obj(), rec); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					r.read(b, c)
				}
			})
		}
	}
}
