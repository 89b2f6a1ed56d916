package controller_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
)

// snapshotOf10k returns a controller holding one list of 10,000 Books, each
// with an Author (100 of them): 10,100 entities.
func snapshotOf10k(b *testing.B) *controller.Controller {
	c := controller.New(controller.Options{Now: newClock().Now})
	shelf := bookShelf(10_000, func(i int) int { return i % 100 })
	require.NoError(b, c.SetResponse(shelfEndpoint(""), value.Obj(), value.MustParse(shelf)))
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
	benchReceive(b, snapshotOf10k(b).Snapshot().JSON(), (*controller.Controller).Hydrate, 10_000)
}
