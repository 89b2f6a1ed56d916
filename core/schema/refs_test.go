package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Refs names exactly the entities a normalized value's read looks up, for
// every kind of schema; RecordRefs those a record's nested fields name.
func TestRefs(t *testing.T) {
	user := newUser()
	article := newArticle(user)
	cat := &schema.Entity{Key: "Cat", Defaults: value.MustParse(`{"id":null}`)}
	union := &schema.Union{Schemas: map[string]schema.Schema{"user": user, "cat": cat}, Attribute: "type"}
	for _, tc := range []struct {
		name string
		s    schema.Schema
		data string
		want []string
	}{
		{"entity", article, `{"id":1,"author":{"id":"u"}}`, []string{"Article/1"}},
		{"null entity", schema.ObjectOf(schema.Nested("a", article)), `{"a":null}`, nil},
		{"array", schema.ArrayOf(article), `[{"id":1},{"id":2}]`, []string{"Article/1", "Article/2"}},
		{"values", schema.ValuesOf(user), `{"x":{"id":"a"},"y":{"id":"b"}}`, []string{"User/a", "User/b"}},
		{"object, plain members skipped", schema.ObjectOf(schema.Nested("who", user), schema.Default("n", value.Int(0))),
			`{"who":{"id":"w"},"other":{"id":"no"},"n":3}`, []string{"User/w"}},
		{"union", schema.ArrayOf(union), `[{"id":"u1","type":"user"},{"id":"c1","type":"cat"}]`, []string{"Cat/c1", "User/u1"}},
		{"invalidate", schema.InvalidateOf(user), `{"id":"gone"}`, []string{"User/gone"}},
		{"plain", nil, `{"id":1}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := schema.Normalize(tc.s, value.MustParse(tc.data))
			require.NoError(t, err)
			var got []string
			schema.Refs(tc.s, n.Result, func(e *schema.Entity, pk string) { got = append(got, e.Key+"/"+pk) })
			assert.ElementsMatch(t, tc.want, got)
		})
	}

	n, err := schema.Normalize(article, value.MustParse(`{"id":1,"author":{"id":"u"}}`))
	require.NoError(t, err)
	var got []string
	for _, ew := range n.Entities {
		if ew.Entity == article {
			article.RecordRefs(ew.Record(), func(e *schema.Entity, pk string) { got = append(got, e.Key+"/"+pk) })
		}
	}
	assert.Equal(t, []string{"User/u"}, got)
}
