package encode

import (
	"strings"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// Identities is the Go half of the identity protocol between a controller
// and datafetch.mjs. JavaScript keeps the objects it built for denormalized
// values in an array indexed by id; this table keeps the same ids, each with
// the value it stands for, so a later read can send "the object you already
// have" instead of the value.
//
// An entry is found by value.Identity of its value (its address: while the
// table holds the value, its memory cannot be reused, so it stays unique),
// but the id on the wire is the entry's own: a small number handed out
// densely (the next unused one, or one dropped earlier), so that JavaScript
// can index a plain array by it rather than hash addresses in a Map, a
// tenth of its decoding of a cold read. Internally (slots, children) entries
// are still named by their addresses.
//
// A dropped wire id is only handed out again in a later output than the
// one whose DROP tells JavaScript to forget it (releases happen after the
// value is written), so JavaScript never sees an id stand for two objects
// within an output. Should an output not be decoded to its end (its DROP
// unread), JavaScript empties its half (see wire.mjs): an id it then lacks
// is UnknownObject, which resets both, never an old object.
//
// Entries are reference counted. A slot (one result key) holds the ids at
// the top of its last two emissions; an entry holds the ids at the
// identified positions inside it (its children). When a count drops to zero
// the entry is removed, its children released, and its id queued in
// dropped, to be sent with the next output so that JavaScript forgets it
// too. The table therefore holds exactly what the last two emissions of
// each key can reach, a key being a result's or a ctrl.get read's
// (QueryKeyPrefix). A garbage collection sweep narrows that at once (see
// swept): the keys of removed results, and the ctrl.get reads whose
// answer the sweep changed, are forgotten, and so are the emissions before
// the last of every key when no optimistic write could roll back to them.
//
// The previous emission is kept for rollbacks: when an optimistic update
// is rolled back, the store's memo hands back the values it had before the
// update, and since the table still holds them, a reader gets back the very
// objects it had before, as with data-client.
//
// An identities is not safe for concurrent use; its controller serializes
// emissions.
type Identities struct {
	entries idTable
	slots   map[string]*slotIDs
	// dropped are the wire ids released since the last output.
	dropped []uint64
	// nextWire is the least wire id never handed out since the last reset;
	// freeWire the ids handed out and dropped since, for reuse.
	nextWire uint32
	freeWire []uint32
	// shapes is Go's half of the shape table of the outputs (see package
	// wire), which lives and is reset with the identities.
	shapes wire.Shapes
	// free is the unused rest of the slab that entries are carved from, so
	// that a read of a thousand objects does not allocate a thousand
	// entries; chunk is that slab's size, which the next one doubles.
	free  []identity
	chunk int
}

// slotIDs are the references of one result key: those of its last
// emission (held, whose top-level object is root, 0 when it has none) and
// of the one before (prevHeld, prevRoot).
type slotIDs struct {
	held, prevHeld []uintptr
	root, prevRoot uintptr
}

// An identity is 72 bytes: refs and wire share a word. A cold read of a
// list of N entities carves N+1 of them, all of which the collector scans
// for as long as JavaScript holds the objects.
type identity struct {
	v value.Value
	// refs counts the slots and entries that hold the entry; an int32 as no
	// read can hold two billion references in a 4 GiB memory.
	refs int32
	// wire is the id JavaScript holds the value's object under.
	wire     uint32
	children []uintptr
	// child0 is storage for the first child: most objects hold one or none.
	child0 [1]uintptr
}

// maxIdentitySlab bounds the slabs of entries, in entries. A slab stays
// allocated while any of its entries is in the table (a removed entry is
// cleared, so it holds on to no value).
const maxIdentitySlab = 128

// NewIdentities returns an empty table, one for each controller.
func NewIdentities() *Identities {
	return &Identities{slots: map[string]*slotIDs{}}
}

// Slots returns the slots the table keeps emissions of (tests and
// diagnostics: what a sweep left).
func (t *Identities) Slots() []string {
	out := make([]string, 0, len(t.slots))
	for k := range t.slots {
		out = append(out, k)
	}
	return out
}

// Len returns the number of values the table has given ids.
func (t *Identities) Len() int { return t.entries.len() }

// lookup returns the id of v when the table holds v itself. A different
// value at the same address (a prefix of the same backing list) has no id,
// which only costs it its identity.
func (t *Identities) lookup(v value.Value) (uintptr, bool) {
	id, ent := t.find(v)
	return id, ent != nil
}

// find returns the id of v and its entry when the table holds v itself
// (see lookup); a nil entry otherwise.
func (t *Identities) find(v value.Value) (uintptr, *identity) {
	id := value.Identity(v)
	if id == 0 {
		return 0, nil
	}
	ent := t.entries.get(id)
	if ent == nil || !value.Same(ent.v, v) {
		return id, nil
	}
	return id, ent
}

// add enters v, which must have a non-zero identity the table lacks, with no
// references yet, and returns its entry.
func (t *Identities) add(v value.Value) (uintptr, *identity, bool) {
	id := value.Identity(v)
	if id == 0 || t.entries.get(id) != nil {
		return 0, nil, false
	}
	return id, t.insert(id, v), true
}

// insert enters v under id, which the table must lack, with no references.
func (t *Identities) insert(id uintptr, v value.Value) *identity {
	if len(t.free) == 0 {
		t.chunk = min(max(2*t.chunk, 8), maxIdentitySlab)
		t.free = make([]identity, t.chunk)
	}
	ent := &t.free[0]
	t.free = t.free[1:]
	ent.v = v
	ent.children = ent.child0[:0]
	if n := len(t.freeWire); n > 0 {
		ent.wire = t.freeWire[n-1]
		t.freeWire = t.freeWire[:n-1]
	} else {
		ent.wire = t.nextWire
		t.nextWire++
	}
	t.entries.set(id, ent)
	return ent
}

// grow makes room for n more entries when the table holds fewer than that:
// a large first read would otherwise rehash the table at every doubling.
func (t *Identities) grow(n int) {
	if n <= t.entries.len() {
		return
	}
	t.entries.reserve(n)
}

// retain counts one more reference to id.
func (t *Identities) retain(id uintptr) {
	t.entries.get(id).refs++
}

// release drops one reference to id, removing the entry (and releasing its
// children) when none is left.
func (t *Identities) release(id uintptr) {
	ent := t.entries.get(id)
	if ent == nil {
		return
	}
	ent.refs--
	if ent.refs > 0 {
		return
	}
	t.entries.del(id)
	t.dropped = append(t.dropped, uint64(ent.wire))
	t.freeWire = append(t.freeWire, ent.wire)
	for _, c := range ent.children {
		t.release(c)
	}
	*ent = identity{} // its slab may outlive it: keep nothing alive
}

// setSlot records held, whose top-level object is root (0: none), as the
// last emission of slot. The emission before it becomes the previous one,
// unless they share their root (an unchanged re-read), and the references
// that falls out of the slot are released. The new references must already
// be counted, so that ids used by both emissions never drop to zero in
// between.
func (t *Identities) setSlot(slot string, held []uintptr, root uintptr) {
	st := t.slots[slot]
	if st == nil {
		st = &slotIDs{}
		t.slots[slot] = st
	}
	var drop []uintptr
	if root != 0 && root == st.root {
		drop, st.held = st.held, held
	} else {
		drop = st.prevHeld
		st.prevHeld, st.prevRoot = st.held, st.root
		st.held, st.root = held, root
	}
	for _, id := range drop {
		t.release(id)
	}
	if len(st.held) == 0 && len(st.prevHeld) == 0 {
		// A read that found nothing, twice: no entry is left for the key.
		delete(t.slots, slot)
	}
}

// forget releases slot's emissions, for a result that is gone from the
// store: what only it held is dropped on both sides (the next output
// carries the drops), so a swept result's objects can be collected.
func (t *Identities) forget(slot string) {
	st := t.slots[slot]
	if st == nil {
		return
	}
	delete(t.slots, slot)
	for _, id := range st.prevHeld {
		t.release(id)
	}
	for _, id := range st.held {
		t.release(id)
	}
}

// QueryKeyPrefix starts the slot of a ctrl.get read (query.go), apart from
// every endpoint key (which never holds a NUL).
const QueryKeyPrefix = "\x00get "

// SlotRoot is a slot and the top of its last emission when it was looked
// at: root's id and value (0 and undefined: none).
type SlotRoot struct {
	slot string
	root uintptr
	v    value.Value
}

// Slot is the read's slot: QueryKeyPrefix, the schema's handle and its args.
func (q SlotRoot) Slot() string { return q.slot }

// Value is the value the read last emitted.
func (q SlotRoot) Value() value.Value { return q.v }

// QuerySlots returns the slots of ctrl.get reads (QueryKeyPrefix) with the
// tops of their last emissions, for the caller to read each again after a
// sweep (see Swept).
func (t *Identities) QuerySlots() []SlotRoot {
	var qs []SlotRoot
	for slot, st := range t.slots {
		if !strings.HasPrefix(slot, QueryKeyPrefix) {
			continue
		}
		q := SlotRoot{slot: slot, root: st.root}
		if ent := t.entries.get(st.root); ent != nil {
			q.v = ent.v
		}
		qs = append(qs, q)
	}
	return qs
}

// Swept lets go what a sweep of the store removed, on Go's side; the drops
// go to JavaScript with the next output (DropOutput hands them over at
// once). What a sweep removes can be held here three ways:
//
//   - by the slot of a removed result (removed are their keys): forgotten;
//   - by the slot of a ctrl.get read, which no stored result owns: changed
//     are those whose read no longer gives the top they hold (it reads an
//     entity that is gone, or a list that lost some), each forgotten unless
//     emitted again since it was looked at (its root moved);
//   - by the previous emission of any slot, which only a rollback can bring
//     back: released unless keepPrev (an optimistic write is pending, and
//     what its rollback returns to must keep its objects).
//
// What a remaining result reads now stays, so an unchanged re-read of it is
// still the object JavaScript holds.
func (t *Identities) Swept(removed []string, changed []SlotRoot, keepPrev bool) {
	for _, k := range removed {
		t.forget(k)
	}
	for _, q := range changed {
		if st := t.slots[q.slot]; st != nil && st.root == q.root {
			t.forget(q.slot)
		}
	}
	if keepPrev {
		return
	}
	for slot, st := range t.slots {
		prev := st.prevHeld
		st.prevHeld, st.prevRoot = nil, 0
		for _, id := range prev {
			t.release(id)
		}
		if len(st.held) == 0 {
			delete(t.slots, slot)
		}
	}
}

// DropOutput writes into buf (emptied first) an output that carries no
// value but the ids dropped since the last output, for JavaScript to
// forget them now rather than with its next read; nil when none were.
func (t *Identities) DropOutput(buf []byte) []byte {
	if len(t.dropped) == 0 {
		return nil
	}
	w := takeWriter()
	defer putWriter(w)
	w.Begin(buf, wire.Header{}, &t.shapes)
	w.Undefined()
	wire.Drop(w, t.takeDropped())
	return w.Finish()
}

// lastRoot returns the top-level value of slot's last emission and its
// entry, when JavaScript still holds it; nil otherwise.
func (t *Identities) lastRoot(slot string) (value.Value, *identity) {
	st := t.slots[slot]
	if st == nil || st.root == 0 {
		return value.Undef, nil
	}
	ent := t.entries.get(st.root)
	if ent == nil {
		return value.Undef, nil
	}
	return ent.v, ent
}

// takeDropped returns the wire ids dropped since the last call.
func (t *Identities) takeDropped() []uint64 {
	d := t.dropped
	t.dropped = nil
	return d
}

// Output writes the read of v, the result under slot by schema s, with
// header h into buf (emptied first) and returns it; see writeRead. A nil t
// writes it with no identity and shapes of its own. The writer comes from
// the process's scratch (scratch.go) and goes back to it.
func (t *Identities) Output(buf []byte, h wire.Header, slot string, s schema.Schema, v value.Value) []byte {
	w := takeWriter()
	defer putWriter(w)
	if t == nil {
		w.Begin(buf, h, nil)
	} else {
		w.Begin(buf, h, &t.shapes)
	}
	t.writeRead(w, slot, s, v)
	return w.Finish()
}

// Reset forgets everything, as ResetEntireStore does on both sides.
func (t *Identities) Reset() {
	t.entries.clear()
	clear(t.slots)
	t.dropped = nil
	t.nextWire, t.freeWire = 0, t.freeWire[:0]
	// JavaScript's shapes are cleared with its objects (the Map's clear).
	t.shapes.Reset()
	// The entries dropped uncleared live in the slabs: let them go.
	t.free, t.chunk = nil, 0
}
