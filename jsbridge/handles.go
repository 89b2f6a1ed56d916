//go:build js && wasm

package jsbridge

import (
	"sync"

	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// handles maps the numbers that JavaScript objects hold to the Go objects
// they stand for: schemas, endpoints, resources, controllers, subscriptions
// and snapshots. JavaScript releases a handle when its object is garbage
// collected (a FinalizationRegistry in datafetch.mjs) or, for short-lived
// ones, when it is done with it.
type handles struct {
	mu   sync.Mutex
	next int
	objs map[int]any
}

var table = &handles{objs: map[int]any{}}

// add stores x and returns its handle; handles start at 1 so that 0 and
// undefined never name anything.
func (h *handles) add(x any) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	h.objs[h.next] = x
	return h.next
}

func (h *handles) get(id int) (any, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	x, ok := h.objs[id]
	return x, ok
}

func (h *handles) release(id int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.objs, id)
}

// lookup returns the object of type T behind the handle v; what names the
// expected kind in the error.
func lookup[T any](v safejs.Value, what string) (T, error) {
	var zero T
	if v.Type() != safejs.TypeNumber {
		return zero, fmtlite.Errorf("expected %s, got %s", what, v.Type())
	}
	id, err := v.Int()
	if err != nil {
		return zero, err
	}
	return lookupID[T](id, what)
}

// lookupID is lookup for a handle's number.
func lookupID[T any](id int, what string) (T, error) {
	var zero T
	x, ok := table.get(id)
	if !ok {
		return zero, fmtlite.Errorf("%s #%d no longer exists", what, id)
	}
	t, ok := x.(T)
	if !ok {
		return zero, fmtlite.Errorf("handle #%d is not %s", id, what)
	}
	return t, nil
}
