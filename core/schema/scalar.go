package schema

import (
	"strconv"

	"github.com/datafetch/datafetch/core/value"
)

// Scalar marks a value that a front end turns into a value of its own kind
// when it reads it: a JavaScript class or function given as a field schema
// (Number, a Decimal class with fromJSON, Temporal.Instant.from). ID names
// the conversion to the front end, which keeps the table of them. The
// cache holds the value as it came: normalize and denormalize pass it
// through, and only the bridge that writes reads acts on it.
type Scalar struct{ ID uint32 }

// ScalarOf returns the Scalar schema of the front end's conversion id.
func ScalarOf(id uint32) *Scalar { return &Scalar{ID: id} }

func (s *Scalar) describe() string { return "scalar#" + strconv.FormatUint(uint64(s.ID), 10) }

func (s *Scalar) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	return in, nil
}

func (s *Scalar) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	return v, Found
}
