package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// storeOf returns a store holding tables: {key: {pk: record}}, where a
// null record is a deleted entity.
func storeOf(t *testing.T, tables string, entities ...*schema.Entity) *store.Store {
	t.Helper()
	byKey := map[string]*schema.Entity{}
	for _, e := range entities {
		byKey[e.Key] = e
	}
	var ws []schema.EntityWrite
	for _, table := range value.MustParse(tables).Members() {
		e := byKey[table.Key]
		require.NotNil(t, e, "entity %s", table.Key)
		for _, rec := range table.Value.Members() {
			ws = append(ws, schema.EntityWrite{Entity: e, PK: rec.Key, Value: rec.Value, Deleted: rec.Value.IsNull()})
		}
	}
	st := store.New()
	st.Apply(&store.Write{Entities: ws})
	return st
}

// TestDeletedRequiredMember: a deleted entity makes what requires it read
// as deleted (undefined, and a read fetches again): an entity's field
// whose default is truthy, any member of an object schema, the entity
// itself read through Invalidate. Lists leave such members out, and an
// optional field (null or empty default) reads as undefined. Missing
// entities only read as undefined. (data-client's Entity.test "should be
// marked as deleted when required entity is deleted symbol" and the rest,
// Invalidate.test "denormalizes deleted entities as symbol", "removes
// deleted entries in array", "sets undefined entities that are not
// present".)
func TestDeletedRequiredMember(t *testing.T) {
	article := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":"","title":""}`)}
	withOptional := &schema.Entity{
		Key:      "WithOptional",
		Defaults: value.MustParse(`{"id":"","article":null,"requiredArticle":{"id":"","title":""},"nextPage":""}`),
		Schema:   map[string]schema.Schema{"article": article, "requiredArticle": article},
	}
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":"","name":""}`)}
	entities := []*schema.Entity{article, withOptional, user}
	cases := []struct {
		name   string
		schema schema.Schema
		result string
		tables string
		want   string // JSON of the read; "" for undefined
		status schema.Status
	}{
		{"required field deleted", withOptional, `"abc"`,
			`{"WithOptional":{"abc":{"id":"abc","requiredArticle":"5","nextPage":"blob"}},"Article":{"5":null}}`,
			"", schema.Deleted},
		{"optional field deleted", withOptional, `"abc"`,
			`{"WithOptional":{"abc":{"id":"abc","article":"5","requiredArticle":"6","nextPage":"blob"}},"Article":{"5":null,"6":{"id":"6"}}}`,
			`{"id":"abc","requiredArticle":{"id":"6","title":""},"nextPage":"blob"}`, schema.Found},
		{"required field deleted inside an object", schema.ObjectOf(schema.Nested("data", withOptional), schema.Nested("other", article)),
			`{"data":"abc"}`,
			`{"WithOptional":{"abc":{"id":"abc","article":"6","requiredArticle":"5"}},"Article":{"5":null,"6":{"id":"6"}}}`,
			"", schema.Deleted},
		{"entity deleted", user, `"1"`, `{"User":{"1":null}}`, "", schema.Deleted},
		{"invalidate deleted", schema.InvalidateOf(user), `"1"`, `{"User":{"1":null}}`, "", schema.Deleted},
		{"invalidate stored", schema.InvalidateOf(user), `"1"`, `{"User":{"1":{"id":"1","name":"Janey"}}}`,
			`{"id":"1","name":"Janey"}`, schema.Found},
		{"object member deleted", schema.ObjectOf(schema.Nested("data", user)), `{"data":"1"}`, `{"User":{"1":null}}`, "", schema.Deleted},
		{"object member invalidate deleted", schema.ObjectOf(schema.Nested("data", schema.InvalidateOf(user))), `{"data":"1"}`,
			`{"User":{"1":null}}`, "", schema.Deleted},
		{"list of objects with a deleted member", schema.ArrayOf(schema.ObjectOf(schema.Nested("data", user))), `[{"data":"1"},{"data":"2"}]`,
			`{"User":{"1":null,"2":{"id":"2"}}}`, `[{"data":{"id":"2","name":""}}]`, schema.Found},
		{"list of objects with an invalidate deleted", schema.ArrayOf(schema.ObjectOf(schema.Nested("data", schema.InvalidateOf(user)))),
			`[{"data":"1"}]`, `{"User":{"1":null}}`, `[]`, schema.Found},
		{"values with deleted", schema.ValuesOf(user), `{"a":"1","b":"2"}`, `{"User":{"1":null,"2":{"id":"2"}}}`,
			`{"b":{"id":"2","name":""}}`, schema.Found},
		{"list of entities requiring a deleted one", schema.ArrayOf(withOptional), `["a","b"]`,
			`{"WithOptional":{"a":{"id":"a","requiredArticle":"5"},"b":{"id":"b","requiredArticle":"6"}},"Article":{"5":null,"6":{"id":"6"}}}`,
			`[{"id":"b","article":null,"requiredArticle":{"id":"6","title":""},"nextPage":""}]`, schema.Found},
		{"list of objects with a missing member", schema.ArrayOf(schema.ObjectOf(schema.Nested("data", user))), `[{"data":"1"}]`,
			`{}`, `[{}]`, schema.Found},
		{"object with a missing member", schema.ObjectOf(schema.Nested("data", user)), `{"data":"1"}`, `{}`, `{}`, schema.Missing},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := storeOf(t, c.tables, entities...)
			v, status := schema.Denormalize(c.schema, value.MustParse(c.result), st, nil, st.Version())
			assert.Equal(t, c.status, status)
			if c.want == "" {
				assert.True(t, v.IsUndefined(), "read %s, want undefined", v.JSON())
			} else {
				assert.JSONEq(t, c.want, v.JSON())
			}
		})
	}
}

// TestDeletedRequiredMemberComesBack: a record that read as deleted
// because a required entity was deleted reads whole again once that
// entity is stored again (its memo depends on it).
func TestDeletedRequiredMemberComesBack(t *testing.T) {
	user := newUser()
	post := &schema.Entity{Key: "Post", Defaults: value.MustParse(`{"id":"","author":{}}`),
		Schema: map[string]schema.Schema{"author": user}}
	st, res := fill(t, post, `{"id":1,"author":{"id":7,"name":"a"}}`)
	var memo schema.Memo
	n, err := schema.Normalize(schema.InvalidateOf(user), value.MustParse(`"7"`))
	require.NoError(t, err)
	st.Apply(&store.Write{Entities: n.Entities})
	v, status := schema.Denormalize(post, res, st, &memo, st.Version())
	assert.Equal(t, schema.Deleted, status)
	assert.True(t, v.IsUndefined())

	n, err = schema.Normalize(user, value.MustParse(`{"id":7,"name":"b"}`))
	require.NoError(t, err)
	st.Apply(&store.Write{Entities: n.Entities})
	v, status = schema.Denormalize(post, res, st, &memo, st.Version())
	assert.Equal(t, schema.Found, status)
	assert.JSONEq(t, `{"id":1,"author":{"id":7,"name":"b"}}`, v.JSON())
}
