package encode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

func TestForgetDropsWhatOnlyTheSlotHeld(t *testing.T) {
	f := newFixture()
	f.store(t, "a", f.list, twoArticles, 1)
	f.store(t, "b", f.article, `{"id":"3","title":"three","author":{"id":7,"name":"Ann"}}`, 1)
	f.read(t, "a", f.list)
	f.read(t, "b", f.article)
	before := f.ids.entries.len()
	require.Equal(t, 5, before, "list, two articles, one author (shared), article 3")

	f.ids.forget("a")
	assert.Equal(t, 2, f.ids.entries.len(), "article 3 and the author it shares stay")
	out := f.ids.DropOutput(nil)
	require.NotNil(t, out)
	o, err := wire.Decode(out, &f.dec.table)
	require.NoError(t, err)
	assert.Equal(t, wire.Undefined, o.Value.Kind)
	assert.Equal(t, 1, o.Counts[wire.OpDrop])
	assert.Equal(t, 2, f.dec.held(), "the decoder forgot the list and the two articles")
	assert.Nil(t, f.ids.DropOutput(nil), "nothing more to drop")

	f.ids.forget("a") // forgetting twice is nothing
	assert.Equal(t, 2, f.ids.entries.len())
	_, again := f.read(t, "b", f.article)
	assert.True(t, again.only(wire.OpRef), "what stays is still referenced: %s", again)
}

// sweepAll sweeps f's store at time now, keeping the results in held, and
// lets the identities go as the bridge does after a sweep (ctrl.swept):
// the query slots (reads of results under another key, as ctrl.get reads)
// whose read no longer gives their top are changed. It decodes the drops
// and returns what the sweep removed.
func sweepAll(t *testing.T, f *fixture, now int64, keepPrev bool, queries map[string]string, held ...string) store.SweepStats {
	t.Helper()
	roots := &store.Roots{}
	for _, k := range held {
		roots.Result(k)
	}
	st := f.st.Sweep(store.SweepPolicy{Now: now, ExpiryMultiplier: 1}, roots)
	var changed []SlotRoot
	for _, q := range f.ids.QuerySlots() {
		v, _, _, _ := f.st.Read(queries[q.slot])
		if !value.Same(v, q.v) {
			changed = append(changed, q)
		}
	}
	f.ids.Swept(st.Keys, changed, keepPrev)
	if out := f.ids.DropOutput(nil); out != nil {
		_, err := wire.Decode(out, &f.dec.table)
		require.NoError(t, err)
	}
	return st
}

// queryRead reads the result under key and emits it by schema s under the
// query slot slot, as ctrl.get does for a read of key's value.
func (f *fixture) queryRead(t *testing.T, slot, key string, s schema.Schema) (any, *readOut) {
	t.Helper()
	return f.dec.decode(t, f.ids.Output(nil, wire.Header{}, slot, s, f.mustRead(t, key)))
}

func TestSweptLeavesNoEntryOfWhatTheSweepRemoved(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	f.store(t, "get3", f.article, `{"id":"3","title":"three","author":{"id":8,"name":"Bo"}}`, 1)
	f.read(t, "list", f.list)
	f.read(t, "get3", f.article)
	queries := map[string]string{QueryKeyPrefix + "1 [3]": "get3"}
	f.queryRead(t, QueryKeyPrefix+"1 [3]", "get3", f.article)
	require.Equal(t, 6, f.ids.entries.len(), "list, articles 1 and 2, author 7, article 3 and author 8")

	st := sweepAll(t, f, 5000, false, queries)

	assert.Equal(t, store.SweepStats{Results: 2, Entities: 5, Keys: []string{"get3", "list"}}, st)
	assert.Zero(t, f.ids.entries.len(), "no entry of a swept result or entity")
	assert.Empty(t, f.ids.slots, "no slot of a swept result, nor of a read of one")
	assert.Zero(t, f.dec.held(), "JavaScript was told to drop them all")
}

func TestSweptKeepsWhatStays(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	f.store(t, "get3", f.article, `{"id":"3","title":"three","author":{"id":7,"name":"Ann"}}`, 1)
	list, _ := f.read(t, "list", f.list)
	f.read(t, "get3", f.article)
	queries := map[string]string{QueryKeyPrefix + "1 [1]": "list", QueryKeyPrefix + "1 [3]": "get3"}
	f.queryRead(t, QueryKeyPrefix+"1 [1]", "list", f.list) // a read of what stays
	f.queryRead(t, QueryKeyPrefix+"1 [3]", "get3", f.article)

	st := sweepAll(t, f, 5000, false, queries, "list")

	assert.Equal(t, []string{"get3"}, st.Keys)
	again, out := f.read(t, "list", f.list)
	assert.True(t, out.only(wire.OpRef), "the held result reads the object JavaScript holds: %s", out)
	assert.True(t, same(list, again))
	_, out = f.queryRead(t, QueryKeyPrefix+"1 [1]", "list", f.list)
	assert.True(t, out.only(wire.OpRef), "so does a query read of it: %s", out)
	assert.Equal(t, 4, f.ids.entries.len(), "the list, its two articles and author 7")
	assert.Len(t, f.ids.slots, 2, "the list and the query read of it")
	assert.Equal(t, f.ids.entries.len(), f.dec.held())
}

func TestSweptReleasesPreviousEmissionsUnlessAnUpdateIsPending(t *testing.T) {
	for _, keepPrev := range []bool{false, true} {
		f := newFixture()
		f.store(t, "list", f.list, twoArticles, 1)
		f.read(t, "list", f.list)
		// The list's next fetch names other articles; the old ones expire.
		f.store(t, "list", f.list, `[{"id":"5","title":"five","author":{"id":9,"name":"Cy"}}]`, 9000)
		f.read(t, "list", f.list)
		require.Equal(t, 7, f.ids.entries.len(), "both emissions: two lists, articles 1, 2, 5, authors 7, 9")

		st := sweepAll(t, f, 5000, keepPrev, nil)

		assert.Equal(t, store.SweepStats{Entities: 3}, st, "articles 1, 2 and author 7 go; the list stays")
		if keepPrev {
			assert.Equal(t, 7, f.ids.entries.len(), "kept for a rollback")
			continue
		}
		assert.Equal(t, 3, f.ids.entries.len(), "the list's last emission: the list, article 5, author 9")
		assert.Equal(t, 3, f.dec.held())
		_, out := f.read(t, "list", f.list)
		assert.True(t, out.only(wire.OpRef), "the last emission is still the object JavaScript holds: %s", out)
	}
}

func TestReadsOfNothingLeaveNoSlot(t *testing.T) {
	f := newFixture()
	f.read(t, "missing", f.list)
	assert.Empty(t, f.ids.slots)
	f.store(t, "gone", f.article, `{"id":"3","title":"three"}`, 1)
	f.read(t, "gone", f.article)
	f.st.Reset()
	f.read(t, "gone", f.article)
	assert.Len(t, f.ids.slots, 1, "the emission before is kept until the next read")
	f.read(t, "gone", f.article)
	assert.Empty(t, f.ids.slots, "two reads of nothing: no slot")
	assert.Zero(t, f.ids.entries.len())
}

// mustRead returns the value stored under key.
func (f *fixture) mustRead(t *testing.T, key string) value.Value {
	t.Helper()
	v, _, _, ok := f.st.Read(key)
	require.True(t, ok, "%s is stored", key)
	return v
}
