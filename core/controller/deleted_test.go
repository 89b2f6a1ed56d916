package controller_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// TestDeletedRequiredEntityRefetches: deleting an entity that a result
// requires (a field with a truthy default) makes the result Invalid, so
// Suspense fetches it again and waits; deleting one in an optional field
// (null default) leaves the result Valid, with that field undefined.
func TestDeletedRequiredEntityRefetches(t *testing.T) {
	ctx := context.Background()
	author := &schema.Entity{Key: "Author", Defaults: value.MustParse(`{"id":"","name":""}`)}
	shelf := &schema.Entity{Key: "Shelf", Defaults: value.MustParse(`{"id":"","owner":{},"curator":null}`),
		Schema: map[string]schema.Schema{"owner": author, "curator": author}}
	var fetches atomic.Int64
	get := &funcEndpoint{name: "shelf", spec: endpoint.Spec{Name: "shelf", Schema: shelf},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			n := fetches.Add(1)
			// Each fetch has new owners, so a deleted one is not read back.
			return value.MustParse(`{"id":"1","owner":{"id":"o` + value.Int(n).JSON() + `"},"curator":{"id":"c"}}`), nil
		}}
	del := &funcEndpoint{name: "deleteAuthor", spec: endpoint.Spec{Name: "deleteAuthor", Schema: schema.InvalidateOf(author), SideEffect: true},
		fetch: func(_ context.Context, p value.Value, _ any) (value.Value, error) { return p, nil }}
	c := controller.New(controller.Options{})
	params := value.MustParse(`{"id":"1"}`)
	v, err := c.Suspense(ctx, get, params)
	require.NoError(t, err)
	assert.Equal(t, `"o1"`, v.Get("owner").Get("id").JSON())

	// The optional curator: the shelf stays, without it.
	_, err = c.Fetch(ctx, del, value.MustParse(`{"id":"c"}`), nil)
	require.NoError(t, err)
	r := c.GetResponse(get, params)
	assert.Equal(t, endpoint.Valid, r.ExpiryStatus)
	assert.True(t, r.Data.Get("curator").IsUndefined())
	assert.Equal(t, `"o1"`, r.Data.Get("owner").Get("id").JSON())

	// The required owner: the shelf is invalid, and read again.
	_, err = c.Fetch(ctx, del, value.MustParse(`{"id":"o1"}`), nil)
	require.NoError(t, err)
	r = c.GetResponse(get, params)
	assert.Equal(t, endpoint.Invalid, r.ExpiryStatus)
	assert.True(t, r.Data.IsUndefined(), "a result that requires a deleted entity has no data")
	v, err = c.Suspense(ctx, get, params)
	require.NoError(t, err)
	assert.Equal(t, int64(2), fetches.Load())
	assert.Equal(t, `"o2"`, v.Get("owner").Get("id").JSON())
	assert.Equal(t, endpoint.Valid, c.GetResponse(get, params).ExpiryStatus)
}
