package wire

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Kind is the JavaScript type of a decoded Node.
type Kind uint8

// The kinds of Node.
const (
	Undefined Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
	Date
)

// Node is a decoded value as JavaScript sees it. Arrays and objects are
// pointers, so that two positions hold the same JavaScript object exactly
// when they hold the same *Node: what === tells in JavaScript.
type Node struct {
	Kind Kind
	Bool bool
	Num  float64
	// Str is a String's code units as UTF-8, a lone surrogate in its
	// three-byte form (as value.Value.Str has it).
	Str string
	// Elems are an Array's elements.
	Elems []*Node
	// Keys and Vals are an Object's members, in JavaScript's order of
	// creation (which Object.keys reports, integer keys aside).
	Keys []string
	Vals []*Node
	// Of is a Date's argument: the number or string given to new Date.
	Of *Node
	// Class is an Object's class (OpClass): 0 for a plain object.
	Class uint64
	// Convert is the conversion JavaScript applies to the value
	// (OpConvert): 0 for none.
	Convert uint64
	// backRef is 1 + the id of an OpBackRef placeholder; 0 for a value.
	backRef uint64
}

// Get returns the value of an Object's member key; nil when it has none.
func (n *Node) Get(key string) *Node {
	for i, k := range n.Keys {
		if k == key {
			return n.Vals[i]
		}
	}
	return nil
}

// Table is the decoder's half of an identity table: the objects held by
// id and the shapes defined, as a controller's JavaScript side keeps them.
// The zero Table is empty and ready to use.
type Table struct {
	Held   map[uint64]*Node
	Shapes [][]string
}

// Reset forgets every object and shape, as a reset of the identity table
// does on both sides.
func (t *Table) Reset() {
	clear(t.Held)
	t.Shapes = t.Shapes[:0]
}

// Output is a decoded output.
type Output struct {
	Header Header
	Value  *Node
	// Counts counts the ops of each code the output held; Kept is the
	// number of elements its OpKeep runs took.
	Counts [NumOps]int
	Kept   int
}

// ErrUnknown is the error of an output that names an object or a shape
// the table does not hold: the two halves of the identity table disagree.
var ErrUnknown = errors.New("unknown id")

// Decode decodes out, an output written by Writer, with the table t (nil:
// an output for no table, which holds no identity op), updating t as
// JavaScript would. It is the reference the encoder and the JavaScript
// decoder are tested against; it checks every bound and reports the first
// fault with its position.
func Decode(out []byte, t *Table) (Output, error) {
	var o Output
	if len(out) < HeaderSize {
		return o, fmtlite.Errorf("wire: output of %d bytes is shorter than its header", len(out))
	}
	if out[0] != Version {
		return o, fmtlite.Errorf("wire: version %d, want %d", out[0], Version)
	}
	flags := out[1]
	o.Header = Header{
		Response:  flags&FlagResponse != 0,
		Status:    Status(out[2]),
		ExpiresAt: math.Float64frombits(binary.LittleEndian.Uint64(out[8:])),
		ErrorKept: flags&FlagErrorKept != 0,
	}
	if flags&FlagAfterExpiry != 0 {
		o.Header.AfterExpiry = Status(out[3])
	}
	strLen := int(binary.LittleEndian.Uint32(out[4:]))
	if strLen > len(out)-HeaderSize {
		return o, fmtlite.Errorf("wire: string area of %d bytes does not fit the output's %d", strLen, len(out))
	}
	d := &decoder{
		b:     out[:len(out)-strLen],
		pos:   HeaderSize,
		units: utf16.Encode([]rune(string(out[len(out)-strLen:]))),
		t:     t,
	}
	d.cur = len(d.units)
	if t == nil {
		d.t = &Table{}
		d.plain = true
	}
	d.o = &o
	v, err := d.value()
	if err != nil {
		return o, err
	}
	o.Value = v
	if d.pos < len(d.b) {
		if err := d.drop(); err != nil {
			return o, err
		}
	}
	if d.pos != len(d.b) {
		return o, d.errorf("%d bytes after the value", len(d.b)-d.pos)
	}
	if d.holes != 0 {
		return o, fmtlite.Errorf("wire: %d back-references left unresolved", d.holes)
	}
	if d.cur != 0 {
		return o, fmtlite.Errorf("wire: %d of the string area's %d code units unused", d.cur, len(d.units))
	}
	return o, nil
}

type decoder struct {
	b     []byte
	pos   int
	at    int // where the op being decoded starts
	units []uint16
	cur   int // where the strings taken so far start in the string area
	t     *Table
	plain bool // no table: identity ops are faults
	o     *Output
	// building are the ids whose objects are being built (OpRegister,
	// OpOver), outermost first; holes the OpBackRef placeholders not yet
	// replaced by the object they stand for.
	building []uint64
	holes    int
}

func (d *decoder) errorf(format string, args ...any) error {
	return fmtlite.Errorf("wire: at byte %d: %s", d.at, fmtlite.Sprintf(format, args...))
}

func (d *decoder) byte() (byte, error) {
	if d.pos >= len(d.b) {
		return 0, d.errorf("the ops end inside an op")
	}
	c := d.b[d.pos]
	d.pos++
	return c, nil
}

// id reads an id operand.
func (d *decoder) id() (uint64, error) { return d.uint() }

// peekOp returns the op at the read position without taking it; NumOps
// past the end.
func (d *decoder) peekOp() Op {
	if d.pos >= len(d.b) {
		return NumOps
	}
	return Op(d.b[d.pos])
}

func (d *decoder) uint() (uint64, error) {
	x, n := binary.Uvarint(d.b[d.pos:])
	if n <= 0 {
		return 0, d.errorf("bad LEB128 operand")
	}
	d.pos += n
	return x, nil
}

// count reads an operand that counts things that each take at least one
// byte of what is left, so that a corrupt count cannot make the decoder
// allocate without bound.
func (d *decoder) count() (int, error) {
	x, err := d.uint()
	if err != nil {
		return 0, err
	}
	if x > uint64(len(d.b)-d.pos) {
		return 0, d.errorf("count %d exceeds the %d bytes left", x, len(d.b)-d.pos)
	}
	return int(x), nil
}

func (d *decoder) held(id uint64) (*Node, error) {
	if d.plain {
		return nil, d.errorf("identity op in an output without a table")
	}
	n := d.t.Held[id]
	if n == nil {
		return nil, fmtlite.Errorf("wire: at byte %d: object %d: %w", d.at, id, ErrUnknown)
	}
	return n, nil
}

func (d *decoder) register(id uint64, n *Node) error {
	if d.plain {
		return d.errorf("identity op in an output without a table")
	}
	if d.t.Held == nil {
		d.t.Held = map[uint64]*Node{}
	}
	d.t.Held[id] = n
	return nil
}

// text takes the n code units of the string area before those taken so
// far: the strings are in it last first.
func (d *decoder) text(n uint64) (string, error) {
	if n > uint64(d.cur) {
		return "", d.errorf("string of %d code units past the string area's start", n)
	}
	d.cur -= int(n)
	return unitsToString(d.units[d.cur : d.cur+int(n)]), nil
}

// unitsToString returns code units as UTF-8, lone surrogates in their
// three-byte form.
func unitsToString(u []uint16) string {
	b := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if utf16.IsSurrogate(c) && c < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] < 0xE000 {
			b = utf8.AppendRune(b, utf16.DecodeRune(c, rune(u[i+1])))
			i++
			continue
		}
		if utf16.IsSurrogate(c) {
			b = append(b, 0xE0|byte(c>>12), 0x80|byte(c>>6&0x3F), 0x80|byte(c&0x3F))
			continue
		}
		b = utf8.AppendRune(b, c)
	}
	return string(b)
}

// str reads a string op's operand and text: op is OpString or
// OpStringJSON.
func (d *decoder) str(op Op) (string, error) {
	n, err := d.uint()
	if err != nil {
		return "", err
	}
	s, err := d.text(n)
	if err != nil || op == OpString {
		return s, err
	}
	v, err := value.ParseString(s)
	if err != nil || v.Kind() != value.String {
		return "", d.errorf("STRING_JSON %q is not a JSON string", s)
	}
	return v.Str(), nil
}

// key reads a key: a string op.
func (d *decoder) key() (string, error) {
	d.at = d.pos
	c, err := d.byte()
	if err != nil {
		return "", err
	}
	if op := Op(c); op == OpString || op == OpStringJSON {
		d.o.Counts[op]++
		return d.str(op)
	}
	return "", d.errorf("%s where a key belongs", Op(c))
}

// members reads n keys and values into obj, setting a key it has.
func (d *decoder) members(obj *Node, n int) error {
	for range n {
		k, err := d.key()
		if err != nil {
			return err
		}
		v, err := d.value()
		if err != nil {
			return err
		}
		set(obj, k, v)
	}
	return nil
}

func set(obj *Node, k string, v *Node) {
	for i := range obj.Keys {
		if obj.Keys[i] == k {
			obj.Vals[i] = v
			return
		}
	}
	obj.Keys = append(obj.Keys, k)
	obj.Vals = append(obj.Vals, v)
}

func (d *decoder) value() (*Node, error) {
	d.at = d.pos
	c, err := d.byte()
	if err != nil {
		return nil, err
	}
	if Op(c) < NumOps {
		d.o.Counts[c]++
	}
	switch op := Op(c); op {
	case OpUndefined:
		return &Node{Kind: Undefined}, nil
	case OpNull:
		return &Node{Kind: Null}, nil
	case OpFalse, OpTrue:
		return &Node{Kind: Bool, Bool: op == OpTrue}, nil
	case OpInt:
		u, err := d.uint()
		if err != nil {
			return nil, err
		}
		if u > math.MaxUint32 {
			return nil, d.errorf("INT operand %d exceeds 32 bits", u)
		}
		z := uint32(u)
		return &Node{Kind: Number, Num: float64(int32(z>>1) ^ -int32(z&1))}, nil
	case OpFloat:
		if len(d.b)-d.pos < 8 {
			return nil, d.errorf("FLOAT past the end of the ops")
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.pos:]))
		d.pos += 8
		return &Node{Kind: Number, Num: f}, nil
	case OpString, OpStringJSON:
		s, err := d.str(op)
		if err != nil {
			return nil, err
		}
		return &Node{Kind: String, Str: s}, nil
	case OpArray:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		a := &Node{Kind: Array, Elems: make([]*Node, n)}
		for i := range a.Elems {
			if a.Elems[i], err = d.value(); err != nil {
				return nil, err
			}
		}
		return a, nil
	case OpObject:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		obj := &Node{Kind: Object}
		return obj, d.members(obj, n)
	case OpDefineShape:
		id, err := d.uint()
		if err != nil {
			return nil, err
		}
		if id > uint64(len(d.t.Shapes)) {
			return nil, d.errorf("DEFINE_SHAPE %d skips shape %d", id, len(d.t.Shapes))
		}
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		keys := make([]string, n)
		for i := range keys {
			if keys[i], err = d.key(); err != nil {
				return nil, err
			}
		}
		if id == uint64(len(d.t.Shapes)) {
			d.t.Shapes = append(d.t.Shapes, keys)
		} else {
			d.t.Shapes[id] = keys
		}
		return d.value()
	case OpShaped:
		id, err := d.uint()
		if err != nil {
			return nil, err
		}
		if id >= uint64(len(d.t.Shapes)) {
			return nil, fmtlite.Errorf("wire: at byte %d: shape %d: %w", d.at, id, ErrUnknown)
		}
		keys := d.t.Shapes[id]
		obj := &Node{Kind: Object, Vals: make([]*Node, 0, len(keys))}
		for _, k := range keys {
			v, err := d.value()
			if err != nil {
				return nil, err
			}
			set(obj, k, v)
		}
		return obj, nil
	case OpRegister:
		id, err := d.id()
		if err != nil {
			return nil, err
		}
		d.building = append(d.building, id)
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		d.built(id, v)
		return v, d.register(id, v)
	case OpBackRef:
		id, err := d.id()
		if err != nil {
			return nil, err
		}
		if !slices.Contains(d.building, id) {
			return nil, d.errorf("BACKREF %d: no object %d is being built", id, id)
		}
		d.holes++
		return &Node{Kind: Object, backRef: id + 1}, nil
	case OpRef:
		id, err := d.id()
		if err != nil {
			return nil, err
		}
		return d.held(id)
	case OpDate:
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		if v.Kind != Number && v.Kind != String {
			return nil, d.errorf("DATE of a %d, not a number or string", v.Kind)
		}
		return &Node{Kind: Date, Of: v}, nil
	case OpKeptList:
		return d.keptList()
	case OpClass:
		c, err := d.uint()
		if err != nil {
			return nil, err
		}
		if c == 0 {
			return nil, d.errorf("CLASS 0")
		}
		switch next := d.peekOp(); next {
		case OpShaped, OpDefineShape, OpObject:
		default:
			return nil, d.errorf("CLASS before %s, not an object", next)
		}
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		v.Class = c
		return v, nil
	case OpConvert:
		f, err := d.uint()
		if err != nil {
			return nil, err
		}
		if f == 0 {
			return nil, d.errorf("CONVERT 0")
		}
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		// A copy: a converted value is a new value, even of a node held.
		c := *v
		c.Convert = f
		return &c, nil
	case OpOver:
		prev, err := d.id()
		if err != nil {
			return nil, err
		}
		id, err := d.id()
		if err != nil {
			return nil, err
		}
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		p, err := d.held(prev)
		if err != nil {
			return nil, err
		}
		if p.Kind != Object {
			return nil, d.errorf("OVER of object %d, which is not an object", prev)
		}
		obj := &Node{Kind: Object, Keys: append([]string(nil), p.Keys...), Vals: append([]*Node(nil), p.Vals...), Class: p.Class}
		d.building = append(d.building, id)
		if err := d.members(obj, n); err != nil {
			return nil, err
		}
		d.built(id, obj)
		return obj, d.register(id, obj)
	default:
		return nil, d.errorf("%s where a value belongs", op)
	}
}

// built ends the building of n, registered as id: the OpBackRef
// placeholders for id inside it become n, so that the graph is cyclic as
// JavaScript's is.
func (d *decoder) built(id uint64, n *Node) {
	d.building = d.building[:len(d.building)-1]
	if d.holes == 0 {
		return
	}
	seen := map[*Node]bool{}
	var fill func(x *Node)
	fill = func(x *Node) {
		if seen[x] {
			return
		}
		seen[x] = true
		for _, kids := range [2][]*Node{x.Elems, x.Vals} {
			for i, k := range kids {
				if k.backRef == id+1 {
					kids[i] = n
					d.holes--
				} else {
					fill(k)
				}
			}
		}
	}
	fill(n)
}

func (d *decoder) keptList() (*Node, error) {
	at := d.at
	id, err := d.id()
	if err != nil {
		return nil, err
	}
	depth, err := d.count()
	if err != nil {
		return nil, err
	}
	base, err := d.held(id)
	if err != nil {
		return nil, err
	}
	for range depth {
		k, err := d.key()
		if err != nil {
			return nil, err
		}
		if base != nil && base.Kind == Object {
			base = base.Get(k)
		} else {
			base = nil
		}
	}
	d.at = at
	if base == nil || base.Kind != Array {
		return nil, d.errorf("KEPT_LIST: object %d has no array at its path", id)
	}
	// Kept runs take no bytes per element: n is bounded by the previous
	// array's length besides the bytes left.
	u, err := d.uint()
	if err != nil {
		return nil, err
	}
	if u > uint64(len(d.b)-d.pos+len(base.Elems)) {
		return nil, d.errorf("KEPT_LIST of %d elements, more than its bytes and previous array hold", u)
	}
	n := int(u)
	a := &Node{Kind: Array, Elems: make([]*Node, n)}
	for i := 0; i < n; {
		if d.pos < len(d.b) && Op(d.b[d.pos]) == OpKeep {
			d.at = d.pos
			d.pos++
			k, err := d.uint()
			if err != nil {
				return nil, err
			}
			if k == 0 || k > uint64(n-i) || k > uint64(len(base.Elems)-i) {
				return nil, d.errorf("KEEP %d at index %d of %d (previous array: %d)", k, i, n, len(base.Elems))
			}
			copy(a.Elems[i:], base.Elems[i:i+int(k)])
			i += int(k)
			d.o.Counts[OpKeep]++
			d.o.Kept += int(k)
			continue
		}
		if a.Elems[i], err = d.value(); err != nil {
			return nil, err
		}
		i++
	}
	return a, nil
}

// drop reads the trailing OpDrop.
func (d *decoder) drop() error {
	d.at = d.pos
	c, err := d.byte()
	if err != nil {
		return err
	}
	if Op(c) != OpDrop {
		return d.errorf("%s after the value", Op(c))
	}
	d.o.Counts[OpDrop]++
	n, err := d.count()
	if err != nil {
		return err
	}
	if d.plain {
		return d.errorf("DROP in an output without a table")
	}
	for range n {
		id, err := d.id()
		if err != nil {
			return err
		}
		delete(d.t.Held, id)
	}
	return nil
}

// String returns n as JSON-like text for test failures: a Date as Date(x),
// undefined as undefined, a reference back to an object being shown as
// <cycle>.
func (n *Node) String() string { return string(n.appendJSON(nil, nil, nil, nil, true)) }

// Mark is what AppendJSON reports at a path: a value JSON cannot hold.
type Mark int

const (
	// MarkDate is a Date, written as its argument.
	MarkDate Mark = iota
	// MarkUndefined is an undefined member or element, written as null.
	MarkUndefined
)

// AppendJSON appends n as JSON that JSON.parse reads back to the same
// value (-0 as -0, infinities as ±1e400), but for Dates (written as their
// argument) and undefined members and elements (written as null): for each
// it calls mark, when not nil, with the path to it (keys and indices), so
// a reader can restore them. path is the path to n. JSON has no cycles: it
// panics when n contains itself (an output with OpBackRef).
func (n *Node) AppendJSON(b []byte, path []any, mark func(m Mark, path []any)) []byte {
	return n.appendJSON(b, path, mark, nil, false)
}

// appendJSON is AppendJSON with open, the objects and arrays being written
// around n; text is String's form.
func (n *Node) appendJSON(b []byte, path []any, mark func(Mark, []any), open []*Node, text bool) []byte {
	if (n.Kind == Array || n.Kind == Object) && slices.Contains(open, n) {
		if !text {
			panic(fmtlite.Sprintf("wire: AppendJSON at %v: the value contains itself", path))
		}
		return append(b, "<cycle>"...)
	}
	switch n.Kind {
	case Undefined:
		if text {
			return append(b, "undefined"...)
		}
		if mark != nil {
			mark(MarkUndefined, append([]any(nil), path...))
		}
		return append(b, "null"...)
	case Null:
		return append(b, "null"...)
	case Bool:
		return strconv.AppendBool(b, n.Bool)
	case Number:
		return appendNumber(b, n.Num)
	case String:
		return value.AppendString(b, n.Str)
	case Date:
		if text {
			return append(n.Of.appendJSON(append(b, "Date("...), path, nil, open, text), ')')
		}
		if mark != nil {
			mark(MarkDate, append([]any(nil), path...))
		}
		return n.Of.appendJSON(b, path, nil, open, text)
	case Array:
		open = append(open, n)
		b = append(b, '[')
		for i, e := range n.Elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendJSON(b, append(path, i), mark, open, text)
		}
		return append(b, ']')
	case Object:
		open = append(open, n)
		b = append(b, '{')
		for i, k := range n.Keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = value.AppendString(b, k)
			b = append(b, ':')
			b = n.Vals[i].appendJSON(b, append(path, k), mark, open, text)
		}
		return append(b, '}')
	}
	return b
}

func appendNumber(b []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(b, "1e400"...)
	case math.IsInf(f, -1):
		return append(b, "-1e400"...)
	case f == 0 && math.Signbit(f):
		return append(b, "-0"...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}
