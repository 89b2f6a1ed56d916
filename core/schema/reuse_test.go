package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// TestNormalizeResultsShareNothing checks what reusing normalizers between
// calls must keep: a result stays as it was however many normalizations
// follow it (small ones, whose writes are copied out, and large ones,
// whose writes are handed over), and an error's path is the failing
// value's, not one left from an earlier call.
func TestNormalizeResultsShareNothing(t *testing.T) {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{}`)}
	article := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{}`), Schema: map[string]schema.Schema{"author": user}}
	list := schema.ArrayOf(article)
	one := func(id int, name string) string {
		return `{"id":` + value.Int(int64(id)).JSON() + `,"author":{"id":9,"name":"` + name + `"}}`
	}
	first, err := schema.Normalize(article, lazy(t, one(1, "a")))
	require.NoError(t, err)
	many, err := schema.Normalize(list, lazy(t, "["+one(2, "b")+","+one(3, "c")+"]"))
	require.NoError(t, err)
	for i := range 3 {
		_, err := schema.Normalize(article, lazy(t, one(10+i, "z")))
		require.NoError(t, err)
		_, err = schema.Normalize(list, lazy(t, "["+one(20+i, "y")+","+one(30+i, "x")+"]"))
		require.NoError(t, err)
	}
	require.Len(t, first.Entities, 2)
	assert.Equal(t, "9", first.Entities[0].PK)
	assert.Equal(t, `{"id":9,"name":"a"}`, first.Entities[0].Record().JSON())
	assert.Equal(t, `{"id":1,"author":"9"}`, first.Entities[1].Record().JSON())
	require.Len(t, many.Entities, 4)
	assert.Equal(t, `{"id":9,"name":"c"}`, many.Entities[2].Record().JSON())
	assert.Equal(t, `{"id":3,"author":"9"}`, many.Entities[3].Record().JSON())

	_, err = schema.Normalize(list, lazy(t, `[`+one(1, "a")+`,{"id":2,"author":{"name":"no id"}}]`))
	require.Error(t, err)
	var se *schema.Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "$[1].author", se.Path)
	_, err = schema.Normalize(article, lazy(t, `{"author":{"id":1}}`))
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "$", se.Path, "no path left from the call before")
}
