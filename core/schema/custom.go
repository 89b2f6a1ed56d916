package schema

import (
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Custom is a schema whose normalize and denormalize are the front end's
// own: data-client's custom schema classes (any object with normalize and
// denormalize methods). Its callbacks get a Visit to normalize nested
// values by other schemas and an Unvisit to read them, so what they nest
// is stored and read as everywhere else. The cache holds what Normalize
// returns; a read gets what Denormalize returns, as plain data.
type Custom struct {
	// Name names the schema in errors (its class's name).
	Name string
	// Normalize returns the normalized form of in, the member key of
	// parent (a list's key for its elements).
	Normalize func(in, parent value.Value, key string, v *Visit) (value.Value, error)
	// Denormalize returns what a read of the normalized in gives. Its
	// error fails the read.
	Denormalize func(in value.Value, u *Unvisit) (value.Value, error)
}

func (c *Custom) describe() string { return "custom(" + c.Name + ")" }

// Visit is what a Custom's Normalize normalizes nested values with.
type Visit struct {
	n    *normalizer
	path *pathElem
}

// Visit returns in, the member key of parent, normalized by s (in itself
// when s is nil), storing the records it holds as any response's.
func (v *Visit) Visit(s Schema, in, parent value.Value, key string) (value.Value, error) {
	if s == nil {
		return in, nil
	}
	return s.normalize(in, parent, v.n.child(v.path, key, -1), v.n)
}

// MergeEntity stores rec, already normalized, as the record pk of e,
// merged with what is stored as any record of e is.
func (v *Visit) MergeEntity(e *Entity, pk string, rec value.Value) {
	v.n.add(EntityWrite{Entity: e, PK: pk, Value: rec})
}

// Invalidate marks the record pk of e deleted, as an Invalidate schema
// does.
func (v *Visit) Invalidate(e *Entity, pk string) {
	v.n.add(EntityWrite{Entity: e, PK: pk, Deleted: true})
}

// Args returns the request's args as a list.
func (v *Visit) Args() value.Value { return v.n.argList() }

// Unvisit is what a Custom's Denormalize reads nested values with.
type Unvisit struct {
	d  *denormalizer
	st Status
}

// Unvisit returns the read of the normalized in by s (in itself when s is
// nil). An entity that is not stored reads as undefined; one that was
// deleted makes the whole read need a fetch, as anywhere else.
func (u *Unvisit) Unvisit(s Schema, in value.Value) value.Value {
	if s == nil {
		return in
	}
	out, st := s.denormalize(in, u.d)
	if st == Deleted {
		u.st = Deleted
	}
	if st != Found && !out.IsUndefined() && isIdentifying(s) {
		return value.Undef
	}
	return out
}

// Args returns the read's args as a list.
func (u *Unvisit) Args() value.Value { return u.d.args.List() }

// isIdentifying reports whether s reads a stored record in its place.
func isIdentifying(s Schema) bool {
	switch s.(type) {
	case *Entity, *Invalidate, *Union:
		return true
	}
	return false
}

func (c *Custom) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	out, err := c.Normalize(in, parent, path.fieldKey(), &Visit{n: n, path: path})
	if err != nil {
		return value.Undef, &Error{Path: path.String(), Schema: c.describe(), Msg: err.Error(), Err: err}
	}
	return out, nil
}

func (c *Custom) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	u := &Unvisit{d: d}
	out, err := c.Denormalize(v, u)
	if err != nil {
		// No error result, as an entity's Valid: the entry point turns
		// the panic into the read's error.
		panic(fmtlite.Errorf("denormalize %s: %w", c.describe(), err))
	}
	return out, u.st
}
