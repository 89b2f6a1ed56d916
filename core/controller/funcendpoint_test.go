package controller_test

import (
	"context"
	"sync/atomic"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// funcEndpoint is an endpoint whose fetch is a Go function: it exercises the
// controller's policy without a network; the REST tests use real servers.
type funcEndpoint struct {
	name  string
	spec  endpoint.Spec
	fetch func(ctx context.Context, params value.Value, body any) (value.Value, error)
	calls atomic.Int64
}

func (f *funcEndpoint) Key(params value.Value) (string, error) {
	return f.name + " " + params.JSON(), nil
}

func (f *funcEndpoint) Fetch(ctx context.Context, params value.Value, body any) (value.Value, error) {
	f.calls.Add(1)
	return f.fetch(ctx, params, body)
}

func (f *funcEndpoint) Spec() *endpoint.Spec { return &f.spec }
