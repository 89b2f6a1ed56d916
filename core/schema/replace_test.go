package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// lazy parses s onto a tape (value.ParseLazy), as responses and records
// set from JavaScript are.
func lazy(t *testing.T, s string) value.Value {
	t.Helper()
	v, err := value.ParseLazy(s)
	require.NoError(t, err)
	return v
}

// TestShallowMergeFullReplacement checks the merge of a record that has
// every key of the stored one in its order, as a record set or fetched
// again whole has: the result is the incoming record itself when it
// changes something, the stored one when it changes nothing, and neither
// lazy record is built to tell.
func TestShallowMergeFullReplacement(t *testing.T) {
	const stored = `{"id":1,"title":"a","tags":["x"],"author":{"id":7}}`
	tests := []struct {
		name, incoming string
		wantIncoming   bool // else the stored record
	}{
		{"a field changed", `{"id":1,"title":"b","tags":["x"],"author":{"id":7}}`, true},
		{"a nested value changed", `{"id":1,"title":"a","tags":["y"],"author":{"id":7}}`, true},
		{"nothing changed, other spelling", `{"id":1.0,"title":"\u0061","tags":[ "x" ],"author":{"id":7}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := lazy(t, stored), lazy(t, tt.incoming)
			got := schema.ShallowMerge(a, b)
			if tt.wantIncoming {
				assert.True(t, value.Same(got, b), "the incoming record, not a copy")
			} else {
				assert.True(t, value.Same(got, a), "the stored record")
			}
			assert.True(t, a.Unbuilt() && b.Unbuilt(), "neither record built")
			assert.True(t, value.Equal(got, referenceMerge(value.MustParse(stored), value.MustParse(tt.incoming))))
		})
	}
}

// TestShallowMergePatchedUnbuilt checks the merge of normalized records
// kept as offsets (value.Patched: nested entities replaced by keys), as
// the store holds them: the incoming record whole, neither built.
func TestShallowMergePatchedUnbuilt(t *testing.T) {
	a := value.Patched(lazy(t, `{"id":1,"title":"a","author":{"id":7,"name":"u"}}`), []value.Patch{{At: 2, V: value.Str("7")}})
	b := value.Patched(lazy(t, `{"id":1,"title":"b","author":{"id":7,"name":"v"}}`), []value.Patch{{At: 2, V: value.Str("7")}})
	got := schema.ShallowMerge(a, b)
	assert.True(t, value.Same(got, b))
	assert.True(t, a.Unbuilt() && b.Unbuilt(), "neither record built")

	e := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{}`)}
	merged, _, keep := e.Resolve(a, schema.Meta{FetchedAt: 1}, true, b, schema.Meta{FetchedAt: 2})
	assert.False(t, keep)
	assert.True(t, value.Same(merged, b), "a full replacement is stored as it came")
	assert.True(t, a.Unbuilt() && b.Unbuilt(), "resolved without building either")

	same := value.Patched(lazy(t, `{"id":1,"title":"a","author":{"id":7,"name":"w"}}`), []value.Patch{{At: 2, V: value.Str("7")}})
	merged, _, keep = e.Resolve(a, schema.Meta{FetchedAt: 1}, true, same, schema.Meta{FetchedAt: 2})
	assert.True(t, keep, "equal but for the nested record, which is stored apart")
	assert.True(t, value.Same(merged, a))
	assert.True(t, a.Unbuilt() && same.Unbuilt())
}

// TestShallowMergeOtherKeys checks that a record with other keys, or the
// same keys in another order, is still merged member by member.
func TestShallowMergeOtherKeys(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{`{"id":1,"a":1,"b":2}`, `{"id":1,"b":3,"a":1}`, `{"id":1,"a":1,"b":3}`},
		{`{"id":1,"a":1,"b":2}`, `{"id":1,"b":3}`, `{"id":1,"a":1,"b":3}`},
		{`{"id":1,"a":1}`, `{"id":1,"a":1,"c":3}`, `{"id":1,"a":1,"c":3}`},
		{`{"id":1,"a":1}`, `{"id":1,"c":1}`, `{"id":1,"a":1,"c":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.a+" + "+tt.b, func(t *testing.T) {
			for _, parse := range []func(string) value.Value{value.MustParse, func(s string) value.Value { return lazy(t, s) }} {
				got := schema.ShallowMerge(parse(tt.a), parse(tt.b))
				assert.Equal(t, tt.want, got.JSON())
			}
		})
	}
}
