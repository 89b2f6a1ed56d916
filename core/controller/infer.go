package controller

import (
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Results inferred from entities (data-client's queryKey).
//
// A read (Suspense, FetchIfStale, GetResponse, a subscription) of an
// endpoint whose schema is a single Entity, with params that name a pk as
// the entity computes it (schema.Entity.PKFromParams), is answered from the
// entity table when nothing is stored under the endpoint's key: a detail
// view opened from a list needs no request, although its endpoint was
// never fetched. The rules:
//
//   - Only when the key holds no result. A stored result, even stale or
//     invalid, is the endpoint's own answer and is read as before.
//   - Only a visible entity (optimistic data included) that is neither
//     deleted nor expired, and whose read is complete. The read is Valid,
//     with the entity's expiresAt (from the response that stored it); past
//     it, it is not inferred and the read is Missing (it fetches and
//     waits), never Stale: the entity was not fetched for this endpoint.
//   - Not while the key keeps an error (a failed fetch, SetError) or is
//     invalidated (Invalidate marks the key even when nothing is stored):
//     both are this result's own state, and say it must be fetched.
//   - Not for mutations (SideEffect): their result is what their request
//     returned, not a read of the entity.
//
// The data is the entity's read form, memoized on the entity's slot: the
// identical value that the same entity has inside any other result (a
// list), and the same value again while the entity is unchanged.

// inference is what a read needs to be inferred: the entity its endpoint's
// schema is, and the pk its params name. The zero value infers nothing.
// It carries the read's args too, which every read of the result is made
// with (they select the lenses of a schema.Lens).
type inference struct {
	entity *schema.Entity
	pk     string
	args   schema.Args
}

// inferFor works out the inference for a read of ep with params. It must
// run outside c.mu: the entity's PKFunc is caller code, which may call the
// controller.
func inferFor(ep endpoint.Endpoint, params value.Value) inference {
	spec := ep.Spec()
	args := schema.Args{Params: params}
	e, ok := spec.Schema.(*schema.Entity)
	if !ok || e == nil || spec.SideEffect {
		return inference{args: args}
	}
	pk, ok := e.PKFromParams(params)
	if !ok {
		return inference{args: args}
	}
	return inference{entity: e, pk: pk, args: args}
}

// inferred fills r with the read of inf's entity when it can stand for the
// result (see the rules above) and reports whether it did. Called with c.mu
// held, for a key that holds no result and no kept error.
func (c *Controller) inferred(inf inference, now int64, r *endpoint.Response) bool {
	if inf.entity == nil {
		return false
	}
	slot := c.st.Slot(inf.entity.Key, inf.pk)
	if slot == nil || slot.Deleted || now >= slot.Meta.ExpiresAt {
		return false
	}
	data, st := schema.DenormalizeArgs(inf.entity, value.Str(inf.pk), c.st, nil, c.st.Version(), inf.args)
	if st != schema.Found {
		return false
	}
	r.Data, r.ExpiryStatus, r.ExpiresAt, r.Inferred = data, endpoint.Valid, slot.Meta.ExpiresAt, true
	return true
}
