package store

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// TestEntrySize checks that an entity entry does not hold its base record
// beside the visible one it most often equals (entityEntry.own): a store
// carves one per record, and each collection marks every byte of them
// again.
func TestEntrySize(t *testing.T) {
	assert.LessOrEqual(t, unsafe.Sizeof(entityEntry{}), uintptr(264))
}

// TestBaseKeepsItsForm checks that the base record an entry holds is the
// one written, in its form, when the visible record stays an equal one in
// another form (a read keeps its identity): a snapshot of the base shows
// the record as the snapshot it came from had it.
func TestBaseKeepsItsForm(t *testing.T) {
	article := &schema.Entity{Key: "Article"}
	st := New()
	nz, err := schema.Normalize(article, value.MustParse(`{"id":1,"title":"a","n":1}`))
	require.NoError(t, err)
	st.Apply(&Write{Entities: nz.Entities, Meta: schema.Meta{FetchedAt: 1}})
	visible := st.Slot("Article", "1").Value
	require.True(t, st.Hydrate([]SnapshotEntity{{Key: "Article", PK: "1",
		Value: value.MustParse(`{"n":1.0,"title":"a","id":1}`), Meta: schema.Meta{FetchedAt: 2}}}, nil))
	assert.True(t, value.Same(visible, st.Slot("Article", "1").Value), "the visible record keeps its identity")
	snap := value.AppendJSON(nil, st.Snapshot())
	assert.Contains(t, string(snap), `{"n":1.0,"title":"a","id":1}`)
	e := st.entities["Article"]["1"]
	assert.Equal(t, `{"n":1.0,"title":"a","id":1}`, string(value.AppendJSON(nil, e.base().val)))
}
