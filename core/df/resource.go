package df

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
)

// Options configures an endpoint (rest.Options), named here so that typed
// code needs no other import than df.
type Options = rest.Options

// ResourceOptions configures NewResource (rest.ResourceOptions).
type ResourceOptions = rest.ResourceOptions

// NetworkError is the error of a failed request (rest.NetworkError): find
// it with errors.As for its Status.
type NetworkError = rest.NetworkError

// Resource is a REST resource of entity T (rest.NewResource), its
// endpoints typed: reads of one record return *T, the list []*T. Push,
// Unshift, Remove and Move are the endpoints GetList's Collection derives
// (getList.push... in data-client), typed as the record they send and
// store; nil when GetList holds no Collection (Extend gave it another
// schema). A list the server sends in an envelope ({results, nextCursor})
// is read with ListOf.
type Resource[T any] struct {
	Get, Create, Update, PartialUpdate, Delete *Endpoint[*T]
	GetList                                    *Endpoint[[]*T]
	// GetPage fetches the page its PaginationField param names and
	// appends its records to the list GetList reads (each once, in
	// order); params without it fetch the first page and start the list
	// again. nil without a PaginationField option.
	GetPage                     *Endpoint[[]*T]
	Push, Unshift, Remove, Move *Endpoint[*T]
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
	if r.GetList.Options().PaginationField != "" {
		page, err := r.GetList.GetPage()
		if err != nil {
			return nil, err
		}
		if out.GetPage, err = Wrap[[]*T](page); err != nil {
			return nil, err
		}
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
// as rest.Resource.Extend and data-client's resource.extend do: a known
// name changes that endpoint, a new one adds an endpoint (in Rest, by
// name; type it with Wrap). Because a mistyped name would silently add an
// endpoint rather than change the one meant, a new name that is a near
// miss of a known one is refused, naming it: one that differs only in
// case ("partialupdate"), or by at most one edit (a letter added, dropped,
// changed, or two swapped) per four letters of the known name
// ("partialUpdte", "udpate", "getLists"; names of three letters or fewer,
// as "get", only by case). To add an endpoint whose name is that close
// on purpose, use Add.
func (r *Resource[T]) Extend(changes map[string]func(o *Options)) (*Resource[T], error) {
	names := r.Rest.Names()
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		if slices.Contains(names, name) {
			continue
		}
		if known, ok := nearMiss(name, names); ok {
			return nil, fmt.Errorf("df: Extend: the resource has no endpoint %q: did you mean %q? (Add adds an endpoint of that name)", name, known)
		}
	}
	return r.extend(changes)
}

// Add returns a resource with the endpoints named in adds added, each
// starting as a copy of get changed by its function, as Extend adds new
// names but without the near-miss check. A name the resource has already
// is refused: Extend changes endpoints.
func (r *Resource[T]) Add(adds map[string]func(o *Options)) (*Resource[T], error) {
	names := r.Rest.Names()
	for _, name := range slices.Sorted(maps.Keys(adds)) {
		if slices.Contains(names, name) {
			return nil, fmt.Errorf("df: Add: the resource has an endpoint %q already (Extend changes it)", name)
		}
	}
	return r.extend(adds)
}

func (r *Resource[T]) extend(changes map[string]func(o *Options)) (*Resource[T], error) {
	x, err := r.Rest.Extend(changes)
	if err != nil {
		return nil, err
	}
	return typeResource[T](x)
}

// nearMiss returns the known name that name is a likely typo of: equal but
// for case, or within one edit per four letters of it (case ignored).
func nearMiss(name string, known []string) (string, bool) {
	for _, k := range known {
		if strings.EqualFold(name, k) {
			return k, true
		}
	}
	for _, k := range known {
		if d := len(k) / 4; d > 0 && editDistance(strings.ToLower(name), strings.ToLower(k), d) <= d {
			return k, true
		}
	}
	return "", false
}

// editDistance returns the optimal string alignment distance of a and b
// (insertions, deletions, substitutions and swaps of adjacent bytes), or
// a number above limit once it is certain to exceed it.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	// prev2, prev and cur are rows i-2, i-1 and i of the distance table.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// Schema returns T's entity.
func (r *Resource[T]) Schema() *schema.Entity {
	e, _ := EntityOf[T]() // cannot fail: NewResource made it
	return e
}
