// Checks and conversions of the caller's values: what crosses to Go as JSON
// (and the error that names what cannot), bodies, durations, the clock
// option, and the words error messages use for a value.

import { ours } from './errors.mjs';
import { BODY_JSON, BODY_RAW } from './protocol.mjs';

export function show(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'function') return `function ${v.name || '(anonymous)'}`;
  if (v === null || typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  const name = Object.getPrototypeOf(v)?.constructor?.name;
  return name && name !== 'Object' ? `a ${name}` : 'an object';
}

export function isPlainObject(v) {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

// isJSONBody reports whether a body is sent as JSON (a string as it is):
// FormData, Blob, ArrayBuffer, URLSearchParams, streams... pass through.
export function isJSONBody(b) {
  if (b === null || typeof b !== 'object') return typeof b !== 'function' && typeof b !== 'symbol' && typeof b !== 'bigint';
  return Array.isArray(b) || isPlainObject(b);
}

// sendsAsJSON refuses a request body no request can carry (a function, a
// Symbol, a BigInt) and reports whether body is sent as JSON (plain objects,
// arrays, primitives) rather than passed through as it is (FormData,
// strings, binary). One check for every place a body comes from: fetch's
// argument, the body option and what getRequestInit returns.
export function sendsAsJSON(body, where) {
  if (typeof body === 'function' || typeof body === 'symbol' || typeof body === 'bigint') {
    throw new TypeError(`${where}: ${showValue(body)} cannot be sent as a body`);
  }
  return isJSONBody(body);
}

// checkJSON refuses what JSON cannot carry in v, as jsonText does, for a
// value that is sent later as part of other JSON: plain data costs a walk,
// not a JSON.stringify whose text would be thrown away.
export function checkJSON(v, where) {
  if (!plainJSON(v, 0)) jsonText(v, where);
}

export function bodyFrom(kind, payload) {
  if (kind === BODY_JSON) return JSON.parse(payload);
  if (kind === BODY_RAW) return payload;
  return undefined;
}

export function parse(text) {
  return text === '' || text === undefined || text === null ? undefined : JSON.parse(text);
}

// toStoreJSON is JSON.stringify with Dates as epoch ms, the form the store
// keeps date fields in (for values that skip normalization, like merge's).
export function toStoreJSON(v) {
  return v === undefined
    ? ''
    : JSON.stringify(v, function (key, value) {
        const raw = this[key];
        return raw instanceof Date ? raw.getTime() : value;
      });
}

// jsonText is JSON.stringify for what crosses to Go as JSON (params,
// bodies, data, defaults), undefined giving ''. A function, a Symbol or a
// BigInt anywhere in v, or a cycle, is a TypeError that names where (and
// the path inside v): JSON.stringify would drop the first two without a
// word and throw a TypeError of its own for the others. also, when given,
// is a replacer run after those checks (markedText's).
export function jsonText(v, where, also) {
  if (v === undefined) return '';
  if (also === undefined && plainJSON(v, 0)) return JSON.stringify(v);
  // The careful way, with a replacer (about 2.5 times slower) that finds
  // what JSON cannot carry and its path: paths maps each object met so far
  // to its path inside v, for the message.
  const paths = new Map();
  try {
    return JSON.stringify(v, function (key, value) {
      const parent = paths.get(this);
      const path = parent === undefined ? '' : Array.isArray(this) ? `${parent}[${key}]` : `${parent}.${key}`;
      const t = typeof value;
      if (t === 'function' || t === 'symbol' || t === 'bigint') throw new NotJSON(`${path}: ${showValue(value)} cannot be sent as JSON`);
      if (value !== null && t === 'object' && !paths.has(value)) paths.set(value, path);
      return also === undefined ? value : also.call(this, key, value);
    });
  } catch (err) {
    if (err instanceof NotJSON) throw ours(new TypeError(`${where}${err.message}`));
    if (err instanceof RangeError) {
      // JSON.stringify recursed until the engine's stack ran out: data that
      // deep could not be read by Go either (it refuses more than 1000 levels).
      throw ours(new TypeError(`${where}: nested too deep to be sent as JSON (${err.message})`, { cause: err }));
    }
    if (err instanceof TypeError && /circular|cyclic/i.test(err.message)) {
      throw ours(new TypeError(`${where}: a circular object (one that contains itself) cannot be sent as JSON`, { cause: err }));
    }
    throw ours(new TypeError(`${where}: cannot be sent as JSON: ${err?.message ?? String(err)}`, { cause: err }));
  }
}

class NotJSON extends Error {}

// The byte that starts marked JSON and ends its marks (a raw NUL, which
// JSON text never holds: JSON.stringify escapes it).
const MARK = '\0';

/**
 * markedText is jsonText for data whose undefined members and elements
 * must reach Go as undefined (normalize's data, denormalize's input and
 * tables), as marked JSON (core/value ParseMarked): plain JSON when v
 * holds no undefined, else MARK, the marks, MARK and the JSON with each
 * undefined written as null. The marks are an object of the keys (array
 * indexes) where undefined is: 0 for undefined there, an object for the
 * marks inside. Data with no undefined costs what jsonText costs.
 */
export function markedText(v, where) {
  if (v === undefined) return '';
  const shape = plainJSON(v, 0);
  if (shape === PLAIN) return JSON.stringify(v);
  const plain = shape !== NOT_PLAIN;
  // visits maps each object being written to where it is: its holder's
  // visit, its key there, and its marks once one is needed.
  const visits = new Map();
  let root;
  const marksOf = (visit) => {
    if (visit.marks === undefined) {
      visit.marks = {};
      if (visit.up === undefined) root = visit.marks;
      else marksOf(visit.up)[visit.key] = visit.marks;
    }
    return visit.marks;
  };
  const mark = function (key, value) {
    const holder = visits.get(this);
    if (value === undefined && holder !== undefined) {
      marksOf(holder)[key] = 0;
      return null;
    }
    // A new visit each time: an object met twice has marks in each place.
    if (value !== null && typeof value === 'object') visits.set(value, { up: holder, key, marks: undefined });
    return value;
  };
  // Plain data needs only the marks; anything else jsonText's checks too.
  const text = plain ? JSON.stringify(v, mark) : jsonText(v, where, mark);
  return root === undefined ? text : `${MARK}${JSON.stringify(root)}${MARK}${text}`;
}

// What plainJSON finds: NOT_PLAIN (0, so it reads as false), PLAIN, and
// HAS_UNDEFINED added to PLAIN when the plain data holds undefined (which
// JSON drops; markedText marks it).
const NOT_PLAIN = 0;
const PLAIN = 1;
const HAS_UNDEFINED = 2;

// The depth to which plainJSON looks: deeper values take jsonText's careful
// way.
const PLAIN_JSON_MAX_DEPTH = 64;

// plainJSON reports whether JSON.stringify(v) alone is safe: v is made of
// JSON's primitives, undefined, Dates, and plain objects and arrays of
// them, no deeper than 64 levels (most params, bodies and data); PLAIN, or
// PLAIN | HAS_UNDEFINED, when it is. Anything else (a function, a Symbol, a
// BigInt, a class instance, something deeper or cyclic) is NOT_PLAIN, left
// to jsonText's careful way, which refuses or accepts it with a reason. It
// costs less than JSON.stringify itself.
function plainJSON(v, depth) {
  const t = typeof v;
  if (t === 'string' || t === 'number' || t === 'boolean' || v === null) return PLAIN;
  if (t === 'undefined') return PLAIN | HAS_UNDEFINED;
  if (t !== 'object' || depth > PLAIN_JSON_MAX_DEPTH) return NOT_PLAIN;
  let shape = PLAIN;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const inner = plainJSON(v[i], depth + 1);
      if (inner === NOT_PLAIN) return NOT_PLAIN;
      shape |= inner;
    }
    return shape;
  }
  if (v instanceof Date) return PLAIN;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  for (const k in v) {
    const inner = plainJSON(v[k], depth + 1);
    if (inner === NOT_PLAIN) return NOT_PLAIN;
    shape |= inner;
  }
  return shape;
}

export function showValue(v) {
  if (typeof v === 'bigint') return `a BigInt (${v}n)`;
  if (typeof v === 'symbol') return v.description ? `a Symbol (${v.description})` : 'a Symbol';
  return show(v);
}

// duration checks a number of milliseconds given as the option name (where
// names the call) and returns it as Go reads it: Infinity, when allowed
// (expiry lengths: never stale, an error kept until invalidated), is the
// string "Infinity", since JSON has no Infinity.
export function duration(v, name, where, infinite) {
  if (infinite && v === Infinity) return 'Infinity';
  if (typeof v !== 'number' || !(v >= 0) || v === Infinity) {
    throw new TypeError(`${where}: ${name} must be a number of milliseconds${infinite ? ' or Infinity' : ''}, got ${showValue(v)}`);
  }
  // A length that only bounds a comparison (an expiry) may be any size; one
  // that a timer waits out may not pass what a timer can wait.
  if (!infinite && v > MAX_TIMER_MS) {
    throw new TypeError(`${where}: ${name} must be at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer waits), got ${showValue(v)}`);
  }
  return v;
}

/**
 * The longest delay setTimeout and setInterval wait: a longer one fires at
 * once (after 1 ms), so every wait of the package, and every Go timer
 * (which runs on setTimeout in a browser), is bounded by it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

// The largest time a Date can hold, in epoch milliseconds either way.
export const MAX_EPOCH_MS = 8.64e15;

// checkedClock wraps a Controller's now option: a call that throws, or
// returns anything but epoch milliseconds within a Date's range, is an
// Error that says so. (Go takes the clock's readings within that range
// too: schema.ClockMillis.)
export function checkedClock(now) {
  return function clock() {
    let t;
    try {
      t = now();
    } catch (err) {
      throw new Error(`Controller: now() threw: ${err?.message ?? String(err)}`, { cause: err });
    }
    if (typeof t !== 'number' || !(Math.abs(t) <= MAX_EPOCH_MS)) {
      throw new TypeError(`Controller: now() must return epoch milliseconds, a number within ±${MAX_EPOCH_MS} (the range of a Date), got ${showValue(t)}`);
    }
    return t;
  };
}

// lockedHook names the callback Go is running while the controller reads
// its store under its lock (an Entity's validate, a Scalar's
// lens, a union's schemaAttribute, a Collection's nestKey, a custom
// schema's denormalize), undefined otherwise.
// Calling the controller from such a callback would wait for the lock the
// read holds: Go's fatal deadlock, which ends the instance. JavaScript is
// single-threaded, so while it is set every controller call comes from the
// callback, and throws instead (refuseInLockedHook). Made once per
// adapter, it allocates nothing per call.
let lockedHook;

/**
 * locked returns adapter (of at most three arguments) marked, while it
 * runs, as the callback where (its name in errors). Callbacks nest.
 */
export function locked(where, adapter) {
  return (a, b, c) => {
    const outer = lockedHook;
    lockedHook = where;
    try {
      return adapter(a, b, c);
    } finally {
      lockedHook = outer;
    }
  };
}

/** lockedCall returns f(), marked as the callback where while it runs. */
export function lockedCall(where, f) {
  const outer = lockedHook;
  lockedHook = where;
  try {
    return f();
  } finally {
    lockedHook = outer;
  }
}

/** refuseInLockedHook throws when a locked callback (lockedHook) calls ctrl[method]. */
export function refuseInLockedHook(method) {
  if (lockedHook === undefined) return;
  throw ours(
    new Error(
      `ctrl.${method} cannot be called from ${lockedHook}: it runs while the controller reads its store, which the call would wait for; read what it needs before (docs/js-api.md, "Calling the controller from a hook")`,
    ),
  );
}

// synchronous returns what a hook that must be synchronous returned, or
// throws when it is a Promise or any thenable: JSON would turn it into {}
// and store that. where names the hook and its entity or endpoint.
export function synchronous(r, where) {
  if (r !== null && (typeof r === 'object' || typeof r === 'function') && typeof r.then === 'function') {
    // A rejection of the Promise itself is ours to report, not unhandled.
    if (r instanceof Promise) {
      r.catch(() => {
        // The TypeError thrown below reports the hook's mistake; what the
        // Promise settles with is never used.
      });
    }
    throw ours(new TypeError(`${where} returned a Promise: it must be synchronous (return the value, not a Promise of it)`));
  }
  return r;
}

export function headerPairs(headers) {
  if (typeof Headers === 'function' && headers instanceof Headers) return [...headers];
  if (Array.isArray(headers)) return headers.map(([k, v]) => [String(k), String(v)]);
  return Object.entries(headers)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => [k, String(v)]);
}
