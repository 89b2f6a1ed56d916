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
	// standalone; nil for a Lens used only as entity fields.
	Entity *Entity
	// EntityPK, when set, replaces the default way a standalone cell
	// names its record (data-client's entityPk override): the map key
	// that holds it, else Entity's pk of the cell.
	EntityPK func(cell, parent value.Value, key string, args value.Value) (pk string, ok bool, err error)

	once  sync.Once
	table *Entity
}

// TableKey is the key of the table the cells are stored in.
func (l *Lens) TableKey() string { return "Scalar(" + l.Key + ")" }

func (l *Lens) describe() string { return l.TableKey() }

// cells returns the table entity of the cells: records with no primary
// key field of their own (their key is compound), merged by the entity
// defaults (shallow, fetchedAt order).
func (l *Lens) cells() *Entity {
	l.once.Do(func() {
		l.table = &Entity{Key: l.TableKey(), Defaults: value.Obj(), PKFunc: noPK}
	})
	return l.table
}

// noPK is the PKFunc of a cell table: a cell's key is made by its Lens,
// never read from the cell.
func noPK(value.Value, value.Value, string, value.Value) (string, bool, error) { return "", false, nil }

// lensSep separates the parts of a cell's key.
const lensSep = "|"

// cellKey returns the key of the cell of record pk of entityKey for lens.
func cellKey(entityKey, pk, lens string) string {
	return entityKey + lensSep + pk + lensSep + lens
}

// check reports a Lens that cannot be used.
func (l *Lens) check() error {
	switch {
	case l.Key == "":
		return errors.New("scalar has no key")
	case l.Select == nil:
		return errors.New("scalar " + l.Key + " has no lens")
	}
	return nil
}

// lensOf returns the lens of the request being normalized, which must
// have one: its cells could not be found again without it.
func (l *Lens) lensOf(path *pathElem, n *normalizer) (string, error) {
	lens, ok := l.Select(n.argList())
	if !ok {
		return "", errorAt(path, l, "lens returned undefined: the endpoint's args must hold the lens value")
	}
	return lens, nil
}

// normalizeField stores in, the field name of a record of e whose key is
// pk, in the cell of the request's lens, and returns the lens-free
// reference the record keeps in its place.
func (l *Lens) normalizeField(e *Entity, pk, name string, in value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	lens, err := l.lensOf(path, n)
	if err != nil {
		return value.Undef, err
	}
	// One write per field: the store merges those of a cell in order.
	n.add(EntityWrite{Entity: l.cells(), PK: cellKey(e.Key, pk, lens), Value: value.Obj(value.M(name, in))})
	return value.Arr(value.Str(pk), value.Str(name), value.Str(e.Key)), nil
}

// normalize stores a standalone cell (a member of a Values or of a list)
// and returns its key.
func (l *Lens) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	if l.Entity == nil {
		return value.Undef, errorAt(path, l, "used standalone (as in schema.Values) it needs the entity option naming the Entity its cells belong to")
	}
	if in.Kind() != value.Object {
		return value.Undef, errorAt(path, l, "expected a cell (object), got %s", in.Kind())
	}
	lens, err := l.lensOf(path, n)
	if err != nil {
		return value.Undef, err
	}
	pk, ok, err := l.entityPK(in, parent, path, n)
	if err != nil {
		return value.Undef, errorAt(path, l, "entityPk: %v", err)
	}
	if !ok || pk == "" || pk == undefinedPK {
		return value.Undef, errorAt(path, l, "cannot derive entity pk for the cell: give cells %s's pk, key them by it (schema.Values), or override entityPk", l.Entity.Key)
	}
	key := cellKey(l.Entity.Key, pk, lens)
	n.add(EntityWrite{Entity: l.cells(), PK: key, Value: in})
	return value.Str(key), nil
}

// entityPK returns the pk of the record a standalone cell belongs to:
// EntityPK's, else the key of the map member that is the cell (Values),
// else Entity's pk of the cell. A list's members have the key of the
// list's member, which does not name them: they are not map members.
func (l *Lens) entityPK(in, parent value.Value, path *pathElem, n *normalizer) (string, bool, error) {
	key := path.fieldKey()
	if l.EntityPK != nil {
		return l.EntityPK(in, parent, key, n.argList())
	}
	if path != nil && path.index < 0 {
		// A member of an object (a Values): parent[key] is the cell.
		return key, true, nil
	}
	var args value.Value
	if l.Entity.PKFunc != nil {
		args = n.argList()
	}
	return l.Entity.PKOf(in, parent, key, args)
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
	default:
		return v, Found
	}
	ref := v.Elems()
	if len(ref) != 3 {
		return v, Found
	}
	lens, ok := d.lens(l)
	if !ok {
		return value.Undef, Found
	}
	pk, field, entityKey := ref[0].Str(), ref[1].Str(), ref[2].Str()
	slot := d.slot(l.TableKey(), cellKey(entityKey, pk, lens))
	r := d.deps.more()
	if slot == nil {
		r.absent = append(r.absent, entityRef{l.TableKey(), cellKey(entityKey, pk, lens)})
		return value.Undef, Found
	}
	r.slots = append(r.slots, depOn(slot))
	if slot.Deleted || slot.Value.Kind() != value.Object {
		return value.Undef, Found
	}
	return slot.Value.Get(field), Found
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
	args value.Value // Args.List of the read; Undefined: none given
	got  []lensDep
}

// of returns the lens value of l for the read's args.
func (ls *lenses) of(l *Lens) (string, bool) {
	for _, g := range ls.got {
		if g.l == l {
			return g.val, g.ok
		}
	}
	args := ls.args
	if args.IsUndefined() {
		args = value.Arr()
	}
	val, ok := l.Select(args)
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
