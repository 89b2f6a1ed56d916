// data-client's ctrl.snapshot(state, fetchedAt): the reads of one store
// state, bound to it (a Snapshot, as getOptimisticResponse gets one), so
// that code written against data-client's Snapshot reads a given state.

import { AbortOptimistic } from './errors.mjs';
import { show } from './values.mjs';

/**
 * Returns the reads of ctrl over state: getResponse, getResponseMeta, get
 * and getQueryMeta as the controller's with state given last, fetchedAt
 * (default 0) and abort (throw it from getOptimisticResponse to make no
 * optimistic update). isState tells a store state.
 */
export function snapshotOf(ctrl, state, fetchedAt, isState) {
  if (!isState(state)) throw new TypeError(`snapshot: expected a store state (as getState() returns), got ${show(state)}`);
  if (fetchedAt !== undefined && (typeof fetchedAt !== 'number' || !Number.isFinite(fetchedAt))) {
    throw new TypeError(`snapshot: fetchedAt must be a time in milliseconds, got ${show(fetchedAt)}`);
  }
  const getResponse = (endpoint, ...args) => ctrl.getResponse(endpoint, args[0], state);
  const get = (schema, ...args) => ctrl.get(schema, ...args, state);
  return Object.freeze({
    fetchedAt: fetchedAt ?? 0,
    abort: new AbortOptimistic(),
    getResponse,
    getResponseMeta: getResponse,
    get,
    getQueryMeta: (schema, ...args) => ({ data: get(schema, ...args) }),
  });
}
