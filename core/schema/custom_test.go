package schema_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// pairOf is a custom schema of a two-element list [label, record]: the
// label is kept, the record normalized by of (through Visit) and read back
// through Unvisit, as a data-client custom schema class would.
func pairOf(of schema.Schema) *schema.Custom {
	return &schema.Custom{
		Name: "Pair",
		Call: func(in, parent value.Value, key string, c *schema.Nest) (value.Value, error) {
			if in.Kind() != value.Array || in.Len() != 2 {
				if c.Reading() {
					return value.Undef, errors.New("stored value is not a pair")
				}
				return value.Undef, errors.New("not a pair")
			}
			rec, err := c.Nested(of, in.Elems()[1], in, "1")
			if err != nil || !c.Reading() {
				return value.Arr(in.Elems()[0], rec), err
			}
			return value.Obj(value.M("label", in.Elems()[0]), value.M("record", rec)), nil
		},
	}
}

func TestCustomSchemaVisitsAndUnvisits(t *testing.T) {
	user := newUser()
	s := schema.ObjectOf(schema.Nested("pairs", schema.ArrayOf(pairOf(user))))
	st, res := fill(t, s, `{"pairs":[["a",{"id":1,"name":"Ann"}],["b",{"id":2,"name":"Bob"}]]}`)
	assert.JSONEq(t, `{"pairs":[["a","1"],["b","2"]]}`, res.JSON(), "the records are replaced by their keys")
	v, status := schema.Denormalize(s, res, st, nil, st.Version())
	assert.Equal(t, schema.Found, status)
	assert.JSONEq(t, `{"pairs":[{"label":"a","record":{"id":1,"name":"Ann"}},{"label":"b","record":{"id":2,"name":"Bob"}}]}`, v.JSON())
	assert.True(t, schema.IsPlain(pairOf(user)), "what it reads is plain data")
}

func TestCustomSchemaMissingEntityReadsUndefined(t *testing.T) {
	user := newUser()
	st, _ := fill(t, user, `{"id":1}`)
	v, status := schema.Denormalize(pairOf(user), value.MustParse(`["a","9"]`), st, nil, st.Version())
	assert.Equal(t, schema.Found, status)
	assert.JSONEq(t, `{"label":"a"}`, v.JSON())
}

func TestCustomSchemaErrorNamesSchemaAndPath(t *testing.T) {
	s := schema.ObjectOf(schema.Nested("pairs", schema.ArrayOf(pairOf(newUser()))))
	_, err := schema.Normalize(s, value.MustParse(`{"pairs":[["a",{"id":1}],"oops"]}`))
	var se *schema.Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "$.pairs[1]", se.Path)
	assert.Contains(t, err.Error(), "custom(Pair)")
	assert.Contains(t, err.Error(), "not a pair")

	user := newUser()
	st, _ := fill(t, user, `{"id":1}`)
	assert.PanicsWithError(t, "denormalize custom(Pair): stored value is not a pair", func() {
		schema.Denormalize(pairOf(user), value.Str("x"), st, nil, st.Version())
	})
}

func TestCustomSchemaMergesAndInvalidatesEntities(t *testing.T) {
	user := newUser()
	// A fully custom entity: it stores the record itself and returns
	// {uuid, schema} as its normalized form.
	custom := &schema.Custom{
		Name: "Own",
		Call: func(in, parent value.Value, key string, c *schema.Nest) (value.Value, error) {
			if c.Reading() {
				return c.Nested(user, in.Get("uuid"), value.Undef, "")
			}
			pk := in.Get("id").JSON()
			c.Store(user, pk, in, false)
			c.Store(user, "9", value.Undef, true)
			return value.Obj(value.M("uuid", value.Str(pk)), value.M("schema", value.Str("User"))), nil
		},
	}
	n, err := schema.Normalize(custom, value.MustParse(`{"id":1,"name":"Ann"}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"uuid":"1","schema":"User"}`, n.Result.JSON())
	require.Len(t, n.Entities, 2)
	assert.Equal(t, "1", n.Entities[0].PK)
	assert.JSONEq(t, `{"id":1,"name":"Ann"}`, n.Entities[0].Record().JSON())
	assert.True(t, n.Entities[1].Deleted)
}

func TestCustomSchemaDeletedEntityNeedsFetch(t *testing.T) {
	user := newUser()
	st := storeOf(t, `{"User":{"1":{"id":1,"name":"Ann"},"2":null}}`, user)
	v, status := schema.Denormalize(pairOf(user), value.MustParse(`["a","1"]`), st, nil, st.Version())
	assert.Equal(t, schema.Found, status)
	assert.JSONEq(t, `{"label":"a","record":{"id":1,"name":"Ann"}}`, v.JSON())
	v, status = schema.Denormalize(pairOf(user), value.MustParse(`["b","2"]`), st, nil, st.Version())
	assert.Equal(t, schema.Deleted, status, "a deleted record makes the read need a fetch")
	assert.JSONEq(t, `{"label":"b"}`, v.JSON())
}
