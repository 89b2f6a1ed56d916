package schema

import (
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/datafetch/datafetch/core/internal/dates"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Normalized is a response taken apart: the result with every entity
// replaced by its primary key, and the entity records to store.
type Normalized struct {
	Result   value.Value
	Entities []EntityWrite
	// Collections are the changes to stored collections (Collection's
	// push and the rest, a later page) the response asks for.
	Collections []CollectionWrite
}

// EntityWrite is one entity record produced by normalization.
type EntityWrite struct {
	Entity *Entity
	PK     string
	// Value is the record with nested entities replaced by their keys;
	// read it with Record, as normalize may leave it to be made.
	Value value.Value
	// Parsed is the record Value was made from, with its nested entities
	// still inline, when normalizing replaced some of them by keys
	// (Undefined otherwise: Value is then the record itself). Value equals
	// Parsed but for those members, at the same positions, so a read may
	// hand Parsed back, with no copy, while each of them reads as the very
	// value that is inline in it (see Slot.Parsed).
	Parsed value.Value
	// Deleted marks the entity deleted (from an Invalidate schema).
	Deleted bool
	// Source is the JSON text the record was parsed from (value.Source)
	// when normalizing that text always gives an equal Value, which holds
	// when no Process hook is anywhere in the entity's schema (PKFunc and
	// AttributeFunc, like data-client's pk and schemaAttribute, must be
	// functions of their arguments); "" when unknown. A store compares it
	// with the text of the record it holds to see at once that a record
	// fetched again is unchanged.
	Source string

	// keys, when set, are the members of Parsed that Value replaces (the
	// keys of its nested entities), and Value is not made yet: a record
	// fetched again with the same Source is never made (see Record).
	keys []value.Patch
	// repeated is set when the response repeats the record, with the same
	// Source, after this write, which stands for those too (see repeats).
	repeated bool
}

// Repeated reports whether the response holds the record again later, as
// the same text, which this write stands for (it is not listed again).
func (w *EntityWrite) Repeated() bool { return w.repeated }

// Record returns the record to store, Value, making it first from Parsed
// when normalize left it to be made: Parsed patched with the keys of its
// nested entities (value.Patched), which for a response on a tape is
// offsets into it, not a copy. It is made once and kept.
func (w *EntityWrite) Record() value.Value {
	if w.keys != nil {
		w.Value, w.keys = value.Patched(w.Parsed, w.keys), nil
	}
	return w.Value
}

// Normalize takes data apart by s. A nil schema leaves data as the result
// with no entities. Errors are *Error and name the schema and the path of
// the offending value; on error nothing is returned to store, so a caller's
// store stays as it was.
func Normalize(s Schema, data value.Value) (*Normalized, error) {
	return NormalizeArgs(s, data, Args{})
}

// NormalizeArgs is Normalize for a response to a request made with args,
// which a Collection in s is stored by.
func NormalizeArgs(s Schema, data value.Value, args Args) (*Normalized, error) {
	if s == nil {
		return &Normalized{Result: data}, nil
	}
	if e, ok := s.(*Entity); ok && (data.Kind() == value.String || data.Kind() == value.Number || data.Kind() == value.Bool) {
		// A bare key stands for a record only inside a response (and a
		// boolean is kept only inside a list): as the whole response it is
		// a server answering something else ("OK", a count, true), and
		// reading it back would give nothing.
		return nil, errorAt(nil, e, "expected a record (object), got %s", data.Kind())
	}
	n := normalizers.Get().(*normalizer)
	n.args = args
	// At the top, the data is its own parent, as data-client passes it.
	res, err := s.normalize(data, data, nil, n)
	if err != nil {
		n.release()
		return nil, err
	}
	out := &normalized{}
	out.Normalized = Normalized{Result: res, Collections: n.collections}
	switch w := n.writes; {
	case len(w) > len(out.own):
		// A large response's writes are handed over, not copied.
		out.Entities, n.writes = w, nil
	case len(w) > 0:
		out.Entities = append(out.own[:0], w...)
	}
	n.release()
	return &out.Normalized, nil
}

// normalized is a Normalized with room for the writes of a small
// response, a record set with its nested one, in the same allocation.
type normalized struct {
	Normalized
	own [2]EntityWrite
}

// normalizers are reused between normalizations: what a normalizer has
// for one (its paths, scratch, the rest of its slab) is what the next
// needs, and a small write (a record set) would otherwise allocate it
// all again each time.
var normalizers = sync.Pool{New: func() any {
	n := new(normalizer)
	n.paths = n.ownPaths[:0]
	return n
}}

// release puts n back in normalizers, keeping no value of the
// normalization done: what stays is memory for the next one. keys are
// never reused, records keeping them (value.Patched), nor is the slab's
// memory already carved; writes, elements and scratch larger than a small
// response needs are dropped rather than kept idle.
func (n *normalizer) release() {
	const keep = 64
	if n.seenOn {
		// Its keys would keep the response's text alive.
		clear(n.seen[:])
		n.seenOn = false
	}
	clear(n.writes)
	n.writes = n.writes[:0]
	if cap(n.writes) > keep {
		n.writes = nil
	}
	n.keys = nil
	for _, p := range n.paths {
		*p = pathElem{}
	}
	clear(n.elems[:cap(n.elems)])
	n.elems = n.elems[:0]
	if cap(n.elems) > keep {
		n.elems = nil
	}
	clear(n.slab.scratch[:cap(n.slab.scratch)])
	n.slab.scratch = n.slab.scratch[:0]
	if cap(n.slab.scratch) > keep {
		n.slab.scratch = nil
	}
	n.args, n.collections, n.list, n.listed = Args{}, nil, value.Undef, false
	normalizers.Put(n)
}

// Merged returns one write per entity, in order of first appearance, with
// the records of an entity repeated in the response merged by its Merge rule
// (a later deletion wins). It is the shape tools want, such as a devtools
// view of a response; the store gets the same outcome from the full list.
func (n *Normalized) Merged() []EntityWrite {
	type id struct{ key, pk string }
	index := make(map[id]int, len(n.Entities))
	out := make([]EntityWrite, 0, len(n.Entities))
	for _, w := range n.Entities {
		k := id{w.Entity.Key, w.PK}
		i, ok := index[k]
		if !ok {
			index[k] = len(out)
			out = append(out, w)
			continue
		}
		if prev := &out[i]; w.Deleted || prev.Deleted {
			*prev = w
		} else {
			prev.Value = w.Entity.merge(prev.Record(), w.Record())
			prev.Source = ""
		}
	}
	return out
}

type normalizer struct {
	writes []EntityWrite
	// paths are path elements by depth, reused: a path is read only while
	// the value it leads to is being normalized (for errors and for the key
	// that Process and PKFunc get), and passed through an interface it
	// would otherwise be allocated for every record.
	paths []*pathElem
	// slab is memory that normalized records are carved from, keys the
	// nested keys of records left to be made (EntityWrite.Record).
	slab memberSlab
	keys []value.Patch
	// elems holds the elements of the lists being normalized (see
	// Array.normalize).
	elems []value.Value
	// args are the request's, for Collection; collections the changes
	// to stored collections found.
	args        Args
	collections []CollectionWrite
	// list is args.List(), made when a hook first asks for it (listed).
	list   value.Value
	listed bool
	// seen, while seenOn (from the first list of more than one element
	// on), names the write listed last for each of the keys met lately
	// (see repeats). It is allocated once and reused.
	seen   *[seenSlots]seenWrite
	seenOn bool

	// ownPaths and ownPathElems are the first room for paths, in the
	// normalizer itself.
	ownPaths     [ownPaths]*pathElem
	ownPathElems [ownPaths]pathElem
}

// ownPaths is the depth of path the normalizer has room for in itself.
const ownPaths = 2

// child returns the path to the member key (index -1) or the element index
// of the value at path. It stays valid until the next child of path is
// made.
func (n *normalizer) child(path *pathElem, key string, index int) *pathElem {
	d := 0
	if path != nil {
		d = path.depth + 1
	}
	if d == len(n.paths) {
		var p *pathElem
		if d < len(n.ownPathElems) {
			p = &n.ownPathElems[d]
		} else {
			p = new(pathElem)
		}
		n.paths = append(n.paths, p)
	}
	p := n.paths[d]
	*p = pathElem{parent: path, key: key, index: index, depth: d}
	return p
}

// argList returns the request's args as a list (Args.List), for the
// hooks that get them, made once per normalization. Not inlined: it is
// off the path of entities without hooks, and its copies would weigh on
// datafetch.wasm.
//
//go:noinline
func (n *normalizer) argList() value.Value {
	if !n.listed {
		n.list, n.listed = n.args.List(), true
	}
	return n.list
}

// add lists one record. A record that appears several times in a response is
// listed each time (but see repeats); storing the writes in order merges
// them, with the same rules as any two writes.
func (n *normalizer) add(w EntityWrite) {
	if n.seenOn {
		n.seen[seenSlot(w.Entity, w.PK)] = seenWrite{e: w.Entity, pk: w.PK, at: len(n.writes)}
	}
	n.writes = append(n.writes, w)
}

// keepRepeats, set by tests, lists every occurrence of a record (no
// repeats), to compare what the two store.
var keepRepeats atomic.Bool

// seenSlots is the size of normalizer.seen: a few hundred records
// repeated in a list (the authors of its articles) stay in it.
const seenSlots = 256

// seenWrite is an entry of normalizer.seen: the write of e's record pk
// listed last is writes[at].
type seenWrite struct {
	e  *Entity
	pk string
	at int
}

// seenSlot is where (e, pk) goes in normalizer.seen: a hash of the key's
// length and last bytes and of the entity's, cheaper than hashing the key
// whole, which WebAssembly does slowly.
func seenSlot(e *Entity, pk string) int {
	h := uint(len(pk))*0x9e37 + uint(len(e.Key))*0x45d9
	for i := max(0, len(pk)-3); i < len(pk); i++ {
		h = h*31 + uint(pk[i])
	}
	return int(h^h>>8) & (seenSlots - 1)
}

// repeats reports whether the record pk of e, normalized from source, is
// the one the response listed last under that key: then storing it again
// is a no-op, and it is not listed twice. A list whose records share
// nested ones (the twenty authors of a thousand articles) then makes one
// write per record, not one per occurrence; the writes are a good part of
// what a cold read allocates, and the collector, which in WebAssembly
// runs on the page's thread, marks them again while they live.
//
// It holds only for an entity whose merge is the default shallow merge,
// with no hook of the caller's (which may count the calls, or not be
// idempotent): the second write then merges a record with itself, which
// leaves it and its meta (one write's) as they are. An entry of seen
// names the last write of its key, or nothing: a collision only loses a
// repeat.
func (n *normalizer) repeats(e *Entity, pk, source string) bool {
	if !n.seenOn || keepRepeats.Load() || e.Merge != nil || e.UseIncoming != nil || e.ShouldReorder != nil ||
		e.MergeWithStore != nil || e.MergeMetaWithStore != nil {
		return false
	}
	s := &n.seen[seenSlot(e, pk)]
	if s.e != e || s.pk != pk {
		return false
	}
	w := &n.writes[s.at]
	if w.Deleted || w.Source != source {
		return false
	}
	w.repeated = true
	return true
}

func (p *pathElem) fieldKey() string {
	// A list's member has the list's key, as data-client's ArraySchema
	// passes it.
	for p != nil && p.index >= 0 {
		p = p.parent
	}
	if p == nil {
		return ""
	}
	return p.key
}

func (e *Entity) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if in.Kind() == value.String || in.Kind() == value.Number {
		// A bare key stands for a record stored elsewhere.
		pk, _ := in.Text()
		return value.Str(pk), nil
	}
	if in.Kind() == value.Bool {
		// Not a record: kept as it is (a list may hold one), as in data-client.
		return in, nil
	}
	rec, pk, err := e.record(in, parent, path, n, n.args.Optimistic)
	if err == errProcessedAway {
		if pk == "" {
			// A list's member without a key: left out.
			return value.Undef, nil
		}
		n.add(EntityWrite{Entity: e, PK: pk, Deleted: true})
		return value.Str(pk), nil
	}
	if err != nil {
		return value.Undef, err
	}
	// The members the nested entities' keys replace, gathered here and
	// then kept together (nested records add theirs meanwhile).
	var own [4]value.Patch
	keys := own[:0]
	for _, f := range e.nestedFields() {
		i, child := rec.Find(f.Name)
		if i < 0 {
			continue
		}
		var out value.Value
		at := n.child(path, f.Name, -1)
		if l, ok := f.Schema.(*Lens); ok {
			// A Scalar field: its value goes to the cell of this record.
			out, err = l.fieldRef(e, pk, f.Name, child, at, n)
		} else {
			out, err = f.Schema.normalize(child, rec, at, n)
		}
		if err != nil {
			return value.Undef, err
		}
		keys = append(keys, value.Patch{At: i, V: out})
	}
	w := EntityWrite{Entity: e, PK: pk, Value: rec}
	if e.stable() {
		w.Source = in.Source()
	}
	if w.Source != "" && n.repeats(e, pk, w.Source) {
		// The very record this response wrote last under its key: storing
		// it again would change nothing.
		return value.Str(pk), nil
	}
	if len(keys) > 0 {
		start := len(n.keys)
		n.keys = append(n.keys, keys...)
		w.Value, w.Parsed = value.Undef, rec
		w.keys = n.keys[start:len(n.keys):len(n.keys)]
		if w.Source == "" {
			// No store can tell it unchanged without it: make it now.
			w.Record()
		}
	}
	n.add(w)
	return value.Str(pk), nil
}

// stable reports whether normalizing a record of e always gives an equal
// record for equal text: true unless a Process hook, which may depend on
// where the record is or on anything else, is anywhere in e's schema.
// Computed once: an Entity is not changed after first use.
func (e *Entity) stable() bool {
	switch e.stability.Load() {
	case 1:
		return true
	case 2:
		return false
	}
	st := int32(1)
	if hasProcess(e, map[*Entity]bool{}) {
		st = 2
	}
	e.stability.Store(st)
	return st == 1
}

// hasProcess reports whether s or a schema in it has a Process hook.
func hasProcess(s Schema, seen map[*Entity]bool) bool {
	switch s := s.(type) {
	case *Entity:
		if s == nil || seen[s] {
			return false
		}
		seen[s] = true
		if s.Process != nil {
			return true
		}
		for _, f := range s.Schema {
			if hasProcess(f, seen) {
				return true
			}
		}
	case *Array:
		return s != nil && hasProcess(s.Of, seen)
	case *Values:
		return s != nil && hasProcess(s.Of, seen)
	case *Object:
		for i := 0; s != nil && i < len(s.Fields); i++ {
			if s.Fields[i].Schema != nil && hasProcess(s.Fields[i].Schema, seen) {
				return true
			}
		}
	case *Union:
		if s == nil {
			return false
		}
		for _, e := range s.Schemas {
			if hasProcess(e, seen) {
				return true
			}
		}
	case *Invalidate:
		return s != nil && hasProcess(s.Entity, seen)
	case *Collection:
		return s != nil && hasProcess(s.Of, seen)
	case *Lazy:
		return s != nil && hasProcess(s.Of, seen)
	}
	return false
}

// errProcessedAway is record's answer when Process returned undefined:
// the record (its key taken from the raw one) is to be deleted, as in
// data-client, where such an entity is invalidated; with an empty key (a
// list's member whose raw input has none), the member is left out.
var errProcessedAway = errors.New("process returned undefined")

// undefinedPK is the text of JavaScript's undefined: a key that reads so
// (a pk() of `${this.name}` with no name) is no key, as in data-client.
const undefinedPK = "undefined"

// record applies Process and finds the primary key of a raw record. A
// record without one is an error, unless temporary is set: then it gets a
// new TemporaryPK. When Process returns undefined, it returns the raw
// record's key and errProcessedAway.
func (e *Entity) record(in, parent value.Value, path *pathElem, n *normalizer, temporary bool) (value.Value, string, error) {
	var args value.Value
	if e.Process != nil || e.PKFunc != nil {
		args = n.argList()
	}
	key := path.fieldKey()
	if e.Process != nil {
		out, err := e.Process(in, parent, key, args)
		if err != nil {
			// Wrapped, so that what the hook's error carries (a
			// JavaScript exception's status) reaches the caller.
			pe := errorAt(path, e, "process: %v", err)
			pe.Err = err
			return value.Undef, "", pe
		}
		if out.IsUndefined() {
			// Deleted under the raw input's key, whatever its shape (pk
			// may read a list); with no key, a list's member is left out
			// (data-client would delete "undefined"), anything else is
			// an error.
			pk, ok, err := e.PKOf(in, parent, key, args)
			if err != nil || !ok || pk == "" || pk == undefinedPK {
				if err == nil && path != nil && path.index >= 0 {
					return value.Undef, "", errProcessedAway
				}
				return value.Undef, "", errorAt(path, e, "process returned undefined for a record without a primary key")
			}
			return value.Undef, pk, errProcessedAway
		}
		in = out
	}
	if in.Kind() != value.Object {
		return value.Undef, "", errorAt(path, e, "expected a record (object), got %s", in.Kind())
	}
	pk, ok, err := e.PKOf(in, parent, key, args)
	if err != nil {
		return value.Undef, "", errorAt(path, e, "%v", err)
	}
	if !ok || pk == "" || pk == undefinedPK {
		if temporary {
			return in, TemporaryPK(), nil
		}
		// An empty key is no key, as in data-client: it cannot tell
		// records apart.
		how := fmtlite.Sprintf("field %q", e.pkField())
		if e.PKFunc != nil {
			how = "pk() returned none"
		}
		return value.Undef, "", &Error{Path: path.String(), Schema: e.Key,
			Msg: fmtlite.Sprintf("%v (%s)", ErrNoPK, how), Err: ErrNoPK}
	}
	return in, pk, nil
}

// nestedFields lists Schema in a fixed order (see Fields).
func (e *Entity) nestedFields() []Field {
	e.prepare()
	return e.nested
}

// Fields returns the entity's nested schemas (Schema) as Fields, computed
// once (an Entity is not changed after first use): those of Defaults in
// its order, then the others sorted by name. That is the order of a read
// record's members, in which reads build them, so that JavaScript's
// object graph of a cycle refers back to the entity a cut comes back to
// (see CycleCut). Callers must not modify the slice.
func (e *Entity) Fields() []Field { return e.nestedFields() }

func (e *Entity) prepare() { e.once.Do(func() { e.setup() }) }

// setup computes what prepare keeps: a method, so that prepare, inlined
// into its callers, carries only a call to it.
func (e *Entity) setup() {
	e.defaultKeys = make(map[string]bool, e.Defaults.Len())
	for _, m := range e.Defaults.Members() {
		e.defaultKeys[m.Key] = true
		if s := e.Schema[m.Key]; s != nil {
			e.nested = append(e.nested, Field{Name: m.Key, Schema: s, Default: m.Value})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(e.Schema)) {
		if !e.defaultKeys[name] {
			e.nested = append(e.nested, Field{Name: name, Schema: e.Schema[name], Default: e.Defaults.Get(name)})
		}
	}
}

func (a *Array) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if in.Kind() == value.Object {
		// An object's values, as data-client reads a list given as one.
		vals := make([]value.Value, 0, in.Len())
		for _, m := range in.Members() {
			vals = append(vals, m.Value)
		}
		in = value.Arr(vals...)
	}
	if in.Kind() != value.Array {
		return value.Undef, errorAt(path, a, "expected an array, got %s", in.Kind())
	}
	out := make([]value.Value, in.Len())
	writes, keys := len(n.writes), len(n.keys)
	var elems []value.Value
	if !in.Unbuilt() {
		elems = in.Elems()
	} else {
		// Read off the tape into scratch, used as a stack (nested lists
		// push theirs above): the parsed list is not built, which would
		// keep a copy of it alive with its tape.
		start := len(n.elems)
		n.elems = in.AppendElems(n.elems)
		elems = n.elems[start:]
		defer func() { n.elems = n.elems[:start] }()
	}
	if len(elems) > 1 && !n.seenOn {
		if n.seen == nil {
			n.seen = new([seenSlots]seenWrite)
		}
		n.seenOn = true
	}
	var firstW, firstK int // the writes and keys after the first element
	// The members' parent is the list's, as data-client's ArraySchema
	// passes it (at the top, the list itself).
	for i, el := range elems {
		v, err := a.Of.normalize(el, parent, n.child(path, "", i), n)
		if err != nil {
			return value.Undef, err
		}
		out[i] = v
		switch {
		case i == 0 && len(out) > 1:
			// Elements of a list are usually alike: reserve room for as
			// many writes (and nested keys) again for each of the others,
			// so a large list does not grow them by doubling. For a long
			// list, only for the next few, then (below) for the rest at
			// the rate those made: records nested in many elements are
			// listed once (repeats), and the first element's count would
			// reserve for them again and again.
			more := len(out) - 1
			if more > 4*reserveSample {
				more = reserveSample
			}
			n.reserve(writes, keys, 1, more)
			firstW, firstK = len(n.writes), len(n.keys)
		case i == reserveSample && len(out) > 4*reserveSample+1:
			// The rate of the elements after the first, whose nested
			// records were all new.
			n.reserve(firstW, firstK, i, len(out)-1-i)
		}
	}
	return value.Arr(out...), nil
}

// reserveSample is the number of elements of a list after which the room
// for its writes is reserved again, at the rate they made.
const reserveSample = 63

// reserve makes room in n.writes and n.keys for more elements of a list
// like the last done ones: done elements made the writes since index
// writes and the keys since keys.
func (n *normalizer) reserve(writes, keys, done, more int) {
	if k := len(n.writes) - writes; k > 0 {
		n.writes = slices.Grow(n.writes, (k*more+done-1)/done)
	}
	if k := len(n.keys) - keys; k > 0 {
		n.keys = slices.Grow(n.keys, (k*more+done-1)/done)
	}
}

func (o *Object) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if in.Kind() != value.Object {
		return value.Undef, errorAt(path, o, "expected an object, got %s", in.Kind())
	}
	var members []value.Member
	var drop []int // members a schema normalized to undefined
	for _, f := range o.Fields {
		if f.Schema == nil {
			continue
		}
		i, child := in.Find(f.Name)
		if i < 0 {
			continue
		}
		out, err := f.Schema.normalize(child, in, n.child(path, f.Name, -1), n)
		if err != nil {
			return value.Undef, err
		}
		if members == nil {
			members = n.slab.copyOf(in)
		}
		members[i].Value = out
		if out.IsUndefined() {
			drop = append(drop, i)
		}
	}
	if members == nil {
		return in, nil
	}
	if len(drop) > 0 {
		// A member its schema normalizes to undefined is left out, as
		// data-client's does ({foo: undefined} gives {}); one no schema
		// reads keeps its undefined.
		// (drop may name a member twice: fields may repeat a name.)
		kept := make([]value.Member, 0, len(members))
		for i := range members {
			if !slices.Contains(drop, i) {
				kept = append(kept, members[i])
			}
		}
		members = kept
	}
	return value.Obj(members...), nil
}

func (v *Values) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if in.Kind() != value.Object {
		return value.Undef, errorAt(path, v, "expected an object, got %s", in.Kind())
	}
	members := make([]value.Member, 0, in.Len())
	for _, m := range in.Members() {
		if m.Value.IsNullish() {
			continue // left out, as data-client's Values does
		}
		out, err := v.Of.normalize(m.Value, in, n.child(path, m.Key, -1), n)
		if err != nil {
			return value.Undef, err
		}
		members = append(members, value.M(m.Key, out))
	}
	return value.Obj(members...), nil
}

func (u *Union) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if in.Kind() != value.Object {
		return value.Undef, errorAt(path, u, "expected a record (object), got %s", in.Kind())
	}
	name, m := u.choose(in, parent, path)
	if m == nil {
		// No member for it: kept as it is, as data-client does (it warns).
		if u.Unknown != nil {
			u.Unknown(in, name, false)
		}
		return in, nil
	}
	id, err := m.normalize(in, parent, path, n)
	if err != nil || id.IsNullish() {
		return id, err
	}
	return value.Obj(value.M("id", id), value.M("schema", value.Str(name))), nil
}

// choose returns the member schema of in and its name, or a nil Schema
// when in names none (no attribute, or an unknown type).
func (u *Union) choose(in, parent value.Value, path *pathElem) (string, Schema) {
	var name string
	if u.AttributeFunc != nil {
		name = u.AttributeFunc(in, parent, path.fieldKey())
	} else {
		name, _ = in.Get(u.Attribute).Text()
	}
	return name, u.Schemas[name]
}

func (i *Invalidate) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	// A delete answered with no record (an empty body, null, {}) deleted
	// what its params name, as in data-client: the response of the whole
	// request only, not a member of a larger one.
	if path == nil && (in.IsNullish() || in.Kind() == value.Object && in.Len() == 0) && n.args.Params.Kind() == value.Object && n.args.Params.Len() > 0 {
		in = n.args.Params
	}
	var pk string
	switch in.Kind() {
	case value.String, value.Number:
		pk, _ = in.Text()
	case value.Object:
		var err error
		// Deleting needs the record's own pk, optimistic or not: a
		// temporary one would delete nothing.
		if _, pk, err = i.Entity.record(in, parent, path, n, false); err != nil && err != errProcessedAway {
			return value.Undef, err
		}
		if pk == "" {
			return value.Undef, nil
		}
	default:
		return value.Undef, errorAt(path, i, "expected a record or a primary key, got %s", in.Kind())
	}
	n.add(EntityWrite{Entity: i.Entity, PK: pk, Deleted: true})
	return value.Str(pk), nil
}

func (dateSchema) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	switch in.Kind() {
	case value.Undefined, value.Null, value.Number:
		return in, nil
	case value.String:
		ms, err := ParseDate(in.Str())
		if err != nil {
			return value.Undef, errorAt(path, Date, "%v", err)
		}
		return value.Int(ms), nil
	}
	return value.Undef, errorAt(path, Date, "expected an ISO-8601 string or epoch milliseconds, got %s", in.Kind())
}

// ParseDate reads an ISO-8601 date or date-time as epoch milliseconds
// (the forms of package dates). A time without a zone is taken as UTC.
func ParseDate(s string) (int64, error) {
	if ms, ok := dates.ISO(s); ok {
		return ms, nil
	}
	return 0, fmtlite.Errorf("invalid date %q: want ISO-8601", s)
}
