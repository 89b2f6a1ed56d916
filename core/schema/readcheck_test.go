package schema_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// TestValidOnRead: an entity's Valid refuses a stored record on a read
// (data-client's validate, which its denormalize applies too): the
// record reads as deleted, a list leaves it out, an entity whose truthy
// default field holds it reads as deleted, and Valid gets the record as
// stored (no defaults). Its answer is memoized with the record's read:
// asked again only when the record changes.
func TestValidOnRead(t *testing.T) {
	var asked []string
	taco := &schema.Entity{
		Key:      "Taco",
		Defaults: value.MustParse(`{"id":"","name":""}`),
		Valid: func(rec value.Value) bool {
			asked = append(asked, rec.JSON())
			return rec.Has("name")
		},
	}
	menu := &schema.Entity{
		Key:      "Menu",
		Defaults: value.MustParse(`{"id":"","taco":{"id":""},"side":null}`),
		Schema:   map[string]schema.Schema{"taco": taco, "side": taco},
	}
	tables := `{"Taco":{"1":{"id":"1"},"2":{"id":"2","name":"al pastor"}},
		"Menu":{"a":{"id":"a","taco":"1"},"b":{"id":"b","taco":"2","side":"1"}}}`
	cases := []struct {
		name   string
		s      schema.Schema
		result string
		want   string // JSON of the read; "" for undefined
		status schema.Status
	}{
		{"refused", taco, `"1"`, "", schema.Deleted},
		{"valid", taco, `"2"`, `{"id":"2","name":"al pastor"}`, schema.Found},
		{"in a list", schema.ArrayOf(taco), `["1","2"]`, `[{"id":"2","name":"al pastor"}]`, schema.Found},
		{"required field", menu, `"a"`, "", schema.Deleted},
		{"optional field", menu, `"b"`, `{"id":"b","taco":{"id":"2","name":"al pastor"}}`, schema.Found},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := storeOf(t, tables, taco, menu)
			got, status := schema.Denormalize(c.s, value.MustParse(c.result), st, nil, 0)
			assert.Equal(t, c.status, status)
			if c.want == "" {
				assert.True(t, got.IsUndefined(), "got %s", got.JSON())
			} else {
				assert.JSONEq(t, c.want, got.JSON())
			}
		})
	}

	t.Run("asked once per record", func(t *testing.T) {
		st := storeOf(t, tables, taco, menu)
		asked = nil
		for range 3 {
			_, status := schema.Denormalize(taco, value.Str("1"), st, nil, 0)
			require.Equal(t, schema.Deleted, status)
		}
		assert.Equal(t, []string{`{"id":"1"}`}, asked)

		// The record completed: asked again, and read.
		st.Apply(&store.Write{Entities: []schema.EntityWrite{{Entity: taco, PK: "1", Value: value.MustParse(`{"id":"1","name":"carnitas"}`)}}})
		got, status := schema.Denormalize(taco, value.Str("1"), st, nil, 0)
		assert.Equal(t, schema.Found, status)
		assert.JSONEq(t, `{"id":"1","name":"carnitas"}`, got.JSON())
		assert.Len(t, asked, 2)
	})
}

// TestEntityMaxDepth: an entity's MaxDepth lowers the depth at which a
// read cuts it (data-client's maxEntityDepth): reached through that many
// entities, it reads as its record with nested entities left as keys;
// DepthLimited is called once per read that cuts, with the limit; a
// MaxDepth above the package's is the package's.
func TestEntityMaxDepth(t *testing.T) {
	chain := func(n int) string {
		depts, bldgs := "", ""
		for i := range n {
			next := "[]"
			if i < n-1 {
				next = fmt.Sprintf(`["d%d"]`, i+1)
			}
			depts += fmt.Sprintf(`,"d%d":{"id":"d%d","buildings":["b%d"]}`, i, i, i)
			bldgs += fmt.Sprintf(`,"b%d":{"id":"b%d","departments":%s}`, i, i, next)
		}
		return `{"Dept":{` + depts[1:] + `},"Bldg":{` + bldgs[1:] + `}}`
	}
	for _, c := range []struct {
		name     string
		maxDepth int
		hops     int // dept→bldg→dept hops read in full
		limit    int // the limit reported
	}{
		{"lowered", 10, 5, 10},
		{"odd", 7, 3, 7},
		{"above the package's", 10 * schema.MaxDepth, schema.MaxDepth / 2, schema.MaxDepth},
	} {
		t.Run(c.name, func(t *testing.T) {
			var reported []int
			dept := &schema.Entity{Key: "Dept", Defaults: value.MustParse(`{"id":"","buildings":[]}`), MaxDepth: c.maxDepth,
				DepthLimited: func(limit int) { reported = append(reported, limit) }}
			bldg := &schema.Entity{Key: "Bldg", Defaults: value.MustParse(`{"id":"","departments":[]}`), MaxDepth: c.maxDepth,
				DepthLimited: func(limit int) { reported = append(reported, limit) }}
			dept.Schema = map[string]schema.Schema{"buildings": schema.ArrayOf(bldg)}
			bldg.Schema = map[string]schema.Schema{"departments": schema.ArrayOf(dept)}
			st := storeOf(t, chain(2*schema.MaxDepth), dept, bldg)
			got, status := schema.Denormalize(dept, value.Str("d0"), st, nil, 0)
			require.Equal(t, schema.Found, status)
			node := got
			for i := range c.hops {
				require.Equal(t, value.Object, node.Get("buildings").Elems()[0].Kind(), "hop %d", i)
				node = node.Get("buildings").Elems()[0].Get("departments").Elems()[0]
			}
			// The first entity at the limit: its record, nested keys unread.
			cut := node
			if c.limit%2 == 1 {
				cut = node.Get("buildings").Elems()[0]
			}
			assert.Equal(t, value.Object, cut.Kind())
			for _, m := range cut.Members() {
				if m.Value.Kind() == value.Array {
					assert.Equal(t, value.String, m.Value.Elems()[0].Kind(), "%s of %s is left as keys", m.Key, cut.JSON())
				}
			}
			assert.Equal(t, []int{c.limit}, reported, "reported once per read")
		})
	}
}
