package jsbridge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	out := f.ids.dropOutput(nil)
	require.NotNil(t, out)
	o, err := wire.Decode(out, &f.dec.table)
	require.NoError(t, err)
	assert.Equal(t, wire.Undefined, o.Value.Kind)
	assert.Equal(t, 1, o.Counts[wire.OpDrop])
	assert.Equal(t, 2, f.dec.held(), "the decoder forgot the list and the two articles")
	assert.Nil(t, f.ids.dropOutput(nil), "nothing more to drop")

	f.ids.forget("a") // forgetting twice is nothing
	assert.Equal(t, 2, f.ids.entries.len())
	_, again := f.read(t, "b", f.article)
	assert.True(t, again.only(wire.OpRef), "what stays is still referenced: %s", again)
}
