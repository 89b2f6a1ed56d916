package encode

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/store/storetest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
	"github.com/datafetch/datafetch/jsbridge/wire"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decoder simulates decode in datafetch.mjs with the reference decoder of
// package wire, and hands out the decoded values as Go maps, slices and
// scalars (a Date as dateMark): each decoded object is one map or slice,
// however often it is handed out, so tests can check identity the way
// JavaScript's === would (by map and slice pointers).
type decoder struct {
	table wire.Table
	objs  map[*wire.Node]any
}

type dateMark struct{ v any }

// readOut is one decoded output, for assertions and failure messages.
type readOut struct {
	raw []byte
	wire.Output
}

// String shows the decoded value and the ops it took.
func (r *readOut) String() string {
	var b strings.Builder
	if r.Value != nil {
		b.WriteString(r.Value.String())
	}
	for op, n := range r.Counts {
		if n > 0 {
			fmt.Fprintf(&b, " %s×%d", wire.Op(op), n)
		}
	}
	return b.String()
}

// only reports whether the output is one op of code op and nothing but
// drops.
func (r *readOut) only(op wire.Op) bool {
	total := 0
	for o, n := range r.Counts {
		if wire.Op(o) != wire.OpDrop {
			total += n
		}
	}
	return total == 1 && r.Counts[op] == 1
}

func newDecoder() *decoder { return &decoder{objs: map[*wire.Node]any{}} }

func (d *decoder) decode(t *testing.T, out []byte) (any, *readOut) {
	t.Helper()
	o, err := wire.Decode(out, &d.table)
	if err != nil {
		t.Fatalf("decoding % x: %v", out, err)
	}
	return d.js(o.Value), &readOut{raw: out, Output: o}
}

// held returns the number of ids the decoder holds.
func (d *decoder) held() int { return len(d.table.Held) }

// js returns n as the Go value tests compare, the same map or slice for
// the same node.
func (d *decoder) js(n *wire.Node) any {
	switch n.Kind {
	case wire.Null, wire.Undefined:
		return nil
	case wire.Bool:
		return n.Bool
	case wire.Number:
		return n.Num
	case wire.String:
		return n.Str
	case wire.Date:
		return dateMark{d.js(n.Of)}
	}
	if x, ok := d.objs[n]; ok {
		return x
	}
	if n.Kind == wire.Array {
		a := make([]any, len(n.Elems))
		d.objs[n] = a
		for i, e := range n.Elems {
			a[i] = d.js(e)
		}
		return a
	}
	m := make(map[string]any, len(n.Keys))
	d.objs[n] = m
	for i, k := range n.Keys {
		m[k] = d.js(n.Vals[i])
	}
	return m
}

// same reports whether a and b are the identical map or slice.
func same(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Kind() != vb.Kind() || (va.Kind() != reflect.Map && va.Kind() != reflect.Slice) {
		return false
	}
	return va.Pointer() == vb.Pointer() && va.Len() == vb.Len()
}

type fixture struct {
	st      *store.Store
	article *schema.Entity
	user    *schema.Entity
	list    schema.Schema
	ids     *Identities
	dec     *decoder
}

func newFixture() *fixture {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	article := &schema.Entity{
		Key:      "Article",
		Defaults: value.MustParse(`{"id":null,"title":"","author":null,"createdAt":null}`),
		Schema:   map[string]schema.Schema{"author": user, "createdAt": schema.Date},
	}
	return &fixture{
		st: store.New(), article: article, user: user,
		list: schema.ArrayOf(article),
		ids:  NewIdentities(), dec: newDecoder(),
	}
}

func (f *fixture) store(t *testing.T, key string, s schema.Schema, data string, fetchedAt int64) {
	t.Helper()
	n, err := schema.Normalize(s, value.MustParse(data))
	if err != nil {
		t.Fatal(err)
	}
	f.st.Apply(&store.Write{Key: key, Schema: s, Result: n.Result, Entities: n.Entities,
		Meta: schema.Meta{Date: fetchedAt, FetchedAt: fetchedAt, ExpiresAt: fetchedAt + 1000}})
}

// read reads key, emits it and decodes it as JavaScript would.
func (f *fixture) read(t *testing.T, key string, s schema.Schema) (any, *readOut) {
	t.Helper()
	v, _, _, _ := f.st.Read(key)
	return f.dec.decode(t, f.ids.Output(nil, wire.Header{}, key, s, v))
}

const twoArticles = `[
	{"id":"1","title":"one","author":{"id":7,"name":"Ann"},"createdAt":"2024-01-02T03:04:05Z"},
	{"id":"2","title":"two","author":{"id":7,"name":"Ann"},"createdAt":1700000000000}
]`

func TestEncodeFirstReadRegistersAndMarksDates(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	got, out := f.read(t, "list", f.list)

	list := got.([]any)
	if len(list) != 2 {
		t.Fatalf("got %d articles: %s", len(list), out)
	}
	a1, a2 := list[0].(map[string]any), list[1].(map[string]any)
	if !same(a1["author"], a2["author"]) {
		t.Errorf("the one author is two objects: %s", out)
	}
	for _, a := range []map[string]any{a1, a2} {
		if _, ok := a["createdAt"].(dateMark); !ok {
			t.Errorf("createdAt of %v is %#v, want a Date", a["id"], a["createdAt"])
		}
	}
	if d := a1["createdAt"].(dateMark).v; d != float64(1704164645000) {
		t.Errorf("ISO date stored as %v, want epoch ms", d)
	}
	// root, two articles, one author (the second occurrence is a ref)
	if n := out.Counts[wire.OpRegister]; n != 4 {
		t.Errorf("%d register ops, want 4: %s", n, out)
	}
	if f.ids.entries.len() != 4 {
		t.Errorf("table holds %d ids, want 4", f.ids.entries.len())
	}
}

func TestEncodeUnchangedReadIsOneRef(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	first, _ := f.read(t, "list", f.list)
	second, out := f.read(t, "list", f.list)
	if !out.only(wire.OpRef) {
		t.Errorf("unchanged re-read sent data: %s", out)
	}
	if !same(first, second) {
		t.Error("unchanged re-read is a new object")
	}
	if f.ids.entries.len() != 4 {
		t.Errorf("table holds %d ids after re-read, want 4", f.ids.entries.len())
	}
}

func TestEncodeOneChangedEntity(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	before, _ := f.read(t, "list", f.list)
	f.store(t, "one", f.article, `{"id":"2","title":"two, edited"}`, 2)
	after, out := f.read(t, "list", f.list)

	b, a := before.([]any), after.([]any)
	if same(before, after) {
		t.Fatal("result with a changed entity is the same object")
	}
	if !same(b[0], a[0]) {
		t.Errorf("unchanged article 1 is a new object: %s", out)
	}
	if same(b[1], a[1]) {
		t.Error("changed article 2 is the same object")
	}
	if got := a[1].(map[string]any)["title"]; got != "two, edited" {
		t.Errorf("title = %v", got)
	}
	if !same(b[1].(map[string]any)["author"], a[1].(map[string]any)["author"]) {
		t.Error("unchanged author inside the changed article is a new object")
	}
	// The previous emission is kept (for rollbacks): nothing dropped yet.
	if out.Counts[wire.OpDrop] != 0 {
		t.Errorf("ids dropped while the previous emission is kept: %s", out)
	}
	if f.ids.entries.len() != 6 {
		t.Errorf("table holds %d ids, want 6 (2 roots, 3 articles, author)", f.ids.entries.len())
	}
	// A third version pushes the first out: its root and its article 2 go.
	f.store(t, "one", f.article, `{"id":"2","title":"two, edited again"}`, 3)
	_, out = f.read(t, "list", f.list)
	if out.Counts[wire.OpDrop] == 0 {
		t.Errorf("no ids dropped: %s", out)
	}
	if f.ids.entries.len() != 6 {
		t.Errorf("table holds %d ids, want 6", f.ids.entries.len())
	}
	if f.dec.held() != f.ids.entries.len() {
		t.Errorf("JavaScript holds %d ids, Go %d", f.dec.held(), f.ids.entries.len())
	}
}

// Wire ids are dense: an id dropped is handed out again, so JavaScript's
// array of held objects stays as long as the most objects it held at once,
// however many versions of a list were read.
func TestEncodeWireIDsAreDenseAndReused(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	f.read(t, "list", f.list)
	checkWireIDs(t, f.ids)
	dropped := 0
	for i := range 50 {
		f.store(t, "one", f.article, fmt.Sprintf(`{"id":"2","title":"edit %d"}`, i), int64(2+i))
		got, out := f.read(t, "list", f.list)
		dropped += out.Counts[wire.OpDrop]
		if title := got.([]any)[1].(map[string]any)["title"]; title != fmt.Sprintf("edit %d", i) {
			t.Fatalf("version %d reads title %v", i, title)
		}
		checkWireIDs(t, f.ids)
		if f.dec.held() != f.ids.entries.len() {
			t.Fatalf("JavaScript holds %d ids, Go %d", f.dec.held(), f.ids.entries.len())
		}
	}
	if dropped == 0 {
		t.Fatal("no version was dropped")
	}
	// 6 held (see TestEncodeOneChangedEntity), and the 2 registered by a
	// read before its release of the version it pushes out.
	if f.ids.nextWire > 8 {
		t.Errorf("50 versions took wire ids up to %d, want at most 8", f.ids.nextWire)
	}
	f.ids.Reset()
	f.dec.table.Reset()
	f.read(t, "list", f.list)
	checkWireIDs(t, f.ids)
	if int(f.ids.nextWire) != f.ids.entries.len() {
		t.Errorf("after a reset the ids run to %d for %d entries", f.ids.nextWire, f.ids.entries.len())
	}
}

// checkWireIDs fails t unless the wire ids of ids' entries are distinct,
// below nextWire, and with the free ones exactly the ids handed out.
func checkWireIDs(t *testing.T, ids *Identities) {
	t.Helper()
	seen := map[uint32]bool{}
	for _, s := range ids.entries.slots {
		if s.id == 0 {
			continue
		}
		w := s.ent.wire
		if w >= ids.nextWire || seen[w] {
			t.Fatalf("wire id %d is past %d or held twice", w, ids.nextWire)
		}
		seen[w] = true
	}
	for _, w := range ids.freeWire {
		if w >= ids.nextWire || seen[w] {
			t.Fatalf("free wire id %d is past %d, held or free twice", w, ids.nextWire)
		}
		seen[w] = true
	}
	if len(seen) != int(ids.nextWire) {
		t.Fatalf("%d wire ids held or free, %d handed out", len(seen), ids.nextWire)
	}
}

func TestEncodeRollbackIsTheOldObject(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	before, _ := f.read(t, "list", f.list)
	// An optimistic update, then its rollback: the store rebuilds the list
	// with the old content as new values.
	p := f.st.AddPending(func() store.Write {
		n, _ := schema.Normalize(f.article, value.MustParse(`{"id":"2","title":"optimistic"}`))
		return store.Write{Entities: n.Entities, Meta: schema.Meta{FetchedAt: 2}}
	}())
	during, _ := f.read(t, "list", f.list)
	f.st.RemovePending(p)
	after, out := f.read(t, "list", f.list)
	if same(during, before) {
		t.Fatal("optimistic read is the old object")
	}
	if !same(after, before) {
		t.Errorf("rolled-back read is not the object read before: %s", out)
	}
	again, out := f.read(t, "list", f.list)
	if !same(again, before) || !out.only(wire.OpRef) {
		t.Errorf("re-read after the rollback: %s", out)
	}
}

func TestEncodeSharedEntityOutlivesOneSlot(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	f.store(t, "get1", f.article, `{"id":"1","title":"one","author":7}`, 1)
	list, _ := f.read(t, "list", f.list)
	one, out := f.read(t, "get1", f.article)
	if !out.only(wire.OpRef) {
		t.Errorf("article already sent in the list was sent again: %s", out)
	}
	if !same(list.([]any)[0], one) {
		t.Error("article 1 is two objects across results")
	}
	// Two new versions of the list push the first out of the slot: article
	// 1 stays, held by get1 and the new list; article 2 is dropped.
	f.store(t, "list", f.list, `[]`, 3)
	f.read(t, "list", f.list)
	f.store(t, "list", f.list, `["1"]`, 4)
	f.read(t, "list", f.list)
	again, out := f.read(t, "get1", f.article)
	if !same(one, again) {
		t.Errorf("article 1 lost its identity: %s", out)
	}
	if f.ids.entries.len() != 4 { // two list roots, article 1, its author
		t.Errorf("table holds %d ids, want 4", f.ids.entries.len())
	}
	if f.dec.held() != f.ids.entries.len() {
		t.Errorf("JavaScript holds %d ids, Go %d", f.dec.held(), f.ids.entries.len())
	}
}

func TestEncodeObjectSchemaAndDefaults(t *testing.T) {
	f := newFixture()
	page := schema.ObjectOf(schema.Nested("results", f.list), schema.Default("nextPage", value.Str("")))
	f.store(t, "page", page, `{"results":`+twoArticles+`,"nextPage":null}`, 1)
	got, out := f.read(t, "page", page)
	m := got.(map[string]any)
	if m["nextPage"] != nil {
		t.Errorf("nextPage = %v", m["nextPage"])
	}
	if len(m["results"].([]any)) != 2 {
		t.Errorf("results: %s", out)
	}
	if _, ok := m["results"].([]any)[0].(map[string]any)["createdAt"].(dateMark); !ok {
		t.Errorf("date inside object schema not marked: %s", out)
	}
}

// TestEncodeMissingNestedEntityIsUndefined: a nested entity that is not
// stored reads as undefined, its key there, as data-client reads it.
func TestEncodeMissingNestedEntityIsUndefined(t *testing.T) {
	f := newFixture()
	f.store(t, "get", f.article, `{"id":"5","title":"x","author":99}`, 1)
	// author 99 was never stored: remove nothing, just read.
	got, out := f.read(t, "get", f.article)
	if v, ok := got.(map[string]any)["author"]; !ok || v != nil {
		t.Errorf("missing author: %s", out)
	}
	if !strings.Contains(out.String(), "UNDEFINED×1") {
		t.Errorf("author not written as undefined: %s", out)
	}
}

func TestEncodePlainHasNoIdentity(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	v, _, _, _ := f.st.Read("list")
	var nilTable *Identities
	raw := nilTable.Output(nil, wire.Header{}, "", f.list, v)
	o, err := wire.Decode(raw, nil) // a table-less decode fails on identity ops
	if err != nil {
		t.Fatal(err)
	}
	if n := o.Counts[wire.OpDate]; n != 2 {
		t.Errorf("%d date ops, want 2: %s", n, o.Value)
	}
	if err := wire.Match(o.Value, v); err != nil {
		t.Error(err)
	}
}

func TestEncodeUndefinedAndScalars(t *testing.T) {
	ids := NewIdentities()
	for _, c := range []struct {
		v    value.Value
		want string
	}{
		{value.Undef, `undefined`},
		{value.NullV, `null`},
		{value.Int(3), `3`},
		{value.Str("a\"b"), `"a\"b"`},
	} {
		o, err := wire.Decode(ids.Output(nil, wire.Header{}, "k", nil, c.v), &wire.Table{})
		if err != nil {
			t.Fatal(err)
		}
		if got := o.Value.String(); got != c.want {
			t.Errorf("%v: got %s, want %s", c.v, got, c.want)
		}
	}
}

func TestEncodeResetForgetsEverything(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	f.read(t, "list", f.list)
	f.ids.Reset()
	f.dec.table.Reset()
	_, out := f.read(t, "list", f.list)
	if out.Counts[wire.OpRegister] == 0 || out.Counts[wire.OpDefineShape] == 0 {
		t.Errorf("read after reset did not send data and shapes: %s", out)
	}
}

// sizeEstimate stays near value.SizeHint (writeRead reserves what it
// says), also for a long array it measures by samples.
func TestSizeEstimate(t *testing.T) {
	for _, n := range []int{1, 16, 17, 1000} {
		st := store.New()
		storetest.Apply(t, st, "list", pipelineSchema(), valuetest.Articles(n, 1), 1)
		v, _, _, _ := st.Read("list")
		exact, est := value.SizeHint(v), sizeEstimate(v)
		assert.GreaterOrEqual(t, est, exact*9/10, "N=%d", n)
		assert.LessOrEqual(t, est, exact*13/10, "N=%d", n)
	}
}

// TestEncodeLazy: a Lazy field is written as stored (its pks: no entity,
// no Date op), and a Lazy's query as its inner schema's read: at the top
// an entity position (one identity, dates marked), as a member too.
func TestEncodeLazy(t *testing.T) {
	f := newFixture()
	shelf := &schema.Entity{Key: "Shelf", Defaults: value.MustParse(`{"id":null,"articles":[]}`),
		Schema: map[string]schema.Schema{"articles": schema.LazyOf(f.list)}}
	f.store(t, "shelf", shelf, `{"id":"s","articles":`+twoArticles+`}`, 1)
	got, out := f.read(t, "shelf", shelf)
	assert.Equal(t, []any{"1", "2"}, got.(map[string]any)["articles"], "%s", out)
	assert.Zero(t, out.Counts[wire.OpDate])

	q := schema.LazyOf(f.article).Query()
	for _, s := range []schema.Schema{q, schema.ObjectOf(schema.Nested("a", q))} {
		read, in, ok, err := schema.QueryInput(s, []value.Value{value.MustParse(`{"id":"1"}`)})
		require.NoError(t, err)
		require.True(t, ok)
		v, status := schema.Denormalize(read, in, f.st, nil, f.st.Version())
		require.Equal(t, schema.Found, status)
		// As df.denormalize hands it: by the schema itself.
		got, out := f.dec.decode(t, f.ids.Output(nil, wire.Header{}, "q", s, v))
		article, isObj := got.(map[string]any)
		require.True(t, isObj, "%s", out)
		if _, isObject := s.(*schema.Object); isObject {
			article = article["a"].(map[string]any)
		}
		assert.Equal(t, "one", article["title"], "%s", out)
		_, isDate := article["createdAt"].(dateMark)
		assert.True(t, isDate, "the date is marked: %s", out)
	}
}
