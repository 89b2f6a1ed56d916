package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// parsedSchema is a list of articles, each with an author, whose records
// come in the order of their defaults, so that a read leaves them as they are.
func parsedSchema() (list *schema.Array, article, user *schema.Entity) {
	user = &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	article = &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":"","author":null}`),
		Schema: map[string]schema.Schema{"author": user}}
	return schema.ArrayOf(article), article, user
}

// apply parses text, normalizes it by s and stores it under key.
func apply(t *testing.T, st *store.Store, key string, s schema.Schema, text string, at int64) value.Value {
	t.Helper()
	in := value.MustParse(text)
	n, err := schema.Normalize(s, in)
	require.NoError(t, err)
	st.Apply(&store.Write{Key: key, Schema: s, Result: n.Result, Entities: n.Entities,
		Meta: schema.Meta{Date: at, FetchedAt: at, ExpiresAt: at + 1000}})
	return in
}

func read(t *testing.T, st *store.Store, key string) value.Value {
	t.Helper()
	v, status, _, ok := st.Read(key)
	require.True(t, ok)
	require.Equal(t, schema.Found, status)
	return v
}

// TestReadHandsBackParsedRecords: the first read of a response hands back
// the parsed record of an entity whose nested entities read as the very
// values inline in it, instead of a copy; identity then follows the usual
// rules (the same value while nothing it shows changed, a new one for
// what changed).
func TestReadHandsBackParsedRecords(t *testing.T) {
	list, article, _ := parsedSchema()
	st := store.New()
	const text = `[{"id":1,"title":"a","author":{"id":7,"name":"u"}},` +
		`{"id":2,"title":"b","author":{"id":7,"name":"u"}},` +
		`{"id":3,"title":"c","author":null}]`
	in := apply(t, st, "list", list, text, 1)
	got := read(t, st, "list")
	require.Equal(t, value.MustParse(text).JSON(), got.JSON())
	parsed, out := in.Elems(), got.Elems()

	assert.True(t, value.Same(out[0], parsed[0]), "article 1 (the stored author's own record inline) is its parsed record")
	assert.True(t, value.Same(out[2], parsed[2]), "article 3 (author null) is its parsed record")
	assert.False(t, value.Same(out[1], parsed[1]), "article 2 shows the author stored from article 1, not its own copy")
	assert.True(t, value.Same(out[1].Get("author"), out[0].Get("author")), "one author object for both articles")
	assert.True(t, value.Same(st.Slot("Article", "1").Parsed, parsed[0]), "a parsed record handed back is kept")
	assert.True(t, st.Slot("Article", "2").Parsed.IsUndefined(), "one that does not fit is let go")

	assert.True(t, value.Same(got, read(t, st, "list")), "an unchanged re-read is the same value")

	// The same bytes again: nothing changed, every object is the one before.
	apply(t, st, "list", list, text, 2)
	again := read(t, st, "list")
	assert.True(t, value.Same(got, again), "a re-fetch of the same data reads as the same value")

	// The shared author changes: both articles showing it are new, article 3 is not.
	n, err := schema.Normalize(article.Schema["author"], value.MustParse(`{"id":7,"name":"v"}`))
	require.NoError(t, err)
	st.Apply(&store.Write{Entities: n.Entities, Meta: schema.Meta{FetchedAt: 3}})
	changed := read(t, st, "list").Elems()
	assert.JSONEq(t, `{"id":1,"title":"a","author":{"id":7,"name":"v"}}`, changed[0].JSON())
	assert.JSONEq(t, `{"id":2,"title":"b","author":{"id":7,"name":"v"}}`, changed[1].JSON())
	assert.False(t, value.Same(changed[0], out[0]))
	assert.False(t, value.Same(changed[1], out[1]))
	assert.True(t, value.Same(changed[2], out[2]), "article 3 does not show the author: same value")
	assert.True(t, value.Same(changed[0].Get("author"), changed[1].Get("author")))

	// Article 1 alone changes, its author inline as stored: article 2 keeps its value.
	n, err = schema.Normalize(article, value.MustParse(`{"id":1,"title":"a2","author":{"id":7,"name":"v"}}`))
	require.NoError(t, err)
	st.Apply(&store.Write{Entities: n.Entities, Meta: schema.Meta{FetchedAt: 4}})
	last := read(t, st, "list").Elems()
	assert.JSONEq(t, `{"id":1,"title":"a2","author":{"id":7,"name":"v"}}`, last[0].JSON())
	assert.False(t, value.Same(last[0], changed[0]))
	assert.True(t, value.Same(last[1], changed[1]))
	assert.True(t, value.Same(last[0].Get("author"), changed[1].Get("author")), "the author is unchanged: same value")
}

// TestReadCopiesWhereParsedDoesNotFit: records whose read differs from
// their parsed form besides nested entities (defaults reorder or add
// members, a Date is read as a number) are copies, equal to a read that
// never hands back parsed records.
func TestReadCopiesWhereParsedDoesNotFit(t *testing.T) {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	for _, c := range []struct {
		name    string
		article *schema.Entity
		text    string
		want    string
	}{
		{"defaults reorder",
			&schema.Entity{Key: "A", Defaults: value.MustParse(`{"title":"","author":null}`), Schema: map[string]schema.Schema{"author": user}},
			`{"id":1,"title":"a","author":{"id":7,"name":"u"}}`,
			`{"title":"a","author":{"id":7,"name":"u"},"id":1}`},
		{"defaults add a member",
			&schema.Entity{Key: "B", Defaults: value.MustParse(`{"id":null,"title":"","author":null,"tags":[]}`), Schema: map[string]schema.Schema{"author": user}},
			`{"id":1,"title":"a","author":{"id":7,"name":"u"}}`,
			`{"id":1,"title":"a","author":{"id":7,"name":"u"},"tags":[]}`},
		{"a date",
			&schema.Entity{Key: "C", Schema: map[string]schema.Schema{"author": user, "at": schema.Date}},
			`{"id":1,"at":"1970-01-01T00:00:01Z","author":{"id":7,"name":"u"}}`,
			`{"id":1,"at":1000,"author":{"id":7,"name":"u"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := store.New()
			in := apply(t, st, "one", c.article, c.text, 1)
			got := read(t, st, "one")
			assert.Equal(t, c.want, got.JSON())
			assert.False(t, value.Same(got, in))
			assert.True(t, value.Same(got.Get("author"), in.Get("author")), "the author is its parsed record")
			checkEagerAt(t, "one", c.article, mustNormalized(t, st, "one"), st, got)
		})
	}
}

func mustNormalized(t *testing.T, st *store.Store, key string) value.Value {
	t.Helper()
	v, ok := st.Normalized(key)
	require.True(t, ok)
	return v
}
