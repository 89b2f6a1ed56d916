package controller_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// TestSetError: the error is kept as a failed fetch's is: reads return it
// with no request for the endpoint's errorExpiryLength, GetResponse keeps
// reading the data (with Err), subscribers are told; past the window the
// reads go on as before it (fresh data, or a fetch when there is none).
func TestSetError(t *testing.T) {
	for _, withData := range []bool{false, true} {
		t.Run(map[bool]string{false: "no data", true: "fresh data"}[withData], func(t *testing.T) {
			ctx := context.Background()
			clk := newClock()
			c := controller.New(controller.Options{Now: clk.Now, DataExpiryLength: time.Hour})
			b := &books{}
			ep := b.endpoint(endpoint.Spec{ErrorExpiryLength: 5 * time.Second})
			status := endpoint.Missing
			if withData {
				_, err := c.Suspense(ctx, ep, params("1"))
				require.NoError(t, err)
				status = endpoint.Valid
			}
			rec := &states{}
			unsub, err := c.SubscribeWith(ep, params("1"), rec.listener, controller.SubscribeOptions{NoFetch: true})
			require.NoError(t, err)
			defer unsub()

			given := errors.New("set by the caller")
			require.NoError(t, c.SetError(ep, params("1"), given))
			assert.Same(t, given, rec.last().Err, "subscribers are told")

			for _, read := range []func() (value.Value, error){
				func() (value.Value, error) { return c.Suspense(ctx, ep, params("1")) },
				func() (value.Value, error) { return c.FetchIfStale(ctx, ep, params("1")) },
			} {
				_, err := read()
				assert.Same(t, given, err)
			}
			r := c.GetResponse(ep, params("1"))
			assert.Same(t, given, r.Err)
			assert.Equal(t, status, r.ExpiryStatus)
			assert.Equal(t, withData, !r.Data.IsUndefined())

			clk.Advance(5*time.Second - time.Millisecond)
			_, err = c.Suspense(ctx, ep, params("1"))
			assert.Same(t, given, err, "still inside errorExpiryLength")
			assert.EqualValues(t, map[bool]int64{false: 0, true: 1}[withData], b.fetchesOf("1"))

			clk.Advance(time.Millisecond)
			v, err := c.Suspense(ctx, ep, params("1"))
			require.NoError(t, err)
			assert.Equal(t, 1, rev(v), "the data stored before, or a fetch when there was none")
			assert.EqualValues(t, 1, b.fetchesOf("1"))
		})
	}
}

// TestSetErrorDroppedByInvalidate: Invalidate asks for a fetch, which a
// kept error would refuse.
func TestSetErrorDroppedByInvalidate(t *testing.T) {
	ctx := context.Background()
	c := controller.New(controller.Options{Now: newClock().Now})
	b := &books{}
	ep := b.endpoint(endpoint.Spec{})
	require.NoError(t, c.SetError(ep, params("1"), errors.New("set")))
	require.NoError(t, c.Invalidate(ep, params("1")))
	v, err := c.Suspense(ctx, ep, params("1"))
	require.NoError(t, err)
	assert.Equal(t, 1, rev(v))
}

// TestSetErrorBadArguments: a nil error or params the endpoint cannot key
// are refused, and nothing is kept.
func TestSetErrorBadArguments(t *testing.T) {
	c := controller.New(controller.Options{Now: newClock().Now})
	b := &books{}
	ep := b.endpoint(endpoint.Spec{})
	require.ErrorContains(t, c.SetError(ep, params("1"), nil), "setError: the error is nil")
	assert.NoError(t, c.GetResponse(ep, params("1")).Err)
	assert.Empty(t, c.Keys())

	failing := &keyless{}
	require.ErrorContains(t, c.SetError(failing, params("1"), errors.New("x")), "no key for you")
}

// keyless is a book endpoint whose Key fails.
type keyless struct{}

func (*keyless) Key(value.Value) (string, error) { return "", errors.New("no key for you") }
func (*keyless) Fetch(context.Context, value.Value, any) (value.Value, error) {
	return value.Undef, errors.New("unused")
}
func (*keyless) Spec() *endpoint.Spec { return &endpoint.Spec{Schema: bookEntity} }
