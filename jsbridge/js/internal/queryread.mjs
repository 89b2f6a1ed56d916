// An endpoint whose schema is a schema.Query (data-client's
// `new RestEndpoint({path, schema: new Query(Collection([User]), sort)})`):
// its responses are normalized by the Query's own schema (the engine never
// sees the Query), and every read of its result is the Query's process run
// over the read with the endpoint's args, as data-client's denormalize of a
// Query does. Process runs here, once per read object and params: while
// the engine hands back the same read, the same derived value.

import { exactKey } from './argskey.mjs';
import { QuerySchema } from './schemas.mjs';
import { jsonText } from './values.mjs';

// processed maps a read object (the engine keeps its identity while nothing
// it read changed) to the values process made of it, by args key.
const processed = new WeakMap();
// How many params one read keeps derived values for; past it, they are
// derived afresh.
const MAX_ARGS = 256;

/** The schema the engine takes for an endpoint's schema s: a Query's own. */
export function engineSchema(s) {
  return s instanceof QuerySchema ? s.schema : s;
}

/**
 * Returns data, a read of endpoint's result for params, as the endpoint's
 * schema.Query derives it; data itself for any other schema, and for a
 * read of nothing (undefined, null), which data-client's Query does not
 * process either.
 */
export function queryRead(endpoint, params, data) {
  const q = endpoint?.schema;
  if (!(q instanceof QuerySchema) || data === undefined || data === null) return data;
  const args = params === undefined ? [] : [params];
  if (typeof data !== 'object') return q.process(data, ...args);
  let byArgs = processed.get(data);
  if (byArgs === undefined) processed.set(data, (byArgs = new Map()));
  else if (byArgs.size >= MAX_ARGS) byArgs.clear();
  const key = exactKey(args, jsonText(args, `${endpoint.name}: params`));
  if (!byArgs.has(key)) byArgs.set(key, q.process(data, ...args));
  return byArgs.get(key);
}

/** queryRead of a getResponse answer ({data, expiryStatus, expiresAt}). */
export function queryAnswer(endpoint, params, answer) {
  if (!(endpoint?.schema instanceof QuerySchema) || answer?.data === undefined || answer.data === null) return answer;
  return { ...answer, data: queryRead(endpoint, params, answer.data) };
}

/** The promise of a read (useSuspense, fetch) with queryRead applied. */
export function queryPromise(endpoint, params, promise) {
  if (!(endpoint?.schema instanceof QuerySchema)) return promise;
  return promise.then((data) => queryRead(endpoint, params, data));
}
