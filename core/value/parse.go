package value

import "sync"

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

// ParseString is Parse for input that is already a string. The returned
// Value's strings and numbers are substrings of s, so it keeps s alive.
func ParseString(s string) (Value, error) {
	p := parserPool.Get().(*parser)
	v, err := p.parse(s)
	p.release()
	if err != nil {
		return Undef, err
	}
	return v, nil
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

// parser holds the scratch space of one parse. Children of open containers
// are collected on the shared vals and mems stacks and, when their container
// closes, copied out into a slice of exactly their number, so containers
// never carry spare capacity or grow by doubling. Parsers are pooled so the
// stacks are reused between parses.
type parser struct {
	vals  []Value  // elements of the open arrays, innermost last
	mems  []Member // members of the open objects, innermost last
	stack []frame  // the open containers, innermost last
	seen  map[string]int

	// Closed containers are carved from these (see slab.carve).
	valSlab slab[Value]
	memSlab slab[Member]
}

// frame is one open array or object.
type frame struct {
	// key is the key of the object member whose value is being parsed.
	key string
	// start is where this container's children begin in vals or mems.
	start int
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
	if cap(p.vals) > maxPooledScratch || cap(p.mems) > maxPooledScratch {
		return
	}
	clear(p.vals[:cap(p.vals)])
	clear(p.mems[:cap(p.mems)])
	clear(p.stack[:cap(p.stack)])
	p.vals, p.mems, p.stack = p.vals[:0], p.mems[:0], p.stack[:0]
	// Values of this parse live in the slabs; the next parse must not
	// share them, or each would keep the other's memory alive.
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
			v = Value{kind: String, raw: s[i+1 : j], esc: esc}
			i = j + 1
		case '{':
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
			p.stack = append(p.stack, frame{key: key, start: len(p.mems), obj: true})
			i = j
			continue next
		case '[':
			if len(p.stack) == MaxDepth {
				return Undef, depthError(i)
			}
			i = skipSpace(s, i+1)
			if i < len(s) && s[i] == ']' {
				v = arrayOf(p.valSlab.carve(0))
				i++
				break
			}
			p.stack = append(p.stack, frame{start: len(p.vals)})
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
			v = Value{kind: Number, raw: s[i:j]}
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
			top := &p.stack[len(p.stack)-1]
			if i >= len(s) {
				return Undef, p.afterError(s, i)
			}
			c := s[i]
			if top.obj {
				p.mems = append(p.mems, Member{Key: top.key, Value: v})
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
				v = objectOf(p.closeObject(top.start))
			} else {
				p.vals = append(p.vals, v)
				if c == ',' {
					i = skipSpace(s, i+1)
					continue next
				}
				if c != ']' {
					return Undef, p.afterError(s, i)
				}
				v = arrayOf(p.closeArray(top.start))
			}
			p.stack = p.stack[:len(p.stack)-1]
			i++
		}
	}
}

// closeArray moves the innermost array's elements off the scratch stack
// into a slice of their exact length.
func (p *parser) closeArray(start int) []Value {
	elems := p.vals[start:]
	arr := p.valSlab.carve(len(elems))
	copy(arr, elems)
	p.vals = p.vals[:start]
	return arr
}

// closeObject is closeArray for objects, dropping duplicate keys first.
func (p *parser) closeObject(start int) []Member {
	ms := p.mems[start:]
	n := len(ms)
	if n > 1 && hasDuplicateKey(ms) {
		n = p.dedupe(ms)
	}
	obj := p.memSlab.carve(n)
	copy(obj, ms[:n])
	p.mems = p.mems[:start]
	return obj
}

// Slab sizes, in elements. Small containers are cut from shared slabs
// rather than allocated one by one: a response of a thousand articles has
// thousands of small objects, and allocating each separately made a parse
// nearly twice as slow. Slabs start small, so a small document wastes
// little, and double up to maxSlab (which keeps each under the allocator's
// large-object size) as a parse consumes them. Sharing keeps nothing alive
// that was not already: every Value of a parse holds the whole input string.
const (
	minSlab = 16
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
