package schema

import "github.com/datafetch/datafetch/core/value"

// Slab sizes, in members. Records that normalize and denormalize build are
// carved from shared slabs rather than allocated one by one: a list of a
// thousand records then makes a few dozen allocations, not a thousand.
// Slabs start small, so that a write or read of one record allocates
// little (8 members fit a typical record and its nested entity; 16 made a
// one-record setResponse + read allocate 1.8 times what it needs, and in
// wasm every byte is paid again in the collector's marking, issue 11), and
// double up to maxSlab as a pass consumes them. A record keeps
// its slab alive; its strings already keep alive the whole response they
// were cut from.
const (
	minSlab = 8
	maxSlab = 256
)

// memberSlab is memory that records are carved from.
type memberSlab struct {
	// scratch holds the members of a lazy record while a record is made
	// from them (see fillOwned), so the lazy one need not be built.
	scratch []value.Member
	free    []value.Member // the unused rest of the current slab
	size    int            // the current slab's size, which the next one doubles
}

// carve returns n zeroed members with capacity n, so that appending to them
// can never overwrite a neighbour. n must be at least 1: an empty object
// needs storage of its own (see value.Obj).
func (sl *memberSlab) carve(n int) []value.Member {
	if n > len(sl.free) {
		if n > maxSlab/4 {
			return make([]value.Member, n)
		}
		sl.size = min(max(2*sl.size, minSlab, n), maxSlab)
		sl.free = make([]value.Member, sl.size)
	}
	s := sl.free[:n:n]
	sl.free = sl.free[n:]
	return s
}

// copyOf returns a carved copy of the members of obj, an Object that must
// not be empty. A lazy object's are copied off its tape, not built first.
func (sl *memberSlab) copyOf(obj value.Value) []value.Member {
	return obj.AppendMembers(sl.carve(obj.Len())[:0])
}
