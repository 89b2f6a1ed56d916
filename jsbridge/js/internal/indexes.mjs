// data-client's static indexes: fields that tell an entity's records apart
// as its pk does (`static indexes = ['username']`), so that
// ctrl.get(User, {username: 'bob'}) reads the stored record whose username
// is 'bob'. No index is kept: the lookup goes through the entity's All
// read, which the controller memoizes until a record of that type changes,
// and finds the very object a read by pk gives.

import { declarationOf, isEntityClass } from './entity.mjs';
import { AllSchema } from './schemas.mjs';
import { isPlainObject } from './values.mjs';

// alls holds each indexed class's All, one object per class, so that the
// controller's memo of its read is kept.
const alls = new WeakMap();

/**
 * Returns how a read of schema with args looks a record up by an index:
 * {all, field, value}, or undefined when it does not (not an entity class
 * with indexes, params that name its pk, or no index).
 */
export function indexLookup(schema, args) {
  if (!isEntityClass(schema) || args.length !== 1 || !isPlainObject(args[0])) return undefined;
  const params = args[0];
  const field = indexField(schema, params);
  if (field === undefined) return undefined;
  const pk = schema.pk(params, undefined, '', args);
  if (pk !== undefined && pk !== null && pk !== '') return undefined;
  let all = alls.get(schema);
  if (all === undefined) alls.set(schema, (all = new AllSchema(schema)));
  return { all, field, value: String(params[field]) };
}

/**
 * Returns the first of entity class cls's static indexes that params
 * (a plain object) holds, or undefined.
 */
export function indexField(cls, params) {
  return declarationOf(cls).indexes?.find((f) => Object.hasOwn(params, f));
}

/** The record of list (an All read) that lookup names, or undefined. */
export function indexed(list, { field, value }) {
  return list?.find((r) => r[field] !== undefined && r[field] !== null && String(r[field]) === value);
}
