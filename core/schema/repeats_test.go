package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// writeIDs lists the entity and key of each write, in order.
func writeIDs(n *schema.Normalized) []string {
	ids := make([]string, len(n.Entities))
	for i, w := range n.Entities {
		ids[i] = w.Entity.Key + ":" + w.PK
	}
	return ids
}

// TestNormalizeRepeats checks that a record a response holds again, the
// same text as its last occurrence, is written once (the shared authors
// of a list of articles), and that every other occurrence still is: a
// record that changed in between, one after a deletion, and any record of
// an entity whose merge runs the caller's code.
func TestNormalizeRepeats(t *testing.T) {
	user := &schema.Entity{Key: "User"}
	article := &schema.Entity{Key: "Article", Schema: map[string]schema.Schema{"author": user}}
	counted := &schema.Entity{Key: "Counted", Merge: func(a, b value.Value) value.Value { return schema.ShallowMerge(a, b) }}
	byMerge := &schema.Entity{Key: "Article", Schema: map[string]schema.Schema{"author": counted}}
	del := &schema.Invalidate{Entity: user}
	withDel := &schema.Object{Fields: []schema.Field{
		{Name: "a", Schema: schema.ArrayOf(user)}, {Name: "gone", Schema: del}, {Name: "b", Schema: schema.ArrayOf(user)},
	}}
	for _, c := range []struct {
		name string
		s    schema.Schema
		data string
		want []string
	}{
		{"shared authors once", schema.ArrayOf(article),
			`[{"id":1,"author":{"id":7,"name":"a"}},{"id":2,"author":{"id":8,"name":"b"}},{"id":3,"author":{"id":7,"name":"a"}},{"id":4,"author":{"id":7,"name":"a"}}]`,
			[]string{"User:7", "Article:1", "User:8", "Article:2", "Article:3", "Article:4"}},
		{"a repeated list element once", schema.ArrayOf(user),
			`[{"id":7,"name":"a"},{"id":7,"name":"a"}]`,
			[]string{"User:7"}},
		{"changed in between: each", schema.ArrayOf(user),
			`[{"id":7,"name":"a"},{"id":7,"name":"b"},{"id":7,"name":"a"}]`,
			[]string{"User:7", "User:7", "User:7"}},
		{"other text, same record: each", schema.ArrayOf(user),
			`[{"id":7,"name":"a"},{"id":7, "name":"a"}]`,
			[]string{"User:7", "User:7"}},
		{"after a deletion: again", withDel,
			`{"a":[{"id":7,"name":"a"},{"id":8}],"gone":7,"b":[{"id":7,"name":"a"},{"id":8}]}`,
			[]string{"User:7", "User:8", "User:7", "User:7"}},
		{"merge hook: each", schema.ArrayOf(byMerge),
			`[{"id":1,"author":{"id":7}},{"id":2,"author":{"id":7}}]`,
			[]string{"Counted:7", "Article:1", "Counted:7", "Article:2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			n, err := schema.Normalize(c.s, value.MustParse(c.data))
			require.NoError(t, err)
			assert.Equal(t, c.want, writeIDs(n))
			lazy, err := value.ParseLazy(c.data)
			require.NoError(t, err)
			n, err = schema.Normalize(c.s, lazy)
			require.NoError(t, err)
			assert.Equal(t, c.want, writeIDs(n), "parsed onto a tape")
		})
	}
}
