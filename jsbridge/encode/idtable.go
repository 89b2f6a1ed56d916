package encode

// idTable maps ids (value.Identity, never 0) to the entries of an
// Identities table. It does what a map[uintptr]*identity did, at about half
// the cost in wasm, where the map hashes each key with the runtime's
// portable hash and probes its groups without SIMD: a read of a list of N
// entities looks up N ids or more (each new record, each element kept, each
// id released), a quarter of encoding a re-read after one shared entity
// changed. Ids are addresses, so a multiplicative (Fibonacci) hash spreads
// them; collisions probe linearly, and a deletion shifts the rest of its
// run back rather than leaving a tombstone. The zero idTable is empty.
type idTable struct {
	// slots has a power-of-two length (or none); id 0 marks a free slot.
	slots []idSlot
	// shift is 64 minus log2(len(slots)): a hash's top bits are its home.
	shift uint
	n     int
}

type idSlot struct {
	id  uintptr
	ent *identity
}

// minIDSlots is the smallest table allocated.
const minIDSlots = 16

// home returns the slot id would be in with no collision.
func (m *idTable) home(id uintptr) int {
	return int((uint64(id) * 0x9E3779B97F4A7C15) >> m.shift)
}

// len returns the number of ids held.
func (m *idTable) len() int { return m.n }

// get returns the entry of id; nil when the table lacks it.
func (m *idTable) get(id uintptr) *identity {
	if m.n == 0 {
		return nil
	}
	mask := len(m.slots) - 1
	for i := m.home(id); ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.id == id {
			return s.ent
		}
		if s.id == 0 {
			return nil
		}
	}
}

// set enters ent under id, which the table must lack.
func (m *idTable) set(id uintptr, ent *identity) {
	m.reserve(1)
	mask := len(m.slots) - 1
	i := m.home(id)
	for m.slots[i].id != 0 {
		i = (i + 1) & mask
	}
	m.slots[i] = idSlot{id, ent}
	m.n++
}

// del removes id, when the table holds it.
func (m *idTable) del(id uintptr) {
	if m.n == 0 {
		return
	}
	mask := len(m.slots) - 1
	i := m.home(id)
	for m.slots[i].id != id {
		if m.slots[i].id == 0 {
			return
		}
		i = (i + 1) & mask
	}
	// Close the hole at i: each later id of the run whose home is not
	// cyclically in (i, j] can move back into it, leaving its own hole.
	for j := (i + 1) & mask; m.slots[j].id != 0; j = (j + 1) & mask {
		h := m.home(m.slots[j].id)
		if i <= j {
			if i < h && h <= j {
				continue
			}
		} else if i < h || h <= j {
			continue
		}
		m.slots[i] = m.slots[j]
		i = j
	}
	m.slots[i] = idSlot{}
	m.n--
}

// reserve makes room for n more ids: the table is kept at most three
// quarters full.
func (m *idTable) reserve(n int) {
	need := m.n + n
	if 4*need <= 3*len(m.slots) {
		return
	}
	size := minIDSlots
	for 4*need > 3*size {
		size *= 2
	}
	old := m.slots
	m.slots = make([]idSlot, size)
	m.shift = 64
	for s := size; s > 1; s >>= 1 {
		m.shift--
	}
	mask := size - 1
	for _, s := range old {
		if s.id == 0 {
			continue
		}
		i := m.home(s.id)
		for m.slots[i].id != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = s
	}
}

// clear removes every id.
func (m *idTable) clear() {
	clear(m.slots)
	m.n = 0
}
