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

// NewLayout returns the layout ms of objects of n members. Each At must
// be below n, and the keys of the members laid out unique.
func NewLayout(n int, ms []LaidMember) *Layout {
	for _, m := range ms {
		if m.At >= n {
			panic("value: layout member out of range")
		}
	}
	return &Layout{n: n, src: ms}
}

// laidNode is the node of an object that Laid made from one on a tape.
type laidNode struct {
	patchedNode
	layout *Layout
}

// Laid returns the object that obj, patched with patches (as Patched
// does, positions in obj), reads as through layout l. Of an object parsed
// onto a tape and not built yet (Unbuilt, patched or not), it is made
// without building either, its members read off the tape and laid out
// whenever asked for, as Patched's are; of any other, of one of more than
// MaxLaid members (which reading would copy to the heap each time),
// or when l is not for objects of obj's count, it is built. The result keeps patches and l,
// which the caller must not change.
func Laid(obj Value, patches []Patch, l *Layout) Value {
	if obj.Kind() != Object || l.n != int(obj.n) || len(l.src) == 0 || l.n > MaxLaid ||
		!obj.Unbuilt() || (*node)(obj.kids).form == laidForm {
		return laidOut(obj, patches, l)
	}
	base := (*node)(obj.kids)
	if under := base.patches(); len(under) > 0 {
		patches = overlay(under, patches)
	}
	p := base.t.newLaid()
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

// newLaid returns a node for Laid, carved from the tape's slab of them,
// as newPatched does.
func (t *tape) newLaid() *laidNode {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.laid) == 0 {
		t.laidSize = min(max(2*t.laidSize, minSlab), maxSlab, max(len(t.conts), 1))
		t.laid = make([]laidNode, t.laidSize)
	}
	p := &t.laid[0]
	t.laid = t.laid[1:]
	return p
}
