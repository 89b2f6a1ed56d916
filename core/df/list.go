package df

import (
	"fmt"
	"reflect"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
)

// List is a resource's list read as an envelope L, a struct that holds a
// page of T and what else the server sends with it (data-client's
// {results: new Collection([Article]), nextCursor: ""}):
//
//	type ArticlePage struct {
//		Results    []*Article `df:"results,collection"`
//		NextCursor string     `df:"nextCursor"`
//	}
//
// The field tagged collection is the list Push, Unshift, Remove and Move
// add to and take from; GetPage appends the page its cursor names to it.
type List[L, T any] struct {
	// GetList reads the list: the resource's getList with L's schema.
	GetList *Endpoint[L]
	// GetPage fetches the page its PaginationField param names and appends
	// its records to the list GetList reads (each once, in order), the
	// other members of L taken from the newest page; a page without the
	// param (absent or "") starts the list again. nil when the resource
	// has no PaginationField option.
	GetPage *Endpoint[L]
	// Push creates a record and appends it to the stored lists whose
	// params match; Unshift prepends it; Remove takes the record it
	// answers out of them; Move moves it between them (see rest.Endpoint's
	// methods of those names).
	Push, Unshift, Remove, Move *Endpoint[*T]
}

// ListOf returns the list of r read as L, which must be a struct with one
// field tagged collection holding T (a []*T). Its getList keeps every
// option of r's (path, PaginationField, Optimistic responses), its schema
// replaced by L's. It fails, naming L, when L has no such field.
func ListOf[L, T any](r *Resource[T]) (*List[L, T], error) {
	lt := reflect.TypeFor[L]()
	s, err := SchemaOf[L]()
	if err != nil {
		return nil, err
	}
	e := r.Schema()
	if c := collectionIn(s); c == nil || !holds(c, e) {
		return nil, fmt.Errorf("df: ListOf[%s]: no field tagged collection holds []*%s", lt, reflect.TypeFor[T]())
	}
	get, err := r.Rest.GetList.Extend(func(o *rest.Options) { o.Schema = s })
	if err != nil {
		return nil, err
	}
	out := &List[L, T]{}
	if out.GetList, err = Wrap[L](get); err != nil {
		return nil, err
	}
	if get.Options().PaginationField != "" {
		page, err := get.GetPage()
		if err != nil {
			return nil, err
		}
		if out.GetPage, err = Wrap[L](page); err != nil {
			return nil, err
		}
	}
	derived := []struct {
		dst  **Endpoint[*T]
		make func() (*rest.Endpoint, error)
	}{{&out.Push, get.Push}, {&out.Unshift, get.Unshift}, {&out.Remove, get.Remove}, {&out.Move, get.Move}}
	for _, x := range derived {
		ep, err := x.make()
		if err != nil {
			return nil, err
		}
		if *x.dst, err = Wrap[*T](ep); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// collectionIn returns the first Collection in an object schema's fields.
func collectionIn(s schema.Schema) *schema.Collection {
	switch s := s.(type) {
	case *schema.Collection:
		return s
	case *schema.Object:
		for _, f := range s.Fields {
			if c := collectionIn(f.Schema); c != nil {
				return c
			}
		}
	}
	return nil
}

// holds reports whether c is a list or values of e.
func holds(c *schema.Collection, e *schema.Entity) bool {
	switch of := c.Of.(type) {
	case *schema.Array:
		return of.Of == e
	case *schema.Values:
		return of.Of == e
	}
	return false
}
