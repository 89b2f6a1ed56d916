package controller_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// modelServer is the server side of the randomized test: it applies each
// mutation when the request arrives (in the order they were sent) and
// withholds the answer until the test releases it, so responses reach the
// client in any order, as over a real network.
type modelServer struct {
	mu      sync.Mutex
	items   map[string]string // id -> title
	nextID  int
	arrived chan struct{}
}

type modelOp struct {
	kind    string // create, update, delete
	id      string // target id (update, delete) or temporary id (create)
	title   string
	fail    bool
	release chan struct{}
	err     error
	done    chan struct{}
}

var itemEntity = &schema.Entity{Key: "Item", Defaults: value.MustParse(`{"id":null,"title":""}`)}

func (s *modelServer) endpoints() (list, create, update, del *funcEndpoint) {
	list = &funcEndpoint{name: "items", spec: endpoint.Spec{Name: "items", Schema: schema.ArrayOf(itemEntity)},
		fetch: func(context.Context, value.Value, any) (value.Value, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			ids := make([]string, 0, len(s.items))
			for id := range s.items {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			out := make([]value.Value, len(ids))
			for i, id := range ids {
				out[i] = item(id, s.items[id])
			}
			return value.Arr(out...), nil
		}}
	listKey, _ := list.Key(value.Obj())
	respond := func(op *modelOp, apply func() (value.Value, error)) (value.Value, error) {
		var v value.Value
		var err error
		if op.fail {
			err = errors.New("injected failure")
		} else {
			s.mu.Lock()
			v, err = apply()
			s.mu.Unlock()
		}
		s.arrived <- struct{}{}
		<-op.release
		return v, err
	}
	create = &funcEndpoint{name: "create", spec: endpoint.Spec{Name: "create", Schema: itemEntity, SideEffect: true,
		GetOptimisticResponse: func(_ endpoint.Snapshot, _ value.Value, body any) (value.Value, error) {
			return body.(*modelOp).optimistic(), nil
		},
		Update: func(newPK, _ value.Value) (map[string]func(value.Value) value.Value, error) {
			return map[string]func(value.Value) value.Value{listKey: func(pks value.Value) value.Value {
				return value.Arr(append(append([]value.Value(nil), pks.Elems()...), newPK)...)
			}}, nil
		}},
		fetch: func(_ context.Context, _ value.Value, body any) (value.Value, error) {
			op := body.(*modelOp)
			return respond(op, func() (value.Value, error) {
				s.nextID++
				id := strconv.Itoa(100 + s.nextID)
				s.items[id] = op.title
				return item(id, op.title), nil
			})
		}}
	update = &funcEndpoint{name: "update", spec: endpoint.Spec{Name: "update", Schema: itemEntity, SideEffect: true,
		GetOptimisticResponse: func(_ endpoint.Snapshot, _ value.Value, body any) (value.Value, error) {
			return body.(*modelOp).optimistic(), nil
		}},
		fetch: func(_ context.Context, _ value.Value, body any) (value.Value, error) {
			op := body.(*modelOp)
			return respond(op, func() (value.Value, error) {
				if _, ok := s.items[op.id]; !ok {
					return value.Undef, fmt.Errorf("404: item %s", op.id)
				}
				s.items[op.id] = op.title
				return item(op.id, op.title), nil
			})
		}}
	del = &funcEndpoint{name: "delete", spec: endpoint.Spec{Name: "delete", Schema: schema.InvalidateOf(itemEntity), SideEffect: true,
		GetOptimisticResponse: func(_ endpoint.Snapshot, params value.Value, _ any) (value.Value, error) {
			return params, nil
		}},
		fetch: func(_ context.Context, params value.Value, body any) (value.Value, error) {
			op := body.(*modelOp)
			return respond(op, func() (value.Value, error) {
				if _, ok := s.items[op.id]; !ok {
					return value.Undef, fmt.Errorf("404: item %s", op.id)
				}
				delete(s.items, op.id)
				return params, nil
			})
		}}
	return
}

func item(id, title string) value.Value {
	return value.Obj(value.M("id", value.Str(id)), value.M("title", value.Str(title)))
}

func (op *modelOp) optimistic() value.Value { return item(op.id, op.title) }

// titles renders a list state as sorted "id=title" pairs.
func titles(v value.Value) string {
	var parts []string
	for _, el := range v.Elems() {
		parts = append(parts, el.Get("id").Str()+"="+el.Get("title").Str())
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// TestOptimisticRandomInterleavings runs hundreds of mutation sequences whose
// responses arrive in random orders, some failing, and checks the visible
// list against the server's state and every notification against rollback.
func TestOptimisticRandomInterleavings(t *testing.T) {
	for seed := int64(1); seed <= 300; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { runModel(t, seed) })
	}
}

func runModel(t *testing.T, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	srv := &modelServer{items: map[string]string{"1": "one", "2": "two", "3": "three"}, arrived: make(chan struct{})}
	list, create, update, del := srv.endpoints()
	c := controller.New(controller.Options{})
	ctx := context.Background()
	_, err := c.Suspense(ctx, list, value.Obj())
	require.NoError(t, err)

	var mu sync.Mutex
	var log []string // list states as seen by the subscriber, and markers
	unsub, err := c.Subscribe(list, value.Obj(), func(s controller.State) {
		mu.Lock()
		log = append(log, titles(s.Data))
		mu.Unlock()
	})
	require.NoError(t, err)
	defer unsub()

	ids := []string{"1", "2", "3"}
	n := 2 + rng.Intn(5)
	ops := make([]*modelOp, n)
	for i := range ops {
		op := &modelOp{title: fmt.Sprintf("t%d", i), fail: rng.Intn(4) == 0,
			release: make(chan struct{}), done: make(chan struct{})}
		var ep endpoint.Endpoint
		switch k := rng.Intn(5); {
		case k < 2:
			op.kind, op.id, ep = "create", fmt.Sprintf("tmp-%d", i), create
		case k < 4:
			op.kind, op.id, ep = "update", ids[rng.Intn(len(ids))], update
		default:
			op.kind, op.id, ep = "delete", ids[rng.Intn(len(ids))], del
		}
		ops[i] = op
		go func() {
			_, op.err = c.Fetch(ctx, ep, value.Obj(value.M("id", value.Str(op.id))), op)
			close(op.done)
		}()
		<-srv.arrived // sent in order: the next starts after this one arrived
	}

	for _, i := range rng.Perm(n) {
		op := ops[i]
		close(op.release)
		<-op.done
		assert.Equal(t, op.fail || op.err != nil && strings.Contains(op.err.Error(), "404"), op.err != nil, "op %d %s: %v", i, op.kind, op.err)
		mu.Lock()
		log = append(log, fmt.Sprintf("settled %d", i))
		mu.Unlock()
	}

	// The visible list is exactly the server's items.
	assert.Equal(t, 0, c.PendingOptimistic())
	final := c.GetResponse(list, value.Obj()).Data
	want := make([]string, 0, len(srv.items))
	for id, title := range srv.items {
		want = append(want, id+"="+title)
	}
	sort.Strings(want)
	assert.Equal(t, strings.Join(want, ","), titles(final), "ops: %s", describe(ops))

	// No value of a failed op shows up after that op settled.
	mu.Lock()
	defer mu.Unlock()
	settled := map[int]bool{}
	for _, entry := range log {
		if strings.HasPrefix(entry, "settled ") {
			i, _ := strconv.Atoi(strings.TrimPrefix(entry, "settled "))
			settled[i] = true
			continue
		}
		for i, op := range ops {
			if settled[i] && op.err != nil && op.kind != "delete" {
				assert.NotContains(t, ","+entry+",", "="+op.title+",", "op %d's value came back after its rollback; ops: %s", i, describe(ops))
			}
		}
	}
}

func describe(ops []*modelOp) string {
	var b strings.Builder
	for i, op := range ops {
		fmt.Fprintf(&b, "[%d %s %s %s fail=%v err=%v] ", i, op.kind, op.id, op.title, op.fail, op.err)
	}
	return b.String()
}
