//go:build js && wasm

package jsbridge

import (
	"strconv"
	"strings"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/encode"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// Queries (docs/js-api.md, "Collections and queries"): ctrl.get reads a
// queryable schema from the cache. JavaScript runs a Query's process
// itself: Go reads the schema the Query is over, and hands the read over
// with encode.Identities, so an unchanged read is the very object JavaScript
// holds (which its process memo compares by ===).

// ctrlGet(ctrl, schemaHandle, argsJSON) hands over the read of the schema
// with args (a JSON array) and returns true, or returns undefined when it
// finds nothing. The schema is an Entity (args[0] are params naming its
// pk), an All or a Collection (args[0] are the params its list is stored
// for). The read goes to lib.hand, for JavaScript to take, rather than
// back through Go: a JavaScript value Go has held stays referenced from
// wasm_exec.js's table until Go's collector finalizes its handle, which
// would keep the objects of every get alive after a sweep or a reset let
// them go (without lib.hand it is returned).
func ctrlGet(args []safejs.Value) (any, error) {
	c, h, s, list, err := queryArgs(args, "get")
	if err != nil {
		return nil, err
	}
	v, err := c.c.Get(s, list.Elems()...)
	if err != nil {
		// datafetch.mjs checks the schema (a TypeError there); what is
		// left is the args.
		return nil, err
	}
	if v.IsUndefined() {
		return safejs.Undefined(), nil
	}
	key := encode.QueryKeyPrefix + strconv.Itoa(h) + " " + list.JSON()
	if lib.hand.Type() != safejs.TypeFunction {
		return c.emit(lib.decode, key, schema.ReadSchema(s), v, wire.Header{})
	}
	if _, err := c.emit(lib.hand, key, schema.ReadSchema(s), v, wire.Header{}); err != nil {
		return nil, err
	}
	return true, nil
}

// readsStill reports whether the ctrl.get read of q.Slot() (see ctrlGet)
// still gives q.Value(), the top of the slot's last emission: false when the
// read fails, finds nothing or gives another value, or when its schema's
// handle was released.
func (c *ctrl) readsStill(q encode.SlotRoot) (same bool) {
	defer func() {
		if recover() != nil {
			same = false // a hook's panic: the read is not what it was
		}
	}()
	rest := strings.TrimPrefix(q.Slot(), encode.QueryKeyPrefix)
	h, argsJSON, ok := strings.Cut(rest, " ")
	if !ok || q.Value().IsUndefined() {
		return false
	}
	n, err := strconv.Atoi(h)
	if err != nil {
		return false
	}
	x, _ := table.get(n)
	s, ok := x.(schema.Schema)
	if !ok {
		return false
	}
	args, err := value.ParseString(argsJSON)
	if err != nil {
		return false
	}
	v, err := c.c.Get(s, args.Elems()...)
	return err == nil && value.Same(v, q.Value())
}

// ctrlSet(ctrl, schemaHandle, argsJSON, valueJSON) stores value as the data
// of the schema read with args, with no request (controller.Set: ctrl.set).
func ctrlSet(args []safejs.Value) (any, error) {
	c, _, s, list, err := queryArgs(args, "set")
	if err != nil {
		return nil, err
	}
	v, err := jsonArg(arg(args, 3), "set: value")
	if err != nil {
		return nil, err
	}
	return nil, c.c.Set(s, list.Elems(), v)
}

// ctrlListen(ctrl, listener) calls listener() after every change to the
// controller's stored data (controller.Listen), and returns the handle of
// the registration, which ctrlUnsubscribe ends.
func ctrlListen(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	listener := arg(args, 1)
	if listener.Type() != safejs.TypeFunction {
		return nil, fmtlite.Errorf("listen: listener is not a function")
	}
	stop := c.c.Listen(func() {
		defer recoverHook("listen")
		if _, err := invoke(listener); err != nil {
			reportError(err)
		}
	})
	// Like a subscription, a listener is JavaScript called on a change.
	return c.hook(stop), nil
}

// queryArgs reads the (ctrl, schemaHandle, argsJSON) arguments of ctrlGet
// and ctrlHoldQuery: the controller, the schema's handle and the schema,
// and the args (a JSON array).
func queryArgs(args []safejs.Value, call string) (c *ctrl, h int, s schema.Schema, list value.Value, err error) {
	if c, err = lookup[*ctrl](arg(args, 0), "a controller"); err != nil {
		return nil, 0, nil, value.Undef, err
	}
	if h, err = arg(args, 1).Int(); err != nil {
		return nil, 0, nil, value.Undef, fmtlite.Errorf("%s: schema handle: %w", call, err)
	}
	x, _ := table.get(h)
	s, ok := x.(schema.Schema)
	if !ok {
		return nil, 0, nil, value.Undef, fmtlite.Errorf("%s: handle #%d is not a schema", call, h)
	}
	if list, err = jsonArg(arg(args, 2), call+": args"); err != nil {
		return nil, 0, nil, value.Undef, err
	}
	return c, h, s, list, nil
}

// ctrlHoldQuery(ctrl, schemaHandle, argsJSON) keeps what a read of the
// schema with args reads through garbage collection
// (controller.HoldQuery): useQuery holds its query while mounted. It
// returns the handle of the hold, which ctrlUnsubscribe ends.
func ctrlHoldQuery(args []safejs.Value) (any, error) {
	c, _, s, list, err := queryArgs(args, "useQuery")
	if err != nil {
		return nil, err
	}
	release, err := c.c.HoldQuery(s, list.Elems()...)
	if err != nil {
		return nil, err
	}
	return table.add(release), nil
}
