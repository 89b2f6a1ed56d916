package schema

import (
	"errors"
	"sync"

	"github.com/datafetch/datafetch/core/value"
)

// Lens is data-client's Scalar schema: entity fields whose values depend
// on the request, through a "lens" its args select (a portfolio, a
// currency, a locale). The values are kept apart from the entity's record,
// in cells of their own table (TableKey), one per entity record and lens
// value, under the compound key "entityKey|pk|lens"; the entity's record
// holds, for each such field, the lens-free reference [pk, field,
// entityKey]. A read picks the cell of the lens its args select, so one
// record reads with different values for different args.
//
// As a field of an Entity's Schema, the entity is the one whose field it
// is. Standalone, as the member of a Values, a list or a Collection of
// cells (a response of the lens-dependent columns only), Entity must be
// set: the map key (Values) or Entity's pk of each cell names the record
// it belongs to. Cells merge as entity records do: a shallow merge,
// reordered by fetchedAt.
//
// Configure it with the fields below, then use it only by pointer and do
// not change it.
type Lens struct {
	// Key names the lens (as "portfolio"); its cells are stored in the
	// table TableKey, "Scalar(Key)".
	Key string
	// Select returns the lens value of the request args (Args.List), ok
	// false when they select none. The value is part of the cells' keys:
	// it must not contain "|".
	Select func(args value.Value) (lens string, ok bool)
	// Entity is the entity the cells belong to when the Lens is used
	// standalone; nil for a Lens used only as entity fields. Its key and
	// its PKOf of a cell (unless the cell is a map's member) name the
	// record a standalone cell belongs to: an Entity of that key whose
	// PKFunc reads another field stands for data-client's entityPk
	// override.
	Entity *Entity

	once  sync.Once
	table *Entity
}

// TableKey is the key of the table the cells are stored in.
func (l *Lens) TableKey() string { return "Scalar(" + l.Key + ")" }

func (l *Lens) describe() string { return l.TableKey() }

// cells returns the table entity of the cells, whose records are merged
// as any entity's (shallow, fetchedAt order). Its pk is the compound key
// of a standalone cell (cellPK); fields' cells are written by
// normalizeField. Not inlined: its copies would weigh on datafetch.wasm.
//
//go:noinline
func (l *Lens) cells() *Entity {
	l.once.Do(func() {
		l.table = &Entity{Key: l.TableKey(), Defaults: value.Obj(), PKFunc: l.cellPK}
	})
	return l.table
}

// lensSep separates the parts of a cell's key.
const lensSep = "|"

// cellKey returns the key of the cell of record pk of entityKey for lens.
func cellKey(entityKey, pk, lens string) string {
	return entityKey + lensSep + pk + lensSep + lens
}

var (
	errNoLens  = errors.New("lens returned undefined: the endpoint's args must hold the lens value")
	errUnbound = errors.New("used standalone (as in schema.Values) it needs the entity option naming the Entity its cells belong to")
	errCellPK  = errors.New("cannot derive entity pk for the cell: give cells their entity's pk, key them by it (schema.Values), or override entityPk")
)

// cellPK returns the key of a standalone cell (a member of a Values or of
// a list): its entity's key, the pk of the record it belongs to, and the
// request's lens. That pk is the key of the map member that is the cell
// (Values: parent[key] is the cell; a list's members have the key of the
// list, which does not name them), else Entity's pk of the cell.
func (l *Lens) cellPK(cell, parent value.Value, key string, args value.Value) (string, bool, error) {
	if l.Entity == nil {
		return "", false, errUnbound
	}
	lens, ok := l.Select(args)
	if !ok {
		return "", false, errNoLens
	}
	pk := key
	var err error
	if parent.Get(key).Kind() != value.Object {
		pk, ok, err = l.Entity.PKOf(cell, parent, key, args)
	}
	if err != nil {
		return "", false, err
	}
	if !ok || pk == "" || pk == undefinedPK {
		return "", false, errCellPK
	}
	return cellKey(l.Entity.Key, pk, lens), true, nil
}

// normalizeField stores in, the field name of a record of e whose key is
// pk, in the cell of the request's lens, and returns the lens-free
// reference the record keeps in its place.
func (l *Lens) normalizeField(e *Entity, pk, name string, in value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	lens, ok := l.Select(n.argList())
	if !ok {
		return value.Undef, errorAt(path, l, "%v", errNoLens)
	}
	// One write per field: the store merges those of a cell in order.
	n.add(EntityWrite{Entity: l.cells(), PK: cellKey(e.Key, pk, lens), Value: value.Obj(value.M(name, in))})
	ref := make([]value.Value, 3)
	ref[0], ref[1], ref[2] = value.Str(pk), value.Str(name), value.Str(e.Key)
	return value.Arr(ref...), nil
}

// normalize stores a standalone cell, a record of the cells' table, and
// returns its key.
func (l *Lens) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	return l.cells().normalize(in, parent, path, n)
}

// denormalize reads a reference of an entity's field ([pk, field,
// entityKey]) as the field of the cell of the read's lens (undefined when
// the args select no lens or there is no such cell), and a standalone
// cell's key as the cell. Anything else is kept as it is: a value stored
// before the field was a Scalar.
func (l *Lens) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	switch v.Kind() {
	case value.String, value.Object:
		return l.cells().denormalize(v, d)
	case value.Array:
		if v.Len() == 3 {
			break
		}
		fallthrough
	default:
		return v, Found
	}
	lens, ok := d.lens(l)
	if !ok {
		return value.Undef, Found
	}
	ref := v.Elems()
	cell, _ := l.cells().denormalize(value.Str(cellKey(ref[2].Str(), ref[0].Str(), lens)), d)
	return cell.Get(ref[1].Str()), Found
}

// lensDep is a lens value a read depended on (ok false: the args selected
// none).
type lensDep struct {
	l   *Lens
	val string
	ok  bool
}

// lenses are the lens values of one read's args, each asked of its
// Select once per read.
type lenses struct {
	args Args
	got  []lensDep
}

// of returns the lens value of l for the read's args. Not inlined, as
// cells.
//
//go:noinline
func (ls *lenses) of(l *Lens) (string, bool) {
	for _, g := range ls.got {
		if g.l == l {
			return g.val, g.ok
		}
	}
	val, ok := l.Select(ls.args.List())
	ls.got = append(ls.got, lensDep{l, val, ok})
	return val, ok
}

// lens returns the lens value of l for the read, and makes what is being
// built depend on it.
func (d *denormalizer) lens(l *Lens) (string, bool) {
	val, ok := d.lenses.of(l)
	r := d.deps.more()
	r.lenses = append(r.lenses, lensDep{l, val, ok})
	return val, ok
}
