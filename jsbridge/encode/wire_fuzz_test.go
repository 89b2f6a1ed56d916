package encode

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// FuzzWire is the differential test of the output format: random JSON (with
// the values that are hard to get right: -0, 1e400, escapes, lone
// surrogates, __proto__ and integer keys, non-ASCII) under a random schema
// (entities that nest and reference each other, lists, maps, objects,
// Dates) is normalized, stored, read and written by the real encoder, then
// decoded by the reference decoder of package wire. The decoded value must
// be the denormalized one, with Dates exactly where the schema has them;
// an unchanged re-read must be one ref to the same object; and the output
// without a table must decode to the same value.
func FuzzWire(f *testing.F) {
	f.Add([]byte{2, 3, 1, 5, 0}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{3, 2, 1, 1, 4, 2, 0}, []byte{9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2})
	f.Add([]byte{5, 1, 2, 2, 3, 6, 1}, []byte{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3})
	f.Fuzz(func(t *testing.T, schemaBytes, dataBytes []byte) {
		g := &schemaGen{r: &bytesIn{b: schemaBytes}}
		s := g.schema(0)
		if schema.Check(s) != nil {
			return // a schema the bridge refuses to build
		}
		text := (&dataGen{r: &bytesIn{b: dataBytes}}).value(s, 0)
		data, err := value.ParseLazy(text) // as responses are parsed
		if err != nil {
			t.Fatalf("generated JSON %s: %v", text, err)
		}
		checkWire(t, s, data)
		checkLikeBuilt(t, s, text)
	})
}

// checkLikeBuilt checks that the outputs of a read of text parsed onto a
// tape (value.ParseLazy), whose records are patched over the tape
// (value.Patched) and read off it, are those of a read of text parsed
// whole (value.Parse), whose records are built: the same bytes, with a
// table and without.
func checkLikeBuilt(t *testing.T, s schema.Schema, text string) {
	t.Helper()
	outputs := func(v value.Value) (table, tree []byte) {
		n, err := schema.Normalize(s, v)
		if err != nil {
			return nil, nil
		}
		st := store.New()
		st.Apply(&store.Write{Key: "k", Schema: s, Result: n.Result, Entities: n.Entities,
			Meta: schema.Meta{Date: 1, FetchedAt: 1, ExpiresAt: 1000}})
		read, _, _, _ := st.Read("k")
		var none *Identities
		return NewIdentities().Output(nil, wire.Header{}, "k", s, read), none.Output(nil, wire.Header{}, "", s, read)
	}
	lazy, err := value.ParseLazy(text)
	if err != nil {
		t.Fatal(err)
	}
	gotTable, gotTree := outputs(lazy)
	wantTable, wantTree := outputs(value.MustParse(text))
	if !bytes.Equal(gotTable, wantTable) || !bytes.Equal(gotTree, wantTree) {
		t.Fatalf("%s: the read of a response on a tape writes\n% x\n% x\nwhere one of it parsed whole writes\n% x\n% x",
			text, gotTable, gotTree, wantTable, wantTree)
	}
}

// checkWire stores data under s and checks the outputs of its read.
func checkWire(t *testing.T, s schema.Schema, data value.Value) {
	t.Helper()
	n, err := schema.Normalize(s, data)
	if err != nil {
		return // refused input: nothing to read
	}
	st := store.New()
	st.Apply(&store.Write{Key: "k", Schema: s, Result: n.Result, Entities: n.Entities,
		Meta: schema.Meta{Date: 1, FetchedAt: 1, ExpiresAt: 1000}})
	v, _, _, ok := st.Read("k")
	if !ok {
		return
	}
	// With a table a record cut at a cycle is written as a reference back
	// to the record it is cut from; without one, as the tree Go read.
	var wantGraph, wantTree []string
	wantDates(s, v, "$", &wantGraph, []openRecord{})
	wantDates(s, v, "$", &wantTree, nil)
	check := func(what string, out []byte, table *wire.Table) wire.Output {
		want := wantGraph
		if table == nil {
			want = wantTree
		}
		o, err := wire.Decode(out, table)
		if err != nil {
			t.Fatalf("%s: %v\nvalue %s\noutput % x", what, err, v, out)
		}
		if table != nil { // a graph: see MatchGraph
			err = wire.MatchGraph(o.Value, v, recordOf)
		} else {
			err = wire.Match(o.Value, v)
		}
		if err != nil {
			t.Fatalf("%s: %v\nvalue %s", what, err, v)
		}
		var got []string
		nodeDates(o.Value, "$", &got, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: Dates at %q, want %q\nvalue %s", what, got, want, v)
		}
		return o
	}
	ids := NewIdentities()
	var table wire.Table
	first := check("first read", ids.Output(nil, wire.Header{}, "k", s, v), &table)
	again := check("re-read", ids.Output(nil, wire.Header{}, "k", s, v), &table)
	if (v.Kind() == value.Object || v.Kind() == value.Array) && (again.Value != first.Value || again.Counts[wire.OpRef] != 1) {
		t.Fatalf("unchanged re-read is not one ref to the same object: %v", again.Counts)
	}
	var none *Identities
	check("read without a table", none.Output(nil, wire.Header{}, "", s, v), nil)
}

// recordOf reports whether n is the record v stands for, v a key or a
// record cut: the fuzz's entities take their primary key from "id".
func recordOf(n *wire.Node, v value.Value) bool {
	if v.Kind() == value.Object {
		v = v.Get("id")
	}
	i := slices.Index(n.Keys, "id")
	return i >= 0 && wire.Match(n.Vals[i], v) == nil
}

// wantDates appends the paths where the encoder must write a Date: where
// schema s has a Date over a number or a string, under v. open are the
// entity records around v: one cut at a cycle back to them is written as a
// reference (its Dates are where that record is shown). A nil open walks v
// as a tree, as an output without a table writes it.
func wantDates(s schema.Schema, v value.Value, path string, out *[]string, open []openRecord) {
	fields := func(fs []schema.Field) {
		if v.Kind() != value.Object {
			return
		}
		for _, m := range v.Members() {
			if !m.Value.IsUndefined() {
				wantDates(memberSchemas{fields: fs}.of(m.Key), m.Value, path+"."+strconv.Quote(m.Key), out, open)
			}
		}
	}
	switch s := s.(type) {
	case nil:
	case *schema.Entity:
		for _, o := range slices.Backward(open) {
			if o.ent == s && s.CycleCut(v, o.v) {
				return
			}
		}
		if open != nil {
			open = append(open, openRecord{s, v})
		}
		fields(s.Fields())
	case *schema.Invalidate:
		fields(s.Entity.Fields())
	case *schema.Union:
		if m := unionMember(s, v); m != nil {
			wantDates(m, v, path, out, open)
		}
	case *schema.Array:
		if v.Kind() == value.Array {
			for i, el := range v.Elems() {
				if !el.IsUndefined() {
					wantDates(s.Of, el, path+"["+strconv.Itoa(i)+"]", out, open)
				}
			}
		}
	case *schema.Values:
		if v.Kind() == value.Object {
			for _, m := range v.Members() {
				if !m.Value.IsUndefined() {
					wantDates(s.Of, m.Value, path+"."+strconv.Quote(m.Key), out, open)
				}
			}
		}
	case *schema.Object:
		fields(s.Fields)
	default:
		if k := v.Kind(); schema.IsDate(s) && (k == value.Number || k == value.String) {
			*out = append(*out, path)
		}
	}
}

// openRecord is an entity's record being walked.
type openRecord struct {
	ent *schema.Entity
	v   value.Value
}

// nodeDates appends the paths of the Dates under n, in the order
// wantDates walks; open are the objects around n (a reference back to one
// of them is a cycle: its Dates were counted where it was shown).
func nodeDates(n *wire.Node, path string, out *[]string, open []*wire.Node) {
	if slices.Contains(open, n) {
		return
	}
	open = append(open, n)
	switch n.Kind {
	case wire.Date:
		*out = append(*out, path)
	case wire.Array:
		for i, e := range n.Elems {
			nodeDates(e, path+"["+strconv.Itoa(i)+"]", out, open)
		}
	case wire.Object:
		for i, k := range n.Keys {
			nodeDates(n.Vals[i], path+"."+strconv.Quote(k), out, open)
		}
	}
}

// bytesIn hands out fuzz bytes one at a time, then zeros.
type bytesIn struct {
	b []byte
	i int
}

func (r *bytesIn) pick(n int) int {
	if r.i >= len(r.b) {
		return 0
	}
	c := r.b[r.i]
	r.i++
	return int(c) % n
}

// schemaGen builds a random schema: entities (each its own key, which may
// nest themselves and each other), lists, maps, objects and Dates.
type schemaGen struct {
	r    *bytesIn
	ents []*schema.Entity
}

// fuzzFieldNames are schema field names; the last holds a lone surrogate
// in the three-byte form decoded keys have.
var fuzzFieldNames = []string{"a", "b", "when", "__proto__", "1", "é", "k\xed\xb0\x80"}

func (g *schemaGen) schema(depth int) schema.Schema {
	if depth > 3 {
		if len(g.ents) > 0 && g.r.pick(2) == 0 {
			return g.ents[g.r.pick(len(g.ents))]
		}
		return []schema.Schema{nil, schema.Date}[g.r.pick(2)]
	}
	switch g.r.pick(8) {
	case 0:
		return nil
	case 1:
		return schema.Date
	case 2, 3:
		if len(g.ents) > 0 && g.r.pick(2) == 0 {
			return g.ents[g.r.pick(len(g.ents))]
		}
		return g.entity(depth)
	case 4:
		return schema.ArrayOf(g.inner(depth + 1))
	case 5:
		return schema.ValuesOf(g.inner(depth + 1))
	case 6:
		var fields []schema.Field
		for i := g.r.pick(3); i >= 0; i-- {
			name := fuzzFieldNames[g.r.pick(len(fuzzFieldNames))]
			if g.r.pick(3) == 0 {
				fields = append(fields, schema.Default(name, value.Str("dflt")))
			} else {
				fields = append(fields, schema.Nested(name, g.schema(depth+1)))
			}
		}
		return schema.ObjectOf(dedupeFields(fields)...)
	}
	return schema.ArrayOf(g.entity(depth))
}

// inner returns a schema for the elements of a list or map: not nil.
func (g *schemaGen) inner(depth int) schema.Schema {
	if s := g.schema(depth); s != nil {
		return s
	}
	return schema.Date
}

func dedupeFields(fs []schema.Field) []schema.Field {
	seen := map[string]bool{}
	var out []schema.Field
	for _, f := range fs {
		if !seen[f.Name] {
			seen[f.Name] = true
			out = append(out, f)
		}
	}
	return out
}

func (g *schemaGen) entity(depth int) *schema.Entity {
	e := &schema.Entity{Key: fmt.Sprintf("E%d", len(g.ents)), Schema: map[string]schema.Schema{}}
	g.ents = append(g.ents, e)
	defaults := []value.Member{value.M("id", value.NullV)}
	for i := g.r.pick(3); i >= 0; i-- {
		name := fuzzFieldNames[g.r.pick(len(fuzzFieldNames))]
		if _, ok := e.Schema[name]; ok {
			continue
		}
		if s := g.schema(depth + 1); s != nil {
			e.Schema[name] = s
		}
		defaults = append(defaults, value.M(name, value.NullV))
	}
	if g.r.pick(2) == 0 {
		defaults = append(defaults, value.M("extra", value.MustParse(`"d\u00e9faut \udc00"`)))
	}
	e.Defaults = value.Obj(dedupeMembers(defaults)...)
	return e
}

func dedupeMembers(ms []value.Member) []value.Member {
	seen := map[string]bool{}
	var out []value.Member
	for _, m := range ms {
		if !seen[m.Key] {
			seen[m.Key] = true
			out = append(out, m)
		}
	}
	return out
}

// dataGen writes random JSON text that mostly fits a schema.
type dataGen struct{ r *bytesIn }

var fuzzScalars = []string{
	`null`, `true`, `false`, `0`, `-0`, `7`, `-2147483648`, `2147483648`, `1.5`, `1e400`, `-1e400`,
	`9007199254740993`, `""`, `"plain"`, `"héllo ✓ 😀"`, `"a\"b\\c\n"`, `"\udc00"`, `"\ud83d\ude00"`,
	`"__proto__"`, `"2024-01-02T03:04:05Z"`, `1700000000000`, `"not a date"`, `"bad\u0000"`,
}

var fuzzKeys = []string{"a", "__proto__", "1", "0", "é", "k\\udc00", "a\\\"b", "x", "when"}

func (g *dataGen) scalar() string { return fuzzScalars[g.r.pick(len(fuzzScalars))] }

func (g *dataGen) junk(depth int) string {
	if depth > 4 {
		return g.scalar()
	}
	switch g.r.pick(6) {
	case 0:
		var parts []string
		for i := g.r.pick(4); i > 0; i-- {
			parts = append(parts, g.junk(depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case 1:
		return g.object(depth, nil)
	}
	return g.scalar()
}

// object writes an object with random keys and the members of fields, by
// their schemas.
func (g *dataGen) object(depth int, fields map[string]schema.Schema) string {
	var parts []string
	seen := map[string]bool{}
	for name, s := range fields {
		if g.r.pick(4) != 0 {
			parts = append(parts, string(value.AppendString(nil, name))+":"+g.value(s, depth+1))
			seen[name] = true
		}
	}
	for i := g.r.pick(3); i > 0; i-- {
		k := fuzzKeys[g.r.pick(len(fuzzKeys))]
		if !seen[k] {
			seen[k] = true
			parts = append(parts, `"`+k+`":`+g.junk(depth+1))
		}
	}
	slices.Sort(parts) // map order is random: keep runs reproducible
	return "{" + strings.Join(parts, ",") + "}"
}

func (g *dataGen) value(s schema.Schema, depth int) string {
	if depth > 6 || g.r.pick(10) == 0 {
		return g.junk(depth)
	}
	switch s := s.(type) {
	case *schema.Entity:
		fields := map[string]schema.Schema{}
		for name, f := range s.Schema {
			fields[name] = f
		}
		obj := g.object(depth, fields)
		id := strconv.Quote(strconv.Itoa(g.r.pick(3)))
		if obj == "{}" {
			return `{"id":` + id + `}`
		}
		return `{"id":` + id + "," + obj[1:]
	case *schema.Array:
		var parts []string
		for i := g.r.pick(4); i > 0; i-- {
			parts = append(parts, g.value(s.Of, depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case *schema.Values:
		var parts []string
		seen := map[string]bool{}
		for i := g.r.pick(4); i > 0; i-- {
			k := fuzzKeys[g.r.pick(len(fuzzKeys))]
			if !seen[k] {
				seen[k] = true
				parts = append(parts, `"`+k+`":`+g.value(s.Of, depth+1))
			}
		}
		return "{" + strings.Join(parts, ",") + "}"
	case *schema.Object:
		fields := map[string]schema.Schema{}
		for _, f := range s.Fields {
			if f.Schema != nil {
				fields[f.Name] = f.Schema
			}
		}
		return g.object(depth, fields)
	}
	return g.junk(depth)
}
