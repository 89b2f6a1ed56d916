package encode

import (
	"slices"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// A read crosses to JavaScript as an output in the format of package wire
// (jsbridge/wire/SPEC.md): a header, then the value as ops in prefix
// order, which decode and response in internal/wire.mjs (under
// jsbridge/js) turn into the value the caller gets. The identity ops say
// which objects JavaScript registers under an id (wire.OpRegister), which
// it already holds (OpRef), which lists keep elements of their previous
// emission (OpKeptList, see keptList), which entities are a few changed
// members laid over an object it holds (OpOver, see keptEntity), and which
// ids it forgets (OpDrop).
//
// Encoding is directed by the schema: only entity positions (and the top of
// the result) get identities, and only Date fields get Date ops, so a part
// of the value without either is written whole by wire.Writer.Value.

// writeRead writes to w the output that carries v, the denormalized result
// of schema s under the result key slot, with identities from t. Pass a nil
// t for a read that needs no identity (snapshots, denormalize); then only
// Date ops are written. w must have been begun (wire.Writer.Begin) with
// t's shapes.
func (t *Identities) writeRead(w *wire.Writer, slot string, s schema.Schema, v value.Value) {
	if a, ok := s.(*schema.CollectionAdd); ok {
		s = a.ReadSchema(v) // an entity position when one record was pushed
	}
	// A Lazy's query reads as its inner schema: an entity position when
	// that is an Entity.
	s = schema.ReadSchema(s)
	var held []uintptr
	if t != nil {
		if id, ent := t.find(v); ent != nil {
			// The whole result is unchanged: JavaScript returns the object
			// it has, with nothing else to build.
			ent.refs++
			t.setSlot(slot, append(held, id), id)
			w.Ref(uint64(ent.wire))
			wire.Drop(w, t.takeDropped())
			return
		}
	}
	e := &encoder{t: t, w: w, held: &held}
	if t != nil {
		e.prevTop, e.prevTopEnt = t.lastRoot(slot)
	}
	if e.prevTopEnt == nil {
		// The room for the output is reserved at once: grown by append, a
		// large output would leave behind each smaller buffer, several
		// times the output in all, and in wasm that is memory the page
		// never gets back. Not when JavaScript holds the slot's previous
		// emission: then the output is what changed since (kept lists,
		// refs), and sizing the whole value would walk all of it, a tenth
		// of a re-read after one shared entity changed (issue 11).
		w.Grow(sizeEstimate(v))
	}
	if isIdentified(s) {
		e.value(v, s)
	} else {
		// The top of the result gets an identity even where the schema
		// gives it none, so an unchanged re-read is one ref.
		saved := e.register(v)
		e.value(v, s)
		e.held = saved
	}
	if t == nil {
		return
	}
	var root uintptr
	if id, ok := t.lookup(v); ok {
		root = id
	}
	t.setSlot(slot, held, root)
	wire.Drop(w, t.takeDropped())
}

// sampledElems is the number of elements of a long array sizeEstimate
// measures.
const sampledElems = 16

// sizeEstimate returns about value.SizeHint(v), the room writeRead
// reserves, measuring a long array by sampledElems of its elements spread
// over it, and an eighth more for what those miss. SizeHint walks every
// denormalized record, an eighth of a cold read's encoding at N=1,000, for
// a figure that only sizes a buffer; should the estimate fall short, the
// buffer grows once.
func sizeEstimate(v value.Value) int {
	if v.Unbuilt() {
		return value.SizeHint(v) // its text's length, without building it
	}
	switch v.Kind() {
	case value.Array:
		elems := v.Elems()
		if len(elems) <= sampledElems {
			break
		}
		n := 0
		for i := range sampledElems {
			n += sizeEstimate(elems[i*len(elems)/sampledElems]) + 1 // and a comma
		}
		n = n / sampledElems * len(elems)
		return n + n/8
	case value.Object:
		n := 2 // {}
		for _, m := range v.Members() {
			if !m.Value.IsUndefined() {
				n += len(m.Key) + 4 + sizeEstimate(m.Value) // "key":value,
			}
		}
		return n
	}
	return value.SizeHint(v)
}

// maxKeptBuffer bounds the scratch memory kept between emissions, so one
// huge read does not pin its high-water mark for good.
const maxKeptBuffer = 1 << 20

// keepScratch returns b emptied for reuse, or nil when it is too large to
// keep.
func keepScratch(b []byte) []byte {
	if cap(b) > maxKeptBuffer {
		return nil
	}
	return b[:0]
}

// isIdentified reports whether s makes its position an entity position.
func isIdentified(s schema.Schema) bool {
	switch s.(type) {
	case *schema.Entity, *schema.Invalidate, *schema.Union:
		return true
	}
	return false
}

// encoder writes one read.
type encoder struct {
	t *Identities
	w *wire.Writer
	// path holds the member keys from the top of the result down to the
	// value being written, while that value is reached through object
	// members only (inList is 0); keptList needs it.
	path   []string
	inList int
	// held collects the ids referenced at the current level: by the slot at
	// the top, by the innermost registered object below it.
	held *[]uintptr
	// prevTop is the top-level value of the result's previous emission,
	// which JavaScript holds as prevTopEnt (nil: none); see keptList.
	prevTop    value.Value
	prevTopEnt *identity
	// shared is keptEntity's scratch list of ids.
	shared []uintptr
	// open[:opened] are the entities being written in full, from the top
	// down: a record cut at a cycle back to one of them is written as a
	// reference back to it (see backRef). Deeper ones are not kept.
	open   [maxOpen]building
	opened int
}

// maxOpen is how deep entities being written are kept for backRef.
const maxOpen = 32

// value writes v by schema s.
func (e *encoder) value(v value.Value, s schema.Schema) {
	switch s := s.(type) {
	case nil:
		e.raw(v)
	case *schema.Entity:
		e.entity(v, s)
	case *schema.Invalidate:
		e.entity(v, s.Entity)
	case *schema.Union:
		m := unionMember(s, v)
		if ent, ok := m.(*schema.Entity); ok || m == nil {
			e.entity(v, ent)
			return
		}
		e.value(v, m)
	case *schema.Array:
		e.list(v, s.Of)
	case *schema.Collection:
		e.value(v, s.Of) // read as its list or map
	case *schema.All, *schema.LazyQuery:
		e.value(v, schema.ReadSchema(s)) // a member of an object read by ctrl.get
	case *schema.CollectionAdd:
		// The record pushed (or the list of them; the map assigned).
		e.value(v, s.ReadSchema(v))
	case *schema.Scalar:
		if !v.IsNullish() {
			e.w.Convert(s.ID)
		}
		e.raw(v)
	case *schema.Values:
		if v.Kind() != value.Object || !needsWalk(s.Of) {
			e.raw(v)
			return
		}
		e.members(v, memberSchemas{all: s.Of}, true)
	case *schema.Object:
		if v.Kind() != value.Object || !needsWalk(s) {
			e.raw(v)
			return
		}
		e.members(v, memberSchemas{fields: s.Fields}, false)
	default:
		if schema.IsDate(s) {
			if k := v.Kind(); k == value.Number || k == value.String {
				e.w.Date()
			}
			e.raw(v)
			return
		}
		e.raw(v)
	}
}

// entity writes an entity position: a reference when JavaScript already
// has the object, else the record, registered, with its nested fields
// written by their schemas. ent may be nil (a union member not found).
func (e *encoder) entity(v value.Value, ent *schema.Entity) {
	if e.backRef(v, ent) {
		return
	}
	saved, reg, done := e.refOrRegister(v)
	if done {
		return
	}
	var fields []schema.Field
	if ent != nil {
		fields = ent.Fields()
		if c := entityClass(ent); c != 0 && v.Kind() == value.Object {
			e.w.Class(c)
		}
	}
	if v.Kind() != value.Object || len(fields) == 0 {
		e.raw(v)
	} else {
		n := e.opened
		if reg != nil && n < len(e.open) {
			e.open[n] = building{ent, reg}
			e.opened++
		}
		e.members(v, memberSchemas{fields: fields}, false)
		e.opened = n
	}
	e.held = saved
}

// building is an entity being written in full, registered as reg (whose
// value it is).
type building struct {
	ent *schema.Entity
	reg *identity
}

// backRef writes v, at an entity position of ent, as a reference back to
// the entity being written that it is the record of, cut at a cycle
// (schema.Entity.CycleCut): JavaScript then builds the cycle as an object
// graph (wire.OpBackRef) rather than a tree with the nested entities of
// the cut shown as keys. It reports whether it did.
func (e *encoder) backRef(v value.Value, ent *schema.Entity) bool {
	for i := e.opened - 1; i >= 0; i-- {
		if b := e.open[i]; b.ent == ent && ent.CycleCut(v, b.reg.v) {
			e.w.BackRef(uint64(b.reg.wire))
			return true
		}
	}
	return false
}

// list writes an array whose elements have schema of.
func (e *encoder) list(v value.Value, of schema.Schema) {
	if v.Kind() != value.Array || !needsWalk(of) {
		e.raw(v)
		return
	}
	if e.keptList(v, of) {
		return
	}
	if e.t != nil && isIdentified(of) {
		// Room for an entry and a reference per element at once, rather
		// than by doubling.
		e.t.grow(v.Len())
		*e.held = slices.Grow(*e.held, v.Len())
	}
	elems, mark := e.w.ElemsOf(v)
	e.w.Array(len(elems))
	e.inList++
	for _, el := range elems {
		e.element(el, of)
	}
	e.inList--
	e.w.PopElems(mark)
}

// element writes el, an element of the array being written, by schema of.
func (e *encoder) element(el value.Value, of schema.Schema) {
	if el.IsUndefined() {
		e.w.Undefined() // kept, as data-client keeps it (not null, as JSON)
		return
	}
	e.value(el, of)
}

// memberSchemas gives the schemas of an object's members: all of them have
// schema all (a Values schema), or those named in fields have theirs.
type memberSchemas struct {
	fields []schema.Field
	all    schema.Schema
}

// of returns the schema of the member key; nil when it has none (a default
// or an unknown member).
func (ms memberSchemas) of(key string) schema.Schema {
	if ms.all != nil {
		return ms.all
	}
	for i := range ms.fields {
		if ms.fields[i].Name == key {
			return ms.fields[i].Schema
		}
	}
	return nil
}

// members writes an object whose members have the schemas ms gives (none:
// written as they are); dict is set when its keys are data (a Values
// schema), which are not worth a shape. Undefined members are written
// as undefined, as data-client keeps them (JSON leaves them out).
func (e *encoder) members(v value.Value, ms memberSchemas, dict bool) {
	members, mark := e.w.MembersOf(v)
	inline := e.w.Object(members, dict)
	for _, m := range members {
		if inline {
			e.w.Key(m.Key)
		}
		e.member(m, ms.of(m.Key))
	}
	e.w.PopMembers(mark)
}

// member writes the value of m, a member of an object being written, by
// its schema s (nil: as it is).
func (e *encoder) member(m value.Member, s schema.Schema) {
	if s == nil {
		e.raw(m.Value)
		return
	}
	e.path = append(e.path, m.Key)
	e.value(m.Value, s)
	e.path = e.path[:len(e.path)-1]
}

// refOrRegister writes a placeholder and a ref op when JavaScript has v
// already (done is true: v is written); otherwise it registers v as
// register does and returns the level to restore once v is written. One
// lookup in the table serves both.
func (e *encoder) refOrRegister(v value.Value) (saved *[]uintptr, reg *identity, done bool) {
	saved = e.held
	if e.t == nil {
		return saved, nil, false
	}
	id := value.Identity(v)
	if id == 0 {
		return saved, nil, false
	}
	ent := e.t.entries.get(id)
	switch {
	case ent == nil:
		ent = e.t.insert(id, v)
	case value.Same(ent.v, v):
		ent.refs++
		*e.held = append(*e.held, id)
		e.w.Ref(uint64(ent.wire))
		return saved, nil, true
	default:
		// Another value at the same address (see lookup): no identity.
		return saved, nil, false
	}
	ent.refs++
	*e.held = append(*e.held, id)
	e.w.Register(uint64(ent.wire))
	e.held = &ent.children
	return saved, ent, false
}

// register enters v in the table, referenced from the current level, and
// makes v's children the current level. It returns the level to restore
// once v is written. Values without an identity are not registered.
func (e *encoder) register(v value.Value) (saved *[]uintptr) {
	saved = e.held
	if e.t == nil {
		return saved
	}
	id, ent, ok := e.t.add(v)
	if !ok {
		return saved
	}
	ent.refs++
	*e.held = append(*e.held, id)
	// The op comes before v: JavaScript registers the object once it has
	// built it.
	e.w.Register(uint64(ent.wire))
	e.held = &ent.children
	return saved
}

// raw writes v whole: it holds no entity position or Date.
func (e *encoder) raw(v value.Value) { e.w.Value(v) }

// unionMember returns the member of u that v, a denormalized record, is
// (nil: none).
func unionMember(u *schema.Union, v value.Value) schema.Schema {
	if v.Kind() != value.Object {
		return nil
	}
	var name string
	if u.AttributeFunc != nil {
		name = u.AttributeFunc(v, value.Undef, "")
	} else {
		name, _ = v.Get(u.Attribute).Text()
	}
	return u.Schemas[name]
}

// needsWalk reports whether values of s hold entity positions or dates;
// values of other schemas are written as plain JSON.
func needsWalk(s schema.Schema) bool { return !schema.IsPlain(s) }
