package df

import (
	"context"
	"fmt"
	"reflect"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
)

// Typed is an endpoint whose params are a Go struct P as well as its
// result an R, so that the compiler checks the params of every call:
//
//	type ArticleParams struct {
//		ID string `df:"id"`
//	}
//	get, err := df.WithParams[ArticleParams](articles.Get)
//	a, err := get.Suspense(ctx, ctrl, ArticleParams{ID: "1"})
//
// P's fields are named as an entity's are (df tag, json tag, Go name with
// its leading capitals lowered); each becomes the param of that name, a
// path token or a member of the query string. Its methods are those of
// Endpoint with params P; Endpoint returns the endpoint that takes any
// params.
//
// A Typed is immutable and safe for concurrent use.
type Typed[P, R any] struct {
	e *Endpoint[R]
	// required are the path tokens P must give, each with the Go name of
	// the field that gives it, checked at every call to be set.
	required []requiredParam
}

// requiredParam is a required path token and the field of P that fills it.
type requiredParam struct {
	token  rest.PathToken
	goName string
}

// WithParams returns e with its params typed as P, a struct. It fails,
// naming the endpoint and the field, when P is not a struct, when a field
// holds what cannot be a param (a nested struct, a map, a func: a param is
// a string, a number, a boolean, a time, a value.Value, or a pointer or
// slice of them), or when a required token of a REST endpoint's path has
// no field ("df: Article.get: params main.ArticleParams has no field for
// path token :id of /articles/:id").
func WithParams[P, R any](e *Endpoint[R]) (*Typed[P, R], error) {
	if e == nil {
		return nil, fmt.Errorf("df: WithParams of a nil endpoint")
	}
	t := reflect.TypeFor[P]()
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("df: %s: params type %s is not a struct", e.name, t)
	}
	fields, _ := encFieldsOf(t)
	byName := make(map[string]encField, len(fields))
	for _, f := range fields {
		ft := t.FieldByIndex(f.index).Type
		if !isParamType(ft) {
			return nil, fmt.Errorf("df: %s: params %s: field %s: %s cannot be a param (want a string, number, boolean or time, or a pointer or slice of them)",
				e.name, t, f.goName, ft)
		}
		byName[f.name] = f
	}
	out := &Typed[P, R]{e: e}
	for _, tok := range e.tokens {
		f, ok := byName[tok.Name]
		if !ok {
			return nil, fmt.Errorf("df: %s: params %s has no field for path token %s", e.name, t, e.tokenText(tok))
		}
		out.required = append(out.required, requiredParam{token: tok, goName: f.goName})
	}
	return out, nil
}

// isParamType reports whether a field of type t can be a param: what a URL
// can hold.
func isParamType(t reflect.Type) bool {
	switch t {
	case valueType, timeType:
		return true
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Pointer:
		return t.Elem().Kind() != reflect.Pointer && t.Elem().Kind() != reflect.Slice && isParamType(t.Elem())
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Slice && isParamType(t.Elem())
	}
	return false
}

// Params encodes p, checking that it sets every required path token: a
// token whose field is nil or the empty string fails, naming the field,
// the token and the endpoint ("Article.get: params: field ID is empty:
// path token :id of /articles/:id needs it"), before anything is sent.
func (t *Typed[P, R]) Params(p P) (value.Value, error) {
	v, err := t.e.Params(p)
	if err != nil {
		return value.Undef, err
	}
	for _, r := range t.required {
		m := v.Get(r.token.Name)
		if m.IsNullish() || m.Kind() == value.String && m.Str() == "" || r.token.Wildcard && m.Kind() == value.Array && m.Len() == 0 {
			return value.Undef, fmt.Errorf("%s: params: field %s is empty: path token %s needs it",
				t.e.name, r.goName, t.e.tokenText(r.token))
		}
	}
	return v, nil
}

// Endpoint returns the endpoint with params of any type.
func (t *Typed[P, R]) Endpoint() *Endpoint[R] { return t.e }

// Name returns the endpoint's name.
func (t *Typed[P, R]) Name() string { return t.e.name }

// Key returns the store key of p.
func (t *Typed[P, R]) Key(p P) (string, error) {
	v, err := t.Params(p)
	if err != nil {
		return "", err
	}
	return t.e.ep.Key(v)
}

// Suspense is Endpoint.Suspense with params p.
func (t *Typed[P, R]) Suspense(ctx context.Context, c *controller.Controller, p P) (R, error) {
	v, err := t.Params(p)
	if err != nil {
		var zero R
		return zero, err
	}
	return t.e.Suspense(ctx, c, v)
}

// FetchIfStale is Endpoint.FetchIfStale with params p.
func (t *Typed[P, R]) FetchIfStale(ctx context.Context, c *controller.Controller, p P) (R, error) {
	v, err := t.Params(p)
	if err != nil {
		var zero R
		return zero, err
	}
	return t.e.FetchIfStale(ctx, c, v)
}

// Fetch is Endpoint.Fetch with params p.
func (t *Typed[P, R]) Fetch(ctx context.Context, c *controller.Controller, p P, body any) (R, error) {
	v, err := t.Params(p)
	if err != nil {
		var zero R
		return zero, err
	}
	return t.e.Fetch(ctx, c, v, body)
}

// Invalidate is Endpoint.Invalidate with params p.
func (t *Typed[P, R]) Invalidate(c *controller.Controller, p P) error {
	v, err := t.Params(p)
	if err != nil {
		return err
	}
	return t.e.Invalidate(c, v)
}

// SetResponse is Endpoint.SetResponse with params p.
func (t *Typed[P, R]) SetResponse(c *controller.Controller, p P, data R) error {
	v, err := t.Params(p)
	if err != nil {
		return err
	}
	return t.e.SetResponse(c, v, data)
}

// Response is Endpoint.Response with params p.
func (t *Typed[P, R]) Response(c *controller.Controller, p P) Response[R] {
	v, err := t.Params(p)
	if err != nil {
		return Response[R]{ExpiryStatus: endpoint.Missing, Err: err}
	}
	return t.e.Response(c, v)
}

// Subscribe is Endpoint.Subscribe with params p.
func (t *Typed[P, R]) Subscribe(c *controller.Controller, p P, listener func(State[R]), opts ...controller.SubscribeOptions) (unsubscribe func(), err error) {
	v, err := t.Params(p)
	if err != nil {
		return func() {}, err
	}
	return t.e.Subscribe(c, v, listener, opts...)
}
