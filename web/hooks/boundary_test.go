package hooks

import (
	"errors"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
)

// queryWith returns a Query that was last told st, as its listener would
// have set it.
func queryWith(st controller.State) *Query {
	return &Query{sub: &subscription{key: "k", params: value.Obj(), state: st}}
}

func TestBoundaryRender(t *testing.T) {
	data := value.MustParse(`{"title":"hello"}`)
	failed := errors.New("boom")
	b := Boundary{
		Fallback: func() app.UI { return app.Text("fallback") },
		Error:    func(err error, _ func()) app.UI { return app.Text("error: " + err.Error()) },
	}
	show := func(v value.Value) app.UI { return app.Text("data: " + v.Get("title").Str()) }
	tests := []struct {
		name string
		st   controller.State
		want string
	}{
		{"nothing read", controller.State{}, "fallback"},
		{"loading, nothing cached", controller.State{Loading: true, ExpiryStatus: endpoint.Missing}, "fallback"},
		{"fresh", controller.State{Data: data, ExpiryStatus: endpoint.Valid}, "data: hello"},
		{"stale while revalidating", controller.State{Data: data, Loading: true, ExpiryStatus: endpoint.Stale}, "data: hello"},
		{"invalidated waits", controller.State{Data: data, Loading: true, ExpiryStatus: endpoint.Invalid}, "fallback"},
		{"failed with nothing cached", controller.State{Err: failed, ExpiryStatus: endpoint.Missing}, "error: boom"},
		{"retrying after a failure", controller.State{Err: failed, Loading: true, ExpiryStatus: endpoint.Missing}, "fallback"},
		{"refetch failed, data kept", controller.State{Data: data, Err: failed, ExpiryStatus: endpoint.Stale}, "data: hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, app.HTMLString(b.Render(queryWith(tt.st), show)))
		})
	}
}

func TestZeroBoundary(t *testing.T) {
	var b Boundary
	show := func(value.Value) app.UI { return app.Text("data") }
	assert.Contains(t, app.HTMLString(b.Render(&Query{}, show)), "Loading")
	q := queryWith(controller.State{Err: errors.New("boom"), ExpiryStatus: endpoint.Missing})
	assert.Contains(t, app.HTMLString(b.Render(q, show)), "boom")
}

func TestQueryAccessors(t *testing.T) {
	var q Query
	assert.True(t, q.Data().IsUndefined())
	assert.False(t, q.Refreshing())
	q.Retry() // nothing to retry: no panic
	q.Close()

	data := value.MustParse(`[1]`)
	stale := queryWith(controller.State{Data: data, Loading: true, ExpiryStatus: endpoint.Stale})
	assert.True(t, value.Same(data, stale.Data()))
	assert.True(t, stale.Refreshing())
}
