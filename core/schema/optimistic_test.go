package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// An optimistic response may hold records the server has not given a pk
// yet (a create): each gets a temporary pk of its own, as data-client's
// normalize gives them, instead of failing. Any other normalization of a
// record without a pk still fails.
func TestOptimisticRecordWithoutPKGetsTemporaryPK(t *testing.T) {
	user := newUser()
	article := newArticle(user)
	in := value.MustParse(`[{"id":1,"title":"kept"},{"title":"new"},{"title":"newer","author":{"name":"anon"}}]`)

	n, err := schema.NormalizeArgs(schema.ArrayOf(article), in, schema.Args{Optimistic: true})
	require.NoError(t, err)
	pks := map[string][]string{}
	for _, w := range n.Entities {
		pks[w.Entity.Key] = append(pks[w.Entity.Key], w.PK)
	}
	require.Len(t, pks["Article"], 3)
	require.Len(t, pks["User"], 1)
	assert.Equal(t, "1", pks["Article"][0], "a record with a pk keeps it")
	temps := []string{pks["Article"][1], pks["Article"][2], pks["User"][0]}
	for _, pk := range temps {
		assert.True(t, schema.IsTemporaryPK(pk), "%q is a temporary pk", pk)
	}
	assert.Len(t, map[string]bool{temps[0]: true, temps[1]: true, temps[2]: true}, 3, "each record its own pk")
	assert.Equal(t, pks["Article"][1], n.Result.Elems()[1].Str(), "the result refers to it")
	assert.False(t, schema.IsTemporaryPK("1"))

	again, err := schema.NormalizeArgs(schema.ArrayOf(article), in, schema.Args{Optimistic: true})
	require.NoError(t, err)
	assert.NotEqual(t, pks["Article"][1], again.Entities[1].PK, "a new pk for every optimistic response")

	for _, c := range []struct {
		name string
		s    schema.Schema
		in   string
		args schema.Args
	}{
		{"a server response", schema.ArrayOf(article), `[{"title":"new"}]`, schema.Args{}},
		{"an empty pk", article, `{"id":""}`, schema.Args{}},
		{"a delete, optimistic or not", schema.InvalidateOf(article), `{"title":"x"}`, schema.Args{Optimistic: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := schema.NormalizeArgs(c.s, value.MustParse(c.in), c.args)
			require.ErrorIs(t, err, schema.ErrNoPK)
		})
	}
}
