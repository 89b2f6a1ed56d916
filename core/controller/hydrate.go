package controller

import (
	"errors"
	"strconv"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Snapshots and hydration.
//
// A snapshot is the JSON value State returns: {version, entities,
// endpoints, meta, entitiesMeta, optimistic}, with entities[key][pk] the
// normalized records, endpoints[key] the normalized results by endpoint key
// (endpoint.Key(params), so a server and a browser whose endpoints share a
// URL prefix share keys), and the metas their times in epoch ms. A Go server
// can render one into a page (Snapshot) for the client, JavaScript or
// go-app, to start from (Hydrate, Options.InitialState).

// SnapshotVersion is the version of the snapshot format this build writes
// and the only one Hydrate reads.
const SnapshotVersion = store.SnapshotVersion

// Snapshot returns the store as a snapshot without pending optimistic
// updates and without kept errors: what servers sent, which is what to
// persist or to render into a page. State, for debugging, shows the store
// as reads see it, optimistic updates included.
func (c *Controller) Snapshot() value.Value {
	c.lock()
	defer c.unlock()
	return c.st.Snapshot()
}

// Hydrate merges a snapshot into the store: its results and entities, with
// their expiry metadata, as if they had been fetched when the snapshot says.
// What the store holds already wins when it was fetched at the same time as
// the snapshot's or later (by fetchedAt, per entity and per result). A
// snapshot's optimistic updates and kept errors are not taken. A malformed
// snapshot, or one of another version, is an error that names what is
// wrong, and the store is left as it was: the whole snapshot is checked
// before anything is stored. Malformed includes a time beyond
// ±schema.MaxTime, and data that no response could have stored under the
// schemas the controller knows (see checkSnapshot).
//
// A result taken from a snapshot is read by the endpoint whose key it is
// stored under: the first read through that endpoint gives it its schema,
// and drops it if it is not a value of that schema. A record is checked
// against its entity when first read, and read as missing if it fails.
func (c *Controller) Hydrate(snapshot value.Value) error {
	ents, results, latest, err := parseSnapshot(snapshot)
	if err != nil {
		return fmtlite.Errorf("hydrate: %w", err)
	}
	defer c.dispatch()
	c.lock()
	defer c.unlock()
	if err := c.checkSnapshot(ents, results); err != nil {
		return fmtlite.Errorf("hydrate: %w", err)
	}
	// Requests started from now on must be newer than what was taken, or
	// their responses would lose to it (a server's clock may be ahead).
	if latest > c.lastStamp {
		c.lastStamp = latest
	}
	ch := &store.Change{Snapshot: store.Snapshot{Entities: ents, Results: results}}
	if err := c.make(ch, "", "hydrate"); err != nil {
		return err
	}
	if ch.Took {
		c.emit(&Event{Kind: Hydrate, Params: snapshot})
		c.changed()
	}
	return nil
}

// checkSnapshot checks what a snapshot holds against the schemas known so
// far (c.mu held), as a response is checked by normalizing it: each record
// of an entity the store has met (store.EntityOf) must be a record of it
// with its pk (schema.Entity.CheckRecord), each result under a key whose
// endpoint has been read must be a normalized value of its schema
// (schema.CheckNormalized). What is not known yet is checked when it is:
// a result when its endpoint first reads it (store.Adopt), a record when
// it is first read (schema.Slot.Unchecked); either is then read as
// missing, and fetched, when it fails.
func (c *Controller) checkSnapshot(ents []store.SnapshotEntity, results []store.SnapshotResult) error {
	for i := range ents {
		e := &ents[i]
		if e.Deleted {
			continue
		}
		if kind := c.st.EntityOf(e.Key); kind != nil {
			if err := kind.CheckRecord(e.PK, e.Value); err != nil {
				return checkAt("entities"+schema.MemberStep(e.Key)+"["+strconv.Quote(e.PK)+"]", err)
			}
		}
	}
	for i := range results {
		r := &results[i]
		if sc := c.st.SchemaOf(r.Key); sc != nil {
			if err := schema.CheckNormalized(sc, r.Value); err != nil {
				return checkAt("endpoints["+strconv.Quote(r.Key)+"]", fmtlite.Errorf("%w (the schema of its endpoint is %s)", err, schema.Describe(sc)))
			}
		}
	}
	return nil
}

// checkAt places a check's error (schema.CheckError, a path and what is
// wrong there) under where.
func checkAt(where string, err error) error {
	if ce := (*schema.CheckError)(nil); errors.As(err, &ce) && ce.Path != "" {
		return fmtlite.Errorf("%s%w", where, err) // the text starts with the path
	}
	return fmtlite.Errorf("%s: %w", where, err)
}

// parseSnapshot checks a whole snapshot and returns what it holds, and the
// latest fetchedAt in it.
func parseSnapshot(v value.Value) (ents []store.SnapshotEntity, results []store.SnapshotResult, latest int64, err error) {
	if v.Kind() != value.Object {
		return nil, nil, 0, fmtlite.Errorf("the snapshot is %s, not an object", schema.KindName(v))
	}
	ver := v.Get("version")
	if ver.IsUndefined() {
		return nil, nil, 0, fmtlite.Errorf("version is missing (this build reads %d)", SnapshotVersion)
	}
	if f, ok := ver.Float(); !ok || f != SnapshotVersion {
		return nil, nil, 0, fmtlite.Errorf("version %s is not known (this build reads %d)", ver.JSON(), SnapshotVersion)
	}
	entities, err := objectAt(v, "entities")
	if err != nil {
		return nil, nil, 0, err
	}
	entMetas, err := objectAt(v, "entitiesMeta")
	if err != nil {
		return nil, nil, 0, err
	}
	endpoints, err := objectAt(v, "endpoints")
	if err != nil {
		return nil, nil, 0, err
	}
	metas, err := objectAt(v, "meta")
	if err != nil {
		return nil, nil, 0, err
	}
	if opt := v.Get("optimistic"); !opt.IsUndefined() && opt.Kind() != value.Array {
		return nil, nil, 0, fmtlite.Errorf("optimistic: %s, not an array", schema.KindName(opt))
	}
	note := func(t int64) {
		if t > latest {
			latest = t
		}
	}

	metaTables := newIndex(entMetas)
	for _, table := range entities.Members() {
		where := "entities" + schema.MemberStep(table.Key)
		if table.Value.Kind() != value.Object {
			return nil, nil, 0, fmtlite.Errorf("%s: %s, not an object", where, schema.KindName(table.Value))
		}
		tableMetas := metaTables.get(table.Key)
		if tableMetas.Kind() != value.Object {
			return nil, nil, 0, fmtlite.Errorf("entitiesMeta%s: %s, not an object", schema.MemberStep(table.Key), schema.KindName(tableMetas))
		}
		recMetas := newIndex(tableMetas)
		for _, rec := range table.Value.Members() {
			// An entity's record is an object (null: deleted); a
			// Collection's is its list of pks, an array (or, for a Values
			// collection, an object).
			if k := rec.Value.Kind(); k != value.Object && k != value.Null && k != value.Array {
				return nil, nil, 0, fmtlite.Errorf("%s[%s]: %s, not an object or an array", where, strconv.Quote(rec.Key), schema.KindName(rec.Value))
			}
			m, deleted, err := parseMeta(recMetas.get(rec.Key), func() string {
				return "entitiesMeta" + schema.MemberStep(table.Key) + "[" + strconv.Quote(rec.Key) + "]"
			})
			if err != nil {
				return nil, nil, 0, err
			}
			note(m.FetchedAt)
			ents = append(ents, store.SnapshotEntity{
				Key: table.Key, PK: rec.Key, Value: rec.Value,
				Deleted: deleted || rec.Value.IsNull(),
				Meta:    schema.Meta{Date: m.Date, FetchedAt: m.FetchedAt, ExpiresAt: m.ExpiresAt},
			})
		}
	}
	tables := newIndex(entities)
	for _, table := range entMetas.Members() {
		if table.Value.Kind() != value.Object {
			return nil, nil, 0, fmtlite.Errorf("entitiesMeta%s: %s, not an object", schema.MemberStep(table.Key), schema.KindName(table.Value))
		}
		recs := newIndex(tables.get(table.Key))
		for _, m := range table.Value.Members() {
			if recs.get(m.Key).IsUndefined() {
				return nil, nil, 0, fmtlite.Errorf("entitiesMeta%s[%s]: no such record in entities", schema.MemberStep(table.Key), strconv.Quote(m.Key))
			}
		}
	}

	resultMetas := newIndex(metas)
	for _, r := range endpoints.Members() {
		where := func() string { return "meta[" + strconv.Quote(r.Key) + "]" }
		rm := resultMetas.get(r.Key)
		m, _, err := parseMeta(rm, where)
		if err != nil {
			return nil, nil, 0, err
		}
		if inv := rm.Get("invalidated"); !inv.IsUndefined() {
			if inv.Kind() != value.Bool {
				return nil, nil, 0, fmtlite.Errorf("%s.invalidated: %s, not a boolean", where(), schema.KindName(inv))
			}
			m.Invalidated = inv.Boolean()
		}
		note(m.FetchedAt)
		results = append(results, store.SnapshotResult{Key: r.Key, Value: r.Value, Meta: m})
	}
	// A meta without a result (an error kept before any data) has nothing
	// to hydrate, but must still be well formed.
	for _, m := range metas.Members() {
		if _, _, err := parseMeta(m.Value, func() string { return "meta[" + strconv.Quote(m.Key) + "]" }); err != nil {
			return nil, nil, 0, err
		}
	}
	return ents, results, latest, nil
}

// objectAt returns v's member name, which must be an object when present;
// an empty object when absent.
func objectAt(v value.Value, name string) (value.Value, error) {
	m := v.Get(name)
	switch m.Kind() {
	case value.Undefined:
		return value.Obj(), nil
	case value.Object:
		return m, nil
	}
	return value.Undef, fmtlite.Errorf("%s: %s, not an object", name, schema.KindName(m))
}

// index finds an object's members by name in constant time: members are
// looked up in the order they are listed most of the time (a snapshot's
// tables and their metas are both sorted by key), so the next member is
// tried first, and a map is built only when that misses.
type index struct {
	ms    []value.Member
	next  int
	byKey map[string]int
}

func newIndex(obj value.Value) *index { return &index{ms: obj.Members()} }

// get returns the member named key, Undefined when absent.
func (x *index) get(key string) value.Value {
	if x.next < len(x.ms) && x.ms[x.next].Key == key {
		x.next++
		return x.ms[x.next-1].Value
	}
	if x.byKey == nil {
		x.byKey = make(map[string]int, len(x.ms))
		for i := range x.ms {
			x.byKey[x.ms[i].Key] = i
		}
	}
	i, ok := x.byKey[key]
	if !ok {
		return value.Undef
	}
	x.next = i + 1
	return x.ms[i].Value
}

// parseMeta reads a meta ({date, fetchedAt, expiresAt, deleted?}); where
// names it, for messages.
func parseMeta(m value.Value, whereOf func() string) (store.ResultMeta, bool, error) {
	var out store.ResultMeta
	if m.IsUndefined() {
		return out, false, fmtlite.Errorf("%s: missing", whereOf())
	}
	if m.Kind() != value.Object {
		return out, false, fmtlite.Errorf("%s: %s, not an object", whereOf(), schema.KindName(m))
	}
	fields := [...]struct {
		name     string
		dst      *int64
		optional bool
	}{
		{"fetchedAt", &out.FetchedAt, false},
		{"expiresAt", &out.ExpiresAt, false},
		{"date", &out.Date, true},
	}
	for _, f := range fields {
		x := m.Get(f.name)
		if x.IsUndefined() && f.optional {
			*f.dst = out.FetchedAt
			continue
		}
		if x.Kind() != value.Number {
			return out, false, fmtlite.Errorf("%s.%s: %s, not a number", whereOf(), f.name, schema.KindName(x))
		}
		t, err := schema.MillisOf(x)
		if err != nil {
			return out, false, fmtlite.Errorf("%s.%s: %w", whereOf(), f.name, err)
		}
		*f.dst = t
	}
	deleted := false
	if d := m.Get("deleted"); !d.IsUndefined() {
		if d.Kind() != value.Bool {
			return out, false, fmtlite.Errorf("%s.deleted: %s, not a boolean", whereOf(), schema.KindName(d))
		}
		deleted = d.Boolean()
	}
	return out, deleted, nil
}
