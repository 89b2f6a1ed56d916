package goapp

import (
	"errors"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/endpoint"
)

// queryWith returns a Query that was last told st, as its listener would
// have set it.
func queryWith(st df.State[*item]) *Query[*item] {
	return &Query[*item]{sub: &subscription[*item]{key: "k", state: st}}
}

type item struct {
	ID    string `df:"id"`
	Title string `df:"title"`
}

func TestRender(t *testing.T) {
	data := &item{ID: "1", Title: "hello"}
	failed := errors.New("boom")
	b := Boundary{
		Fallback: func() app.UI { return app.Text("fallback") },
		Error:    func(err error, _ func()) app.UI { return app.Text("error: " + err.Error()) },
	}
	show := func(v *item) app.UI { return app.Text("data: " + v.Title) }
	tests := []struct {
		name string
		st   df.State[*item]
		want string
	}{
		{"nothing read", df.State[*item]{}, "fallback"},
		{"loading, nothing cached", df.State[*item]{Loading: true, ExpiryStatus: endpoint.Missing}, "fallback"},
		{"fresh", df.State[*item]{Data: data, Has: true, ExpiryStatus: endpoint.Valid}, "data: hello"},
		{"stale while revalidating", df.State[*item]{Data: data, Has: true, Loading: true, ExpiryStatus: endpoint.Stale}, "data: hello"},
		{"invalidated waits", df.State[*item]{Data: data, Has: true, Loading: true, ExpiryStatus: endpoint.Invalid}, "fallback"},
		{"failed with nothing cached", df.State[*item]{Err: failed, ExpiryStatus: endpoint.Missing}, "error: boom"},
		{"retrying after a failure", df.State[*item]{Err: failed, Loading: true, ExpiryStatus: endpoint.Missing}, "fallback"},
		{"refetch failed, data kept", df.State[*item]{Data: data, Has: true, Err: failed, ExpiryStatus: endpoint.Stale}, "data: hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, app.HTMLString(queryWith(tt.st).Render(b, show)))
		})
	}
}

func TestZeroBoundary(t *testing.T) {
	var b Boundary
	show := func(*item) app.UI { return app.Text("data") }
	assert.Contains(t, app.HTMLString((&Query[*item]{}).Render(b, show)), "Loading")
	q := queryWith(df.State[*item]{Err: errors.New("boom"), ExpiryStatus: endpoint.Missing})
	assert.Contains(t, app.HTMLString(q.Render(b, show)), "boom")
}

func TestQueryAccessors(t *testing.T) {
	var q Query[*item]
	assert.Nil(t, q.Data())
	assert.False(t, q.Refreshing())
	q.Retry() // nothing to retry: no panic
	q.Close()

	data := &item{ID: "1"}
	stale := queryWith(df.State[*item]{Data: data, Has: true, Loading: true, ExpiryStatus: endpoint.Stale})
	assert.Same(t, data, stale.Data())
	assert.True(t, stale.Refreshing())
}
