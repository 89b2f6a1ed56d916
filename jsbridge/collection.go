//go:build js && wasm

package jsbridge

import (
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// collectionNew(specJSON, fns) returns the handle of a new
// schema.Collection. The spec is {of: descriptor, key, argsKey: bool,
// nestKey: bool}; fns holds the descriptor's adapters and, by name, the
// argsKey(paramsJSON, bodyJSON) and nestKey(parentJSON, key) adapters,
// which return the args as JSON text, and when set nonFilter(keyJSON),
// which returns a non-empty string for an args key that does not filter
// (as searchToString's adapter returns a string), and collectionFilter(argsJSON,
// paramsJSON, bodyJSON or undefined), which returns whether a stored
// collection's args match a request's (schema.Collection.Filter).
func collectionNew(args []safejs.Value) (any, error) {
	spec, err := jsonArg(arg(args, 0), "collection")
	if err != nil {
		return nil, err
	}
	fns := arg(args, 1)
	of, err := buildSchema(spec.Get("of"), fns)
	if err != nil {
		return nil, fmtlite.Errorf("schema.Collection: %w", err)
	}
	c := &schema.Collection{Of: of, Key: spec.Get("key").Str()}
	if err := schema.Check(c); err != nil {
		return nil, fmtlite.Errorf("schema.Collection: %w", err)
	}
	keyFn := func(name string) (func(a, b any) (value.Value, error), error) {
		fn, err := fns.Get(name)
		if err != nil {
			return nil, err
		}
		return func(a, b any) (value.Value, error) {
			out, err := invoke(fn, a, b)
			if err != nil {
				return value.Undef, fmtlite.Errorf("%s: %w", name, err)
			}
			return jsonArg(out, name+" result")
		}, nil
	}
	if spec.Get("argsKey").Boolean() {
		f, err := keyFn("argsKey")
		if err != nil {
			return nil, err
		}
		c.ArgsKey = func(params, body value.Value) (value.Value, error) { return f(params.JSON(), body.JSON()) }
	}
	if fn, _ := fns.Get("nonFilter"); fn.Type() == safejs.TypeFunction {
		nonFilter := searchToStringHook(fn)
		c.NonFilter = func(key string) bool {
			s, _ := nonFilter(value.Str(key))
			return s != ""
		}
	}
	if fn, _ := fns.Get("collectionFilter"); fn.Type() == safejs.TypeFunction {
		c.Filter = func(collectionArgs, params, body value.Value) bool {
			var b any
			if !body.IsUndefined() {
				b = body.JSON()
			}
			// No error result, as an entity's merge: a failure panics,
			// which the entry point turns into the request's error.
			out, err := invoke(fn, collectionArgs.JSON(), params.JSON(), b)
			if err != nil {
				panic(fmtlite.Errorf("collection %s: %w", c.TableKey(), err))
			}
			ok, _ := out.Truthy()
			return ok
		}
	}
	if spec.Get("nestKey").Boolean() {
		f, err := keyFn("nestKey")
		if err != nil {
			return nil, err
		}
		c.NestKey = func(parent value.Value, key string) (value.Value, error) { return f(parent.JSON(), key) }
	}
	return table.add(c), nil
}

// collectionByHandle returns the Collection of a descriptor's handle.
func collectionByHandle(h value.Value) (*schema.Collection, error) {
	id, ok := h.Float()
	if !ok {
		return nil, fmtlite.Errorf("schema: collection handle is %s", h.Kind())
	}
	x, _ := table.get(int(id))
	c, ok := x.(*schema.Collection)
	if !ok {
		return nil, fmtlite.Errorf("schema: handle #%d is not a Collection", int(id))
	}
	return c, nil
}

// endpointCollection(handle, op) returns the handle of the endpoint's
// push, unshift, remove, move or assign endpoint, or of getPage; 0 when the
// endpoint has none (its schema holds no Collection, a list has no
// assign, no paginationField is set), which JavaScript reads as
// undefined.
func endpointCollection(args []safejs.Value) (any, error) {
	ep, err := lookup[*rest.Endpoint](arg(args, 0), "an endpoint")
	if err != nil {
		return nil, err
	}
	op, err := stringArg(arg(args, 1), "collection operation")
	if err != nil {
		return nil, err
	}
	c := ep.Collection()
	var n *rest.Endpoint
	switch op {
	case "getPage":
		if ep.Options().PaginationField == "" {
			return 0, nil
		}
		n, err = ep.GetPage()
	case "push", "unshift":
		if c == nil || c.IsValues() {
			return 0, nil
		}
		if op == "push" {
			n, err = ep.Push()
		} else {
			n, err = ep.Unshift()
		}
	case "assign":
		if c == nil || !c.IsValues() {
			return 0, nil
		}
		n, err = ep.Assign()
	case "remove", "move":
		if c == nil {
			return 0, nil
		}
		if op == "move" {
			n, err = ep.Move()
		} else {
			n, err = ep.Remove()
		}
	default:
		return nil, fmtlite.Errorf("unknown collection operation %q", op)
	}
	if err != nil {
		return nil, err
	}
	return addEndpoint(n), nil
}
