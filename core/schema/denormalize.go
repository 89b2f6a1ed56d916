package schema

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/datafetch/datafetch/core/value"
)

// Slot is the store's cell for one entity. The store owns it: it sets Value,
// Deleted and Meta, bumps Version on every visible change, and sets Removed
// when the entity leaves the store. Denormalization keeps the entity's read
// form here, valid while the records it was built from are the values they
// were (the same, or equal), so that an entity whose record comes back, as
// after an optimistic update is rolled back, reads as the identical value
// again.
type Slot struct {
	Key, PK string
	// Value is the normalized record readers see.
	Value value.Value
	// Parsed is the record Value was normalized from, nested entities
	// inline (EntityWrite.Parsed), Undefined when there is none or it is
	// unknown. The store sets it with Value. A read hands it back in place
	// of a copy of Value when each nested entity reads as the very value
	// inline in Parsed, as on the first read of a response whose nested
	// entities appear there for the first time; a read that cannot sets it
	// to Undefined, so that it does not keep the parsed record alive.
	Parsed  value.Value
	Deleted bool
	Removed bool
	// Unchecked marks a record that came from outside (a snapshot, a sync
	// message) and has not been read yet: the first read checks it
	// against its entity (Entity.CheckRecord) and reads one that fails as
	// missing, so that the read fetches it, instead of its data.
	Unchecked bool
	Meta      Meta
	Version   uint64

	// memo holds the current read form, prev the one before it (nil until
	// there is one: most entities are read in one form only).
	memo entityMemo
	prev *entityMemo
	// building is the denormalization that is building this entity right
	// now (it is on the path from the result), so that a cycle back to it
	// is cut at once.
	building uint64
}

// Source looks up entity slots; nil means the entity is not stored.
type Source interface {
	Slot(key, pk string) *Slot
}

// A CallerCodeWatcher is a Source that a read tells, before it runs code
// of the caller's (an Entity's Valid or DepthLimited, a lens, a union's
// AttributeFunc or Unknown, a custom schema's Call), that it does. The
// controller's store is one: a read holds the controller's lock, so that
// code calling the controller back must be told apart from another
// goroutine's call (see controller.ErrReadCallback).
type CallerCodeWatcher interface {
	RunsCallerCode()
}

// callerCode tells d's source, when it watches, that caller code runs.
// Not inlined: its copies would weigh on datafetch.wasm.
//
//go:noinline
func (d *denormalizer) callerCode() {
	if w, ok := d.src.(CallerCodeWatcher); ok {
		w.RunsCallerCode()
	}
}

// dep is a slot a denormalized value was built from, with the record it held
// then (Undefined when the entity was deleted).
type dep struct {
	slot *Slot
	rec  value.Value
}

func depOn(s *Slot) dep {
	if s.Deleted {
		return dep{slot: s}
	}
	return dep{slot: s, rec: s.Value}
}

func (d dep) valid() bool {
	s := d.slot
	switch {
	case s.Removed:
		return false
	case s.Deleted:
		return d.rec.IsUndefined()
	}
	// An equal record counts as unchanged, however it was written (a write
	// may change a record and change it back): storing a record equal to
	// the one stored is no change, so reads keep their identity.
	return !d.rec.IsUndefined() && (value.Same(s.Value, d.rec) || value.Equal(s.Value, d.rec))
}

// deps are what a denormalized value depends on: the slots it read itself
// (an entity's own record, a deleted entity), entities that were absent
// (rare, so kept apart), and the deps of the entities nested in it. Nesting
// them rather than copying their lists keeps a long chain of references
// (a.next = b, b.next = c, ...) linear: with copies, each entity would list
// every entity after it.
//
// A deps is immutable once built, except for good and bad, which cache the
// answer of valid for one denormalization (the store does not change during
// one), so that an entity shared by many others is checked once per read.
type deps struct {
	// self is the slot of the entity these deps are of (nil slot: none),
	// kept apart from slots so that an entity's deps are one allocation.
	self dep
	// rare holds the slots read besides self and the absent entities,
	// nil while there are none, as for nearly every entity.
	rare      *rareDeps
	kids      []*deps
	good, bad uint64 // the last pass that found these valid, invalid
	// kid0 is storage for the first kid: most entities nest one or none.
	kid0 [1]*deps
}

// rareDeps are the deps that few values have: slots read besides an
// entity's own (a deleted entity, a record shown as cut at a cycle) and
// entities that were absent.
type rareDeps struct {
	slots  []dep
	absent []entityRef
	// tables are the entity tables listed (by All), at their versions.
	tables []tableDep
	// lenses are the lens values read (by a Lens field): a read with
	// args that select others is another read.
	lenses []lensDep
}

// more returns ds.rare, made when ds has none yet.
func (ds *deps) more() *rareDeps {
	if ds.rare == nil {
		ds.rare = &rareDeps{}
	}
	return ds.rare
}

// entityDeps returns the deps of an entity whose own record is in s,
// carved from the denormalizer's slab: a read of a thousand entities makes
// a few allocations for them, not a thousand. The first slab holds one,
// as the read after a small write usually rebuilds one entity.
func (d *denormalizer) entityDeps(s *Slot) *deps {
	if len(d.depSlab) == 0 {
		d.depSize = min(max(2*d.depSize, 1), maxSlab)
		d.depSlab = make([]deps, d.depSize)
	}
	ds := &d.depSlab[0]
	d.depSlab = d.depSlab[1:]
	ds.self = depOn(s)
	ds.kids = ds.kid0[:0]
	return ds
}

type entityRef struct{ key, pk string }

// valid reports whether everything ds lists is as it was, so the value
// built on it is still current, for the denormalization d (its pass, its
// args' lenses).
func (ds *deps) valid(d *denormalizer) bool {
	src, pass := d.src, d.pass
	switch pass {
	case ds.good:
		return true
	case ds.bad:
		return false
	}
	ok := ds.self.slot == nil || ds.self.valid()
	if r := ds.rare; r != nil {
		for i := 0; ok && i < len(r.slots); i++ {
			ok = r.slots[i].valid()
		}
		for i := 0; ok && i < len(r.absent); i++ {
			ok = src.Slot(r.absent[i].key, r.absent[i].pk) == nil
		}
		for i := 0; ok && i < len(r.tables); i++ {
			ts, isTable := src.(TableSource)
			ok = isTable && ts.TableVersion(r.tables[i].key) == r.tables[i].version
		}
		for i := 0; ok && i < len(r.lenses); i++ {
			val, has := d.lens(r.lenses[i].l, false)
			ok = has == r.lenses[i].ok && val == r.lenses[i].val
		}
	}
	for i := 0; ok && i < len(ds.kids); i++ {
		ok = ds.kids[i].valid(d)
	}
	if ok {
		ds.good = pass
	} else {
		ds.bad = pass
	}
	return ok
}

// entityMemo is one read form of an entity; its small fields last, so
// that they share a word (every stored entity has one of these).
type entityMemo struct {
	entity *Entity
	val    value.Value
	deps   *deps
	st     Status
	built  bool
}

// fits reports whether m is a form of e built on what is still there.
func (m *entityMemo) fits(e *Entity, d *denormalizer) bool {
	return m.built && m.entity == e && m.deps.valid(d)
}

// Memo caches the denormalized form of one stored result: the current form,
// and the one before it, which a rollback makes current again. The zero Memo
// is empty; a store keeps one per result.
type Memo struct {
	cur, prev    resultMemo
	storeVersion uint64
}

type resultMemo struct {
	schema Schema
	input  value.Value
	val    value.Value
	st     Status
	deps   *deps
	built  bool
	// lensed is set when the read depended on lens values (see Lens),
	// which args select: it is checked again on every read.
	lensed bool
	// lookups are the slots the build looked up, in order. The next build
	// of the same result asks for the same entities in the same order, and
	// checking a hint costs a string compare where the store's map costs a
	// string hash, which wasm computes slowly.
	lookups []*Slot
}

// fits reports whether m was built from result by s: the very input, or an
// equal one, as when a write replaced a result by an equal value (storing
// equal data is no change, so the read keeps its identity).
func (m *resultMemo) fits(s Schema, result value.Value) bool {
	return m.built && m.schema == s && (value.Same(m.input, result) || value.Equal(m.input, result))
}

// passes numbers denormalizations, for the marks of deps and Slot.
var passes atomic.Uint64

// Denormalize rebuilds the data of result (as Normalize returned it) from
// src. With a memo it returns the identical value while nothing it depends on
// changed: at once when storeVersion is the one of the last read, after a
// check of its dependencies otherwise. When an entity changed, only the
// entities containing it are rebuilt; the others keep their identity.
func Denormalize(s Schema, result value.Value, src Source, memo *Memo, storeVersion uint64) (value.Value, Status) {
	return DenormalizeArgs(s, result, src, memo, storeVersion, Args{})
}

// DenormalizeArgs is Denormalize for a read made with args, which select
// the lens of each Lens (data-client's Scalar) in s.
func DenormalizeArgs(s Schema, result value.Value, src Source, memo *Memo, storeVersion uint64, args Args) (value.Value, Status) {
	if s == nil {
		return result, Found
	}
	if memo != nil && memo.storeVersion == storeVersion && memo.cur.built && memo.cur.schema == s &&
		value.Same(memo.cur.input, result) && !memo.cur.lensed {
		return memo.cur.val, memo.cur.st // nothing changed since the last read
	}
	pass := passes.Add(1)
	d := &denormalizer{src: src, pass: pass, deps: &deps{}, args: args}
	if memo != nil {
		if memo.cur.fits(s, result) && memo.cur.deps.valid(d) {
			memo.cur.input = result
			memo.storeVersion = storeVersion
			return memo.cur.val, memo.cur.st
		}
		if memo.prev.fits(s, result) && memo.prev.deps.valid(d) {
			memo.cur, memo.prev = memo.prev, memo.cur
			memo.cur.input = result
			memo.storeVersion = storeVersion
			return memo.cur.val, memo.cur.st
		}
	}
	if memo != nil {
		d.hints = memo.cur.lookups
		d.lookups = make([]*Slot, 0, len(memo.cur.lookups))
	}
	v, st := s.denormalize(result, d)
	if memo != nil {
		memo.prev = memo.cur
		memo.cur = resultMemo{schema: s, input: result, val: v, st: st, deps: d.deps, built: true, lensed: len(d.lenses) > 0, lookups: d.lookups}
		memo.storeVersion = storeVersion
	}
	return v, st
}

// MaxDepth is how deep entities nest in a read. An entity reached through
// more references than this reads as its record with nested entities left
// as keys, as an entity in a cycle does. Reads are walked recursively (by
// the JavaScript bridge, by encoders), and in WebAssembly the call stack is
// small and fixed: a chain of references in flat data (a.next = b, b.next
// = c, ...) would otherwise nest a read as deep as the chain is long.
const MaxDepth = 128

type denormalizer struct {
	src  Source
	pass uint64
	// depth is the number of entities being built, from the result down.
	depth int
	// deps collects what the value being built depends on: the result's
	// deps, or those of the entity being built.
	deps *deps
	// cuts counts cycle cuts; an entity whose build saw one is not memoized,
	// because its form depends on where the cycle was entered.
	cuts int
	// cyclic holds the entities built in this pass whose build saw a cut.
	// Wherever else they appear in this read they are that same value:
	// rebuilt on every path that reaches them, a graph of entities that all
	// reference each other would take time exponential in its size. As the
	// value is shared, the read stays as large as the data for those that
	// follow identity (the JavaScript bridge sends a repeated object once).
	cyclic map[*Slot]*entityMemo
	// hints are the previous build's lookups; lookups records this build's
	// (nil when there is no memo to keep them in).
	hints, lookups []*Slot
	// slab is memory that the records built are carved from.
	slab memberSlab
	// depSlab is memory that entities' deps are carved from (see
	// entityDeps), depSize the size of the last one, which the next doubles.
	depSlab []deps
	depSize int
	// limited is set once an entity's DepthLimited was called in this
	// read: a read reports its first cut at a depth limit only.
	limited bool
	// args are the read's; lenses the lens values they select (see
	// Lens), each asked of its Lens once per read.
	args   Args
	lenses []lensDep
}

// depthLimit returns how deep e may be reached in a read: its MaxDepth
// when that is lower than the package's.
func (e *Entity) depthLimit() int {
	if e.MaxDepth > 0 && e.MaxDepth < MaxDepth {
		return e.MaxDepth
	}
	return MaxDepth
}

// slot looks up an entity, trying first the slot the previous build of the
// same result looked up at this point.
func (d *denormalizer) slot(key, pk string) *Slot {
	var s *Slot
	if i := len(d.lookups); i < len(d.hints) {
		if h := d.hints[i]; h != nil && !h.Removed && h.PK == pk && h.Key == key {
			s = h
		}
	}
	if s == nil {
		s = d.src.Slot(key, pk)
	}
	if d.lookups != nil {
		d.lookups = append(d.lookups, s)
	}
	return s
}

// memoized finds the slot of e's record pk and answers from its memo, or
// from its previous memo, when that still fits (done: read and st are the
// answer). A missing slot is answered too, as Missing, with the dependency
// on its absence recorded. Otherwise slot is the record to build from.
// Entities and Collections (whose lists are records of a table entity)
// share it.
func (d *denormalizer) memoized(e *Entity, pk string) (slot *Slot, read value.Value, st Status, done bool) {
	slot = d.slot(e.Key, pk)
	if slot == nil {
		r := d.deps.more()
		r.absent = append(r.absent, entityRef{e.Key, pk})
		return nil, value.Undef, Missing, true
	}
	if m := &slot.memo; m.fits(e, d) {
		d.deps.kids = append(d.deps.kids, m.deps)
		return slot, m.val, m.st, true
	}
	if p := slot.prev; p != nil && p.fits(e, d) {
		slot.memo, *p = *p, slot.memo
		d.deps.kids = append(d.deps.kids, slot.memo.deps)
		return slot, slot.memo.val, slot.memo.st, true
	}
	return slot, value.Undef, st, false
}

func (e *Entity) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	pk, ok := v.Text()
	if !ok || v.IsNull() || v.Kind() == value.Bool {
		// null and booleans stay as they are; an inline record (never
		// normalized) is read with the entity's defaults, as data-client
		// reads one.
		if v.Kind() == value.Object {
			return e.fill(v), Found
		}
		return v, Found
	}
	slot, read, st, done := d.memoized(e, pk)
	if done {
		return read, st
	}
	if slot.Unchecked && !d.admit(e, slot) {
		return value.Undef, Missing
	}
	if slot.Deleted {
		r := d.deps.more()
		r.slots = append(r.slots, depOn(slot))
		return value.Undef, Deleted
	}
	if slot.building == d.pass {
		// A cycle back to an entity on the path: its record, with nested
		// entities left as keys.
		d.cuts++
		return e.fill(slot.Value), Found
	}
	if m := d.cyclic[slot]; m != nil && m.entity == e {
		// Built around a cycle earlier in this read. Its form depends on
		// where the cycle was entered, so what holds it is not memoized
		// either.
		d.cuts++
		d.deps.kids = append(d.deps.kids, m.deps)
		return m.val, m.st
	}
	if limit := e.depthLimit(); d.depth >= limit {
		// Too deep: cut as a cycle is, and depend on the record shown.
		if !d.limited && e.DepthLimited != nil {
			d.limited = true
			d.callerCode()
			e.DepthLimited(limit)
		}
		d.cuts++
		r := d.deps.more()
		r.slots = append(r.slots, depOn(slot))
		return e.fill(slot.Value), Found
	}
	// Collect this entity's own dependencies apart, for its memo; the
	// enclosing value depends on them as a whole.
	outer := d.deps
	own := d.entityDeps(slot)
	d.deps = own
	cuts := d.cuts
	slot.building = d.pass
	d.depth++
	var out value.Value
	st = Deleted // a record Valid refuses reads as deleted
	if e.Valid != nil {
		d.callerCode()
	}
	if e.Valid == nil || e.Valid(slot.Value) {
		out, st = e.build(slot.Value, slot, d)
	}
	d.depth--
	slot.building = 0
	d.deps = outer
	m := entityMemo{entity: e, val: out, st: st, deps: own, built: true}
	if d.cuts == cuts {
		if slot.memo.built {
			if slot.prev == nil {
				slot.prev = new(entityMemo)
			}
			*slot.prev = slot.memo
		}
		slot.memo = m
	} else {
		if d.cyclic == nil {
			d.cyclic = map[*Slot]*entityMemo{}
		}
		// A copy of its own: were m's address taken, m would be on the
		// heap for every entity built, not only for these rare ones.
		cut := m
		d.cyclic[slot] = &cut
	}
	outer.kids = append(outer.kids, own)
	return out, st
}

// CycleCut reports whether v, read at an entity position of e inside
// full (a read of one of e's records, built around it), is full's own
// record shown cut at the cycle back to it. A read is a tree, so a cycle
// (a user's reports drafted by that user) comes back to an entity on the
// path from the result as its record with nested entities left as keys;
// readers that build object graphs (the JavaScript bridge) refer back to
// full there instead. Both are filled from the same stored record, so
// they have the same members but the nested ones, which full holds read.
func (e *Entity) CycleCut(v, full value.Value) bool {
	vm, fm := v.Members(), full.Members()
	if len(vm) == 0 || len(vm) != len(fm) {
		return false
	}
	for i := range vm {
		if vm[i].Key != fm[i].Key ||
			!value.Same(vm[i].Value, fm[i].Value) && e.Schema[vm[i].Key] == nil && !value.Equal(vm[i].Value, fm[i].Value) {
			return false
		}
	}
	return true
}

// admit checks an Unchecked slot's record against e, its entity, and
// reports whether it may be read. One that passes is checked for good; one
// that fails stays unchecked and is read as missing, until a write
// replaces it (what is read depends on the slot).
func (d *denormalizer) admit(e *Entity, slot *Slot) bool {
	if slot.Deleted || e.checkRecord(slot.PK, slot.Value) == nil {
		slot.Unchecked = false
		return true
	}
	r := d.deps.more()
	r.slots = append(r.slots, depOn(slot))
	return false
}

// fill returns the record with defaults for absent fields, nested entities
// left as keys, fields in the order of Defaults and then the record's others
// (as data-client's entity classes order them). A record that already starts
// with every default field in that order, the usual case for a server that
// sends what the entity declares, is returned as it is: no copy.
func (e *Entity) fill(rec value.Value) value.Value {
	out, _ := e.fillOwned(rec, nil)
	return out
}

// fillOwned is fill that also returns the members of the result when it
// made them (nil when it returned rec itself), so that build can set the
// nested fields in them instead of copying them again.
//
// Records of one entity nearly always come with the same keys in the same
// order, so the layout of the result is worked out once per key sequence
// (a fillShape) and then applied with a comparison of keys per member.
// The members are carved from slab when it is not nil.
func (e *Entity) fillOwned(rec value.Value, slab *memberSlab) (value.Value, []value.Member) {
	var rm []value.Member
	if slab != nil && rec.Unbuilt() {
		// Read off the tape: the stored record stays unbuilt, costing no
		// memory but its tape.
		slab.scratch = rec.AppendMembers(slab.scratch[:0])
		rm = slab.scratch
	} else {
		rm = rec.Members()
	}
	sh := e.shape.Load()
	if sh == nil || !sh.matches(rm) {
		sh = e.newShape(rm)
		e.shape.Store(sh)
	}
	if sh.asIs {
		return rec, nil
	}
	defs := e.Defaults.Members()
	var out []value.Member
	if slab != nil && len(sh.src) > 0 {
		out = slab.carve(len(sh.src))
	} else {
		out = make([]value.Member, len(sh.src))
	}
	for i, x := range sh.src {
		switch {
		case x.def < 0:
			out[i] = rm[x.rec]
		case x.rec >= 0 && !rm[x.rec].Value.IsUndefined():
			out[i] = value.M(defs[x.def].Key, rm[x.rec].Value)
		default:
			out[i] = defs[x.def]
		}
	}
	return value.Obj(out...), out
}

// fillShape is how fill lays out a record with the member keys keys (in
// that order): as it is (asIs), or as the members src lists.
type fillShape struct {
	keys []string
	asIs bool
	src  []fillSource
}

// fillSource is where one member of fill's result comes from: default def
// (-1: none), overridden by record member rec (-1: none) unless that
// member's value is Undefined.
type fillSource struct{ def, rec int }

func (sh *fillShape) matches(rm []value.Member) bool {
	if len(rm) != len(sh.keys) {
		return false
	}
	for i := range rm {
		if rm[i].Key != sh.keys[i] {
			return false
		}
	}
	return true
}

// newShape works out fill's layout for records with the keys of rm.
func (e *Entity) newShape(rm []value.Member) *fillShape {
	e.prepare()
	defs := e.Defaults.Members()
	sh := &fillShape{keys: make([]string, len(rm))}
	for i := range rm {
		// A copy: parsed keys share the text of their whole response,
		// which the entity, living on, must not keep alive.
		sh.keys[i] = strings.Clone(rm[i].Key)
	}
	if len(rm) >= len(defs) {
		sh.asIs = true
		for i := range defs {
			if rm[i].Key != defs[i].Key {
				sh.asIs = false
				break
			}
		}
		if sh.asIs {
			return sh
		}
	}
	sh.src = make([]fillSource, 0, len(defs)+len(rm))
	for d := range defs {
		r := -1
		for i := range rm {
			if rm[i].Key == defs[d].Key {
				r = i
				break
			}
		}
		sh.src = append(sh.src, fillSource{def: d, rec: r})
	}
	for i := range rm {
		if !e.defaultKeys[rm[i].Key] {
			sh.src = append(sh.src, fillSource{def: -1, rec: i})
		}
	}
	return sh
}

// build denormalizes a stored record: defaults filled, nested schemas read.
// A nested entity that was deleted, where the member is required (its
// default is truthy, as a nested entity's default instance is), makes the
// whole record count as deleted, so that a list leaves it out and a single
// read fetches again; where it is optional (a default of null, or none),
// the member reads as undefined. This is data-client's rule.
//
// When fill leaves rec as it is and every nested value read is the very
// value inline at that position in the record rec was normalized from
// (slot.Parsed), the result would be a copy of that record: it is returned
// instead, which saves the copy on a first read. When it does not fit, the
// slot lets go of it, so that it can be collected: it would not fit again
// before the record changes, which brings a parsed record of its own.
func (e *Entity) build(rec value.Value, slot *Slot, d *denormalizer) (value.Value, Status) {
	out, members := e.fillOwned(rec, &d.slab)
	parsed := slot.Parsed
	// inline is set while parsed can stand for out. Its members are
	// looked up one by one, not listed: a lazy record (value.ParseLazy)
	// then reads them off its tape and is never built.
	inline := members == nil && parsed.Kind() == value.Object && parsed.Len() == rec.Len()
	slot.Parsed = value.Undef // put back below if it fits
	copied := false           // members are out's own until a copy is made
	st := Found
	for _, f := range e.nestedFields() { // in member order (see Fields)
		i, child := out.Find(f.Name)
		if i < 0 {
			continue
		}
		v, cst := f.Schema.denormalize(child, d)
		if cst == Deleted {
			if truthy(f.Default) {
				// The whole record reads as deleted: no value, as
				// data-client's INVALID replaces it.
				return value.Undef, Deleted
			}
			v = value.Undef
		}
		if inline {
			if j, x := parsed.Find(f.Name); j == i && value.Same(x, v) {
				continue // parsed still fits: no copy yet
			}
			// It does not: copy it, whose members are out's but for the
			// nested ones, which so far hold the values read.
			members = d.slab.copyOf(parsed)
			copied = true
			inline = false
		}
		if members == nil {
			members = d.slab.copyOf(out)
			copied = true
		}
		members[i].Value = v
	}
	if inline {
		slot.Parsed = parsed
		return parsed, st
	}
	if copied {
		out = value.Obj(members...)
	}
	return out, st
}

// truthy reports whether JavaScript would take v as true: anything but
// undefined, null, false, 0, NaN and "".
func truthy(v value.Value) bool {
	switch v.Kind() {
	case value.Undefined, value.Null:
		return false
	case value.Bool:
		return v.Boolean()
	case value.Number:
		f, _ := v.Float()
		return f != 0 && f == f
	case value.String:
		return v.Str() != ""
	}
	return true
}

func (a *Array) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	if v.Kind() != value.Array {
		return v, Found
	}
	out := make([]value.Value, 0, v.Len())
	if _, ok := a.Of.(*Entity); ok {
		// Each element adds its deps: room for them at once.
		d.deps.kids = slices.Grow(d.deps.kids, v.Len())
	}
	for _, el := range v.Elems() {
		dv, st := a.Of.denormalize(el, d)
		if st == Deleted || dv.IsUndefined() {
			continue
		}
		out = append(out, dv)
	}
	return value.Arr(out...), Found
}

func (o *Object) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	if v.Kind() != value.Object {
		return v, Found
	}
	members := append(make([]value.Member, 0, v.Len()+len(o.Fields)), v.Members()...)
	st := Found
	// In member order, as the JavaScript bridge writes them (see
	// Entity.Fields).
	for i := range members {
		for _, f := range o.Fields {
			if f.Name == members[i].Key && f.Schema != nil {
				dv, cst := f.Schema.denormalize(members[i].Value, d)
				if cst == Deleted {
					// Every member of an object is required (data-client's).
					return value.Undef, Deleted
				}
				st = worse(st, cst)
				members[i].Value = dv
				break
			}
		}
	}
	for _, f := range o.Fields {
		if f.Schema == nil && !f.Default.IsUndefined() {
			if i, _ := v.Find(f.Name); i < 0 {
				members = append(members, value.M(f.Name, f.Default))
			}
		}
	}
	return value.Obj(members...), st
}

func (vs *Values) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	if v.Kind() != value.Object {
		return v, Found
	}
	members := make([]value.Member, 0, v.Len())
	for _, m := range v.Members() {
		dv, st := vs.Of.denormalize(m.Value, d)
		if st == Deleted || dv.IsUndefined() {
			continue
		}
		members = append(members, value.M(m.Key, dv))
	}
	return value.Obj(members...), Found
}

func (u *Union) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	if v.Kind() == value.Object && v.Has("schema") {
		name, _ := v.Get("schema").Text()
		if m := u.Schemas[name]; m != nil {
			return m.denormalize(v.Get("id"), d)
		}
		return v, Found // a value no member took, stored as it came
	}
	if v.Kind() == value.Object {
		// A record never normalized (data-client reads one so): read by
		// the member its attribute names.
		if u.AttributeFunc != nil {
			d.callerCode()
		}
		if _, m := u.choose(v, value.Undef, nil); m != nil {
			return m.denormalize(v, d)
		}
	}
	if u.Unknown != nil && truthy(v) {
		d.callerCode()
		u.Unknown(v, "", true)
	}
	return v, Found
}

// denormalize reads the entity as Entity does: deleted, as after the
// delete that stored it, it is Deleted (data-client's INVALID).
func (i *Invalidate) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	return i.Entity.denormalize(v, d)
}

func (dateSchema) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	return v, Found
}
