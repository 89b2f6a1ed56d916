package rest

import (
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// collectionOf returns the Collection an endpoint's schema is or holds as
// a member at any depth (as {results: Collection, nextPage: ""} or
// {data: {results: Collection}}), the first in field order; nil when none.
func collectionOf(s schema.Schema) *schema.Collection {
	switch s := s.(type) {
	case *schema.Collection:
		return s
	case *schema.Object:
		for _, f := range s.Fields {
			if c := collectionOf(f.Schema); c != nil {
				return c
			}
		}
	}
	return nil
}

// Collection returns the Collection the endpoint's schema is or holds;
// nil when it has none (then Push and the others fail).
func (e *Endpoint) Collection() *schema.Collection { return collectionOf(e.opts.Schema) }

// Push returns the endpoint that creates a record (POST to this endpoint's
// path, the record in the body) and appends it to every stored collection
// of this endpoint's schema whose args match the request's params and body
// (see schema.CollectionAdd), as data-client's endpoint.push: no Update
// function and no refetch. Its result is the created record. Like any
// mutation it may have a GetOptimisticResponse (extend it, or make the
// resource Optimistic, whose push appends the params and body): the
// record, under a temporary id when it has none, is appended at once,
// replaced by the server's on success and taken out on error.
func (e *Endpoint) Push() (*Endpoint, error) { return e.adder(schema.Push, "POST") }

// Unshift is Push that prepends.
func (e *Endpoint) Unshift() (*Endpoint, error) { return e.adder(schema.Unshift, "POST") }

// Assign is Push for a Values collection: the response, a map of records,
// is merged into the matching maps.
func (e *Endpoint) Assign() (*Endpoint, error) { return e.adder(schema.Assign, "POST") }

// Remove returns the endpoint (PATCH to this endpoint's path) whose
// response, a record or a list of them, is taken out of every matching
// collection; the record itself is stored as any response is.
func (e *Endpoint) Remove() (*Endpoint, error) { return e.adder(schema.Remove, "PATCH") }

// Move returns the endpoint (PATCH to the MovePath option, else this
// endpoint's path) that changes a record so that it belongs to other
// collections, as data-client's endpoint.move: the record of the
// response leaves the stored collections its stored record matched and
// its new values (the response's record, the body, the params) do not,
// and is appended to those it matches now and did not before (see
// schema.Move). A resource's getList moves through the record's path.
func (e *Endpoint) Move() (*Endpoint, error) { return e.adder(schema.Move, "PATCH") }

func (e *Endpoint) adder(op schema.CollectionOp, method string) (*Endpoint, error) {
	c := e.Collection()
	if c == nil {
		return nil, fmtlite.Errorf("%s: %s: the schema has no Collection (schema.Collection) to %s", e.name, op, op)
	}
	s, err := c.Adder(op)
	if err != nil {
		return nil, fmtlite.Errorf("%s: %w", e.name, err)
	}
	o := e.Options()
	o.Method, o.Schema, o.SideEffect = method, s, nil
	o.Name = e.name + "." + op.String()
	if op == schema.Move && o.MovePath != "" {
		o.Path = o.MovePath
	}
	o.PaginationField = ""
	return New(o)
}

// GetPage returns the endpoint of the next page of a list whose
// PaginationField is set: it fetches the page named by that param and
// appends its entities to the collection stored without it (each entity
// once, pages in the order fetched). It is Paginated(PaginationField).
func (e *Endpoint) GetPage() (*Endpoint, error) {
	if e.opts.PaginationField == "" {
		return nil, fmtlite.Errorf("%s: getPage: no paginationField option names the page param", e.name)
	}
	return e.Paginated(e.opts.PaginationField)
}

// collectionArgs is Spec.Args for an endpoint that leaves params out of
// its collections' args (PaginationField, a paginated endpoint's cursor).
// A paginated endpoint's page past the first is appended to the
// collection.
func (e *Endpoint) collectionArgs() func(params value.Value, body any) schema.Args {
	field := e.opts.PaginationField
	return func(params value.Value, body any) schema.Args {
		b, _ := body.(value.Value)
		a := schema.Args{Params: params, Body: b}
		if e.strip != nil {
			a.Append = !e.firstPage(params)
			if p, err := e.strip(params); err == nil {
				a.Params = p
			}
		}
		if field != "" {
			a.Params = a.Params.Without(field)
		}
		return a
	}
}
