package rest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// storeSnapshot is a Snapshot over a fixed set of stored articles, by pk.
type storeSnapshot map[string]value.Value

func (s storeSnapshot) GetResponse(endpoint.Endpoint, value.Value) endpoint.Response {
	return endpoint.Response{Data: value.Undef, ExpiryStatus: endpoint.Missing}
}

func (s storeSnapshot) Get(sch schema.Schema, args ...value.Value) (value.Value, error) {
	e, ok := sch.(*schema.Entity)
	if !ok || len(args) == 0 {
		return value.Undef, nil
	}
	pk, ok := e.PKFromParams(args[0])
	if !ok {
		return value.Undef, nil
	}
	if v, ok := s[e.Key+":"+pk]; ok {
		return v, nil
	}
	return value.Undef, nil
}

func (storeSnapshot) FetchedAt() int64 { return 0 }

// TestResourceOptimisticResponses: what each endpoint of
// NewResource(Optimistic) applies, as data-client's resource({optimistic:
// true}): create, update and getList's derived endpoints the params and
// body; partialUpdate the params, the stored record and the body; delete
// the params; get nothing.
func TestResourceOptimisticResponses(t *testing.T) {
	var shared int
	r, err := rest.NewResource(rest.ResourceOptions{Path: "/articles/:id", Schema: article, Optimistic: true,
		Options: rest.Options{GetOptimisticResponse: func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
			shared++
			return value.Undef, nil
		}}})
	require.NoError(t, err)
	derived := func(op func(*rest.Endpoint) (*rest.Endpoint, error)) *rest.Endpoint {
		ep, err := op(r.GetList)
		require.NoError(t, err)
		return ep
	}
	snap := storeSnapshot{"Article:5": obj(`{"id":"5","title":"stored","content":"kept"}`)}
	cases := []struct {
		name         string
		ep           *rest.Endpoint
		params, body string // "" is no body
		want         string // "" applies nothing (ErrAbortOptimistic)
	}{
		{"create", r.Create, `{}`, `{"title":"new"}`, `{"title":"new"}`},
		{"create in a nested list", r.Create, `{"group":"g"}`, `{"title":"new"}`, `{"group":"g","title":"new"}`},
		{"create without a body", r.Create, `{}`, ``, `{}`},
		{"update", r.Update, `{"id":"5"}`, `{"title":"put","id":"6"}`, `{"id":"6","title":"put"}`},
		{"partialUpdate", r.PartialUpdate, `{"id":"5"}`, `{"title":"patched"}`, `{"id":"5","title":"patched","content":"kept"}`},
		{"partialUpdate of nothing stored", r.PartialUpdate, `{"id":"7"}`, `{"title":"patched"}`, ``},
		{"delete", r.Delete, `{"id":"5"}`, ``, `{"id":"5"}`},
		{"getList.push", derived((*rest.Endpoint).Push), `{}`, `{"title":"pushed"}`, `{"title":"pushed"}`},
		{"getList.unshift", derived((*rest.Endpoint).Unshift), `{}`, `{"title":"first"}`, `{"title":"first"}`},
		{"getList.remove", derived((*rest.Endpoint).Remove), `{}`, `{"id":"5"}`, `{"id":"5"}`},
		{"a body that is no object", r.Update, `{"id":"5"}`, `"text"`, ``},
		{"a list body", derived((*rest.Endpoint).Remove), `{}`, `[{"id":"5"}]`, ``},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := c.ep.Spec().GetOptimisticResponse
			require.NotNil(t, f)
			var body any
			if c.body != "" {
				body = obj(c.body)
			}
			v, err := f(snap, obj(c.params), body)
			if c.want == "" {
				require.ErrorIs(t, err, endpoint.ErrAbortOptimistic)
				return
			}
			require.NoError(t, err)
			assert.JSONEq(t, c.want, v.JSON())
		})
	}
	_, err = r.Update.Spec().GetOptimisticResponse(snap, obj(`{"id":"5"}`), []byte(`raw`))
	require.ErrorIs(t, err, endpoint.ErrAbortOptimistic, "a raw body applies nothing")
	assert.Zero(t, shared, "the built-in responses replace the shared option")

	// get keeps the shared option, which a GET never runs.
	require.NotNil(t, r.Get.Spec().GetOptimisticResponse)
	assert.False(t, r.Get.Spec().SideEffect)
	assert.False(t, r.GetList.Spec().SideEffect)

	// Extend replaces a built-in response like any option.
	ext, err := r.Extend(map[string]func(*rest.Options){"delete": func(o *rest.Options) { o.GetOptimisticResponse = nil }})
	require.NoError(t, err)
	assert.Nil(t, ext.Delete.Spec().GetOptimisticResponse)
	assert.NotNil(t, ext.Update.Spec().GetOptimisticResponse)
}
