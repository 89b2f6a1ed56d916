package rest

import (
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Paginated returns an endpoint for an infinite list: it fetches the page
// named by params[cursorParam], but its Key leaves that param out, so every
// page is stored under the key of the list. As with data-client, a fetch
// with a cursor appends its page's entities to the stored list
// (deduplicated by pk, in order), and a fetch without one (the cursor
// absent, null or "") replaces the list with the first page, so that a
// refresh drops what the server no longer has. A first page named by a
// cursor value (page=1, offset=0) appends like any other. The schema must
// be a list ([S]) or an object with a list member (as {results: [S],
// nextPage: ""}); for the latter the other members, such as the next page's
// token, are taken from the newest page.
func (e *Endpoint) Paginated(cursorParam string) (*Endpoint, error) {
	if cursorParam == "" {
		return nil, fmtlite.Errorf("%s: paginated: empty cursor param", e.name)
	}
	if e.path.hasToken(cursorParam) {
		return nil, fmtlite.Errorf("%s: paginated: cursor param %q is a path token of %s, so it cannot be left out of the key",
			e.name, cursorParam, e.path.raw)
	}
	return e.paginate(cursorParam, func(params value.Value) (value.Value, error) { return params.Without(cursorParam), nil })
}

// PaginatedBy is Paginated for a cursor that removeCursor takes out of
// the params (data-client's paginated(removeCursor)): the key, and the
// args of the collection the pages go to, are of the params it returns.
// As in data-client, every page it fetches is appended (the list's own
// endpoint fetches the first).
func (e *Endpoint) PaginatedBy(removeCursor func(params value.Value) (value.Value, error)) (*Endpoint, error) {
	return e.paginate("", removeCursor)
}

func (e *Endpoint) paginate(cursor string, strip func(value.Value) (value.Value, error)) (*Endpoint, error) {
	merge, err := pageMerger(e.opts.Schema)
	if err != nil {
		return nil, fmtlite.Errorf("%s: paginated: %w", e.name, err)
	}
	n := *e
	n.cursor, n.strip = cursor, strip
	spec := *e.spec
	spec.Args = n.args()
	spec.MergeResult = func(params value.Value) func(existing, incoming value.Value) value.Value {
		if n.firstPage(params) {
			return nil // replace: the list starts again
		}
		return merge
	}
	n.spec = &spec
	return &n, nil
}

// firstPage reports whether params ask a paginated endpoint for the first
// page: its cursor param names none (see isFirstPage). Pages of
// PaginatedBy are never the first.
func (e *Endpoint) firstPage(params value.Value) bool {
	return e.cursor != "" && isFirstPage(params.Get(e.cursor))
}

// RequestKey is Key for a request: for a Paginated endpoint it adds the
// cursor when one names a page past the first, so that requests for
// different pages are never shared though they store to one result.
func (e *Endpoint) RequestKey(params value.Value) (string, error) {
	key, err := e.Key(params)
	if err != nil || e.strip == nil || e.firstPage(params) {
		return key, err
	}
	if e.cursor == "" {
		return key + " " + params.JSON(), nil
	}
	return key + " " + e.cursor + "=" + params.Get(e.cursor).JSON(), nil
}

// Cursor returns the cursor param of a Paginated endpoint; "" for others
// (PaginatedBy's too).
func (e *Endpoint) Cursor() string { return e.cursor }

// isFirstPage reports whether a cursor param asks for the first page of a
// list: absent, null or the empty string, as a page token that names no
// page is.
func isFirstPage(cursor value.Value) bool {
	return cursor.IsNullish() || (cursor.Kind() == value.String && cursor.Str() == "")
}

// pageMerger returns the MergeResult for a paginated schema.
func pageMerger(s schema.Schema) (func(existing, incoming value.Value) value.Value, error) {
	switch s := s.(type) {
	case *schema.Array:
		return appendPage, nil
	case *schema.Collection:
		// The result is the collection's pk, the same for every page: the
		// collection appends the page itself (schema.Args.Append).
		return appendPage, nil
	case *schema.Object:
		// The first list member, at any depth ({data: {results: [S]}}).
		for _, f := range s.Fields {
			var inner func(existing, incoming value.Value) value.Value
			switch f.Schema.(type) {
			case *schema.Array, *schema.Collection:
				inner = appendPage
			case *schema.Object:
				inner, _ = pageMerger(f.Schema)
			}
			if inner == nil {
				continue
			}
			member := f.Name
			return func(existing, incoming value.Value) value.Value {
				if existing.Kind() != value.Object || incoming.Kind() != value.Object {
					return incoming
				}
				return incoming.With(member, inner(existing.Get(member), incoming.Get(member)))
			}, nil
		}
		return nil, fmtlite.Errorf("object schema has no list member to append pages to")
	case nil:
		return nil, fmtlite.Errorf("endpoint has no schema; want a list or an object with a list member")
	}
	return nil, fmtlite.Errorf("schema %T is not a list or an object with a list member", s)
}

// appendPage appends the pks of incoming that existing lacks, in order.
// When either is not a list the incoming one replaces the stored one; when
// nothing is new the existing list itself is returned, so readers keep
// their identical result.
func appendPage(existing, incoming value.Value) value.Value {
	return schema.AppendNew(existing, incoming)
}
