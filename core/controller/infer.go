package controller

import (
	"math"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Results inferred from entities (data-client's queryKey).
//
// A read (Suspense, FetchIfStale, GetResponse, a subscription) of an
// endpoint whose schema is a single Entity (or an object schema of entities
// and defaults, see inferFor), with params that name a pk as the entity
// computes it (schema.Entity.PKFromParams), is answered from the entity
// table when nothing is stored under the endpoint's key: a detail view
// opened from a list needs no request, although its endpoint was never
// fetched. So is one whose schema is a Collection stored for the params
// (schema.Collection.PK): a list whose argsKey leaves out a lens is read
// with another lens without a request. The rules:
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

// inference is what a read needs to be inferred: the read's args, which
// every read of the result is made with (they select the lenses of a
// schema.Lens), and what to infer, nil when nothing can be.
type inference struct {
	args schema.Args
	spec *inferSpec
}

// inferSpec is the endpoint's schema, the result its params name (an
// entity's pk, or for an object schema an object of them) and the entities
// that result reads.
type inferSpec struct {
	schema schema.Schema
	result value.Value
	refs   []entityRef
}

// entityRef is an entity and the pk params name of it.
type entityRef struct {
	entity *schema.Entity
	pk     string
}

// maxInferDepth bounds how deep object schemas are followed for inference.
const maxInferDepth = 8

// inferFor works out the inference for a read of ep with params: an
// endpoint whose schema is an Entity or a Collection, or an object schema
// whose members are those (at any depth of nested object schemas) and
// defaults, as
// data-client infers one ({data: Article, extra: ”} with {id: 1} reads
// article 1 with extra ”); every entity member must be named by params.
// It must run outside c.mu: an entity's PKFunc is caller code, which may
// call the controller.
func inferFor(ep endpoint.Endpoint, params value.Value) inference {
	spec := ep.Spec()
	inf := inference{args: schema.Args{Params: params}}
	if spec.SideEffect {
		return inf
	}
	is := &inferSpec{schema: spec.Schema}
	result, ok := is.infer(spec.Schema, params, 0)
	if !ok || len(is.refs) == 0 {
		return inf
	}
	is.result = result
	inf.spec = is
	return inf
}

// refs returns the entities the inferred result reads; none when nothing
// is inferred.
func (inf inference) refs() []entityRef {
	if inf.spec == nil {
		return nil
	}
	return inf.spec.refs
}

// infer returns the result params name for s, adding the entities it reads
// to inf.refs; ok is false when s is not inferable or params name no pk.
func (inf *inferSpec) infer(s schema.Schema, params value.Value, depth int) (value.Value, bool) {
	if e, ok := s.(*schema.Entity); ok {
		pk, ok := e.PKFromParams(params)
		if ok {
			inf.refs = append(inf.refs, entityRef{e, pk})
		}
		return value.Str(pk), ok
	}
	if c, ok := s.(*schema.Collection); ok && c != nil {
		// The collection the params name (its argsKey may leave some
		// out, as a lens): stored by another endpoint, or under another
		// key of this one.
		pk, err := c.PK(schema.Args{Params: params})
		if err != nil {
			return value.Undef, false
		}
		inf.refs = append(inf.refs, entityRef{c.Table(), pk})
		return value.Str(pk), true
	}
	o, ok := s.(*schema.Object)
	if !ok || o == nil || depth >= maxInferDepth {
		return value.Undef, false
	}
	var members []value.Member
	for _, f := range o.Fields {
		if f.Schema == nil {
			continue // a default: the read fills it in
		}
		v, ok := inf.infer(f.Schema, params, depth+1)
		if !ok {
			return value.Undef, false
		}
		members = append(members, value.M(f.Name, v))
	}
	return value.Obj(members...), true
}

// inferred fills r with the read of inf's result when it can stand for the
// stored result (see the rules above) and reports whether it did: each
// entity it reads is there, and its expiresAt is the earliest of theirs.
// Called with c.mu held, for a key that holds no result and no kept error.
func (c *Controller) inferred(inf inference, now int64, r *endpoint.Response) bool {
	if inf.spec == nil {
		return false
	}
	expiresAt := int64(math.MaxInt64)
	for _, ref := range inf.spec.refs {
		slot := c.st.Slot(ref.entity.Key, ref.pk)
		if slot == nil || slot.Deleted || now >= slot.Meta.ExpiresAt {
			return false
		}
		expiresAt = min(expiresAt, slot.Meta.ExpiresAt)
	}
	data, st := schema.DenormalizeArgs(inf.spec.schema, inf.spec.result, c.st, nil, c.st.Version(), inf.args)
	if st != schema.Found {
		return false
	}
	r.Data, r.ExpiryStatus, r.ExpiresAt, r.Inferred = data, endpoint.Valid, expiresAt, true
	return true
}
