package wire

import (
	"encoding/binary"
	"math"
	"strconv"
	"unsafe"

	"github.com/datafetch/datafetch/core/value"
)

// Shapes is Go's half of a shape table: the key lists defined so far, each
// under its id. JavaScript keeps the other half (a constructor per id). It
// lives as long as the identity table it belongs to and is reset with it,
// so that both halves stay the same (SPEC.md section 5). The zero Shapes is
// empty and ready to use.
type Shapes struct {
	// ids maps a key list, each key as its length (uvarint) and bytes, to
	// its shape.
	ids map[string]*shape
	// recent are the shapes objects were last written with, tried before
	// ids: the objects of a read are nearly all of a few shapes (one per
	// entity), so most find theirs by comparing keys, without building
	// their key list and hashing it. next is the entry to replace.
	recent [recentShapes]*shape
	next   int
}

// recentShapes is the number of Shapes.recent.
const recentShapes = 4

// shape is a key list of a shape table and its id.
type shape struct {
	id   uint32
	keys []string
}

// matches reports whether the members of ms have the keys of sh in its
// order.
func (sh *shape) matches(ms []value.Member) bool {
	if sh == nil || len(sh.keys) != len(ms) {
		return false
	}
	for i := range ms {
		if ms[i].Key != sh.keys[i] {
			return false
		}
	}
	return true
}

// find returns the shape of key list key; nil when the table lacks it.
func (s *Shapes) find(key []byte) *shape {
	sh := s.ids[string(key)]
	if sh != nil {
		s.remember(sh)
	}
	return sh
}

// remember makes sh one of the recent shapes.
func (s *Shapes) remember(sh *shape) {
	s.recent[s.next] = sh
	s.next = (s.next + 1) % recentShapes
}

// define enters the key list key, of n keys, as a new shape and returns it.
func (s *Shapes) define(key []byte, n int) *shape {
	if s.ids == nil {
		s.ids = map[string]*shape{}
	}
	k := string(key)
	sh := &shape{id: uint32(len(s.ids)), keys: make([]string, 0, n)}
	// The keys are slices of k, which the table keeps anyway.
	for rest := k; rest != ""; {
		l, w := binary.Uvarint([]byte(rest[:min(len(rest), binary.MaxVarintLen64)]))
		sh.keys = append(sh.keys, rest[w:w+int(l)])
		rest = rest[w+int(l):]
	}
	s.ids[k] = sh
	s.remember(sh)
	return sh
}

// Reset forgets every shape.
func (s *Shapes) Reset() {
	clear(s.ids)
	s.recent = [recentShapes]*shape{}
	s.next = 0
}

// Len returns the number of shapes defined.
func (s *Shapes) Len() int { return len(s.ids) }

// Writer writes one output: Begin, the value (its ops in prefix order),
// Drop, Finish. It is not safe for concurrent use; a zero Writer is ready
// for Begin.
type Writer struct {
	// mem is the output's buffer, all of its capacity: the header and ops
	// from its start, the strings from its end down. buf is its header
	// and ops, capped at strs (where the strings start), so that an op's
	// append never writes over a string: where the ops reach the strings,
	// append moves the ops alone to a larger array, and the next string
	// (or Grow, or Finish) brings the strings after them (settle). Ops so
	// stay plain appends, small enough to inline. One buffer holds both,
	// so a large output takes its size once (issue 11: a separate string
	// area, copied after the ops at the end, took it twice).
	mem    []byte
	buf    []byte
	strs   int
	shapes *Shapes
	// own is the shape table of an output written without one (Begin with
	// nil shapes): its shapes are defined for that output only.
	own Shapes
	key []byte // scratch for a key list, and for a string whose length
	// is known once written (text not UTF-8, quoted)
	// vals and mems are stacks of the children of unbuilt arrays and
	// objects being written (see ElemsOf).
	vals []value.Value
	mems []value.Member
}

// ElemsOf returns the elements of v, an Array, for writing them. Those of
// an array parsed onto a tape and not built yet (value.Value.Unbuilt) are
// read off the tape onto the Writer's scratch, so writing it builds
// nothing. Pass mark to PopElems when done with them.
func (w *Writer) ElemsOf(v value.Value) (elems []value.Value, mark int) {
	if !v.Unbuilt() {
		return v.Elems(), len(w.vals)
	}
	return pushChildren(&w.vals, v, value.Value.AppendElems)
}

// PopElems lets go of the elements ElemsOf returned with mark (and of
// any it returned since).
func (w *Writer) PopElems(mark int) { popChildren(&w.vals, mark) }

// MembersOf is ElemsOf for the members of an Object; pass mark to
// PopMembers.
func (w *Writer) MembersOf(v value.Value) (ms []value.Member, mark int) {
	if !v.Unbuilt() {
		return v.Members(), len(w.mems)
	}
	return pushChildren(&w.mems, v, value.Value.AppendMembers)
}

// PopMembers lets go of the members MembersOf returned with mark.
func (w *Writer) PopMembers(mark int) { popChildren(&w.mems, mark) }

// pushChildren copies v's children onto stack with add and returns them
// and where they start.
func pushChildren[T any](stack *[]T, v value.Value, add func(value.Value, []T) []T) ([]T, int) {
	mark := len(*stack)
	*stack = add(v, *stack)
	return (*stack)[mark:], mark
}

// popChildren drops what stack holds from mark on, cleared: a Writer kept
// for the next output must not keep a response alive.
func popChildren[T any](stack *[]T, mark int) {
	clear((*stack)[mark:])
	*stack = (*stack)[:mark]
}

// Begin starts an output with header h in buf (emptied; its room is
// reused) whose objects use the shape table shapes (nil: shapes of this
// output only, for a decoder with no table).
func (w *Writer) Begin(buf []byte, h Header, shapes *Shapes) {
	if shapes == nil {
		w.own.Reset()
		shapes = &w.own
	}
	w.shapes = shapes
	if cap(buf) < minOutput {
		buf = make([]byte, minOutput)
	}
	w.mem = buf[:cap(buf)]
	w.strs = len(w.mem)
	w.buf = w.mem[:HeaderSize:w.strs]
	b := w.buf
	clear(b)
	b[0] = Version
	var flags byte
	if h.Response {
		flags |= FlagResponse
	}
	if h.AfterExpiry != StatusNone {
		flags |= FlagAfterExpiry
	}
	if h.ErrorKept {
		flags |= FlagErrorKept
	}
	b[1] = flags
	b[2] = byte(h.Status)
	b[3] = byte(h.AfterExpiry)
	binary.LittleEndian.PutUint64(b[8:], math.Float64bits(h.ExpiresAt))
}

// minOutput is the least room Begin starts an output with.
const minOutput = 256

// Grow reserves room for about n more bytes of ops and strings, so that a
// large output is not grown by doubling (each smaller buffer left behind
// is memory a wasm page never gets back until the collector runs, and a
// read runs none). n is the value's JSON size (SizeHint): ops and strings
// together are smaller than that but for rare values (numbers with few
// digits, invalid UTF-8).
func (w *Writer) Grow(n int) {
	w.settle()
	if cap(w.buf)-len(w.buf) < n {
		w.move(n)
	}
}

// settle brings the strings after the ops when an op's append moved the
// ops to an array of their own: to the end of that array when it has the
// room, or both to a larger buffer.
func (w *Writer) settle() {
	if unsafe.SliceData(w.buf) == unsafe.SliceData(w.mem) {
		return
	}
	strLen := len(w.mem) - w.strs
	if cap(w.buf)-len(w.buf) < strLen+minOutput {
		w.move(max(len(w.mem), len(w.buf)))
		return
	}
	mem := w.buf[:cap(w.buf)]
	strs := len(mem) - strLen
	copy(mem[strs:], w.mem[w.strs:])
	w.buf = mem[:len(w.buf):strs]
	w.mem, w.strs = mem, strs
}

// room makes room for a string of n bytes between the ops and the
// strings.
func (w *Writer) room(n int) {
	w.settle()
	if cap(w.buf)-len(w.buf) < n {
		w.move(max(n, len(w.mem)))
	}
}

// move moves the output to a buffer with n more bytes between the ops and
// the strings than they take.
func (w *Writer) move(n int) {
	strLen := len(w.mem) - w.strs
	mem := make([]byte, len(w.buf)+n+strLen)
	copy(mem, w.buf)
	strs := len(mem) - strLen
	copy(mem[strs:], w.mem[w.strs:])
	w.buf = mem[:len(w.buf):strs]
	w.mem, w.strs = mem, strs
}

// put puts s before the strings written so far.
func (w *Writer) put(s string) {
	w.room(len(s))
	w.strs -= len(s)
	copy(w.mem[w.strs:], s)
	w.buf = w.buf[:len(w.buf):w.strs]
}

// Finish moves the string area to just after the ops, completes the
// header and returns the output, in the buffer Begin was given when it
// had the room. The Writer keeps neither it nor the shape table.
func (w *Writer) Finish() []byte {
	w.settle()
	strLen := len(w.mem) - w.strs
	binary.LittleEndian.PutUint32(w.buf[4:], uint32(strLen))
	n := len(w.buf)
	copy(w.mem[n:], w.mem[w.strs:])
	out := w.mem[:n+strLen]
	w.mem, w.buf, w.strs = nil, nil, 0
	// A Writer kept for the next output must not keep the table alive
	// (a controller's, through its identities).
	w.shapes = nil
	if cap(w.key) > maxKept {
		w.key = nil
	}
	return out
}

// maxKept bounds the scratch a Writer keeps between outputs.
const maxKept = 1 << 20

func (w *Writer) op(o Op) {
	w.buf = append(w.buf, byte(o))
}

func (w *Writer) uint(x uint64) {
	w.buf = binary.AppendUvarint(w.buf, x)
}

func (w *Writer) opUint(o Op, x uint64) {
	w.buf = binary.AppendUvarint(append(w.buf, byte(o)), x)
}

// Undefined writes undefined.
func (w *Writer) Undefined() { w.op(OpUndefined) }

// Null writes null.
func (w *Writer) Null() { w.op(OpNull) }

// Bool writes true or false.
func (w *Writer) Bool(b bool) {
	if b {
		w.op(OpTrue)
	} else {
		w.op(OpFalse)
	}
}

// Number writes the number whose JSON literal is lit, as JSON.parse reads
// it: the nearest double (±Infinity beyond the range), -0 kept.
func (w *Writer) Number(lit string) {
	if i, ok := smallInt(lit); ok {
		w.opUint(OpInt, uint64(uint32(i<<1)^uint32(i>>31)))
		return
	}
	// The literal is JSON (or Go's formatting of a float), so the only
	// error is range, where ParseFloat still gives ±Inf as JSON.parse does.
	f, _ := strconv.ParseFloat(lit, 64)
	w.Float(f)
}

// Float writes the number f.
func (w *Writer) Float(f float64) {
	w.buf = binary.LittleEndian.AppendUint64(append(w.buf, byte(OpFloat)), math.Float64bits(f))
}

// smallInt returns the integer lit spells when it is one in [-2^31, 2^31)
// written as digits only (so not -0).
func smallInt(lit string) (int32, bool) {
	s := lit
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 10 || (neg && s == "0") {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		return 0, false
	}
	return int32(n), true
}

// String writes a string value given as its JSON-escaped contents, as
// value.Value keeps it (Raw): text without escapes goes to the string area
// as it is, escaped text as a JSON literal for JavaScript to parse, which
// keeps lone surrogates (\udc00) exact.
func (w *Writer) String(raw string) {
	n, escaped, ok := scanText(raw)
	switch {
	case !ok: // not UTF-8: replaced as TextDecoder does (text)
		if hasBackslash(raw) {
			w.quoted(raw)
		} else {
			w.replaced(raw)
		}
	case escaped:
		// The literal with its quotes, put before the strings as a whole.
		w.room(len(raw) + 2)
		w.strs -= len(raw) + 2
		w.mem[w.strs] = '"'
		copy(w.mem[w.strs+1:], raw)
		w.mem[w.strs+1+len(raw)] = '"'
		w.buf = w.buf[:len(w.buf):w.strs]
		w.opUint(OpStringJSON, uint64(n+2))
	default:
		w.put(raw)
		w.opUint(OpString, uint64(n))
	}
}

// Text writes the Go string s (decoded, as value.Member keys are; a lone
// surrogate in its three-byte form) as a string.
func (w *Writer) Text(s string) {
	if value.HasLoneSurrogate(s) {
		// Escaped by value's own writer, which spells lone surrogates as
		// \u escapes; the quotes are part of the literal.
		q := value.AppendString(nil, s)
		w.quoted(string(q[1 : len(q)-1]))
		return
	}
	n, _, ok := scanText(s)
	if !ok {
		w.replaced(s)
		return
	}
	w.put(s)
	w.opUint(OpString, uint64(n))
}

// replaced writes s, not UTF-8, as TextDecoder decodes it (appendText).
func (w *Writer) replaced(s string) {
	var n int
	w.key, n = appendText(w.key[:0], s)
	w.put(unsafe.String(unsafe.SliceData(w.key), len(w.key)))
	w.opUint(OpString, uint64(n))
}

// quoted writes the JSON string literal with contents raw, as TextDecoder
// decodes it (appendText).
func (w *Writer) quoted(raw string) {
	var n int
	w.key, n = appendText(append(w.key[:0], '"'), raw)
	w.key = append(w.key, '"')
	w.put(unsafe.String(unsafe.SliceData(w.key), len(w.key)))
	w.opUint(OpStringJSON, uint64(n+2))
}

// Key writes an object key in an OpObject or OpOver member list.
func (w *Writer) Key(k string) { w.Text(k) }

// Array starts an array of n elements: n values follow.
func (w *Writer) Array(n int) { w.opUint(OpArray, uint64(n)) }

// Object starts an object with the members of ms, in order, those whose
// value is undefined included (as data-client reads them: the key is
// there). The values follow, each written by the caller;
// when inline is true, each after its key (Key). With dict set (keys that
// are data, as a Values schema's) or too many keys, the object is written
// with OpObject; otherwise by shape, defining the shape first if the table
// lacks it.
func (w *Writer) Object(ms []value.Member, dict bool) (inline bool) {
	n := len(ms)
	if dict || n == 0 || n > MaxShapeKeys {
		w.opUint(OpObject, uint64(n))
		return true
	}
	for _, sh := range w.shapes.recent {
		if sh.matches(ms) {
			w.opUint(OpShaped, uint64(sh.id))
			return false
		}
	}
	key := w.key[:0]
	for i := range ms {
		key = binary.AppendUvarint(key, uint64(len(ms[i].Key)))
		key = append(key, ms[i].Key...)
	}
	w.key = key
	if sh := w.shapes.find(key); sh != nil {
		w.opUint(OpShaped, uint64(sh.id))
		return false
	}
	if w.shapes.Len() >= MaxShapes {
		w.opUint(OpObject, uint64(n))
		return true
	}
	sh := w.shapes.define(key, n)
	w.opUint(OpDefineShape, uint64(sh.id))
	w.uint(uint64(n))
	for i := range ms {
		w.Text(ms[i].Key)
	}
	w.opUint(OpShaped, uint64(sh.id))
	return false
}

// Value writes v whole, with no identity or Date: what JSON.parse of
// value.AppendJSON(v) would give, but that undefined members and elements
// stay undefined.
func (w *Writer) Value(v value.Value) {
	switch v.Kind() {
	case value.Undefined:
		w.op(OpUndefined)
	case value.Null:
		w.op(OpNull)
	case value.Bool:
		w.Bool(v.Boolean())
	case value.Number:
		w.Number(v.Raw())
	case value.String:
		w.String(v.Raw())
	case value.Array:
		elems, mark := w.ElemsOf(v)
		w.Array(len(elems))
		for i := range elems {
			w.Value(elems[i])
		}
		w.PopElems(mark)
	case value.Object:
		ms, mark := w.MembersOf(v)
		inline := w.Object(ms, false)
		for i := range ms {
			if inline {
				w.Key(ms[i].Key)
			}
			w.Value(ms[i].Value)
		}
		w.PopMembers(mark)
	}
}

// Register makes the next value registered under id once built.
func (w *Writer) Register(id uint64) { w.opUint(OpRegister, id) }

// Ref writes the object held under id.
func (w *Writer) Ref(id uint64) { w.opUint(OpRef, id) }

// BackRef writes the object being registered under id, of which this
// position is inside: a cycle.
func (w *Writer) BackRef(id uint64) { w.opUint(OpBackRef, id) }

// Date makes the next value, a number or a string, a Date.
func (w *Writer) Date() { w.op(OpDate) }

// KeptList starts an array of n elements whose previous emission is the
// array reached from the object held under id through the member keys
// path: n elements follow, runs of them as Keep.
func (w *Writer) KeptList(id uint64, path []string, n int) {
	w.opUint(OpKeptList, id)
	w.uint(uint64(len(path)))
	for _, k := range path {
		w.Text(k)
	}
	w.uint(uint64(n))
}

// Keep writes the next k elements of a KeptList as those of its previous
// array at the same indices.
func (w *Writer) Keep(k int) { w.opUint(OpKeep, uint64(k)) }

// Over writes an object as a shallow copy of the one held under prev with
// n members set (n times Key and a value follow), registered as id.
func (w *Writer) Over(prev, id uint64, n int) {
	w.opUint(OpOver, prev)
	w.uint(id)
	w.uint(uint64(n))
}

// Class marks the object written next as an instance of class c (not 0):
// an entity's class, as JavaScript numbered it.
func (w *Writer) Class(c uint32) { w.opUint(OpClass, uint64(c)) }

// Convert marks the value written next as one JavaScript converts with its
// conversion f (not 0).
func (w *Writer) Convert(f uint32) { w.opUint(OpConvert, uint64(f)) }

// Drop tells the decoder to forget ids, after the value.
func Drop[T ~uint64 | ~uintptr](w *Writer, ids []T) {
	if len(ids) == 0 {
		return
	}
	w.opUint(OpDrop, uint64(len(ids)))
	for _, id := range ids {
		w.uint(uint64(id))
	}
}
