//go:build js && wasm

package jsbridge

import (
	"errors"
	"math"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/encode"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/datafetch/datafetch/jsbridge/interop"
)

// Schemas cross as descriptors that datafetch.mjs builds from the shapes of
// docs/js-api.md (Schemas), as JSON:
//
//	null                         no schema
//	"date"                       the global Date
//	{"e": handle}                an Entity (made by entityNew)
//	{"a": D}                     [S], schema.Array(S)
//	{"v": D}                     schema.Values(S)
//	{"lz": D}                    schema.Lazy(S): normalized by S, read as stored
//	{"lq": D}                    a Lazy's query: reads the relationship by S
//	{"i": handle}                schema.Invalidate(Entity)
//	{"i": U}                     schema.Invalidate of a union, U its
//	                             descriptor ({"u": ...}: entities only)
//	{"all": handle}              schema.All(Entity)
//	{"all": U}                   schema.All of a union (polymorphic)
//	{"o": [[name, D] | [name, 0, default]...]}
//	                             a plain object or schema.Object: members
//	                             that are schemas, and defaults
//	{"u": {name: D...}, "k": attribute}
//	{"c": handle}                a schema.Collection (made by collectionNew)
//	{"c": handle, "op": n}       its adder n (schema.CollectionOp: push...)
//	{"c": handle, "op": 5, "m": index}
//	                             its move joining by fns[index] (moveWith)
//	{"lens": key, "le": handle, "f": index}
//	                             a Scalar (schema.Lens): its key, the
//	                             handle of the entity its standalone
//	                             cells belong to (none: null), and
//	                             fns[index](argsJSON) its lens (a string,
//	                             undefined for none)
//	{"cv": n}                    a class or function converting a field's
//	                             value when read (schema.Scalar; n is
//	                             JavaScript's number for it)
//	{"u": {name: D...}, "f": index, "fp": bool}
//	                             schema.Union, chosen by a field or by the
//	                             function fns[index] (given the parent
//	                             when fp); its members, in declaration
//	                             order, are any schemas (usually
//	                             entities, {"e": handle}); with "w": index,
//	                             fns[index](valueJSON, attr, reading)
//	                             reports a value no member takes
//
// fns holds the functions a descriptor refers to by index (adapters that
// take and return JSON text; see datafetch.mjs).

// schemaNew(descJSON, fns) returns the handle of a new schema.
func schemaNew(args []safejs.Value) (any, error) {
	d, err := jsonArg(arg(args, 0), "schema")
	if err != nil {
		return nil, err
	}
	s, err := buildSchema(d, arg(args, 1))
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, fmtlite.Errorf("schema: no schema given")
	}
	return table.add(s), nil
}

func buildSchema(d value.Value, fns safejs.Value) (schema.Schema, error) {
	switch d.Kind() {
	case value.Null, value.Undefined:
		return nil, nil
	case value.String:
		if d.Str() == "date" {
			return schema.Date, nil
		}
	case value.Object:
		return buildCompound(d, fns)
	}
	return nil, fmtlite.Errorf("schema: bad descriptor %s", d)
}

func buildCompound(d value.Value, fns safejs.Value) (schema.Schema, error) {
	nested := func(key string) (schema.Schema, error) {
		s, err := buildSchema(d.Get(key), fns)
		if err == nil && s == nil {
			err = fmtlite.Errorf("schema: %s needs a schema to hold", d)
		}
		return s, err
	}
	switch {
	case d.Has("e"):
		return entityByHandle(d.Get("e"))
	case d.Has("c"):
		c, err := collectionByHandle(d.Get("c"))
		if err != nil || !d.Has("op") {
			return c, err
		}
		// One of its adders (data-client's collection.push and the rest).
		op, _ := d.Get("op").Float()
		a, err := c.Adder(schema.CollectionOp(op))
		if err != nil || !d.Has("m") {
			return a, err
		}
		// A move's join, fns[m] (data-client's moveWith(merge)).
		m, _ := d.Get("m").Float()
		fn, err := fns.Index(int(m))
		if err != nil {
			return nil, err
		}
		a.Merge = func(existing, incoming value.Value) value.Value {
			// No error result, as an entity's merge: a failure panics,
			// which the entry point turns into the request's error.
			out, err := invoke(fn, existing.JSON(), incoming.JSON())
			if err == nil {
				var v value.Value
				if v, err = jsonArg(out, "moveWith merge result"); err == nil {
					return v
				}
			}
			panic(fmtlite.Errorf("collection %s: moveWith: %w", c.TableKey(), err))
		}
		return a, nil
	case d.Has("a"):
		of, err := nested("a")
		if err != nil {
			return nil, err
		}
		return schema.ArrayOf(of), nil
	case d.Has("v"):
		of, err := nested("v")
		if err != nil {
			return nil, err
		}
		return schema.ValuesOf(of), nil
	case d.Has("lz"):
		of, err := nested("lz")
		if err != nil {
			return nil, err
		}
		return schema.LazyOf(of), nil
	case d.Has("lq"):
		of, err := nested("lq")
		if err != nil {
			return nil, err
		}
		return &schema.LazyQuery{Of: of}, nil
	case d.Has("i"), d.Has("all"):
		inv := d.Has("i")
		of := d.Get("all")
		if inv {
			of = d.Get("i")
		}
		if of.Kind() == value.Object {
			// Of a union of entities.
			u, err := buildUnion(of, fns, inv)
			if err != nil || inv {
				return u, err
			}
			return schema.AllOfUnion(u), nil
		}
		e, err := entityByHandle(of)
		if err != nil {
			return nil, err
		}
		if inv {
			return schema.InvalidateOf(e), nil
		}
		return schema.AllOf(e), nil
	case d.Has("o"):
		return buildObject(d.Get("o"), fns)
	case d.Has("lens"):
		return buildLens(d, fns)
	case d.Has("cv"):
		f, ok := d.Get("cv").Float()
		if !ok || f < 1 || f > math.MaxUint32 || f != math.Trunc(f) {
			return nil, fmtlite.Errorf("schema: bad conversion %s", d.Get("cv"))
		}
		return schema.ScalarOf(uint32(f)), nil
	case d.Has("u"):
		return buildUnion(d, fns, false)
	case d.Has("x"):
		return buildCustom(d, fns)
	}
	return nil, fmtlite.Errorf("schema: bad descriptor %s", d)
}

// buildCustom builds a custom schema (schema.Custom): fns[f] is its
// adapter, called with (reading, inputJSON, parentJSON, key, argsJSON,
// nested) and returning, as JSON text, the normalized form of the input
// or, when reading, its read. The adapter calls back nested(JSON text of
// {h, a, b, k, r}), which returns JSON text, or an Error for the adapter
// to throw: the value a, the member k of b, normalized or read by the
// schema of handle h; with r, the record b stored under the pk a of the
// entity of handle h, or when b is absent, that record deleted.
func buildCustom(d value.Value, fns safejs.Value) (schema.Schema, error) {
	i, _ := d.Get("f").Float()
	fn, err := fns.Index(int(i))
	if err != nil {
		return nil, err
	}
	cc := &customCall{fn: fn}
	// One nested function per schema, for as long as it lives: a
	// js.FuncOf per call would cost more than the call.
	if cc.nested, err = safejs.FuncOf(cc.nestedCall); err != nil {
		return nil, err
	}
	return &schema.Custom{Name: d.Get("x").Str(), Call: cc.call}, nil
}

// customCall is a custom schema's adapter and the nested function it
// calls back, with the Nest of the call under way.
type customCall struct {
	fn     safejs.Value
	nested safejs.Func
	nest   *schema.Nest
}

func (cc *customCall) call(in, parent value.Value, key string, c *schema.Nest) (value.Value, error) {
	// A custom schema may nest itself: the outer call's Nest comes back
	// when the inner one returns.
	outer := cc.nest
	cc.nest = c
	out, err := invoke(cc.fn, c.Reading(), in.JSON(), parent.JSON(), key, c.Args().JSON(), cc.nested.Value())
	cc.nest = outer
	if err != nil {
		return value.Undef, err
	}
	return jsonArg(out, "custom schema result")
}

// nestedCall is the nested function: customNested's result as JSON text,
// or its error (or a panic) as an Error for the adapter to throw.
func (cc *customCall) nestedCall(_ safejs.Value, args []safejs.Value) (ret any) {
	defer func() {
		if p := recover(); p != nil {
			ret = errorValue(panicError("custom schema", p))
		}
	}()
	out, err := customNested(cc.nest, args)
	if err != nil {
		return errorValue(err)
	}
	return out.JSON()
}

// customNested does what a custom schema's adapter asks of its nested
// function (see buildCustom). The adapter checks that a record's schema
// is an Entity.
func customNested(c *schema.Nest, args []safejs.Value) (value.Value, error) {
	v, err := jsonArg(arg(args, 0), "custom schema")
	h, _ := v.Get("h").Float()
	x, _ := table.get(int(h))
	s, _ := x.(schema.Schema)
	if err != nil || s == nil {
		return value.Undef, errBadNested
	}
	a, b := v.Get("a"), v.Get("b")
	if !v.Has("r") {
		return c.Nested(s, a, b, v.Get("k").Str())
	}
	if e, ok := s.(*schema.Entity); ok {
		c.Store(e, a.Str(), b, b.IsUndefined())
	}
	return value.Undef, nil
}

var errBadNested = errors.New("custom schema: a nested call needs a schema")

// buildLens builds a Scalar from its spec (see the descriptors).
func buildLens(d value.Value, fns safejs.Value) (schema.Schema, error) {
	var bound *schema.Entity
	if h := d.Get("le"); h.Kind() == value.Number {
		e, err := entityByHandle(h)
		if err != nil {
			return nil, err
		}
		bound = e
	}
	f, _ := d.Get("f").Float()
	fn, err := fns.Index(int(f))
	if err != nil {
		return nil, err
	}
	key := d.Get("lens").Str()
	return schema.LensOf(key, func(args value.Value) (string, bool) {
		out, err := invoke(fn, args.JSON())
		if err != nil {
			// No error result, as a merge: the entry point turns the
			// panic into the request's (or the read's) error.
			panic(fmtlite.Errorf("Scalar(%s): lens: %w", key, err))
		}
		if out.Type() != safejs.TypeString {
			return "", false // undefined: no lens
		}
		s, err := out.String()
		return s, err == nil
	}, bound), nil
}

func buildObject(members value.Value, fns safejs.Value) (schema.Schema, error) {
	fields := make([]schema.Field, 0, members.Len())
	for _, m := range members.Elems() {
		name := m.Elems()[0].Str()
		if m.Len() == 3 {
			fields = append(fields, schema.Default(name, m.Elems()[2]))
			continue
		}
		s, err := buildSchema(m.Elems()[1], fns)
		if err != nil {
			return nil, fmtlite.Errorf("member %s: %w", name, err)
		}
		fields = append(fields, schema.Nested(name, s))
	}
	return schema.ObjectOf(fields...), nil
}

// buildUnion builds a union, whose members are any schemas; with inv, the
// union of an Invalidate (see schema.InvalidateOfUnion): its entities
// become their Invalidates.
func buildUnion(d value.Value, fns safejs.Value, inv bool) (*schema.Union, error) {
	u := &schema.Union{Schemas: map[string]schema.Schema{}}
	for _, m := range d.Get("u").Members() {
		s, err := buildSchema(m.Value, fns)
		if err != nil || s == nil {
			return nil, fmtlite.Errorf("union member %s: %w", m.Key, err)
		}
		if e, ok := s.(*schema.Entity); ok && inv {
			s = schema.InvalidateOf(e)
		}
		u.Schemas[m.Key] = s
		u.Names = append(u.Names, m.Key)
	}
	if i, ok := d.Get("w").Float(); ok {
		// The report of a value no member takes (schema.Union.Unknown):
		// a warning only, whatever it throws.
		fn, err := fns.Index(int(i))
		if err != nil {
			return nil, err
		}
		u.Unknown = func(v value.Value, attr string, reading bool) { _, _ = invoke(fn, v.JSON(), attr, reading) }
	}
	if i, ok := d.Get("f").Float(); ok {
		fn, err := fns.Index(int(i))
		if err != nil {
			return nil, err
		}
		wantParent := d.Get("fp").Boolean() // see entityNew
		u.AttributeFunc = func(in, parent value.Value, key string) string {
			var p any
			if wantParent {
				p = parent.JSON()
			}
			name, err := invoke(fn, in.JSON(), p, key)
			if err != nil {
				panic(fmtlite.Errorf("union schema attribute: %w", err))
			}
			s, _ := interop.String(name)
			return s
		}
		return u, nil
	}
	u.Attribute = d.Get("k").Str()
	return u, nil
}

func entityByHandle(h value.Value) (*schema.Entity, error) {
	id, ok := h.Float()
	if !ok {
		return nil, fmtlite.Errorf("schema: entity handle is %s", h.Kind())
	}
	x, _ := table.get(int(id))
	e, ok := x.(*schema.Entity)
	if !ok {
		return nil, fmtlite.Errorf("schema: handle #%d is not an Entity", int(id))
	}
	return e, nil
}

// entityNew(specJSON, fns) returns the handle of a new Entity. The spec is
// {key, pk, defaults, schema: {field: descriptor}, hooks: [names],
// pkParent, processParent, pkArgs, processArgs, cls}: cls, when set, is
// the number of the JavaScript class its reads are instances of (see
// entityClasses); pk names the key field (the fast path: no callback per
// record) unless hooks names "pk". fns holds the adapters named in hooks,
// which take and return JSON text:
//
//	pk(record, parent, key, args) → string, or null when the record has none
//	process(record, parent, key, args) → record
//	merge(existing, incoming) → record
//	useIncoming(6 meta numbers, existing, incoming) → boolean
//	shouldReorder(6 meta numbers, existing, incoming) → boolean
//	valid(record) → boolean: whether a stored record may be read
//	depthLimited(limit): a read cut the entity at its depth limit
//
// maxDepth, when set, is the entity's depth limit (schema.Entity.MaxDepth);
// fields, when set, lists every default field in order, those defaults
// lacks being undefined ones (see defaultsInOrder).
// parent is passed only when the caller's function declares it (pkParent,
// processParent): serializing the whole parent for every record of a list
// would make normalizing quadratic. args (the request's args, a JSON
// array: schema.Args.List) likewise only with pkArgs, processArgs.
func entityNew(args []safejs.Value) (any, error) {
	spec, err := jsonArg(arg(args, 0), "entity")
	if err != nil {
		return nil, err
	}
	fns := arg(args, 1)
	e := &schema.Entity{
		Key:      spec.Get("key").Str(),
		PK:       spec.Get("pk").Str(),
		Defaults: spec.Get("defaults"),
	}
	if fields := spec.Get("fields"); fields.Kind() == value.Array && e.Defaults.Kind() == value.Object {
		e.Defaults = defaultsInOrder(e.Defaults, fields)
	}
	if err := e.Validate(); err != nil {
		return nil, err
	}
	if err := setFieldSchemas(e, spec.Get("schema"), fns); err != nil {
		return nil, err
	}
	for _, h := range spec.Get("hooks").Elems() {
		name := h.Str()
		fn, err := fns.Get(name)
		if err != nil {
			return nil, err
		}
		if err := setEntityHook(e, name, fn, spec); err != nil {
			return nil, err
		}
	}
	if d, ok := spec.Get("maxDepth").Float(); ok && d >= 1 && d <= schema.MaxDepth {
		e.MaxDepth = int(d)
	}
	if c, ok := spec.Get("cls").Float(); ok && c > 0 && c <= math.MaxUint32 {
		encode.SetEntityClass(e, uint32(c))
	}
	return table.add(e), nil
}

// defaultsInOrder returns defaults with a member for each of fields (every
// default field, in order): those JSON could not carry (undefined) as
// Undefined, so that reads have them, as data-client's instances do.
func defaultsInOrder(defaults, fields value.Value) value.Value {
	ms := make([]value.Member, 0, fields.Len())
	for _, f := range fields.Elems() {
		ms = append(ms, value.M(f.Str(), defaults.Get(f.Str())))
	}
	return value.Obj(ms...)
}

// setFieldSchemas sets e.Schema from fields, an object of descriptors by
// field name.
func setFieldSchemas(e *schema.Entity, fields value.Value, fns safejs.Value) error {
	if fields.Len() == 0 {
		return nil
	}
	m := make(map[string]schema.Schema, fields.Len())
	for _, f := range fields.Members() {
		s, err := buildSchema(f.Value, fns)
		if err != nil {
			return fmtlite.Errorf("entity %s: schema.%s: %w", e.Key, f.Key, err)
		}
		if s != nil {
			m[f.Key] = s
		}
	}
	e.Schema = m
	return nil
}

// entitySchema(handle, fieldsJSON, fns) sets the field schemas of an
// entity made by entityNew with none, before anything has used it: a class
// declares them in a static schema read when first used, which may name
// entities that name it (User.posts → Post.author → User), so such an
// entity is made first and given its fields once those it names exist.
func entitySchema(args []safejs.Value) (any, error) {
	e, err := lookup[*schema.Entity](arg(args, 0), "an Entity")
	if err != nil {
		return nil, err
	}
	if len(e.Schema) > 0 {
		return nil, fmtlite.Errorf("entity %s: its schema is set already", e.Key)
	}
	fields, err := jsonArg(arg(args, 1), "entity schema")
	if err != nil {
		return nil, err
	}
	return nil, setFieldSchemas(e, fields, arg(args, 2))
}

func setEntityHook(e *schema.Entity, name string, fn safejs.Value, spec value.Value) error {
	// Optional arguments are passed only when wanted (see entityNew).
	wanted := func(flag string) func(value.Value) any {
		if spec.Get(flag).Boolean() {
			return func(p value.Value) any { return p.JSON() }
		}
		return func(value.Value) any { return nil }
	}
	switch name {
	case "pk":
		parent, argList := wanted("pkParent"), wanted("pkArgs")
		e.PKIgnoresParent = !spec.Get("pkParent").Boolean()
		e.PKFunc = func(record, p value.Value, key string, a value.Value) (string, bool, error) {
			pk, err := invoke(fn, record.JSON(), parent(p), key, argList(a))
			if err != nil {
				return "", false, fmtlite.Errorf("pk: %w", err)
			}
			if pk.Type() != safejs.TypeString {
				return "", false, nil
			}
			// JSON text (see datafetch.mjs), which keeps lone surrogates.
			v, err := jsonArg(pk, "pk result")
			if err != nil {
				return "", false, err
			}
			return v.Str(), true, nil
		}
	case "process":
		parent, argList := wanted("processParent"), wanted("processArgs")
		e.Process = func(record, p value.Value, key string, a value.Value) (value.Value, error) {
			out, err := invoke(fn, record.JSON(), parent(p), key, argList(a))
			if err != nil {
				return value.Undef, err
			}
			return jsonArg(out, "process result")
		}
	case "merge":
		e.Merge = func(existing, incoming value.Value) value.Value {
			// Merge has no error result: a failure panics, which the
			// controller turns into the request's error.
			out, err := invoke(fn, existing.JSON(), incoming.JSON())
			if err != nil {
				panic(fmtlite.Errorf("entity %s: merge: %w", e.Key, err))
			}
			v, err := jsonArg(out, "merge result")
			if err != nil {
				panic(fmtlite.Errorf("entity %s: %w", e.Key, err))
			}
			return v
		}
	case "valid":
		e.Valid = func(record value.Value) bool {
			// No error result, as Merge: a failure panics, which the
			// entry point turns into the read's error.
			out, err := invoke(fn, record.JSON())
			if err != nil {
				panic(fmtlite.Errorf("entity %s: validate: %w", e.Key, err))
			}
			b, _ := out.Truthy()
			return b
		}
	case "depthLimited":
		// A report only: what it throws is not the read's concern.
		e.DepthLimited = func(limit int) { _, _ = invoke(fn, limit) }
	case "useIncoming":
		e.UseIncoming = metaPredicate(e.Key, name, fn)
	case "shouldReorder":
		e.ShouldReorder = metaPredicate(e.Key, name, fn)
	case "mergeWithStore":
		e.MergeWithStore = func(em, im schema.Meta, existing, incoming value.Value) value.Value {
			out, err := invoke(fn, em.Date, em.FetchedAt, em.ExpiresAt, im.Date, im.FetchedAt, im.ExpiresAt, existing.JSON(), incoming.JSON())
			if err == nil {
				var v value.Value
				if v, err = jsonArg(out, "mergeWithStore result"); err == nil {
					return v
				}
			}
			// No error result, as Merge: a failure panics, which the
			// controller turns into the request's error.
			panic(fmtlite.Errorf("entity %s: mergeWithStore: %w", e.Key, err))
		}
	case "mergeMetaWithStore":
		e.MergeMetaWithStore = func(em, im schema.Meta, existing, incoming value.Value) schema.Meta {
			out, err := invoke(fn, em.Date, em.FetchedAt, em.ExpiresAt, im.Date, im.FetchedAt, im.ExpiresAt, existing.JSON(), incoming.JSON())
			var m value.Value
			if err == nil {
				m, err = jsonArg(out, "mergeMetaWithStore result")
			}
			if err == nil {
				var meta schema.Meta
				if meta, err = metaFrom(m); err == nil {
					return meta
				}
			}
			panic(fmtlite.Errorf("entity %s: mergeMetaWithStore: %w", e.Key, err))
		}
	default:
		return fmtlite.Errorf("entity %s: unknown hook %q", e.Key, name)
	}
	return nil
}

// metaFrom reads a meta {date, fetchedAt, expiresAt} that a hook returned,
// each an epoch-ms time within range.
func metaFrom(m value.Value) (schema.Meta, error) {
	var meta schema.Meta
	for _, f := range []struct {
		name string
		to   *int64
	}{{"date", &meta.Date}, {"fetchedAt", &meta.FetchedAt}, {"expiresAt", &meta.ExpiresAt}} {
		v := m.Get(f.name)
		if v.Kind() != value.Number {
			return meta, fmtlite.Errorf("%s: want epoch milliseconds, got %s", f.name, v.Kind())
		}
		ms, err := schema.MillisOf(v)
		if err != nil {
			return meta, fmtlite.Errorf("%s: %w", f.name, err)
		}
		*f.to = ms
	}
	return meta, nil
}

// metaPredicate adapts useIncoming and shouldReorder. Like Merge, they
// cannot return an error, so a failure panics.
func metaPredicate(key, name string, fn safejs.Value) func(em, im schema.Meta, existing, incoming value.Value) bool {
	return func(em, im schema.Meta, existing, incoming value.Value) bool {
		out, err := invoke(fn, em.Date, em.FetchedAt, em.ExpiresAt, im.Date, im.FetchedAt, im.ExpiresAt,
			existing.JSON(), incoming.JSON())
		if err != nil {
			panic(fmtlite.Errorf("entity %s: %s: %w", key, name, err))
		}
		b, _ := out.Truthy()
		return b
	}
}
