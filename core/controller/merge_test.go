package controller_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// pagedEndpoint is a funcEndpoint whose key leaves the cursor out, as a
// paginated REST endpoint's does, so that every page has the list's key.
type pagedEndpoint struct{ *funcEndpoint }

func (p pagedEndpoint) Key(params value.Value) (string, error) {
	return p.funcEndpoint.Key(params.Without("cursor"))
}

// TestMergeResultDecidesByParams: the controller asks MergeResult with the
// params of each request, merges when it returns a function and replaces
// the stored result when it returns nil (a list's first page).
func TestMergeResultDecidesByParams(t *testing.T) {
	var (
		mu     sync.Mutex
		asked  []string // the params MergeResult was called with
		serves value.Value
	)
	appendPKs := func(existing, incoming value.Value) value.Value {
		return value.Arr(append(append([]value.Value{}, existing.Elems()...), incoming.Elems()...)...)
	}
	ep := pagedEndpoint{&funcEndpoint{name: "shelf", spec: endpoint.Spec{
		Name:   "shelf",
		Schema: schema.ArrayOf(bookEntity),
		MergeResult: func(params value.Value) func(existing, incoming value.Value) value.Value {
			mu.Lock()
			asked = append(asked, params.JSON())
			mu.Unlock()
			if params.Get("cursor").IsUndefined() {
				return nil
			}
			return appendPKs
		},
	}, fetch: func(context.Context, value.Value, any) (value.Value, error) {
		mu.Lock()
		defer mu.Unlock()
		return serves, nil
	}}}
	c := controller.New(controller.Options{Now: newClock().Now})

	steps := []struct {
		name   string
		params string
		serves string
		want   []string
	}{
		{"first page", `{"shelf":"a"}`, `[{"id":"1"},{"id":"2"}]`, []string{"1", "2"}},
		{"next page appends", `{"shelf":"a","cursor":"2"}`, `[{"id":"3"}]`, []string{"1", "2", "3"}},
		{"first page again replaces", `{"shelf":"a"}`, `[{"id":"4"},{"id":"1"}]`, []string{"4", "1"}},
	}
	var wantAsked []string
	for _, st := range steps {
		mu.Lock()
		serves = value.MustParse(st.serves)
		mu.Unlock()
		v, err := c.Fetch(context.Background(), ep, value.MustParse(st.params), nil)
		require.NoError(t, err, st.name)
		var got []string
		for _, b := range v.Elems() {
			got = append(got, b.Get("id").Str())
		}
		assert.Equal(t, st.want, got, st.name)
		wantAsked = append(wantAsked, st.params)
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, wantAsked, asked, "MergeResult gets each request's params, cursor included")
}
