// MemoCache (docs/js-api.md, "MemoCache"): data-client's memoized
// denormalize, over the engine's denormalize. The engine reads a state's
// tables as JSON and builds new objects each time; what a MemoCache adds is
// JavaScript's concern, the identity of those objects across reads:
//
//   - The same schema, input and entities object: the very result of the
//     last read (no call into the engine). State is immutable in the
//     data-client sense: a change makes a new entities object.
//   - Otherwise the engine reads it again, and the new output is matched
//     against what this cache handed out before (reconcile): an entity
//     (an instance of an entity class) is the object handed out before for
//     its class and pk when its record in the tables is the same object and
//     everything inside it is (after matching) the same; an array or plain
//     object is the one at the same place of the last read of the same
//     schema and input when its members are. So after one record changes,
//     only it and what holds it are new objects.
//
// Entity graphs with cycles are handed out as the engine builds them (no
// matching), as are reads of schemas the cache cannot place.

import { isEntityClass } from './entity.mjs';
import { AllSchema, ArraySchema, CollectionSchema, INVALID, LazyQuery, ObjectSchema, QuerySchema, UnionSchema, ValuesSchema } from './schemas.mjs';
import { indexField } from './indexes.mjs';
import { plainEntities, plainInput, plainState } from './state.mjs';
import { isPlainObject, show } from './values.mjs';

let readers;

/**
 * Sets what MemoCaches read with, unless set already: {denormalize,
 * Controller} of the first API instance (load()'s, or attach()'s).
 */
export function offerReaders(r) {
  readers ??= r;
}

function need(what) {
  if (readers === undefined) throw new Error(`datafetch: MemoCache.${what} needs datafetch.wasm: await load() first`);
  return readers;
}

// NO_PATHS is the paths of a read that met no entity.
const NO_PATHS = Object.freeze([]);

// How many keys buildQueryKey keeps per schema and args (one per state of
// what they looked up): past it, the oldest is forgotten.
const MAX_QUERY_KEYS = 16;

// How many primitive inputs (pks) denormalize, and how many argsKeys
// buildQueryKey and query, keep their last read for: past it, that memo
// starts afresh (identity is lost once). Object inputs are held weakly.
const MAX_KEPT = 1024;

// keyed returns map's entry for key, made by make the first time; a map
// grown to MAX_KEPT is emptied first.
function keyed(map, key, make) {
  let v = map.get(key);
  if (v === undefined) {
    if (map.size >= MAX_KEPT) map.clear();
    v = make();
    map.set(key, v);
  }
  return v;
}

// checkState refuses a state that is not {entities, ...}.
function checkState(state, where) {
  if (state === null || typeof state !== 'object' || state.entities === null || typeof state.entities !== 'object') {
    throw new TypeError(`MemoCache.${where}: state must be an object of {entities, indexes} (plain or ImmutableJS), got ${show(state)}`);
  }
}

/** data-client's MemoCache: denormalize and query with identity across calls. */
export class MemoCache {
  // #entities: per entity class (or Collection key's owner, see
  // #collectionOwner), per pk, the last {record, out} handed out.
  #collections = new Map();
  #entities = new WeakMap();
  // #results: per input (a WeakMap for objects, a Map for primitives),
  // the last read: {schema, tables, argsText, result}.
  #results = { objects: new WeakMap(), values: new Map() };
  // #queryKeys: per argsKey, per schema, the last buildQueryKeys (up to
  // MAX_QUERY_KEYS): {lookups, value}, each the same value again while
  // what it looked up is.
  #queryKeys = new Map();
  // #controller reads the schemas buildQueryKey cannot place (query), a
  // state as #stateReads gives it (a store state ctrl.get takes); #queried
  // holds its last result per argsKey and schema.
  #controller;
  #stateReads = new WeakMap();
  #queried = new Map();

  /**
   * data-client takes a policy (plain or ImmutableJS state): both forms
   * are read here, so it is accepted and not needed.
   */
  constructor(policy) {
    void policy;
  }

  /**
   * Denormalizes input by schema from entities ({key: {pk: record}}, plain
   * or ImmutableJS), as df.denormalize does, and returns {data, paths}:
   * data keeps its identity across calls as the module comment says;
   * paths lists the entities the data holds ({key, pk}). args are the
   * endpoint's args, which select the lens of a Scalar.
   */
  denormalize(schema, input, entities, args = []) {
    if (schema === undefined || schema === null) return { data: input, paths: NO_PATHS };
    if (input === undefined) return { data: undefined, paths: NO_PATHS };
    const { denormalize } = need('denormalize');
    const tables = plainEntities(entities);
    const given = plainInput(input);
    const slot = this.#slotOf(given);
    const last = slot.last;
    // As JSON: args are usually a new array of the same params each call.
    const argsText = JSON.stringify(args);
    if (last !== undefined && last.schema === schema && last.tables === tables && last.argsText === argsText) return last.result;
    const fresh = denormalize(schema, given, tables, args);
    const result = this.#match(fresh, last?.result.data, tables, schema instanceof CollectionSchema && typeof given === 'string' ? [schema, given] : undefined);
    const out = last !== undefined && last.result.data === result.data ? last.result : result;
    slot.last = { schema, tables, argsText, result: out };
    return out;
  }

  /**
   * data-client's query: the data of schema read with args from state
   * ({entities, indexes}, plain or ImmutableJS), as ctrl.get reads it,
   * with denormalize's identity; {data: undefined} when state does not
   * hold it.
   */
  query(schema, args, state, argsKey) {
    if (!Array.isArray(args)) throw new TypeError(`MemoCache.query: args must be an array, got ${show(args)}`);
    const plain = plainState(state);
    checkState(plain, 'query');
    if (!placeable(schema)) {
      // All, Collection, Query, Union...: the controller's read of state
      // (one controller per state object: its read is the same object
      // while state is), matched against the last read of schema and args.
      const { Controller } = need('query');
      this.#controller ??= new Controller();
      let read = this.#stateReads.get(plain);
      if (read === undefined) {
        read = { indexes: {}, ...plain };
        this.#stateReads.set(plain, read);
      }
      // An All of types never stored is data-client's INVALID here (where
      // ctrl.get reads undefined).
      if (unlisted(schema, plain?.entities)) return { data: INVALID, paths: NO_PATHS };
      const fresh = this.#controller.get(schema, ...args, read);
      const bySchema = keyed(this.#queried, argsKey ?? JSON.stringify(args), () => new WeakMap());
      const last = bySchema.get(schema);
      const result = this.#match(fresh, last?.data, plainEntities(plain?.entities));
      const out = last !== undefined && last.data === result.data ? last : result;
      bySchema.set(schema, out);
      return out;
    }
    const input = this.buildQueryKey(schema, args, plain, argsKey);
    if (input === undefined) return { data: undefined, paths: NO_PATHS };
    return this.denormalize(schema, input, plain.entities, args);
  }

  /**
   * data-client's buildQueryKey: the normalized form of what schema read
   * with args finds in state ({entities, indexes}): an Entity's pk (from a
   * pk or an object of params, or through an index) when state holds that
   * entity, else undefined; a Collection's pk for args when state holds
   * that collection; an object of such schemas, member by member;
   * undefined for lists and Values; a primitive schema as it is. The same
   * object again while the entities and indexes it looked up are.
   */
  buildQueryKey(schema, args, state, argsKey = JSON.stringify(args)) {
    if (!Array.isArray(args)) throw new TypeError(`MemoCache.buildQueryKey: args must be an array, got ${show(args)}`);
    if (!schema || (typeof schema !== 'object' && typeof schema !== 'function')) return schema;
    const plain = plainState(state);
    checkState(plain, 'buildQueryKey');
    const look = lookups(plain);
    const bySchema = keyed(this.#queryKeys, argsKey, () => new WeakMap());
    let kept = bySchema.get(schema);
    if (kept === undefined) {
      kept = [];
      bySchema.set(schema, kept);
    }
    const hit = kept.find((k) => k.lookups.every(([fn, a, b, c, got]) => look[fn](a, b, c) === got));
    if (hit !== undefined) return hit.value;
    const seen = [];
    const delegate = {
      getEntity(key, pk) {
        const got = look.entity(key, pk);
        seen.push(['entity', key, pk, undefined, got]);
        return got;
      },
      getIndex(key, field, value) {
        const got = look.index(key, field, value);
        seen.push(['index', key, field, value, got]);
        return got;
      },
    };
    const value = queryKeyOf(schema, args, delegate);
    if (kept.length >= MAX_QUERY_KEYS) kept.shift();
    kept.push({ lookups: seen, value });
    return value;
  }

  // #collectionOwner returns what the cache of collections of key is
  // kept under: one object per key, so that every Collection of that key
  // (one at the top, one an entity's field) shares its reads.
  #collectionOwner(key) {
    let owner = this.#collections.get(key);
    if (owner === undefined) {
      owner = { collection: key };
      this.#collections.set(key, owner);
    }
    return owner;
  }

  // #slotOf returns the memo slot of input: {last}. By input alone, as
  // data-client's: a schema written inline ({data: Article}) is a new
  // object each call, and the same input read by another schema is
  // matched as any other new output is.
  #slotOf(input) {
    if (input !== null && typeof input === 'object') {
      let slot = this.#results.objects.get(input);
      if (slot === undefined) {
        slot = { last: undefined };
        this.#results.objects.set(input, slot);
      }
      return slot;
    }
    return keyed(this.#results.values, input, () => ({ last: undefined }));
  }

  // #match returns {data, paths}: fresh (a new output of the engine)
  // with the objects this cache handed out before wherever they still
  // stand for the same data (see the module comment); before is the data
  // of the last read of the same schema and input.
  // top, when given, is the [Collection, pk] that fresh is the read of.
  #match(fresh, before, tables, top = undefined) {
    if (fresh === INVALID || fresh === null || typeof fresh !== 'object') return { data: fresh, paths: NO_PATHS };
    const paths = [];
    const done = new Map();
    const building = new Set();
    // Entities matched in this read, and what the cache learns (kept only
    // when the read has no cycle).
    const met = new Map();
    const learned = [];
    let cycle = false;

    const visit = (v, prev) => {
      if (v === null || typeof v !== 'object') return v;
      const known = done.get(v);
      if (known !== undefined) return known;
      if (building.has(v)) {
        cycle = true;
        return v;
      }
      if (v instanceof Date) return prev instanceof Date && +prev === +v ? prev : v;
      const cls = v.constructor;
      const coll = places.get(v);
      let out;
      if (coll !== undefined) {
        out = visitStored(v, this.#collectionOwner(coll[0].key), coll[0].key, coll[1]);
      } else if (isEntityClass(cls)) {
        out = visitEntity(v, cls);
      } else if (Array.isArray(v) || isPlainObject(v)) {
        building.add(v);
        const same = prev !== null && typeof prev === 'object' && Object.getPrototypeOf(prev) === Object.getPrototypeOf(v) ? prev : undefined;
        out = members(v, same, same);
        building.delete(v);
      } else {
        out = v;
      }
      done.set(v, out);
      return out;
    };

    // members returns v with its members matched against prev's; reuse
    // when every member is reuse's (and they have the same keys).
    const members = (v, prev, reuse) => {
      const keys = Object.keys(v);
      const got = new Array(keys.length);
      let changed = false;
      for (let i = 0; i < keys.length; i++) {
        got[i] = visit(v[keys[i]], prev?.[keys[i]]);
        if (got[i] !== v[keys[i]]) changed = true;
      }
      if (reuse !== undefined && Object.keys(reuse).length === keys.length && keys.every((k, i) => Object.hasOwn(reuse, k) && reuse[k] === got[i]))
        return reuse;
      if (!changed) return v;
      const copy = Array.isArray(v) ? new Array(v.length) : Object.create(Object.getPrototypeOf(v));
      for (let i = 0; i < keys.length; i++) copy[keys[i]] = got[i];
      return copy;
    };

    // places holds the Collections met in the output (an array is not
    // known for one otherwise): fresh array -> [Collection, pk], found
    // from the fields of entities whose schema names a Collection.
    const places = new Map();
    if (top !== undefined && Array.isArray(fresh)) places.set(fresh, top);

    const visitEntity = (v, cls) => {
      const key = cls.key;
      let pk;
      try {
        pk = cls.pk(v, undefined, undefined, []);
      } catch {
        pk = undefined;
      }
      if (pk === undefined || pk === null || pk === '') {
        building.add(v);
        const out = members(v, undefined, undefined);
        building.delete(v);
        return out;
      }
      pk = `${pk}`;
      const record = tables?.[key]?.[pk];
      if (record !== null && typeof record === 'object' && cls.schema !== null && typeof cls.schema === 'object') {
        for (const [field, s] of Object.entries(cls.schema)) {
          if (s instanceof CollectionSchema && typeof record[field] === 'string' && Array.isArray(v[field])) places.set(v[field], [s, record[field]]);
        }
      }
      return visitStored(v, cls, key, pk);
    };

    // visitStored matches v, the read of the record stored at
    // tables[key][pk], whose cache is of owner (its entity class or
    // Collection).
    const visitStored = (v, owner, key, pk) => {
      paths.push({ key, pk });
      const record = tables?.[key]?.[pk];
      let byPK = met.get(owner);
      if (byPK === undefined) {
        byPK = new Map();
        met.set(owner, byPK);
      }
      const now = byPK.get(pk);
      if (now !== undefined) return now;
      const cached = this.#entities.get(owner)?.get(pk);
      const reuse = cached !== undefined && record !== undefined && cached.record === record ? cached.out : undefined;
      building.add(v);
      const out = members(v, cached?.out, reuse);
      building.delete(v);
      byPK.set(pk, out);
      if (record !== undefined) learned.push([owner, pk, { record, out }]);
      return out;
    };

    const data = visit(fresh, before);
    if (cycle) return { data: fresh, paths };
    for (const [cls, pk, entry] of learned) {
      let byPK = this.#entities.get(cls);
      if (byPK === undefined) {
        byPK = new Map();
        this.#entities.set(cls, byPK);
      }
      byPK.set(pk, entry);
    }
    return { data, paths };
  }
}

// lookups reads a plain state's entities and indexes, as buildQueryKey's
// delegate and its memo's check.
function lookups(state) {
  const entities = state?.entities;
  const indexes = state?.indexes;
  return {
    entity: (key, pk) => entities?.[key]?.[pk],
    index: (key, field, value) => indexes?.[key]?.[field]?.[value],
  };
}

// placeable reports whether buildQueryKey places schema (and so query
// reads it through denormalize): entity classes, Collections, objects of
// schemas, lists and Values (which it does not place: undefined),
// primitives.
function placeable(schema) {
  if (schema === null || (typeof schema !== 'object' && typeof schema !== 'function')) return true;
  if (isEntityClass(schema) || Array.isArray(schema) || schema instanceof ArraySchema || schema instanceof ValuesSchema) return true;
  // A Lazy's query: its queryKey gives the input (the pks, or its Entity's
  // or Collection's key for args).
  if (schema instanceof CollectionSchema || schema instanceof LazyQuery) return true;
  if (schema instanceof ObjectSchema) return Object.values(schema.schema).every(placeable);
  if (isPlainObject(schema)) return Object.values(schema).every(placeable);
  return false;
}

// queryKeyOf is buildQueryKey's walk (data-client's queryKey): see
// MemoCache.buildQueryKey.
function queryKeyOf(schema, args, delegate) {
  if (!schema || (typeof schema !== 'object' && typeof schema !== 'function')) return schema;
  const walk = (s, a) => queryKeyOf(s, a, delegate);
  if (isEntityClass(schema)) {
    if (args.length === 1 && args[0] === null) return undefined;
    // A class's own queryKey (data-client's static queryKey) decides.
    if (typeof schema.queryKey === 'function') return schema.queryKey(args, walk, delegate);
    return entityKey(schema, args, delegate);
  }
  if (Array.isArray(schema) || schema instanceof ArraySchema || schema instanceof ValuesSchema) return undefined;
  if (schema instanceof CollectionSchema) {
    // The collection args select, when state holds it.
    const pk = schema.pk(undefined, undefined, '', args);
    return delegate.getEntity(schema.key, pk) !== undefined ? pk : undefined;
  }
  if (schema instanceof UnionSchema) return unionKey(schema, args, walk);
  const members = schema instanceof ObjectSchema ? schema.schema : isPlainObject(schema) ? schema : undefined;
  if (members !== undefined) {
    const out = {};
    for (const [k, s] of Object.entries(members)) out[k] = walk(s, args);
    return out;
  }
  if (typeof schema.queryKey === 'function') return schema.queryKey(args, walk, delegate);
  return undefined;
}

// entityKey is an entity class's key for args: a pk given as it is (a
// string or number), else the pk of args[0] as a record, else an index
// field of it; only when the state holds that entity.
function entityKey(cls, args, delegate) {
  const first = args[0];
  if (!first) return undefined;
  let pk;
  if (typeof first === 'string' || typeof first === 'number') {
    pk = `${first}`;
  } else if (typeof first === 'object') {
    try {
      pk = cls.pk(first, undefined, '', args);
    } catch {
      pk = undefined;
    }
    if (pk === undefined || pk === '') {
      const field = indexField(cls, first);
      pk = field === undefined ? undefined : delegate.getIndex(cls.key, field, first[field]);
    }
  }
  if (pk === undefined || pk === null || pk === '') return undefined;
  return delegate.getEntity(cls.key, `${pk}`) !== undefined ? pk : undefined;
}

// unionKey is a Union's key for args, as data-client's: {id, schema} of
// the member args[0]'s attribute names when state holds that entity; when
// the attribute names no member, the first member (in the union's order)
// whose entity state holds for args.
function unionKey(union, args, walk) {
  const first = args[0];
  if (!first) return undefined;
  const attr = union.schemaAttribute;
  const name = typeof attr === 'function' ? attr(first, undefined, '') : first[attr];
  const named = Object.hasOwn(union.schemas, name) ? union.schemas[name] : undefined;
  if (named !== undefined) {
    const id = walk(named, args);
    return id === undefined ? undefined : { id, schema: name };
  }
  for (const [member, s] of Object.entries(union.schemas)) {
    const id = walk(s, args);
    if (id !== undefined) return { id, schema: member };
  }
  return undefined;
}

// unlisted reports whether the read of schema (an All, an object with
// one, or a Query of either) from entities is data-client's INVALID: an
// All none of whose entity types has a table in entities.
function unlisted(schema, entities) {
  if (schema instanceof QuerySchema) return unlisted(schema.schema, entities);
  if (schema instanceof AllSchema) {
    const of = schema.schema instanceof UnionSchema ? Object.values(schema.schema.schemas) : [schema.schema];
    return of.every((e) => entities?.[e.key] == null);
  }
  const members = schema instanceof ObjectSchema ? schema.schema : isPlainObject(schema) ? schema : undefined;
  return members !== undefined && Object.values(members).some((s) => unlisted(s, entities));
}
