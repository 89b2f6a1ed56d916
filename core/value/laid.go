package value

import "unsafe"

// A Layout is an order of an object's members that differs from the one
// they were parsed in, with members of its own where the object lacks
// them: how an entity's read lays out every record of one key sequence
// (its defaults first, then the record's other members). Laid reads a
// record on a tape through a Layout without copying its members. A
// Layout is immutable once made.
type Layout struct {
	// n is the count of members of the objects the layout is for.
	n   int
	src []LaidMember
	// keys are the keys of the objects laid out, in order.
	keys []string
}

// LaidMember is one member of a Layout's objects.
type LaidMember struct {
	// At is the position of the object's member that this one is; -1 for
	// none, when it is Default.
	At int
	// Default is the member when At is -1, and when the object's member
	// at At is undefined and HasDefault is set.
	Default    Member
	HasDefault bool
}

// NewLayout returns the layout ms of objects whose keys are keys (in
// order): Laid must only be given such objects. Each At must be below
// len(keys), and the keys of the objects laid out unique.
func NewLayout(keys []string, ms []LaidMember) *Layout {
	l := &Layout{n: len(keys), src: ms, keys: make([]string, len(ms))}
	for i, m := range ms {
		if m.At >= len(keys) {
			panic("value: layout member out of range")
		}
		l.keys[i] = m.Default.Key
		if m.At >= 0 {
			l.keys[i] = keys[m.At]
		}
	}
	return l
}

// laidNode is the node of an object that Laid made from one on a tape.
type laidNode struct {
	patchedNode
	layout *Layout
}

// Laid returns the object that obj, patched with patches (as Patched
// does, positions in obj), reads as through layout l. obj must have the
// keys l was made for (see HasKeys). Of an object parsed
// onto a tape and not built yet (Unbuilt, patched or not), it is made
// without building either, its members read off the tape and laid out
// whenever asked for, as Patched's are; of any other, of one of more than
// MaxLaid members (which reading would copy to the heap each time),
// or when l is not for objects of obj's count, it is built. The result keeps patches and l,
// which the caller must not change.
func Laid(obj Value, patches []Patch, l *Layout) Value {
	var s LaidSlab
	return s.Laid(obj, patches, l)
}

// LaidSlab is memory that Laid's objects are carved from, for a caller
// that lays out many (a read of a list of records): a few allocations
// rather than one per object, and no lock. The zero LaidSlab is ready to
// use; it is not safe for concurrent use.
type LaidSlab struct {
	free []laidNode
	size int
}

// Laid is Laid, its object carved from s.
func (s *LaidSlab) Laid(obj Value, patches []Patch, l *Layout) Value {
	if obj.Kind() != Object || l.n != int(obj.n) || len(l.src) == 0 || l.n > MaxLaid ||
		!obj.Unbuilt() || (*node)(obj.kids).form == laidForm {
		return laidOut(obj, patches, l)
	}
	base := (*node)(obj.kids)
	if under := base.patches(); len(under) > 0 {
		patches = overlay(under, patches)
	}
	if len(s.free) == 0 {
		s.size = min(max(2*s.size, 1), maxSlab)
		s.free = make([]laidNode, s.size)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	*p = laidNode{patchedNode: patchedNode{node: node{t: base.t, at: base.at, form: laidForm}, patches: patches}, layout: l}
	return Value{hdr: hdr{kind: Object, esc: true}, n: uint32(len(l.src)), kids: unsafe.Pointer(&p.node)}
}

// laidOut builds what Laid returns for obj, patches and l.
func laidOut(obj Value, patches []Patch, l *Layout) Value {
	ms := obj.Members()
	if len(patches) > 0 {
		ms = append([]Member(nil), ms...)
		for _, p := range patches {
			ms[p.At].Value = p.V
		}
	}
	if l.n != len(ms) {
		return objectOf(ms)
	}
	return Obj(l.lay(nil, ms)...)
}

// lay appends to dst the members that base, an object's members, reads as.
func (l *Layout) lay(dst, base []Member) []Member {
	for _, s := range l.src {
		m := s.Default
		if s.At >= 0 && (!s.HasDefault || !base[s.At].Value.IsUndefined()) {
			m = base[s.At]
		}
		dst = append(dst, m)
	}
	return dst
}

// MaxLaid is the most members of an object that Laid lays out over its
// tape; a larger one is built.
const MaxLaid = laidScratch

// laidScratch is the room appendLaid keeps on its stack for the members
// of the object it lays out: a typical record's fit.
const laidScratch = 16

// appendLaid appends the members of the laid object to dst.
func (nd *laidNode) appendLaid(dst []Member) []Member {
	var buf [laidScratch]Member
	base := nd.appendOnTape(buf[:0])
	return nd.layout.lay(dst, base)
}

// find returns the position and value of the laid object's member key;
// -1 and Undefined when absent.
func (nd *laidNode) find(key string) (int, Value) {
	j, v := nd.findOnTape(key)
	for i, s := range nd.layout.src {
		switch {
		case s.At >= 0 && s.At == j:
			if s.HasDefault && v.IsUndefined() {
				return i, s.Default.Value
			}
			return i, v
		case s.At < 0 && s.Default.Key == key:
			return i, s.Default.Value
		}
	}
	return -1, Undef
}


// A LaidReader reads the members of an object laid out over its tape
// (Laid) one by one, without copying them: its keys are its layout's, and
// a value is read off the tape when asked for. It is a value to keep on
// the stack, for a writer that walks a read.
type LaidReader struct {
	l *Layout
	// vals are the values of the object's members under the layout, in
	// the object's order, patches applied.
	vals [laidScratch]Value
}

// ReadLaid sets r to read v's members when v is an object that Laid laid
// out over its tape and that is not built since, and reports whether it
// did: false for any other value.
func (v Value) ReadLaid(r *LaidReader) bool {
	if v.kind != Object || !v.esc || v.n == 0 {
		return false
	}
	nd := (*node)(v.kids)
	if nd.form != laidForm || nd.built() {
		return false
	}
	ld := (*laidNode)(unsafe.Pointer(nd))
	r.l = ld.layout
	t := nd.t
	at := nd.at + 1
	for j := range ld.layout.n {
		r.vals[j], at = t.value(at + 1)
	}
	for _, p := range ld.patches {
		r.vals[p.At] = p.V
	}
	return true
}

// Keys returns the keys of the object's members, in order. The caller
// must not change them.
func (r *LaidReader) Keys() []string { return r.l.keys }

// Value returns the value of the object's member i.
func (r *LaidReader) Value(i int) Value {
	s := &r.l.src[i]
	if s.At < 0 {
		return s.Default.Value
	}
	if v := r.vals[s.At]; !s.HasDefault || !v.IsUndefined() {
		return v
	}
	return s.Default.Value
}
