package schema_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// The fuzz targets of this file feed normalization random data, against
// fixed schemas (FuzzNormalize) and against schemas built from the fuzz
// input itself (FuzzNormalizeSchema). Crashers found so far are kept in
// testdata/fuzz/<target>/ and run with every `go test`.

// hangLimit is the watchdog's limit: a hang guard far above what any input
// takes, even with -race on a machine busy with other work.
const hangLimit = 2 * time.Minute

// watchdog fails the fuzz input (by crashing the worker, the only way to
// stop a goroutine that does not return) when it runs longer than limit:
// normalization and denormalization must terminate on any input.
func watchdog(limit time.Duration, what string) func() bool {
	t := time.AfterFunc(limit, func() {
		panic(fmt.Sprintf("%s did not finish within %v", what, limit))
	})
	return t.Stop
}

// fixedSchemas are the shapes of FuzzNormalize: entities with nested
// entities, a self-reference (cycles), dates, a custom pk field, lists,
// objects with defaults, unions and maps. Every nested-entity field defaults
// to null, so a reference to a missing entity (read as undefined) and the
// default it takes once stored again (null) compare as equivalent.
func fixedSchemas() []schema.Schema {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":"","bestFriend":null,"friends":[]}`)}
	comment := &schema.Entity{Key: "Comment", PK: "cid", Defaults: value.MustParse(`{"cid":null,"body":"","author":null}`),
		Schema: map[string]schema.Schema{"author": user}}
	article := &schema.Entity{Key: "Article",
		Defaults: value.MustParse(`{"id":null,"title":"","content":"","published":false,"author":null,"tags":[],"createdAt":null,"comments":[]}`),
		Schema:   map[string]schema.Schema{"author": user, "createdAt": schema.Date, "comments": schema.ArrayOf(comment)}}
	user.Schema = map[string]schema.Schema{"bestFriend": user, "friends": schema.ArrayOf(user)}
	post := &schema.Entity{Key: "Post", Defaults: value.MustParse(`{"id":null,"type":"post","title":"","author":null}`),
		Schema: map[string]schema.Schema{"author": user}}
	union := &schema.Union{Schemas: map[string]schema.Schema{"post": post, "user": user, "article": article}, Attribute: "type"}
	page := schema.ObjectOf(
		schema.Nested("results", schema.ArrayOf(article)),
		schema.Nested("featured", union),
		schema.Nested("byUser", schema.ValuesOf(user)),
		schema.Default("nextPage", value.Str("")),
		schema.Default("total", value.Int(0)),
	)
	return []schema.Schema{
		article,
		schema.ArrayOf(article),
		page,
		union,
		schema.ArrayOf(union),
		schema.ValuesOf(user),
		schema.ValuesOf(schema.ArrayOf(comment)),
		user,
		schema.ObjectOf(schema.Nested("data", schema.ObjectOf(schema.Nested("items", schema.ArrayOf(post))))),
	}
}

// FuzzNormalize normalizes random JSON by a fixed set of schemas. It must
// not panic, and either fail with a *schema.Error that names the schema
// and the path of the offending value, or give a result whose
// denormalization normalizes again to the same entities: every record
// stored from the second pass is the first pass's record (with defaults
// filled in), and the two reads are equivalent.
func FuzzNormalize(f *testing.F) {
	for i, seed := range []string{
		`{"id":1,"title":"a","author":{"id":7,"name":"u"},"createdAt":"2024-01-02T03:04:05Z"}`,
		`[{"id":1,"author":7},{"id":2,"author":{"id":7,"bestFriend":{"id":8,"bestFriend":7}}}]`,
		`{"results":[{"id":1,"comments":[{"cid":"c1","author":{"id":3}}]}],"nextPage":"2","featured":{"type":"post","id":9}}`,
		`{"type":"user","id":5,"friends":[{"id":6,"friends":[5]},{"id":5}]}`,
		`[{"type":"post","id":1},{"type":"article","id":1,"author":{"id":1,"name":"x"}},{"type":"user","id":1}]`,
		`{"a":{"id":1},"b":{"id":"1","name":"later"},"c":null}`,
		`{"x":[{"cid":1,"body":"b"},{"cid":1.0}],"y":[]}`,
		`{"id":5,"bestFriend":{"id":6,"bestFriend":{"id":5}},"friends":[{"id":6},{"id":7,"friends":[5,6,7]}]}`,
		`{"data":{"items":[{"id":1,"author":{"id":2}},{"id":1,"title":"dup"}]}}`,
		`{"id":null}`, `{"id":{"a":1}}`, `[true]`, `{"id":1,"createdAt":"yesterday"}`, `null`, `"5"`, `[]`,
		`{"id":1,"author":[1]}`, `{"type":"dog","id":1}`, `{"id":1,"createdAt":1700000000000}`, `{"id":-0,"name":"zero"}`,
	} {
		f.Add(uint8(i), []byte(seed))
	}
	schemas := fixedSchemas()
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		// Parsed onto a tape, as responses are (value.ParseLazy, which
		// FuzzParseLazy holds to Parse).
		in, err := value.ParseLazy(string(data))
		if err != nil {
			return
		}
		defer watchdog(hangLimit, "normalize and denormalize")()
		s := schemas[int(sel)%len(schemas)]
		n, err := schema.Normalize(s, in)
		if err != nil {
			checkSchemaError(t, err)
			return
		}
		st1, d1 := storeAndRead(s, n)
		checkRepeats(t, data, s, in, n, st1, d1)
		if !treeAtMost(d1, 1<<16) {
			// A read shares the value of an entity wherever it appears, so
			// walked as a tree (as normalizing it again does) it can be far
			// larger than the data: a chain of references each listing the
			// next twice doubles at every step. That is in the nature of
			// denormalizing, so such reads are not normalized again.
			return
		}
		checkEager(t, s, n.Result, st1, d1)
		n2, err := schema.Normalize(s, d1)
		if err != nil {
			t.Fatalf("the read of %s does not normalize again: %v\nread: %s", data, err, d1)
		}
		if dangling(st1, s, n) {
			// A reference to an entity that is not stored reads as nothing
			// (a list leaves it out), except inside a record cut at a cycle,
			// which shows keys as they are: stored again, such a read no
			// longer holds the dangling key, so only complete data can
			// come back the same.
			return
		}
		st2, d2 := storeAndRead(s, n2)
		if !equivalent(d1, d2) {
			t.Fatalf("%s: read, normalized and read again differs:\nfirst  %s\nsecond %s", data, d1, d2)
		}
		for _, w := range n2.Merged() {
			s1 := st1.Slot(w.Entity.Key, w.PK)
			if s1 == nil || s1.Deleted {
				t.Fatalf("%s: the second pass stores %s %s, which the first did not", data, w.Entity.Key, w.PK)
			}
			want := filled(w.Entity, s1.Value)
			got := st2.Slot(w.Entity.Key, w.PK).Value
			for _, m := range want.Members() {
				if w.Entity.Schema[m.Key] != nil {
					continue // compared through the reads
				}
				if g := got.Get(m.Key); !value.Equal(g, m.Value) {
					t.Fatalf("%s: %s %s field %s: stored %s, then %s", data, w.Entity.Key, w.PK, m.Key, m.Value, g)
				}
			}
			if got.Len() != want.Len() {
				t.Fatalf("%s: %s %s: stored %s, then %s", data, w.Entity.Key, w.PK, want, got)
			}
		}
	})
}

// checkRepeats normalizes in by s again listing every occurrence of a
// record (schema.KeepRepeats), stores that, and checks that it stores
// what n, stored in st and read as d, did: leaving out a record the
// response wrote just before changes nothing.
func checkRepeats(t *testing.T, data []byte, s schema.Schema, in value.Value, n *schema.Normalized, st *store.Store, d value.Value) {
	t.Helper()
	restore := schema.KeepRepeats()
	all, err := schema.Normalize(s, in)
	restore()
	if err != nil {
		t.Fatalf("%s: normalized with every occurrence: %v", data, err)
	}
	if len(n.Entities) > len(all.Entities) {
		t.Fatalf("%s: %d writes, more than the %d occurrences", data, len(n.Entities), len(all.Entities))
	}
	stAll, dAll := storeAndRead(s, all)
	if !equivalent(d, dAll) {
		t.Fatalf("%s: the read differs with every occurrence written:\nrepeats out %s\nall         %s", data, d, dAll)
	}
	for _, w := range all.Entities {
		a, b := st.Slot(w.Entity.Key, w.PK), stAll.Slot(w.Entity.Key, w.PK)
		if (a == nil) != (b == nil) || a != nil && (a.Deleted != b.Deleted || a.Meta != b.Meta || !value.Equal(a.Value, b.Value)) {
			t.Fatalf("%s: %s %s stored differs with every occurrence written", data, w.Entity.Key, w.PK)
		}
	}
}

// treeAtMost reports whether v, walked as a tree, has at most limit nodes.
func treeAtMost(v value.Value, limit int) bool {
	n := 0
	var walk func(v value.Value) bool
	walk = func(v value.Value) bool {
		if n++; n > limit {
			return false
		}
		for _, el := range v.Elems() {
			if !walk(el) {
				return false
			}
		}
		for _, m := range v.Members() {
			if !walk(m.Value) {
				return false
			}
		}
		return true
	}
	return walk(v)
}

// dangling reports whether the result or a record of n references an
// entity that st does not hold.
func dangling(st *store.Store, s schema.Schema, n *schema.Normalized) bool {
	found := false
	check := func(e *schema.Entity, pk string) {
		if sl := st.Slot(e.Key, pk); sl == nil || sl.Deleted {
			found = true
		}
	}
	refs(s, n.Result, check)
	for _, w := range n.Entities {
		for name, f := range w.Entity.Schema {
			refs(f, w.Record().Get(name), check)
		}
	}
	return found
}

// refs calls fn with every entity reference in v, a normalized value of s.
func refs(s schema.Schema, v value.Value, fn func(e *schema.Entity, pk string)) {
	switch s := s.(type) {
	case *schema.Entity:
		if pk, ok := v.Text(); ok && !v.IsNull() {
			fn(s, pk)
		}
	case *schema.Array:
		for _, el := range v.Elems() {
			refs(s.Of, el, fn)
		}
	case *schema.Values:
		for _, m := range v.Members() {
			refs(s.Of, m.Value, fn)
		}
	case *schema.Object:
		for _, f := range s.Fields {
			if f.Schema != nil {
				refs(f.Schema, v.Get(f.Name), fn)
			}
		}
	case *schema.Union:
		if e := s.Schemas[v.Get("schema").Str()]; e != nil {
			refs(e, v.Get("id"), fn)
		}
	}
}

// checkSchemaError asserts that err is a *schema.Error naming a schema and
// a path into the response.
func checkSchemaError(t *testing.T, err error) {
	t.Helper()
	var se *schema.Error
	if !errors.As(err, &se) {
		t.Fatalf("error is %T, not *schema.Error: %v", err, err)
	}
	if se.Schema == "" || !strings.HasPrefix(se.Path, "$") {
		t.Fatalf("error names no schema or path: %#v", se)
	}
	if msg := err.Error(); !strings.Contains(msg, se.Path) || !strings.Contains(msg, se.Schema) {
		t.Fatalf("message %q does not name %s at %s", msg, se.Schema, se.Path)
	}
}

// storeAndRead stores n under "k" in a new store and reads it back.
func storeAndRead(s schema.Schema, n *schema.Normalized) (*store.Store, value.Value) {
	st := store.New()
	st.Apply(&store.Write{Key: "k", Schema: s, Result: n.Result, Entities: n.Entities,
		Meta: schema.Meta{Date: 1, FetchedAt: 1, ExpiresAt: 2}})
	v, _, _, _ := st.Read("k")
	return st, v
}

// eagerSource serves copies of a store's slots without their parsed
// records (Slot.Parsed) and with their records built (builtCopy), so that
// denormalizing from it builds every entity as a copy of its normalized
// record, the way reads were made before parsed records were handed back
// and records read off their tapes.
type eagerSource struct {
	st    *store.Store
	slots map[[2]string]*schema.Slot
}

func (e *eagerSource) Slot(key, pk string) *schema.Slot {
	s := e.st.Slot(key, pk)
	if s == nil {
		return nil
	}
	if c := e.slots[[2]string{key, pk}]; c != nil {
		return c
	}
	c := &schema.Slot{Key: key, PK: pk, Value: builtCopy(s.Value), Deleted: s.Deleted, Meta: s.Meta, Version: s.Version}
	e.slots[[2]string{key, pk}] = c
	return c
}

// builtCopy returns v, or, when v is an array or object on a tape not
// built yet (value.Value.Unbuilt), a built copy of it, leaving v unbuilt:
// a read then copies a record that is built, where the store's read
// copies one off its tape.
func builtCopy(v value.Value) value.Value {
	switch {
	case !v.Unbuilt():
		return v
	case v.Kind() == value.Object:
		return value.Obj(v.AppendMembers(nil)...)
	}
	return value.Arr(v.AppendElems(nil)...)
}

// checkEager fails t unless read, the store's read of result, is exactly
// (the same JSON, members in the same order) what a read that copies every
// record instead of handing back parsed ones gives, with the same status.
func checkEager(t *testing.T, s schema.Schema, result value.Value, st *store.Store, read value.Value) {
	checkEagerAt(t, "k", s, result, st, read)
}

// checkEagerAt is checkEager for the result stored under key.
func checkEagerAt(t *testing.T, key string, s schema.Schema, result value.Value, st *store.Store, read value.Value) {
	t.Helper()
	_, wantSt, _, stored := st.Read(key)
	if !stored {
		// Nothing stored (an undefined result): the store reads Missing
		// without denormalizing anything to compare with.
		return
	}
	eager, gotSt := schema.Denormalize(s, result, &eagerSource{st: st, slots: map[[2]string]*schema.Slot{}}, nil, 0)
	if got, want := read.JSON(), eager.JSON(); got != want || gotSt != wantSt {
		t.Fatalf("a read handing back parsed records differs from one that copies them:\nread  %.2000s (%v)\ncopy  %.2000s (%v)",
			got, wantSt, want, gotSt)
	}
}

// filled is rec with e's defaults for absent fields, as a read fills it.
func filled(e *schema.Entity, rec value.Value) value.Value {
	var out []value.Member
	for _, m := range e.Defaults.Members() {
		if v := rec.Get(m.Key); !v.IsUndefined() {
			out = append(out, value.M(m.Key, v))
		} else {
			out = append(out, m)
		}
	}
	for _, m := range rec.Members() {
		if !e.Defaults.Has(m.Key) {
			out = append(out, m)
		}
	}
	return value.Obj(out...)
}

// equivalent is value.Equal, except that an object member that is
// undefined (a reference to a missing entity) matches one that is null (the
// default the field takes once the read is stored again).
func equivalent(a, b value.Value) bool {
	if value.Same(a, b) {
		return true
	}
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case value.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i, x := range a.Elems() {
			if !equivalent(x, b.Elems()[i]) {
				return false
			}
		}
		return true
	case value.Object:
		if a.Len() != b.Len() {
			return false
		}
		for _, m := range a.Members() {
			if !b.Has(m.Key) {
				return false
			}
			x, y := m.Value, b.Get(m.Key)
			if x.IsNullish() && y.IsNullish() {
				continue
			}
			if !equivalent(x, y) {
				return false
			}
		}
		return true
	}
	return value.Equal(a, b)
}

// ---------------------------------------------------------------- random schemas

// bytesReader hands out the fuzz input a byte at a time, then zeros.
type bytesReader struct {
	b []byte
	i int
}

func (r *bytesReader) next() int {
	if r.i >= len(r.b) {
		return 0
	}
	c := r.b[r.i]
	r.i++
	return int(c)
}

func (r *bytesReader) pick(n int) int { return r.next() % n }

var (
	fuzzKeys   = []string{"A", "B", "C", "A"} // two entities may share a key
	fuzzFields = []string{"id", "x", "y", "type", "pk", "next", ""}
	fuzzPKs    = []string{"1", "2", "3", "", "SINGLETON"}
)

// junk returns a small JSON value of any kind.
func junk(r *bytesReader) value.Value {
	switch r.pick(10) {
	case 0:
		return value.NullV
	case 1:
		return value.Int(int64(r.pick(4)))
	case 2:
		return value.Str(fuzzPKs[r.pick(len(fuzzPKs))])
	case 3:
		return value.True
	case 4:
		return value.Arr()
	case 5:
		return value.Obj()
	case 6:
		return value.Num(1.5)
	case 7:
		return value.Str("2024-01-02")
	case 8:
		return value.Obj(value.M("id", value.Int(int64(r.pick(3)))))
	}
	return value.Undef
}

// schemaBuilder makes a schema tree from fuzz bytes: entities (sharing
// keys, with pk fields or functions, defaults of any kind and hooks) that
// may reference each other and themselves, arrays, objects with nested
// schemas and defaults, maps, unions, dates and invalidations.
type schemaBuilder struct {
	r    *bytesReader
	ents []*schema.Entity
}

func (b *schemaBuilder) entities() {
	r := b.r
	n := 1 + r.pick(4)
	for i := 0; i < n; i++ {
		e := &schema.Entity{Key: fuzzKeys[r.pick(len(fuzzKeys))]}
		switch r.pick(6) {
		case 1:
			e.PK = "pk"
		case 2:
			e.PK = "x"
		case 3:
			c := fuzzPKs[r.pick(len(fuzzPKs))]
			e.PKFunc = func(rec, parent value.Value, key string, _ value.Value) (string, bool, error) { return c, c != "", nil }
		case 4:
			e.PKFunc = func(rec, parent value.Value, key string, _ value.Value) (string, bool, error) {
				if rec.Get("fail").Boolean() {
					return "", false, errors.New("pk function failed")
				}
				pk, ok := rec.Get("id").Text()
				return pk, ok, nil
			}
		}
		if r.pick(8) == 0 {
			e.Defaults = junk(r) // usually not an object: Check refuses it
		} else {
			var ms []value.Member
			for k := r.pick(4); k > 0; k-- {
				name := fuzzFields[r.pick(len(fuzzFields))]
				if !hasMember(ms, name) {
					ms = append(ms, value.M(name, junk(r)))
				}
			}
			e.Defaults = value.Obj(ms...)
		}
		hooks := r.next()
		if hooks&1 != 0 {
			e.Process = func(rec, parent value.Value, key string, _ value.Value) (value.Value, error) {
				switch {
				case rec.Get("fail").Boolean():
					return value.Undef, errors.New("process failed")
				case rec.Get("wrap").Boolean():
					return value.Obj(value.M("id", rec.Get("id")), value.M("inner", rec)), nil
				case rec.Get("flat").Boolean():
					return rec.Get("id"), nil // not a record
				}
				return rec, nil
			}
		}
		switch hooks >> 1 & 3 {
		case 1:
			e.Merge = func(a, b value.Value) value.Value { return b }
		case 2:
			e.Merge = func(a, b value.Value) value.Value { return a }
		case 3:
			e.Merge = func(a, b value.Value) value.Value { return value.Str("merged") } // not a record
		}
		if hooks&8 != 0 {
			e.UseIncoming = func(em, im schema.Meta, a, b value.Value) bool { return im.FetchedAt >= em.FetchedAt }
		}
		if hooks&16 != 0 {
			e.ShouldReorder = func(em, im schema.Meta, a, b value.Value) bool { return a.Len() > b.Len() }
		}
		b.ents = append(b.ents, e)
	}
	// Fields after every entity exists, so that they can form cycles.
	for _, e := range b.ents {
		for k := r.pick(3); k > 0; k-- {
			if e.Schema == nil {
				e.Schema = map[string]schema.Schema{}
			}
			e.Schema[fuzzFields[r.pick(len(fuzzFields))]] = b.schema(1)
		}
	}
}

func hasMember(ms []value.Member, name string) bool {
	for _, m := range ms {
		if m.Key == name {
			return true
		}
	}
	return false
}

func (b *schemaBuilder) entity() *schema.Entity { return b.ents[b.r.pick(len(b.ents))] }

func (b *schemaBuilder) schema(depth int) schema.Schema {
	r := b.r
	k := r.pick(9)
	if depth > 4 && k >= 2 && k <= 5 {
		k = 0
	}
	switch k {
	case 2:
		return schema.ArrayOf(b.schema(depth + 1))
	case 3:
		var fields []schema.Field
		for n := r.pick(4); n > 0; n-- {
			name := fuzzFields[r.pick(len(fuzzFields))]
			if r.pick(2) == 0 {
				fields = append(fields, schema.Nested(name, b.schema(depth+1)))
			} else {
				fields = append(fields, schema.Default(name, junk(r)))
			}
		}
		return schema.ObjectOf(fields...)
	case 4:
		return schema.ValuesOf(b.schema(depth + 1))
	case 5:
		u := &schema.Union{Schemas: map[string]schema.Schema{}, Attribute: "type"}
		for n := 1 + r.pick(3); n > 0; n-- {
			u.Schemas[fuzzKeys[r.pick(len(fuzzKeys))]] = b.entity()
		}
		if r.pick(3) == 0 {
			u.AttributeFunc = func(in, parent value.Value, key string) string { s, _ := in.Get("kind").Text(); return s }
		}
		return u
	case 6:
		return schema.Date
	case 7:
		return schema.InvalidateOf(b.entity())
	case 8:
		// As many bytes as the entity below, so that the corpus keeps
		// its shapes.
		return schema.LazyOf(b.entity())
	case 1:
		if r.pick(2) == 0 {
			// A Scalar: as an entity's field, or standalone (bound,
			// or not, which a response refuses).
			var bound *schema.Entity
			if r.pick(3) != 0 {
				bound = b.entity()
			}
			return schema.LensOf(fuzzKeys[r.pick(len(fuzzKeys))], fuzzLens, bound)
		}
	}
	return b.entity()
}

// fuzzLens is a Scalar's lens: the "lens" member of args[0], when a string.
func fuzzLens(args value.Value) (string, bool) {
	if args.Len() == 0 {
		return "", false
	}
	v := args.Elems()[0].Get("lens")
	return v.Str(), v.Kind() == value.String
}

// data makes a value roughly of shape s, with deviations: records with and
// without keys, repeated and cross-referencing pks, bare pks, wrong kinds.
func (b *schemaBuilder) data(s schema.Schema, depth int) value.Value {
	r := b.r
	if l, ok := s.(*schema.Lazy); ok {
		s = l.Of // data for what it normalizes by
	}
	if depth > 6 || r.pick(12) == 0 {
		return junk(r)
	}
	switch s := s.(type) {
	case *schema.Entity:
		return b.record(s, depth)
	case *schema.Invalidate:
		if r.pick(2) == 0 {
			return value.Str(fuzzPKs[r.pick(len(fuzzPKs))])
		}
		return b.record(s.Entity, depth)
	case *schema.Union:
		var ms []value.Member
		for name, e := range s.Schemas {
			rec := b.record(e.(*schema.Entity), depth)
			ms = append(rec.Members(), value.M("type", value.Str(name)), value.M("kind", value.Str(name)))
			break
		}
		return value.Obj(dedupe(ms)...)
	case *schema.Array:
		var els []value.Value
		for n := r.pick(4); n > 0; n-- {
			els = append(els, b.data(s.Of, depth+1))
		}
		return value.Arr(els...)
	case *schema.Values:
		var ms []value.Member
		for n := r.pick(4); n > 0; n-- {
			ms = append(ms, value.M(fuzzFields[r.pick(len(fuzzFields))], b.data(s.Of, depth+1)))
		}
		return value.Obj(dedupe(ms)...)
	case *schema.Object:
		var ms []value.Member
		for _, f := range s.Fields {
			if f.Schema != nil {
				ms = append(ms, value.M(f.Name, b.data(f.Schema, depth+1)))
			}
		}
		return value.Obj(dedupe(ms)...)
	}
	if schema.IsDate(s) {
		return [...]value.Value{value.Str("2024-01-02T03:04:05Z"), value.Int(1700000000000), value.Str("soon"), value.True}[r.pick(4)]
	}
	return junk(r)
}

func (b *schemaBuilder) record(e *schema.Entity, depth int) value.Value {
	r := b.r
	var ms []value.Member
	if r.pick(6) != 0 {
		pk := "id"
		if e.PK != "" {
			pk = e.PK
		}
		ms = append(ms, value.M(pk, value.Str(fuzzPKs[r.pick(3)])))
	}
	for name, sub := range e.Schema {
		switch r.pick(3) {
		case 0:
			ms = append(ms, value.M(name, b.data(sub, depth+1)))
		case 1:
			ms = append(ms, value.M(name, value.Str(fuzzPKs[r.pick(3)]))) // a bare pk
		}
	}
	for n := r.pick(3); n > 0; n-- {
		flag := [...]string{"fail", "wrap", "flat", "x", "type"}[r.pick(5)]
		ms = append(ms, value.M(flag, junk(r)))
	}
	if r.pick(5) == 0 {
		ms = append(ms, value.M("fail", value.True))
	}
	return value.Obj(dedupe(ms)...)
}

// dedupe keeps the last member of each key: Obj requires unique keys.
func dedupe(ms []value.Member) []value.Member {
	var out []value.Member
	for i, m := range ms {
		if !hasMember(ms[i+1:], m.Key) {
			out = append(out, m)
		}
	}
	return out
}

// FuzzNormalizeSchema builds a schema from the first input and normalizes
// the second (JSON, or data built from the schema when it is not JSON) by
// it, then stores, reads, queues and drops an optimistic copy and reads
// again. Nothing may panic, and everything must finish (the watchdog).
// Schemas that Check refuses are only checked: endpoints refuse them.
func FuzzNormalizeSchema(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0}, []byte(`{"id":1}`))
	f.Add([]byte{3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{2, 0, 1, 0, 2, 0, 0, 1, 1, 0, 0, 0, 2, 1}, []byte(`[{"id":1,"next":{"id":2,"next":1}},{"id":2}]`))
	f.Add([]byte{1, 5, 1, 0, 0, 31, 1, 0, 0, 5, 2, 2, 1}, []byte("not json, so data is generated"))
	f.Add([]byte{4, 2, 4, 6, 1, 9, 3, 7, 5, 5, 5, 5}, []byte(`{"a":{"id":"1","type":"A"},"b":null}`))
	f.Add([]byte{2, 3, 0, 0, 0, 0, 7, 1, 1, 2, 0, 2, 1}, []byte(`[{"id":2},"1",{"pk":3}]`))
	f.Fuzz(func(t *testing.T, shape, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		b := &schemaBuilder{r: &bytesReader{b: shape}}
		b.entities()
		s := b.schema(0)
		if err := schema.Check(s); err != nil {
			return
		}
		in, err := value.ParseLazy(string(data))
		if err != nil {
			b.r = &bytesReader{b: data}
			in = b.data(s, 0)
		}
		defer watchdog(hangLimit, "normalize and denormalize")()
		// Args with a lens for a Scalar, or none (then it refuses data).
		var args schema.Args
		if len(shape) > 0 && shape[0]&1 != 0 {
			args.Params = value.Obj(value.M("lens", value.Str("A")))
		}
		n, err := schema.NormalizeArgs(s, in, args)
		if err != nil {
			checkSchemaError(t, err)
			return
		}
		n.Merged()
		st := store.New()
		st.Apply(&store.Write{Key: "k", Schema: s, Result: n.Result, Entities: n.Entities,
			Meta: schema.Meta{Date: 10, FetchedAt: 10, ExpiresAt: 20}})
		first, _, _, _ := st.Read("k")
		if treeAtMost(first, 1<<16) {
			checkEager(t, s, n.Result, st, first)
		}
		p := st.AddPending(store.Write{Key: "k", Schema: s, Result: n.Result, Entities: n.Entities,
			Meta: schema.Meta{Date: 5, FetchedAt: 5, ExpiresAt: 20}})
		st.Read("k")
		st.State()
		st.RemovePending(p)
		again, _, _, _ := st.Read("k")
		if !value.Same(first, again) && !value.Equal(first, again) {
			t.Fatalf("dropping an optimistic write changed the read:\nbefore %s\nafter  %s", first, again)
		}
		if treeAtMost(again, 1<<16) {
			checkEager(t, s, n.Result, st, again)
		}
		schema.Denormalize(s, n.Result, st, nil, 0)
		st.ReadArgs("k", args)
		st.ReadArgs("k", schema.Args{Params: value.Obj(value.M("lens", value.Str("B")))})
		st.Reset()
		st.State()
	})
}
