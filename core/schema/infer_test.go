package schema_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// TestPKFromParams: params name a pk as a record would, through the PK
// field or PKFunc; anything a record could not be keyed by names none.
func TestPKFromParams(t *testing.T) {
	byField := &schema.Entity{Key: "A", PK: "slug"}
	byFunc := &schema.Entity{Key: "B", PKFunc: func(r, parent value.Value, key string, _ value.Value) (string, bool, error) {
		if !parent.IsUndefined() || key != "" {
			return "", false, errors.New("params have no parent")
		}
		lang := r.Get("lang")
		if lang.IsUndefined() {
			return "", false, nil
		}
		return lang.Str() + "/" + r.Get("id").Str(), true, nil
	}}
	failing := &schema.Entity{Key: "C", PKFunc: func(value.Value, value.Value, string, value.Value) (string, bool, error) {
		return "", false, errors.New("refused")
	}}
	panicking := &schema.Entity{Key: "D", PKFunc: func(value.Value, value.Value, string, value.Value) (string, bool, error) {
		panic("not a record")
	}}
	cases := []struct {
		entity *schema.Entity
		params string
		pk     string // "" when none
	}{
		{newUser(), `{"id":"7"}`, "7"},
		{newUser(), `{"id":7,"extra":true}`, "7"},
		{newUser(), `{"id":""}`, ""},
		{newUser(), `{"id":null}`, ""},
		{newUser(), `{"id":[7]}`, ""},
		{newUser(), `{"slug":"7"}`, ""},
		{newUser(), `"7"`, ""},
		{newUser(), `null`, ""},
		{byField, `{"slug":"x"}`, "x"},
		{byField, `{"id":"x"}`, ""},
		{byFunc, `{"lang":"en","id":"1"}`, "en/1"},
		{byFunc, `{"id":"1"}`, ""},
		{failing, `{"id":"1"}`, ""},
		{panicking, `{"id":"1"}`, ""},
	}
	for _, tc := range cases {
		pk, ok := tc.entity.PKFromParams(value.MustParse(tc.params))
		assert.Equal(t, tc.pk != "", ok, "%s %s", tc.entity.Key, tc.params)
		assert.Equal(t, tc.pk, pk, "%s %s", tc.entity.Key, tc.params)
	}
}
