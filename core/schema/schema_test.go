package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

func newUser() *schema.Entity {
	return &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
}

func newArticle(user *schema.Entity) *schema.Entity {
	return &schema.Entity{
		Key:      "Article",
		Defaults: value.MustParse(`{"id":null,"title":"","content":"","published":false,"author":null,"tags":[]}`),
		Schema:   map[string]schema.Schema{"author": user, "createdAt": schema.Date},
	}
}

// fill normalizes data into a fresh store and returns it with the result.
func fill(t *testing.T, s schema.Schema, data string) (*store.Store, value.Value) {
	t.Helper()
	st := store.New()
	n, err := schema.Normalize(s, value.MustParse(data))
	require.NoError(t, err)
	st.Apply(&store.Write{Key: "k", Schema: s, Result: n.Result, Entities: n.Entities})
	return st, n.Result
}

func TestNormalizeShapes(t *testing.T) {
	user := newUser()
	article := newArticle(user)
	post := &schema.Entity{Key: "Post", Defaults: value.MustParse(`{"id":null,"title":""}`)}
	union := &schema.Union{Schemas: map[string]schema.Schema{"post": post, "user": user}, Attribute: "type"}
	cases := []struct {
		name     string
		schema   schema.Schema
		in       string
		result   string
		entities map[string]int
	}{
		{"entity", article, `{"id":1,"title":"a","author":{"id":7,"name":"u"}}`, `"1"`, map[string]int{"Article": 1, "User": 1}},
		{"string pk equals number pk", schema.ArrayOf(user), `[{"id":5,"name":"a"},{"id":"5","name":"b"}]`, `["5","5"]`, map[string]int{"User": 1}},
		{"array", schema.ArrayOf(article), `[{"id":1,"author":7},{"id":2,"author":{"id":7}}]`, `["1","2"]`, map[string]int{"Article": 2, "User": 1}},
		{"object with defaults", schema.ObjectOf(schema.Nested("results", schema.ArrayOf(post)), schema.Default("nextPage", value.Str(""))),
			`{"results":[{"id":1}],"nextPage":"p2"}`, `{"results":["1"],"nextPage":"p2"}`, map[string]int{"Post": 1}},
		{"values", schema.ValuesOf(user), `{"a":{"id":1},"b":{"id":2}}`, `{"a":"1","b":"2"}`, map[string]int{"User": 2}},
		{"union", schema.ArrayOf(union), `[{"id":1,"type":"post"},{"id":1,"type":"user"}]`,
			`[{"id":"1","schema":"post"},{"id":"1","schema":"user"}]`, map[string]int{"Post": 1, "User": 1}},
		{"null nested", article, `{"id":1,"author":null}`, `"1"`, map[string]int{"Article": 1}},
		{"invalidate", schema.InvalidateOf(article), `{"id":3}`, `"3"`, map[string]int{"Article": 1}},
		{"nil schema", nil, `{"a":1}`, `{"a":1}`, map[string]int{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, err := schema.Normalize(c.schema, value.MustParse(c.in))
			require.NoError(t, err)
			assert.JSONEq(t, c.result, n.Result.JSON())
			got := map[string]int{}
			seen := map[string]bool{}
			for _, w := range n.Entities {
				if id := w.Entity.Key + ":" + w.PK; !seen[id] {
					seen[id] = true
					got[w.Entity.Key]++
				}
			}
			assert.Equal(t, c.entities, got)
		})
	}
}

func TestNormalizeErrorsNameWhatAndWhere(t *testing.T) {
	user := newUser()
	article := newArticle(user)
	cases := []struct {
		name   string
		schema schema.Schema
		in     string
		want   []string
	}{
		{"missing pk", schema.ArrayOf(article), `[{"id":1},{"title":"x"}]`, []string{"Article", "$[1]", "no primary key", `"id"`}},
		{"nested missing pk", article, `{"id":1,"author":{"name":"x"}}`, []string{"User", "$.author", "no primary key"}},
		{"object pk", article, `{"id":{"a":1}}`, []string{"Article", "primary key", "object"}},
		{"record not object", schema.ArrayOf(article), `[[1]]`, []string{"Article", "$[0]", "array"}},
		{"array expected", schema.ArrayOf(article), `"x"`, []string{"[Article]", "expected an array", "string"}},
		{"bad date", article, `{"id":1,"createdAt":"yesterday"}`, []string{"Date", "$.createdAt", "yesterday"}},
		{"union member without pk", &schema.Union{Schemas: map[string]schema.Schema{"user": user}, Attribute: "type"},
			`{"type":"user"}`, []string{"User", "no primary key"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := schema.Normalize(c.schema, value.MustParse(c.in))
			require.Error(t, err)
			var se *schema.Error
			require.ErrorAs(t, err, &se)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestDenormalizeFillsDefaultsAndDates(t *testing.T) {
	user := newUser()
	article := newArticle(user)
	st, res := fill(t, schema.ArrayOf(article),
		`[{"id":1,"title":"a","author":{"id":7},"extra":true,"createdAt":"2024-01-02T03:04:05Z"},{"id":2,"author":99,"createdAt":1700000000000}]`)
	v, status := schema.Denormalize(schema.ArrayOf(article), res, st, nil, st.Version())
	assert.Equal(t, schema.Found, status)
	// Missing nested entity (99) reads undefined, which JSON leaves out;
	// unknown fields are kept; dates are epoch ms.
	assert.JSONEq(t, `[
		{"id":1,"title":"a","content":"","published":false,"author":{"id":7,"name":""},"tags":[],"extra":true,"createdAt":1704164645000},
		{"id":2,"title":"","content":"","published":false,"tags":[],"createdAt":1700000000000}]`, v.JSON())
	assert.True(t, v.Elems()[1].Get("author").IsUndefined())
}

func TestDenormalizeDropsDeletedListMembers(t *testing.T) {
	user := newUser()
	st, res := fill(t, schema.ArrayOf(user), `[{"id":1},{"id":2},{"id":3}]`)
	n, err := schema.Normalize(schema.InvalidateOf(user), value.MustParse(`{"id":2}`))
	require.NoError(t, err)
	st.Apply(&store.Write{Entities: n.Entities})
	v, _ := schema.Denormalize(schema.ArrayOf(user), res, st, nil, st.Version())
	assert.JSONEq(t, `[{"id":1,"name":""},{"id":3,"name":""}]`, v.JSON())

	// A single read of a deleted entity must fetch again.
	_, status := schema.Denormalize(user, value.Str("2"), st, nil, st.Version())
	assert.Equal(t, schema.Deleted, status)
	_, status = schema.Denormalize(user, value.Str("42"), st, nil, st.Version())
	assert.Equal(t, schema.Missing, status)
}

// A deleted nested entity, as data-client reads it: where the member is
// required (a truthy default, as a nested entity's default instance) the
// whole record is deleted (a list leaves it out, a single read fetches
// again); where it is optional (null, or no default) the member reads as
// undefined and the record stands.
func TestDenormalizeDeletedNestedEntity(t *testing.T) {
	user := newUser()
	for _, c := range []struct {
		name, defaults string
		required       bool
	}{
		{"default instance", `{"id":null,"author":{"id":null,"name":""}}`, true},
		{"default true", `{"id":null,"author":true}`, true},
		{"default string", `{"id":null,"author":"x"}`, true},
		{"default empty array", `{"id":null,"author":[]}`, true},
		{"default null", `{"id":null,"author":null}`, false},
		{"default empty string", `{"id":null,"author":""}`, false},
		{"default 0", `{"id":null,"author":0}`, false},
		{"no default", `{"id":null}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			post := &schema.Entity{Key: "Post", Defaults: value.MustParse(c.defaults), Schema: map[string]schema.Schema{"author": user}}
			st, res := fill(t, schema.ArrayOf(post), `[{"id":1,"author":{"id":7}},{"id":2,"author":{"id":8}}]`)
			n, err := schema.Normalize(schema.InvalidateOf(user), value.MustParse(`{"id":7}`))
			require.NoError(t, err)
			st.Apply(&store.Write{Entities: n.Entities})

			list, status := schema.Denormalize(schema.ArrayOf(post), res, st, nil, st.Version())
			assert.Equal(t, schema.Found, status, "a list stands")
			one, oneStatus := schema.Denormalize(post, value.Int(1), st, nil, st.Version())
			_, wrappedStatus := schema.Denormalize(schema.ObjectOf(schema.Field{Name: "post", Schema: post}), value.MustParse(`{"post":1}`), st, nil, st.Version())
			if c.required {
				assert.Equal(t, 1, list.Len(), "the post whose required author is gone is left out: %s", list.JSON())
				assert.Equal(t, schema.Deleted, oneStatus)
				assert.Equal(t, schema.Deleted, wrappedStatus, "an object holding it is gone too")
				return
			}
			require.Equal(t, 2, list.Len(), list.JSON())
			assert.True(t, list.Elems()[0].Get("author").IsUndefined(), "the optional author reads as undefined")
			assert.Equal(t, "8", list.Elems()[1].Get("author").Get("id").JSON())
			assert.Equal(t, schema.Found, oneStatus)
			assert.True(t, one.Get("author").IsUndefined())
			assert.Equal(t, schema.Found, wrappedStatus)
		})
	}
}

func TestDenormalizeCyclesTerminate(t *testing.T) {
	person := &schema.Entity{Key: "Person", Defaults: value.MustParse(`{"id":null,"friend":null}`)}
	person.Schema = map[string]schema.Schema{"friend": person}
	st, res := fill(t, person, `{"id":1,"friend":{"id":2,"friend":{"id":1}}}`)
	v, status := schema.Denormalize(person, res, st, nil, st.Version())
	assert.Equal(t, schema.Found, status)
	assert.JSONEq(t, `{"id":1,"friend":{"id":2,"friend":{"id":1,"friend":"2"}}}`, v.JSON())
}

func TestMemoIdentity(t *testing.T) {
	user := newUser()
	article := newArticle(user)
	list := schema.ArrayOf(article)
	st, res := fill(t, list, `[{"id":1,"author":{"id":7}},{"id":2,"author":{"id":8}},{"id":3,"author":{"id":7}}]`)
	var memo schema.Memo
	first, _ := schema.Denormalize(list, res, st, &memo, st.Version())
	again, _ := schema.Denormalize(list, res, st, &memo, st.Version())
	assert.True(t, value.Same(first, again), "unchanged re-read is the identical value")

	// Change article 2's author (user 8): only article 2 is rebuilt.
	n, err := schema.Normalize(user, value.MustParse(`{"id":8,"name":"new"}`))
	require.NoError(t, err)
	st.Apply(&store.Write{Entities: n.Entities, Meta: schema.Meta{FetchedAt: 1}})
	after, _ := schema.Denormalize(list, res, st, &memo, st.Version())
	require.False(t, value.Same(first, after))
	assert.True(t, value.Same(first.Elems()[0], after.Elems()[0]), "article 1 untouched")
	assert.False(t, value.Same(first.Elems()[1], after.Elems()[1]), "article 2 rebuilt")
	assert.True(t, value.Same(first.Elems()[2], after.Elems()[2]), "article 3 untouched")
	assert.Equal(t, "new", after.Elems()[1].Get("author").Get("name").Str())

	// Storing an equal record is no change.
	n, err = schema.Normalize(user, value.MustParse(`{"id":8,"name":"new"}`))
	require.NoError(t, err)
	v := st.Version()
	st.Apply(&store.Write{Entities: n.Entities, Meta: schema.Meta{FetchedAt: 2}})
	assert.Equal(t, v, st.Version())
	same, _ := schema.Denormalize(list, res, st, &memo, st.Version())
	assert.True(t, value.Same(after, same))
}

func TestResolveOrdering(t *testing.T) {
	count := &schema.Entity{Key: "Count", Defaults: value.MustParse(`{"count":0,"updatedAt":0}`),
		PKFunc: func(value.Value, value.Value, string, value.Value) (string, bool, error) {
			return "SINGLETON", true, nil
		},
		Schema: map[string]schema.Schema{"updatedAt": schema.Date},
		UseIncoming: func(em, im schema.Meta, existing, incoming value.Value) bool {
			e, _ := existing.Get("updatedAt").Float()
			i, _ := incoming.Get("updatedAt").Float()
			return e <= i
		},
	}
	newer := value.MustParse(`{"count":5,"updatedAt":2000}`)
	older := value.MustParse(`{"count":4,"updatedAt":1000}`)
	merged, _, keep := count.Resolve(newer, schema.Meta{FetchedAt: 1}, true, older, schema.Meta{FetchedAt: 2})
	assert.True(t, keep)
	assert.True(t, value.Same(newer, merged))

	// Default: a response to an older request never overwrites newer fields.
	plain := newUser()
	merged, meta, _ := plain.Resolve(value.MustParse(`{"id":1,"name":"new"}`), schema.Meta{FetchedAt: 20}, true,
		value.MustParse(`{"id":1,"name":"old","extra":1}`), schema.Meta{FetchedAt: 10})
	assert.JSONEq(t, `{"id":1,"name":"new","extra":1}`, merged.JSON())
	assert.EqualValues(t, 20, meta.FetchedAt)
}

func TestEntityValidate(t *testing.T) {
	assert.ErrorContains(t, (&schema.Entity{Defaults: value.Obj()}).Validate(), "no key")
	assert.ErrorContains(t, (&schema.Entity{Key: "A"}).Validate(), "defaults")
	assert.NoError(t, newUser().Validate())
}

func TestMergedCombinesRepeatedRecords(t *testing.T) {
	a := &schema.Entity{Key: "A", Defaults: value.MustParse(`{"id":null}`)}
	n, err := schema.Normalize(schema.ArrayOf(a), value.MustParse(`[{"id":"1","title":"f"},{"id":"2"},{"id":"1","x":2}]`))
	require.NoError(t, err)
	m := n.Merged()
	require.Len(t, m, 2)
	assert.Equal(t, "1", m[0].PK)
	assert.JSONEq(t, `{"id":"1","title":"f","x":2}`, m[0].Value.JSON())
}

func TestCheck(t *testing.T) {
	good := newArticle(newUser())
	cases := []struct {
		name string
		s    schema.Schema
		want string
	}{
		{"valid", schema.ObjectOf(schema.Nested("results", schema.ArrayOf(good))), ""},
		{"entity without key", schema.ArrayOf(&schema.Entity{Defaults: value.Obj()}), "no key"},
		{"nested entity without defaults", &schema.Entity{Key: "A", Defaults: value.Obj(),
			Schema: map[string]schema.Schema{"b": &schema.Entity{Key: "B"}}}, "field b: entity B: defaults"},
		{"empty union", &schema.Union{Attribute: "type"}, "no schemas"},
		{"nil", nil, "nil"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := schema.Check(c.s)
			if c.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, c.want)
		})
	}
}

// A delete answered with no record deleted what its params name; inside
// a larger response an empty member is still an error.
func TestInvalidateFallsBackToParams(t *testing.T) {
	user := newUser()
	params := value.MustParse(`{"id":5}`)
	for _, body := range []string{`null`, `{}`} {
		n, err := schema.NormalizeArgs(schema.InvalidateOf(user), value.MustParse(body), schema.Args{Params: params})
		require.NoError(t, err, body)
		require.Len(t, n.Entities, 1)
		assert.Equal(t, "5", n.Entities[0].PK)
		assert.True(t, n.Entities[0].Deleted)
	}
	n, err := schema.NormalizeArgs(schema.InvalidateOf(user), value.Undef, schema.Args{Params: params})
	require.NoError(t, err, "an empty body")
	assert.Equal(t, "5", n.Entities[0].PK)
	// A record in the body wins.
	n, err = schema.NormalizeArgs(schema.InvalidateOf(user), value.MustParse(`{"id":6}`), schema.Args{Params: params})
	require.NoError(t, err)
	assert.Equal(t, "6", n.Entities[0].PK)
	// No params, or a member of a list: an error as before.
	_, err = schema.NormalizeArgs(schema.InvalidateOf(user), value.NullV, schema.Args{})
	assert.ErrorContains(t, err, "expected a record or a primary key, got null")
	_, err = schema.NormalizeArgs(schema.ArrayOf(schema.InvalidateOf(user)), value.MustParse(`[null]`), schema.Args{Params: params})
	assert.ErrorContains(t, err, "expected a record or a primary key, got null")
}

// An entity whose Process returns undefined is invalidated (deleted) under
// the raw record's key, as in data-client; what held it reads without it.
func TestProcessReturningUndefinedInvalidates(t *testing.T) {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`),
		Process: func(rec, _ value.Value, _ string, _ value.Value) (value.Value, error) {
			if rec.Get("gone").Boolean() {
				return value.Undef, nil
			}
			return rec, nil
		}}
	n, err := schema.Normalize(schema.ArrayOf(user), value.MustParse(`[{"id":1,"name":"a"},{"id":2,"gone":true}]`))
	require.NoError(t, err)
	require.Len(t, n.Entities, 2)
	assert.False(t, n.Entities[0].Deleted)
	assert.Equal(t, "2", n.Entities[1].PK)
	assert.True(t, n.Entities[1].Deleted)

	st, res := fill(t, schema.ArrayOf(user), `[{"id":1,"name":"a"},{"id":2,"gone":true}]`)
	v, _ := schema.Denormalize(schema.ArrayOf(user), res, st, nil, st.Version())
	assert.JSONEq(t, `[{"id":1,"name":"a"}]`, v.JSON())

	_, err = schema.Normalize(user, value.MustParse(`{"gone":true}`))
	assert.ErrorContains(t, err, "process returned undefined for a record without a primary key")
}

// Process returning undefined for input that is not an object (a price
// level sent as [price, amount]) deletes under the key pk reads from the
// raw input; a list's member without one is left out, nothing stored
// (data-client's process.test, "nested entity invalidated when process
// returns undefined").
func TestProcessReturningUndefinedForAListMember(t *testing.T) {
	level := &schema.Entity{
		Key:      "PriceLevel",
		Defaults: value.MustParse(`{"price":0,"amount":0}`),
		PKFunc: func(rec, _ value.Value, _ string, _ value.Value) (string, bool, error) {
			if p := rec.Get("price"); !p.IsUndefined() {
				s, _ := p.Text()
				return s, true, nil
			}
			return "", false, nil
		},
		Process: func(rec, _ value.Value, _ string, _ value.Value) (value.Value, error) {
			if rec.Kind() != value.Array {
				return rec, nil
			}
			el := rec.Elems()
			if a, _ := el[1].Float(); a == 0 {
				return value.Undef, nil
			}
			return value.Obj(value.M("price", el[0]), value.M("amount", el[1])), nil
		},
	}
	book := &schema.Entity{
		Key:      "OrderBook",
		Defaults: value.MustParse(`{"id":null,"bids":[]}`),
		Schema:   map[string]schema.Schema{"bids": schema.ArrayOf(level)},
	}
	n, err := schema.Normalize(book, value.MustParse(`{"id":"ob1","bids":[[100,5],[200,0],[300,10]]}`))
	require.NoError(t, err)
	var pks []string
	for _, w := range n.Entities {
		if w.Entity == level {
			pks = append(pks, w.PK)
			assert.False(t, w.Deleted)
		}
	}
	assert.Equal(t, []string{"100", "300"}, pks, "the member process dropped is not stored")
	_, err = schema.Normalize(level, value.MustParse(`[200,0]`))
	assert.ErrorContains(t, err, "process returned undefined for a record without a primary key", "at the top it is an error as before")
}

// Shapes data-client reads without an error: a union value no member takes
// is kept as it is; a list given as an object is its values; null and
// booleans in a list of entities are kept.
func TestNormalizeLikeDataClient(t *testing.T) {
	user := newUser()
	union := &schema.Union{Schemas: map[string]schema.Schema{"user": user}, Attribute: "type"}
	for _, c := range []struct {
		name   string
		schema schema.Schema
		in     string
		want   string
	}{
		{"union unknown type", union, `{"id":1,"type":"dog"}`, `{"id":1,"type":"dog"}`},
		{"union no attribute", union, `{"id":1}`, `{"id":1}`},
		{"union in a list", schema.ArrayOf(union), `[{"id":1,"type":"user"},{"id":2,"type":"dog"}]`, `[{"id":1,"name":"","type":"user"},{"id":2,"type":"dog"}]`},
		{"list given as an object", schema.ArrayOf(user), `{"a":{"id":1},"b":{"id":2}}`, `[{"id":1,"name":""},{"id":2,"name":""}]`},
		{"null and booleans in a list", schema.ArrayOf(user), `[{"id":1},null,true,false]`, `[{"id":1,"name":""},null,true,false]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, res := fill(t, c.schema, c.in)
			v, status := schema.Denormalize(c.schema, res, st, nil, st.Version())
			assert.Equal(t, schema.Found, status)
			assert.JSONEq(t, c.want, v.JSON())
		})
	}
}

// The members of a list see the list's parent and key, as data-client's
// ArraySchema passes them: an entity in Post.comments gets the (processed)
// Post and "comments"; a list at the top is its members' parent, as
// data-client's normalize passes the input itself there. A Values map is
// its members' parent, each under its own key.
func TestListMembersSeeTheListsParentAndKey(t *testing.T) {
	type seen struct{ parent, key string }
	var got []seen
	comment := &schema.Entity{
		Key:      "Comment",
		Defaults: value.MustParse(`{"id":null}`),
		Process: func(rec, parent value.Value, key string, _ value.Value) (value.Value, error) {
			got = append(got, seen{parent.JSON(), key})
			return rec, nil
		},
	}
	post := &schema.Entity{
		Key:      "Post",
		Defaults: value.MustParse(`{"id":null,"comments":[]}`),
		Schema:   map[string]schema.Schema{"comments": schema.ArrayOf(comment)},
	}
	tests := []struct {
		name   string
		schema schema.Schema
		data   string
		want   []seen
	}{
		{"in an entity's field", post, `{"id":"p1","comments":[{"id":1},{"id":2}]}`, []seen{
			{`{"id":"p1","comments":[{"id":1},{"id":2}]}`, "comments"},
			{`{"id":"p1","comments":[{"id":1},{"id":2}]}`, "comments"},
		}},
		{"at the top", schema.ArrayOf(comment), `[{"id":1}]`, []seen{{`[{"id":1}]`, ""}}},
		{"a list of lists", schema.ObjectOf(schema.Field{Name: "pages", Schema: schema.ArrayOf(schema.ArrayOf(comment))}), `{"pages":[[{"id":1}]]}`, []seen{
			{`{"pages":[[{"id":1}]]}`, "pages"},
		}},
		{"in a Values map", schema.ValuesOf(comment), `{"a":{"id":1}}`, []seen{{`{"a":{"id":1}}`, "a"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got = nil
			_, err := schema.Normalize(tc.schema, value.MustParse(tc.data))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// A record given inline where an entity's key is expected (data that was
// never normalized, as data-client's denormalize of collection.unshift's
// input) reads with the entity's defaults for the fields it lacks.
func TestInlineRecordReadsWithDefaults(t *testing.T) {
	user := newUser()
	st := store.New()
	v, status := schema.Denormalize(schema.ArrayOf(user), value.MustParse(`[{"id":"2"}]`), st, nil, st.Version())
	assert.Equal(t, schema.Found, status)
	assert.JSONEq(t, `[{"id":"2","name":""}]`, v.JSON())
}

// At the top, the data is its own parent, as data-client's normalize
// passes it: an entity's pk may read the record through parent.
func TestTopLevelParentIsTheData(t *testing.T) {
	var parents []string
	rec := &schema.Entity{
		Key:      "Recommendations",
		Defaults: value.MustParse(`{}`),
		PKFunc: func(_, parent value.Value, _ string, _ value.Value) (string, bool, error) {
			parents = append(parents, parent.JSON())
			return parent.Get("user").Get("id").Str(), true, nil
		},
	}
	n, err := schema.Normalize(rec, value.MustParse(`{"user":{"id":"456"}}`))
	require.NoError(t, err)
	assert.Equal(t, "456", n.Result.Str())
	assert.Equal(t, []string{`{"user":{"id":"456"}}`}, parents)
}

// A Values map leaves out members that are null or undefined when it
// normalizes, as data-client's does.
func TestValuesLeavesOutNullMembers(t *testing.T) {
	n, err := schema.Normalize(schema.ValuesOf(newUser()), value.MustParse(`{"a":{"id":1},"b":null}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"a":"1"}`, n.Result.JSON())
}

// TestElementWise lists the schemas whose lists may be stored element by
// element: a list of one entity, whose keys a PKFunc computes only when
// it ignores the parent (the whole list, for an element's record).
func TestElementWise(t *testing.T) {
	pk := func(rec, _ value.Value, _ string, _ value.Value) (string, bool, error) {
		return rec.Get("id").JSON(), true, nil
	}
	plain := newUser()
	computed := &schema.Entity{Key: "C", PKFunc: pk}
	parentFree := &schema.Entity{Key: "P", PKFunc: pk, PKIgnoresParent: true}
	list := schema.ArrayOf(plain)
	collection := &schema.Collection{Of: list}
	tests := []struct {
		name  string
		s     schema.Schema
		list  *schema.Array
		item  *schema.Entity
		table bool
		field string
	}{
		{"a list of an entity", list, list, plain, false, ""},
		{"a Collection of a list of an entity", collection, list, plain, true, ""},
		{"an object holding a list", schema.ObjectOf(schema.Nested("results", list), schema.Default("next", value.Str(""))), list, plain, false, "results"},
		{"an object holding a Collection", schema.ObjectOf(schema.Nested("results", collection)), list, plain, true, "results"},
		{"an object holding two lists", schema.ObjectOf(schema.Nested("a", list), schema.Nested("b", list)), nil, nil, false, ""},
		{"an object holding an entity too", schema.ObjectOf(schema.Nested("a", list), schema.Nested("b", plain)), nil, nil, false, ""},
		{"an object in an object", schema.ObjectOf(schema.Nested("a", schema.ObjectOf(schema.Nested("b", list)))), nil, nil, false, ""},
		{"keys from a PKFunc that may read the parent", schema.ArrayOf(computed), nil, nil, false, ""},
		{"a Collection of those", &schema.Collection{Of: schema.ArrayOf(computed)}, nil, nil, false, ""},
		{"keys from a PKFunc that ignores the parent", schema.ArrayOf(parentFree), nil, parentFree, false, ""},
		{"an entity", plain, nil, nil, false, ""},
		{"a list of lists", schema.ArrayOf(list), nil, nil, false, ""},
		{"a map of entities", &schema.Values{Of: plain}, nil, nil, false, ""},
		{"a Collection of a map", &schema.Collection{Of: &schema.Values{Of: plain}}, nil, nil, false, ""},
		{"no schema", nil, nil, nil, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shape, ok := schema.ElementWise(tt.s)
			assert.Equal(t, tt.item != nil, ok)
			if tt.list != nil {
				assert.Same(t, tt.list, shape.List)
			}
			assert.Same(t, tt.item, shape.Item)
			assert.Equal(t, tt.table, shape.Table != nil, "a table")
			assert.Equal(t, tt.field, shape.Field)
		})
	}
}
