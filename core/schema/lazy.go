package schema

import (
	"sync/atomic"

	"github.com/datafetch/datafetch/core/value"
)

// Lazy is a relationship that a read leaves unresolved (data-client's
// schema.Lazy): a response is normalized by Of, so its entities are
// stored and the position keeps their pks, as Of alone would keep them;
// a read gives that normalized form as it is (the pks), visiting no
// entity and depending on none, so a change to an entity it names gives
// the value holding it no new identity. The relationship is read on
// demand through Query, with the pks as args.
type Lazy struct {
	Of Schema
	q  atomic.Pointer[LazyQuery]
}

// LazyOf returns the Lazy schema of s.
func LazyOf(s Schema) *Lazy { return &Lazy{Of: s} }

func (l *Lazy) describe() string { return "Lazy(" + Describe(l.Of) + ")" }

func (l *Lazy) normalize(in, parent value.Value, path *pathElem, n *normalizer) (value.Value, error) {
	return l.Of.normalize(in, parent, path, n)
}

// denormalize gives the stored form as it is: no entity is read.
func (l *Lazy) denormalize(v value.Value, _ *denormalizer) (value.Value, Status) {
	return v, Found
}

// Query returns the queryable schema that reads l's relationship from the
// cache (Controller.Get), the same one each time, so that its reads share
// their memos.
func (l *Lazy) Query() *LazyQuery {
	if q := l.q.Load(); q != nil {
		return q
	}
	l.q.CompareAndSwap(nil, &LazyQuery{Of: l.Of})
	return l.q.Load()
}

// LazyQuery reads a Lazy relationship (data-client's LazyQuery, a Lazy's
// .query): args as the Entity or Collection Of reads them (params naming
// the pk; the collection's params), or for any other Of the normalized
// value a Lazy position holds (args[0], as the pks in the parent's
// record), denormalized by Of. Nullish args[0] read as nothing.
type LazyQuery struct{ Of Schema }

func (q *LazyQuery) describe() string { return "Lazy(" + Describe(q.Of) + ").query" }

func (q *LazyQuery) normalize(_, _ value.Value, path *pathElem, _ *normalizer) (value.Value, error) {
	return value.Undef, errorAt(path, q, "a Lazy's query is read from the cache (Controller.Get), not normalized")
}

func (q *LazyQuery) denormalize(v value.Value, d *denormalizer) (value.Value, Status) {
	return q.Of.denormalize(v, d)
}

func (q *LazyQuery) queryInput(args []value.Value) (value.Value, bool, error) {
	switch of := q.Of.(type) {
	case *Entity, *Collection:
		return of.(queryable).queryInput(args)
	}
	if len(args) == 0 || args[0].IsNullish() {
		return value.Undef, false, nil
	}
	return args[0], true, nil
}

func (q *LazyQuery) readSchema() Schema { return ReadSchema(q.Of) }
