// Package value holds datafetch's JSON value: an immutable tree parsed
// straight from response bytes by a purpose-built scanner.
//
// Strings and numbers keep their JSON text as written (a number's literal, a
// string's contents with escapes intact), usually as substrings of the parsed
// input, so parsing allocates little and re-encoding is a copy. Values are
// immutable: two Values that share a backing list are the same value, which
// is how memoized reads prove identity (see Same).
//
// Parse builds the whole tree at once. ParseLazy, which responses go
// through, keeps the parse as a tape of offsets and builds each array or
// object only when it is first asked for (see tape.go); the two give
// values that no caller can tell apart.
package value

import (
	"math"
	"strconv"
	"unsafe"
)

// Kind is the JSON type of a Value. The zero Kind is Undefined: an absent
// value (a missing field, a missing entity), which JSON cannot spell.
type Kind uint8

// The kinds of Value.
const (
	Undefined Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"undefined", "null", "boolean", "number", "string", "array", "object"}

// String returns the kind's name as a JavaScript programmer would say it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one immutable JSON value. The zero Value is Undefined.
//
// Value has four fields, the first two bytes grouped in hdr, and 32
// bytes: the compiler then keeps a Value in registers and copies it field
// by field. With five it would copy every Value through memory (in wasm a
// call to typedmemmove), and, while the collector marks, with a bulk
// write barrier for each copy into the heap: four fields take a tenth off
// the CPU time of a cold read of 1,000 records in wasm.
type Value struct {
	hdr
	// n is the number of an Array's elements or an Object's members.
	n uint32
	// raw is a Number's literal, a String's JSON-escaped contents without the
	// quotes, or "true"/"false" for a Bool. For an Array or Object it is the
	// JSON text the value was parsed from ("" when it was built: see Source).
	raw string
	// kids points at an Array's n elements or an Object's n members (in
	// order; keys are unique), or, when n is 0, at storage of the empty
	// container's own (see Arr). One pointer and a 32-bit count rather than
	// two slices make a Value 32 bytes instead of 72, which nearly halves
	// the memory and time it takes to parse a response.
	kids unsafe.Pointer
}

// hdr is a Value's kind and escape flag, one field of Value (see there).
type hdr struct {
	kind Kind
	// esc is set when raw (a String) contains backslash escapes. On an
	// Array or Object it marks a lazy one: kids points at its node on a
	// tape (see tape.go), not at its children.
	esc bool
}

// elems returns an Array's elements; v must be an Array.
func (v Value) elems() []Value {
	if v.esc {
		if v.n == 0 {
			return nil
		}
		return unsafe.Slice((*Value)(v.lazyKids()), v.n)
	}
	return unsafe.Slice((*Value)(v.kids), v.n)
}

// members returns an Object's members; v must be an Object.
func (v Value) members() []Member {
	if v.esc {
		if v.n == 0 {
			return nil
		}
		return unsafe.Slice((*Member)(v.lazyKids()), v.n)
	}
	return unsafe.Slice((*Member)(v.kids), v.n)
}

// arrayOf makes an Array that owns elems.
func arrayOf(elems []Value) Value {
	return Value{hdr: hdr{kind: Array}, n: childCount(len(elems)), kids: unsafe.Pointer(unsafe.SliceData(elems))}
}

// objectOf makes an Object that owns members.
func objectOf(members []Member) Value {
	return Value{hdr: hdr{kind: Object}, n: childCount(len(members)), kids: unsafe.Pointer(unsafe.SliceData(members))}
}

// childCount converts a length to the stored count, which is 32 bits to keep
// Value small; no response comes near the limit.
func childCount(n int) uint32 {
	if uint64(n) > math.MaxUint32 {
		panic("value: more than 2^32-1 elements")
	}
	return uint32(n)
}

// Member is one key and value of an Object.
type Member struct {
	Key   string
	Value Value
}

// Predefined values.
var (
	Undef = Value{}
	NullV = Value{hdr: hdr{kind: Null}}
	True  = Value{hdr: hdr{kind: Bool}, raw: "true"}
	False = Value{hdr: hdr{kind: Bool}, raw: "false"}
)

// Kind reports the value's JSON type.
func (v Value) Kind() Kind { return v.kind }

// IsUndefined reports whether v is absent.
func (v Value) IsUndefined() bool { return v.kind == Undefined }

// IsNull reports whether v is JSON null.
func (v Value) IsNull() bool { return v.kind == Null }

// IsNullish reports whether v is null or undefined.
func (v Value) IsNullish() bool { return v.kind <= Null }

// Boolean returns the value of a Bool; false for any other kind.
func (v Value) Boolean() bool { return v.kind == Bool && v.raw == "true" }

// Float returns a Number as float64; ok is false for other kinds.
//
//go:noinline
func (v Value) Float() (f float64, ok bool) {
	if v.kind != Number {
		return 0, false
	}
	// A scanned literal is valid JSON, so the only error is range, where
	// ParseFloat still gives the nearest value (±Inf).
	f, _ = strconv.ParseFloat(v.raw, 64)
	return f, true
}

// Raw returns a Number's literal or a String's escaped JSON contents.
func (v Value) Raw() string {
	if v.kind == Array || v.kind == Object {
		return ""
	}
	return v.raw
}

// Source returns the JSON text a non-empty Array or Object was parsed from,
// exactly as it came (whitespace inside included); "" for any other value,
// and for arrays and objects that were built (by Arr, Obj, With, ...)
// rather than parsed. Two values with the same non-empty Source are Equal,
// so comparing their texts can stand in for comparing them.
func (v Value) Source() string {
	if v.kind == Array || v.kind == Object {
		return v.raw
	}
	return ""
}

// Str returns a String's decoded contents; "" for other kinds. A lone
// surrogate escape ("\ud800") decodes to the three bytes of its code point
// (as WTF-8 has it) rather than to U+FFFD, so that decoded strings compare
// as JavaScript strings do; Str, object keys and AppendString write it back
// as the escape.
//
//go:noinline
func (v Value) Str() string {
	if v.kind != String {
		return ""
	}
	if !v.esc {
		return v.raw
	}
	return unescape(v.raw)
}

// Text returns the value as a key string the way JavaScript's String() would
// for a primitive: a String's contents, a Number's literal, "true"/"false",
// "null". ok is false for undefined, arrays and objects.
func (v Value) Text() (s string, ok bool) {
	switch v.kind {
	case String:
		return v.Str(), true
	case Number:
		return canonicalNumber(v.raw), true
	case Bool:
		return v.raw, true
	case Null:
		return "null", true
	}
	return "", false
}

// Len returns the number of elements of an Array or members of an Object.
func (v Value) Len() int {
	if v.kind == Array || v.kind == Object {
		return int(v.n)
	}
	return 0
}

// Elems returns an Array's elements. Callers must not modify them.
func (v Value) Elems() []Value {
	if v.kind != Array {
		return nil
	}
	return v.elems()
}

// Members returns an Object's members. Callers must not modify them.
func (v Value) Members() []Member {
	if v.kind != Object {
		return nil
	}
	return v.members()
}

// Get returns the member of an Object named key; Undefined when absent.
//
//go:noinline
func (v Value) Get(key string) Value {
	_, x := v.Find(key)
	return x
}

// Has reports whether an Object has a member named key.
//
//go:noinline
func (v Value) Has(key string) bool {
	i, _ := v.Find(key)
	return i >= 0
}

// Find returns the position of an Object's member named key and its
// value; -1 and Undefined when absent. On a lazy object (see ParseLazy)
// it reads the keys off the tape rather than building the members.
//
//go:noinline
func (v Value) Find(key string) (int, Value) {
	if v.kind != Object {
		return -1, Undef
	}
	if v.esc && v.n > 0 {
		if i, x, ok := (*node)(v.kids).find(key); ok {
			return i, x
		}
	}
	ms := v.members()
	for i := range ms {
		if ms[i].Key == key {
			return i, ms[i].Value
		}
	}
	return -1, Undef
}

// Unbuilt reports whether v is an Array or Object parsed onto a tape (see
// ParseLazy) whose children are not built yet: AppendMembers and
// AppendElems then copy them off the tape, where Members and Elems would
// build and keep them.
func (v Value) Unbuilt() bool {
	return v.esc && v.n > 0 && (v.kind == Array || v.kind == Object) && !(*node)(v.kids).built()
}

// AppendElems appends an Array's elements to dst and returns it; dst
// unchanged for other kinds. Like AppendMembers, it leaves a lazy array
// unbuilt.
func (v Value) AppendElems(dst []Value) []Value {
	if v.kind != Array {
		return dst
	}
	if v.esc && v.n > 0 {
		if out, ok := (*node)(v.kids).appendElems(dst); ok {
			return out
		}
	}
	return append(dst, v.elems()...)
}

// AppendMembers appends an Object's members to dst and returns it; dst
// unchanged for other kinds. On a lazy object it copies them off the tape
// without building them, for a caller that makes an object of its own
// from them.
func (v Value) AppendMembers(dst []Member) []Member {
	if v.kind != Object {
		return dst
	}
	if v.esc && v.n > 0 {
		if out, ok := (*node)(v.kids).appendMembers(dst); ok {
			return out
		}
	}
	return append(dst, v.members()...)
}

// PeekMembers returns an Object's members, for a caller that only reads
// them, without building a lazy one: of an object that is Unbuilt, they
// are read off its tape into scratch (reused from its start, grown when
// short) and it stays unbuilt; of any other object, they are its members,
// and scratch is not used. Nil for other kinds. Comparing a record set
// again with the stored one (Equal, a merge) so leaves both as offsets
// into their texts.
func (v Value) PeekMembers(scratch []Member) []Member {
	if v.kind != Object {
		return nil
	}
	if v.Unbuilt() {
		return v.AppendMembers(scratch[:0])
	}
	return v.members()
}

// PeekElems is PeekMembers for an Array's elements.
func (v Value) PeekElems(scratch []Value) []Value {
	if v.kind != Array {
		return nil
	}
	if v.Unbuilt() {
		return v.AppendElems(scratch[:0])
	}
	return v.elems()
}

// Same reports whether a and b are the identical value: the same scalar, or
// the same Array or Object (one backing list). It is the Go side of
// JavaScript's ===, and what memoized reads guarantee for unchanged data.
//
//go:noinline
func Same(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Array, Object:
		return a.n == b.n && a.kids == b.kids
	case Undefined, Null:
		return true
	}
	return a.raw == b.raw
}

// Identity returns a number that is the same for Same values of kind Array or
// Object and differs between different live ones; 0 for other kinds. Bridges
// use it to cache the JavaScript object built for a Go value.
func Identity(v Value) uintptr {
	if v.kind == Array || v.kind == Object {
		return uintptr(v.kids)
	}
	return 0
}

// Str makes a String value from Go text.
func Str(s string) Value {
	if !needsEscape(s) {
		return Value{hdr: hdr{kind: String}, raw: s}
	}
	return Value{hdr: hdr{kind: String, esc: true}, raw: escape(s)}
}

// Num makes a Number value. NaN and infinities, which JSON cannot hold,
// become null as JSON.stringify makes them.
func Num(f float64) Value {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return NullV
	}
	return Value{hdr: hdr{kind: Number}, raw: strconv.FormatFloat(f, 'g', -1, 64)}
}

// Int makes a Number value from an integer.
//
//go:noinline
func Int(i int64) Value { return Value{hdr: hdr{kind: Number}, raw: strconv.FormatInt(i, 10)} }

// BoolV makes a Bool value.
func BoolV(b bool) Value {
	if b {
		return True
	}
	return False
}

// Arr makes an Array value that owns elems. An empty one gets storage of
// its own all the same, so that Same and Identity tell two empty arrays apart.
//
//go:noinline
func Arr(elems ...Value) Value {
	if len(elems) == 0 {
		elems = make([]Value, 0, 1)
	}
	return arrayOf(elems)
}

// Obj makes an Object value that owns members. Keys must be unique. An
// empty one gets storage of its own, as with Arr.
//
//go:noinline
func Obj(members ...Member) Value {
	if len(members) == 0 {
		members = make([]Member, 0, 1)
	}
	return objectOf(members)
}

// M is shorthand for a Member.
func M(key string, v Value) Member { return Member{Key: key, Value: v} }

// canonicalNumber returns the literal as JavaScript's String(n) would print
// it, so 5, 5.0 and 5e0 name one entity.
func canonicalNumber(lit string) string {
	simple := len(lit) > 0 && len(lit) < 16
	for i := 0; simple && i < len(lit); i++ {
		c := lit[i]
		simple = c >= '0' && c <= '9' || (c == '-' && i == 0)
	}
	if simple && (lit[0] != '0' || len(lit) == 1) && lit != "-0" {
		return lit
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return lit
	}
	return FormatJS(f)
}

// FormatJS formats f as JavaScript's Number.prototype.toString does for the
// values JSON can hold.
func FormatJS(f float64) string {
	if f == 0 {
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		// Go writes e+21 / e-07; JavaScript writes e+21 / e-7.
		for i := 0; i < len(s); i++ {
			if s[i] == 'e' && i+2 < len(s) && s[i+2] == '0' {
				s = s[:i+2] + s[i+3:]
			}
		}
		return s
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
