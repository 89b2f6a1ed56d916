package store_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// FuzzOptimisticQueue runs random sequences of Apply, AddPending,
// RemovePending and Reset and checks the store after every step against a
// naive model: the visible state must be the base (every Apply since the
// last Reset, replayed from nothing) with the pending writes replayed over
// it in the order they were added. The model shares no code with the store:
// it keeps plain maps and recomputes everything from the history each time.
// Reads must also keep their identity (value.Same) across a step that
// changes nothing they show. A twin store makes every step through Make
// with a gate (hooks prepared, then committed: see change.go), and must
// show the same state.
func FuzzOptimisticQueue(f *testing.F) {
	f.Add([]byte{0, 1, 0, 3, 2, 1, 1, 0, 0, 4, 0})
	f.Add([]byte{2, 5, 1, 1, 7, 0, 0, 2, 3, 1, 2, 4, 1, 0, 3, 4, 0, 0, 4, 1})
	f.Add([]byte("an optimistic create, a response in between, then a rollback"))
	f.Add([]byte{2, 7, 2, 0, 9, 1, 1, 2, 6, 1, 2, 0, 3, 0, 0, 0, 1, 5, 1, 1, 3, 4, 1, 4, 0})
	f.Add([]byte{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4})
	f.Add([]byte{5, 0, 2, 4, 1, 4, 1, 0, 2, 2, 1, 0, 0, 1, 2, 2, 4, 8, 2, 4, 1, 0, 2, 6, 4, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 1024 {
			return
		}
		// A hang guard, far above what any sequence takes, even under -race
		// on a busy machine.
		stop := time.AfterFunc(2*time.Minute, func() { panic("the sequence did not finish in 2 minutes") })
		defer stop.Stop()
		r := &reader{b: ops}
		st, twin := store.New(), store.New()
		m := &model{}
		var live, twinLive []*store.Pending
		var last map[string]value.Value
		for step := 0; r.more() && step < 100; step++ {
			var desc string
			switch op := r.pick(9); {
			case op <= 2:
				w := genWrite(r, true)
				desc = "Apply " + describe(&w)
				panicked := applyRecovered(st, &w)
				if gated := makeRecovered(twin, &store.Change{Write: &w}); gated != panicked {
					t.Fatalf("after %s:\nApply panicked: %v, through Make: %v", strings.Join(append(m.history, desc), "\n  then "), panicked, gated)
				}
				if want := m.panics(w); panicked != want {
					t.Fatalf("after %s:\nApply panicked: %v, want %v", strings.Join(append(m.history, desc), "\n  then "), panicked, want)
				}
				if panicked {
					desc += " (panicked: rolled back)"
				} else {
					m.base = append(m.base, w)
				}
			case op <= 5:
				w := genWrite(r, false)
				desc = "AddPending " + describe(&w)
				live = append(live, st.AddPending(w))
				made := &store.Change{Add: &w}
				if err := twin.Make(made, passGate); err != nil {
					t.Fatal(err)
				}
				twinLive = append(twinLive, made.Pending)
				m.pending = append(m.pending, w)
			case op <= 7:
				if len(live) == 0 {
					continue
				}
				i := r.pick(len(live))
				desc = fmt.Sprintf("RemovePending #%d", i)
				st.RemovePending(live[i])
				st.RemovePending(live[i]) // a second removal is a no-op
				live = append(live[:i:i], live[i+1:]...)
				for range 2 {
					if err := twin.Make(&store.Change{Remove: twinLive[i]}, passGate); err != nil {
						t.Fatal(err)
					}
				}
				twinLive = append(twinLive[:i:i], twinLive[i+1:]...)
				m.pending = append(m.pending[:i:i], m.pending[i+1:]...)
			default:
				if r.pick(3) != 0 {
					continue
				}
				desc = "Reset"
				st.Reset()
				twin.Reset()
				live, twinLive, m.base, m.pending = nil, nil, nil, nil
			}
			m.history = append(m.history, desc)

			want := m.visible()
			got := st.State()
			if err := compare(want, got); err != nil {
				t.Fatalf("after %s:\n%v\nstore: %s\nmodel: %s", strings.Join(m.history, "\n  then "), err, got, want.state())
			}
			if tg := twin.State(); tg.JSON() != got.JSON() {
				t.Fatalf("after %s:\nthrough Make: %s\nstore: %s", strings.Join(m.history, "\n  then "), tg, got)
			}
			if st.PendingCount() != len(live) {
				t.Fatalf("PendingCount %d, want %d", st.PendingCount(), len(live))
			}
			// Identity: a result whose normalized value and entities did
			// not change reads as the identical value.
			reads := map[string]value.Value{}
			for _, key := range resultKeys {
				v, _, _, ok := st.Read(key)
				if !ok {
					continue
				}
				reads[key] = v
				if prev, had := last[key]; had && desc != "Reset" && !m.changedFor(key, want) && !value.Same(prev, v) {
					t.Fatalf("after %s:\nread of %s changed identity though nothing it shows changed:\n%s\n%s",
						strings.Join(m.history, "\n  then "), key, prev, v)
				}
			}
			last = reads
			m.prev = want
		}
	})
}

// reader hands out the fuzz input.
type reader struct {
	b []byte
	i int
}

func (r *reader) more() bool { return r.i < len(r.b) }

func (r *reader) pick(n int) int {
	if r.i >= len(r.b) {
		return 0
	}
	c := r.b[r.i]
	r.i++
	return int(c) % n
}

var (
	entityA = &schema.Entity{Key: "A", Defaults: value.MustParse(`{"id":null,"x":0,"y":0}`)}
	// B refuses records marked stale, and its existing fields win when the
	// incoming record has fewer of them.
	entityB = &schema.Entity{Key: "B", Defaults: value.MustParse(`{"id":null,"x":0}`),
		UseIncoming: func(em, im schema.Meta, existing, incoming value.Value) bool {
			return !incoming.Get("stale").Boolean()
		},
		ShouldReorder: func(em, im schema.Meta, existing, incoming value.Value) bool {
			return incoming.Len() < existing.Len()
		},
	}
	// C's merge panics when the incoming record (its second argument: C
	// never reorders) is marked boom, as a JavaScript merge that throws
	// does. Only base writes carry such records.
	entityC = &schema.Entity{Key: "C", Defaults: value.MustParse(`{"id":null}`),
		Merge: func(a, b value.Value) value.Value {
			if b.Get("boom").Boolean() {
				panic("merge: boom")
			}
			return schema.ShallowMerge(a, b)
		},
		ShouldReorder: func(em, im schema.Meta, existing, incoming value.Value) bool { return false },
	}
	listOfA    = schema.ArrayOf(entityA)
	resultKeys = []string{"r1", "r2"}
	pks        = []string{"1", "2", "3"}
)

// updates are the pure result rewrites a write may ask for.
var updates = []struct {
	name string
	fn   func(value.Value) value.Value
}{
	{"append 3", func(v value.Value) value.Value {
		if v.Kind() != value.Array {
			return v
		}
		return value.Arr(append(append([]value.Value(nil), v.Elems()...), value.Str("3"))...)
	}},
	{"drop first", func(v value.Value) value.Value {
		if v.Kind() != value.Array || v.Len() == 0 {
			return v
		}
		return value.Arr(v.Elems()[1:]...)
	}},
	{"replace", func(value.Value) value.Value { return value.Arr(value.Str("2")) }},
}

// mergeResult appends the pks of incoming that existing lacks.
func mergeResult(existing, incoming value.Value) value.Value {
	out := append([]value.Value(nil), existing.Elems()...)
	for _, v := range incoming.Elems() {
		dup := false
		for _, x := range out {
			dup = dup || value.Equal(x, v)
		}
		if !dup {
			out = append(out, v)
		}
	}
	return value.Arr(out...)
}

// passGate is the lock of an owner that has none, for Make: hooks run as
// they come.
var passGate = &lockHooks{unlock: func() {}}

// makeRecovered makes ch through passGate and reports whether it panicked.
func makeRecovered(st *store.Store, ch *store.Change) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	if err := st.Make(ch, passGate); err != nil {
		panic(err)
	}
	return false
}

// applyRecovered applies w and reports whether it panicked.
func applyRecovered(st *store.Store, w *store.Write) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	st.Apply(w)
	return false
}

func genWrite(r *reader, boom bool) store.Write {
	at := int64(r.pick(8))
	w := store.Write{Meta: schema.Meta{Date: at, FetchedAt: at, ExpiresAt: at + 100}}
	for n := r.pick(4); n > 0; n-- {
		e := entityA
		switch r.pick(4) {
		case 0:
			e = entityB
		case 1:
			e = entityC
		}
		pk := pks[r.pick(len(pks))]
		ew := schema.EntityWrite{Entity: e, PK: pk}
		if r.pick(6) == 0 {
			ew.Deleted = true
		} else {
			var ms []value.Member
			if r.pick(4) != 0 {
				ms = append(ms, value.M("id", value.Str(pk)))
			}
			for _, f := range []string{"x", "y", "stale"} {
				if k := r.pick(4); k > 0 {
					ms = append(ms, value.M(f, [...]value.Value{value.Undef, value.Int(1), value.Int(2), value.True}[k]))
				}
			}
			if boom && e == entityC && r.pick(3) == 0 {
				ms = append(ms, value.M("boom", value.True))
			}
			ew.Value = value.Obj(ms...)
		}
		w.Entities = append(w.Entities, ew)
	}
	if k := r.pick(3); k > 0 {
		w.Key, w.Schema = resultKeys[k-1], listOfA
		var els []value.Value
		for n := r.pick(4); n > 0; n-- {
			els = append(els, value.Str(pks[r.pick(len(pks))]))
		}
		if r.pick(8) != 0 {
			w.Result = value.Arr(els...)
		}
		if r.pick(4) == 0 {
			w.MergeResult = mergeResult
		}
	}
	if r.pick(3) == 0 {
		w.Updates = map[string]func(value.Value) value.Value{}
		for n := 1 + r.pick(2); n > 0; n-- {
			u := updates[r.pick(len(updates))]
			w.Updates[resultKeys[r.pick(len(resultKeys))]] = u.fn
		}
	}
	return w
}

func describe(w *store.Write) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{at %d", w.Meta.FetchedAt)
	for _, e := range w.Entities {
		if e.Deleted {
			fmt.Fprintf(&b, " %s/%s deleted", e.Entity.Key, e.PK)
		} else {
			fmt.Fprintf(&b, " %s/%s=%s", e.Entity.Key, e.PK, e.Value)
		}
	}
	if w.Key != "" {
		fmt.Fprintf(&b, " %s=%s", w.Key, w.Result)
		if w.MergeResult != nil {
			b.WriteString(" (merged)")
		}
	}
	if len(w.Updates) > 0 {
		fmt.Fprintf(&b, " +%d updates", len(w.Updates))
	}
	b.WriteString("}")
	return b.String()
}

// ---------------------------------------------------------------- the model

type id struct{ key, pk string }

type mrec struct {
	val     map[string]value.Value // nil for a deleted entity
	deleted bool
	meta    schema.Meta
}

type mres struct {
	val  value.Value
	meta store.ResultMeta
}

type mstate struct {
	ents map[id]mrec
	res  map[string]mres
}

type model struct {
	base, pending []store.Write
	history       []string
	prev          *mstate
}

// panics reports whether applying w to the base would make a hook panic:
// C's merge meets a record marked boom, in the base write itself or in the
// replay of the pending writes over the new base.
func (m *model) panics(w store.Write) bool {
	s := &mstate{ents: map[id]mrec{}, res: map[string]mres{}}
	for i := range m.base {
		s.apply(&m.base[i])
	}
	if s.apply(&w) {
		return true
	}
	for i := range m.pending {
		if s.apply(&m.pending[i]) {
			return true
		}
	}
	return false
}

// visible replays every base write from nothing, then the pending ones.
func (m *model) visible() *mstate {
	s := &mstate{ents: map[id]mrec{}, res: map[string]mres{}}
	for i := range m.base {
		s.apply(&m.base[i])
	}
	for i := range m.pending {
		s.apply(&m.pending[i])
	}
	return s
}

func recordMap(v value.Value) map[string]value.Value {
	out := map[string]value.Value{}
	for _, mb := range v.Members() {
		out[mb.Key] = mb.Value
	}
	return out
}

func mapValue(m map[string]value.Value) value.Value {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ms := make([]value.Member, 0, len(keys))
	for _, k := range keys {
		ms = append(ms, value.M(k, m[k]))
	}
	return value.Obj(ms...)
}

// union is a shallow merge: the members of a, overwritten and extended by
// those of b.
func union(a, b map[string]value.Value) map[string]value.Value {
	out := map[string]value.Value{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// apply is the rules of a write, spelled out: a deletion always lands; a
// record older than a deletion is dropped, newer ones replace it; otherwise
// the entity's UseIncoming may refuse the record, and the merge lets the
// newer request's fields win (or the existing ones, when ShouldReorder
// says so). A result older than the stored one is dropped unless it is
// merged into it; Updates rewrite stored results, in key order.
func (s *mstate) apply(w *store.Write) (panics bool) {
	for _, ew := range w.Entities {
		k := id{ew.Entity.Key, ew.PK}
		if ew.Deleted {
			s.ents[k] = mrec{deleted: true, meta: w.Meta}
			continue
		}
		incoming := recordMap(ew.Value)
		old, ok := s.ents[k]
		if ok && old.deleted {
			if old.meta.FetchedAt > w.Meta.FetchedAt {
				continue
			}
			ok = false
		}
		if !ok {
			s.ents[k] = mrec{val: incoming, meta: w.Meta}
			continue
		}
		if ew.Entity == entityC && ew.Value.Get("boom").Boolean() {
			// C's merge is called with an incoming record marked boom.
			return true
		}
		oldV, inV := mapValue(old.val), mapValue(incoming)
		if ew.Entity.UseIncoming != nil && !ew.Entity.UseIncoming(old.meta, w.Meta, oldV, inV) {
			continue
		}
		existingWins := w.Meta.FetchedAt < old.meta.FetchedAt
		if ew.Entity.ShouldReorder != nil {
			existingWins = ew.Entity.ShouldReorder(old.meta, w.Meta, oldV, inV)
		}
		if existingWins {
			s.ents[k] = mrec{val: union(incoming, old.val), meta: old.meta}
		} else {
			s.ents[k] = mrec{val: union(old.val, incoming), meta: w.Meta}
		}
	}
	if w.Key != "" {
		next := mres{val: w.Result, meta: store.ResultMeta{Date: w.Meta.Date, FetchedAt: w.Meta.FetchedAt, ExpiresAt: w.Meta.ExpiresAt}}
		old, ok := s.res[w.Key]
		stored := ok && !old.val.IsUndefined()
		switch {
		case stored && w.MergeResult != nil:
			next.val = w.MergeResult(old.val, w.Result)
			s.res[w.Key] = next
		case stored && old.meta.FetchedAt > w.Meta.FetchedAt:
		default:
			s.res[w.Key] = next
		}
	}
	keys := make([]string, 0, len(w.Updates))
	for k := range w.Updates {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if r, ok := s.res[k]; ok && !r.val.IsUndefined() {
			r.val = w.Updates[k](r.val)
			s.res[k] = r
		}
	}
	return false
}

// state renders the model in the shape of Store.State.
func (s *mstate) state() value.Value {
	byKey := map[string][]value.Member{}
	metaByKey := map[string][]value.Member{}
	for k, r := range s.ents {
		v := value.NullV
		if !r.deleted {
			v = mapValue(r.val)
		}
		byKey[k.key] = append(byKey[k.key], value.M(k.pk, v))
		mm := []value.Member{value.M("date", value.Int(r.meta.Date)), value.M("fetchedAt", value.Int(r.meta.FetchedAt)),
			value.M("expiresAt", value.Int(r.meta.ExpiresAt))}
		if r.deleted {
			mm = append(mm, value.M("deleted", value.True))
		}
		metaByKey[k.key] = append(metaByKey[k.key], value.M(k.pk, value.Obj(mm...)))
	}
	var ents, entMetas, results, metas []value.Member
	for k, ms := range byKey {
		ents = append(ents, value.M(k, value.Obj(ms...)))
		entMetas = append(entMetas, value.M(k, value.Obj(metaByKey[k]...)))
	}
	for k, r := range s.res {
		if !r.val.IsUndefined() {
			results = append(results, value.M(k, r.val))
		}
		metas = append(metas, value.M(k, value.Obj(value.M("date", value.Int(r.meta.Date)),
			value.M("fetchedAt", value.Int(r.meta.FetchedAt)), value.M("expiresAt", value.Int(r.meta.ExpiresAt)))))
	}
	return value.Obj(value.M("entities", value.Obj(ents...)), value.M("endpoints", value.Obj(results...)),
		value.M("meta", value.Obj(metas...)), value.M("entitiesMeta", value.Obj(entMetas...)))
}

// compare checks the store's state against the model's, member by member
// so that a failure says where they differ.
func compare(want *mstate, got value.Value) error {
	w := want.state()
	for _, part := range []string{"entities", "endpoints", "meta", "entitiesMeta"} {
		if !value.Equal(w.Get(part), got.Get(part)) {
			return fmt.Errorf("%s differ:\nstore %s\nmodel %s", part, got.Get(part), w.Get(part))
		}
	}
	return nil
}

// changedFor reports whether the last step changed what the read of result
// key shows: the result itself or an A entity it lists.
func (m *model) changedFor(key string, now *mstate) bool {
	if m.prev == nil {
		return true
	}
	a, b := m.prev.res[key], now.res[key]
	if !value.Equal(a.val, b.val) {
		return true
	}
	for _, el := range b.val.Elems() {
		pk, _ := el.Text()
		x, okx := m.prev.ents[id{"A", pk}]
		y, oky := now.ents[id{"A", pk}]
		if okx != oky || x.deleted != y.deleted || !value.Equal(mapValue(x.val), mapValue(y.val)) {
			return true
		}
	}
	return false
}
