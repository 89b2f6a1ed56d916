package restserver

import (
	"encoding/json"
	"net/http"
	"net/url"
)

// CollectionSpec says what is particular to one kind of record served by a
// [Collection]; everything else (the table, server-assigned ids, the six
// handlers and their errors) is the same for every kind.
type CollectionSpec[T any] struct {
	// Noun names one record in errors, as in "article 999 not found".
	Noun string
	// Seed returns the records a reset starts from, in list order.
	Seed func() []T
	// ID returns a record's id as it appears in its URL.
	ID func(T) string
	// Blank returns the record a create (old is nil) or a replace starts
	// from before the body's fields are applied: every editable field at
	// its default, the server's own fields (id, creation time) kept from
	// old or set anew.
	Blank func(old *T) T
	// SetID gives a created record the server-assigned id n.
	SetID func(r *T, n int)
	// Apply copies the editable members present in fields onto r; a
	// member it cannot decode is a 400 reply (see [DecodeField]).
	Apply func(r *T, fields map[string]json.RawMessage) *Reply
	// Filter, when set, selects the records a list answers from its query
	// (as ?userId=3); a query it cannot read is a 400 reply. Nil lists
	// every record whatever the query.
	Filter func(rows []T, q url.Values) ([]T, *Reply)
}

// Collection is an in-memory resource of records of one kind, served by the
// same create, replace, patch and delete handlers whatever the kind. Its
// handlers run as state routes (see [Server.HandleState]): the server's
// lock serializes them, so a Collection has no lock of its own. Created
// records get ids from 101 up, far above the seed ids, so a test can tell a
// created record from a seeded one.
type Collection[T any] struct {
	spec CollectionSpec[T]
	rows *Table[T]
	next int
}

// NewCollection returns a collection holding spec.Seed's records.
func NewCollection[T any](spec CollectionSpec[T]) *Collection[T] {
	c := &Collection[T]{spec: spec}
	c.Reset()
	return c
}

// Reset restores the seed records and the first server-assigned id.
func (c *Collection[T]) Reset() {
	c.rows = NewTable[T]()
	for _, r := range c.spec.Seed() {
		c.rows.Put(c.spec.ID(r), r)
	}
	c.next = firstCreatedID
}

// All returns the records in list order.
func (c *Collection[T]) All() []T { return c.rows.All() }

// record returns the record named by the request's {id}, or a 404 reply.
func (c *Collection[T]) record(r *http.Request) (T, *Reply) {
	id := r.PathValue("id")
	v, ok := c.rows.Get(id)
	if !ok {
		rp := errorReply(http.StatusNotFound, "%s %s not found", c.spec.Noun, id)
		return v, &rp
	}
	return v, nil
}

// List answers every record, or those the spec's Filter selects.
func (c *Collection[T]) List(r *http.Request) Reply {
	rows := c.rows.All()
	if c.spec.Filter != nil {
		var rp *Reply
		if rows, rp = c.spec.Filter(rows, r.URL.Query()); rp != nil {
			return *rp
		}
	}
	return jsonReply(http.StatusOK, rows)
}

// Get answers the record {id}.
func (c *Collection[T]) Get(r *http.Request) Reply {
	v, rp := c.record(r)
	if rp != nil {
		return *rp
	}
	return jsonReply(http.StatusOK, v)
}

// Create stores a new record under the next server id, whatever id the
// client sent: that is how a client learns the real id of an
// optimistically created record. It answers 201 with the record.
func (c *Collection[T]) Create(r *http.Request) Reply {
	fields, rp := decodeObject(r)
	if rp != nil {
		return *rp
	}
	v := c.spec.Blank(nil)
	if rp := c.spec.Apply(&v, fields); rp != nil {
		return *rp
	}
	c.spec.SetID(&v, c.next)
	c.next++
	c.rows.Put(c.spec.ID(v), v)
	return jsonReply(http.StatusCreated, v)
}

// Replace resets every editable field of {id} to the body or its default,
// keeping the server's own fields.
func (c *Collection[T]) Replace(r *http.Request) Reply { return c.update(r, true) }

// Patch changes only the fields sent and answers the whole record, id
// included, so the client's normalized cache can merge it.
func (c *Collection[T]) Patch(r *http.Request) Reply { return c.update(r, false) }

// update applies the body's fields to the record {id}, stores the result
// and answers it. A replace applies them to a blank record that keeps only
// the server's own fields of the old one (see [CollectionSpec.Blank]); a
// patch applies them to the record as it is.
func (c *Collection[T]) update(r *http.Request, replace bool) Reply {
	v, rp := c.record(r)
	if rp != nil {
		return *rp
	}
	fields, rp := decodeObject(r)
	if rp != nil {
		return *rp
	}
	if replace {
		v = c.spec.Blank(&v)
	}
	if rp := c.spec.Apply(&v, fields); rp != nil {
		return *rp
	}
	c.rows.Put(c.spec.ID(v), v)
	return jsonReply(http.StatusOK, v)
}

// Delete removes {id} and answers 204 with an empty body.
func (c *Collection[T]) Delete(r *http.Request) Reply {
	id := r.PathValue("id")
	if !c.rows.Remove(id) {
		return errorReply(http.StatusNotFound, "%s %s not found", c.spec.Noun, id)
	}
	return noContent()
}

// HandleCollection serves c under base, such as "/articles": GET and POST
// on base, GET, PUT, PATCH and DELETE on base/{id}. With slash, base/
// answers as base does (the legacy resources' trailing slash is optional).
func HandleCollection[T any](s *Server, base string, c *Collection[T], slash bool) {
	for _, r := range []struct {
		pattern string
		fn      func(*http.Request) Reply
	}{
		{"GET " + base, c.List},
		{"POST " + base, c.Create},
		{"GET " + base + "/{id}", c.Get},
		{"PUT " + base + "/{id}", c.Replace},
		{"PATCH " + base + "/{id}", c.Patch},
		{"DELETE " + base + "/{id}", c.Delete},
	} {
		s.HandleState(r.pattern, r.fn)
	}
	if slash {
		s.HandleState("GET "+base+"/{$}", c.List)
		s.HandleState("POST "+base+"/{$}", c.Create)
	}
}
