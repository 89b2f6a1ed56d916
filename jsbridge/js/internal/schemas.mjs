// Schemas: the shape classes of df.schema (module-wide, so that any
// instance's Entity is recognised), and per instance the Entity class and
// the conversion of shapes to Go schemas (makeSchemas).

import { classNumber, converterNumber } from './classes.mjs';
import { EntityMixin, declarationOf, isEntityClass } from './entity.mjs';
import { MEMBER_DEFAULT } from './protocol.mjs';
import { deletedAsNull, plainInput, plainState } from './state.mjs';
import { checkJSON, isPlainObject, jsonText, locked, lockedCall, markedText, parse, show, synchronous, toStoreJSON } from './values.mjs';

/**
 * What denormalize returns when a required entity is deleted (a deleted
 * entity, or an entity or object that requires one): data-client's INVALID.
 */
export const INVALID = Symbol('INVALID');

// The schema classes only record their shape; attach converts shapes to
// Go schemas when they are used.

// entities holds every Entity made (by any instance of the API), so that
// shapes can be checked where they are made.
const entities = new WeakSet();

// isConversion reports whether a field schema s is a class or function
// that converts the field's value when read (Number, a class with
// fromJSON, Temporal.Instant.from): any function but Date and an entity
// class.
function isConversion(s) {
  return typeof s === 'function' && s !== Date && !isEntityClass(s);
}

/** Reports whether s is an Entity: a class, or the factory's (df.Entity). */
export function isEntity(s) {
  return entities.has(s) || isEntityClass(s);
}

/**
 * Reports whether s is a custom schema: an object with its own normalize
 * and denormalize methods (data-client's SchemaSimple), or an entity class
 * with a static normalize of its own (data-client's "fully custom entity
 * classes"). The engine calls them, with data-client's delegates.
 */
export function isCustomSchema(s) {
  if (isEntityClass(s)) return typeof s.normalize === 'function';
  return typeof s === 'object' && s !== null && !(s instanceof ScalarSchema) && typeof s.normalize === 'function' && typeof s.denormalize === 'function';
}

function isSchema(s) {
  return (
    s === Date ||
    isCustomSchema(s) ||
    isConversion(s) ||
    isEntity(s) ||
    s instanceof ArraySchema ||
    s instanceof ObjectSchema ||
    s instanceof ValuesSchema ||
    s instanceof UnionSchema ||
    s instanceof InvalidateSchema ||
    s instanceof AllSchema ||
    s instanceof CollectionSchema ||
    s instanceof CollectionOpSchema ||
    s instanceof ScalarSchema ||
    s instanceof LazySchema ||
    isPlainObject(s) ||
    (Array.isArray(s) && s.length === 1 && isSchema(s[0]))
  );
}

function checkSchema(s, where) {
  if (!isSchema(s)) throw new TypeError(`${where}: ${show(s)} is not a schema (an Entity, [S], a plain object, a df.schema class or Date)`);
}

// polymorphic returns what a list or map schema holds: its schema, or,
// given a schemaAttribute (data-client's new schema.Array({a: A, b: B},
// 'type')), the union of the map's schemas by it.
function polymorphic(where, schema, schemaAttribute) {
  if (schemaAttribute === undefined) {
    checkSchema(schema, where);
    return schema;
  }
  if (typeof schemaAttribute !== 'string' && typeof schemaAttribute !== 'function') {
    throw new TypeError(`${where}: schemaAttribute must be a field name or a function, got ${show(schemaAttribute)}`);
  }
  const union = new UnionSchema(schema, schemaAttribute);
  // Reports name the schema that made it, as data-client's do.
  Object.defineProperty(union, 'owner', { value: where === 'schema.Array' ? 'ArraySchema' : 'ValuesSchema' });
  return union;
}

export class ArraySchema {
  constructor(schema, schemaAttribute) {
    this.schema = polymorphic('schema.Array', schema, schemaAttribute);
  }
}

export class ObjectSchema {
  constructor(definition) {
    if (!isPlainObject(definition)) throw new TypeError(`schema.Object: definition must be a plain object, got ${show(definition)}`);
    this.schema = definition;
  }
}

export class ValuesSchema {
  constructor(schema, schemaAttribute) {
    this.schema = polymorphic('schema.Values', schema, schemaAttribute);
  }
}

export class UnionSchema {
  constructor(schemas, schemaAttribute) {
    checkUnion('schema.Union', schemas, schemaAttribute, false);
    this.schemas = schemas;
    this.schemaAttribute = schemaAttribute;
  }
}

// checkUnion checks the members and the schemaAttribute of a union: any
// schemas (data-client allows a schema.Object for values that are not
// entities), or only entities (entitiesOnly: of an Invalidate, an All).
function checkUnion(where, schemas, schemaAttribute, entitiesOnly) {
  if (!isPlainObject(schemas)) throw new TypeError(`${where}: schemas must be an object of entities, got ${show(schemas)}`);
  if (typeof schemaAttribute !== 'string' && typeof schemaAttribute !== 'function') {
    throw new TypeError(`${where}: schemaAttribute must be a field name or a function, got ${show(schemaAttribute)}`);
  }
  for (const [name, e] of Object.entries(schemas)) {
    if (entitiesOnly ? !isEntity(e) : !isSchema(e))
      throw new TypeError(`${where}: member ${name}: ${show(e)} is not ${entitiesOnly ? 'an Entity' : 'a schema'}`);
  }
}

// entitiesOf returns what an Invalidate or an All is of: an Entity, or a
// union of entities, given as a schema.Union or as its schemas and
// schemaAttribute (data-client's new All({a: A, b: B}, 'type')).
function entitiesOf(where, entity, schemaAttribute) {
  if (isEntity(entity)) return entity;
  if (entity instanceof UnionSchema) {
    checkUnion(where, entity.schemas, entity.schemaAttribute, true);
    return entity;
  }
  if (!isPlainObject(entity) || schemaAttribute === undefined) {
    throw new TypeError(`${where}: ${show(entity)} is not an Entity, a schema.Union, or an object of entities with a schemaAttribute`);
  }
  checkUnion(where, entity, schemaAttribute, true);
  return new UnionSchema(entity, schemaAttribute);
}

export class InvalidateSchema {
  constructor(entity, schemaAttribute) {
    this.schema = entitiesOf('schema.Invalidate', entity, schemaAttribute);
  }

  /** data-client's queryKey: an Invalidate is never read from the cache by args. */
  queryKey() {
    return undefined;
  }
}

// AllSchema is every stored entity of one type that is not deleted, as
// a list (section 11); as an endpoint's schema it normalizes as [Entity].
// Of a union, it lists every member entity's table in member order.
export class AllSchema {
  constructor(entity, schemaAttribute) {
    this.schema = entitiesOf('schema.All', entity, schemaAttribute);
  }
}

// LazySchema is data-client's schema.Lazy: a relationship that a read
// leaves as its normalized form (the pks), normalized by its schema (the
// entities are stored). A read of the entity holding it depends on none of
// those entities; its query reads them, with those pks as args.
export class LazySchema {
  constructor(schema) {
    checkSchema(schema, 'schema.Lazy');
    this.schema = schema;
  }

  /** data-client's queryKey: a Lazy is not read by args (its query is). */
  queryKey() {
    return undefined;
  }

  /** The schema that reads the relationship (useQuery, ctrl.get), the same each time. */
  get query() {
    let q = lazyQueries.get(this);
    if (q === undefined) lazyQueries.set(this, (q = new LazyQuery(this.schema)));
    return q;
  }
}

const lazyQueries = new WeakMap();

// readsAsArgs reports whether a LazyQuery over s takes the args s takes
// (an Entity's params, a Collection's), rather than the stored form.
function readsAsArgs(s) {
  return isEntity(s) || s instanceof CollectionSchema;
}

// LazyQuery is a Lazy's query (data-client's LazyQuery): a read of its
// schema from the cache, with the args an Entity or a Collection takes,
// or else with args[0] the form the Lazy field holds (['b1', 'b2']).
export class LazyQuery {
  constructor(schema) {
    checkSchema(schema, 'LazyQuery');
    this.schema = schema;
  }

  /**
   * data-client's queryKey: what the read starts from. walk(schema, args)
   * is MemoCache's queryKey of another schema.
   */
  queryKey(args, walk) {
    return readsAsArgs(this.schema) ? walk(this.schema, args) : (args[0] ?? undefined);
  }
}

/**
 * The schema ctrl.get reads for s: a LazyQuery over an Entity or a
 * Collection reads as that schema does (static indexes included); any
 * other s as it is.
 */
export function lazyRead(s) {
  return s instanceof LazyQuery && readsAsArgs(s.schema) ? s.schema : s;
}

// QuerySchema derives data from a queryable schema (an Entity by pk, All,
// and what declares itself queryable, as a Collection) with process(entries,
// ...args), which ctrl.get runs on this side (controller.mjs).
// indexTables returns the index tables of an entity type with static
// indexes (fields) after normalize wrote the records of pks: stored (the
// store's tables, {field: {value: pk}}) extended, each written record
// under its value of each field; a value a record no longer has is
// data-client's INVALID (its old lookups find nothing). A record without
// an index field is warned about, as data-client does. Deleted records
// change no index.
function indexTables(fields, stored, before, after, pks) {
  const out = { ...stored };
  for (const field of fields) {
    const index = { ...out[field] };
    for (const pk of pks) {
      const rec = after[pk];
      if (rec === null || typeof rec !== 'object') continue;
      const old = before?.[pk];
      if (old !== null && typeof old === 'object' && old[field] !== rec[field]) index[old[field]] = INVALID;
      if (field in rec) index[rec[field]] = pk;
      else
        console.warn(
          `Index not found in entity. Indexes must be top-level members of your entity.\nIndex: ${field}\nEntity: ${JSON.stringify(rec, undefined, 2)}`,
        );
    }
    out[field] = index;
  }
  return out;
}

// withoutAll returns result, the normalized form of data by schema, as
// data-client gives it: an All normalizes its entities but no result (it
// is always read from the tables), so an All is undefined and an All
// member of an object is left out.
function withoutAll(schema, result) {
  if (schema instanceof AllSchema) return undefined;
  const members = schema instanceof ObjectSchema ? schema.schema : isPlainObject(schema) ? schema : undefined;
  if (members === undefined || !isPlainObject(result) || !Object.values(members).some((s) => s instanceof AllSchema)) return result;
  const out = { ...result };
  for (const [k, s] of Object.entries(members)) if (s instanceof AllSchema) delete out[k];
  return out;
}

export class QuerySchema {
  constructor(schema, process) {
    if (!isQueryable(schema)) {
      throw new TypeError(`schema.Query: ${show(schema)} is not queryable (an Entity, a schema.All, a schema.Collection or an object of them)`);
    }
    if (typeof process !== 'function') throw new TypeError(`schema.Query: process must be a function, got ${show(process)}`);
    this.schema = schema;
    this.process = process;
  }
}

// QUERYABLE is the symbol by which a schema class says that a Query and
// ctrl.get can read it from the cache (schema.All and schema.Collection
// do).
export const QUERYABLE = Symbol('datafetch.queryable');
AllSchema.prototype[QUERYABLE] = true;
LazyQuery.prototype[QUERYABLE] = true;
// A Union is read by the member its params' attribute names
// (ctrl.get(union, {id, type})), as data-client's.
UnionSchema.prototype[QUERYABLE] = true;

export function isQueryable(s) {
  return isEntity(s) || s instanceof ObjectSchema || isPlainObject(s) || (s !== null && typeof s === 'object' && s[QUERYABLE] === true);
}

// CollectionSchema is df.schema.Collection: a list ([S]) or a Values map
// of entities stored per its args (argsKey from the params and body, or
// nestKey from the entity holding it). Its endpoints gain push, unshift,
// remove (and assign for Values) through endpoints.mjs.
export class CollectionSchema {
  constructor(schema, options = {}) {
    const list = Array.isArray(schema) || schema instanceof ArraySchema;
    if (!list && !(schema instanceof ValuesSchema)) {
      throw new TypeError(`schema.Collection: schema must be a list ([Entity] or schema.Array) or schema.Values, got ${show(schema)}`);
    }
    checkSchema(schema, 'schema.Collection');
    if (!options || typeof options !== 'object') throw new TypeError(`schema.Collection: options must be an object, got ${show(options)}`);
    const { argsKey, nestKey, key, nonFilterArgumentKeys, createCollectionFilter } = options;
    for (const [name, fn] of Object.entries({ argsKey, nestKey, createCollectionFilter })) {
      if (fn !== undefined && typeof fn !== 'function') throw new TypeError(`schema.Collection: ${name} must be a function, got ${show(fn)}`);
    }
    if (key !== undefined && typeof key !== 'string') throw new TypeError(`schema.Collection: key must be a string, got ${show(key)}`);
    this.schema = schema;
    this.argsKey = argsKey;
    this.nestKey = nestKey;
    this.key = key ?? collectionKey(schema);
    // A subclass may define nonFilterArgumentKeys(key) as a method instead.
    if (nonFilterArgumentKeys !== undefined) this.nonFilterArgumentKeys = nonFilterTest(nonFilterArgumentKeys);
    // data-client's createCollectionFilter(...args) => (collectionKey) =>
    // boolean decides alone which collections an adder changes; a
    // subclass may define it as a method instead.
    if (createCollectionFilter !== undefined) this.createCollectionFilter = createCollectionFilter;
  }

  /**
   * data-client's Collection pk: the key of the collection that args (or,
   * for one in an entity's field, nestKey(parent, key)) select, as the
   * store names it: JSON of the args object, keys sorted, numbers and
   * booleans as strings.
   */
  pk(_value, parent, key, args = [], parentEntity = undefined) {
    const obj = parentEntity && this.nestKey ? this.nestKey(parent, key) : this.argsKey ? this.argsKey(...args) : { ...args[0] };
    const out = {};
    for (const k of Object.keys(obj ?? {}).sort()) {
      const v = obj[k];
      if (v !== undefined) out[k] = typeof v === 'number' || typeof v === 'boolean' ? `${v}` : v;
    }
    return JSON.stringify(out);
  }
}

// COLLECTION_OPS numbers a Collection's adders as the engine does
// (core/schema CollectionOp).
const COLLECTION_OPS = { push: 1, unshift: 2, remove: 3, assign: 4, move: 5 };

// CollectionOpSchema is one of a Collection's adders, data-client's
// collection.push, .unshift, .remove, .assign and .move: normalizing a
// response by it stores its entities and changes the collections of that
// table whose args match the normalize's args (move: the entity's new
// values); an endpoint with it as its schema does the same.
export class CollectionOpSchema {
  constructor(collection, name, merge = undefined) {
    this.collection = collection;
    this.name = name;
    this.op = COLLECTION_OPS[name];
    // How a move joins a collection (moveWith): (existing, incoming) =>
    // the collection after, of pks (or a Values map of them).
    this.merge = merge;
  }
}

/**
 * data-client's collection.moveWith(merge): a move whose join of a
 * collection is merge(existing, incoming) (both lists of pks, or Values
 * maps of them) instead of an append; `unshift` joins at the start.
 */
CollectionSchema.prototype.moveWith = function moveWith(merge) {
  if (typeof merge !== 'function') throw new TypeError(`schema.Collection: moveWith(merge): merge must be a function, got ${show(merge)}`);
  return new CollectionOpSchema(this, 'move', merge);
};

/** data-client's unshift: a Collection merge that puts incoming first. */
export function unshift(existing, incoming) {
  return [...incoming, ...existing];
}

// The adders as data-client's getters, each made once per collection.
const collectionOps = new WeakMap();
for (const name of Object.keys(COLLECTION_OPS)) {
  Object.defineProperty(CollectionSchema.prototype, name, {
    configurable: true,
    get() {
      let ops = collectionOps.get(this);
      if (ops === undefined) collectionOps.set(this, (ops = {}));
      ops[name] ??= new CollectionOpSchema(this, name);
      return ops[name];
    },
    // A subclass may replace one (this.move = this.moveWith(unshift)).
    set(v) {
      Object.defineProperty(this, name, { value: v, writable: true, enumerable: true, configurable: true });
    },
  });
}

// collectionKey is data-client's name of a Collection's table: [E] for a
// list of entity E, {E} for a Values map of it, a union's entities joined
// by ';' ([User;Group]). undefined (the engine names it) when a member is
// not an entity.
function collectionKey(schema) {
  const of = Array.isArray(schema) ? schema[0] : schema.schema;
  const members = of instanceof UnionSchema ? Object.values(of.schemas) : [of];
  if (!members.every(isEntity)) return undefined;
  let names;
  try {
    names = members.map((e) => e.key).join(';');
  } catch {
    return undefined; // a class without a key: refused where it is used
  }
  return schema instanceof ValuesSchema ? `{${names}}` : `[${names}]`;
}

// nonFilterTest returns the test of data-client's nonFilterArgumentKeys
// option (a function of the key, a RegExp or a list of keys): true for an
// args key that does not decide which collections a push, remove or move
// changes.
function nonFilterTest(v) {
  if (typeof v === 'function') return v;
  if (v instanceof RegExp) return (key) => v.test(key);
  if (Array.isArray(v) && v.every((k) => typeof k === 'string')) return (key) => v.includes(key);
  throw new TypeError(`schema.Collection: nonFilterArgumentKeys must be a function, a RegExp or an array of keys, got ${show(v)}`);
}
CollectionSchema.prototype[QUERYABLE] = true;

// CELL_KEY_SEPARATOR joins the parts of a Scalar cell's key:
// entityKey|entityPk|lens.
const CELL_KEY_SEPARATOR = '|';

/**
 * data-client's Scalar: entity fields whose values depend on a lens the
 * endpoint's args select (a portfolio, a currency, a locale). The values
 * are stored in cells of the table `Scalar(key)`, one per record and lens
 * (entityKey|pk|lens), and a read picks the cell of its args' lens. As
 * an Entity.schema field the entity is inferred; standalone (inside
 * schema.Values, [Scalar], a Collection of them) `entity` binds it. The
 * engine does the storing and reading (core/schema Lens); the methods
 * here are data-client's, for code that calls them.
 */
export class ScalarSchema {
  constructor(options) {
    if (!options || typeof options !== 'object') throw new TypeError(`Scalar: options must be an object of {lens, key, entity?}, got ${show(options)}`);
    const { lens, key, entity } = options;
    if (typeof lens !== 'function') throw new TypeError(`Scalar: lens must be a function of the endpoint's args, got ${show(lens)}`);
    if (typeof key !== 'string' || key === '') throw new TypeError(`Scalar: key must be a non-empty string, got ${show(key)}`);
    if (entity !== undefined && !isEntity(entity)) throw new TypeError(`Scalar ${key}: entity must be an Entity, got ${show(entity)}`);
    this.key = `Scalar(${key})`;
    this.lensSelector = lens;
    this.entity = entity;
    this.entityKey = entity?.key;
  }

  /**
   * The pk of the record a standalone cell belongs to: the map key that
   * holds it (schema.Values), else the bound entity's pk of the cell. A
   * subclass may override it.
   */
  entityPk(input, parent, key, args) {
    if (key !== undefined && parent != null && parent[key] === input) return key;
    return this.entity?.pk?.(input, parent, key, args);
  }

  createIfValid(props) {
    return { ...props };
  }

  merge(existing, incoming) {
    return { ...existing, ...incoming };
  }

  /** Whether incoming is older than the stored cell: it then yields to it. */
  shouldReorder(existingMeta, incomingMeta) {
    return incomingMeta.fetchedAt < existingMeta.fetchedAt;
  }

  mergeWithStore(existingMeta, incomingMeta, existing, incoming) {
    return this.shouldReorder(existingMeta, incomingMeta, existing, incoming) ? this.merge(incoming, existing) : this.merge(existing, incoming);
  }

  mergeMetaWithStore(existingMeta, incomingMeta, existing, incoming) {
    return this.shouldReorder(existingMeta, incomingMeta, existing, incoming) ? existingMeta : incomingMeta;
  }

  /**
   * data-client's denormalize step, for code that walks a schema with a
   * delegate ({unvisit, argsKey}); the engine reads Scalars itself. A
   * field's reference [pk, field, entityKey] reads that field of the cell
   * of the delegate's lens; a cell's key reads the cell; a cell, and any
   * other value (one stored before the field was a Scalar, '' which keys
   * no cell), is kept.
   */
  denormalize(input, delegate) {
    if (typeof input === 'string' && input !== '') return delegate.unvisit(this, input);
    if (!Array.isArray(input)) return input;
    const lens = delegate.argsKey(this.lensSelector);
    if (lens === undefined) return undefined;
    const [pk, field, entityKey] = input;
    const cell = delegate.unvisit(this, [entityKey, pk, lens].join(CELL_KEY_SEPARATOR));
    return cell !== null && typeof cell === 'object' ? cell[field] : undefined;
  }

  /**
   * data-client's queryKey: the keys of the stored cells of the lens args
   * select (delegate.getEntities gives the table), undefined when there
   * is no lens or no such cell.
   */
  queryKey(args, _unvisit, delegate) {
    const lens = this.lensSelector(args);
    if (lens === undefined) return undefined;
    const cells = delegate.getEntities(this.key);
    if (!cells) return undefined;
    const keys = [];
    for (const [key, cell] of cells.entries()) {
      if (!cell || typeof cell === 'symbol') continue;
      if (key.slice(key.lastIndexOf(CELL_KEY_SEPARATOR) + 1) === lens) keys.push(key);
    }
    return keys.length > 0 ? keys : undefined;
  }
}

// data-client's names of its Invalidate and Query classes (its others end
// in Schema as ours do): what `schema.Invalidate.name` gives.
Object.defineProperty(InvalidateSchema, 'name', { value: 'Invalidate' });
Object.defineProperty(QuerySchema, 'name', { value: 'Query' });
Object.defineProperty(ScalarSchema, 'name', { value: 'Scalar' });
Object.defineProperty(LazySchema, 'name', { value: 'Lazy' });

/**
 * The schema namespace, as data-client exports it: the shape classes, and
 * Entity (data-client's schema.Entity is its EntityMixin).
 */
export const schema = Object.freeze({
  Entity: EntityMixin,
  Array: ArraySchema,
  Object: ObjectSchema,
  Values: ValuesSchema,
  Union: UnionSchema,
  Invalidate: InvalidateSchema,
  All: AllSchema,
  Query: QuerySchema,
  Collection: CollectionSchema,
  Scalar: ScalarSchema,
  Lazy: LazySchema,
});

// describe converts a schema shape to the descriptor jsbridge/schema.go
// reads, naming where in the caller's schema anything is wrong. reg gives
// the handles of what the engine holds by handle: reg.entity(e, where) of
// an entity (a class is registered then), reg.collection(s, where,
// depth) of a Collection; checkShape's reg registers nothing. Depth is
// bounded here as core bounds it (256 levels), so a runaway schema is an
// Error that names its place, not a stack overflow.
const MAX_SCHEMA_DEPTH = 256;
// How much of a runaway schema's place the error quotes.
const WHERE_MAX_CHARS = 200;
function describe(s, where, reg, fns, depth = 0) {
  if (depth > MAX_SCHEMA_DEPTH) throw new TypeError(`${where.slice(0, WHERE_MAX_CHARS)}…: schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
  const inner = (x, at) => describe(x, at, reg, fns, depth + 1);
  if (s === Date) return 'date';
  if (isCustomSchema(s)) return reg.custom(s, where, fns);
  if (isEntity(s)) return { e: reg.entity(s, where) };
  // A conversion is a field's (or a member's, or an element's): a whole
  // result converted by a function is not a schema.
  if (isConversion(s) && depth > 0) return { cv: converterNumber(s) };
  if (Array.isArray(s)) {
    if (s.length !== 1) throw new TypeError(`${where}: a list schema is [S] with exactly one schema, got an array of ${s.length}`);
    return { a: inner(s[0], `${where}[0]`) };
  }
  if (s instanceof ArraySchema) return { a: inner(s.schema, `${where} (schema.Array)`) };
  if (s instanceof ValuesSchema) return { v: inner(s.schema, `${where} (schema.Values)`) };
  if (s instanceof InvalidateSchema || s instanceof AllSchema) {
    const all = s instanceof AllSchema;
    const at = `${where} (schema.${all ? 'All' : 'Invalidate'})`;
    // Of an entity, its handle; of a union, the union's descriptor.
    const of = isEntity(s.schema) ? reg.entity(s.schema, at) : inner(s.schema, at);
    return all ? { all: of } : { i: of };
  }
  if (s instanceof CollectionSchema) return { c: reg.collection(s, `${where} (schema.Collection)`, depth) };
  if (s instanceof ScalarSchema) return reg.lens(s, `${where} (${s.key})`, fns);
  if (s instanceof LazySchema) return { lz: inner(s.schema, `${where} (schema.Lazy)`) };
  if (s instanceof LazyQuery) return { lq: inner(s.schema, `${where} (schema.Lazy query)`) };
  if (s instanceof CollectionOpSchema) {
    const at = `${where} (schema.Collection.${s.name})`;
    const d = { c: reg.collection(s.collection, at, depth), op: s.op };
    const merge = s.merge;
    if (merge === undefined) return d;
    fns.push((a, b) => jsonText(synchronous(merge(JSON.parse(a), JSON.parse(b)), `${at}: merge`), `${at}: merge result`));
    return { ...d, m: fns.length - 1 };
  }
  if (s instanceof UnionSchema) {
    const u = {};
    for (const [name, m] of Object.entries(s.schemas)) u[name] = inner(m, `${where} (schema.Union ${name})`);
    // last is what the attribute function last returned (the engine gets
    // it as text): the warning shows it as it was (null, not "null").
    let last;
    fns.push(unknownWarning(s, () => last));
    const w = fns.length - 1;
    const attr = s.schemaAttribute;
    if (typeof attr === 'string') return { u, k: attr, w };
    fns.push(
      locked(`${where} (schema.Union): schemaAttribute`, (rec, parent, key) => {
        const raw = synchronous(attr(JSON.parse(rec), parse(parent), key), `${where} (schema.Union): schemaAttribute`);
        last = { raw, text: String(raw) };
        return last.text;
      }),
    );
    return { u, f: fns.length - 1, fp: attr.length >= 2, w };
  }
  if (s instanceof ObjectSchema) return objectDescriptor(s.schema, where, reg, fns, depth);
  if (isPlainObject(s)) return objectDescriptor(s, where, reg, fns, depth);
  throw new TypeError(`${where}: ${show(s)} is not a schema (an Entity, [S], a plain object, a df.schema class or Date)`);
}

// unknownWarning returns the report of a value union s keeps as it is
// because no member takes it (console.warn, in data-client's words, which
// code and tests may look for): on a normalize, a record whose attribute
// attr names no member; on a read, a value it cannot place. lastAttr
// gives what the union's attribute function last returned ({raw, text}).
function unknownWarning(s, lastAttr) {
  const names = Object.keys(s.schemas);
  const owner = s.owner ?? 'UnionSchema';
  return (json, attr, reading) => {
    const shown = JSON.stringify(JSON.parse(json), undefined, 2);
    console.warn(
      reading
        ? `TypeError: Unable to determine schema for ${owner}\nValue: ${shown}.`
        : `Schema attribute ${JSON.stringify(lastAttr()?.text === attr ? lastAttr().raw : attr)} is not expected.\nExpected one of: ${names.map((k) => `"${k}"`).join(', ')}\n\nValue: ${shown}`,
    );
  };
}

function objectDescriptor(def, where, reg, fns, depth = 0) {
  const o = [];
  for (const [key, m] of Object.entries(def)) {
    if (m === undefined) continue;
    if (isSchema(m)) {
      o.push([key, describe(m, `${where}.${key}`, reg, fns, depth + 1)]);
    } else if (typeof m === 'function' || typeof m === 'symbol' || typeof m === 'bigint') {
      throw new TypeError(`${where}.${key}: ${show(m)} is neither a schema nor a default value`);
    } else {
      o.push([key, MEMBER_DEFAULT, m]);
    }
  }
  return { o };
}

// checking is describe's reg for checkShape: it registers nothing, and
// stops at entities (a class's schema is read when it is registered).
const checking = {
  entity(e, where) {
    if (!isEntity(e)) throw new TypeError(`${where}: ${show(e)} is not an Entity`);
    return 0;
  },
  collection(s, where, depth) {
    describe(s.schema, where, checking, [], depth + 1);
    return 0;
  },
  lens(s, where) {
    if (s.entity !== undefined) checking.entity(s.entity, where);
    return {};
  },
  custom() {
    return {};
  },
};

/**
 * Checks a schema shape as the engine will take it, with no engine: what
 * is wrong is a TypeError naming where, at once rather than when the shape
 * is first used.
 */
export function checkShape(s, where) {
  describe(s, where, checking, []);
}

// NO_META is the meta of a stored record that has none (normalize's
// store).
const NO_META = Object.freeze({ date: 0, fetchedAt: 0, expiresAt: 0 });

// factoryMerger gives a df.Entity's hooks (merge, useIncoming,
// shouldReorder) as an entity class's mergeWithStore and
// mergeMetaWithStore, for normalize's store: the rules the engine
// applies (core/schema Entity.Resolve).
function factoryMerger({ merge, useIncoming, shouldReorder }) {
  const reorder = (em, im, a, b) => (shouldReorder ? shouldReorder(em, im, a, b) : im.fetchedAt < em.fetchedAt);
  return {
    mergeWithStore(em, im, existing, incoming) {
      if (useIncoming && !useIncoming(em, im, existing, incoming)) return existing;
      const [older, newer] = reorder(em, im, existing, incoming) ? [incoming, existing] : [existing, incoming];
      return merge ? merge(older, newer) : { ...older, ...newer };
    },
    mergeMetaWithStore: (em, im, a, b) => (reorder(em, im, a, b) ? em : im),
  };
}

/**
 * dataText is markedText (undefined kept) for data read along schema s (normalize's,
 * setResponse's). An entity that contains itself (user.friends holding
 * user), which data-client's normalize takes, is sent with each inner
 * occurrence as its primary key, which Go reads as a reference to the
 * record; any other cycle is refused as jsonText refuses it.
 */
export function dataText(s, data, where) {
  try {
    return markedText(data, where);
  } catch (err) {
    if (!/circular object/.test(err?.message)) throw err;
    return markedText(unroll(s, data, []), where);
  }
}

// unroll returns v, read by schema s, with every entity that is one of
// open (the entities around it) or contains itself replaced by its pk:
// copies of the objects on the way, v itself left as it is.
function unroll(s, v, open) {
  if (v === null || typeof v !== 'object' || v instanceof Date || s === undefined) return v;
  if (isEntity(s)) {
    if (open.includes(v)) return s.pk(v);
    open.push(v);
    const out = unrollMembers(s.schema, v, open);
    open.pop();
    return out;
  }
  if (Array.isArray(s) || s instanceof ArraySchema) {
    const of = Array.isArray(s) ? s[0] : s.schema;
    return Array.isArray(v) ? v.map((x) => unroll(of, x, open)) : v;
  }
  if (s instanceof ValuesSchema) {
    const out = { ...v };
    for (const k of Object.keys(out)) out[k] = unroll(s.schema, out[k], open);
    return out;
  }
  if (s instanceof UnionSchema) {
    const attr = s.schemaAttribute;
    return unroll(s.schemas[typeof attr === 'function' ? attr(v) : v[attr]], v, open);
  }
  if (s instanceof InvalidateSchema || s instanceof AllSchema || s instanceof CollectionSchema || s instanceof LazySchema) return unroll(s.schema, v, open);
  if (s instanceof ObjectSchema) return unrollMembers(s.schema, v, open);
  return isPlainObject(s) ? unrollMembers(s, v, open) : v;
}

function unrollMembers(fields, v, open) {
  if (Array.isArray(v) || !isPlainObject(fields)) return v;
  const out = { ...v };
  for (const [k, f] of Object.entries(fields)) if (Object.hasOwn(out, k)) out[k] = unroll(f, out[k], open);
  return out;
}

// depthLimitMessage is what a read that cut entity key at its depth
// limit reports (console.error, once per read), in data-client's terms:
// its first sentence is data-client's, which code may look for.
function depthLimitMessage(key, limit, own) {
  return (
    `Entity depth limit of ${limit} reached for "${key}" entity. ` +
    'Entities nested deeper than that are read with their nested entities left as primary keys; ' +
    'a graph this deep is usually a bidirectional relationship (a.items → item.owner → a) read from both sides.' +
    (own ? '' : ' Set static maxEntityDepth on the Entity to choose the limit (at most 128).')
  );
}

// makeSchemas returns the schema half of an API instance over bridge (see
// makeBridge): Entity (the factory form), and the Go schema of any shape,
// entity classes registered the first time a shape names them.
export function makeSchemas(bridge) {
  const { calls, hold, finalizer } = bridge;

  // register makes the Go entity of a declaration (the factory's options
  // or declarationOf's result, with schema its field schemas) and returns
  // its handle. cls is the class whose instances reads are (0: plain
  // objects). With lateSchema, the entity is made without fields and
  // given them after onHandle has the handle: fields may name entities
  // that name this one.
  function register(decl, schema, cls, onHandle) {
    const { key, pk, defaults, hooks, process, validate, maxDepth, where } = decl;
    const dates = [];
    for (const [field, s] of Object.entries(schema)) if (s === Date) dates.push(field);
    // readForm gives hooks a stored record as a reader sees it.
    const readForm = (text) => {
      if (text === '') return undefined;
      const rec = { ...defaults, ...JSON.parse(text) };
      for (const f of dates) if (rec[f] !== null && rec[f] !== undefined) rec[f] = new Date(rec[f]);
      return rec;
    };
    const meta = (date, fetchedAt, expiresAt) => ({ date, fetchedAt, expiresAt });
    // fns holds the adapters Go calls: by index for union schemas in
    // fields, by name for the hooks.
    const fns = [];
    const names = [];
    if (typeof pk === 'function') {
      names.push('pk');
      fns.pk = (rec, parent, k, args) => {
        const id = synchronous(pk(JSON.parse(rec), parse(parent), k, parse(args) ?? []), `${where}: pk`);
        if (id === undefined || id === null) return null;
        // A key is a string or a number: an object would key every record
        // alike ("[object Object]").
        if (typeof id === 'object' || typeof id === 'function' || typeof id === 'symbol') {
          throw new TypeError(`${where}: pk() returned ${show(id)}, not a string or a number`);
        }
        // As JSON text: a lone surrogate would not survive the trip to Go.
        return JSON.stringify(String(id));
      };
    }
    if (process) {
      names.push('process');
      fns.process = (rec, parent, k, args) =>
        jsonText(synchronous(process(JSON.parse(rec), parse(parent), k, parse(args) ?? []), `${where}: process`), `${where}: process result`);
    }
    if (validate) {
      names.push('valid');
      fns.valid = locked(`${where}: validate`, (rec) => !synchronous(validate(JSON.parse(rec)), `${where}: validate`));
    }
    names.push('depthLimited');
    fns.depthLimited = (limit) => console.error(depthLimitMessage(key, limit, maxDepth !== undefined));
    if (hooks.merge) {
      names.push('merge');
      fns.merge = (a, b) => toStoreJSON(synchronous(hooks.merge(readForm(a), readForm(b)), `${where}: merge`));
    }
    for (const [name, label] of [
      ['useIncoming', hooks.useIncomingName ?? 'useIncoming'],
      ['shouldReorder', 'shouldReorder'],
    ]) {
      const fn = hooks[name];
      if (!fn) continue;
      names.push(name);
      fns[name] = (d1, f1, e1, d2, f2, e2, a, b) => !!synchronous(fn(meta(d1, f1, e1), meta(d2, f2, e2), readForm(a), readForm(b)), `${where}: ${label}`);
    }
    if (hooks.mergeWithStore) {
      names.push('mergeWithStore');
      fns.mergeWithStore = (d1, f1, e1, d2, f2, e2, a, b) =>
        toStoreJSON(synchronous(hooks.mergeWithStore(meta(d1, f1, e1), meta(d2, f2, e2), readForm(a), readForm(b)), `${where}: mergeWithStore`));
    }
    if (hooks.mergeMetaWithStore) {
      names.push('mergeMetaWithStore');
      fns.mergeMetaWithStore = (d1, f1, e1, d2, f2, e2, a, b) => {
        const m = synchronous(hooks.mergeMetaWithStore(meta(d1, f1, e1), meta(d2, f2, e2), readForm(a), readForm(b)), `${where}: mergeMetaWithStore`);
        return JSON.stringify({ date: m?.date, fetchedAt: m?.fetchedAt, expiresAt: m?.expiresAt });
      };
    }
    checkJSON(defaults, `${where}: defaults`);
    const spec = {
      key,
      pk: typeof pk === 'string' ? pk : '',
      defaults,
      schema: {},
      hooks: names,
      // Parents and args are serialized only for functions that take them.
      pkParent: typeof pk === 'function' && pk.length >= 2,
      processParent: typeof process === 'function' && process.length >= 2,
      pkArgs: typeof pk === 'function' && pk.length >= 4,
      processArgs: typeof process === 'function' && process.length >= 4,
      maxDepth,
      cls,
    };
    // A default that is undefined (alias = undefined), which JSON leaves
    // out: the order of every default field tells the engine it is there
    // (reads have it, as data-client's instances do).
    if (Object.values(defaults).includes(undefined)) spec.fields = Object.keys(defaults);
    if (onHandle === undefined) {
      spec.schema = fieldDescriptors(schema, where, fns);
      return calls.entityNew(JSON.stringify(spec), fns);
    }
    const h = calls.entityNew(JSON.stringify(spec), fns);
    onHandle(h);
    const fieldFns = [];
    const fields = fieldDescriptors(schema, where, fieldFns);
    if (Object.keys(fields).length > 0) calls.entitySchema(h, JSON.stringify(fields), fieldFns);
    return h;
  }

  function fieldDescriptors(schema, where, fns) {
    const fields = {};
    for (const [field, s] of Object.entries(schema)) {
      if (s === undefined) continue;
      if (!isSchema(s)) throw new TypeError(`${where}: schema.${field}: ${show(s)} is not a schema`);
      fields[field] = describe(s, `${where}: schema.${field}`, registering, fns, 1);
    }
    return fields;
  }

  // mergers holds, by entity key, what merges a record normalize gives
  // into a stored one (see normalize): the entity class, or for a
  // df.Entity its factoryMerger. The last registered of a key wins.
  const mergers = new Map();

  // classHandles holds the handle of each entity class registered with
  // this instance. A class is registered the first time a shape names it;
  // the classes a failed registration made are forgotten with it, so a
  // corrected declaration registers afresh.
  const classHandles = new WeakMap();
  let inRegistration;
  function classHandle(cls) {
    const h = classHandles.get(cls);
    if (h !== undefined) return h;
    const outer = inRegistration === undefined;
    if (outer) inRegistration = [];
    try {
      const decl = declarationOf(cls);
      const schema = cls.schema ?? {};
      if (!isPlainObject(schema)) throw new TypeError(`${decl.where}: static schema must be an object of field schemas, got ${show(schema)}`);
      return register(decl, schema, classNumber(cls), (made) => {
        classHandles.set(cls, made);
        mergers.set(decl.key, cls);
        inRegistration.push(cls);
        finalizer?.register(cls, made);
      });
    } catch (err) {
      if (outer) for (const c of inRegistration) classHandles.delete(c);
      throw err;
    } finally {
      if (outer) inRegistration = undefined;
    }
  }

  function Entity(options) {
    // A class: made an entity class (as EntityMixin does), registered when
    // first used.
    if (typeof options === 'function') return isEntityClass(options) ? options : EntityMixin(options);
    if (!(this instanceof Entity)) return new Entity(options);
    if (!options || typeof options !== 'object') {
      throw new TypeError(`df.Entity: options must be an object with key and defaults, got ${show(options)}`);
    }
    const { key, pk = 'id', defaults, schema = {}, process, merge, shouldReorder } = options;
    const useIncoming = options.useIncoming ?? options.shouldUpdate;
    if (typeof key !== 'string' || key === '') {
      throw new TypeError(`df.Entity: key is required: a string naming the entity type, got ${show(key)}`);
    }
    const where = `df.Entity ${key}`;
    if (!isPlainObject(defaults)) {
      throw new TypeError(`${where}: defaults is required: an object with a default for every field, got ${show(defaults)}`);
    }
    if (typeof pk !== 'string' && typeof pk !== 'function') {
      throw new TypeError(`${where}: pk must be a field name or a function, got ${show(pk)}`);
    }
    if (!isPlainObject(schema)) throw new TypeError(`${where}: schema must be an object of field schemas, got ${show(schema)}`);
    for (const [name, fn] of Object.entries({ process, merge, useIncoming, shouldReorder })) {
      if (fn !== undefined && typeof fn !== 'function') throw new TypeError(`${where}: ${name} must be a function, got ${show(fn)}`);
    }
    const hooks = { merge, useIncoming, shouldReorder, useIncomingName: options.useIncoming !== undefined ? 'useIncoming' : 'shouldUpdate' };
    hold(this, register({ key, pk, defaults, hooks, process, where }, schema, 0));
    mergers.set(key, factoryMerger(hooks));
    entities.add(this);
    this.key = key;
    this.defaults = defaults;
    this.schema = schema;
    Object.defineProperty(this, '_pk', { value: pk });
  }

  /** Returns the primary key of a record, as a string; undefined when it has none. */
  Entity.prototype.pk = function (value, parent, key) {
    const id = typeof this._pk === 'function' ? this._pk(value, parent, key) : value?.[this._pk];
    return id === undefined || id === null ? undefined : String(id);
  };

  function entityHandle(e, where) {
    if (isEntityClass(e)) return classHandle(e);
    if (!(e instanceof Entity)) throw new TypeError(`${where}: ${show(e)} is not an Entity of this instance`);
    return e._h;
  }

  // registering is describe's reg for this instance: it registers what a
  // shape names.
  const registering = {
    entity: entityHandle,
    collection: (s, where, depth) => collectionHandle(s, where, depth),
    lens: (s, where, fns) => lensDescriptor(s, where, fns),
    custom: (s, where, fns) => customDescriptor(s, where, fns),
  };

  // customDescriptor returns the descriptor of a custom schema (see
  // isCustomSchema): its adapter in fns, which calls s's normalize or
  // denormalize with data-client's delegates. nested is Go's
  // (jsbridge/schema.go buildCustom): it takes a schema's handle and JSON
  // text and returns JSON text, or an Error to throw.
  function customDescriptor(s, where, fns) {
    const name = isEntityClass(s) ? s.key : (s.constructor?.name ?? 'Object');
    const at = `${where} (custom schema ${name})`;
    const call = (nested, schema, what, a, b, k, r) => {
      const h = typeof schema === 'number' ? schema : r ? entityOf(schema) : schemaHandle(schema, `${at}: ${what}`);
      const out = nested(jsonText({ h, a, b, k, r }, `${at}: ${what}`));
      if (out instanceof Error) throw out;
      return parse(out);
    };
    const entityOf = (schema) => {
      if (!isEntity(schema)) throw new TypeError(`${at}: ${show(schema)} is not an Entity`);
      return entityHandle(schema, at);
    };
    // An entity class that only normalizes its own way reads its records
    // as the entity does.
    const reads = typeof s.denormalize === 'function';
    const plain = reads ? undefined : entityOf(s);
    fns.push((reading, input, parent, key, args, nested) => {
      const list = parse(args) ?? [];
      const text = (v, what) => jsonText(v, `${at}: ${what}`);
      if (reading) {
        if (!reads) return text(call(nested, plain, 'read', parse(input)), 'read');
        const delegate = {
          args: list,
          unvisit: (schema, value) => (schema === undefined || schema === null ? value : call(nested, schema, 'unvisit', value)),
          argsKey: (fn) => fn(list),
        };
        const read = lockedCall(`${at}: denormalize`, () => s.denormalize(parse(input), delegate));
        return text(synchronous(read, `${at}: denormalize`), 'denormalize result');
      }
      const store = (what, schema, pk, record) => call(nested, schema, what, String(pk), record, undefined, 1);
      const delegate = {
        args: list,
        visit: (schema, value, p, k) => (schema === undefined || schema === null ? value : call(nested, schema, 'visit', value, p, String(k))),
        mergeEntity: (schema, pk, record) => store('mergeEntity', schema, pk, record ?? {}),
        setEntity: (schema, pk, record) => store('setEntity', schema, pk, record ?? {}),
        invalidate: (schema, pk) => store('invalidate', schema, pk, undefined),
        checkLoop: () => false,
      };
      return text(synchronous(s.normalize(parse(input), parse(parent), key, delegate), `${at}: normalize`), 'normalize result');
    });
    return { x: name, f: fns.length - 1 };
  }

  // lensDescriptor returns the descriptor of a Scalar, its lens an
  // adapter in fns called with the args as JSON text. An overridden
  // entityPk binds it to an entity of the bound one's key whose pk is
  // entityPk, made once per Scalar.
  const entityPkEntities = new WeakMap();
  function lensDescriptor(s, where, fns) {
    fns.push(
      locked(`${where}: lens`, (args) => {
        const lens = synchronous(s.lensSelector(JSON.parse(args)), `${where}: lens`);
        return lens === undefined ? undefined : String(lens);
      }),
    );
    let e = null;
    if (s.entity !== undefined && s.entityPk !== ScalarSchema.prototype.entityPk) {
      e = entityPkEntities.get(s);
      if (e === undefined) {
        const pk = (cell, parent, key, args) => s.entityPk(cell, parent, key, args);
        e = register({ key: s.entity.key, pk, defaults: {}, hooks: {}, where: `${where}: entityPk` }, {}, 0);
        entityPkEntities.set(s, e);
      }
    } else if (s.entity !== undefined) {
      e = entityHandle(s.entity, `${where}: entity`);
    }
    mergers.set(s.key, s);
    return { lens: s.key.slice('Scalar('.length, -1), le: e, f: fns.length - 1 };
  }

  // collectionHandle returns the Go Collection of s, made once per
  // instance: its lists are stored under one table, whichever endpoint
  // or entity holds it.
  const collectionHandles = new WeakMap();
  function collectionHandle(s, where, depth) {
    let h = collectionHandles.get(s);
    if (h !== undefined) return h;
    const fns = [];
    const of = describe(s.schema, where, registering, fns, depth + 1);
    const args = (fn, name) => (a, b) =>
      jsonText(synchronous(fn(parse(a) ?? {}, name === 'argsKey' ? (parse(b) ?? {}) : b), `${where}: ${name}`) ?? {}, `${where}: ${name} result`);
    if (s.argsKey) fns.argsKey = args(s.argsKey, 'argsKey');
    if (s.nestKey) fns.nestKey = locked(`${where}: nestKey`, args(s.nestKey, 'nestKey'));
    // nonFilter(keyJSON) is '1' for a key that does not filter (Go reads a
    // string, jsbridge/collection.go); a throw counts as filtering.
    const nonFilter = s.nonFilterArgumentKeys;
    if (typeof nonFilter === 'function') fns.nonFilter = (key) => (nonFilter.call(s, JSON.parse(key)) ? '1' : '');
    // collectionFilter(argsJSON, paramsJSON, bodyJSON) is whether the collection
    // stored for args is one a request with params and body changes.
    const createFilter = s.createCollectionFilter;
    if (typeof createFilter === 'function') {
      fns.collectionFilter = (key, params, body) => {
        const args = body === undefined ? [JSON.parse(params)] : [JSON.parse(params), JSON.parse(body)];
        const test = synchronous(createFilter.apply(s, args), `${where}: createCollectionFilter`);
        if (typeof test !== 'function')
          throw new TypeError(`${where}: createCollectionFilter must return a function of the collection's args, got ${show(test)}`);
        return !!test(JSON.parse(key));
      };
    }
    h = calls.collectionNew(JSON.stringify({ of, key: s.key ?? '', argsKey: !!s.argsKey, nestKey: !!s.nestKey }), fns);
    collectionHandles.set(s, h);
    finalizer?.register(s, h);
    return h;
  }

  const schemaHandles = new WeakMap();
  let dateHandle;

  // schemaHandle returns the Go schema of a shape, made once per object.
  function schemaHandle(s, where) {
    if (s instanceof Entity) return s._h;
    if (isEntityClass(s) && !isCustomSchema(s)) return classHandle(s);
    if (s === Date) return (dateHandle ??= calls.schemaNew('"date"', []));
    const cacheable = (typeof s === 'object' && s !== null) || isEntityClass(s);
    if (cacheable) {
      const h = schemaHandles.get(s);
      if (h !== undefined) return h;
    }
    const fns = [];
    const h = calls.schemaNew(JSON.stringify(describe(s, where, registering, fns)), fns);
    if (cacheable) {
      schemaHandles.set(s, h);
      finalizer?.register(s, h);
    }
    return h;
  }

  /**
   * data-client's normalize(schema, input, args, store, meta): {result,
   * entities, indexes, entitiesMeta}. args are the endpoint's args (for
   * Collections, and entities' pk and process); store ({entities,
   * entitiesMeta}, as getState or an earlier normalize gives) holds the
   * tables the records merge into, each by its entity's mergeWithStore
   * and mergeMetaWithStore (shouldUpdate, merge...): what is returned is
   * new tables, store's extended, and a stored record the merge keeps is
   * the very object. meta ({date, fetchedAt, expiresAt}) is the incoming
   * records'.
   */
  function normalize(schema, data, args = [], store = undefined, meta = undefined) {
    store = plainState(store);
    if (!Array.isArray(args)) throw new TypeError(`normalize: args must be an array (the endpoint's args), got ${show(args)}`);
    if (store != null && !(isPlainObject(store) && (store.entities == null || isPlainObject(store.entities)))) {
      throw new TypeError(`normalize: store must be an object of {entities, entitiesMeta} (as getState() returns), got ${show(store)}`);
    }
    // As data-client's: no schema keeps the data as it is; a primitive
    // schema ('') takes a value of its type as it is; a schema refuses null
    // and undefined data (the engine refuses other values that do not fit,
    // naming the entity and the place).
    const primitive = schema == null || (typeof schema !== 'object' && typeof schema !== 'function');
    const wanted = primitive ? typeof schema : 'object';
    if (schema != null && (data == null || (primitive && typeof data !== wanted))) {
      throw new TypeError(`normalize: data: expected ${wanted === 'object' ? 'an object' : `a ${wanted}`} for the schema, got ${show(data)}`);
    }
    if (primitive) {
      return { result: data, entities: { ...store?.entities }, indexes: { ...store?.indexes }, entitiesMeta: { ...store?.entitiesMeta } };
    }
    const out = calls.normalize(
      schemaHandle(schema, 'normalize: schema'),
      dataText(schema, data, 'normalize: data'),
      jsonText(args, 'normalize: args'),
      // The tables a Collection's adder changes collections in.
      schema instanceof CollectionOpSchema && store?.entities != null ? jsonText(deletedAsNull(store.entities), 'normalize: store') : '',
    );
    // Keys in data-client's order, as JSON of the output shows them.
    const incoming = { fetchedAt: 0, date: Date.now(), expiresAt: Infinity, ...meta };
    const entities = { ...store?.entities };
    const entitiesMeta = { ...store?.entitiesMeta };
    const indexes = { ...store?.indexes };
    for (const [key, records] of Object.entries(out.entities)) {
      const table = { ...entities[key] };
      const metas = { ...entitiesMeta[key] };
      const merger = mergers.get(key);
      for (const [pk, rec] of Object.entries(records)) {
        const existing = table[pk];
        // A deleted record is data-client's INVALID in the tables (Go
        // gives null; a caller's store may hold any symbol); one replaces a deleted or missing record outright.
        if (existing == null || typeof existing === 'symbol' || rec === null || merger === undefined) {
          table[pk] = rec === null ? INVALID : rec;
          metas[pk] = incoming;
          continue;
        }
        const stored = metas[pk] ?? NO_META;
        table[pk] = merger.mergeWithStore(stored, incoming, existing, rec);
        metas[pk] = merger.mergeMetaWithStore(stored, incoming, existing, rec);
      }
      const fields = isEntityClass(merger) ? declarationOf(merger).indexes : undefined;
      if (fields?.length) indexes[key] = indexTables(fields, indexes[key], entities[key], table, Object.keys(records));
      entities[key] = table;
      entitiesMeta[key] = metas;
    }
    return { result: withoutAll(schema, out.result), entities, indexes, entitiesMeta };
  }

  function denormalize(schema, result, entities, args = []) {
    // No schema (or a primitive one): the data as it is, as data-client's.
    if (schema == null || (typeof schema !== 'object' && typeof schema !== 'function')) return result;
    if (!Array.isArray(args)) throw new TypeError(`denormalize: args must be an array (the endpoint's args), got ${show(args)}`);
    const { data, expiryStatus } = calls.denormalize(
      schemaHandle(schema, 'denormalize: schema'),
      markedText(plainInput(result), 'denormalize: result'),
      markedText(deletedAsNull(entities), 'denormalize: entities'),
      jsonText(args, 'denormalize: args'),
    );
    return expiryStatus === 'invalid' ? INVALID : data;
  }

  return { Entity, schemaHandle, normalize, denormalize };
}
