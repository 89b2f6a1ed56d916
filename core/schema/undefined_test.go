package schema_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Undefined members and elements (which JavaScript data has and JSON
// cannot spell) go through normalize as data-client's do: an Object member
// its schema normalizes to undefined is left out, one no schema reads and
// null members stay; a list keeps its undefined and null elements.
func TestNormalizeKeepsUndefinedAsDataClient(t *testing.T) {
	user := newUser()
	obj := schema.ObjectOf(schema.Nested("foo", user), schema.Nested("bar", user), schema.Nested("baz", user))
	n, err := schema.Normalize(obj, value.Obj(
		value.M("foo", value.Undef),
		value.M("bar", value.MustParse(`{"id":"1"}`)),
		value.M("note", value.Undef),
		value.M("baz", value.NullV),
	))
	require.NoError(t, err)
	assert.Equal(t, `{"bar":"1","note":undefined,"baz":null}`, jsText(n.Result))

	n, err = schema.Normalize(schema.ArrayOf(user), value.Arr(value.Undef, value.MustParse(`{"id":"123"}`), value.NullV))
	require.NoError(t, err)
	assert.Equal(t, `[undefined,"123",null]`, jsText(n.Result))
}

// Reading back, an undefined member stays ({results: undefined}) and a
// list leaves out its undefined elements but keeps null ones, as
// data-client's denormalize does.
func TestDenormalizeUndefinedAsDataClient(t *testing.T) {
	user := newUser()
	obj := schema.ObjectOf(schema.Nested("results", schema.ArrayOf(user)))
	st, _ := fill(t, user, `{"id":"1"}`)
	in, err := value.ParseMarked("\x00{\"results\":{\"1\":0}}\x00{\"results\":[\"1\",null,null]}")
	require.NoError(t, err)
	v, status := schema.Denormalize(obj, in, st, nil, st.Version())
	assert.Equal(t, schema.Found, status)
	assert.Equal(t, `{"results":[{"id":"1","name":""},null]}`, jsText(v))

	in, err = value.ParseMarked("\x00{\"results\":0}\x00{\"results\":null}")
	require.NoError(t, err)
	v, _ = schema.Denormalize(obj, in, st, nil, st.Version())
	assert.Equal(t, `{"results":undefined}`, jsText(v))
}

// jsText writes v as JSON but for undefined members and elements, which it
// writes as undefined (as JavaScript has them) rather than leave out.
func jsText(v value.Value) string {
	var parts []string
	switch v.Kind() {
	case value.Undefined:
		return "undefined"
	case value.Array:
		for _, el := range v.Elems() {
			parts = append(parts, jsText(el))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case value.Object:
		for _, m := range v.Members() {
			parts = append(parts, value.Str(m.Key).JSON()+":"+jsText(m.Value))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return v.JSON()
}
