package schema

import (
	"errors"
	"strings"

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
// Make it with LensOf and use it only by pointer.
type Lens struct {
	// key names the lens (as "portfolio").
	key string
	// sel returns the lens of the request args (Args.List), ok false
	// when they select none.
	sel func(args value.Value) (lens string, ok bool)
	// entity is the entity standalone cells belong to, nil for none.
	entity *Entity
	// table is the entity of the cells' table, whose records are merged
	// as any entity's (shallow, fetchedAt order); its pk is a cell's
	// compound key (cellPK).
	table *Entity
}

// LensOf returns the Lens key (its cells are stored in the table
// "Scalar(key)") whose lens sel selects from a request's args (Args.List;
// ok false when they select none; the lens is part of the cells' keys:
// no "|" in it). entity is the entity the cells belong to when the Lens
// is used standalone, nil for a Lens used only as entity fields: its key
// and its PKOf of a cell (unless the cell is a map's member) name the
// record a standalone cell belongs to, so an Entity of that key whose
// PKFunc reads another field stands for data-client's entityPk override.
func LensOf(key string, sel func(args value.Value) (lens string, ok bool), entity *Entity) *Lens {
	l := &Lens{key: key, sel: sel, entity: entity}
	l.table = &Entity{Key: "Scalar(" + key + ")", Defaults: value.Obj(), PKFunc: l.cellPK, cells: true}
	return l
}

// CellTable reports whether e is a Lens's table of cells. Refs names the
// cells an entity's field refers to, one per lens, by their record's key
// (CellRecord): a reader of the field may read any of them.
func (e *Entity) CellTable() bool { return e.cells }

// CellRecord returns the part of a cell's key that names the record it
// belongs to, "entityKey|pk|" (the cell's key without its lens, which
// holds no "|"). Refs gives it, rather than a cell's key, for an
// entity's field.
func CellRecord(cellKey string) string {
	return cellKey[:strings.LastIndex(cellKey, lensSep)+1]
}

// TableKey is the key of the table the cells are stored in.
func (l *Lens) TableKey() string { return l.table.Key }

func (l *Lens) describe() string { return l.table.Key }

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

// cellPK returns the key of a cell: the key of the record it belongs to
// and the request's lens. For an entity's field, parent is that record's
// key (entityKey|pk, see fieldRef). A standalone cell (a member of a
// Values or of a list) belongs to the record of Entity whose pk is the
// key of the map member that is the cell (Values: parent[key] is the
// cell; a list's members have the key of the list, which does not name
// them), else Entity's pk of the cell.
func (l *Lens) cellPK(cell, parent value.Value, key string, args value.Value) (string, bool, error) {
	lens, ok := l.sel(args)
	switch {
	case !ok:
		return "", false, errNoLens
	case parent.Kind() == value.String:
		return parent.Str() + lensSep + lens, true, nil
	case l.entity == nil:
		return "", false, errUnbound
	}
	pk := key
	var err error
	if parent.Get(key).Kind() != value.Object {
		pk, ok, err = l.entity.PKOf(cell, parent, key, args)
	}
	if err != nil {
		return "", false, err
	}
	if !ok || pk == "" || pk == undefinedPK {
		return "", false, errCellPK
	}
	return cellKey(l.entity.Key, pk, lens), true, nil
}

// fieldRef stores in, the field name of the record of e whose key is pk,
// in the cell of the request's lens (one write per field: the store
// merges those of a cell in order), and returns the lens-free reference
// the record keeps in its place: [pk, name, entityKey].
func (l *Lens) fieldRef(e *Entity, pk, name string, in value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	cell := make([]value.Member, 1) // not a literal, whose array type would need an equality function
	cell[0] = value.M(name, in)
	if _, err := l.table.normalize(value.Obj(cell...), value.Str(e.Key+lensSep+pk), path, n); err != nil {
		return value.Undef, err
	}
	ref := make([]value.Value, 3)
	ref[0], ref[1], ref[2] = value.Str(pk), value.Str(name), value.Str(e.Key)
	return value.Arr(ref...), nil
}

// normalize stores a standalone cell, a record of the cells' table, and
// returns its key.
func (l *Lens) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	return l.table.normalize(in, parent, path, n)
}

// denormalize reads a reference of an entity's field ([pk, field,
// entityKey]) as the field of the cell of the read's lens (undefined when
// the args select no lens or there is no such cell), and a standalone
// cell's key as the cell. Anything else is kept as it is: a value stored
// before the field was a Scalar.
func (l *Lens) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	var field value.Value // of a field's reference
	switch v.Kind() {
	case value.String, value.Object:
	case value.Array:
		ref := v.Elems()
		if len(ref) != 3 {
			return v, Found
		}
		lens, ok := d.lens(l, true)
		if !ok {
			return value.Undef, Found
		}
		field, v = ref[1], value.Str(cellKey(ref[2].Str(), ref[0].Str(), lens))
	default:
		return v, Found
	}
	cell, st := l.table.denormalize(v, d)
	if field.IsUndefined() {
		return cell, st
	}
	return cell.Get(field.Str()), Found
}

// lensDep is a lens value a read depended on (ok false: the args selected
// none).
type lensDep struct {
	l   *Lens
	val string
	ok  bool
	// noEq makes lensDep not comparable, so that no equality function
	// is compiled for it into datafetch.wasm.
	noEq [0]func()
}

// lens returns the lens value of l for the read's args, and with dep
// makes what is being built depend on it. Not inlined: its copies would
// weigh on datafetch.wasm.
//
//go:noinline
func (d *denormalizer) lens(l *Lens, dep bool) (val string, ok bool) {
	found := false
	for _, g := range d.lenses {
		if g.l == l {
			val, ok, found = g.val, g.ok, true
			break
		}
	}
	if !found {
		d.callerCode()
		val, ok = l.sel(d.args.List())
		d.lenses = append(d.lenses, lensDep{l: l, val: val, ok: ok})
	}
	if dep {
		r := d.deps.more()
		r.lenses = append(r.lenses, lensDep{l: l, val: val, ok: ok})
	}
	return val, ok
}
