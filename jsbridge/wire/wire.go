// Package wire is the format of a read's output on its way from Go to
// JavaScript: a header and a stream of ops in prefix order over a string
// area, which internal/wire.mjs (under jsbridge/js) turns into the objects
// the caller gets. SPEC.md beside this file is the specification: byte
// layout, every op, the shape table's lifetime, strings, numbers, ids.
//
// The package holds the op codes (defined here once; the JavaScript table
// internal/wireops.mjs is generated from them: go generate), the Writer the
// bridge's encoder writes with, and Decode, a reference decoder in Go that
// the tests compare the encoder and the JavaScript decoder against.
package wire

import "strconv"

//go:generate go test -run ^TestGeneratedJS$ -update .

// Op is an op's code, the first byte of every op in the stream.
type Op byte

// The ops. Operands are unsigned LEB128 (u) unless said otherwise; see
// SPEC.md section 3 for each.
const (
	// OpUndefined: the value is undefined (no data, as the top of a
	// result; a member or an element that is undefined).
	OpUndefined Op = iota
	// OpNull, OpFalse, OpTrue: the literals.
	OpNull
	OpFalse
	OpTrue
	// OpInt zigzag: a number in [-2^31, 2^31), zigzag-encoded.
	OpInt
	// OpFloat f64: a number, 8 bytes little-endian IEEE 754.
	OpFloat
	// OpString units: the next units UTF-16 code units of the string area.
	OpString
	// OpStringJSON units: the next units code units of the string area are
	// a JSON string literal, quotes included, which JSON.parse decodes.
	OpStringJSON
	// OpArray n, then n values.
	OpArray
	// OpObject n, then n times a key (OpString or OpStringJSON) and a value.
	OpObject
	// OpDefineShape id n, then n keys: defines shape id; a value follows.
	OpDefineShape
	// OpShaped id, then one value for each key of shape id, in its order.
	OpShaped
	// OpRegister id, then a value, which is registered under id once built.
	OpRegister
	// OpRef id: the object held under id.
	OpRef
	// OpDate, then a number or string value x: new Date(x).
	OpDate
	// OpKeptList id depth, depth keys, n, then n elements, among which
	// OpKeep runs: an array whose previous emission is the array reached
	// from the object held under id through the keys.
	OpKeptList
	// OpKeep k: inside an OpKeptList, the next k elements are those at the
	// same indices in the previous array.
	OpKeep
	// OpOver prev id n, then n times a key and a value: a shallow copy of
	// the object held under prev with those members set, registered as id.
	OpOver
	// OpDrop n, then n ids: forget those ids (after the value).
	OpDrop
	// OpClass c, then an object value (OpShaped, OpDefineShape, OpObject):
	// the object is built as an instance of class c, a number JavaScript
	// gave an entity class when it declared it (its prototype is the
	// class's).
	OpClass
	// OpConvert f, then a value: the value as JavaScript's conversion f
	// makes it (a field schema that is a class or function: Number, a
	// class with fromJSON, Temporal.Instant.from).
	OpConvert
	// OpBackRef id: the object that OpRegister (or OpOver) id is building,
	// an ancestor of this position: a cycle of entities (SPEC.md section
	// 4a). The decoder sets it in place once that object is built.
	OpBackRef

	// NumOps is the number of ops; not an op.
	NumOps
)

var opNames = [NumOps]string{
	OpUndefined:   "UNDEFINED",
	OpNull:        "NULL",
	OpFalse:       "FALSE",
	OpTrue:        "TRUE",
	OpInt:         "INT",
	OpFloat:       "FLOAT",
	OpString:      "STRING",
	OpStringJSON:  "STRING_JSON",
	OpArray:       "ARRAY",
	OpObject:      "OBJECT",
	OpDefineShape: "DEFINE_SHAPE",
	OpShaped:      "SHAPED",
	OpRegister:    "REGISTER",
	OpRef:         "REF",
	OpDate:        "DATE",
	OpKeptList:    "KEPT_LIST",
	OpKeep:        "KEEP",
	OpOver:        "OVER",
	OpDrop:        "DROP",
	OpClass:       "CLASS",
	OpConvert:     "CONVERT",
	OpBackRef:     "BACKREF",
}

// String returns the op's name, as JavaScript's table spells it (OP_NAME).
func (o Op) String() string {
	if o < NumOps {
		return opNames[o]
	}
	return "op(" + strconv.Itoa(int(o)) + ")"
}

// Header layout: HeaderSize bytes before the ops.
const (
	// Version is the format's version, the header's first byte.
	Version = 3
	// HeaderSize is the length of the header in bytes.
	HeaderSize = 16
)

// Header flags (byte 1).
const (
	// FlagResponse: the output answers getResponse; status and expiresAt
	// are set.
	FlagResponse = 1 << iota
	// FlagAfterExpiry: AfterExpiry is set.
	FlagAfterExpiry
	// FlagErrorKept: an error of the result's last fetch is kept.
	FlagErrorKept
)

// Status is an expiry status as the header codes it.
type Status byte

// The statuses, in the order of StatusNames.
const (
	StatusNone Status = iota
	StatusValid
	StatusStale
	StatusInvalid
	StatusMissing

	numStatuses
)

// StatusNames are the statuses as JavaScript sees them, by code.
var StatusNames = [numStatuses]string{"", "valid", "stale", "invalid", "missing"}

// StatusOf returns the code of the status named name; StatusNone when it
// names none.
func StatusOf(name string) Status {
	for i, n := range StatusNames {
		if i > 0 && n == name {
			return Status(i)
		}
	}
	return StatusNone
}

// Header is what an output says besides its value: for a getResponse
// read, the result's status, when it expires, the status it turns to then,
// and whether an error of its last fetch is kept.
type Header struct {
	Response    bool
	Status      Status
	ExpiresAt   float64
	AfterExpiry Status // StatusNone: none
	ErrorKept   bool
}

// Limits of the shape table.
const (
	// MaxShapeKeys is the most keys a shape has; larger objects are written
	// with OpObject.
	MaxShapeKeys = 64
	// MaxShapes is the most shapes a table defines; once full, new key
	// lists are written with OpObject until the table is reset.
	MaxShapes = 4096
)
