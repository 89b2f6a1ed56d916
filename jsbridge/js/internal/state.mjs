// Input state: the entity tables and store states callers hand in
// (denormalize's entities, normalize's store, MemoCache's and ctrl.get's
// state), in the forms data-client takes them, turned into the plain tables
// the engine reads as JSON:
//
//   - a record that is a Symbol (data-client's INVALID, or any symbol, as
//     data-client's denormalize takes one) is a deleted record: null, the
//     engine's form of one;
//   - an ImmutableJS collection (a Map of Maps for entities, a nested Map
//     for indexes, a Record or Map as a record) is read as plain objects,
//     level by level, without importing immutable: anything with toJS and
//     getIn functions is taken for one.
//
// The conversion of an immutable collection is kept per collection (a
// WeakMap): immutable values never change, so the same collection always
// reads as the same plain object, and a MemoCache keeps identity across
// reads of immutable state as it does for plain state.

import { isPlainObject } from './values.mjs';

/** Reports whether v is an ImmutableJS collection or Record (duck-typed). */
export function isImmutable(v) {
  return v !== null && typeof v === 'object' && typeof v.toJS === 'function' && typeof v.getIn === 'function';
}

/**
 * Reports whether rec, a record of an entity table, stands for a deleted
 * record: a Symbol (data-client's INVALID, or a symbol of its own).
 */
export function isDeletedRecord(rec) {
  return typeof rec === 'symbol';
}

// plainCopies keeps the plain form of each immutable collection converted.
const plainCopies = new WeakMap();

// shallowPlain returns an immutable keyed collection as a plain object of
// its entries, each converted by member; other values as they are.
function shallowPlain(v, member) {
  if (!isImmutable(v)) return v;
  let out = plainCopies.get(v);
  if (out !== undefined) return out;
  if (typeof v.entries === 'function' && typeof v.toObject === 'function') {
    out = {};
    for (const [k, m] of v.entries()) out[k] = member(m);
  } else {
    // A Record without entries(), or a list: its deep plain form.
    out = v.toJS();
  }
  plainCopies.set(v, out);
  return out;
}

// deepPlain converts v, an immutable value, with toJS (kept per value).
function deepPlain(v) {
  if (!isImmutable(v)) return v;
  let out = plainCopies.get(v);
  if (out === undefined) {
    out = v.toJS();
    plainCopies.set(v, out);
  }
  return out;
}

/**
 * Returns entity tables as plain objects: an immutable Map of tables, an
 * immutable table and an immutable record read as plain objects (records
 * with toJS). Plain tables are returned as they are.
 */
export function plainEntities(entities) {
  return shallowPlain(entities, (table) => shallowPlain(table, deepPlain));
}

/**
 * Returns a store state ({entities, indexes, ...}) whose entities and
 * indexes are plain objects: the state itself when they are already, a
 * shallow copy otherwise (kept per state object). undefined when state is
 * not an object.
 */
export function plainState(state) {
  if (state === null || typeof state !== 'object') return state;
  if (isImmutable(state)) return plainState(deepPlain(state));
  if (!isImmutable(state.entities) && !isImmutable(state.indexes)) return state;
  let out = plainCopies.get(state);
  if (out === undefined) {
    out = { ...state, entities: plainEntities(state.entities), indexes: deepPlain(state.indexes) };
    plainCopies.set(state, out);
  }
  return out;
}

/** Returns v read as plain data when it is an immutable value (toJS). */
export function plainInput(v) {
  return deepPlain(v);
}

/**
 * Returns entity tables with every deleted record (see isDeletedRecord)
 * as null, the engine's form of a deleted record, immutable tables read as
 * plain objects; the tables given are not changed.
 */
export function deletedAsNull(entities) {
  const plain = plainEntities(entities);
  if (!isPlainObject(plain)) return plain;
  let out = plain;
  for (const [key, table] of Object.entries(plain)) {
    if (!isPlainObject(table) || !Object.values(table).some(isDeletedRecord)) continue;
    if (out === plain) out = { ...plain };
    out[key] = Object.fromEntries(Object.entries(table).map(([pk, rec]) => [pk, isDeletedRecord(rec) ? null : rec]));
  }
  return out;
}
