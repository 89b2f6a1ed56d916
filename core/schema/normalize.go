package schema

import (
	"fmt"
	"sort"
	"time"

	"github.com/datafetch/datafetch/core/value"
)

// Normalized is a response taken apart: the result with every entity
// replaced by its primary key, and the entity records to store.
type Normalized struct {
	Result   value.Value
	Entities []EntityWrite
}

// EntityWrite is one entity record produced by normalization.
type EntityWrite struct {
	Entity *Entity
	PK     string
	// Value is the record with nested entities replaced by their keys.
	Value value.Value
	// Deleted marks the entity deleted (from an Invalidate schema).
	Deleted bool
}

// Normalize takes data apart by s. A nil schema leaves data as the result
// with no entities. Errors are *Error and name the schema and the path of
// the offending value; on error nothing is returned to store, so a caller's
// store stays as it was.
func Normalize(s Schema, data value.Value) (*Normalized, error) {
	if s == nil {
		return &Normalized{Result: data}, nil
	}
	if e, ok := s.(*Entity); ok && (data.Kind() == value.String || data.Kind() == value.Number) {
		// A bare key stands for a record only inside a response: as the
		// whole response it is a server answering something else ("OK",
		// a count), and reading it back would give nothing.
		return nil, errorAt(nil, e, "expected a record (object), got %s", data.Kind())
	}
	n := &normalizer{}
	res, err := s.normalize(data, value.Undef, nil, n)
	if err != nil {
		return nil, err
	}
	return &Normalized{Result: res, Entities: n.writes}, nil
}

// Merged returns one write per entity, in order of first appearance, with
// the records of an entity repeated in the response merged by its Merge rule
// (a later deletion wins). It is the shape tools want, such as a devtools
// view of a response; the store gets the same outcome from the full list.
func (n *Normalized) Merged() []EntityWrite {
	type id struct{ key, pk string }
	index := make(map[id]int, len(n.Entities))
	out := make([]EntityWrite, 0, len(n.Entities))
	for _, w := range n.Entities {
		k := id{w.Entity.Key, w.PK}
		i, ok := index[k]
		if !ok {
			index[k] = len(out)
			out = append(out, w)
			continue
		}
		if prev := &out[i]; w.Deleted || prev.Deleted {
			*prev = w
		} else {
			prev.Value = w.Entity.merge(prev.Value, w.Value)
		}
	}
	return out
}

type normalizer struct {
	writes []EntityWrite
}

// add lists one record. A record that appears several times in a response is
// listed each time; storing the writes in order merges them, with the same
// rules as any two writes.
func (n *normalizer) add(w EntityWrite) { n.writes = append(n.writes, w) }

func (p *pathElem) fieldKey() string {
	if p == nil || p.index >= 0 {
		return ""
	}
	return p.key
}

func (e *Entity) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if in.Kind() == value.String || in.Kind() == value.Number {
		// A bare key stands for a record stored elsewhere.
		pk, _ := in.Text()
		return value.Str(pk), nil
	}
	rec, pk, err := e.record(in, parent, path)
	if err != nil {
		return value.Undef, err
	}
	var members []value.Member // copied on the first nested change
	for _, f := range e.nestedFields() {
		i, child := memberIndex(rec, f.Name)
		if i < 0 {
			continue
		}
		out, err := f.Schema.normalize(child, rec, &pathElem{parent: path, key: f.Name, index: -1}, n)
		if err != nil {
			return value.Undef, err
		}
		if members == nil {
			members = append([]value.Member(nil), rec.Members()...)
		}
		members[i].Value = out
	}
	if members != nil {
		rec = value.Obj(members...)
	}
	n.add(EntityWrite{Entity: e, PK: pk, Value: rec})
	return value.Str(pk), nil
}

// record applies Process and finds the primary key of a raw record.
func (e *Entity) record(in, parent value.Value, path *pathElem) (value.Value, string, error) {
	if e.Process != nil {
		out, err := e.Process(in, parent, path.fieldKey())
		if err != nil {
			return value.Undef, "", errorAt(path, e, "process: %v", err)
		}
		in = out
	}
	if in.Kind() != value.Object {
		return value.Undef, "", errorAt(path, e, "expected a record (object), got %s", in.Kind())
	}
	pk, ok, err := e.PKOf(in, parent, path.fieldKey())
	if err != nil {
		return value.Undef, "", errorAt(path, e, "%v", err)
	}
	if !ok || pk == "" {
		// An empty key is no key, as in data-client: it cannot tell
		// records apart.
		return value.Undef, "", &Error{Path: path.String(), Schema: e.Key,
			Msg: fmt.Sprintf("%v (field %q)", ErrNoPK, e.pkField()), Err: ErrNoPK}
	}
	return in, pk, nil
}

// nestedFields lists Schema in a fixed order, computed once: an Entity is
// not changed after first use.
func (e *Entity) nestedFields() []Field {
	e.prepare()
	return e.nested
}

func (e *Entity) prepare() {
	e.once.Do(func() {
		for name, s := range e.Schema {
			e.nested = append(e.nested, Field{Name: name, Schema: s})
		}
		sort.Slice(e.nested, func(i, j int) bool { return e.nested[i].Name < e.nested[j].Name })
		e.defaultKeys = make(map[string]bool, e.Defaults.Len())
		for _, m := range e.Defaults.Members() {
			e.defaultKeys[m.Key] = true
		}
	})
}

func memberIndex(v value.Value, key string) (int, value.Value) {
	for i, m := range v.Members() {
		if m.Key == key {
			return i, m.Value
		}
	}
	return -1, value.Undef
}

func (a *Array) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if in.Kind() != value.Array {
		return value.Undef, errorAt(path, a, "expected an array, got %s", in.Kind())
	}
	out := make([]value.Value, in.Len())
	for i, el := range in.Elems() {
		v, err := a.Of.normalize(el, in, &pathElem{parent: path, index: i}, n)
		if err != nil {
			return value.Undef, err
		}
		out[i] = v
	}
	return value.Arr(out...), nil
}

func (o *Object) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if in.Kind() != value.Object {
		return value.Undef, errorAt(path, o, "expected an object, got %s", in.Kind())
	}
	var members []value.Member
	for _, f := range o.Fields {
		if f.Schema == nil {
			continue
		}
		i, child := memberIndex(in, f.Name)
		if i < 0 {
			continue
		}
		out, err := f.Schema.normalize(child, in, &pathElem{parent: path, key: f.Name, index: -1}, n)
		if err != nil {
			return value.Undef, err
		}
		if members == nil {
			members = append([]value.Member(nil), in.Members()...)
		}
		members[i].Value = out
	}
	if members == nil {
		return in, nil
	}
	return value.Obj(members...), nil
}

func (v *Values) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if in.Kind() != value.Object {
		return value.Undef, errorAt(path, v, "expected an object, got %s", in.Kind())
	}
	members := make([]value.Member, in.Len())
	for i, m := range in.Members() {
		out, err := v.Of.normalize(m.Value, in, &pathElem{parent: path, key: m.Key, index: -1}, n)
		if err != nil {
			return value.Undef, err
		}
		members[i] = value.M(m.Key, out)
	}
	return value.Obj(members...), nil
}

func (u *Union) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if in.Kind() != value.Object {
		return value.Undef, errorAt(path, u, "expected a record (object), got %s", in.Kind())
	}
	name, e, err := u.choose(in, parent, path)
	if err != nil {
		return value.Undef, err
	}
	pk, err := e.normalize(in, parent, path, n)
	if err != nil {
		return value.Undef, err
	}
	return value.Obj(value.M("id", pk), value.M("schema", value.Str(name))), nil
}

func (u *Union) choose(in, parent value.Value, path *pathElem) (string, *Entity, error) {
	var name string
	if u.AttributeFunc != nil {
		name = u.AttributeFunc(in, parent, path.fieldKey())
	} else {
		var ok bool
		if name, ok = in.Get(u.Attribute).Text(); !ok {
			return "", nil, errorAt(path, u, "record has no %q member to choose its schema", u.Attribute)
		}
	}
	e := u.Schemas[name]
	if e == nil {
		return "", nil, errorAt(path, u, "no schema for %q", name)
	}
	return name, e, nil
}

func (i *Invalidate) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	var pk string
	switch in.Kind() {
	case value.String, value.Number:
		pk, _ = in.Text()
	case value.Object:
		var err error
		if _, pk, err = i.Entity.record(in, parent, path); err != nil {
			return value.Undef, err
		}
	default:
		return value.Undef, errorAt(path, i, "expected a record or a primary key, got %s", in.Kind())
	}
	n.add(EntityWrite{Entity: i.Entity, PK: pk, Deleted: true})
	return value.Str(pk), nil
}

func (dateSchema) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	switch in.Kind() {
	case value.Undefined, value.Null, value.Number:
		return in, nil
	case value.String:
		ms, err := ParseDate(in.Str())
		if err != nil {
			return value.Undef, errorAt(path, Date, "%v", err)
		}
		return value.Int(ms), nil
	}
	return value.Undef, errorAt(path, Date, "expected an ISO-8601 string or epoch milliseconds, got %s", in.Kind())
}

var dateLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02"}

// ParseDate reads an ISO-8601 date or date-time as epoch milliseconds. A
// time without a zone is taken as UTC.
func ParseDate(s string) (int64, error) {
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UnixMilli(), nil
		}
	}
	return 0, fmt.Errorf("invalid date %q: want ISO-8601", s)
}
