package df

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
)

// Resource is a REST resource of entity T (rest.NewResource), its
// endpoints typed: reads of one record return *T, the list []*T. Push,
// Unshift, Remove and Move are the endpoints GetList's Collection derives
// (getList.push... in data-client), typed as the record they send and
// store; nil when GetList holds no Collection (Extend gave it another
// schema).
type Resource[T any] struct {
	Get, Create, Update, PartialUpdate, Delete *Endpoint[*T]
	GetList                                    *Endpoint[[]*T]
	Push, Unshift, Remove, Move                *Endpoint[*T]
	// Rest is the untyped resource, for endpoints added by Extend (type
	// them with Wrap) and for the controller's untyped methods.
	Rest *rest.Resource
}

// NewResource returns the resource of T on o.Path, as rest.NewResource
// does. o.Schema is T's entity (EntityOf) when nil; one that is set must
// be it.
func NewResource[T any](o rest.ResourceOptions) (*Resource[T], error) {
	e, err := EntityOf[T]()
	if err != nil {
		return nil, err
	}
	if o.Schema == nil {
		o.Schema = e
	} else if o.Schema != e {
		return nil, fmt.Errorf("df: NewResource[%s]: Schema is not EntityOf[%[1]s]", reflect.TypeFor[T]())
	}
	r, err := rest.NewResource(o)
	if err != nil {
		return nil, err
	}
	return typeResource[T](r)
}

// typeResource types the built-in endpoints of r.
func typeResource[T any](r *rest.Resource) (*Resource[T], error) {
	out := &Resource[T]{Rest: r}
	var err error
	one := []struct {
		dst **Endpoint[*T]
		ep  *rest.Endpoint
	}{{&out.Get, r.Get}, {&out.Create, r.Create}, {&out.Update, r.Update},
		{&out.PartialUpdate, r.PartialUpdate}, {&out.Delete, r.Delete}}
	for _, x := range one {
		if *x.dst, err = Wrap[*T](x.ep); err != nil {
			return nil, err
		}
	}
	if out.GetList, err = Wrap[[]*T](r.GetList); err != nil {
		return nil, err
	}
	derived := []struct {
		dst  **Endpoint[*T]
		make func() (*rest.Endpoint, error)
	}{{&out.Push, r.GetList.Push}, {&out.Unshift, r.GetList.Unshift}, {&out.Remove, r.GetList.Remove}, {&out.Move, r.GetList.Move}}
	for _, x := range derived {
		ep, err := x.make()
		if err != nil {
			continue // no Collection to derive it from
		}
		if *x.dst, err = Wrap[*T](ep); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Extend returns a resource whose endpoints named in changes are extended,
// as rest.Resource.Extend does; endpoints it adds are in Rest, by name. A
// name that differs from one of the resource's only in case
// ("partialupdate") is refused as the typo it is, rather than adding an
// endpoint.
func (r *Resource[T]) Extend(changes map[string]func(o *rest.Options)) (*Resource[T], error) {
	names := r.Rest.Names()
	for name := range changes {
		for _, known := range names {
			if name != known && strings.EqualFold(name, known) {
				return nil, fmt.Errorf("df: Extend: the resource has no endpoint %q: did you mean %q?", name, known)
			}
		}
	}
	x, err := r.Rest.Extend(changes)
	if err != nil {
		return nil, err
	}
	return typeResource[T](x)
}

// Schema returns T's entity.
func (r *Resource[T]) Schema() *schema.Entity {
	e, _ := EntityOf[T]() // cannot fail: NewResource made it
	return e
}
