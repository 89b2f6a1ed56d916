package store_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
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
	storetest.ApplyText(t, fast, "list", list, reapplyBody, 10, value.Undef)
	storetest.ApplyText(t, slow, "list", list, reapplyBody, 10, value.Undef)

	older := schema.Meta{Date: 12, FetchedAt: 5, ExpiresAt: 60_012}
	require.True(t, reapply(fast, "list", reapplyBody, list, older))
	storetest.ApplyText(t, slow, "list", list, reapplyBody, 5, value.Undef)
	assert.Equal(t, slow.State().JSON(), fast.State().JSON())
	assert.Equal(t, slow.Snapshot().JSON(), fast.Snapshot().JSON())
}

// TestReapplyForgets lists what makes a store forget the text it could
// store again: every change to its data. A change that changes nothing
// (an Adopt of a key with its schema, a sweep that removes nothing), or
// only a result's meta, keeps it.
func TestReapplyForgets(t *testing.T) {
	list, article := reapplySchema()
	tests := []struct {
		name   string
		change func(st *store.Store)
		keeps  bool
	}{
		{"nothing", func(*store.Store) {}, true},
		{"apply of other text under the key", func(st *store.Store) {
			storetest.ApplyText(t, st, "list", list, `[]`, 20, value.Undef)
		}, false},
		{"apply under another key", func(st *store.Store) {
			storetest.ApplyText(t, st, "other", article, `{"id":3,"title":"c"}`, 20, value.Undef)
		}, false},
		{"apply without text", func(st *store.Store) {
			storetest.Apply(t, st, "other", article, []byte(`{"id":3,"title":"c"}`), 20)
		}, false},
		{"meta (invalidate, error, expire)", func(st *store.Store) {
			st.UpdateMeta("list", func(m *store.ResultMeta) { m.Invalidated = true })
		}, true},
		{"meta of another key", func(st *store.Store) {
			st.UpdateMeta("other", func(m *store.ResultMeta) { m.ExpiresAt = 0 })
		}, true},
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
			storetest.ApplyText(t, st, "list", list, reapplyBody, 10, value.Undef)
			token, ok := st.MayReapply("list", reapplyBody, value.Undef)
			require.True(t, ok)
			tt.change(st)
			// The token taken before the change, as the controller takes
			// it before it locks the store again.
			assert.Equal(t, tt.keeps, st.Reapply("list", token, list, schema.Meta{Date: 30, FetchedAt: 30, ExpiresAt: 60_030}))
			_, ok = st.MayReapply("list", reapplyBody, value.Undef)
			assert.Equal(t, tt.keeps, ok)
		})
	}
	t.Run("the same text applied again", func(t *testing.T) {
		st := store.New()
		storetest.ApplyText(t, st, "list", list, reapplyBody, 10, value.Undef)
		token, ok := st.MayReapply("list", reapplyBody, value.Undef)
		require.True(t, ok)
		storetest.ApplyText(t, st, "list", list, reapplyBody, 20, value.Undef)
		assert.False(t, st.Reapply("list", token, list, schema.Meta{Date: 30, FetchedAt: 30, ExpiresAt: 60_030}),
			"a token of what was remembered before the change")
		again, ok := st.MayReapply("list", reapplyBody, value.Undef)
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
			storetest.ApplyText(t, st, "list", list, body, 10, value.Undef)
			return "list", body, list
		}},
		{"a record with more than the text (merged)", func(st *store.Store) (string, string, schema.Schema) {
			storetest.ApplyText(t, st, "one", article, `{"id":1,"title":"a","author":{"id":1,"name":"u"}}`, 10, value.Undef)
			body := `[{"id":1,"title":"a"}]`
			storetest.ApplyText(t, st, "list", list, body, 11, value.Undef)
			return "list", body, list
		}},
		{"an older response than the stored result", func(st *store.Store) (string, string, schema.Schema) {
			storetest.ApplyText(t, st, "list", list, `[]`, 10, value.Undef)
			storetest.ApplyText(t, st, "list", list, reapplyBody, 9, value.Undef)
			return "list", reapplyBody, list
		}},
		{"an entity with a Process hook", func(st *store.Store) (string, string, schema.Schema) {
			processed := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":""}`),
				Process: func(rec, _ value.Value, _ string, _ value.Value) (value.Value, error) { return rec, nil }}
			body := `{"id":1,"title":"a"}`
			storetest.ApplyText(t, st, "one", processed, body, 10, value.Undef)
			return "one", body, processed
		}},
		{"an entity with a Merge hook", func(st *store.Store) (string, string, schema.Schema) {
			body := `{"id":1,"title":"a"}`
			storetest.ApplyText(t, st, "one", merging, body, 10, value.Undef)
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
	return reapplyArgs(st, key, text, sc, m, value.Undef)
}

// reapplyArgs is reapply for a request with params.
func reapplyArgs(st *store.Store, key, text string, sc schema.Schema, m schema.Meta, params value.Value) bool {
	token, ok := st.MayReapply(key, text, params)
	return ok && st.Reapply(key, token, sc, m)
}

// TestReapplyElemDifferential runs reapplyElemSteps from 40 seeds.
func TestReapplyElemDifferential(t *testing.T) {
	for shape := range listShapes {
		elems := 0
		for seed := range uint64(40) {
			elems += reapplyElemSteps(t, seed, 60, shape)
		}
		assert.Positive(t, elems, "some lists were stored with a run normalized alone (%s)", listShapeNames[shape])
		t.Logf("%s: %d of %d stored with a run normalized alone", listShapeNames[shape], elems, 40*60)
	}
}

// FuzzReapplyElem runs reapplyElemSteps from the seeds the fuzzer makes.
func FuzzReapplyElem(f *testing.F) {
	for shape := range listShapes {
		f.Add(uint64(shape), uint8(60), uint8(shape))
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps, shape uint8) {
		reapplyElemSteps(t, seed, int(steps), int(shape)%listShapes)
	})
}

// The shapes of response reapplyElemSteps stores its lists in: the list,
// a Collection of it, an object holding it with another member, and an
// object holding a Collection of it.
const listShapes = 4

var listShapeNames = [listShapes]string{"list", "Collection", "object", "object of a Collection"}

// reapplyElemSteps stores a random sequence (from seed) of steps lists,
// each the last with one element or two near each other edited most often
// (its title, its author's name, another author, a bare key for the
// author, spaces, its key), in two stores: one as the controller does (Reapply of the same
// text, ReapplyElem of one changed element, else Apply), one applying
// every list whole. Authors are shared between articles, so that records
// repeat across elements. The states and snapshots, metas included, must
// agree after every step. It returns how many lists ReapplyElem stored.
// shape is one of listShapes.
func reapplyElemSteps(t *testing.T, seed uint64, steps, shape int) (elems int) {
	t.Helper()
	var list schema.Schema
	list, _ = reapplySchema()
	if shape == 1 || shape == 3 {
		list = &schema.Collection{Of: list}
	}
	if shape >= 2 {
		list = schema.ObjectOf(schema.Nested("results", list), schema.Default("next", value.Str("")))
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	fast, slow := store.New(), store.New()
	type article struct {
		id, title, author, name string
		bare, spaced            bool
	}
	names := []string{"u", "v", "a longer name", "ü"}
	random := func() article {
		u := rng.IntN(4)
		return article{id: fmt.Sprint(1 + rng.IntN(12)), title: strings.Repeat("t", rng.IntN(5)),
			author: fmt.Sprint(u), name: names[u]}
	}
	var arts []article
	for range 1 + rng.IntN(16) {
		arts = append(arts, random())
	}
	text := func() string {
		var b strings.Builder
		b.WriteString("[")
		for i, a := range arts {
			if i > 0 {
				b.WriteString(",")
			}
			sp := ""
			if a.spaced {
				sp = " "
			}
			author := fmt.Sprintf(`{"id":%s,"name":%q}`, a.author, a.name)
			if a.bare {
				author = a.author
			}
			fmt.Fprintf(&b, `{"id":%s,%s"title":%q,"author":%s}`, a.id, sp, a.title, author)
		}
		b.WriteString("]")
		if shape >= 2 {
			return `{"results":` + b.String() + `,"next":"page 2"}`
		}
		return b.String()
	}
	at := int64(10)
	params := value.Obj(value.M("page", value.Int(0)))
	var log []string
	for step := range steps {
		// One element edited, or two near each other (a run).
		i := rng.IntN(len(arts))
		for edit := range 1 + rng.IntN(2) {
			i = min(len(arts)-1, i+edit*rng.IntN(3))
			switch rng.IntN(8) {
			case 0:
				arts[i].title = strings.Repeat("x", rng.IntN(7))
			case 1:
				arts[i].name = names[rng.IntN(len(names))] + "!"
			case 2:
				u := rng.IntN(4)
				arts[i].author, arts[i].name = fmt.Sprint(u), names[u]
			case 3:
				arts[i].bare = !arts[i].bare
			case 4:
				arts[i].spaced = !arts[i].spaced
			case 5:
				arts[i].id = fmt.Sprint(1 + rng.IntN(12))
			case 6:
				arts[i] = random()
			default: // the same text again
			}
		}
		body := text()
		at += int64(rng.IntN(2))
		how := "apply"
		if rng.IntN(6) == 0 {
			// Other params under the same key: a Collection's key reads
			// them.
			params = value.Obj(value.M("page", value.Int(int64(rng.IntN(2)))))
		}
		switch {
		case reapplyArgs(fast, "list", body, list, storetest.Meta(at), params):
			how = "reapply"
		case storetest.ReapplyElem(t, fast, "list", list, body, at, params):
			how = "elem"
			elems++
		default:
			storetest.ApplyText(t, fast, "list", list, body, at, params)
		}
		storetest.ApplyText(t, slow, "list", list, body, at, params)
		log = append(log, how+" "+params.JSON()+" "+body)
		require.Equal(t, slow.State().JSON(), fast.State().JSON(), "seed %d step %d: %s", seed, step, strings.Join(log, "\n"))
		require.Equal(t, slow.Snapshot().JSON(), fast.Snapshot().JSON(), "seed %d step %d", seed, step)
	}
	return elems
}

// TestReapplyElemNested stores lists whose records nest records of their
// own entity (an article's related article), each the last with one
// element changed, as TestReapplyElemDifferential does: the elements are
// the list's own, not the records nested in them.
func TestReapplyElemNested(t *testing.T) {
	article := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":"","related":null}`)}
	article.Schema = map[string]schema.Schema{"related": article}
	list := schema.ArrayOf(article)
	bodies := []string{
		`[{"id":1,"title":"a","related":{"id":2,"title":"b"}},{"id":3,"title":"c"}]`,
		`[{"id":1,"title":"a","related":{"id":2,"title":"b"}},{"id":3,"title":"c2"}]`,
		`[{"id":1,"title":"a","related":{"id":2,"title":"b2"}},{"id":3,"title":"c2"}]`,
		`[{"id":1,"title":"a2","related":{"id":2,"title":"b2"}},{"id":3,"title":"c2"}]`,
		`[{"id":1,"title":"a2","related":{"id":3,"title":"c3"}},{"id":3,"title":"c2"}]`,
		`[{"id":1,"title":"a2","related":{"id":3,"title":"c2"}},{"id":3,"title":"c2"}]`,
		`[{"id":1,"title":"a2","related":{"id":3,"title":"c2"}},{"id":3,"title":"c4"}]`,
	}
	fast, slow := store.New(), store.New()
	var hows []string
	for i, body := range bodies {
		at := int64(10 + i)
		how := "apply"
		if i > 0 && storetest.ReapplyElem(t, fast, "list", list, body, at, value.Undef) {
			how = "elem"
		} else {
			storetest.ApplyText(t, fast, "list", list, body, at, value.Undef)
		}
		storetest.ApplyText(t, slow, "list", list, body, at, value.Undef)
		hows = append(hows, how)
		require.Equal(t, slow.State().JSON(), fast.State().JSON(), "step %d", i)
	}
	// The listed article, its related one, or both change alone. An
	// article nested in one element that the other lists changes only
	// whole (the order of the two decides); once the two are the same
	// text, the list's own record is written once, for both, and its
	// elements can no longer be told apart.
	assert.Equal(t, []string{"apply", "elem", "elem", "elem", "apply", "apply", "apply"}, hows)
}
