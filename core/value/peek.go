package value

// memberCursor reads an Object's members in order, off its tape when it
// is not built (with its patches applied), so that a comparison that
// stops at the first difference reads no further and builds nothing.
type memberCursor struct {
	ms      []Member // a built object's members
	t       *tape    // else its tape, the entry of its next key
	at      uint32
	patches []Patch
	i       int
}

// cursorOf returns a cursor at the first member of obj, an Object.
func cursorOf(obj Value) memberCursor {
	if obj.esc && obj.n > 0 {
		// A node built meanwhile is read off the tape all the same: the
		// tape does not change once scanned.
		if nd := (*node)(obj.kids); !nd.built() {
			return memberCursor{t: nd.t, at: nd.at + 1, patches: nd.patches()}
		}
	}
	return memberCursor{ms: obj.members()}
}

// next returns the next member's key and value.
func (c *memberCursor) next() (string, Value) {
	i := c.i
	c.i++
	if c.t == nil {
		return c.ms[i].Key, c.ms[i].Value
	}
	k := c.t.key(c.at)
	v, at := c.t.value(c.at + 1)
	c.at = at
	for _, p := range c.patches {
		if p.At == i {
			v = p.V
		}
	}
	return k, v
}

// equalInOrder is Equal of two objects of n members each, one at least
// not built: members compared in order off their tapes, as far as the
// first that differs. Keys in another order (rare: a record is usually
// written by one serializer) are compared as Equal does any objects,
// their members read off the tapes (PeekMembers).
func equalInOrder(a, b Value) bool {
	ca, cb := cursorOf(a), cursorOf(b)
	for range a.n {
		ka, va := ca.next()
		kb, vb := cb.next()
		if ka != kb {
			var abuf, bbuf [peekBuf]Member
			return equalMembers(a.PeekMembers(abuf[:0]), b.PeekMembers(bbuf[:0]))
		}
		if !Equal(va, vb) {
			return false
		}
	}
	return true
}

// equalElems is Equal of two arrays of n elements each, one at least not
// built: elements compared in order off their tapes, as far as the first
// that differs.
func equalElems(a, b Value) bool {
	var abuf, bbuf [peekBuf]Value
	ae, be := a.PeekElems(abuf[:0]), b.PeekElems(bbuf[:0])
	for i := range ae {
		if !Equal(ae[i], be[i]) {
			return false
		}
	}
	return true
}
