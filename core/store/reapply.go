package store

import (
	"math"
	"slices"
	"unsafe"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// reapply remembers the last Apply whose write came from a text
// (Write.Text) and, while nothing else has changed the store, lets Reapply
// store that text again without it being parsed, normalized or merged.
//
// Only the last Apply can qualify: every change to the store's data (any
// Apply, AddPending, RemovePending, Reset, a Sweep or Hydrate that removes
// or takes something, an Adopt that gives a schema) forgets it. A change of
// a result's meta alone (UpdateMeta: invalidated, an error, expired) does
// not: storing the text again replaces that meta whole, as Apply does.
type reapply struct {
	// seq numbers the remembered write (Store.remembered), for the token
	// MayReapply hands out.
	seq    uint64
	key    string
	text   string
	params value.Value // Write.TextParams
	schema schema.Schema
	// ents are the entries the write's entity writes reached, in its
	// order (an entity written twice is listed twice).
	ents []*entityEntry
	// elems are where the elements of the write's list lie in text, and
	// owners, for each of ents, the element whose text holds its record's
	// text, or ^element when the response repeats that text after it
	// (schema.EntityWrite.Repeated); nil when the write is not a list
	// normalized element by element (owners; ReapplyElem then declines).
	elems  []Span
	owners []int32
}

// maxKeptReapply bounds the capacity of reapply.ents kept for reuse.
const maxKeptReapply = 1 << 16

// forget drops what Reapply could store again: the store changed.
func (s *Store) forget() {
	s.changes++
	if s.again.text == "" {
		return
	}
	clear(s.again.ents)
	ents := s.again.ents[:0]
	if cap(ents) > maxKeptReapply {
		ents = nil
	}
	s.again = reapply{ents: ents}
}

// remember records w, just applied, for Reapply when storing its text
// again would be a fixed point, and otherwise forgets. Apply calls it only
// for a write with no hook that could decide differently (an entity's
// Merge, UseIncoming or ShouldReorder, MergeResult, Updates, Collections:
// see mayPanic) and no write pending, with ents the entries its entity
// writes reached, in order. It is a fixed point when every entity write
// reached its entry (none was skipped as deleted by a newer request), none
// deletes, every entry now holds the very record of this text, and the
// result was stored (not kept as newer).
//
// An entry holds the record of this text when the record's source is this
// text (record.src); otherwise, as for a record kept from other text that
// normalizes the same (the same data formatted otherwise), the two records
// are compared, once: after that the text is remembered.
func (s *Store) remember(w *Write, ents []*entityEntry) {
	s.again.ents = ents // its room, reused
	r := s.results[w.Key]
	if len(ents) != len(w.Entities) || r == nil || !r.hasBase || r.base.schema != w.Schema ||
		!value.Same(r.base.val, w.Result) || r.base.meta.FetchedAt != w.Meta.FetchedAt {
		clear(ents)
		return
	}
	for i, e := range ents {
		ew := &w.Entities[i]
		if ew.Deleted || ew.Source == "" || e.base.deleted || !e.holds(ew) {
			clear(ents)
			return
		}
	}
	s.remembered++
	s.again = reapply{seq: s.remembered, key: w.Key, text: w.Text, params: w.TextParams, schema: w.Schema, ents: ents}
	s.again.elems, s.again.owners = owners(w)
}

// holds reports whether e's stored record is the record of ew: made from
// the same text by the same entity (compared at once), or equal to it.
func (e *entityEntry) holds(ew *schema.EntityWrite) bool {
	return (e.base.srcBy == ew.Entity && e.base.src == ew.Source) || value.Equal(e.base.val, ew.Record())
}

// restamp gives e, whose record a response stores again unchanged, that
// response's meta m, as Entity.Resolve does for an equal record: unless
// the stored one was fetched later (reordered).
func (e *entityEntry) restamp(m schema.Meta) {
	if m.FetchedAt >= e.base.meta.FetchedAt {
		e.base.meta = m
	}
	e.slot.Meta = e.base.meta
}

// listOwner is the owner of a Collection's own record (its list of keys),
// which is no element's.
const listOwner = math.MinInt32

// owners returns where each element of w's list lies in w.Text and, for
// each of w's entity writes, the element whose text holds its record's
// text (an element's own record, those nested in it), or ^element when the
// response repeats that text after it (listOwner for a Collection's list);
// nil, nil unless w's schema normalizes element by element
// (schema.ElementWise) and each element is one record of its text.
//
// The elements are read off the writes: an element's own record is
// written after those nested in it, and its source is the element's
// text, which holds theirs; a record of the list's entity nested in an
// element is so replaced by the element's. Every element wrote its record
// when there are as many as the list has elements.
func owners(w *Write) ([]Span, []int32) {
	shape, ok := schema.ElementWise(w.Schema)
	if !ok {
		return nil, nil
	}
	item, table := shape.Item, shape.Table
	n := -1
	if table == nil {
		n = listIn(w.Result, shape).Len()
	} else {
		for i := range w.Entities {
			if ew := &w.Entities[i]; ew.Entity == table {
				if n >= 0 {
					return nil, nil // a list of the table nested in one
				}
				n = ew.Value.Len()
			}
		}
	}
	if n <= 0 || n > math.MaxInt32-1 {
		return nil, nil
	}
	elems := make([]Span, 0, n)
	for i := range w.Entities {
		ew := &w.Entities[i]
		if ew.Entity != item {
			continue
		}
		at, ok := offsetIn(w.Text, ew.Source)
		if !ok {
			return nil, nil
		}
		sp := Span{at, at + len(ew.Source)}
		for len(elems) > 0 && elems[len(elems)-1].From >= sp.From {
			elems = elems[:len(elems)-1] // nested in this one
		}
		if len(elems) > 0 && elems[len(elems)-1].To > sp.From {
			return nil, nil
		}
		elems = append(elems, sp)
	}
	if len(elems) != n {
		return nil, nil
	}
	dst := make([]int32, 0, len(w.Entities))
	el := 0
	for i := range w.Entities {
		if w.Entities[i].Entity == table {
			dst = append(dst, listOwner)
			continue
		}
		at, ok := offsetIn(w.Text, w.Entities[i].Source)
		if !ok {
			return nil, nil
		}
		// Records come element by element: look from the last one on.
		if at < elems[el].From {
			el = 0
		}
		for el < len(elems) && at >= elems[el].To {
			el++
		}
		if el == len(elems) || at < elems[el].From {
			return nil, nil
		}
		if w.Entities[i].Repeated() {
			dst = append(dst, ^int32(el))
		} else {
			dst = append(dst, int32(el))
		}
	}
	return elems, dst
}

// listIn returns the list of keys a result holds, as shape says: the
// result, or its member shape.Field (for a Collection, the collection's
// key, whose record the caller reads).
func listIn(result value.Value, shape schema.ListShape) value.Value {
	if shape.Field != "" {
		return result.Get(shape.Field)
	}
	return result
}

// Span is where a part of a text lies in it: bytes From to To.
type Span struct{ From, To int }

// offsetIn returns where part, a slice of text sharing its bytes, starts
// in it; false when part is empty or not such a slice.
func offsetIn(text, part string) (int, bool) {
	if part == "" || text == "" {
		return 0, false
	}
	at := uintptr(unsafe.Pointer(unsafe.StringData(part))) - uintptr(unsafe.Pointer(unsafe.StringData(text)))
	if at > uintptr(len(text)) || uintptr(len(part)) > uintptr(len(text))-at {
		return 0, false
	}
	return int(at), true
}

// MayReapply reports whether Reapply may store text under key: it is the
// text the last Apply stored there, normalized with equal params
// (Write.TextParams), and no write is pending. Its token
// names what it found, for Reapply: the text is compared once, here (a
// whole response's bytes), and Reapply needs only to know that the store
// has forgotten nothing since.
func (s *Store) MayReapply(key, text string, params value.Value) (token uint64, ok bool) {
	a := &s.again
	if a.text == "" || a.key != key || len(s.pending) > 0 || a.text != text || !value.Equal(a.params, params) {
		return 0, false
	}
	return a.seq, true
}

// Reapply stores again, under key, the response whose text MayReapply
// found the last Apply stored there (token is what it returned), when
// nothing has changed the store since, with meta m; it reports whether it
// did. It leaves the store as Apply of that response normalized again
// would: every record it wrote stays as it is (the same text, so an equal
// record) with its meta resolved as Entity.Resolve does for an equal
// record (m, unless the stored one was fetched later), and the result
// keeps its value and takes m, its error and invalidation cleared. Values
// keep their identity. When it reports false the caller applies the
// response as usual.
func (s *Store) Reapply(key string, token uint64, sc schema.Schema, m schema.Meta) bool {
	a := &s.again
	if a.text == "" || a.seq != token || a.key != key || a.schema != sc || len(s.pending) > 0 {
		return false
	}
	s.changes++
	// With no write pending, the last rebase left nothing overlaid: the
	// visible state is the base's.
	for _, e := range a.ents {
		e.restamp(m)
	}
	r := s.results[key]
	if r.base.meta.FetchedAt > m.FetchedAt {
		// A response to an older request never replaces a newer result;
		// as after Apply of it, what stays is not this text's result.
		s.forget()
		return true
	}
	res := r.base
	res.meta = ResultMeta{Date: m.Date, FetchedAt: m.FetchedAt, ExpiresAt: m.ExpiresAt}
	r.base = res
	s.setVisibleResult(key, res, true)
	return true
}

// Elem is a response whose text differs from the text the last Apply
// stored under its key (and remembered) only inside a run of elements of
// its top-level list, as MayReapplyElem finds it: those elements' new
// text, to be normalized alone and stored with ReapplyElem.
type Elem struct {
	// Index and Last are the positions of the run's first and last
	// elements in the list.
	Index, Last int
	// Text is the run's new text as a list of its own ("[" + the
	// elements + "]"), a copy: what it is normalized from keeps no more
	// than it alive.
	Text string
	// token is MayReapplyElem's, text the response's.
	token uint64
	text  string
}

// maxElemShare bounds the run MayReapplyElem hands out, as a share of the
// list's elements (one in maxElemShare at most, or one element): a longer
// one is about as cheap to store whole.
const maxElemShare = 4

// MayReapplyElem reports whether the response text under key differs from
// the text the last Apply stored there only inside a short run of the
// elements of its top-level list, params are equal to that write's
// (Write.TextParams) and no write is pending; the run is then
// Elem.Text, which the caller normalizes alone for ReapplyElem. It
// compares the texts once, from either end.
func (s *Store) MayReapplyElem(key, text string, params value.Value) (Elem, bool) {
	a := &s.again
	if a.text == "" || a.key != key || len(s.pending) > 0 || a.elems == nil || a.text == text || !value.Equal(a.params, params) {
		return Elem{}, false
	}
	head := commonPrefix(a.text, text)
	tail := commonSuffix(a.text[head:], text[head:])
	end := len(a.text) - tail // the old text differs in [head, end)
	i, ok := elemAt(a.elems, head)
	if !ok {
		return Elem{}, false
	}
	last := i
	if end > head {
		if last, ok = elemAt(a.elems, end-1); !ok {
			return Elem{}, false
		}
	}
	if last-i+1 > max(1, len(a.elems)/maxElemShare) {
		return Elem{}, false
	}
	from, to := a.elems[i].From, a.elems[last].To+len(text)-len(a.text)
	if to < from {
		return Elem{}, false
	}
	return Elem{Index: i, Last: last, Text: "[" + text[from:to] + "]", token: a.seq, text: text}, true
}

// elemAt returns the element of elems whose span holds byte at.
func elemAt(elems []Span, at int) (int, bool) {
	return slices.BinarySearchFunc(elems, at, func(sp Span, at int) int {
		switch {
		case sp.To <= at:
			return -1
		case sp.From > at:
			return 1
		}
		return 0
	})
}

// ReapplyElem stores e, which MayReapplyElem found, with meta m: result
// and writes are e.Text normalized alone as a list of the schema's list
// (schema.ElementWise; schema.Normalized's Result and Entities). It leaves
// the store as Apply of the whole response would, and reports whether it
// did; when it reports false nothing has changed, and the caller applies
// the response as usual.
//
// The other elements' text is the stored one, so their records stay and
// take m as Reapply gives it. The run's records are applied as Apply
// applies them; a record the run held before and no longer does is not
// written (as by Apply of the whole response). It declines where the
// order of the response's records would decide: a record of the run that
// changes while another element holds it too (or the response repeats it
// after the run), and a record the run held before, no longer does, and
// later elements repeat as the same text (stored once, from the run: Apply
// would store it from the next). It declines too when the run's elements
// are not the same records, in the same order, as before.
func (s *Store) ReapplyElem(e Elem, sc schema.Schema, m schema.Meta, result value.Value, writes []schema.EntityWrite) bool {
	a := &s.again
	if a.text == "" || a.seq != e.token || a.schema != sc || len(s.pending) > 0 || a.elems == nil ||
		e.Index < 0 || e.Last < e.Index || e.Last >= len(a.elems) {
		return false
	}
	params := a.params // the Apply below forgets a
	r := s.results[a.key]
	if r == nil || !r.hasBase {
		return false
	}
	// The list: the result (or its member), or the record of the
	// Collection it names.
	shape, ok := schema.ElementWise(sc)
	if !ok {
		return false
	}
	list := listIn(r.base.val, shape)
	if shape.Table != nil {
		pk, _ := list.Text()
		x := s.table(shape.Table.Key)[pk]
		if x == nil || x.base.deleted {
			return false
		}
		list = x.base.val
	}
	n := e.Last - e.Index + 1
	if list.Kind() != value.Array || list.Len() != len(a.elems) || result.Kind() != value.Array || result.Len() != n {
		return false
	}
	for k, v := range result.Elems() {
		if !value.Equal(list.Elems()[e.Index+k], v) {
			return false
		}
	}
	// Where the run's elements and records lie in e.Text, as for a whole
	// response (owners), then in the response.
	runElems, runOwners := owners(&Write{Schema: shape.List, Result: result, Entities: writes, Text: e.Text})
	if len(runElems) != n {
		return false
	}
	// inRun tells an owner of the run's (an element of it, or one repeated
	// after its write); its element is then owners[k] or ^owners[k].
	inRun := func(o int32) bool {
		el := o
		if o < 0 && o != listOwner {
			el = ^o
		}
		return o != listOwner && int(el) >= e.Index && int(el) <= e.Last
	}
	// The entries the run writes, and where the response held them before:
	// outside the run, or in it and repeated after its write (one pass
	// over the remembered entries).
	entries := make([]*entityEntry, len(writes))
	written := make(map[*entityEntry]uint8, len(writes))
	for j := range writes {
		w := &writes[j]
		if w.Deleted || w.Source == "" {
			return false
		}
		entries[j] = s.table(w.Entity.Key)[w.PK]
		written[entries[j]] = 0
	}
	const (
		outside = 1 << iota
		repeatedInRun
	)
	for k, x := range a.ents {
		o := a.owners[k]
		_, ok := written[x]
		switch {
		case !inRun(o):
			if ok {
				written[x] |= outside
			}
		case o < 0:
			if !ok {
				// No longer in the run, but in later elements, as the
				// same text: the first of them would write it.
				return false
			}
			written[x] |= repeatedInRun
		}
	}
	// repeated[j] is set for a record of the run that later elements
	// repeat as the same text, unchanged: it stays listed as repeated.
	repeated := make([]bool, len(writes))
	for j, x := range entries {
		w := &writes[j]
		repeated[j] = w.Repeated()
		if x == nil || x.base.deleted {
			continue // new: the others do not hold it
		}
		if x.holds(w) {
			// Unchanged: the order does not matter.
			repeated[j] = repeated[j] || written[x]&repeatedInRun != 0
			continue
		}
		if written[x] != 0 {
			// Written by another element too, or repeated after its write
			// as the same text: their order decides.
			return false
		}
	}

	delta := len(e.text) - len(a.text)
	// The run's text starts after the "[" of e.Text.
	shift := a.elems[e.Index].From - 1
	elems := make([]Span, len(a.elems))
	for k, x := range a.elems {
		switch {
		case k >= e.Index && k <= e.Last:
			x = Span{runElems[k-e.Index].From + shift, runElems[k-e.Index].To + shift}
		case k > e.Last:
			x.From, x.To = x.From+delta, x.To+delta
		}
		elems[k] = x
	}
	ents := make([]*entityEntry, 0, len(a.ents)+len(writes))
	owned := make([]int32, 0, len(a.ents)+len(writes))
	for k, x := range a.ents {
		if inRun(a.owners[k]) {
			continue
		}
		x.restamp(m) // as Reapply does
		ents = append(ents, x)
		owned = append(owned, a.owners[k])
	}
	key, text, val := a.key, e.text, r.base.val
	s.Apply(&Write{Key: key, Schema: sc, Result: val, Entities: writes, Meta: m})

	// Remembered again, when the store now holds what this text says (as
	// remember checks a whole write).
	if r := s.results[key]; r == nil || !value.Same(r.base.val, val) || r.base.meta.FetchedAt != m.FetchedAt {
		return true
	}
	for j := range writes {
		w := &writes[j]
		x := s.table(w.Entity.Key)[w.PK]
		if x == nil || x.base.deleted || !x.holds(w) {
			return true
		}
		ents = append(ents, x)
		o := runOwners[j]
		if o < 0 {
			o = ^o
		}
		o += int32(e.Index)
		if repeated[j] {
			o = ^o
		}
		owned = append(owned, o)
	}
	s.remembered++
	s.again = reapply{seq: s.remembered, key: key, text: text, params: params, schema: sc, ents: ents, elems: elems, owners: owned}
	return true
}

// commonPrefix returns how many bytes a and b begin with alike, comparing
// eight at a time.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	if n >= 8 {
		pa, pb := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.StringData(b))
		for ; i <= n-8; i += 8 {
			if *(*uint64)(unsafe.Add(pa, i)) != *(*uint64)(unsafe.Add(pb, i)) {
				break
			}
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns how many bytes a and b end with alike.
func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0 // bytes alike from the end
	if n >= 8 {
		pa, pb := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.StringData(b))
		for ; i <= n-8; i += 8 {
			if *(*uint64)(unsafe.Add(pa, len(a)-i-8)) != *(*uint64)(unsafe.Add(pb, len(b)-i-8)) {
				break
			}
		}
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
