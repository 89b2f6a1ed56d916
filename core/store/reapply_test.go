package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/store/storetest"
	"github.com/datafetch/datafetch/core/value"
)

func reapplySchema() (list schema.Schema, article *schema.Entity) {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	article = &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":"","author":null}`),
		Schema: map[string]schema.Schema{"author": user}}
	return schema.ArrayOf(article), article
}

const reapplyBody = `[{"id":1,"title":"a","author":{"id":1,"name":"u"}},{"id":2,"title":"b","author":{"id":1,"name":"u"}}]`

// TestReapplyOlderMeta stores a text again with a meta older than the
// stored one, as a response to a request started before the one stored
// (Entity.Resolve reorders): the records and the result keep their newer
// metas, as Apply of the same text leaves them.
func TestReapplyOlderMeta(t *testing.T) {
	list, _ := reapplySchema()
	fast, slow := store.New(), store.New()
	storetest.ApplyText(t, fast, "list", list, reapplyBody, 10)
	storetest.ApplyText(t, slow, "list", list, reapplyBody, 10)

	older := schema.Meta{Date: 12, FetchedAt: 5, ExpiresAt: 60_012}
	require.True(t, reapply(fast, "list", reapplyBody, list, older))
	storetest.ApplyText(t, slow, "list", list, reapplyBody, 5)
	assert.Equal(t, slow.State().JSON(), fast.State().JSON())
	assert.Equal(t, slow.Snapshot().JSON(), fast.Snapshot().JSON())
}

// TestReapplyForgets lists what makes a store forget the text it could
// store again: every change to it. A change that changes nothing (an Adopt
// of a key with its schema, a sweep that removes nothing) keeps it.
func TestReapplyForgets(t *testing.T) {
	list, article := reapplySchema()
	tests := []struct {
		name   string
		change func(st *store.Store)
		keeps  bool
	}{
		{"nothing", func(*store.Store) {}, true},
		{"apply of other text under the key", func(st *store.Store) {
			storetest.ApplyText(t, st, "list", list, `[]`, 20)
		}, false},
		{"apply under another key", func(st *store.Store) {
			storetest.ApplyText(t, st, "other", article, `{"id":3,"title":"c"}`, 20)
		}, false},
		{"apply without text", func(st *store.Store) {
			storetest.Apply(t, st, "other", article, []byte(`{"id":3,"title":"c"}`), 20)
		}, false},
		{"meta (invalidate, error, expire)", func(st *store.Store) {
			st.UpdateMeta("list", func(m *store.ResultMeta) { m.Invalidated = true })
		}, false},
		{"meta of another key", func(st *store.Store) {
			st.UpdateMeta("other", func(m *store.ResultMeta) { m.ExpiresAt = 0 })
		}, false},
		{"optimistic write pending", func(st *store.Store) {
			st.AddPending(store.Write{Key: "other", Schema: article, Result: value.Str("3"),
				Meta: schema.Meta{FetchedAt: 20}})
		}, false},
		{"optimistic write queued and dropped", func(st *store.Store) {
			st.RemovePending(st.AddPending(store.Write{Key: "other", Schema: article, Result: value.Str("3"),
				Meta: schema.Meta{FetchedAt: 20}}))
		}, false},
		{"reset", func(st *store.Store) { st.Reset() }, false},
		{"hydrate", func(st *store.Store) {
			require.True(t, st.Hydrate([]store.SnapshotEntity{{Key: "Article", PK: "1", Value: value.MustParse(`{"id":1,"title":"h"}`),
				Meta: schema.Meta{FetchedAt: 20}}}, nil))
		}, false},
		{"sweep that removes", func(st *store.Store) {
			require.Positive(t, st.Sweep(store.SweepPolicy{Now: 1 << 40}, nil).Results)
		}, false},
		{"sweep that removes nothing", func(st *store.Store) {
			require.Zero(t, st.Sweep(store.SweepPolicy{Now: 11}, nil).Results)
		}, true},
		{"adopt of a schemed key", func(st *store.Store) { st.Adopt("list", list) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := store.New()
			storetest.ApplyText(t, st, "list", list, reapplyBody, 10)
			token, ok := st.MayReapply("list", reapplyBody)
			require.True(t, ok)
			tt.change(st)
			// The token taken before the change, as the controller takes
			// it before it locks the store again.
			assert.Equal(t, tt.keeps, st.Reapply("list", token, list, schema.Meta{Date: 30, FetchedAt: 30, ExpiresAt: 60_030}))
			_, ok = st.MayReapply("list", reapplyBody)
			assert.Equal(t, tt.keeps, ok)
		})
	}
	t.Run("the same text applied again", func(t *testing.T) {
		st := store.New()
		storetest.ApplyText(t, st, "list", list, reapplyBody, 10)
		token, ok := st.MayReapply("list", reapplyBody)
		require.True(t, ok)
		storetest.ApplyText(t, st, "list", list, reapplyBody, 20)
		assert.False(t, st.Reapply("list", token, list, schema.Meta{Date: 30, FetchedAt: 30, ExpiresAt: 60_030}),
			"a token of what was remembered before the change")
		again, ok := st.MayReapply("list", reapplyBody)
		require.True(t, ok, "remembered anew")
		assert.True(t, st.Reapply("list", again, list, schema.Meta{Date: 30, FetchedAt: 30, ExpiresAt: 60_030}))
	})
}

// TestReapplyRefuses lists writes whose text is not remembered, since
// storing the text again might not leave the store as it is: the store
// would need to normalize and merge.
func TestReapplyRefuses(t *testing.T) {
	list, article := reapplySchema()
	merging := &schema.Entity{Key: "Article", Merge: schema.ShallowMerge,
		Defaults: value.MustParse(`{"id":null,"title":""}`)}
	tests := []struct {
		name  string
		setup func(st *store.Store) (key, text string, sc schema.Schema)
	}{
		{"an entity twice with different data", func(st *store.Store) (string, string, schema.Schema) {
			body := `[{"id":1,"title":"a"},{"id":1,"title":"b"}]`
			storetest.ApplyText(t, st, "list", list, body, 10)
			return "list", body, list
		}},
		{"a record with more than the text (merged)", func(st *store.Store) (string, string, schema.Schema) {
			storetest.ApplyText(t, st, "one", article, `{"id":1,"title":"a","author":{"id":1,"name":"u"}}`, 10)
			body := `[{"id":1,"title":"a"}]`
			storetest.ApplyText(t, st, "list", list, body, 11)
			return "list", body, list
		}},
		{"an older response than the stored result", func(st *store.Store) (string, string, schema.Schema) {
			storetest.ApplyText(t, st, "list", list, `[]`, 10)
			storetest.ApplyText(t, st, "list", list, reapplyBody, 9)
			return "list", reapplyBody, list
		}},
		{"an entity with a Process hook", func(st *store.Store) (string, string, schema.Schema) {
			processed := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":""}`),
				Process: func(rec, _ value.Value, _ string, _ value.Value) (value.Value, error) { return rec, nil }}
			body := `{"id":1,"title":"a"}`
			storetest.ApplyText(t, st, "one", processed, body, 10)
			return "one", body, processed
		}},
		{"an entity with a Merge hook", func(st *store.Store) (string, string, schema.Schema) {
			body := `{"id":1,"title":"a"}`
			storetest.ApplyText(t, st, "one", merging, body, 10)
			return "one", body, merging
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := store.New()
			key, text, sc := tt.setup(st)
			assert.False(t, reapply(st, key, text, sc, schema.Meta{Date: 30, FetchedAt: 30, ExpiresAt: 60_030}))
		})
	}
}

// reapply is Reapply of text under key when MayReapply finds it.
func reapply(st *store.Store, key, text string, sc schema.Schema, m schema.Meta) bool {
	token, ok := st.MayReapply(key, text)
	return ok && st.Reapply(key, token, sc, m)
}
