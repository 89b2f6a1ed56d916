package schema

import (
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Custom is a schema whose normalize and denormalize are the front end's
// own: data-client's custom schema classes (any object with normalize and
// denormalize methods). Its callback gets a Nest to normalize or read
// nested values by other schemas, so what they nest is stored and read as
// everywhere else. The cache holds what it returns when normalizing; a
// read gets what it returns when reading, as plain data.
type Custom struct {
	// Name names the schema in errors (its class's name).
	Name string
	// Call returns the normalized form of in, the member key of parent
	// (a list's key for its elements), or when c.Reading, what a read of
	// the normalized in gives (parent and key then unset). Its error
	// fails the request or the read.
	Call func(in, parent value.Value, key string, c *Nest) (value.Value, error)
}

func (c *Custom) describe() string { return "custom(" + c.Name + ")" }

// Nest is what a Custom's Call handles nested values with: it normalizes
// them while normalizing, reads them while reading.
type Nest struct {
	n    *normalizer
	path *pathElem
	d    *denormalizer
	st   Status
	// noEq makes Nest not comparable, so that no equality function is
	// compiled for it into datafetch.wasm.
	noEq [0]func()
}

// Reading reports whether the Call reads (denormalizes) rather than
// normalizes.
func (c *Nest) Reading() bool { return c.d != nil }

// Args returns the request's (or the read's) args as a list.
func (c *Nest) Args() value.Value {
	if c.d != nil {
		return c.d.args.List()
	}
	return c.n.argList()
}

// Nested returns in, the member key of parent, normalized by s, storing
// the records it holds as any response's; when reading, the read of the
// normalized in by s (parent and key unused): an entity that is not
// stored reads as undefined, one that was deleted makes the whole read
// need a fetch, as anywhere else. A nil s leaves in as it is.
func (c *Nest) Nested(s Schema, in, parent value.Value, key string) (value.Value, error) {
	if s == nil {
		return in, nil
	}
	if c.d == nil {
		depth := 0
		if c.path != nil {
			depth = c.path.depth + 1
		}
		return s.normalize(in, parent, &pathElem{parent: c.path, key: key, index: -1, depth: depth}, c.n)
	}
	out, st := s.denormalize(in, c.d)
	if st == Deleted {
		c.st = Deleted
	}
	if st != Found {
		switch s.(type) {
		case *Entity, *Invalidate, *Union:
			return value.Undef, nil
		}
	}
	return out, nil
}

// Store stores rec, already normalized, as the record pk of e, merged
// with what is stored as any record of e is; with deleted, it marks that
// record deleted instead, as an Invalidate schema does. Only while
// normalizing.
func (c *Nest) Store(e *Entity, pk string, rec value.Value, deleted bool) {
	if c.n != nil {
		c.n.add(EntityWrite{Entity: e, PK: pk, Value: rec, Deleted: deleted})
	}
}

func (c *Custom) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	out, err := c.Call(in, parent, path.fieldKey(), &Nest{n: n, path: path})
	if err != nil {
		return value.Undef, &Error{Path: path.String(), Schema: c.describe(), Msg: err.Error(), Err: err}
	}
	return out, nil
}

func (c *Custom) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	nest := &Nest{d: d}
	d.callerCode()
	out, err := c.Call(v, value.Undef, "", nest)
	if err != nil {
		// No error result, as an entity's Valid: the entry point turns
		// the panic into the read's error.
		panic(fmtlite.Errorf("denormalize %s: %w", c.describe(), err))
	}
	return out, nest.st
}
