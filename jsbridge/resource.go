//go:build js && wasm

package jsbridge

import (
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// Resources are made by package rest (rest.NewResource, LegacyResource), so
// list paths, names and delete's fallback to the params are the same for Go
// and JavaScript callers. Each entry returns the resource as JSON for
// datafetch.mjs to wrap:
//
//	{"h": resource handle,
//	 "endpoints": [{"name": "get", "h": handle, "path": ..., "method": ...,
//	                "fullName": "Article.get"}, ...]}
//
// After an extend, endpoints that did not change have "h": 0: JavaScript
// keeps the objects it has for them.

// resourceNew(optsJSON, fns, raw, signal) makes the six endpoints of a
// resource (docs/js-api.md, Resources) for {urlPrefix, path, schema, ...options}; name, when
// given, prefixes the endpoint names instead of the entity's key, and
// optimistic gives the mutations data-client's optimistic responses
// (rest.ResourceOptions.Optimistic).
func resourceNew(args []safejs.Value) (any, error) {
	eo, err := endpointOptionsArgs(args, 0)
	if err != nil {
		return nil, err
	}
	var o rest.Options
	if err := eo.apply(&o); err != nil {
		return nil, fmtlite.Errorf("resource %s: %w", o.Path, err)
	}
	e, ok := o.Schema.(*schema.Entity)
	if !ok {
		return nil, fmtlite.Errorf("resource %s: schema must be an Entity", o.Path)
	}
	r, err := rest.NewResource(rest.ResourceOptions{URLPrefix: o.URLPrefix, Path: o.Path, Schema: e, Name: o.Name, Options: o,
		Optimistic: eo.json.Get("optimistic").Boolean()})
	if err != nil {
		return nil, err
	}
	return describeResource(r, nil), nil
}

// resourceExtend(handle, changes) extends or adds endpoints; changes is an
// array of [name, optsJSON, fns, raw, signal].
func resourceExtend(args []safejs.Value) (any, error) {
	r, err := lookup[*rest.Resource](arg(args, 0), "a resource")
	if err != nil {
		return nil, err
	}
	list := arg(args, 1)
	n, err := list.Length()
	if err != nil {
		return nil, err
	}
	changes := make(map[string]func(*rest.Options), n)
	var applyErr error
	for i := range n {
		item, err := list.Index(i)
		if err != nil {
			return nil, err
		}
		parts := make([]safejs.Value, 5)
		for j := range parts {
			if parts[j], err = item.Index(j); err != nil {
				return nil, err
			}
		}
		name, err := stringArg(parts[0], "endpoint name")
		if err != nil {
			return nil, err
		}
		eo, err := endpointOptionsArgs(parts, 1)
		if err != nil {
			return nil, fmtlite.Errorf("extend %s: %w", name, err)
		}
		changes[name] = func(o *rest.Options) {
			if err := eo.apply(o); err != nil && applyErr == nil {
				applyErr = fmtlite.Errorf("extend %s: %w", name, err)
			}
		}
	}
	ext, err := r.Extend(changes)
	if applyErr != nil {
		return nil, applyErr
	}
	if err != nil {
		return nil, err
	}
	return describeResource(ext, changes), nil
}

// legacyResource(entity, urlRoot) makes the endpoints of a data-client 6.0
// Resource class: detail, list, create, update, partialUpdate, delete.
func legacyResource(args []safejs.Value) (any, error) {
	e, err := lookup[*schema.Entity](arg(args, 0), "an Entity")
	if err != nil {
		return nil, err
	}
	urlRoot, err := stringArg(arg(args, 1), "urlRoot")
	if err != nil {
		return nil, err
	}
	r, err := rest.LegacyResource(urlRoot, e)
	if err != nil {
		return nil, err
	}
	return describeResource(r, nil), nil
}

// describeResource returns r as JSON for datafetch.mjs, with new handles
// for its endpoints, or only for those named in changed when it is not nil.
func describeResource(r *rest.Resource, changed map[string]func(*rest.Options)) string {
	names := r.Names()
	eps := make([]value.Value, 0, len(names))
	for _, name := range names {
		ep := r.Endpoint(name)
		h := 0
		if _, ok := changed[name]; ok || changed == nil {
			h = addEndpoint(ep)
		}
		eps = append(eps, value.Obj(
			value.M("name", value.Str(name)),
			value.M("h", value.Int(int64(h))),
			value.M("path", value.Str(ep.Options().Path)),
			value.M("method", value.Str(ep.Method())),
			value.M("fullName", value.Str(ep.Name())),
		))
	}
	return value.Obj(
		value.M("h", value.Int(int64(table.add(r)))),
		value.M("endpoints", value.Arr(eps...)),
	).JSON()
}
