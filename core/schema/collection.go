package schema

import (
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Collection is a list (or a map, over Values) of entities stored per its
// args, as data-client's Collection: each response is stored as one record
// of the entity table Key, whose pk is the collection's args (by ArgsKey
// from the request's params and body, or by NestKey from the entity holding
// it), and the result holds that pk. Every result that holds the same
// collection reads the same list, so a change to it (Push, Unshift, Remove,
// Assign, an Update function, a later page) is seen by all of them.
//
// Configure the fields, then use it only by pointer and do not change it.
type Collection struct {
	// Of is the stored shape: an *Array or a *Values of entities.
	Of Schema
	// Key names the entity table the collections are stored in; "" is
	// "[" + the element schema's name + "]".
	Key string
	// ArgsKey, when set, derives the collection's args from the request's
	// params and body; nil takes the params (without a pagination field,
	// which the endpoint leaves out of Args).
	ArgsKey func(params, body value.Value) (value.Value, error)
	// NestKey, when set, derives the args of a collection nested in an
	// entity's field from that entity (parent) and the field's name.
	NestKey func(parent value.Value, key string) (value.Value, error)
	// NonFilter, when set, tells the args keys that do not decide which
	// collections a push, a remove or a move changes (data-client's
	// nonFilterArgumentKeys: a sort order, a cursor); nil skips those
	// named order* or sort*.
	NonFilter func(key string) bool
	// Filter, when set, decides which stored collections a push, a remove
	// or a move changes, in place of comparing args (data-client's
	// createCollectionFilter(...args)(collectionKey)): given a stored
	// collection's args (an object of strings, as its pk) and the
	// request's params and body (Undefined when there is none; a move
	// passes the moved record's values over them), it reports whether
	// the collection is one the request belongs to. NonFilter is not
	// consulted then.
	Filter func(collectionArgs, params, body value.Value) bool

	once  sync.Once
	table *Entity // the table's entity: its records are lists of pks
	// stableOf is set when no Process hook is in Of (stable).
	stableOf bool
}

// CollectionOf returns a Collection of of (an *Array or *Values).
func CollectionOf(of Schema) *Collection { return &Collection{Of: of} }

// Args are what a request was made with, for the schemas that store by
// them (Collection). Append asks a Collection to append the response's
// entities to the collection stored under the args (a later page) instead
// of replacing it. Optimistic marks the normalization of an optimistic
// response, whose records may lack a primary key (see TemporaryPK).
type Args struct {
	Params, Body value.Value
	Append       bool
	Optimistic   bool
}

// ArgsOf returns the Args of an endpoint's argument list: its first
// element the params, its second the body.
func ArgsOf(list []value.Value) Args {
	var a Args
	if len(list) > 0 {
		a.Params = list[0]
	}
	if len(list) > 1 {
		a.Body = list[1]
	}
	return a
}

// List returns the args as an endpoint's argument list, which an entity's
// PKFunc and Process get: [] without params or body, [params], or
// [params, body] (params null when there are none).
func (a Args) List() value.Value {
	switch {
	case !a.Body.IsUndefined():
		p := a.Params
		if p.IsUndefined() {
			p = value.NullV
		}
		return value.Arr(p, a.Body)
	case !a.Params.IsUndefined():
		return value.Arr(a.Params)
	}
	return value.Arr()
}

// CollectionWrite changes stored collections, as push or remove do: every
// collection of the table Key whose pk Match accepts, or when PK is set
// that one collection (made from Change(Undefined) when it is not stored).
// Change gets a collection's stored list (or map) and returns the new one;
// returning the one it was given is no change. Both must be pure: the
// store replays a pending optimistic write over newer data.
type CollectionWrite struct {
	Key    string
	PK     string
	Match  func(pk string) bool
	Change func(existing value.Value) value.Value
	// Move, when set, replaces Match and Change: the write moves one
	// entity between the collections (see CollectionMove).
	Move *CollectionMove
	// CallsBack reports whether Match or Move runs caller code (the
	// Collection's Filter or NonFilter, the adder's Merge): the store
	// runs them with its owner's lock released, as an entity's merge
	// hooks (see store.Make).
	CallsBack bool
}

// CollectionMove is a move of one entity (the record PK of the table
// Key) between a Collection's stored lists, which depends on the record
// as stored before the response: the store applies it before the
// response's entities.
type CollectionMove struct {
	Key, PK string

	c          *Collection
	pk         value.Value                                      // the entity's pk as the collection holds it
	params, nv value.Value                                      // the request's params; its new values
	join       func(existing, incoming value.Value) value.Value // CollectionAdd.Merge
	_          [0]func()                                        // not comparable: no equality code
}

// Apply returns the collection stored under pk (existing) after the move,
// given the moved record as stored before it (old; Undefined when none),
// as data-client decides: a collection the old record matched (a key's
// value from it, else from the params) and the new values (the response's
// record over the body, then the params or the old record) do not is
// left; one they match and the old record did not is joined (appended,
// or as the adder's Merge says). existing itself is returned when it does not change.
func (m *CollectionMove) Apply(old value.Value, pk string, existing value.Value) value.Value {
	c := m.c
	left := !old.IsUndefined() && c.matches(pk, ShallowMerge(m.params, old), value.Undef)
	if left == c.matches(pk, ShallowMerge(m.params, m.nv), ShallowMerge(old, m.nv)) {
		return existing
	}
	switch {
	case left:
		return removePKs(existing, value.Arr(m.pk))
	case m.join != nil && c.IsValues():
		return m.join(existing, value.Obj().With(m.PK, m.pk))
	case m.join != nil:
		return m.join(existing, value.Arr(m.pk))
	case c.IsValues():
		return assignMembers(existing, value.Obj().With(m.PK, m.pk))
	}
	return AppendNew(existing, value.Arr(m.pk))
}

func (c *Collection) describe() string { return "collection(" + c.Of.describe() + ")" }

// TableKey returns the key of the entity table the collections are in.
func (c *Collection) TableKey() string { return c.entity().Key }

// Table returns the entity of the table the collections are in: each
// record is one collection, under its PK, holding its list (or map) of
// pks.
func (c *Collection) Table() *Entity { return c.entity() }

// entity returns the table's entity, made on first use. Its records are
// replaced, not merged, by a newer response (older ones are ignored, by
// the entity's default order of fetchedAt).
func (c *Collection) entity() *Entity {
	c.once.Do(func() {
		key := c.Key
		if key == "" {
			key = "[" + elemName(c.Of) + "]"
		}
		c.table = &Entity{Key: key, Defaults: value.Obj(),
			Merge: func(_, incoming value.Value) value.Value { return incoming }, collection: c}
		c.stableOf = !hasProcess(c.Of, map[*Entity]bool{})
	})
	return c.table
}

func elemName(s Schema) string {
	switch s := s.(type) {
	case *Array:
		return s.Of.describe()
	case *Values:
		return "values:" + s.Of.describe()
	}
	return s.describe()
}

// IsValues reports whether the collection is a map (a Values collection,
// which Assign adds to) rather than a list (which Push and Unshift add to).
func (c *Collection) IsValues() bool { _, ok := c.Of.(*Values); return ok }

// check reports a collection that holds neither a list nor a map.
func (c *Collection) check(seen map[*Entity]bool) error {
	switch c.Of.(type) {
	case *Array, *Values:
	default:
		return fmtlite.Errorf("collection must hold a list ([S]) or schema.Values, got %s", describeOr(c.Of))
	}
	c.entity()
	return check(c.Of, seen)
}

func describeOr(s Schema) string {
	if s == nil {
		return "nothing"
	}
	return s.describe()
}

// PK returns the pk of the collection stored for args: its members in key
// order, values as strings (data-client's canonical form: 5 and "5" are
// one collection), as JSON text.
func (c *Collection) PK(args Args) (string, error) {
	a := args.Params
	if c.ArgsKey != nil {
		var err error
		if a, err = c.ArgsKey(args.Params, args.Body); err != nil {
			return "", fmtlite.Errorf("argsKey: %w", err)
		}
	}
	return canonicalArgs(a)
}

func canonicalArgs(a value.Value) (string, error) {
	switch a.Kind() {
	case value.Undefined, value.Null:
		return "{}", nil
	case value.Object:
	default:
		return "", fmtlite.Errorf("collection args must be an object, got %s", a.Kind())
	}
	ms := make([]value.Member, 0, a.Len())
	for _, m := range a.Members() {
		if m.Value.IsUndefined() {
			continue
		}
		s, ok := m.Value.Text()
		if !ok {
			s = m.Value.JSON()
		}
		ms = append(ms, value.M(m.Key, value.Str(s)))
	}
	slices.SortStableFunc(ms, func(a, b value.Member) int { return strings.Compare(a.Key, b.Key) })
	return value.Obj(ms...).JSON(), nil
}

func (c *Collection) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	var pk string
	var err error
	nested := c.NestKey != nil && parent.Kind() == value.Object && path.fieldKey() != ""
	if key := path.fieldKey(); nested {
		var a value.Value
		if a, err = c.NestKey(parent, key); err == nil {
			pk, err = canonicalArgs(a)
		}
	} else {
		pk, err = c.PK(n.args)
	}
	if err != nil {
		return value.Undef, errorAt(path, c, "%v", err)
	}
	list, err := c.Of.normalize(in, parent, path, n)
	if err != nil {
		return value.Undef, err
	}
	if n.args.Append && !nested {
		// A later page: its entities join the collection stored under
		// the same args, each once, in the order the pages came.
		n.collections = append(n.collections, CollectionWrite{Key: c.entity().Key, PK: pk,
			Change: func(existing value.Value) value.Value { return AppendNew(existing, list) }})
	} else {
		w := EntityWrite{Entity: c.entity(), PK: pk, Value: list}
		if !n.args.Optimistic && c.stable() {
			// The list's text gives the same keys again (an optimistic
			// one may hold new temporary keys).
			w.Source = in.Source()
		}
		n.add(w)
	}
	return value.Str(pk), nil
}

// stable reports whether normalizing the same text always gives c the
// same list: no Process hook in what it holds (see Entity.stable).
func (c *Collection) stable() bool {
	c.entity()
	return c.stableOf
}

// denormalize reads the collection pk v: the stored list, memoized in its
// slot as an entity's read form is.
func (c *Collection) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	pk, ok := v.Text()
	if !ok || v.IsNull() {
		return v, Found
	}
	e := c.entity()
	slot, read, st, done := d.memoized(e, pk)
	if done {
		return read, st
	}
	if slot.Unchecked && !d.admit(e, slot) {
		return value.Undef, Missing
	}
	if slot.building == d.pass || d.depth >= MaxDepth {
		// A cycle back to this collection (an entity in it holding it):
		// its pks, as an entity in a cycle is shown.
		d.cuts++
		r := d.deps.more()
		r.slots = append(r.slots, depOn(slot))
		return slot.Value, Found
	}
	outer := d.deps
	own := d.entityDeps(slot)
	d.deps = own
	cuts := d.cuts
	slot.building = d.pass
	d.depth++
	out, _ := c.Of.denormalize(slot.Value, d)
	d.depth--
	slot.building = 0
	d.deps = outer
	if d.cuts == cuts {
		if slot.memo.built {
			if slot.prev == nil {
				slot.prev = new(entityMemo)
			}
			*slot.prev = slot.memo
		}
		slot.memo = entityMemo{entity: e, val: out, st: Found, deps: own, built: true}
	}
	outer.kids = append(outer.kids, own)
	return out, Found
}

// CollectionRef returns where the result value (as stored under a result
// of schema s) keeps its collection: the table key and pk, when s is a
// Collection. An Update function given a result's pks then changes the
// collection itself, which every result holding it reads.
func CollectionRef(s Schema, result value.Value) (key, pk string, ok bool) {
	c, isColl := s.(*Collection)
	if !isColl {
		return "", "", false
	}
	pk, ok = result.Text()
	if !ok || result.IsNull() {
		return "", "", false
	}
	return c.entity().Key, pk, true
}

// AppendNew appends the pks of incoming that existing lacks, in order, each
// once. When nothing is new the existing list itself is returned, so
// readers keep their identical result; when existing is not a list,
// incoming is.
func AppendNew(existing, incoming value.Value) value.Value {
	if existing.Kind() != value.Array || incoming.Kind() != value.Array {
		return incoming
	}
	added := newPKs(existing, incoming)
	if len(added) == 0 {
		return existing
	}
	out := make([]value.Value, 0, existing.Len()+len(added))
	out = append(out, existing.Elems()...)
	return value.Arr(append(out, added...)...)
}

// smallAdd is how many pks newPKs compares one by one with each stored
// pk rather than through a map: a push adds one to a list of thousands,
// and hashing every stored pk would cost more than the comparisons.
const smallAdd = 8

// newPKs returns the pks of incoming that existing lacks, each once, in
// order. The work is over incoming: existing is scanned once, each of its
// pks compared with those of incoming (hashed when there are many).
func newPKs(existing, incoming value.Value) []value.Value {
	in := incoming.Elems()
	// fresh[i] stays true while in[i] is in neither existing nor in[:i].
	fresh := make([]bool, len(in))
	texts := make([]string, len(in))
	hasText := make([]bool, len(in))
	var index map[string]int // text -> first position in in, when many
	if len(in) > smallAdd {
		index = make(map[string]int, len(in))
	}
	for i, pk := range in {
		texts[i], hasText[i] = pk.Text()
		fresh[i] = true
		for j := 0; j < i && (index == nil || !hasText[i]); j++ {
			if fresh[j] && samePK(in[j], texts[j], hasText[j], pk, texts[i], hasText[i]) {
				fresh[i] = false
				break
			}
		}
		if index != nil && hasText[i] {
			if _, dup := index[texts[i]]; dup {
				fresh[i] = false
			} else {
				index[texts[i]] = i
			}
		}
	}
	for _, pk := range existing.Elems() {
		t, ok := pk.Text()
		if index != nil && ok {
			if i, hit := index[t]; hit {
				fresh[i] = false
			}
			continue
		}
		for i := range in {
			if fresh[i] && samePK(in[i], texts[i], hasText[i], pk, t, ok) {
				fresh[i] = false
			}
		}
	}
	var added []value.Value
	for i, pk := range in {
		if fresh[i] {
			added = append(added, pk)
		}
	}
	return added
}

// samePK compares two pks: by their text, or (for pks with none, as a
// union's {id, schema}) by value.
func samePK(a value.Value, at string, aok bool, b value.Value, bt string, bok bool) bool {
	if aok || bok {
		return aok && bok && at == bt
	}
	return value.Equal(a, b)
}

// CollectionOp is what a Collection's adder schema does to the collections
// whose args match the request.
type CollectionOp uint8

// The operations of data-client's Collection.
const (
	// Push appends the response's entities (each once) to the matching
	// lists.
	Push CollectionOp = iota + 1
	// Unshift prepends them.
	Unshift
	// Remove takes them out of the matching lists (or maps).
	Remove
	// Assign merges the response's map into the matching maps (Values
	// collections).
	Assign
	// Move takes each entity of the response out of the collections its
	// stored record matched but it no longer does, and appends it to
	// those it matches now but did not (a todo whose userId changed
	// leaves one user's lists for the other's).
	Move
)

var opNames = [...]string{Push: "push", Unshift: "unshift", Remove: "remove", Assign: "assign", Move: "move"}

func (op CollectionOp) String() string {
	if int(op) < len(opNames) && opNames[op] != "" {
		return opNames[op]
	}
	return fmtlite.Sprintf("CollectionOp(%d)", int(op))
}

// CollectionAdd is the schema of a request that changes a Collection's
// stored lists without refetching them (data-client's collection.push and
// the rest): the response (one record or a list of them; a map for
// Assign) is normalized as the collection's elements, and Op applied to
// every stored collection whose args match the request's: each of the
// collection's args (but those NonFilter names) equals, as a string, the
// member of that name in the params or in the body. A Move compares the
// entity's record before and after instead (see Move). The result is the
// record's pk (or the list or map of pks).
type CollectionAdd struct {
	Collection *Collection
	Op         CollectionOp
	// Merge, when set, is how a Move joins a collection (data-client's
	// collection.moveWith(merge)): given the stored list (or map) and the
	// moved entity's ([pk], or {pk: pk} of a Values collection), it
	// returns the collection after the join, as Apply's default appends.
	// It must be pure, as a CollectionWrite's Change.
	Merge func(existing, incoming value.Value) value.Value

	list *Array // [element], made by Adder
}

// Adder returns the schema that applies op to c's matching collections.
func (c *Collection) Adder(op CollectionOp) (*CollectionAdd, error) {
	switch {
	case op == Assign && !c.IsValues():
		return nil, errors.New("collection: assign needs a Values collection; use push or unshift")
	case (op == Push || op == Unshift) && c.IsValues():
		return nil, fmtlite.Errorf("collection: %s needs a list collection; use assign", op)
	case op < Push || op > Move:
		return nil, fmtlite.Errorf("collection: unknown operation %s", op)
	}
	a := &CollectionAdd{Collection: c, Op: op}
	a.list = ArrayOf(a.elem())
	return a, nil
}

func (a *CollectionAdd) describe() string { return a.Collection.describe() + "." + a.Op.String() }

// ReadSchema returns the schema that a read v of a's result has: the
// collection's element (one record pushed), a list of them, or the map
// (Assign). Writers of reads that switch on schemas use it.
func (a *CollectionAdd) ReadSchema(v value.Value) Schema {
	switch {
	case a.Op == Assign:
		return a.Collection.Of
	case v.Kind() == value.Array:
		if a.list == nil {
			return ArrayOf(a.elem())
		}
		return a.list
	}
	return a.elem()
}

// elem returns the schema of one element of the collection.
func (a *CollectionAdd) elem() Schema {
	switch s := a.Collection.Of.(type) {
	case *Array:
		return s.Of
	case *Values:
		return s.Of
	}
	return a.Collection.Of
}

func (a *CollectionAdd) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	if in.IsNullish() {
		return in, nil
	}
	var res, pks value.Value
	var err error
	switch {
	case a.Op == Assign:
		if res, err = a.Collection.Of.normalize(in, parent, path, n); err != nil {
			return value.Undef, err
		}
		pks = res
	case in.Kind() == value.Array:
		if res, err = ArrayOf(a.elem()).normalize(in, parent, path, n); err != nil {
			return value.Undef, err
		}
		pks = res
	default:
		if res, err = a.elem().normalize(in, parent, path, n); err != nil {
			return value.Undef, err
		}
		pks = value.Arr(res)
	}
	args := n.args
	key := a.Collection.entity().Key
	if a.Op == Move {
		a.moves(key, in, pks, args, n)
		return res, nil
	}
	match := func(pk string) bool { return a.Collection.matches(pk, args.Params, args.Body) }
	var change func(value.Value) value.Value
	switch a.Op {
	case Push:
		change = func(ex value.Value) value.Value { return AppendNew(ex, pks) }
	case Unshift:
		change = func(ex value.Value) value.Value { return prependNew(ex, pks) }
	case Remove:
		change = func(ex value.Value) value.Value { return removePKs(ex, pks) }
	case Assign:
		change = func(ex value.Value) value.Value { return assignMembers(ex, pks) }
	}
	n.collections = append(n.collections, CollectionWrite{Key: key, Match: match, Change: change, CallsBack: a.Collection.callsBack()})
	return res, nil
}

func (a *CollectionAdd) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	switch {
	case a.Op == Assign:
		return a.Collection.Of.denormalize(v, d)
	case v.Kind() == value.Array:
		return ArrayOf(a.elem()).denormalize(v, d)
	}
	return a.elem().denormalize(v, d)
}

// callsBack reports whether matches runs caller code (Filter, NonFilter).
func (c *Collection) callsBack() bool { return c.Filter != nil || c.NonFilter != nil }

// matches is the filter of an adder: whether the collection stored under
// pk (canonical args) is one a request belongs to: by Filter when set,
// else each of its args that filters (see NonFilter) equals the member of
// that name in a or in b.
func (c *Collection) matches(pk string, a, b value.Value) bool {
	ca, err := value.ParseString(pk)
	if err != nil || ca.Kind() != value.Object {
		return false
	}
	if c.Filter != nil {
		return c.Filter(ca, a, b)
	}
	for _, m := range ca.Members() {
		if c.NonFilter != nil && c.NonFilter(m.Key) ||
			c.NonFilter == nil && (strings.HasPrefix(m.Key, "order") || strings.HasPrefix(m.Key, "sort")) {
			continue
		}
		want := m.Value.Str()
		if !argEquals(a.Get(m.Key), want) && !argEquals(b.Get(m.Key), want) {
			return false
		}
	}
	return true
}

// moves adds a move's collection writes: one per entity of the response
// (in, normalized as pks), each a CollectionMove.
func (a *CollectionAdd) moves(key string, in, pks value.Value, args Args, n *normalizer) {
	for i, pk := range pks.Elems() {
		rec := in
		if in.Kind() == value.Array {
			rec = in.Elems()[i]
		}
		m := &CollectionMove{c: a.Collection, pk: pk, params: args.Params, nv: ShallowMerge(args.Body, rec), join: a.Merge}
		Refs(a.elem(), pk, func(e *Entity, p string) { m.Key, m.PK = e.Key, p })
		n.collections = append(n.collections, CollectionWrite{Key: key, Move: m, CallsBack: a.Merge != nil || a.Collection.callsBack()})
	}
}

func argEquals(v value.Value, want string) bool {
	if v.IsUndefined() {
		return false
	}
	s, ok := v.Text()
	if !ok {
		s = v.JSON()
	}
	return s == want
}

// prependNew puts the pks of incoming that existing lacks before it.
func prependNew(existing, incoming value.Value) value.Value {
	if existing.Kind() != value.Array || incoming.Kind() != value.Array {
		return incoming
	}
	added := AppendNew(value.Arr(), incoming) // incoming, each once
	rest := removePKs(existing, added)
	if added.Len() == 0 {
		return existing
	}
	out := make([]value.Value, 0, added.Len()+rest.Len())
	out = append(out, added.Elems()...)
	return value.Arr(append(out, rest.Elems()...)...)
}

// refKey is what removePKs compares a collection's member by: a pk's
// text, or for a union's member ({id, schema}) its schema and id, as
// data-client compares them; ok is false for anything else, which no
// removal matches.
func refKey(v value.Value) (key string, ok bool) {
	if s, isPK := v.Text(); isPK {
		return s, true
	}
	if v.Kind() != value.Object {
		return "", false
	}
	id, idOK := v.Get("id").Text()
	name, nameOK := v.Get("schema").Text()
	if !idOK || !nameOK {
		return "", false
	}
	// Starting with NUL, which pks in practice never do, it is apart
	// from any pk's text.
	return "\x00" + name + "\x00" + id, true
}

// removePKs returns existing without the pks listed in gone (a list, or
// a map whose values are the pks); existing itself when none was in it.
func removePKs(existing, gone value.Value) value.Value {
	drop := map[string]bool{}
	var goneVals []value.Value
	switch gone.Kind() {
	case value.Array:
		goneVals = gone.Elems()
	case value.Object:
		for _, m := range gone.Members() {
			goneVals = append(goneVals, m.Value)
		}
	}
	for _, pk := range goneVals {
		if s, ok := refKey(pk); ok {
			drop[s] = true
		}
	}
	keep := func(pk value.Value) bool {
		s, ok := refKey(pk)
		return !ok || !drop[s]
	}
	switch existing.Kind() {
	case value.Array:
		out := make([]value.Value, 0, existing.Len())
		for _, pk := range existing.Elems() {
			if keep(pk) {
				out = append(out, pk)
			}
		}
		if len(out) == existing.Len() {
			return existing
		}
		return value.Arr(out...)
	case value.Object:
		out := make([]value.Member, 0, existing.Len())
		for _, m := range existing.Members() {
			if keep(m.Value) {
				out = append(out, m)
			}
		}
		if len(out) == existing.Len() {
			return existing
		}
		return value.Obj(out...)
	}
	return existing
}

// assignMembers merges the map incoming into existing, incoming winning.
func assignMembers(existing, incoming value.Value) value.Value {
	if existing.Kind() != value.Object || incoming.Kind() != value.Object {
		return incoming
	}
	out := existing
	for _, m := range incoming.Members() {
		if value.Same(out.Get(m.Key), m.Value) || value.Equal(out.Get(m.Key), m.Value) {
			continue
		}
		out = out.With(m.Key, m.Value)
	}
	return out
}

// queryInput makes a Collection queryable: a read with params args[0]
// (none: {}) reads the list stored for the args a request with those
// params would store it under.
func (c *Collection) queryInput(args []value.Value) (value.Value, bool, error) {
	params := value.Obj()
	if len(args) > 0 && !args[0].IsNullish() {
		params = args[0]
	}
	pk, err := c.PK(Args{Params: params})
	if err != nil {
		return value.Undef, false, err
	}
	return value.Str(pk), true, nil
}

// readSchema is the Collection itself: its read is the stored list.
func (c *Collection) readSchema() Schema { return c }
