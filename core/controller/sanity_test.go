package controller_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

func TestSanity(t *testing.T) {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"name":""}`)}
	article := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null,"title":"","author":null}`),
		Schema: map[string]schema.Schema{"author": user}}
	list := &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: schema.ArrayOf(article)},
		fetch: func(ctx context.Context, p value.Value, b any) (value.Value, error) {
			return value.MustParse(`[{"id":1,"title":"a","author":{"id":7,"name":"u"}},{"id":2,"author":{"id":7,"name":"u"}}]`), nil
		}}
	c := controller.New(controller.Options{})
	v, err := c.Suspense(context.Background(), list, value.Obj())
	require.NoError(t, err)
	assert.JSONEq(t, `[{"id":1,"title":"a","author":{"id":7,"name":"u"}},{"id":2,"title":"","author":{"id":7,"name":"u"}}]`, v.JSON())
	v2, err := c.Suspense(context.Background(), list, value.Obj())
	require.NoError(t, err)
	assert.True(t, value.Same(v, v2))
	assert.EqualValues(t, 1, list.calls.Load())
	_ = time.Second
}
