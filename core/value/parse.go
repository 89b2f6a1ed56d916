package value

import (
	"strings"
	"sync"
	"unsafe"
)

// MaxDepth is the deepest nesting of arrays and objects Parse accepts. The
// parser itself does not recurse, but deeper values would make the recursive
// walks over them (encoding, Equal, a JavaScript bridge) unbounded, and no
// real API response nests a thousand levels.
const MaxDepth = 1000

// Parse parses one JSON document, strictly as RFC 8259 defines it, with
// whitespace allowed around it. It copies data once, so the caller may reuse
// data; the Value's strings and numbers share that one copy. Invalid UTF-8 is
// kept as it is. Duplicate object keys keep the last value at the first
// key's position, as JSON.parse does. Errors are *SyntaxError.
func Parse(data []byte) (Value, error) {
	return ParseString(string(data))
}

// ParseOwned is Parse without the copy: the Value's strings and numbers
// share data's bytes, so data is handed over and must never be modified
// afterwards (nor reused). It is for a response body read into a buffer
// of its own, where the copy Parse makes would double the memory the body
// takes while it is parsed and keep the two copies until the buffer is
// collected.
func ParseOwned(data []byte) (Value, error) {
	return ParseString(unsafe.String(unsafe.SliceData(data), len(data)))
}

// ParseString is Parse for input that is already a string. The returned
// Value's strings and numbers are substrings of s, so it keeps s alive.
func ParseString(s string) (Value, error) {
	in := s
	if surrogateAt(s) >= 0 {
		s = replaceSurrogateBytes(s)
	}
	p := parserPool.Get().(*parser)
	v, err := p.parse(s)
	p.release()
	if err != nil {
		if se, ok := err.(*SyntaxError); ok && len(s) != len(in) {
			se.Offset = originalOffset(in, se.Offset)
		}
		return Undef, err
	}
	return v, nil
}

// replaceSurrogateBytes returns s with each byte of every surrogate's
// three-byte form replaced by U+FFFD, which is what JavaScript's UTF-8
// decoder (and so JSON.parse of the response's text) makes of those invalid
// bytes. Decoded strings use that form for escaped lone surrogates only (see
// surrogateAt), so literal ones must not reach them.
func replaceSurrogateBytes(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	for {
		i := surrogateAt(s)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString("\uFFFD\uFFFD\uFFFD")
		s = s[i+3:]
	}
}

// originalOffset maps an offset in replaceSurrogateBytes(in) back to in:
// each replacement turned 3 bytes into 9, and an offset inside one points
// at its first byte.
func originalOffset(in string, off int64) int64 {
	grown := int64(0) // bytes added by the replacements before i
	for i := 0; ; {
		j := surrogateAt(in[i:])
		if j < 0 {
			return off - grown
		}
		at := int64(i+j) + grown // where this replacement starts
		if off < at {
			return off - grown
		}
		if off < at+9 {
			return int64(i + j)
		}
		grown += 6
		i += j + 3
	}
}

// MustParse is ParseString for literals in tests and examples: it panics if s
// is not valid JSON.
func MustParse(s string) Value {
	v, err := ParseString(s)
	if err != nil {
		panic("value.MustParse: " + err.Error())
	}
	return v
}

// parser holds the scratch space of one parse. Children of an open
// container are written straight to where they stay: the region of its
// depth (one container is open at each depth at a time), so that a closed
// container is a slice of a region, of exactly its length, and no child is
// copied after it is written. Parsers are pooled so the stacks are reused
// between parses.
type parser struct {
	stack []frame // the open containers, innermost last
	seen  map[string]int

	// arrs and objs are the regions of each depth, for arrays and objects.
	arrs []region[Value]
	objs []region[Member]
	// Empty containers are carved from these (see slab.carve).
	valSlab slab[Value]
	memSlab slab[Member]
}

// region is where the children of the containers at one depth are written:
// each container's after the last one's, in chunks. When a chunk runs out,
// the open container's children so far move to a new one, at least twice
// their number (amortized, each child moves about once).
type region[T any] struct {
	buf  []T // the current chunk
	used int // how much of buf the containers written so far take
	size int // buf's size, which the next chunk doubles (up to maxSlab for small containers)
}

// push adds x to the open container whose children start at *start.
func (r *region[T]) push(start *int, x T, depth int) {
	if r.used == len(r.buf) {
		r.refill(start, depth)
	}
	r.buf[r.used] = x
	r.used++
}

func (r *region[T]) refill(start *int, depth int) {
	n := r.used - *start
	size := min(2*r.size, maxSlab)
	if size == 0 {
		// A deep value has few containers at each depth: small first
		// chunks there, so a deeply nested document stays small.
		size = minSlab
		if depth >= 8 {
			size = 2
		}
	}
	size = max(size, 2*n)
	buf := make([]T, size)
	copy(buf, r.buf[*start:r.used])
	clear(r.buf[*start:r.used]) // the old chunk may live on: keep nothing twice
	r.buf, r.used, r.size, *start = buf, n, size, 0
}

// close ends the container whose children start at start, keeping the
// first n of them, and returns them with capacity n, so that appending to
// them can never overwrite a neighbour.
func (r *region[T]) close(start, n int) []T {
	out := r.buf[start : start+n : start+n]
	clear(r.buf[start+n : r.used]) // dropped duplicates
	r.used = start + n
	return out
}

// frame is one open array or object.
type frame struct {
	// key is the key of the object member whose value is being parsed.
	key string
	// start is where this container's children begin in its region.
	start int
	// begin is the offset of the container's opening bracket in the input.
	begin int
	obj   bool
}

var parserPool = sync.Pool{New: func() any { return new(parser) }}

// These bound the scratch a pooled parser keeps, so one huge response does
// not pin its high-water mark of memory for good.
const (
	maxPooledScratch = 1 << 16
	maxPooledKeys    = 1 << 10
)

// release clears the scratch stacks, which would otherwise keep the last
// input alive through their stale entries, and returns p to the pool.
func (p *parser) release() {
	if cap(p.stack) > maxPooledScratch {
		return
	}
	clear(p.stack[:cap(p.stack)])
	p.stack = p.stack[:0]
	// Values of this parse live in the regions and slabs; the next parse
	// must not share them, or each would keep the other's memory alive.
	clear(p.arrs)
	clear(p.objs)
	p.valSlab, p.memSlab = slab[Value]{}, slab[Member]{}
	if len(p.seen) > maxPooledKeys {
		p.seen = nil
	} else if len(p.seen) > 0 {
		clear(p.seen)
	}
	parserPool.Put(p)
}

// parse scans s as one JSON document without recursion: opening brackets
// push a frame, and each finished value is appended to the innermost open
// container, closing containers as their brackets arrive.
func (p *parser) parse(s string) (Value, error) {
	i := skipSpace(s, 0)
	if i == len(s) {
		return Undef, &SyntaxError{Offset: 0, Msg: "empty body"}
	}
	var v Value
next:
	for {
		// A value starts at i; whitespace before it is already skipped.
		if i >= len(s) {
			return Undef, p.valueError(s, i)
		}
		switch c := s[i]; c {
		case '"':
			j, esc := scanString(s, i+1)
			if j < 0 {
				return Undef, stringError(s, i+1)
			}
			v = Value{hdr: hdr{kind: String, esc: esc}, raw: s[i+1 : j]}
			i = j + 1
		case '{':
			begin := i
			if len(p.stack) == MaxDepth {
				return Undef, depthError(i)
			}
			i = skipSpace(s, i+1)
			if i < len(s) && s[i] == '}' {
				v = objectOf(p.memSlab.carve(0))
				i++
				break
			}
			key, j, err := memberKey(s, i)
			if err != nil {
				return Undef, err
			}
			p.stack = append(p.stack, frame{key: key, start: p.region(true), begin: begin, obj: true})
			i = j
			continue next
		case '[':
			begin := i
			if len(p.stack) == MaxDepth {
				return Undef, depthError(i)
			}
			i = skipSpace(s, i+1)
			if i < len(s) && s[i] == ']' {
				v = arrayOf(p.valSlab.carve(0))
				i++
				break
			}
			p.stack = append(p.stack, frame{start: p.region(false), begin: begin})
			continue next
		case 't':
			if !hasWord(s, i, "true") {
				return Undef, wordError(s, i, "true")
			}
			v = True
			i += 4
		case 'f':
			if !hasWord(s, i, "false") {
				return Undef, wordError(s, i, "false")
			}
			v = False
			i += 5
		case 'n':
			if !hasWord(s, i, "null") {
				return Undef, wordError(s, i, "null")
			}
			v = NullV
			i += 4
		default:
			if c != '-' && c-'0' > 9 {
				return Undef, p.valueError(s, i)
			}
			j := scanNumber(s, i)
			if j < 0 {
				return Undef, numberError(s, i)
			}
			v = Value{hdr: hdr{kind: Number}, raw: s[i:j]}
			i = j
		}

		// v is complete: add it to the innermost open container, and
		// close containers for as long as closing brackets follow.
		for {
			if i < len(s) && s[i] <= ' ' {
				i = skipSpace(s, i)
			}
			if len(p.stack) == 0 {
				if i != len(s) {
					return Undef, unexpected(s, i, " after top-level value, expected end of input")
				}
				return v, nil
			}
			depth := len(p.stack) - 1
			top := &p.stack[depth]
			if i >= len(s) {
				return Undef, p.afterError(s, i)
			}
			c := s[i]
			if top.obj {
				p.objs[depth].push(&top.start, Member{Key: top.key, Value: v}, depth)
				if c == ',' {
					key, j, err := memberKey(s, skipSpace(s, i+1))
					if err != nil {
						return Undef, err
					}
					top.key = key
					i = j
					continue next
				}
				if c != '}' {
					return Undef, p.afterError(s, i)
				}
				v = objectOf(p.closeObject(&p.objs[depth], top.start))
				v.raw = s[top.begin : i+1]
			} else {
				p.arrs[depth].push(&top.start, v, depth)
				if c == ',' {
					i = skipSpace(s, i+1)
					continue next
				}
				if c != ']' {
					return Undef, p.afterError(s, i)
				}
				r := &p.arrs[depth]
				v = arrayOf(r.close(top.start, r.used-top.start))
				v.raw = s[top.begin : i+1]
			}
			p.stack = p.stack[:len(p.stack)-1]
			i++
		}
	}
}

// region returns where the children of a container opened at the next
// depth start in that depth's region (of objects when obj).
func (p *parser) region(obj bool) int {
	d := len(p.stack)
	if obj {
		for d >= len(p.objs) {
			p.objs = append(p.objs, region[Member]{})
		}
		return p.objs[d].used
	}
	for d >= len(p.arrs) {
		p.arrs = append(p.arrs, region[Value]{})
	}
	return p.arrs[d].used
}

// closeObject closes the object whose members start at start in r,
// dropping duplicate keys first.
func (p *parser) closeObject(r *region[Member], start int) []Member {
	ms := r.buf[start:r.used]
	n := len(ms)
	if n > 1 && hasDuplicateKey(ms) {
		n = p.dedupe(ms)
	}
	return r.close(start, n)
}

// Slab sizes, in elements. Small containers are cut from shared slabs
// rather than allocated one by one: a response of a thousand articles has
// thousands of small objects, and allocating each separately made a parse
// nearly twice as slow. Slabs (and the regions' first chunks) start small,
// so a small document wastes little (a one-record write parses a few
// objects of a handful of members: at 16 most of each chunk went unused),
// and double up to maxSlab (which keeps each under the allocator's
// large-object size) as a parse consumes them. Sharing keeps nothing alive
// that was not already: every Value of a parse holds the whole input string.
const (
	minSlab = 8
	maxSlab = 256
)

// slab is memory that closed containers are carved from.
type slab[T any] struct {
	free []T // the unused rest of the current slab
	size int // the current slab's size, which the next one doubles
}

// carve returns a slice of n fresh elements. Its capacity is n too, so
// appending to it can never overwrite a neighbour, except that an empty
// slice gets one element of capacity: like Arr and Obj, every empty
// container has storage of its own, so that Same tells two apart.
func (sl *slab[T]) carve(n int) []T {
	size := max(n, 1)
	if size > len(sl.free) {
		if size > maxSlab/4 {
			return make([]T, n)
		}
		// At least size: a container of up to maxSlab/4 must fit the new slab.
		sl.size = min(max(2*sl.size, minSlab, size), maxSlab)
		sl.free = make([]T, sl.size)
	}
	s := sl.free[:n:size]
	sl.free = sl.free[size:]
	return s
}

// smallObject is the member count up to which comparing every pair of keys
// beats hashing them. Typical API objects are well under it.
const smallObject = 16

// hasDuplicateKey reports whether two members share a key. It answers
// "maybe" (true) for large objects, which dedupe then checks with a map.
func hasDuplicateKey(ms []Member) bool {
	if len(ms) > smallObject {
		return true
	}
	for j := 1; j < len(ms); j++ {
		for i := 0; i < j; i++ {
			if ms[i].Key == ms[j].Key {
				return true
			}
		}
	}
	return false
}

// dedupe compacts ms in place so each key appears once, at the position of
// its first occurrence with the value of its last, as JSON.parse does. It
// returns the new length.
func (p *parser) dedupe(ms []Member) int {
	if p.seen == nil {
		p.seen = make(map[string]int, len(ms))
	} else {
		clear(p.seen)
	}
	n := 0
	for j := range ms {
		if k, ok := p.seen[ms[j].Key]; ok {
			ms[k].Value = ms[j].Value
			continue
		}
		p.seen[ms[j].Key] = n
		ms[n] = ms[j]
		n++
	}
	return n
}

// memberKey parses an object key and the colon after it, starting at i
// (whitespace skipped). It returns the decoded key and the index of the
// member's value, whitespace skipped.
func memberKey(s string, i int) (string, int, error) {
	if i >= len(s) || s[i] != '"' {
		return "", 0, unexpected(s, i, " in object, expected string key")
	}
	j, esc := scanString(s, i+1)
	if j < 0 {
		return "", 0, stringError(s, i+1)
	}
	key := s[i+1 : j]
	if esc {
		key = unescape(key)
	}
	j = skipSpace(s, j+1)
	if j >= len(s) || s[j] != ':' {
		return "", 0, unexpected(s, j, " in object, expected ':' after key")
	}
	return key, skipSpace(s, j+1), nil
}
