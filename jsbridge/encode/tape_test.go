package encode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value/valuetest"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// TestFirstReadKeepsRecordsOnTheTape checks issue 11's one-pass store end
// to end: after a response is parsed, normalized, stored, read and
// written for JavaScript, the records the store holds are still offsets
// into the response (value.Value.Unbuilt), their plain parts too: nothing
// on the way built them.
func TestFirstReadKeepsRecordsOnTheTape(t *testing.T) {
	s := pipelineSchema()
	st := store.New()
	out := pipelineFetch(t, st, NewIdentities(), nil, s, valuetest.Articles(50, 1), 1)
	o, err := wire.Decode(out, &wire.Table{})
	require.NoError(t, err)
	require.Len(t, o.Value.Elems, 50, "the read is the list")
	for _, pk := range []string{"1", "25", "50"} {
		article := st.Slot("Article", pk)
		require.NotNil(t, article, "article %s stored", pk)
		assert.True(t, article.Value.Unbuilt(), "article %s: its normalized record is still on the tape", pk)
		assert.True(t, article.Value.Get("tags").Unbuilt(), "article %s: its tags are", pk)
		author := st.Slot("User", article.Value.Get("author").Str())
		require.NotNil(t, author, "article %s: its author stored", pk)
		assert.True(t, author.Value.Unbuilt(), "article %s: its author's record is", pk)
	}
}
