package jsbridge

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// decoder simulates decode in datafetch.mjs: it applies outputs in order
// and keeps the id → object map, so tests can check identity the way
// JavaScript's === would (by map and slice pointers).
type decoder struct {
	objs map[float64]any
}

type dateMark struct{ v any }

func (d *decoder) decode(t *testing.T, out string) any {
	t.Helper()
	var o struct {
		R *float64        `json:"r"`
		D json.RawMessage `json:"d"`
		O [][]any         `json:"o"`
		X []float64       `json:"x"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	var data any
	if o.R != nil {
		obj, ok := d.objs[*o.R]
		if !ok {
			t.Fatalf("ref to unknown id %v", *o.R)
		}
		data = obj
	} else if o.D != nil {
		if err := json.Unmarshal(o.D, &data); err != nil {
			t.Fatal(err)
		}
	}
	for _, op := range o.O {
		kind, id, path := op[0].(float64), op[1].(float64), op[2:]
		var ranges []any
		var newID float64
		switch kind {
		case opKept:
			ranges, path = op[2].([]any), op[3:]
		case opOver:
			newID, path = op[2].(float64), op[3:]
		}
		get := func() any {
			x := data
			for _, p := range path {
				x = step(x, p)
			}
			return x
		}
		set := func(v any) {
			if len(path) == 0 {
				data = v
				return
			}
			parent := data
			for _, p := range path[:len(path)-1] {
				parent = step(parent, p)
			}
			switch p := parent.(type) {
			case map[string]any:
				p[path[len(path)-1].(string)] = v
			case []any:
				p[int(path[len(path)-1].(float64))] = v
			}
		}
		switch kind {
		case opRegister:
			d.objs[id] = get()
		case opRef:
			obj, ok := d.objs[id]
			if !ok {
				t.Fatalf("ref op to unknown id %v in %s", id, out)
			}
			set(obj)
		case opDate:
			set(dateMark{get()})
		case opOver:
			prev, ok := d.objs[id].(map[string]any)
			if !ok {
				t.Fatalf("over op names %v, not a known object, in %s", id, out)
			}
			merged := make(map[string]any, len(prev))
			for k, v := range prev {
				merged[k] = v
			}
			for k, v := range get().(map[string]any) {
				merged[k] = v
			}
			set(merged)
			d.objs[newID] = merged
		case opKept:
			before, ok := d.objs[id]
			for _, p := range path {
				before = step(before, p)
			}
			prev, isList := before.([]any)
			if !ok || !isList {
				t.Fatalf("kept op names %v, not a known object with an array at %v, in %s", id, path, out)
			}
			list := get().([]any)
			for k := 0; k < len(ranges); k += 2 {
				for i := int(ranges[k].(float64)); i < int(ranges[k+1].(float64)); i++ {
					list[i] = prev[i]
				}
			}
		}
	}
	for _, id := range o.X {
		delete(d.objs, id)
	}
	return data
}

func step(x, p any) any {
	switch x := x.(type) {
	case map[string]any:
		return x[p.(string)]
	case []any:
		return x[int(p.(float64))]
	}
	return nil
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
	ids     *identities
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
		ids:  newIdentities(), dec: &decoder{objs: map[float64]any{}},
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
func (f *fixture) read(t *testing.T, key string, s schema.Schema) (any, string) {
	t.Helper()
	v, _, _, _ := f.st.Read(key)
	out := string(closeObject(f.ids.appendRead([]byte{'{'}, key, s, v)))
	return f.dec.decode(t, out), out
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
	if n := strings.Count(out, "[0,"); n != 4 {
		t.Errorf("%d register ops, want 4: %s", n, out)
	}
	if len(f.ids.entries) != 4 {
		t.Errorf("table holds %d ids, want 4", len(f.ids.entries))
	}
}

func TestEncodeUnchangedReadIsOneRef(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	first, _ := f.read(t, "list", f.list)
	second, out := f.read(t, "list", f.list)
	if !strings.HasPrefix(out, `{"r":`) || strings.Contains(out, `"d"`) {
		t.Errorf("unchanged re-read sent data: %s", out)
	}
	if !same(first, second) {
		t.Error("unchanged re-read is a new object")
	}
	if len(f.ids.entries) != 4 {
		t.Errorf("table holds %d ids after re-read, want 4", len(f.ids.entries))
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
	if strings.Contains(out, `"x":[`) {
		t.Errorf("ids dropped while the previous emission is kept: %s", out)
	}
	if len(f.ids.entries) != 6 {
		t.Errorf("table holds %d ids, want 6 (2 roots, 3 articles, author)", len(f.ids.entries))
	}
	// A third version pushes the first out: its root and its article 2 go.
	f.store(t, "one", f.article, `{"id":"2","title":"two, edited again"}`, 3)
	_, out = f.read(t, "list", f.list)
	if !strings.Contains(out, `"x":[`) {
		t.Errorf("no ids dropped: %s", out)
	}
	if len(f.ids.entries) != 6 {
		t.Errorf("table holds %d ids, want 6", len(f.ids.entries))
	}
	if len(f.dec.objs) != len(f.ids.entries) {
		t.Errorf("JavaScript holds %d ids, Go %d", len(f.dec.objs), len(f.ids.entries))
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
	if !same(again, before) || !strings.HasPrefix(out, `{"r":`) {
		t.Errorf("re-read after the rollback: %s", out)
	}
}

func TestEncodeSharedEntityOutlivesOneSlot(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	f.store(t, "get1", f.article, `{"id":"1","title":"one","author":7}`, 1)
	list, _ := f.read(t, "list", f.list)
	one, out := f.read(t, "get1", f.article)
	if !strings.HasPrefix(out, `{"r":`) {
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
	if len(f.ids.entries) != 4 { // two list roots, article 1, its author
		t.Errorf("table holds %d ids, want 4", len(f.ids.entries))
	}
	if len(f.dec.objs) != len(f.ids.entries) {
		t.Errorf("JavaScript holds %d ids, Go %d", len(f.dec.objs), len(f.ids.entries))
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

func TestEncodeMissingNestedEntityIsLeftOut(t *testing.T) {
	f := newFixture()
	f.store(t, "get", f.article, `{"id":"5","title":"x","author":99}`, 1)
	// author 99 was never stored: remove nothing, just read.
	got, out := f.read(t, "get", f.article)
	if _, ok := got.(map[string]any)["author"]; ok {
		t.Errorf("missing author present: %s", out)
	}
}

func TestEncodePlainHasNoIdentity(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	v, _, _, _ := f.st.Read("list")
	var nilTable *identities
	out := string(closeObject(nilTable.appendRead([]byte{'{'}, "", f.list, v)))
	if strings.Contains(out, "[0,") || strings.Contains(out, "[1,") {
		t.Errorf("plain read has identity ops: %s", out)
	}
	if n := strings.Count(out, "[2,"); n != 2 {
		t.Errorf("%d date ops, want 2: %s", n, out)
	}
}

func TestEncodeUndefinedAndScalars(t *testing.T) {
	ids := newIdentities()
	for _, c := range []struct {
		v    value.Value
		want string
	}{
		{value.Undef, `{}`},
		{value.NullV, `{"d":null}`},
		{value.Int(3), `{"d":3}`},
		{value.Str("a\"b"), `{"d":"a\"b"}`},
	} {
		if got := string(closeObject(ids.appendRead([]byte{'{'}, "k", nil, c.v))); got != c.want {
			t.Errorf("%v: got %s, want %s", c.v, got, c.want)
		}
	}
}

func TestEncodeResetForgetsEverything(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	f.read(t, "list", f.list)
	f.ids.reset()
	f.dec.objs = map[float64]any{}
	_, out := f.read(t, "list", f.list)
	if !strings.Contains(out, `"d":`) {
		t.Errorf("read after reset did not send data: %s", out)
	}
}
