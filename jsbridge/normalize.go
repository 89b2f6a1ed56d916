//go:build js && wasm

package jsbridge

import (
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// normalize(schema, dataJSON, argsJSON, storeJSON) returns {result,
// entities}, plain data (dataJSON may be marked JSON: value.ParseMarked): entities[key][pk] is the normalized record, null when
// deleted. args are the endpoint's args, a JSON array ([params, body]: for
// Collections, and the pk and process of entities). storeJSON, when given,
// is the entity tables the data is normalized into: a Collection's adder
// (push and the rest) changes the matching collections there, and those
// are returned among the entities.
func normalizeEntry(args []safejs.Value) (any, error) {
	s, err := lookup[schema.Schema](arg(args, 0), "a schema")
	if err != nil {
		return nil, err
	}
	data, err := jsonArg(arg(args, 1), "normalize data")
	if err != nil {
		return nil, err
	}
	list, err := jsonArg(arg(args, 2), "normalize args")
	if err != nil {
		return nil, err
	}
	var a schema.Args
	if el := list.Elems(); len(el) > 0 {
		a.Params = el[0]
		if len(el) > 1 {
			a.Body = el[1]
		}
	}
	n, err := schema.NormalizeArgs(s, data, a)
	if err != nil {
		return nil, err
	}
	// One merged record per (key, pk), grouped by key in order of appearance.
	var keys []string
	records := map[string][]value.Member{}
	ws := n.Merged()
	if len(n.Collections) > 0 {
		stored, err := jsonArg(arg(args, 3), "normalize store")
		if err != nil {
			return nil, err
		}
		ws = append(ws, changedCollections(n.Collections, stored)...)
	}
	for _, w := range ws {
		rec := w.Record()
		if w.Deleted {
			rec = value.NullV
		}
		k := w.Entity.Key
		if _, ok := records[k]; !ok {
			keys = append(keys, k)
		}
		records[k] = append(records[k], value.M(w.PK, rec))
	}
	tables := make([]value.Member, len(keys))
	for i, k := range keys {
		tables[i] = value.M(k, value.Obj(records[k]...))
	}
	// On the wire, as plain data: an undefined member or element of the
	// result or a record stays undefined (data-client's [undefined, "1",
	// null]), which JSON text would drop or make null.
	return emitPlain(lib.decode, nil, value.Obj(value.M("result", n.Result), value.M("entities", value.Obj(tables...))), wire.Header{})
}

// denormalize(schema, resultJSON, entitiesJSON, argsJSON) returns the data,
// read from entities as normalize returns them with the endpoint's args
// (a JSON array, optional: they select the lenses of a Scalar), as a
// getResponse answer: its
// expiryStatus is "invalid" when a required entity is deleted (JavaScript
// answers data-client's INVALID then), "valid" otherwise.
func denormalizeEntry(args []safejs.Value) (any, error) {
	s, err := lookup[schema.Schema](arg(args, 0), "a schema")
	if err != nil {
		return nil, err
	}
	result, err := jsonArg(arg(args, 1), "denormalize result")
	if err != nil {
		return nil, err
	}
	tables, err := jsonArg(arg(args, 2), "denormalize entities")
	if err != nil {
		return nil, err
	}
	var list []value.Value
	if a := arg(args, 3); a.Type() == safejs.TypeString {
		l, err := jsonArg(a, "denormalize args")
		if err != nil {
			return nil, err
		}
		list = l.Elems()
	}
	v, st := schema.DenormalizeArgs(s, result, &tablesSource{tables: tables}, nil, 0, schema.ArgsOf(list))
	h := wire.Header{Response: true, Status: wire.StatusValid}
	if st == schema.Deleted {
		h.Status = wire.StatusInvalid
	}
	return emitPlain(lib.response, s, v, h)
}

// tablesSource reads entity slots from entities[key][pk] JSON; null is a
// deleted entity.
type tablesSource struct {
	tables value.Value
	slots  map[[2]string]*schema.Slot
}

func (t *tablesSource) Slot(key, pk string) *schema.Slot {
	id := [2]string{key, pk}
	if s, ok := t.slots[id]; ok {
		return s
	}
	var s *schema.Slot
	if rec := t.tables.Get(key).Get(pk); !rec.IsUndefined() {
		s = &schema.Slot{Key: key, PK: pk, Value: rec, Deleted: rec.IsNull(), Version: 1}
	}
	if t.slots == nil {
		t.slots = map[[2]string]*schema.Slot{}
	}
	t.slots[id] = s
	return s
}

// changedCollections applies a Collection adder's writes to the stored
// tables (entities[key][pk] JSON, null a deleted record), as the store
// applies them (core/store applyCollections), and returns each collection
// that changed as a write of its table. Each write starts from what the
// writes before it made (a move of several entities is a write each).
func changedCollections(writes []schema.CollectionWrite, stored value.Value) []schema.EntityWrite {
	var out []schema.EntityWrite
	at := map[[2]string]int{} // table key and pk → its write in out
	for _, cw := range writes {
		table := &schema.Entity{Key: cw.Key}
		old := value.Undef
		if m := cw.Move; m != nil {
			if rec := stored.Get(m.Key).Get(m.PK); !rec.IsNull() {
				old = rec
			}
		}
		for _, m := range stored.Get(cw.Key).Members() {
			if m.Value.IsNull() || cw.PK != "" && m.Key != cw.PK || cw.PK == "" && cw.Move == nil && !cw.Match(m.Key) {
				continue
			}
			id := [2]string{cw.Key, m.Key}
			cur := m.Value
			i, written := at[id]
			if written {
				cur = out[i].Value
			}
			var next value.Value
			if cw.Move != nil {
				next = cw.Move.Apply(old, m.Key, cur)
			} else {
				next = cw.Change(cur)
			}
			switch {
			case value.Same(next, cur):
			case written:
				out[i].Value = next
			default:
				at[id] = len(out)
				out = append(out, schema.EntityWrite{Entity: table, PK: m.Key, Value: next})
			}
		}
	}
	return out
}
