package controller_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// collectionRig is a Collection of todos whose lists are stored per
// userId, and a write to them (a push or a move) that runs a hook of the
// collection: Filter, NonFilter or an adder's Merge.
type collectionRig struct {
	list, write *funcEndpoint
	params      value.Value // of the write
	body        value.Value
}

// newCollectionRig stores the lists of users 1 and 2 (todo 1 is user 1's)
// in r's controller; install sets the hook on the collection or the adder.
func newCollectionRig(t *testing.T, r *rig, op schema.CollectionOp, install func(c *schema.Collection, a *schema.CollectionAdd, hook func())) *collectionRig {
	t.Helper()
	todo := &schema.Entity{Key: "LockedTodo", Defaults: value.MustParse(`{"id":null,"userId":null}`)}
	coll := schema.CollectionOf(schema.ArrayOf(todo))
	adder, err := coll.Adder(op)
	require.NoError(t, err)
	install(coll, adder, r.hook)
	served := map[string]string{`{"userId":1}`: `[{"id":"1","userId":1}]`, `{"userId":2}`: `[{"id":"2","userId":2}]`}
	cr := &collectionRig{
		list: &funcEndpoint{name: "todos", spec: endpoint.Spec{Name: "todos", Schema: coll},
			fetch: func(_ context.Context, params value.Value, _ any) (value.Value, error) {
				return value.MustParse(served[params.JSON()]), nil
			}},
		params: value.MustParse(`{"userId":1}`),
	}
	answer := `{"id":"3","userId":1}`
	if op == schema.Move {
		answer, cr.params, cr.body = `{"id":"1","userId":2}`, value.MustParse(`{"id":"1"}`), value.MustParse(`{"userId":2}`)
	}
	cr.write = &funcEndpoint{name: "write", spec: endpoint.Spec{Name: "write", Schema: adder, SideEffect: true},
		fetch: func(context.Context, value.Value, any) (value.Value, error) { return value.MustParse(answer), nil }}
	for _, p := range []string{`{"userId":1}`, `{"userId":2}`} {
		_, err := r.c.Fetch(context.Background(), cr.list, value.MustParse(p), nil)
		require.NoError(t, err)
	}
	return cr
}

// TestCollectionHooksMayCallTheController: a Collection's Filter and
// NonFilter and an adder's Merge run while a push or a move is stored,
// with the controller's lock released as for an entity's merge hooks (see
// Controller): a read or a write from one is served, where it deadlocked
// before, and the write that ran the hook is stored.
func TestCollectionHooksMayCallTheController(t *testing.T) {
	hooks := []struct {
		name    string
		op      schema.CollectionOp
		install func(c *schema.Collection, a *schema.CollectionAdd, hook func())
		// want are the ids of user 1's and user 2's lists after the write.
		want [2][]string
	}{
		{"Collection.Filter", schema.Push, func(c *schema.Collection, _ *schema.CollectionAdd, hook func()) {
			c.Filter = func(ca, params, _ value.Value) bool {
				hook()
				return ca.Get("userId").Str() == params.Get("userId").JSON()
			}
		}, [2][]string{{"1", "3"}, {"2"}}},
		{"Collection.NonFilter", schema.Push, func(c *schema.Collection, _ *schema.CollectionAdd, hook func()) {
			c.NonFilter = func(string) bool { hook(); return false }
		}, [2][]string{{"1", "3"}, {"2"}}},
		{"CollectionAdd.Merge", schema.Move, func(_ *schema.Collection, a *schema.CollectionAdd, hook func()) {
			a.Merge = func(existing, incoming value.Value) value.Value {
				hook()
				return value.Arr(append(append([]value.Value{}, incoming.Elems()...), existing.Elems()...)...)
			}
		}, [2][]string{{}, {"1", "2"}}},
	}
	calls := []struct {
		name string
		call func(c *controller.Controller, list endpoint.Endpoint) error
	}{
		{"GetResponse", func(c *controller.Controller, list endpoint.Endpoint) error {
			return c.GetResponse(list, value.MustParse(`{"userId":2}`)).Err
		}},
		{"Invalidate", func(c *controller.Controller, list endpoint.Endpoint) error {
			return c.Invalidate(plain(), value.Obj())
		}},
	}
	for _, h := range hooks {
		for _, call := range calls {
			t.Run(h.name+"/"+call.name, func(t *testing.T) {
				var cr *collectionRig
				r := newRig(func(c *controller.Controller) error { return call.call(c, cr.list) })
				cr = newCollectionRig(t, r, h.op, h.install)
				r.armed.Store(true)
				var err error
				require.Nil(t, within(t, h.name, func() {
					_, err = r.c.Fetch(context.Background(), cr.write, cr.params, cr.body)
				}))
				require.NoError(t, err, "the write the hook ran for is stored")
				require.Len(t, r.got, 1, "the hook ran")
				require.NoError(t, <-r.got, "the hook's call is served")
				for i, p := range []string{`{"userId":1}`, `{"userId":2}`} {
					assert.Equal(t, h.want[i], ids(r.c.GetResponse(cr.list, value.MustParse(p)).Data), p)
				}
			})
		}
	}
}
