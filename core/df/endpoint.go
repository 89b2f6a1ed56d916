package df

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Endpoint is an endpoint whose result is read as a Go value of type R:
// *Article for one entity, []*Article for a list, a struct for an object
// (a page with its items and next token), value.Value for the value as it
// is. It runs the endpoint it wraps through a controller; every read
// decodes the controller's result with R's plan, returning the pointers it
// returned before for data that did not change (see the package doc).
//
// Endpoints are immutable and safe for concurrent use.
type Endpoint[R any] struct {
	ep   endpoint.Endpoint
	plan *plan
	name string
	// tokens are the required path tokens of a REST endpoint, and path
	// its path, for the hint Params gives when a param is misnamed.
	tokens []rest.PathToken
	path   string
}

// Wrap returns ep typed by its result R. It fails when R cannot be decoded
// into (a func or channel field, an interface with methods, a map whose keys
// are not strings), naming the field.
func Wrap[R any](ep endpoint.Endpoint) (*Endpoint[R], error) {
	if ep == nil {
		return nil, fmt.Errorf("df: Wrap of a nil endpoint")
	}
	p, err := planOf(reflect.TypeFor[R]())
	if err != nil {
		return nil, err
	}
	e := &Endpoint[R]{ep: ep, plan: p, name: ep.Spec().Name}
	if re, ok := ep.(*rest.Endpoint); ok {
		e.path = re.Options().Path
		for _, tok := range rest.PathTokens(re) {
			if !tok.Optional {
				e.tokens = append(e.tokens, tok)
			}
		}
	}
	return e, nil
}

// Raw returns ep typed by value.Value: its reads return the controller's
// value itself. It is for code that reads values (a cache inspector) with
// the helpers that take typed endpoints.
func Raw(ep endpoint.Endpoint) *Endpoint[value.Value] {
	e, err := Wrap[value.Value](ep)
	if err != nil {
		panic(err) // value.Value always has a plan
	}
	return e
}

// Endpoint returns the untyped endpoint, for the controller's other methods
// (Invalidate by key, Keys) and for building on it (rest's Extend).
func (e *Endpoint[R]) Endpoint() endpoint.Endpoint { return e.ep }

// Name returns the endpoint's name, which prefixes its errors.
func (e *Endpoint[R]) Name() string { return e.name }

// Params encodes params as the endpoint's reads and fetches do: nil is no
// params, a value.Value is used as it is (value.NullV reads nothing), and a
// struct or a map is encoded as Encode does. An error names the endpoint
// and the field. Params that lack a required path token but have a member
// of that name in another case ({"ID": "3"} for :id) fail here, saying
// so, as member names are case-sensitive.
func (e *Endpoint[R]) Params(params any) (value.Value, error) {
	v, err := encodeParams(params)
	if err != nil {
		return value.Undef, fmt.Errorf("%s: %w", e.name, err)
	}
	for _, tok := range e.tokens {
		if v.Kind() != value.Object || !v.Get(tok.Name).IsUndefined() {
			continue
		}
		for _, m := range v.Members() {
			if strings.EqualFold(m.Key, tok.Name) {
				return value.Undef, fmt.Errorf("%s: params: no %q for path token %s, but %q: member names are case-sensitive",
					e.name, tok.Name, e.tokenText(tok), m.Key)
			}
		}
	}
	return v, nil
}

// tokenText names a path token as the path writes it, with the path:
// ":id of /articles/:id".
func (e *Endpoint[R]) tokenText(tok rest.PathToken) string {
	sigil := ":"
	if tok.Wildcard {
		sigil = "*"
	}
	return sigil + tok.Name + " of " + e.path
}

// Key returns the store key of params.
func (e *Endpoint[R]) Key(params any) (string, error) {
	p, err := e.Params(params)
	if err != nil {
		return "", err
	}
	return e.ep.Key(p)
}

// Decode reads v, a result of the endpoint, as an R. Undefined (no data)
// is R's zero value.
func (e *Endpoint[R]) Decode(v value.Value) (R, error) {
	var r R
	if err := decodeValue(e.plan, v, unsafe.Pointer(&r)); err != nil {
		return r, fmt.Errorf("%s: %w", e.name, err)
	}
	return r, nil
}

// Suspense reads the result as controller.Suspense does (cached data at
// once, fetching when there is none) and decodes it.
func (e *Endpoint[R]) Suspense(ctx context.Context, c *controller.Controller, params any) (R, error) {
	p, err := e.Params(params)
	if err != nil {
		var zero R
		return zero, err
	}
	v, err := c.Suspense(ctx, e.ep, p)
	return e.result(v, err)
}

// FetchIfStale fetches only when Suspense would, as
// controller.FetchIfStale does, and decodes the result.
func (e *Endpoint[R]) FetchIfStale(ctx context.Context, c *controller.Controller, params any) (R, error) {
	p, err := e.Params(params)
	if err != nil {
		var zero R
		return zero, err
	}
	v, err := c.FetchIfStale(ctx, e.ep, p)
	return e.result(v, err)
}

// Fetch runs the endpoint now, as controller.Fetch does, and decodes its
// result. body is sent as JSON when it is a struct, a map, a slice or a
// value.Value, as it is when it is a string or []byte; nil sends the
// endpoint's default body. Params and body are checked before anything is
// sent: a field that cannot be encoded fails the call with an error naming
// the endpoint and the field ("Article.create: body: field Published:
// cannot encode func()"). A failed request is a *rest.NetworkError, as with
// the controller.
func (e *Endpoint[R]) Fetch(ctx context.Context, c *controller.Controller, params, body any) (R, error) {
	var zero R
	p, err := e.Params(params)
	if err != nil {
		return zero, err
	}
	b, err := encodeBody(body)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", e.name, err)
	}
	v, err := c.Fetch(ctx, e.ep, p, b)
	return e.result(v, err)
}

// result decodes the value of a controller call that returned err.
func (e *Endpoint[R]) result(v value.Value, err error) (R, error) {
	if err != nil {
		var zero R
		return zero, err
	}
	return e.Decode(v)
}

// Invalidate marks the result invalid, as controller.Invalidate does.
func (e *Endpoint[R]) Invalidate(c *controller.Controller, params any) error {
	p, err := e.Params(params)
	if err != nil {
		return err
	}
	return c.Invalidate(e.ep, p)
}

// SetResponse stores data as if the endpoint had fetched it for params, as
// controller.SetResponse does; data is encoded as Encode does.
func (e *Endpoint[R]) SetResponse(c *controller.Controller, params any, data R) error {
	p, err := e.Params(params)
	if err != nil {
		return err
	}
	v, err := Encode(data)
	if err != nil {
		return fmt.Errorf("%s: data: %w", e.name, err)
	}
	return c.SetResponse(e.ep, p, v)
}

// Response is a synchronous read of one result, decoded.
type Response[R any] struct {
	// Data is the result; R's zero value when Has is false.
	Data R
	// Has is true when a result is stored (it may be stale or invalid).
	Has          bool
	ExpiryStatus endpoint.ExpiryStatus
	// ExpiresAt is when the result goes stale; zero when missing.
	ExpiresAt time.Time
	// Err is the kept error of the last fetch, or the error decoding Data.
	Err error
}

// Response reads the result now, as controller.GetResponse does, optimistic
// data included.
func (e *Endpoint[R]) Response(c *controller.Controller, params any) Response[R] {
	p, err := e.Params(params)
	if err != nil {
		return Response[R]{ExpiryStatus: endpoint.Missing, Err: err}
	}
	r := c.GetResponse(e.ep, p)
	out := Response[R]{ExpiryStatus: r.ExpiryStatus, Err: r.Err, Has: !r.Data.IsUndefined()}
	if r.ExpiresAt != 0 {
		out.ExpiresAt = time.UnixMilli(r.ExpiresAt).UTC()
	}
	if out.Has {
		d, err := e.Decode(r.Data)
		if err != nil {
			out.Has, out.Err = false, err
		} else {
			out.Data = d
		}
	}
	return out
}

// State is what a subscriber is told about one result, decoded.
type State[R any] struct {
	// Data is the result, optimistic data included; R's zero value when
	// Has is false.
	Data R
	// Has is true when a result is stored.
	Has bool
	// Loading is true while a request for the result is in flight.
	Loading bool
	// Err is the kept error of the last fetch, or the error decoding the
	// data (then Has is false).
	Err error
	// ExpiryStatus is the result's status at the time of the change.
	ExpiryStatus endpoint.ExpiryStatus
}

// Usable reports whether Data can be shown: stored and not invalidated
// (invalid data is refetched and waited for, as useSuspense does).
func (s State[R]) Usable() bool { return s.Has && s.ExpiryStatus != endpoint.Invalid }

// StateOf decodes a controller state with the endpoint's plan.
func (e *Endpoint[R]) StateOf(st controller.State) State[R] {
	out := State[R]{Loading: st.Loading, Err: st.Err, ExpiryStatus: st.ExpiryStatus, Has: !st.Data.IsUndefined()}
	if out.Has {
		d, err := e.Decode(st.Data)
		if err != nil {
			out.Has, out.Err = false, err
		} else {
			out.Data = d
		}
	}
	return out
}

// Subscribe subscribes to the result as controller.SubscribeWith does
// (with no options, as Subscribe): listener is called with the decoded state
// now, before Subscribe returns, and after every change, on the goroutine
// that made it. Unchanged entities are the same pointers in every call.
func (e *Endpoint[R]) Subscribe(c *controller.Controller, params any, listener func(State[R]), opts ...controller.SubscribeOptions) (unsubscribe func(), err error) {
	p, err := e.Params(params)
	if err != nil {
		return func() {}, err
	}
	var o controller.SubscribeOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	return c.SubscribeWith(e.ep, p, func(st controller.State) { listener(e.StateOf(st)) }, o)
}

// SchemaOf returns the schema that normalizes results of type R: the
// entity of *T, a list of it for []*T, an object of the fields that hold
// entities for a struct, nil when nothing in R is an entity. Use it as the
// Schema option of endpoints typed by R.
func SchemaOf[R any]() (schema.Schema, error) {
	p, err := planOf(reflect.TypeFor[R]())
	if err != nil {
		return nil, err
	}
	return p.shape, nil
}

// EntityOf returns the entity schema of struct type T: named by T's name
// (or its EntityKey method), its pk the field tagged pk or else named "id",
// defaults the zero value of each field (null for pointers, slices, maps,
// times and the pk), nested schemas for the fields that hold entities and
// schema.Date for time.Time fields. The schema is made once per type and
// shared; it must not be changed.
func EntityOf[T any]() (*schema.Entity, error) {
	t := reflect.TypeFor[T]()
	p, err := planOf(t)
	if err != nil {
		return nil, err
	}
	if p.entity == nil {
		return nil, fmt.Errorf("df: %s is not an entity: no field tagged pk, none named \"id\"", t)
	}
	return p.entity, nil
}
