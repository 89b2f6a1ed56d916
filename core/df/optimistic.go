package df

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// ErrAbortOptimistic, returned by an Optimistic function, applies nothing
// before the server answers; the request still runs.
var ErrAbortOptimistic = endpoint.ErrAbortOptimistic

// Snapshot is the cache as an optimistic response sees it: what was stored
// when the mutation was made. Read it with Stored.
type Snapshot struct {
	s endpoint.Snapshot
}

// FetchedAt is when the mutation was made.
func (s Snapshot) FetchedAt() int64 { return s.s.FetchedAt() }

// Stored returns the record of entity T that params (a struct or a map
// naming its pk, as {"id": "1"}) name, as the snapshot holds it; nil when
// none is stored. The record must not be changed: copy it.
func Stored[T any](snap Snapshot, params any) (*T, error) {
	e, err := EntityOf[T]()
	if err != nil {
		return nil, err
	}
	p, err := encodeParams(params)
	if err != nil {
		return nil, err
	}
	v, err := snap.s.Get(e, p)
	if err != nil || v.IsUndefined() {
		return nil, err
	}
	pl, err := planOf(reflect.TypeFor[*T]())
	if err != nil {
		return nil, err
	}
	var out *T
	if err := decodeValue(pl, v, unsafe.Pointer(&out)); err != nil {
		return nil, fmt.Errorf("%s: %w", e.Key, err)
	}
	return out, nil
}

// Optimistic makes an optimistic response (Options.GetOptimisticResponse)
// of f, written in the endpoint's own types: f gets the params decoded as
// P and the body as B (the structs the call was made with, through their
// member names) and returns the data to apply as if the server had
// answered it, an R such as *Article:
//
//	o.GetOptimisticResponse = df.Optimistic(func(snap df.Snapshot, p ArticleParams, b Publish) (*Article, error) {
//		a, err := df.Stored[Article](snap, p)
//		if a == nil || err != nil {
//			return nil, df.ErrAbortOptimistic // nothing stored to change
//		}
//		changed := *a
//		changed.Published = b.Published
//		return &changed, nil
//	})
//
// A record without its pk (a create's, the pk the zero string) is stored
// under a temporary one until the server answers. Params or a body that
// do not decode as P or B (a raw body, a string) fail the mutation with an
// error naming the member, and so does an R that does not encode; f's own
// errors fail it too, but for ErrAbortOptimistic.
func Optimistic[P, B, R any](f func(snap Snapshot, params P, body B) (R, error)) func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
	pp, perr := planOf(reflect.TypeFor[P]())
	bp, berr := planOf(reflect.TypeFor[B]())
	return func(snap endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
		if err := errors.Join(perr, berr); err != nil {
			return value.Undef, err
		}
		var p P
		if err := decodeValue(pp, params, unsafe.Pointer(&p)); err != nil {
			return value.Undef, fmt.Errorf("params: %w", err)
		}
		var b B
		switch x := body.(type) {
		case nil:
		case value.Value:
			if err := decodeValue(bp, x, unsafe.Pointer(&b)); err != nil {
				return value.Undef, fmt.Errorf("body: %w", err)
			}
		default:
			return value.Undef, fmt.Errorf("body: a %T cannot be read as %s", body, reflect.TypeFor[B]())
		}
		r, err := f(Snapshot{snap}, p, b)
		if err != nil {
			return value.Undef, err
		}
		v, err := Encode(r)
		if err != nil {
			return value.Undef, fmt.Errorf("optimistic response: %w", err)
		}
		return v, nil
	}
}
