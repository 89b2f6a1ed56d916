package schema_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// Lazy (data-client's schema.Lazy, issue 22): a relationship normalized by
// its inner schema and read as its stored form (pks), resolved on demand
// by its query.

func newBuilding() *schema.Entity {
	return &schema.Entity{Key: "Building", Defaults: value.MustParse(`{"id":"","name":"","floors":1}`)}
}

// department returns a Department whose buildings field is Lazy(of) and
// whose manager field is an eager User.
func department(of schema.Schema) *schema.Entity {
	return &schema.Entity{Key: "Department", Defaults: value.MustParse(`{"id":"","name":"","buildings":null,"manager":null}`),
		Schema: map[string]schema.Schema{"buildings": schema.LazyOf(of), "manager": newUser()}}
}

// TestLazyRoundTrip normalizes a department through its Lazy field (the
// buildings are stored, the field keeps their normalized form) and reads
// it back: the field is that form as it is, the eager field resolved.
func TestLazyRoundTrip(t *testing.T) {
	building := newBuilding()
	union := &schema.Union{Schemas: map[string]schema.Schema{"building": building, "user": newUser()}, Attribute: "type"}
	for _, c := range []struct {
		name      string
		of        schema.Schema
		in        string // the buildings field of the response
		stored    string // the field as normalized, and as read
		buildings int    // Building records stored
	}{
		{"entity", building, `{"id":"b1","name":"HQ","floors":10}`, `"b1"`, 1},
		{"list", schema.ArrayOf(building), `[{"id":"b1","name":"A"},{"id":"b2","name":"B"}]`, `["b1","b2"]`, 2},
		{"empty list", schema.ArrayOf(building), `[]`, `[]`, 0},
		{"list of pks", schema.ArrayOf(building), `["b1",2]`, `["b1","2"]`, 0},
		{"values", schema.ValuesOf(building), `{"north":{"id":"b1"},"south":{"id":"b2"}}`, `{"north":"b1","south":"b2"}`, 2},
		{"union", schema.ArrayOf(union), `[{"id":"b1","type":"building"},{"id":"7","type":"user"}]`,
			`[{"id":"b1","schema":"building"},{"id":"7","schema":"user"}]`, 1},
		{"null", schema.ArrayOf(building), `null`, `null`, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			dept := department(c.of)
			st, res := fill(t, dept, `{"id":"d1","name":"Eng","manager":{"id":"m1","name":"Alice"},"buildings":`+c.in+`}`)
			assert.Equal(t, `"d1"`, res.JSON())
			assert.JSONEq(t, c.stored, st.Slot("Department", "d1").Value.Get("buildings").JSON(), "the field keeps the normalized form")
			assert.Equal(t, c.buildings, stored(st, "Building"), "the inner schema's entities are stored")

			read, status := schema.Denormalize(dept, res, st, nil, st.Version())
			require.Equal(t, schema.Found, status)
			assert.JSONEq(t, c.stored, read.Get("buildings").JSON(), "a read leaves the field as stored")
			assert.JSONEq(t, `{"id":"m1","name":"Alice"}`, read.Get("manager").JSON(), "an eager field is resolved")
		})
	}
}

// TestLazyReadDependsOnNoLazyEntity: a change to an entity a Lazy field
// names keeps the parent's read (the identical value), and is seen by a
// read of the Lazy's query; a change to an eager field's entity is not
// kept out.
func TestLazyReadDependsOnNoLazyEntity(t *testing.T) {
	building := newBuilding()
	dept := department(schema.ArrayOf(building))
	st, res := fill(t, dept, `{"id":"d1","name":"Eng","manager":{"id":"m1"},"buildings":[{"id":"b1","name":"A"}]}`)
	var memo schema.Memo
	first, _ := schema.Denormalize(dept, res, st, &memo, st.Version())

	q := dept.Schema["buildings"].(*schema.Lazy).Query()
	var qmemo schema.Memo
	read, input, ok, err := schema.QueryInput(q, []value.Value{value.MustParse(`["b1"]`)})
	require.NoError(t, err)
	require.True(t, ok)
	before, _ := schema.Denormalize(read, input, st, &qmemo, st.Version())

	put(t, st, building, `{"id":"b1","name":"A renamed","floors":4}`)
	again, _ := schema.Denormalize(dept, res, st, &memo, st.Version())
	assert.True(t, value.Same(first, again), "the parent keeps its identity")
	after, _ := schema.Denormalize(read, input, st, &qmemo, st.Version())
	assert.False(t, value.Same(before, after), "the query reads the change")
	assert.JSONEq(t, `[{"id":"b1","name":"A renamed","floors":4}]`, after.JSON())

	put(t, st, newUser(), `{"id":"m1","name":"Bob"}`)
	third, _ := schema.Denormalize(dept, res, st, &memo, st.Version())
	assert.False(t, value.Same(first, third), "an eager field's entity still counts")
}

// stored counts the records of table key in st.
func stored(st *store.Store, key string) int {
	return st.State().Get("entities").Get(key).Len()
}

// put stores rec as a record of e (under its id).
func put(t *testing.T, st *store.Store, e *schema.Entity, rec string) {
	t.Helper()
	n, err := schema.Normalize(e, value.MustParse(rec))
	require.NoError(t, err)
	st.Apply(&store.Write{Entities: n.Entities})
}

// TestLazyQuery reads a Lazy relationship by its query: by args as the
// inner Entity or Collection takes them, else args[0] being the stored
// form, read by the inner schema (missing members left out of a list).
func TestLazyQuery(t *testing.T) {
	building := newBuilding()
	union := &schema.Union{Schemas: map[string]schema.Schema{"building": building}, Attribute: "type"}
	st := storeOf(t, `{"Building":{"b1":{"id":"b1","name":"A"},"b2":{"id":"b2","name":"B"}}}`, building)
	for _, c := range []struct {
		name string
		of   schema.Schema
		args string
		want string // "" reads nothing
	}{
		{"list", schema.ArrayOf(building), `[["b1","b2"]]`, `[{"id":"b1","name":"A","floors":1},{"id":"b2","name":"B","floors":1}]`},
		{"list, a pk not stored", schema.ArrayOf(building), `[["b1","nope","b2"]]`, `[{"id":"b1","name":"A","floors":1},{"id":"b2","name":"B","floors":1}]`},
		{"empty list", schema.ArrayOf(building), `[[]]`, `[]`},
		{"values", schema.ValuesOf(building), `[{"n":"b2"}]`, `{"n":{"id":"b2","name":"B","floors":1}}`},
		{"union", schema.ArrayOf(union), `[[{"id":"b1","schema":"building"}]]`, `[{"id":"b1","name":"A","floors":1}]`},
		{"entity by params", building, `[{"id":"b2"}]`, `{"id":"b2","name":"B","floors":1}`},
		{"entity not stored", building, `[{"id":"b9"}]`, ``},
		{"no args", schema.ArrayOf(building), `[]`, ``},
		{"null", schema.ArrayOf(building), `[null]`, ``},
	} {
		t.Run(c.name, func(t *testing.T) {
			lazy := schema.LazyOf(c.of)
			q := lazy.Query()
			assert.Same(t, q, lazy.Query(), "one query per Lazy")
			v, _ := readQuery(t, q, c.args, st)
			if c.want == "" {
				assert.True(t, v.IsUndefined(), "read nothing, got %s", v.JSON())
				return
			}
			assert.JSONEq(t, c.want, v.JSON())
			assert.Equal(t, schema.ReadSchema(c.of), schema.ReadSchema(q), "written as the inner schema's read")
		})
	}
}

// TestLazyCycles: entities that name each other lazily normalize their
// whole graph and read one record each, however long the chain; a cycle
// that is lazy on one side only reads the eager side resolved and stops
// at the lazy one.
func TestLazyCycles(t *testing.T) {
	dept := &schema.Entity{Key: "Department", Defaults: value.MustParse(`{"id":"","buildings":[]}`)}
	bldg := &schema.Entity{Key: "Building", Defaults: value.MustParse(`{"id":"","departments":[]}`)}
	// Assigned after both exist, as a late static schema is.
	dept.Schema = map[string]schema.Schema{"buildings": schema.LazyOf(schema.ArrayOf(bldg))}
	bldg.Schema = map[string]schema.Schema{"departments": schema.LazyOf(schema.ArrayOf(dept))}
	require.NoError(t, schema.Check(dept))

	t.Run("nested response", func(t *testing.T) {
		st, res := fill(t, dept, `{"id":"d0","buildings":[{"id":"b0","departments":[{"id":"d1","buildings":[{"id":"b0"}]},"d0"]}]}`)
		assert.Equal(t, 2, stored(st, "Department"))
		assert.Equal(t, 1, stored(st, "Building"))
		read, status := schema.Denormalize(dept, res, st, nil, st.Version())
		require.Equal(t, schema.Found, status)
		assert.JSONEq(t, `{"id":"d0","buildings":["b0"]}`, read.JSON())
		b, _, _, err := schema.QueryInput(dept.Schema["buildings"].(*schema.Lazy).Query(), []value.Value{read.Get("buildings")})
		require.NoError(t, err)
		got, _ := schema.Denormalize(b, read.Get("buildings"), st, nil, st.Version())
		assert.JSONEq(t, `[{"id":"b0","departments":["d1","d0"]}]`, got.JSON(), "the query's entities keep their own Lazy fields as pks")
	})

	t.Run("long chain", func(t *testing.T) {
		// Far longer than the depth limit (MaxDepth) of eager reads.
		const n = 1500
		var b strings.Builder
		b.WriteString(`{"Department":{`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"d%d":{"id":"d%d","buildings":["b%d"]}`, i, i, i)
		}
		b.WriteString(`},"Building":{`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"b%d":{"id":"b%d","departments":["d%d"]}`, i, i, i+1)
		}
		b.WriteString(`}}`)
		st := storeOf(t, b.String(), dept, bldg)
		read, status := schema.Denormalize(dept, value.Str("d0"), st, nil, st.Version())
		require.Equal(t, schema.Found, status)
		assert.JSONEq(t, `{"id":"d0","buildings":["b0"]}`, read.JSON())
	})

	t.Run("lazy on one side", func(t *testing.T) {
		owner := &schema.Entity{Key: "Owner", Defaults: value.MustParse(`{"id":"","pets":[]}`)}
		pet := &schema.Entity{Key: "Pet", Defaults: value.MustParse(`{"id":"","owner":null}`)}
		owner.Schema = map[string]schema.Schema{"pets": schema.ArrayOf(pet)}
		pet.Schema = map[string]schema.Schema{"owner": schema.LazyOf(owner)}
		st, res := fill(t, owner, `{"id":"o1","pets":[{"id":"p1","owner":{"id":"o1"}},{"id":"p2","owner":"o1"}]}`)
		read, status := schema.Denormalize(owner, res, st, nil, st.Version())
		require.Equal(t, schema.Found, status)
		assert.JSONEq(t, `{"id":"o1","pets":[{"id":"p1","owner":"o1"},{"id":"p2","owner":"o1"}]}`, read.JSON())
	})
}

// TestLazyWalks: the walks over schemas see through a Lazy: Check refuses
// one of nothing, a sweep keeps what a Lazy field names (the query reads
// it), a snapshot's record is checked against the inner schema, and
// EachEntity lists the inner entities.
func TestLazyWalks(t *testing.T) {
	building := newBuilding()
	dept := department(schema.ArrayOf(building))

	require.Error(t, schema.Check(schema.LazyOf(nil)))
	require.Error(t, schema.Check(department(schema.ArrayOf(nil))))
	require.Error(t, schema.Check(&schema.LazyQuery{}))
	require.NoError(t, schema.Check(dept))
	require.NoError(t, schema.Check(schema.LazyOf(schema.ArrayOf(building)).Query()))

	var refs []string
	dept.RecordRefs(value.MustParse(`{"id":"d1","buildings":["b1","b2"],"manager":"m1"}`), func(e *schema.Entity, pk string) {
		refs = append(refs, e.Key+":"+pk)
	})
	assert.ElementsMatch(t, []string{"Building:b1", "Building:b2", "User:m1"}, refs)

	err := dept.CheckRecord("d1", value.MustParse(`{"id":"d1","buildings":[{"id":"b1"}]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), ".buildings[0]")
	require.NoError(t, dept.CheckRecord("d1", value.MustParse(`{"id":"d1","buildings":["b1"]}`)))

	var keys []string
	schema.EachEntity(dept, func(e *schema.Entity) { keys = append(keys, e.Key) })
	assert.ElementsMatch(t, []string{"Department", "Building", "User"}, keys)

	assert.True(t, schema.IsPlain(schema.LazyOf(building)), "a Lazy reads as plain pks")
	assert.False(t, schema.IsPlain(schema.LazyOf(building).Query()))

	_, err = schema.Normalize(schema.LazyOf(building).Query(), value.MustParse(`{"id":"b1"}`))
	require.Error(t, err, "a query is not normalized")
}

// TestLazyProcess: an inner entity's Process runs through a Lazy, and so
// a record holding one is not taken as stable (its text alone does not
// tell that it normalizes alike, EntityWrite.Source).
func TestLazyProcess(t *testing.T) {
	const text = `{"id":"d1","buildings":[{"id":"b1"}]}`
	for _, process := range []bool{false, true} {
		calls := 0
		building := newBuilding()
		if process {
			building.Process = func(rec, _ value.Value, _ string, _ value.Value) (value.Value, error) {
				calls++
				return rec, nil
			}
		}
		dept := department(schema.ArrayOf(building))
		in, err := value.ParseLazy(text)
		require.NoError(t, err)
		n, err := schema.Normalize(dept, in)
		require.NoError(t, err)
		var source string
		for _, w := range n.Entities {
			if w.Entity == dept {
				source = w.Source
			}
		}
		if process {
			assert.Equal(t, 1, calls)
			assert.Empty(t, source, "not stable: Process may normalize equal text apart")
		} else {
			assert.Equal(t, text, source, "stable")
		}
	}
}
