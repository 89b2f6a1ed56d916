package rest

import (
	"slices"
	"strings"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// ResourceOptions configures NewResource.
type ResourceOptions struct {
	// URLPrefix, when set, replaces Options.URLPrefix for every endpoint.
	URLPrefix string
	// Path is the path of one record, as "/articles/:id".
	Path string
	// Schema is the entity the resource serves.
	Schema *schema.Entity
	// Name prefixes the endpoint names ("Article" gives "Article.get"); ""
	// means Schema.Key. Resources of one entity on different paths need
	// different names only if their URLs can coincide.
	Name string
	// Options are shared by every endpoint; NewResource sets their
	// URLPrefix, Path, Method, Name and Schema.
	Options Options
	// Optimistic gives the mutations the optimistic responses of
	// data-client's resource({optimistic: true}), in place of any
	// GetOptimisticResponse in Options: create, update, and the endpoints
	// getList derives (Push, Unshift, Assign, Remove) apply the params
	// merged with the body; partialUpdate the stored record merged with
	// the params and the body (nothing when no record is stored); delete
	// the params. A record without its pk (a create) is stored under a
	// temporary one until the server answers. A body that is not a JSON
	// object (a string, a raw body) applies nothing. Each is an ordinary
	// GetOptimisticResponse: Extend replaces it.
	Optimistic bool
}

// Resource is a set of endpoints for one entity. The six fields are the
// built-in endpoints (for a LegacyResource, Get is detail and GetList is
// list); Endpoint finds any endpoint by name, those added by Extend too.
// Treat a Resource as read-only: Extend returns a changed copy.
type Resource struct {
	Get, GetList, Create, Update, PartialUpdate, Delete *Endpoint

	prefix string
	names  []string
	eps    map[string]*Endpoint
}

// resourceEndpoint describes one built-in endpoint of a resource.
type resourceEndpoint struct {
	name, method, path string
	// movePath is the MovePath option of getList: the record's path.
	movePath string
	schema   schema.Schema
	delete   bool
	// optimistic is its GetOptimisticResponse when the resource is
	// optimistic; nil for get.
	optimistic func(snap endpoint.Snapshot, params value.Value, body any) (value.Value, error)
}

// NewResource returns the built-in endpoints of a resource, as data-client's
// resource makes them: get (GET Path), getList (GET the list path, which is
// Path without its last /:token, with schema [Schema]), create (POST the
// list path), update (PUT Path), partialUpdate (PATCH Path) and delete
// (DELETE Path, schema Invalidate(Schema)). Endpoints are named
// Name + "." + endpoint name. Delete's Process falls back to the params when
// the response has no record, so the deleted entity is known without a
// body; extending delete with a Process of its own replaces that fallback.
// With o.Optimistic the mutations apply their answers at once (see
// ResourceOptions.Optimistic).
func NewResource(o ResourceOptions) (*Resource, error) {
	if err := o.Schema.Validate(); err != nil {
		return nil, fmtlite.Errorf("rest: resource %s: %w", o.Path, err)
	}
	list := listPath(o.Path)
	defs := []resourceEndpoint{
		{name: "get", method: "GET", path: o.Path, schema: o.Schema},
		// getList never runs its optimistic response (a GET does not);
		// the endpoints it derives (push...) inherit it, as in data-client.
		{name: "getList", method: "GET", path: list, movePath: o.Path, schema: schema.CollectionOf(schema.ArrayOf(o.Schema)), optimistic: optimisticUpdate},
		{name: "create", method: "POST", path: list, schema: o.Schema, optimistic: optimisticUpdate},
		{name: "update", method: "PUT", path: o.Path, schema: o.Schema, optimistic: optimisticUpdate},
		{name: "partialUpdate", method: "PATCH", path: o.Path, schema: o.Schema, optimistic: optimisticPartial(o.Schema)},
		{name: "delete", method: "DELETE", path: o.Path, schema: schema.InvalidateOf(o.Schema), delete: true, optimistic: optimisticDelete},
	}
	if !o.Optimistic {
		for i := range defs {
			defs[i].optimistic = nil
		}
	}
	return newResource(o.Name, o.Schema, o.URLPrefix, o.Options, defs)
}

// optimisticUpdate is the optimistic response of a resource's create and
// update: the params with the body's members over them.
func optimisticUpdate(_ endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
	b, err := optimisticBody(body)
	if err != nil {
		return value.Undef, err
	}
	return schema.ShallowMerge(params, b), nil
}

// optimisticPartial returns the optimistic response of a resource's
// partialUpdate: the params, then the stored record of e they name, then
// the body. With no record stored it applies nothing: a partial body
// alone is not the record.
func optimisticPartial(e *schema.Entity) func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
	return func(snap endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
		b, err := optimisticBody(body)
		if err != nil {
			return value.Undef, err
		}
		stored, err := snap.Get(e, params)
		if err != nil {
			return value.Undef, err
		}
		if stored.IsUndefined() {
			return value.Undef, endpoint.ErrAbortOptimistic
		}
		return schema.ShallowMerge(schema.ShallowMerge(params, stored), b), nil
	}
}

// optimisticDelete is the optimistic response of a resource's delete: the
// params, which name the record deleted.
func optimisticDelete(_ endpoint.Snapshot, params value.Value, _ any) (value.Value, error) {
	return params, nil
}

// optimisticBody returns the body an optimistic response merges: a JSON
// object, or none (Undefined) when there is no body. Any other body (a
// string, an array, a raw body such as FormData) says nothing a record
// can be guessed from, and applies nothing.
func optimisticBody(body any) (value.Value, error) {
	if isNoBody(body) {
		return value.Undef, nil
	}
	if b, ok := body.(value.Value); ok && (b.Kind() == value.Object || b.IsNull()) {
		return b, nil
	}
	return value.Undef, endpoint.ErrAbortOptimistic
}

// LegacyResource returns the endpoints of a data-client 6.0 Resource class
// on urlRoot: detail (GET urlRoot + ":id", where id is the entity's pk
// field), list (GET urlRoot), create (POST urlRoot), update (PUT detail),
// partialUpdate (PATCH detail) and delete (DELETE detail). Get and GetList
// hold detail and list; listShape is list.
func LegacyResource(urlRoot string, e *schema.Entity) (*Resource, error) {
	if err := e.Validate(); err != nil {
		return nil, fmtlite.Errorf("rest: resource %s: %w", urlRoot, err)
	}
	token := "id"
	if e.PKFunc == nil && e.PK != "" && isToken(e.PK) {
		token = e.PK
	}
	root := urlRoot
	if !strings.HasSuffix(root, "/") {
		// 6.0 joined urlRoot and the pk with a slash when it had none.
		root += "/"
	}
	detail := root + ":" + token
	return newResource("", e, "", Options{}, []resourceEndpoint{
		{name: "detail", method: "GET", path: detail, schema: e},
		{name: "list", method: "GET", path: urlRoot, schema: schema.ArrayOf(e)},
		{name: "create", method: "POST", path: urlRoot, schema: e},
		{name: "update", method: "PUT", path: detail, schema: e},
		{name: "partialUpdate", method: "PATCH", path: detail, schema: e},
		{name: "delete", method: "DELETE", path: detail, schema: schema.InvalidateOf(e), delete: true},
	})
}

func isToken(s string) bool {
	if s == "" || !isTokenStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return true
}

func newResource(prefix string, e *schema.Entity, urlPrefix string, shared Options, defs []resourceEndpoint) (*Resource, error) {
	if prefix == "" {
		prefix = e.Key
	}
	r := &Resource{prefix: prefix, eps: make(map[string]*Endpoint, len(defs))}
	for _, d := range defs {
		o := shared
		if urlPrefix != "" {
			o.URLPrefix = urlPrefix
		}
		o.Path, o.Method, o.Name, o.Schema = d.path, d.method, prefix+"."+d.name, d.schema
		if d.movePath != "" {
			o.MovePath = d.movePath
		}
		if d.optimistic != nil {
			o.GetOptimisticResponse = d.optimistic
		}
		if d.delete {
			o.Process = deleteProcess(o.Process)
		}
		ep, err := New(o)
		if err != nil {
			return nil, fmtlite.Errorf("rest: resource %s: %w", prefix, err)
		}
		r.names = append(r.names, d.name)
		r.eps[d.name] = ep
	}
	r.syncFields()
	return r, nil
}

// deleteProcess makes a delete store its params when the response has no
// record (null, or an empty object as some servers send), so the
// Invalidate schema still learns which entity was deleted.
func deleteProcess(next func(v, params value.Value) (value.Value, error)) func(v, params value.Value) (value.Value, error) {
	return func(v, params value.Value) (value.Value, error) {
		if next != nil {
			var err error
			if v, err = next(v, params); err != nil {
				return value.Undef, err
			}
		}
		if v.IsNullish() || v.Kind() == value.Object && v.Len() == 0 {
			return params, nil
		}
		return v, nil
	}
}

// listPath returns the path of a resource's list, as data-client's
// resource derives it: path up to its last token (or the optional group
// holding it), without the '/' before it, as "/users/:userId/posts/:id"
// gives "/users/:userId/posts", "/repos/:owner/*path" "/repos/:owner",
// "/users{/:id}" "/users" and "/:id" "" (the URL prefix alone). A path
// without a token is its own list path.
func listPath(path string) string {
	t, err := parsePath(path)
	if err != nil {
		return path
	}
	for i := len(t.parts) - 1; i >= 0; i-- {
		if p := t.parts[i]; p.token != "" || p.group != nil && hasTokens(p.group) {
			return strings.TrimSuffix(path[:p.at], "/")
		}
	}
	return path
}

// hasTokens reports whether parts hold a token, in nested groups too.
func hasTokens(parts []pathPart) bool {
	for _, p := range parts {
		if p.token != "" || hasTokens(p.group) {
			return true
		}
	}
	return false
}

// field returns the Resource field that holds the built-in endpoint called
// name, or nil for other names.
func (r *Resource) field(name string) **Endpoint {
	switch name {
	case "get", "detail":
		return &r.Get
	case "getList", "list":
		return &r.GetList
	case "create":
		return &r.Create
	case "update":
		return &r.Update
	case "partialUpdate":
		return &r.PartialUpdate
	case "delete":
		return &r.Delete
	}
	return nil
}

func (r *Resource) syncFields() {
	for name, ep := range r.eps {
		if f := r.field(name); f != nil {
			*f = ep
		}
	}
}

// Endpoint returns the endpoint called name (as "get", or one added by
// Extend), or nil when there is none. A LegacyResource also answers to
// "listShape", its list.
func (r *Resource) Endpoint(name string) *Endpoint {
	if ep, ok := r.eps[name]; ok {
		return ep
	}
	if name == "listShape" {
		return r.eps["list"]
	}
	return nil
}

// Names returns the endpoint names: the built-in ones in their usual order,
// then those added by Extend in the order added.
func (r *Resource) Names() []string { return slices.Clone(r.names) }

// Extend returns a resource whose endpoints named in changes are extended
// with them (see Endpoint.Extend); a name the resource lacks adds an
// endpoint that starts as a copy of get (detail for a legacy resource) named
// Name + "." + name. The original resource is unchanged.
func (r *Resource) Extend(changes map[string]func(o *Options)) (*Resource, error) {
	n := &Resource{prefix: r.prefix, names: slices.Clone(r.names), eps: make(map[string]*Endpoint, len(r.eps)+len(changes))}
	for name, ep := range r.eps {
		n.eps[name] = ep
	}
	// Sorted so that additions, and the first error, do not depend on map
	// order.
	names := make([]string, 0, len(changes))
	for name := range changes {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		change := changes[name]
		if name == "" {
			return nil, fmtlite.Errorf("rest: resource %s: extend: empty endpoint name", r.prefix)
		}
		if ep, ok := n.eps[name]; ok {
			ext, err := ep.Extend(change)
			if err != nil {
				return nil, fmtlite.Errorf("rest: resource %s: extend %s: %w", r.prefix, name, err)
			}
			n.eps[name] = ext
			continue
		}
		base := r.Get
		if base == nil {
			return nil, fmtlite.Errorf("rest: resource %s: extend %s: no get endpoint to start from", r.prefix, name)
		}
		full := r.prefix + "." + name
		ext, err := base.Extend(func(o *Options) {
			o.Name = full
			if change != nil {
				change(o)
			}
		})
		if err != nil {
			return nil, fmtlite.Errorf("rest: resource %s: extend %s: %w", r.prefix, name, err)
		}
		n.eps[name] = ext
		n.names = append(n.names, name)
	}
	n.syncFields()
	return n, nil
}
