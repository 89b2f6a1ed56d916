package schema_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// TestLoneSurrogatePKsStayApart: primary keys compare as JavaScript
// strings, exactly. "\ud800", "\udbff" and "\ufffd" are three strings to
// JSON.parse, so they are three entities, each read back with its own key
// and values, written as the same escapes so JavaScript reads the same
// strings; none overwrites another.
func TestLoneSurrogatePKsStayApart(t *testing.T) {
	item := &schema.Entity{Key: "Item", Defaults: value.MustParse(`{"id":null,"name":"","tags":{}}`)}
	body := `[{"id":"\ud800","name":"high \ud800","tags":{"\ud800":1}},` +
		`{"id":"\udbff","name":"high \udbff","tags":{"\udbff":2}},` +
		`{"id":"\ufffd","name":"replacement \ufffd","tags":{"\ufffd":3}},` +
		`{"id":"\ud83d\ude00","name":"pair","tags":{}}]`
	tr := &bodyTransport{body: []byte(body)}
	ep, err := rest.New(rest.Options{URLPrefix: "http://api.test", Path: "/items", Name: "getItems",
		Schema: schema.ArrayOf(item), Transport: tr})
	require.NoError(t, err)
	ctrl := controller.New(controller.Options{})

	got, err := ctrl.Fetch(context.Background(), ep, value.Undef, nil)
	require.NoError(t, err)
	require.Equal(t, 4, got.Len())
	want := value.MustParse(body)
	for i, rec := range got.Elems() {
		w := want.Elems()[i]
		assert.Equal(t, w.Get("id").Str(), rec.Get("id").Str(), "record %d keeps its pk", i)
		assert.Equal(t, w.Get("name").Str(), rec.Get("name").Str(), "record %d keeps its own values", i)
		assert.True(t, value.Equal(w.Get("tags"), rec.Get("tags")), "record %d keeps its keys: %s", i, rec.Get("tags"))
	}
	// JavaScript gets JSON: the lone surrogates must be written as the
	// escapes they were read from (UTF-8 cannot carry them).
	assert.JSONEq(t, body, got.JSON())
	assert.Contains(t, got.JSON(), `"id":"\ud800"`)
	assert.Contains(t, got.JSON(), `"\udbff":2`)

	// Three entities in the store, one per pk, and each found by its own.
	entities := ctrl.State().Get("entities").Get("Item")
	require.Equal(t, 4, entities.Len(), "entities: %s", entities)
	for _, pk := range []string{`"\ud800"`, `"\udbff"`, `"\ufffd"`} {
		rec := entities.Get(value.MustParse(pk).Str())
		require.False(t, rec.IsUndefined(), "entity %s", pk)
		assert.Equal(t, value.MustParse(pk).Str(), rec.Get("id").Str())
	}
	assert.Contains(t, ctrl.State().JSON(), `"\ud800":{`)
}

// TestLoneSurrogateStringsRoundTrip: a string value or key with lone
// surrogates reads back as JSON.parse gives it, wherever it sits.
func TestLoneSurrogateStringsRoundTrip(t *testing.T) {
	for _, doc := range []string{
		`"\ud800"`, `"\udfff"`, `"a\udbffb"`, `"\ude00\ud83d"`, `"\ud83d\ud83d\ude00"`,
		`{"\ud800":"\udc00","\udc00":"\ud800"}`, `["\ud800","\udbff","\ufffd"]`,
	} {
		v := value.MustParse(doc)
		assert.JSONEq(t, doc, v.JSON(), "as written")
		n, err := schema.Normalize(nil, v)
		require.NoError(t, err)
		back := value.MustParse(n.Result.JSON())
		assert.True(t, value.Equal(v, back), "%s read back as %s", doc, n.Result.JSON())
	}
	// Keys that differ only in their lone surrogate stay apart.
	obj := value.MustParse(`{"\ud800":1,"\udbff":2,"\ufffd":3}`)
	assert.Equal(t, 3, obj.Len())
}
