package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

func TestIsPlain(t *testing.T) {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	plainObject := schema.ObjectOf(schema.Default("next", value.Str("")), schema.Nested("tags", schema.ArrayOf(nil)))
	tests := []struct {
		name string
		s    schema.Schema
		want bool
	}{
		{"no schema", nil, true},
		{"an entity", user, false},
		{"an invalidate", schema.InvalidateOf(user), false},
		{"a date", schema.Date, false},
		{"a list of entities", schema.ArrayOf(user), false},
		{"a map of dates", schema.ValuesOf(schema.Date), false},
		{"an object of defaults and plain lists", plainObject, true},
		{"a list of plain objects", schema.ArrayOf(plainObject), true},
		{"an envelope around entities", schema.ObjectOf(schema.Nested("results", schema.ArrayOf(user)), schema.Default("next", value.Str(""))), false},
		{"an object with a date deep inside", schema.ObjectOf(schema.Nested("meta", schema.ObjectOf(schema.Nested("at", schema.Date)))), false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, schema.IsPlain(tt.s), tt.name)
		assert.Equal(t, tt.want, schema.IsPlain(tt.s), "%s: asked again (the cached answer)", tt.name)
	}
}
