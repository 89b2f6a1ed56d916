package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// TestTableDroppedAndMadeAgain: a table that held only optimistic records
// is dropped when they are rolled back; a later write of that type makes a
// new one, which lookups and the state find (not the dropped one, which
// the store's cache of recent tables held).
func TestTableDroppedAndMadeAgain(t *testing.T) {
	user := &schema.Entity{Key: "User"}
	write := func(text string, at int64) store.Write {
		n, err := schema.Normalize(user, value.MustParse(text))
		require.NoError(t, err)
		return store.Write{Entities: n.Entities, Meta: schema.Meta{FetchedAt: at}}
	}
	st := store.New()
	p := st.AddPending(write(`{"id":1,"name":"optimistic"}`, 1))
	require.NotNil(t, st.Slot("User", "1"))
	st.RemovePending(p)
	require.Nil(t, st.Slot("User", "1"))
	assert.False(t, st.State().Get("entities").Has("User"), "no table left behind")

	w := write(`{"id":2,"name":"stored"}`, 2)
	st.Apply(&w)
	s := st.Slot("User", "2")
	require.NotNil(t, s)
	assert.Equal(t, `{"id":2,"name":"stored"}`, s.Value.JSON())
	assert.Equal(t, `{"2":{"id":2,"name":"stored"}}`, st.State().Get("entities").Get("User").JSON())
}
