package controller_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// TestKeysAreTheKeysInvalidateAllTests checks that Keys lists exactly the
// keys InvalidateAll hands its test, through fetches, setResponse and a
// reset.
func TestKeysAreTheKeysInvalidateAllTests(t *testing.T) {
	c := controller.New(controller.Options{Now: newClock().Now})
	ep := (&books{}).endpoint(endpoint.Spec{})
	tested := func() []string {
		var keys []string
		c.InvalidateAll(func(k string) bool { keys = append(keys, k); return false })
		return keys
	}
	assert.Empty(t, c.Keys())

	_, err := c.Suspense(context.Background(), ep, params("1"))
	require.NoError(t, err)
	require.NoError(t, c.SetResponse(ep, params("2"), value.MustParse(`{"id":"2","title":"set"}`)))
	k1, err := ep.Key(params("1"))
	require.NoError(t, err)
	k2, err := ep.Key(params("2"))
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{k1, k2}, c.Keys())
	assert.ElementsMatch(t, tested(), c.Keys())

	c.ResetEntireStore()
	assert.Empty(t, c.Keys())
}
