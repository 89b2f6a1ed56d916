package controller_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
)

// snapshotOf10k returns a controller holding one list of 10,000 Books, each
// with an Author (100 of them): 10,100 entities.
func snapshotOf10k(b *testing.B) *controller.Controller {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range 10_000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id":"%d","title":"book number %d","rev":%d,"author":{"id":"a%d","name":"author %d"}}`, i, i, i, i%100, i%100)
	}
	sb.WriteByte(']')
	c := controller.New(controller.Options{Now: newClock().Now})
	require.NoError(b, c.SetResponse(shelfEndpoint(""), value.Obj(), value.MustParse(sb.String())))
	return c
}

// BenchmarkSnapshotWrite: what persisting costs on the Go side, the
// snapshot of 10,100 entities as JSON text.
func BenchmarkSnapshotWrite(b *testing.B) {
	c := snapshotOf10k(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		text := c.Snapshot().JSON()
		b.SetBytes(int64(len(text)))
	}
}

// BenchmarkSnapshotRestore: parsing that text and hydrating a new
// controller, then reading the list back once (which adopts its schema and
// denormalizes 10,000 records).
func BenchmarkSnapshotRestore(b *testing.B) {
	text := snapshotOf10k(b).Snapshot().JSON()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		v, err := value.ParseString(text)
		if err != nil {
			b.Fatal(err)
		}
		c := controller.New(controller.Options{Now: newClock().Now})
		if err := c.Hydrate(v); err != nil {
			b.Fatal(err)
		}
		if r := c.GetResponse(shelfEndpoint(""), value.Obj()); r.Data.Len() != 10_000 {
			b.Fatalf("read %d records", r.Data.Len())
		}
	}
}
