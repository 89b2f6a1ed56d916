package value

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// A tape is a parse kept as offsets: one pointer-free entry per token of
// the document (each object key, each value), in document order, over the
// text they were scanned from. Arrays and objects parsed onto a tape are
// lazy: their Value points at a node of the tape, and their elements or
// members are built from the entries the first time something asks for
// them, then kept. Parts of a response that nothing looks at one by one
// (a record's plain fields that are only read back whole, a list of tags)
// so cost one scan and a few words of tape each, and no Go pointers for
// the collector to trace; see ParseLazy.
type tape struct {
	src string
	// chunks hold the entries, tapeChunk a chunk (the first may have
	// less room): a tape takes what its document needs, however many
	// tokens its bytes hold, and never moves what it holds.
	chunks [][]tapeEntry
	n      uint32 // entries so far
	// conts and nodes have an element per array or object, in the order
	// they open: their extent on the tape and their node.
	conts []tapeContainer
	nodes []node

	// mu guards the slabs that built children are carved from: values
	// are shared between goroutines, and two may build at once.
	mu      sync.Mutex
	valSlab slab[Value]
	memSlab slab[Member]
	// patched is the rest of the current slab of patched nodes (see
	// Patched), patchedSize its size, which the next one doubles.
	patched     []patchedNode
	patchedSize int
}

// tapeEntry is one token, 16 bytes. Text offsets are into tape.src.
type tapeEntry struct {
	// start and end delimit a string's contents (without the quotes), a
	// number's or word's literal, or a container's text from its opening
	// bracket to its closing one, inclusive.
	start, end uint32
	// c is, for an array or object, its index in tape.conts and tape.nodes.
	c    uint32
	kind Kind
	// esc is set on a string or key with escapes.
	esc bool
}

// tapeContainer is the extent of an array or object on the tape.
type tapeContainer struct {
	// at is its entry, skip the entry after its last descendant, n its
	// count of elements or members.
	at, skip, n uint32
}

// tapeChunkBits sizes the chunks of a tape's entries: 1,024 entries,
// 16 KiB.
const (
	tapeChunkBits = 10
	tapeChunk     = 1 << tapeChunkBits
)

// ent returns entry at.
func (t *tape) ent(at uint32) *tapeEntry {
	return &t.chunks[at>>tapeChunkBits][at&(tapeChunk-1)]
}

// push appends e and returns its index.
func (t *tape) push(e tapeEntry) uint32 {
	last := &t.chunks[len(t.chunks)-1]
	if len(*last) == tapeChunk {
		t.chunks = append(t.chunks, make([]tapeEntry, 0, tapeChunk))
		last = &t.chunks[len(t.chunks)-1]
	}
	*last = append(*last, e)
	t.n++
	return t.n - 1
}

// node is the identity of one lazy container, and where its children go
// once built. Its address is the container's Identity.
type node struct {
	t  *tape
	at uint32 // the container's entry
	// patched is set on the node of a patched object (see Patched), which
	// it is the start of.
	patched bool
	// kids points at the built elements or members; nil until built.
	kids unsafe.Pointer
}

// Patch replaces one member of an object: the member at position At gets
// the value V.
type Patch struct {
	At int
	V  Value
}

// patchedNode is the node of an object that Patched made from one on a
// tape: the object's members, read off the same tape, with patches
// applied.
type patchedNode struct {
	node
	patches []Patch
}

// patches returns the patches of a patched node; nil for any other.
func (nd *node) patches() []Patch {
	if !nd.patched {
		return nil
	}
	return (*patchedNode)(unsafe.Pointer(nd)).patches
}

// Patched returns an Object like obj, but for the members that patches
// replace, each at its position in obj's members. obj must be an Object
// and each position one of its members'. The result keeps patches, which
// the caller must not change. Of an object parsed onto a tape and not
// built yet (Unbuilt), it is made without building either: it reads its
// members off the tape, applying the patches, until something asks for
// them all (Members), and has no Source, its text being obj's. This is
// how a normalized record, its nested entities replaced by their keys,
// stays offsets into its response.
func Patched(obj Value, patches []Patch) Value {
	if len(patches) == 0 {
		return obj
	}
	if !obj.Unbuilt() || (*node)(obj.kids).patched {
		ms := make([]Member, obj.n)
		copy(ms, obj.members())
		for _, p := range patches {
			ms[p.At].Value = p.V
		}
		return objectOf(ms)
	}
	base := (*node)(obj.kids)
	p := base.t.newPatched()
	*p = patchedNode{node: node{t: base.t, at: base.at, patched: true}, patches: patches}
	return Value{hdr: hdr{kind: Object, esc: true}, n: obj.n, kids: unsafe.Pointer(&p.node)}
}

// newPatched returns a node for Patched, carved from the tape's slab of
// them: a response's records are patched one by one, a thousand of them
// for a list of a thousand.
func (t *tape) newPatched() *patchedNode {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.patched) == 0 {
		// No more than the tape has containers: a record set alone
		// (three of them, say) takes a few nodes, not a slab of minSlab.
		t.patchedSize = min(max(2*t.patchedSize, minSlab), maxSlab, max(len(t.conts), 1))
		t.patched = make([]patchedNode, t.patchedSize)
	}
	p := &t.patched[0]
	t.patched = t.patched[1:]
	return p
}

// lazyKids returns the built children of the lazy container v, building
// them on first use.
//
//go:noinline
func (v Value) lazyKids() unsafe.Pointer {
	nd := (*node)(v.kids)
	if p := atomic.LoadPointer(&nd.kids); p != nil {
		return p
	}
	return nd.build()
}

// build makes a node's children from the tape and keeps them. Under the
// tape's lock, so that two goroutines asking at once get the same
// children (and each child its one node).
func (nd *node) build() unsafe.Pointer {
	t := nd.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if p := atomic.LoadPointer(&nd.kids); p != nil {
		return p
	}
	e := t.ent(nd.at)
	c := &t.conts[e.c]
	var p unsafe.Pointer
	if e.kind == Array {
		elems := t.valSlab.carve(int(c.n))
		for i, at := 0, nd.at+1; i < len(elems); i++ {
			elems[i], at = t.value(at)
		}
		p = unsafe.Pointer(unsafe.SliceData(elems[:cap(elems)]))
	} else {
		ms := t.memSlab.carve(int(c.n))
		for i, at := 0, nd.at+1; i < len(ms); i++ {
			ms[i].Key = t.key(at)
			ms[i].Value, at = t.value(at + 1)
		}
		for _, p := range nd.patches() {
			ms[p.At].Value = p.V
		}
		p = unsafe.Pointer(unsafe.SliceData(ms[:cap(ms)]))
	}
	atomic.StorePointer(&nd.kids, p)
	return p
}

// built reports whether nd's children are built, after which they, not
// the tape, are what readers use (a deduplicated object's count differs
// from its tape's).
func (nd *node) built() bool { return atomic.LoadPointer(&nd.kids) != nil }

// find looks key up among the members of an object not built yet,
// straight off the tape; ok is false when it is built, for the caller to
// look in its members.
func (nd *node) find(key string) (i int, v Value, ok bool) {
	if nd.built() {
		return 0, Undef, false
	}
	t := nd.t
	n := t.conts[t.ent(nd.at).c].n
	for at := nd.at + 1; i < int(n); i++ {
		k := t.ent(at)
		if k.esc && t.key(at) == key || !k.esc && t.src[k.start:k.end] == key {
			v, _ = t.value(at + 1)
			for _, p := range nd.patches() {
				if p.At == i {
					v = p.V
				}
			}
			return i, v, true
		}
		at = t.skipValue(at + 1)
	}
	return -1, Undef, true
}

// appendMembers appends the members of an object not built yet to dst,
// straight off the tape; ok is false when it is built.
func (nd *node) appendMembers(dst []Member) ([]Member, bool) {
	if nd.built() {
		return dst, false
	}
	t := nd.t
	n := t.conts[t.ent(nd.at).c].n
	start := len(dst)
	for i, at := uint32(0), nd.at+1; i < n; i++ {
		m := Member{Key: t.key(at)}
		m.Value, at = t.value(at + 1)
		dst = append(dst, m)
	}
	for _, p := range nd.patches() {
		dst[start+p.At].Value = p.V
	}
	return dst, true
}

// textLen returns the length of the text of nd's container.
func (nd *node) textLen() int {
	e := nd.t.ent(nd.at)
	return int(e.end - e.start)
}

// appendElems appends the elements of an array not built yet to dst,
// straight off the tape; ok is false when it is built.
func (nd *node) appendElems(dst []Value) ([]Value, bool) {
	if nd.built() {
		return dst, false
	}
	t := nd.t
	n := t.conts[t.ent(nd.at).c].n
	for i, at := uint32(0), nd.at+1; i < n; i++ {
		var v Value
		v, at = t.value(at)
		dst = append(dst, v)
	}
	return dst, true
}

// key returns the decoded key at entry at.
func (t *tape) key(at uint32) string {
	e := t.ent(at)
	k := t.src[e.start:e.end]
	if e.esc {
		return unescape(k)
	}
	return k
}

// value returns the value whose entry is at and the index of the entry
// after it.
func (t *tape) value(at uint32) (Value, uint32) {
	e := t.ent(at)
	switch e.kind {
	case String:
		return Value{hdr: hdr{kind: String, esc: e.esc}, raw: t.src[e.start:e.end]}, at + 1
	case Number:
		return Value{hdr: hdr{kind: Number}, raw: t.src[e.start:e.end]}, at + 1
	case Bool:
		if t.src[e.start] == 't' {
			return True, at + 1
		}
		return False, at + 1
	case Null:
		return NullV, at + 1
	}
	c := &t.conts[e.c]
	v := Value{hdr: hdr{kind: e.kind, esc: true}, n: c.n, kids: unsafe.Pointer(&t.nodes[e.c])}
	if c.n > 0 {
		// Like Parse, an empty container has no Source.
		v.raw = t.src[e.start:e.end]
	}
	return v, c.skip
}

// ParseLazy parses one JSON document as Parse does, accepting and
// refusing exactly what it does with the same errors, but keeps the parse
// as a tape of offsets over the text (see tape): arrays and objects are
// built member by member only when first asked for. The result keeps s
// alive, as ParseString's does.
func ParseLazy(s string) (Value, error) {
	if surrogateAt(s) >= 0 || len(s) >= 1<<32-1 {
		// The replacement and its error offsets are the eager parser's
		// business; such bodies are rare.
		return ParseString(s)
	}
	t, ok := scanTape(s)
	if !ok {
		// Errors are rare: the eager parser says what and where.
		return ParseString(s)
	}
	v, _ := t.value(0)
	return v, nil
}

// ParseLazyOwned is ParseLazy of data's bytes without a copy; data is
// handed over, as with ParseOwned.
func ParseLazyOwned(data []byte) (Value, error) {
	return ParseLazy(unsafe.String(unsafe.SliceData(data), len(data)))
}

// tapeFrame is an open container during a scan.
type tapeFrame struct {
	at  uint32 // its entry
	n   uint32 // its children so far
	obj bool
	// keys has a bit set per key of an object so far (keyBit); clash is
	// set once two keys may be the same (a bit set twice, or an escaped
	// key), when closing it checks them (mayRepeatKey).
	keys  uint64
	clash bool
}

// add records a key of an open object, bit from scanKey.
func (f *tapeFrame) add(bit uint64) {
	f.clash = f.clash || bit == 0 || f.keys&bit != 0
	f.keys |= bit
}

var tapeStacks = sync.Pool{New: func() any { s := make([]tapeFrame, 0, 32); return &s }}

// scanTape scans s onto a new tape; ok is false when s is not valid JSON
// (or nests deeper than MaxDepth).
func scanTape(s string) (t *tape, ok bool) {
	t = &tape{src: s}
	// About one token per 24 bytes of a typical response, a container
	// per 8 tokens.
	t.chunks = [][]tapeEntry{make([]tapeEntry, 0, min(len(s)/24+4, tapeChunk))}
	t.conts = make([]tapeContainer, 0, len(s)/192+4)
	stackp := tapeStacks.Get().(*[]tapeFrame)
	stack := (*stackp)[:0]
	defer func() {
		if cap(stack) <= maxPooledScratch {
			*stackp = stack[:0]
			tapeStacks.Put(stackp)
		}
	}()
	var dups []uint32 // objects that may hold a key twice

	i := skipSpace(s, 0)
	if i == len(s) {
		return nil, false
	}
next:
	for {
		if i >= len(s) {
			return nil, false
		}
		switch c := s[i]; c {
		case '"':
			j, esc := scanString(s, i+1)
			if j < 0 {
				return nil, false
			}
			t.push(tapeEntry{kind: String, start: uint32(i + 1), end: uint32(j), esc: esc})
			i = j + 1
		case '{', '[':
			if len(stack) == MaxDepth {
				return nil, false
			}
			obj := c == '{'
			kind := Array
			if obj {
				kind = Object
			}
			at := t.push(tapeEntry{kind: kind, start: uint32(i), c: uint32(len(t.conts))})
			t.conts = append(t.conts, tapeContainer{at: at})
			i = skipSpace(s, i+1)
			if i < len(s) && (obj && s[i] == '}' || !obj && s[i] == ']') {
				e := t.ent(at)
				e.end, t.conts[e.c].skip = uint32(i+1), at+1
				i++
				break
			}
			stack = append(stack, tapeFrame{at: at, obj: obj})
			if obj {
				j, bit, ok := t.scanKey(s, i)
				if !ok {
					return nil, false
				}
				stack[len(stack)-1].add(bit)
				i = j
			}
			continue next
		case 't', 'f', 'n':
			word, kind := "null", Null
			switch c {
			case 't':
				word, kind = "true", Bool
			case 'f':
				word, kind = "false", Bool
			}
			if !hasWord(s, i, word) {
				return nil, false
			}
			t.push(tapeEntry{kind: kind, start: uint32(i), end: uint32(i + len(word))})
			i += len(word)
		default:
			if c != '-' && c-'0' > 9 {
				return nil, false
			}
			j := scanNumber(s, i)
			if j < 0 {
				return nil, false
			}
			t.push(tapeEntry{kind: Number, start: uint32(i), end: uint32(j)})
			i = j
		}

		// A value is complete: count it in the innermost open container
		// and close containers for as long as closing brackets follow.
		for {
			if i < len(s) && s[i] <= ' ' {
				i = skipSpace(s, i)
			}
			if len(stack) == 0 {
				if i != len(s) {
					return nil, false
				}
				break next
			}
			top := &stack[len(stack)-1]
			top.n++
			if i >= len(s) {
				return nil, false
			}
			c := s[i]
			if c == ',' {
				i = skipSpace(s, i+1)
				if top.obj {
					j, bit, ok := t.scanKey(s, i)
					if !ok {
						return nil, false
					}
					top.add(bit)
					i = j
				}
				continue next
			}
			if top.obj && c != '}' || !top.obj && c != ']' {
				return nil, false
			}
			e := t.ent(top.at)
			e.end, t.conts[e.c] = uint32(i+1), tapeContainer{at: top.at, skip: t.n, n: top.n}
			if top.clash && t.mayRepeatKey(top.at) {
				dups = append(dups, top.at)
			}
			stack = stack[:len(stack)-1]
			i++
		}
	}

	t.nodes = make([]node, len(t.conts))
	for c := range t.conts {
		t.nodes[c] = node{t: t, at: t.conts[c].at}
	}
	// An object with a key twice is built at once, keeping the last value
	// at the first key's place as JSON.parse does, so its count is known.
	for _, at := range dups {
		t.dedupe(at)
	}
	return t, true
}

// scanKey scans an object key and the colon after it at s[i] onto the
// tape, returning the index of the member's value, whitespace skipped, and
// the key's bit (keyBit; 0 for a key with escapes, whose text is not its
// value).
func (t *tape) scanKey(s string, i int) (int, uint64, bool) {
	if i >= len(s) || s[i] != '"' {
		return 0, 0, false
	}
	j, esc := scanString(s, i+1)
	if j < 0 {
		return 0, 0, false
	}
	t.push(tapeEntry{kind: String, start: uint32(i + 1), end: uint32(j), esc: esc})
	var bit uint64
	if !esc {
		bit = keyBit(s[i+1 : j])
	}
	j = skipSpace(s, j+1)
	if j >= len(s) || s[j] != ':' {
		return 0, 0, false
	}
	return skipSpace(s, j+1), bit, true
}

// keyBit maps a key to one of 64 bits, from its length and three of its
// bytes: equal keys get the same bit, so an object whose keys all got
// different bits has no key twice, and only the rare one with a clash
// needs its keys compared.
func keyBit(k string) uint64 {
	h := uint64(len(k))
	if len(k) > 0 {
		h = h*31 + uint64(k[0])
		h = h*31 + uint64(k[len(k)-1])
		h = h*31 + uint64(k[len(k)/2])
	}
	h *= 0x9E3779B97F4A7C15
	return 1 << (h >> 58)
}

// mayRepeatKey reports whether the object at entry at may hold a key
// twice: two keys with the same text, or, where telling needs decoding
// (escapes) or many comparisons (a large object), maybe.
func (t *tape) mayRepeatKey(at uint32) bool {
	n := t.conts[t.ent(at).c].n
	if n > smallObject {
		return true
	}
	var keys [smallObject]string
	k := at + 1
	for i := uint32(0); i < n; i++ {
		ke := t.ent(k)
		if ke.esc {
			return true
		}
		keys[i] = t.src[ke.start:ke.end]
		for j := uint32(0); j < i; j++ {
			if keys[j] == keys[i] {
				return true
			}
		}
		k = t.skipValue(k + 1)
	}
	return false
}

// skipValue returns the index of the entry after the value at entry at.
func (t *tape) skipValue(at uint32) uint32 {
	if e := t.ent(at); e.kind >= Array {
		return t.conts[e.c].skip
	}
	return at + 1
}

// dedupe builds the object at entry at with each key once and sets its
// count to the members kept.
func (t *tape) dedupe(at uint32) {
	c := &t.conts[t.ent(at).c]
	ms := t.memSlab.carve(int(c.n))
	seen := make(map[string]int, c.n)
	n := 0
	for i, k := uint32(0), at+1; i < c.n; i++ {
		key := t.key(k)
		var v Value
		v, k = t.value(k + 1)
		if j, ok := seen[key]; ok {
			ms[j].Value = v
			continue
		}
		seen[key] = n
		ms[n] = Member{Key: key, Value: v}
		n++
	}
	c.n = uint32(n)
	t.nodes[t.ent(at).c].kids = unsafe.Pointer(unsafe.SliceData(ms[:cap(ms)]))
}
