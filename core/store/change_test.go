package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// changeEntity merges by ShallowMerge through a hook, so that a write of
// it runs caller code (Make then prepares it through the gate).
var changeEntity = &schema.Entity{Key: "Change", Defaults: value.MustParse(`{"id":null,"x":0,"y":0}`),
	Merge: schema.ShallowMerge}

// lockHooks is the lock of a store's owner, whose unlock (before a hook
// runs) calls unlock.
type lockHooks struct{ unlock func() }

func (l *lockHooks) Lock()   {}
func (l *lockHooks) Unlock() { l.unlock() }

func changeWrite(rec string, at int64) *store.Write {
	return &store.Write{Key: "r", Schema: changeEntity, Result: value.Str("1"),
		Entities: []schema.EntityWrite{{Entity: changeEntity, PK: "1", Value: value.MustParse(rec)}},
		Meta:     schema.Meta{Date: at, FetchedAt: at, ExpiresAt: at + 100}}
}

// TestMakeDropsWhatAHookLetIn: a change made while a hook runs through the
// gate (the owner's lock released) makes Make store nothing and return
// ErrChanged; made again, the write merges over that change. A hook that
// only reads lets it go on.
func TestMakeDropsWhatAHookLetIn(t *testing.T) {
	st := store.New()
	st.Apply(changeWrite(`{"id":"1","x":1}`, 1))
	calls := 0
	gate := &lockHooks{unlock: func() {
		calls++
		if calls == 1 {
			// Another writer, while the hook runs.
			st.Apply(&store.Write{Entities: []schema.EntityWrite{{Entity: changeEntity, PK: "1",
				Value: value.MustParse(`{"id":"1","y":2}`)}}, Meta: schema.Meta{FetchedAt: 2}})
		}
		_, _, _, _ = st.Read("r") // a read changes nothing
	}}
	before := st.State().JSON()
	err := st.Make(&store.Change{Write: changeWrite(`{"id":"1","x":3}`, 3)}, gate)
	require.ErrorIs(t, err, store.ErrChanged)
	assert.NotEqual(t, before, st.State().JSON(), "the other write is stored")
	v, _, _, _ := st.Read("r")
	assert.Equal(t, `{"id":"1","x":1,"y":2}`, v.JSON(), "nothing of the dropped write is")

	err = st.Make(&store.Change{Write: changeWrite(`{"id":"1","x":3}`, 3)}, gate)
	require.NoError(t, err)
	v, _, _, _ = st.Read("r")
	assert.Equal(t, `{"id":"1","x":3,"y":2}`, v.JSON())
	assert.Equal(t, 2, calls, "one hook call per attempt")
}

// TestMakeQueueInOneStep: a response and the removal of its optimistic
// write, made together, replay the queue once, and a queued write's hooks
// run through the gate.
func TestMakeQueueInOneStep(t *testing.T) {
	st := store.New()
	st.Apply(changeWrite(`{"id":"1","x":1}`, 1))
	hooks := 0
	gate := &lockHooks{unlock: func() { hooks++ }}
	made := &store.Change{Add: changeWrite(`{"id":"1","x":9}`, 2)}
	require.NoError(t, st.Make(made, gate))
	require.NotNil(t, made.Pending)
	assert.Equal(t, 1, hooks, "the queued write merged over the base")
	v, _, _, _ := st.Read("r")
	assert.Equal(t, `{"id":"1","x":9,"y":0}`, v.JSON())

	hooks = 0
	require.NoError(t, st.Make(&store.Change{Write: changeWrite(`{"id":"1","x":5}`, 3), Remove: made.Pending}, gate))
	assert.Equal(t, 1, hooks, "the response merged; nothing replayed")
	assert.Zero(t, st.PendingCount())
	v, _, _, _ = st.Read("r")
	assert.Equal(t, `{"id":"1","x":5,"y":0}`, v.JSON())
}
