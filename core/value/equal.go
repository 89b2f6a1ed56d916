package value

// Equal reports whether a and b are the same JSON data: the same kind, and
// then numbers of equal numeric value (1.0 equals 1, as in JavaScript),
// strings of equal decoded text however they were escaped, arrays with
// pairwise equal elements, and objects with the same keys mapped to equal
// values in any order. Undefined equals only Undefined, also as an object
// member. Values that are Same are equal without being walked, so comparing
// a fresh response with the cached one costs little where they share data.
func Equal(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Undefined, Null:
		return true
	case Bool:
		return a.Boolean() == b.Boolean()
	case Number:
		if a.raw == b.raw {
			return true
		}
		fa, _ := a.Float()
		fb, _ := b.Float()
		return fa == fb
	case String:
		if a.raw == b.raw {
			return true
		}
		if !a.esc && !b.esc {
			return false
		}
		return a.Str() == b.Str()
	case Array:
		if Same(a, b) {
			return true
		}
		if a.n != b.n {
			return false
		}
		if sameSource(a, b) {
			return true
		}
		if a.Unbuilt() || b.Unbuilt() {
			// Read off their tapes rather than built: what is compared is
			// usually a value set again with the stored one, which nothing
			// else may ever read element by element.
			return equalElems(a, b)
		}
		ae, be := a.elems(), b.elems()
		for i := range ae {
			if !Equal(ae[i], be[i]) {
				return false
			}
		}
		return true
	case Object:
		if Same(a, b) {
			return true
		}
		if a.n != b.n {
			return false // keys are unique: the counts of equal objects match
		}
		if sameSource(a, b) {
			return true
		}
		if a.Unbuilt() || b.Unbuilt() {
			// As for arrays, and in order, stopping at the first member
			// that differs, as a record set again most often does.
			return equalInOrder(a, b)
		}
		return equalMembers(a.members(), b.members())
	}
	return false
}

// peekBuf is the room Equal keeps on its stack for the children of a lazy
// array or object it reads off the tape (PeekElems, PeekMembers): a
// record's members fit, a larger one's go to the heap.
const peekBuf = 8

// sameSource reports whether containers a and b were parsed from the same
// text, which makes them equal: one comparison of bytes instead of a walk,
// as when a response is fetched again. Texts that differ (if only in
// spacing) say nothing.
func sameSource(a, b Value) bool {
	return a.raw != "" && len(a.raw) == len(b.raw) && a.raw == b.raw
}

// equalMembers compares two objects' members regardless of order. Keys are
// unique within each, so equal counts and every key of a found in b with an
// equal value mean equal objects. Members usually come in the same order,
// which is tried first; otherwise large objects are indexed.
func equalMembers(a, b []Member) bool {
	if len(a) != len(b) {
		return false
	}
	var index map[string]int
	for i := range a {
		key := a[i].Key
		j := i
		if b[j].Key != key {
			j = -1
			switch {
			case len(b) <= smallObject:
				for k := range b {
					if b[k].Key == key {
						j = k
						break
					}
				}
			default:
				if index == nil {
					index = make(map[string]int, len(b))
					for k := range b {
						index[b[k].Key] = k
					}
				}
				if k, ok := index[key]; ok {
					j = k
				}
			}
			if j < 0 {
				return false
			}
		}
		if !Equal(a[i].Value, b[j].Value) {
			return false
		}
	}
	return true
}
