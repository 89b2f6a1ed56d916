package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/value"
)

func TestScalarPassesValuesThrough(t *testing.T) {
	price := ScalarOf(7)
	item := &Entity{
		Key:      "Item",
		Defaults: value.MustParse(`{"id":null,"price":null}`),
		Schema:   map[string]Schema{"price": price},
	}
	n, err := Normalize(ArrayOf(item), value.MustParse(`[{"id":1,"price":"12.50"},{"id":2,"price":3}]`))
	require.NoError(t, err)
	assert.Equal(t, `"12.50"`, n.Entities[0].Record().Get("price").JSON(), "kept as it came")
	assert.False(t, IsPlain(price), "a bridge must walk to it")
	assert.False(t, IsPlain(ArrayOf(price)))
	assert.Equal(t, "scalar#7", price.describe())
}
