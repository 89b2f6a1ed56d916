package jsbridge

import (
	"slices"
	"strconv"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// A read crosses to JavaScript as one JSON object, which decode in
// internal/wire.mjs (under jsbridge/js) turns into the value the caller gets:
//
//	"r": id      the value is the object JavaScript already holds as id
//	"d": data    otherwise, the value as JSON (absent: undefined)
//	"o": [op...] changes to apply to data, in document order
//	"x": [id...] ids JavaScript must forget (after applying the ops)
//
// Each op is [kind, id, path...], path being the keys and indices from data
// down to the position it names (empty for data itself):
//
//	[0, id, path...] register the object at path as id
//	[1, id, path...] replace the placeholder at path by the object id
//	[2, 0, path...]  replace the number or string at path by a Date
//	[3, id, [from, to, ...], path...]
//	                 the array at path takes, in the index ranges [from, to)
//	                 listed, the elements of the array at the same path in
//	                 the object id (see keptList)
//	[4, id, new, path...]
//	                 the object at path holds some members only: lay them
//	                 over a shallow copy of the object id, put the copy at
//	                 path and register it as new (see keptEntity)
//
// Callers may add members of their own (getResponse adds "s" and "e").
//
// Encoding is directed by the schema: only entity positions (and the top of
// the result) get identities, and only Date fields get Date ops, so a part
// of the value without either is copied as JSON in one go.
const (
	opRegister = 0
	opRef      = 1
	opDate     = 2
	opKept     = 3
	opOver     = 4
)

// appendRead appends to dst the members (each followed by a comma) that
// carry v, the denormalized result of schema s under the result key slot,
// with identities from t. Pass a nil t for a read that needs no identity
// (snapshots, denormalize); then only Date ops are emitted.
func (t *identities) appendRead(dst []byte, slot string, s schema.Schema, v value.Value) []byte {
	var held []uintptr
	if t != nil {
		if id, ok := t.lookup(v); ok {
			// The whole result is unchanged: JavaScript returns the object
			// it has, with no parse at all.
			t.retain(id)
			t.setSlot(slot, append(held, id), id)
			dst = appendMember(dst, `"r":`, id)
			return t.appendDropped(dst)
		}
	}
	// The data is written straight into dst: results can be large, and
	// every copy of them shows. So is the room for it reserved at once,
	// with some for the ops after it: grown by append, a large output would
	// leave behind each smaller buffer, four times the output in all, and
	// in wasm that is memory the page never gets back.
	if hint := value.SizeHint(v); cap(dst)-len(dst) < hint {
		dst = slices.Grow(dst, len(`"d":,`)+hint+hint/16)
	}
	dst = append(dst, `"d":`...)
	mark := len(dst)
	e := &encoder{t: t, data: dst, held: &held}
	if t != nil {
		e.ops = t.scratch[:0]
		e.prevTop, e.prevTopID = t.lastRoot(slot)
	}
	if isIdentified(s) {
		e.value(v, s)
	} else {
		// The top of the result gets an identity even where the schema
		// gives it none, so an unchanged re-read is one "r".
		saved := e.register(v)
		e.value(v, s)
		e.held = saved
	}
	dst = e.data
	if len(dst) == mark {
		dst = dst[:mark-len(`"d":`)] // undefined: no data at all
	} else {
		dst = append(dst, ',')
	}
	if len(e.ops) > 0 {
		dst = append(dst, `"o":[`...)
		dst = append(dst, e.ops[:len(e.ops)-1]...) // without the last comma
		dst = append(dst, ']', ',')
	}
	if t == nil {
		return dst
	}
	t.scratch = keepScratch(e.ops)
	var root uintptr
	if id, ok := t.lookup(v); ok {
		root = id
	}
	t.setSlot(slot, held, root)
	return t.appendDropped(dst)
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

// appendMember appends "name":id, to dst.
func appendMember(dst []byte, name string, id uintptr) []byte {
	dst = append(dst, name...)
	dst = strconv.AppendUint(dst, uint64(id), 10)
	return append(dst, ',')
}

// appendDropped appends the "x" member when ids were dropped.
func (t *identities) appendDropped(dst []byte) []byte {
	d := t.takeDropped()
	if len(d) == 0 {
		return dst
	}
	dst = append(dst, `"x":[`...)
	for i, id := range d {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendUint(dst, uint64(id), 10)
	}
	return append(dst, ']', ',')
}

// closeObject ends an output object whose members end with a comma.
func closeObject(dst []byte) []byte {
	if n := len(dst); n > 0 && dst[n-1] == ',' {
		dst[n-1] = '}'
		return dst
	}
	return append(dst, '}')
}

// isIdentified reports whether s makes its position an entity position.
func isIdentified(s schema.Schema) bool {
	switch s.(type) {
	case *schema.Entity, *schema.Invalidate, *schema.Union:
		return true
	}
	return false
}

// pathSeg is one step of the path from data to the value being encoded.
type pathSeg struct {
	key   string
	index int // -1 when key names an object member
}

// encoder writes one read.
type encoder struct {
	t    *identities
	data []byte
	ops  []byte // ops, each followed by a comma
	path []pathSeg
	// held collects the ids referenced at the current level: by the slot at
	// the top, by the innermost registered object below it.
	held *[]uintptr
	// prevTop is the top-level value of the result's previous emission,
	// which JavaScript holds as prevTopID (0: none); see keptList.
	prevTop   value.Value
	prevTopID uintptr
	// shared is keptEntity's scratch list of ids.
	shared []uintptr
}

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
		e.entity(v, unionMember(s, v))
	case *schema.Array:
		e.list(v, s.Of)
	case *schema.Values:
		if v.Kind() != value.Object || !needsWalk(s.Of) {
			e.raw(v)
			return
		}
		e.members(v, memberSchemas{all: s.Of})
	case *schema.Object:
		if v.Kind() != value.Object || !needsWalk(s) {
			e.raw(v)
			return
		}
		e.members(v, memberSchemas{fields: s.Fields})
	default:
		if schema.IsDate(s) {
			e.raw(v)
			if k := v.Kind(); k == value.Number || k == value.String {
				e.op(opDate, 0)
			}
			return
		}
		e.raw(v)
	}
}

// entity writes an entity position: a reference when JavaScript already
// has the object, else the record, registered, with its nested fields
// written by their schemas. ent may be nil (a union member not found).
func (e *encoder) entity(v value.Value, ent *schema.Entity) {
	saved, done := e.refOrRegister(v)
	if done {
		return
	}
	var fields []schema.Field
	if ent != nil {
		fields = ent.Fields()
	}
	if v.Kind() != value.Object || len(fields) == 0 {
		e.raw(v)
	} else {
		e.members(v, memberSchemas{fields: fields})
	}
	e.held = saved
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
		e.t.grow(v.Len())
	}
	e.data = append(e.data, '[')
	for i, el := range v.Elems() {
		if i > 0 {
			e.data = append(e.data, ',')
		}
		e.element(i, el, of)
	}
	e.data = append(e.data, ']')
}

// element writes el, at index i of the array being written, by schema of.
func (e *encoder) element(i int, el value.Value, of schema.Schema) {
	if el.IsUndefined() {
		e.data = append(e.data, "null"...) // as JSON.stringify writes it
		return
	}
	e.path = append(e.path, pathSeg{index: i})
	e.value(el, of)
	e.path = e.path[:len(e.path)-1]
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
// written as they are). Undefined members are left out, as in JSON.
func (e *encoder) members(v value.Value, ms memberSchemas) {
	e.data = append(e.data, '{')
	first := true
	for _, m := range v.Members() {
		if m.Value.IsUndefined() {
			continue
		}
		e.member(m, ms.of(m.Key), first)
		first = false
	}
	e.data = append(e.data, '}')
}

// member writes m, a member of an object being written, by its schema s
// (nil: as it is); a comma goes before all but the first.
func (e *encoder) member(m value.Member, s schema.Schema, first bool) {
	if !first {
		e.data = append(e.data, ',')
	}
	e.data = value.AppendString(e.data, m.Key)
	e.data = append(e.data, ':')
	if s == nil {
		e.raw(m.Value)
		return
	}
	e.path = append(e.path, pathSeg{key: m.Key, index: -1})
	e.value(m.Value, s)
	e.path = e.path[:len(e.path)-1]
}

// refOrRegister writes a placeholder and a ref op when JavaScript has v
// already (done is true: v is written); otherwise it registers v as
// register does and returns the level to restore once v is written. One
// lookup in the table serves both.
func (e *encoder) refOrRegister(v value.Value) (saved *[]uintptr, done bool) {
	saved = e.held
	if e.t == nil {
		return saved, false
	}
	id := value.Identity(v)
	if id == 0 {
		return saved, false
	}
	ent := e.t.entries[id]
	switch {
	case ent == nil:
		ent = e.t.insert(id, v)
	case value.Same(ent.v, v):
		ent.refs++
		*e.held = append(*e.held, id)
		e.data = append(e.data, '0')
		e.op(opRef, id)
		return saved, true
	default:
		// Another value at the same address (see lookup): no identity.
		return saved, false
	}
	ent.refs++
	*e.held = append(*e.held, id)
	e.op(opRegister, id)
	e.held = &ent.children
	return saved, false
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
	// The op comes before those of v's insides: JavaScript registers the
	// object, then fills it in place.
	e.op(opRegister, id)
	e.held = &ent.children
	return saved
}

func (e *encoder) raw(v value.Value) {
	e.data = value.AppendJSON(e.data, v)
}

// op appends an op at the current path.
func (e *encoder) op(kind int, id uintptr) {
	e.ops = append(e.ops, '[', byte('0'+kind), ',')
	e.ops = strconv.AppendUint(e.ops, uint64(id), 10)
	e.appendPath()
	e.ops = append(e.ops, ']', ',')
}

// appendPath appends the current path to the op being written, each
// step after a comma.
func (e *encoder) appendPath() {
	for _, p := range e.path {
		e.ops = append(e.ops, ',')
		if p.index >= 0 {
			e.ops = strconv.AppendInt(e.ops, int64(p.index), 10)
		} else {
			e.ops = value.AppendString(e.ops, p.key)
		}
	}
}

// unionMember returns the entity of u that v, a denormalized record, is.
func unionMember(u *schema.Union, v value.Value) *schema.Entity {
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
