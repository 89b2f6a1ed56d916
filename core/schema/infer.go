package schema

import "github.com/datafetch/datafetch/core/value"

// PKFromParams returns the primary key that a read of this entity with
// params names, so that a controller can answer a read of an endpoint
// whose schema is this entity from the entity table, without a request
// (data-client's queryKey). ok is false when params name no key.
//
// The params stand in for the record, and the key is computed as the
// entity computes it from a record: the PK field of params (so {id: 5} for
// the default pk, {slug: "a"} for PK "slug"; 5 and "5" name one entity),
// or PKFunc called with params, no parent, an empty member key and
// [params] as its args. A PKFunc that fails on params (it errors, panics,
// or finds no key) infers nothing: params are not a record, and a pk
// function written for records may well refuse them; the read then
// fetches as it would without inference. Process is not applied: it transforms response records, and
// params are not one; an entity whose Process makes the key is looked up
// by the key params name, and at worst not found.
//
// A PKFunc is caller code: callers must not hold locks the function may
// need (the controller calls this outside its lock).
func (e *Entity) PKFromParams(params value.Value) (pk string, ok bool) {
	if e == nil || params.Kind() != value.Object {
		return "", false
	}
	defer func() {
		if recover() != nil {
			pk, ok = "", false
		}
	}()
	pk, ok, err := e.PKOf(params, value.Undef, "", value.Arr(params))
	if err != nil || !ok || pk == "" {
		// An empty key is no key, as in normalize.
		return "", false
	}
	return pk, true
}
