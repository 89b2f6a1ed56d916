package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// portfolio is a Lens selecting args[0].portfolio, as data-client's
// new Scalar({lens: args => args[0]?.portfolio, key: 'portfolio'}).
func portfolio(key string, bound *schema.Entity) *schema.Lens {
	return schema.LensOf(key, byPortfolio, bound)
}

func byPortfolio(args value.Value) (string, bool) {
	el := args.Elems()
	if len(el) == 0 {
		return "", false
	}
	v := el[0].Get("portfolio")
	return v.Str(), v.Kind() == value.String
}

// company returns a Company entity whose pct and shares are cells of a
// portfolio Lens (bound to Company, so it also serves standalone).
func company() (*schema.Entity, *schema.Lens) {
	c := &schema.Entity{Key: "Company", Defaults: value.MustParse(`{"id":"","price":0,"pct":0,"shares":0}`)}
	l := portfolio("portfolio", c)
	c.Schema = map[string]schema.Schema{"pct": l, "shares": l}
	return c, l
}

func onPortfolio(p string) schema.Args {
	return schema.Args{Params: value.Obj(value.M("portfolio", value.Str(p)))}
}

// write normalizes data by s for args into st, as a response fetched at
// fetchedAt.
func write(t *testing.T, st *store.Store, s schema.Schema, data string, args schema.Args, fetchedAt int64) value.Value {
	t.Helper()
	n, err := schema.NormalizeArgs(s, value.MustParse(data), args)
	require.NoError(t, err)
	st.Apply(&store.Write{Schema: s, Result: n.Result, Entities: n.Entities, Meta: schema.Meta{FetchedAt: fetchedAt}})
	return n.Result
}

// An entity's Scalar fields are stored in cells of the lens the
// response's args select, keyed entityKey|pk|lens; the record keeps the
// lens-free reference [pk, field, entityKey].
func TestLensNormalizesFieldsIntoCells(t *testing.T) {
	c, _ := company()
	n, err := schema.NormalizeArgs(schema.ArrayOf(c), value.MustParse(`[{"id":"1","price":100,"pct":0.5,"shares":0}]`), onPortfolio("A"))
	require.NoError(t, err)
	assert.JSONEq(t, `["1"]`, n.Result.JSON())
	got := map[string]string{}
	for _, w := range n.Merged() {
		got[w.Entity.Key+" "+w.PK] = w.Record().JSON()
	}
	assert.Len(t, got, 2)
	assert.JSONEq(t, `{"id":"1","price":100,"pct":["1","pct","Company"],"shares":["1","shares","Company"]}`, got["Company 1"])
	assert.JSONEq(t, `{"pct":0.5,"shares":0}`, got["Scalar(portfolio) Company|1|A"], "falsy values are kept")
}

// Standalone cells (Values keyed by pk, a list of cells with their
// entity's pk, an entity whose pk reads another field) go to the same cells, keyed by the
// bound entity's key; the result holds the cells' keys.
func TestLensStandaloneCells(t *testing.T) {
	_, l := company()
	// data-client's entityPk override: an entity of Company's key whose
	// pk reads the cell's companyId.
	custom := portfolio("custom", &schema.Entity{Key: "Company", Defaults: value.Obj(),
		PKFunc: func(cell, _ value.Value, _ string, _ value.Value) (string, bool, error) {
			return cell.Get("companyId").Str(), true, nil
		}})
	cases := []struct {
		name       string
		s          schema.Schema
		data, want string
		cells      map[string]string
	}{
		{"values", schema.ValuesOf(l), `{"1":{"pct":0.7},"2":{"pct":0.1}}`, `{"1":"Company|1|B","2":"Company|2|B"}`,
			map[string]string{"Scalar(portfolio) Company|1|B": `{"pct":0.7}`, "Scalar(portfolio) Company|2|B": `{"pct":0.1}`}},
		{"list", schema.ArrayOf(l), `[{"id":"1","pct":0.7}]`, `["Company|1|B"]`,
			map[string]string{"Scalar(portfolio) Company|1|B": `{"id":"1","pct":0.7}`}},
		{"list in an object", schema.ObjectOf(schema.Nested("stock", schema.ArrayOf(l))), `{"stock":[{"id":"1","pct":0.7},{"id":"2","pct":0.1}]}`,
			`{"stock":["Company|1|B","Company|2|B"]}`,
			map[string]string{"Scalar(portfolio) Company|1|B": `{"id":"1","pct":0.7}`, "Scalar(portfolio) Company|2|B": `{"id":"2","pct":0.1}`}},
		{"entityPk", schema.ArrayOf(custom), `[{"companyId":"9","pct":1}]`, `["Company|9|B"]`,
			map[string]string{"Scalar(custom) Company|9|B": `{"companyId":"9","pct":1}`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n, err := schema.NormalizeArgs(tc.s, value.MustParse(tc.data), onPortfolio("B"))
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, n.Result.JSON())
			got := map[string]string{}
			for _, w := range n.Merged() {
				got[w.Entity.Key+" "+w.PK] = w.Record().JSON()
			}
			require.Len(t, got, len(tc.cells))
			for k, v := range tc.cells {
				assert.JSONEq(t, v, got[k], k)
			}
		})
	}
}

// A Lens that cannot store a cell is an error naming it and the place:
// no lens in the args, standalone without an entity, a cell without a pk.
func TestLensNormalizeErrors(t *testing.T) {
	c, l := company()
	unbound := portfolio("portfolio", nil)
	cases := []struct {
		name string
		s    schema.Schema
		data string
		args schema.Args
		want string
	}{
		{"field without a lens", schema.ArrayOf(c), `[{"id":"1","pct":1}]`, schema.Args{Params: value.Obj()}, `$[0].pct: lens returned undefined`},
		{"values without a lens", schema.ValuesOf(l), `{"1":{"pct":1}}`, schema.Args{}, `$.1: lens returned undefined`},
		{"unbound", schema.ValuesOf(unbound), `{"1":{"pct":1}}`, onPortfolio("A"), `needs the entity option`},
		{"no pk", schema.ArrayOf(l), `[{"pct":1}]`, onPortfolio("A"), `cannot derive entity pk`},
		{"not a cell", schema.ValuesOf(l), `{"1":[1]}`, onPortfolio("A"), `expected a record (object), got array`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.NormalizeArgs(tc.s, value.MustParse(tc.data), tc.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "Scalar(portfolio)")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	assert.NoError(t, schema.Check(schema.ValuesOf(l)))
}

// A read picks the cell of the lens its args select: the same record
// reads with each lens's values, shared fields alike; with no lens (or
// no cell for it) the fields read as undefined. One memo serves reads
// that alternate lenses, each answer the right one, and an unchanged
// read keeps its identity.
func TestLensReadsPickTheArgsLens(t *testing.T) {
	c, l := company()
	list := schema.ArrayOf(c)
	st := store.New()
	res := write(t, st, list, `[{"id":"1","price":100,"pct":0.5,"shares":10}]`, onPortfolio("A"), 1)
	write(t, st, list, `[{"id":"1","price":100,"pct":0.3,"shares":3}]`, onPortfolio("B"), 2)
	write(t, st, schema.ValuesOf(l), `{"1":{"pct":0.9,"shares":9}}`, onPortfolio("C"), 3)

	var memo schema.Memo
	read := func(args schema.Args) value.Value {
		v, st := schema.DenormalizeArgs(list, res, st, &memo, st.Version(), args)
		require.Equal(t, schema.Found, st)
		return v
	}
	cases := []struct {
		name string
		args schema.Args
		want string
	}{
		{"A", onPortfolio("A"), `[{"id":"1","price":100,"pct":0.5,"shares":10}]`},
		{"B", onPortfolio("B"), `[{"id":"1","price":100,"pct":0.3,"shares":3}]`},
		{"C, from the Values response", onPortfolio("C"), `[{"id":"1","price":100,"pct":0.9,"shares":9}]`},
		{"no cell", onPortfolio("Z"), `[{"id":"1","price":100}]`},
		{"no lens", schema.Args{Params: value.Obj()}, `[{"id":"1","price":100}]`},
		{"no args", schema.Args{}, `[{"id":"1","price":100}]`},
		{"A again", onPortfolio("A"), `[{"id":"1","price":100,"pct":0.5,"shares":10}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.JSONEq(t, tc.want, read(tc.args).JSON())
		})
	}
	a := read(onPortfolio("A"))
	assert.True(t, value.Same(a, read(onPortfolio("A"))), "unchanged read keeps its identity")
	assert.JSONEq(t, `[{"id":"1","price":100,"pct":0.3,"shares":3}]`, read(onPortfolio("B")).JSON())

	// Values(Lens) reads its cells by their keys, whatever the args.
	cells, _ := schema.DenormalizeArgs(schema.ValuesOf(l), value.MustParse(`{"1":"Company|1|A","2":"Company|2|A"}`), st, nil, st.Version(), schema.Args{})
	assert.JSONEq(t, `{"1":{"pct":0.5,"shares":10}}`, cells.JSON(), "a missing cell is left out")
}

// Cells merge as entity records do: a later response's fields win, one
// to an older request does not overwrite newer values, and a read of the
// record sees the merged cell.
func TestLensCellsMerge(t *testing.T) {
	c, l := company()
	st := store.New()
	res := write(t, st, c, `{"id":"1","price":100,"pct":0.5,"shares":10}`, onPortfolio("A"), 10)
	write(t, st, schema.ValuesOf(l), `{"1":{"shares":11,"note":"x"}}`, onPortfolio("A"), 20)
	write(t, st, schema.ValuesOf(l), `{"1":{"pct":0.1,"shares":1}}`, onPortfolio("A"), 5) // older request
	v, _ := schema.DenormalizeArgs(c, res, st, nil, st.Version(), onPortfolio("A"))
	assert.JSONEq(t, `{"id":"1","price":100,"pct":0.5,"shares":11}`, v.JSON())
	cell, _ := schema.DenormalizeArgs(schema.ValuesOf(l), value.MustParse(`{"1":"Company|1|A"}`), st, nil, st.Version(), schema.Args{})
	assert.JSONEq(t, `{"1":{"pct":0.5,"shares":11,"note":"x"}}`, cell.JSON())
}

// A record stored before its field was a Scalar (a raw value where the
// reference would be) reads as it is.
func TestLensReadsRawValuesAsTheyAre(t *testing.T) {
	c, _ := company()
	st := store.New()
	st.Apply(&store.Write{Entities: []schema.EntityWrite{{Entity: c, PK: "1", Value: value.MustParse(`{"id":"1","pct":0.5}`)}}})
	v, _ := schema.DenormalizeArgs(c, value.Str("1"), st, nil, st.Version(), onPortfolio("A"))
	assert.JSONEq(t, `{"id":"1","price":0,"pct":0.5,"shares":0}`, v.JSON())
}
