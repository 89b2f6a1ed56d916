// datafetch: data fetching and normalized caching in the style of
// data-client (rest-hooks), implemented in Go and compiled to WebAssembly.
// This module loads datafetch.wasm and wraps the functions it registers
// (package jsbridge) in the API of shared/spec/js-api.md.
//
//   import { load } from './datafetch.mjs';
//   const df = await load();
//
// How the two sides talk: schemas, endpoints and controllers live in Go;
// the objects here hold numeric handles to them. Params, bodies and the
// results of callbacks cross as JSON text. Reads come back as one JSON text
// each, decoded by decode() below: it parses the data, reuses the objects
// this side already holds for data that did not change (so unchanged data
// is ===), and turns Date fields into Dates.

const GO_GLOBAL = '__datafetchGo';

// ------------------------------------------------------------ loading

let loading;

/**
 * Loads datafetch.wasm and returns the API. source is a URL (or a path, in
 * Node.js), an ArrayBuffer, a Uint8Array, a Response or a
 * WebAssembly.Module; the default is datafetch.wasm beside this module.
 * Later calls return the same instance.
 */
export function load(source) {
  if (!loading) {
    loading = start(source);
    // A failed load may be retried; callers of this one still see the error.
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

async function start(source) {
  const node = isNode();
  // The Go toolchain's own support file, matching the compiler. It is a
  // classic script that sets globalThis.Go; importing it evaluates it.
  await import('./wasm_exec.js');
  const go = new globalThis.Go();
  const instance = await instantiate(source ?? new URL('./datafetch.wasm', import.meta.url), go.importObject, node);
  const before = globalThis[GO_GLOBAL];
  // run() executes main until it blocks, by which time it has registered
  // the bridge; its Promise settles only if the program exits.
  go.run(instance).then(() => {
    exited = true;
  });
  const bridge = globalThis[GO_GLOBAL];
  if (typeof bridge !== 'object' || bridge === null || bridge === before) {
    throw new Error('datafetch: datafetch.wasm did not register its bridge (is it the right file?)');
  }
  delete globalThis[GO_GLOBAL];
  return attach(bridge, instance.exports);
}

let exited = false;

function isNode() {
  return typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';
}

async function instantiate(source, imports, node) {
  if (source instanceof WebAssembly.Module) {
    return WebAssembly.instantiate(source, imports);
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return (await WebAssembly.instantiate(source, imports)).instance;
  }
  if (typeof Response === 'function' && source instanceof Response) {
    return fromResponse(source, imports);
  }
  if (typeof source === 'string' || source instanceof URL) {
    if (node) {
      const url = nodeURL(source);
      if (url === undefined || url.protocol === 'file:') {
        const { readFile } = await import('node:fs/promises');
        const { fileURLToPath } = await import('node:url');
        const bytes = await readFile(url ? fileURLToPath(url) : source);
        return (await WebAssembly.instantiate(bytes, imports)).instance;
      }
      return fromResponse(await fetch(url), imports);
    }
    return fromResponse(await fetch(source), imports);
  }
  throw new TypeError(`datafetch load: source must be a URL, a path, an ArrayBuffer, a Uint8Array or a Response, got ${show(source)}`);
}

// nodeURL returns source as a URL when it is one, undefined for a path.
function nodeURL(source) {
  if (source instanceof URL) return source;
  if (/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(source) && !/^[a-zA-Z]:[\\/]/.test(source)) {
    try {
      return new URL(source);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

async function fromResponse(response, imports) {
  if (!response.ok) {
    throw new Error(`datafetch load: ${response.url || 'datafetch.wasm'}: ${response.status} ${response.statusText}`);
  }
  const type = response.headers.get('Content-Type') ?? '';
  if (typeof WebAssembly.instantiateStreaming === 'function' && type.startsWith('application/wasm')) {
    return (await WebAssembly.instantiateStreaming(response, imports)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}

// ------------------------------------------------------------ errors

/**
 * A request that failed: a response with a status that is not 2xx, a 2xx
 * body that is not JSON (status 400), or no response at all (status 0; the
 * name is AbortError or TimeoutError for an aborted or timed-out request).
 */
export class NetworkError extends Error {
  constructor(response, message) {
    super(message ?? (response ? `${response.status} ${response.statusText}`.trim() : 'network error'));
    this.name = 'NetworkError';
    this.status = response?.status ?? 0;
    this.statusText = response?.statusText ?? '';
    this.response = response;
  }
}

/** Thrown in getOptimisticResponse to apply no optimistic data. */
export class AbortOptimistic extends Error {
  constructor(message = 'optimistic update aborted') {
    super(message);
    this.name = 'AbortOptimistic';
  }
}

// makeError builds the Error of a descriptor made by Go (jsbridge/errors.go).
function makeError(text, response, cause) {
  const d = JSON.parse(text);
  let err;
  if (d.network) {
    err = new NetworkError(response, d.message);
    err.status = d.status;
    err.statusText = d.statusText;
    if ('body' in d) err.body = d.body;
  } else {
    err = new Error(d.message);
  }
  if (d.network || d.name !== 'Error') err.name = d.name;
  if (cause !== undefined) {
    err.cause = cause;
    if (cause !== null && (typeof cause === 'object' || typeof cause === 'function')) keepMembers(err, cause, d);
  }
  return err;
}

// keepMembers copies onto err what the caller's own code put on the error it
// threw (a custom fetch, parseResponse, getRequestInit, getHeaders, a hook),
// so that its name, status and other members reach the caller as they were
// thrown, while err's message names the endpoint and cause is the original.
// What Go knows better stays: a network error's own members, and the name
// of an abort or a timeout.
function keepMembers(err, cause, d) {
  if (cause[OURS]) return;
  if (!d.network && d.name === 'Error' && typeof cause.name === 'string' && cause.name !== '') err.name = cause.name;
  const skip = d.network ? NETWORK_MEMBERS : OWN_MEMBERS;
  for (const k of Object.keys(cause)) if (!skip.has(k)) err[k] = cause[k];
}

const OWN_MEMBERS = new Set(['message', 'stack', 'cause', 'name']);
const NETWORK_MEMBERS = new Set(['message', 'stack', 'cause', 'name', 'status', 'statusText', 'response', 'body']);

// ------------------------------------------------------------ decoding reads

// decode turns a read's output into data; see jsbridge/encode.go for the
// format. objs is the controller's Map from id to the objects this side
// holds (null for reads without identity).
function decode(objs, text) {
  return apply(objs, JSON.parse(text));
}

// response decodes a getResponse output into {data, expiryStatus, expiresAt}.
// The status a valid result turns to at expiresAt goes to afterExpiry, and
// whether an error of its last fetch is kept to errorKept, for the caller
// of the Go entry to take (Reads), not into the answer.
function response(objs, text) {
  const out = JSON.parse(text);
  afterExpiry = out.f;
  errorKept = out.k === 1;
  return { data: apply(objs, out), expiryStatus: out.s, expiresAt: out.e };
}

let afterExpiry;
let errorKept = false;

// Exchange calls the module's exported read entries (jsbridge/exports.go),
// passing text through its linear memory.
class Exchange {
  constructor(wasmExports) {
    this.x = wasmExports;
    this.memory = wasmExports.mem;
    this.bytes = new Uint8Array(this.memory.buffer);
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
  }

  // view returns the memory as bytes; a grown memory detaches the old
  // buffer, which leaves the view empty.
  view() {
    if (this.bytes.byteLength === 0) this.bytes = new Uint8Array(this.memory.buffer);
    return this.bytes;
  }

  // getResponse returns the output text of a getResponse read, or undefined
  // when Go declined (errors are reported by the js.FuncOf entry).
  getResponse(ctrl, endpoint, paramsText) {
    let n = 0;
    if (paramsText.length > 0) {
      const room = paramsText.length * 3; // the most UTF-8 bytes it can take
      const at = this.x.datafetchInput(room);
      n = this.encoder.encodeInto(paramsText, this.view().subarray(at, at + room)).written;
    }
    const len = this.x.datafetchGetResponse(ctrl, endpoint, n);
    if (len < 0) return undefined;
    const at = this.x.datafetchOutput();
    const text = this.decoder.decode(this.view().subarray(at, at + len));
    this.x.datafetchRelease();
    return text;
  }
}

// Reads keeps a controller's getResponse answers while its change counter,
// which Go bumps on every change a read could see and which lives in the
// module's linear memory, stays the same: an unchanged re-read is a Map
// lookup and a memory load, with no call into Go. Time alone changes only a
// valid result's status, which the kept answer recomputes from expiresAt.
class Reads {
  constructor(memory, addr, clock) {
    this.memory = memory;
    // clock is the controller's (its now option), so that a kept answer
    // turns stale when the controller's time says so.
    this.clock = clock;
    this.addr = addr;
    this.cell = new Uint32Array(memory.buffer, addr, 1);
    this.version = -1;
    // endpoint handle -> params JSON -> kept answer
    this.byEndpoint = new Map();
  }

  // changes reads the counter; a grown memory detaches the old buffer,
  // which leaves the view empty.
  changes() {
    let cell = this.cell;
    if (cell.length === 0) cell = this.cell = new Uint32Array(this.memory.buffer, this.addr, 1);
    return cell[0];
  }

  // kept returns the kept answer, if the counter still allows it.
  kept(h, paramsText) {
    const v = this.changes();
    if (v !== this.version) {
      this.byEndpoint.clear();
      this.version = v;
      return undefined;
    }
    return this.byEndpoint.get(h)?.get(paramsText);
  }

  get(h, paramsText) {
    const kept = this.kept(h, paramsText);
    if (kept === undefined) return undefined;
    return { data: kept.data, expiryStatus: statusAt(kept, this.clock()), expiresAt: kept.expiresAt };
  }

  // fresh returns the data when useSuspense would answer it at once without
  // a request: a valid result with no kept error; undefined otherwise.
  fresh(h, paramsText) {
    const kept = this.kept(h, paramsText);
    return kept !== undefined && !kept.err && statusAt(kept, this.clock()) === 'valid' ? kept.data : undefined;
  }

  // clear forgets every kept answer, so that what a reset frees in Go is not
  // held here until the next read.
  clear() {
    this.byEndpoint.clear();
    this.version = -1;
  }

  // keep stores an answer read at version v (read before the call into Go,
  // so that a change during the call leaves it unused).
  keep(v, h, paramsText, answer, later, err) {
    if (v !== this.version) return;
    let byParams = this.byEndpoint.get(h);
    if (byParams === undefined) this.byEndpoint.set(h, (byParams = new Map()));
    byParams.set(paramsText, { data: answer.data, expiryStatus: answer.expiryStatus, expiresAt: answer.expiresAt, later, err });
  }
}

// statusAt is a kept answer's status at time now (epoch ms).
function statusAt(kept, now) {
  return kept.later !== undefined && now >= kept.expiresAt ? kept.later : kept.expiryStatus;
}

function apply(objs, out) {
  let data;
  if (out.r !== undefined) {
    data = known(objs, out.r);
  } else {
    data = out.d;
    const ops = out.o;
    if (ops !== undefined) {
      for (let i = 0; i < ops.length; i++) {
        const op = ops[i];
        const n = op.length;
        if (op[0] === 4) {
          // [4, id, new, path...]: the object at path holds some members
          // only; they go over a shallow copy of the object id, which takes
          // its place and is registered as new.
          const merged = { ...known(objs, op[1]) };
          if (n === 3) {
            data = Object.assign(merged, data);
          } else {
            let parent = data;
            for (let j = 3; j < n - 1; j++) parent = parent[op[j]];
            const key = op[n - 1];
            parent[key] = Object.assign(merged, parent[key]);
          }
          objs.set(op[2], merged);
          continue;
        }
        if (op[0] === 3) {
          // [3, id, ranges, path...]: the array at path keeps, in the index
          // ranges [from, to) listed, the elements of the array at the same
          // path in the object id.
          let list = data;
          let prev = known(objs, op[1]);
          for (let j = 3; j < n; j++) {
            list = list[op[j]];
            prev = prev[op[j]];
          }
          const ranges = op[2];
          for (let r = 0; r < ranges.length; r += 2) {
            for (let k = ranges[r]; k < ranges[r + 1]; k++) list[k] = prev[k];
          }
          continue;
        }
        if (n === 2) {
          // The op names data itself.
          if (op[0] === 0) objs.set(op[1], data);
          else if (op[0] === 1) data = known(objs, op[1]);
          else data = new Date(data);
          continue;
        }
        let parent = data;
        for (let j = 2; j < n - 1; j++) parent = parent[op[j]];
        const key = op[n - 1];
        if (op[0] === 0) objs.set(op[1], parent[key]);
        else if (op[0] === 1) parent[key] = known(objs, op[1]);
        else parent[key] = new Date(parent[key]);
      }
    }
  }
  const dropped = out.x;
  if (dropped !== undefined) for (let i = 0; i < dropped.length; i++) objs.delete(dropped[i]);
  return data;
}

function known(objs, id) {
  const obj = objs.get(id);
  // Go resets both halves and sends the value in full when this throws.
  if (obj === undefined) throw new Error(`datafetch: object ${id} is unknown`);
  return obj;
}

// ------------------------------------------------------------ helpers

function show(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'function') return `function ${v.name || '(anonymous)'}`;
  if (v === null || typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  const name = Object.getPrototypeOf(v)?.constructor?.name;
  return name && name !== 'Object' ? `a ${name}` : 'an object';
}

function isPlainObject(v) {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

// isJSONBody reports whether a body is sent as JSON (a string as it is):
// FormData, Blob, ArrayBuffer, URLSearchParams, streams... pass through.
function isJSONBody(b) {
  if (b === null || typeof b !== 'object') return typeof b !== 'function' && typeof b !== 'symbol' && typeof b !== 'bigint';
  return Array.isArray(b) || isPlainObject(b);
}

// Body kinds, as jsbridge/convert.go reads them.
const BODY_NONE = 0;
const BODY_JSON = 1;
const BODY_RAW = 2;

function bodyFrom(kind, payload) {
  if (kind === BODY_JSON) return JSON.parse(payload);
  if (kind === BODY_RAW) return payload;
  return undefined;
}

function parse(text) {
  return text === '' || text === undefined || text === null ? undefined : JSON.parse(text);
}

// toStoreJSON is JSON.stringify with Dates as epoch ms, the form the store
// keeps date fields in (for values that skip normalization, like merge's).
function toStoreJSON(v) {
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
// word and throw a TypeError of its own for the others.
function jsonText(v, where) {
  if (v === undefined) return '';
  if (plainJSON(v, 0)) return JSON.stringify(v);
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
      return value;
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

// OURS marks the errors this module throws from inside a caller's hook
// (its result cannot cross to Go), so that makeError does not take them for
// the caller's own and give the error that reaches the caller their name.
const OURS = Symbol('datafetch error');
function ours(err) {
  err[OURS] = true;
  return err;
}

class NotJSON extends Error {}

// plainJSON reports whether JSON.stringify(v) alone is safe: v is made of
// JSON's primitives, Dates, and plain objects and arrays of them, no deeper
// than 64 levels (most params, bodies and data). Anything else (a function,
// a Symbol, a BigInt, a class instance, something deeper or cyclic) is left
// to jsonText's careful way, which refuses or accepts it with a reason. It
// costs less than JSON.stringify itself.
function plainJSON(v, depth) {
  const t = typeof v;
  if (t === 'string' || t === 'number' || t === 'boolean' || v === null || t === 'undefined') return true;
  if (t !== 'object' || depth > 64) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!plainJSON(v[i], depth + 1)) return false;
    return true;
  }
  if (v instanceof Date) return true;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k in v) if (!plainJSON(v[k], depth + 1)) return false;
  return true;
}

function showValue(v) {
  if (typeof v === 'bigint') return `a BigInt (${v}n)`;
  if (typeof v === 'symbol') return v.description ? `a Symbol (${v.description})` : 'a Symbol';
  return show(v);
}

// duration checks a number of milliseconds given as the option name (where
// names the call) and returns it as Go reads it: Infinity, when allowed
// (expiry lengths: never stale, an error kept until invalidated), is the
// string "Infinity", since JSON has no Infinity.
function duration(v, name, where, infinite) {
  if (infinite && v === Infinity) return 'Infinity';
  if (typeof v !== 'number' || !(v >= 0) || v === Infinity) {
    throw new TypeError(`${where}: ${name} must be a number of milliseconds${infinite ? ' or Infinity' : ''}, got ${showValue(v)}`);
  }
  return v;
}

// checkedClock wraps a Controller's now option: a call that throws, or
// returns anything but epoch milliseconds, is an Error that says so.
function checkedClock(now) {
  return function clock() {
    let t;
    try {
      t = now();
    } catch (err) {
      throw new Error(`Controller: now() threw: ${err?.message ?? String(err)}`, { cause: err });
    }
    if (typeof t !== 'number' || !(Math.abs(t) <= 8.64e15)) {
      throw new TypeError(`Controller: now() must return epoch milliseconds (a finite number), got ${showValue(t)}`);
    }
    return t;
  };
}

// synchronous returns what a hook that must be synchronous returned, or
// throws when it is a Promise or any thenable: JSON would turn it into {}
// and store that. where names the hook and its entity or endpoint.
function synchronous(r, where) {
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

function headerPairs(headers) {
  if (typeof Headers === 'function' && headers instanceof Headers) return [...headers];
  if (Array.isArray(headers)) return headers.map(([k, v]) => [String(k), String(v)]);
  return Object.entries(headers)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => [k, String(v)]);
}

// ------------------------------------------------------------ schema shapes

// The schema classes only record their shape; attach converts shapes to
// Go schemas when they are used.

// entities holds every Entity made (by any instance of the API), so that
// shapes can be checked where they are made.
const entities = new WeakSet();

function isEntity(s) {
  return entities.has(s);
}

function isSchema(s) {
  return (
    s === Date ||
    isEntity(s) ||
    s instanceof ArraySchema ||
    s instanceof ObjectSchema ||
    s instanceof ValuesSchema ||
    s instanceof UnionSchema ||
    s instanceof InvalidateSchema ||
    isPlainObject(s) ||
    (Array.isArray(s) && s.length === 1 && isSchema(s[0]))
  );
}

function checkSchema(s, where) {
  if (!isSchema(s)) throw new TypeError(`${where}: ${show(s)} is not a schema (an Entity, [S], a plain object, a df.schema class or Date)`);
}

class ArraySchema {
  constructor(schema) {
    checkSchema(schema, 'schema.Array');
    this.schema = schema;
  }
}

class ObjectSchema {
  constructor(definition) {
    if (!isPlainObject(definition)) throw new TypeError(`schema.Object: definition must be a plain object, got ${show(definition)}`);
    this.schema = definition;
  }
}

class ValuesSchema {
  constructor(schema) {
    checkSchema(schema, 'schema.Values');
    this.schema = schema;
  }
}

class UnionSchema {
  constructor(schemas, schemaAttribute) {
    if (!isPlainObject(schemas)) throw new TypeError(`schema.Union: schemas must be an object of entities, got ${show(schemas)}`);
    if (typeof schemaAttribute !== 'string' && typeof schemaAttribute !== 'function') {
      throw new TypeError(`schema.Union: schemaAttribute must be a field name or a function, got ${show(schemaAttribute)}`);
    }
    for (const [name, e] of Object.entries(schemas)) {
      if (!isEntity(e)) throw new TypeError(`schema.Union: member ${name}: ${show(e)} is not an Entity`);
    }
    this.schemas = schemas;
    this.schemaAttribute = schemaAttribute;
  }
}

class InvalidateSchema {
  constructor(entity) {
    if (!isEntity(entity)) throw new TypeError(`schema.Invalidate: ${show(entity)} is not an Entity`);
    this.schema = entity;
  }
}

// ------------------------------------------------------------ the API

const apis = new WeakMap();

/**
 * Returns the API over a bridge that a Go program registered with
 * jsbridge.Register (globalThis.__datafetchGo); load() does this for
 * datafetch.wasm. A Go program that links jsbridge itself can use it to
 * share its cache with the page's JavaScript. wasmExports, the instance's
 * exports, is optional: with them, reads use the module's memory and its
 * exported entries (an unchanged re-read does not call into Go at all).
 */
export function attach(bridge, wasmExports) {
  let api = apis.get(bridge);
  if (!api) {
    api = makeAPI(bridge, wasmExports?.mem instanceof WebAssembly.Memory ? wasmExports : undefined);
    apis.set(bridge, api);
  }
  return api;
}

function makeAPI(go, wasmExports) {
  const memory = wasmExports?.mem;
  const exchange = typeof wasmExports?.datafetchGetResponse === 'function' ? new Exchange(wasmExports) : undefined;

  // call runs a synchronous Go entry, which returns its error as an Error.
  function call(name, ...args) {
    if (exited) throw new Error('datafetch: datafetch.wasm has exited');
    const r = go[name](...args);
    if (r instanceof Error) throw r;
    return r;
  }

  // callAsync runs an asynchronous Go entry, which settles the Promise.
  function callAsync(name, ...args) {
    return new Promise((resolve, reject) => {
      if (exited) throw new Error('datafetch: datafetch.wasm has exited');
      const r = go[name](resolve, reject, ...args);
      if (r instanceof Error) reject(r);
    });
  }

  // promised runs a synchronous operation that the API presents as
  // returning a Promise: it takes effect now, and its error rejects.
  function promised(fn) {
    try {
      fn();
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err);
    }
  }

  call('setLibrary', { decode, response, makeError });

  // Go objects are released when the JavaScript objects holding them are
  // collected.
  const endpointRefs = new Map(); // handle → WeakRef of its RestEndpoint
  const finalizer =
    typeof FinalizationRegistry === 'function'
      ? new FinalizationRegistry((h) => {
          endpointRefs.delete(h);
          try {
            go.release(h);
          } catch {
            // the instance has exited
          }
        })
      : undefined;
  function hold(obj, h) {
    Object.defineProperty(obj, '_h', { value: h });
    finalizer?.register(obj, h);
  }

  // ---------------------------------------------------------- schemas

  function Entity(options) {
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

    // fns holds the adapters Go calls: by index for union schemas in
    // fields, by name for the hooks.
    const fns = [];
    const fields = {};
    const dates = [];
    for (const [field, s] of Object.entries(schema)) {
      if (s === undefined) continue;
      if (!isSchema(s)) throw new TypeError(`${where}: schema.${field}: ${show(s)} is not a schema`);
      if (s === Date) dates.push(field);
      fields[field] = describe(s, `${where}: schema.${field}`, fns);
    }
    // readForm gives hooks a stored record as a reader sees it.
    const readForm = (text) => {
      if (text === '') return undefined;
      const rec = { ...defaults, ...JSON.parse(text) };
      for (const f of dates) if (rec[f] !== null && rec[f] !== undefined) rec[f] = new Date(rec[f]);
      return rec;
    };
    const meta = (date, fetchedAt, expiresAt) => ({ date, fetchedAt, expiresAt });
    const hooks = [];
    if (typeof pk === 'function') {
      hooks.push('pk');
      fns.pk = (rec, parent, k) => {
        const id = synchronous(pk(JSON.parse(rec), parse(parent), k), `${where}: pk`);
        // As JSON text: a lone surrogate would not survive the trip to Go.
        return id === undefined || id === null ? null : JSON.stringify(String(id));
      };
    }
    if (process) {
      hooks.push('process');
      fns.process = (rec, parent, k) => jsonText(synchronous(process(JSON.parse(rec), parse(parent), k), `${where}: process`), `${where}: process result`);
    }
    if (merge) {
      hooks.push('merge');
      fns.merge = (a, b) => toStoreJSON(synchronous(merge(readForm(a), readForm(b)), `${where}: merge`));
    }
    if (useIncoming) {
      hooks.push('useIncoming');
      const name = options.useIncoming !== undefined ? 'useIncoming' : 'shouldUpdate';
      fns.useIncoming = (d1, f1, e1, d2, f2, e2, a, b) =>
        !!synchronous(useIncoming(meta(d1, f1, e1), meta(d2, f2, e2), readForm(a), readForm(b)), `${where}: ${name}`);
    }
    if (shouldReorder) {
      hooks.push('shouldReorder');
      fns.shouldReorder = (d1, f1, e1, d2, f2, e2, a, b) =>
        !!synchronous(shouldReorder(meta(d1, f1, e1), meta(d2, f2, e2), readForm(a), readForm(b)), `${where}: shouldReorder`);
    }
    const spec = {
      key,
      pk: typeof pk === 'string' ? pk : '',
      defaults,
      schema: fields,
      hooks,
      // Parents are serialized only for functions that take them.
      pkParent: typeof pk === 'function' && pk.length >= 2,
      processParent: typeof process === 'function' && process.length >= 2,
    };
    jsonText(defaults, `${where}: defaults`); // refuses what JSON cannot carry
    hold(this, call('entityNew', JSON.stringify(spec), fns));
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

  // describe converts a schema shape to the descriptor jsbridge/schema.go
  // reads, naming where in the caller's schema anything is wrong. Depth is
  // bounded here as core bounds it (256 levels), so a runaway schema is an
  // Error that names its place, not a stack overflow.
  const MAX_SCHEMA_DEPTH = 256;
  function describe(s, where, fns, depth = 0) {
    if (depth > MAX_SCHEMA_DEPTH) throw new TypeError(`${where.slice(0, 200)}…: schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
    const inner = (x, at) => describe(x, at, fns, depth + 1);
    if (s === Date) return 'date';
    if (s instanceof Entity) return { e: s._h };
    if (Array.isArray(s)) {
      if (s.length !== 1) throw new TypeError(`${where}: a list schema is [S] with exactly one schema, got an array of ${s.length}`);
      return { a: inner(s[0], `${where}[0]`) };
    }
    if (s instanceof ArraySchema) return { a: inner(s.schema, `${where} (schema.Array)`) };
    if (s instanceof ValuesSchema) return { v: inner(s.schema, `${where} (schema.Values)`) };
    if (s instanceof InvalidateSchema) return { i: entityHandle(s.schema, `${where} (schema.Invalidate)`) };
    if (s instanceof UnionSchema) {
      const u = {};
      for (const [name, e] of Object.entries(s.schemas)) u[name] = entityHandle(e, `${where} (schema.Union ${name})`);
      const attr = s.schemaAttribute;
      if (typeof attr === 'string') return { u, k: attr };
      fns.push((rec, parent, key) => String(synchronous(attr(JSON.parse(rec), parse(parent), key), `${where} (schema.Union): schemaAttribute`)));
      return { u, f: fns.length - 1, fp: attr.length >= 2 };
    }
    if (s instanceof ObjectSchema) return objectDescriptor(s.schema, where, fns, depth);
    if (isPlainObject(s)) return objectDescriptor(s, where, fns, depth);
    throw new TypeError(`${where}: ${show(s)} is not a schema (an Entity, [S], a plain object, a df.schema class or Date)`);
  }

  function objectDescriptor(def, where, fns, depth = 0) {
    const o = [];
    for (const [key, m] of Object.entries(def)) {
      if (m === undefined) continue;
      if (isSchema(m)) {
        o.push([key, describe(m, `${where}.${key}`, fns, depth + 1)]);
      } else if (typeof m === 'function' || typeof m === 'symbol' || typeof m === 'bigint') {
        throw new TypeError(`${where}.${key}: ${show(m)} is neither a schema nor a default value`);
      } else {
        o.push([key, 0, m]); // a default
      }
    }
    return { o };
  }

  function entityHandle(e, where) {
    if (!(e instanceof Entity)) throw new TypeError(`${where}: ${show(e)} is not an Entity`);
    return e._h;
  }

  const schemaHandles = new WeakMap();
  let dateHandle;

  // schemaHandle returns the Go schema of a shape, made once per object.
  function schemaHandle(s, where) {
    if (s instanceof Entity) return s._h;
    if (s === Date) return (dateHandle ??= call('schemaNew', '"date"', []));
    const cacheable = typeof s === 'object' && s !== null;
    if (cacheable) {
      const h = schemaHandles.get(s);
      if (h !== undefined) return h;
    }
    const fns = [];
    const h = call('schemaNew', JSON.stringify(describe(s, where, fns)), fns);
    if (cacheable) {
      schemaHandles.set(s, h);
      finalizer?.register(s, h);
    }
    return h;
  }

  function normalize(schema, data) {
    return JSON.parse(call('normalize', schemaHandle(schema, 'normalize: schema'), jsonText(data, 'normalize: data')));
  }

  function denormalize(schema, result, entities) {
    return call(
      'denormalize',
      schemaHandle(schema, 'denormalize: schema'),
      jsonText(result, 'denormalize: result'),
      jsonText(entities, 'denormalize: entities'),
    );
  }

  // ---------------------------------------------------------- endpoints

  const FUNCTION_OPTIONS = new Set(['getHeaders', 'getRequestInit', 'fetch', 'parseResponse', 'process', 'getOptimisticResponse', 'update']);
  const DURATION_OPTIONS = new Set(['dataExpiryLength', 'errorExpiryLength', 'pollFrequency', 'timeout']);
  // Expiry lengths may be Infinity: never stale, an error kept until invalidated.
  const EXPIRY_OPTIONS = new Set(['dataExpiryLength', 'errorExpiryLength']);
  // Options that would hide the endpoint's methods are not copied onto it.
  const METHODS = new Set(['url', 'key', 'extend', 'paginated', 'constructor']);

  function thisOf(h) {
    return endpointRefs.get(h)?.deref();
  }

  // encodeOptions splits endpoint options into what crosses as JSON and
  // the rest (jsbridge/endpoint.go, endpointOptions). box.ref will name the
  // endpoint, for `this` in callbacks that Go does not name one for.
  function encodeOptions(options, where, box) {
    const json = {};
    const fns = {};
    const hooks = [];
    const unset = [];
    let raw;
    let signal;
    for (const [name, v] of Object.entries(options)) {
      if (name === 'urlPrefix' || name === 'path' || name === 'method' || name === 'name') {
        if (v === undefined) continue;
        if (typeof v !== 'string') throw new TypeError(`${where}: ${name} must be a string, got ${show(v)}`);
        json[name] = v;
      } else if (name === 'schema') {
        json.schema = v === undefined ? -1 : schemaHandle(v, `${where}: schema`);
      } else if (name === 'body') {
        if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') {
          throw new TypeError(`${where}: body: ${showValue(v)} cannot be sent as a body`);
        }
        if (v === undefined || v === null) json.body = null;
        else if (isJSONBody(v)) {
          jsonText(v, `${where}: body`); // refuses what JSON cannot carry
          json.body = v;
        } else {
          json.rawBody = true;
          raw = v;
        }
      } else if (DURATION_OPTIONS.has(name)) {
        json[name] = v === undefined ? 0 : duration(v, name, where, EXPIRY_OPTIONS.has(name));
      } else if (name === 'invalidIfStale') {
        json.invalidIfStale = !!v;
      } else if (name === 'sideEffect') {
        json.sideEffect = v === undefined ? null : !!v;
      } else if (name === 'signal') {
        if (v !== undefined && v !== null && !(typeof AbortSignal === 'function' && v instanceof AbortSignal)) {
          throw new TypeError(`${where}: signal must be an AbortSignal, got ${show(v)}`);
        }
        json.signal = v !== undefined && v !== null;
        signal = v ?? undefined;
      } else if (FUNCTION_OPTIONS.has(name)) {
        if (v === undefined) {
          unset.push(name);
        } else if (typeof v !== 'function') {
          throw new TypeError(`${where}: ${name} must be a function, got ${show(v)}`);
        } else {
          fns[name] = adapt(name, v, box);
          hooks.push(name);
        }
      }
      // Other members are the caller's own; they stay on the object.
    }
    json.hooks = hooks;
    json.unset = unset;
    return [JSON.stringify(json), fns, raw, signal];
  }

  // adapt wraps a function option in the form Go calls it in: JSON text in
  // and out (jsbridge/endpoint.go documents each).
  function adapt(name, fn, box) {
    const self = () => box.ref?.deref();
    // hook names this option of the endpoint, for errors.
    const hook = (sub = '') => `${self()?.name ?? 'endpoint'}: ${name}${sub}`;
    switch (name) {
      case 'getHeaders':
        return async (text) => JSON.stringify(headerPairs((await fn.call(self(), Object.fromEntries(JSON.parse(text)))) ?? {}));
      case 'getRequestInit':
        return async (h, kind, payload) => {
          const ep = thisOf(h) ?? self();
          return encodeInit(await fn.call(ep, bodyFrom(kind, payload)), `${ep?.name ?? 'endpoint'}: getRequestInit`);
        };
      case 'fetch':
        return async (h, params, kind, payload) => jsonText(await fn.call(thisOf(h) ?? self(), parse(params), bodyFrom(kind, payload)), `${hook()} result`);
      case 'parseResponse':
        return async (res) => jsonText(await fn.call(self(), res), `${hook()} result`);
      case 'process':
        return (value, params) => jsonText(synchronous(fn.call(self(), parse(value), parse(params)), hook()), `${hook()} result`);
      case 'getOptimisticResponse':
        return (snapHandle, fetchedAt, params, kind, payload) => {
          const snap = {
            fetchedAt,
            getResponse: (endpoint, p) => call('snapGetResponse', snapHandle, endpointHandle(endpoint), paramsText(p, 'snap.getResponse', endpoint)),
          };
          try {
            return jsonText(synchronous(fn.call(self(), snap, parse(params), bodyFrom(kind, payload)), hook()), `${hook()} result`);
          } catch (err) {
            if (err instanceof AbortOptimistic) return false;
            throw err;
          }
        };
      case 'update':
        return (pks, params) => {
          const updates = synchronous(fn.call(self(), parse(pks), parse(params)), hook()) ?? {};
          const keys = Object.keys(updates);
          const fs = keys.map((k) => updates[k]);
          for (let i = 0; i < keys.length; i++) {
            if (typeof fs[i] !== 'function') throw new TypeError(`${hook()}: the update for ${keys[i]} must be a function, got ${show(fs[i])}`);
          }
          return [JSON.stringify(keys), (i, stored) => jsonText(synchronous(fs[i](parse(stored)), hook(` for ${keys[i]}`)), hook(` for ${keys[i]} result`))];
        };
    }
    throw new Error(`datafetch: no adapter for ${name}`);
  }

  // encodeInit encodes getRequestInit's result: [desc, raw body, extra].
  function encodeInit(init, where) {
    const { method, headers, body, ...extra } = init ?? {};
    const d = {};
    let raw;
    if (method !== undefined) d.m = String(method);
    if (headers !== undefined && headers !== null) d.h = headerPairs(headers);
    if (body !== undefined && body !== null) {
      if (isJSONBody(body)) {
        jsonText(body, `${where}: body`); // refuses what JSON cannot carry
        d.b = body;
      } else {
        d.raw = true;
        raw = body;
      }
    }
    return [JSON.stringify(d), raw, Object.keys(extra).length > 0 ? extra : undefined];
  }

  function endpointHandle(endpoint) {
    if (!(endpoint instanceof RestEndpoint)) throw new TypeError(`expected an endpoint (df.RestEndpoint), got ${show(endpoint)}`);
    return endpoint._h;
  }

  class RestEndpoint {
    constructor(options) {
      if (!options || typeof options !== 'object') {
        throw new TypeError(`RestEndpoint: options must be an object with at least a path, got ${show(options)}`);
      }
      const box = {};
      const h = call('endpointNew', ...encodeOptions(options, `RestEndpoint ${options.name ?? options.path ?? ''}`, box));
      setUp(this, h, options, box);
    }

    /** The request URL for params. */
    url(params) {
      return call('endpointURL', this._h, paramsText(params, 'url', this));
    }

    /** The store key for params. */
    key(params) {
      return call('endpointKey', this._h, paramsText(params, 'key', this));
    }

    /** A new endpoint with those options replaced; this one is unchanged. */
    extend(options) {
      if (!options || typeof options !== 'object') throw new TypeError(`${this.name}: extend: options must be an object, got ${show(options)}`);
      const box = {};
      const h = call('endpointExtend', this._h, ...encodeOptions(options, `${this.name}: extend`, box));
      return wrapEndpoint(h, { ...this._options, ...options }, box);
    }

    /** An endpoint whose pages, named by cursorParam, append to one list. */
    paginated(cursorParam) {
      return wrapEndpoint(call('endpointPaginated', this._h, cursorParam), this._options, {});
    }
  }

  function wrapEndpoint(h, options, box) {
    const ep = Object.create(RestEndpoint.prototype);
    setUp(ep, h, options, box);
    return ep;
  }

  function setUp(ep, h, options, box) {
    for (const [k, v] of Object.entries(options)) if (!METHODS.has(k)) ep[k] = v;
    ep.method = (options.method ?? 'GET').toUpperCase();
    ep.name = options.name ?? options.path;
    ep.sideEffect = options.sideEffect ?? ep.method !== 'GET';
    Object.defineProperty(ep, '_options', { value: options });
    hold(ep, h);
    const ref = new WeakRef(ep);
    box.ref ??= ref;
    endpointRefs.set(h, ref);
  }

  // resourceSchema is the schema of a built-in resource endpoint.
  function resourceSchema(entity, name) {
    if (name === 'getList' || name === 'list') return [entity];
    if (name === 'delete') return new InvalidateSchema(entity);
    return entity;
  }

  function resource(options) {
    if (!options || typeof options !== 'object') throw new TypeError(`resource: options must be an object with path and schema, got ${show(options)}`);
    const { schema } = options;
    if (!(schema instanceof Entity)) throw new TypeError(`resource ${options.path}: schema must be an Entity, got ${show(schema)}`);
    const desc = JSON.parse(call('resourceNew', ...encodeOptions(options, `resource ${options.path}`, {})));
    const shared = { ...options };
    delete shared.name;
    return makeResource(desc, (e) => ({ ...shared, path: e.path, method: e.method, name: e.fullName, schema: resourceSchema(schema, e.name) }), {});
  }

  // makeResource wraps a resource described by Go. optionsOf gives the
  // options of each new endpoint; old holds the endpoints of the resource
  // it extends, kept where Go reports them unchanged.
  function makeResource(desc, optionsOf, old) {
    const res = {};
    for (const e of desc.endpoints) res[e.name] = e.h === 0 ? old[e.name] : wrapEndpoint(e.h, optionsOf(e), {});
    hold(res, desc.h);
    Object.defineProperty(res, 'extend', {
      value(changes, more) {
        if (typeof changes === 'string') changes = { [changes]: more };
        else if (typeof changes === 'function') changes = changes(res);
        if (!isPlainObject(changes)) throw new TypeError(`resource extend: expected {name: options}, got ${show(changes)}`);
        const list = Object.entries(changes).map(([name, opts]) => {
          if (!opts || typeof opts !== 'object') throw new TypeError(`resource extend ${name}: options must be an object, got ${show(opts)}`);
          return [name, ...encodeOptions(opts, `resource extend ${name}`, {})];
        });
        const next = JSON.parse(call('resourceExtend', res._h, list));
        const base = (res.get ?? res.detail)?._options ?? {};
        return makeResource(next, (e) => ({ ...(res[e.name]?._options ?? base), ...changes[e.name], path: e.path, method: e.method, name: e.fullName }), res);
      },
    });
    return res;
  }

  // Resource is the legacy (6.0) form: an entity with endpoint methods.
  function Resource(options) {
    if (!options || typeof options !== 'object') throw new TypeError(`df.Resource: options must be an object with urlRoot, got ${show(options)}`);
    const { urlRoot, ...rest } = options;
    if (typeof urlRoot !== 'string' || urlRoot === '') throw new TypeError(`df.Resource: urlRoot is required, got ${show(urlRoot)}`);
    const entity = new Entity({ key: urlRoot, ...rest });
    const desc = JSON.parse(call('legacyResource', entity._h, urlRoot));
    const endpoints = {};
    for (const e of desc.endpoints) {
      endpoints[e.name] = wrapEndpoint(e.h, { path: e.path, method: e.method, name: e.fullName, schema: resourceSchema(entity, e.name) }, {});
    }
    endpoints.listShape = endpoints.list;
    for (const name of ['detail', 'list', 'listShape', 'create', 'update', 'partialUpdate', 'delete']) {
      Object.defineProperty(entity, name, { value: () => endpoints[name] });
    }
    return entity;
  }

  // ---------------------------------------------------------- controller

  function encodeBody(body, where) {
    if (body === undefined) return [BODY_NONE, undefined];
    if (isJSONBody(body)) return [BODY_JSON, jsonText(body, where)];
    if (typeof body === 'function' || typeof body === 'symbol' || typeof body === 'bigint') {
      throw new TypeError(`${where}: ${showValue(body)} cannot be sent as a body`);
    }
    return [BODY_RAW, body];
  }

  // paramsText encodes the params of a call (named by call) to endpoint.
  function paramsText(params, call, endpoint) {
    return jsonText(params, `${call} ${endpoint.name}: params`);
  }

  class Controller {
    constructor(options) {
      if (options !== undefined && options !== null && typeof options !== 'object') {
        throw new TypeError(`Controller: options must be an object, got ${show(options)}`);
      }
      const { fetch, dataExpiryLength, errorExpiryLength, now } = options ?? {};
      if (fetch !== undefined && typeof fetch !== 'function') throw new TypeError(`Controller: fetch must be a function, got ${show(fetch)}`);
      const lengths = {};
      for (const [name, v] of Object.entries({ dataExpiryLength, errorExpiryLength })) {
        if (v !== undefined) lengths[name] = duration(v, name, 'Controller', true);
      }
      if (now !== undefined && typeof now !== 'function') {
        throw new TypeError(`Controller: now must be a function returning epoch milliseconds, got ${show(now)}`);
      }
      const clock = now === undefined ? Date.now : checkedClock(now);
      // Go reads the clock too (expiry, fetchedAt), in places where nobody
      // could catch an exception: it gets one that never throws, and keeps
      // its last good time when this returns NaN. Every public call below
      // reads the clock first, so a broken clock is reported to the caller.
      let goNow;
      if (now !== undefined) {
        clock(); // a clock that fails now fails the constructor
        goNow = () => {
          try {
            return clock();
          } catch (err) {
            console.error(err);
            return NaN;
          }
        };
      }
      // The Map is this side of the identity table (decode).
      const objs = new Map();
      hold(this, call('ctrlNew', JSON.stringify(lengths), fetch, objs, goNow));
      this.#objs = objs;
      this.#clock = clock;
      this.#checkClock = now !== undefined;
      this.#reads = memory && new Reads(memory, call('ctrlChanges', this._h), clock);
    }

    #objs;
    #reads;
    #clock;
    #checkClock;

    // #tick reads a caller's clock (the now option) so that one that throws
    // or returns a non-number is reported by the call that met it.
    #tick() {
      if (this.#checkClock) this.#clock();
    }

    // #read is getResponse without the kept reads: through the exported
    // entry when there is one, else (or when it declines) the js.FuncOf one.
    #read(h, p) {
      const text = exited ? undefined : exchange?.getResponse(this._h, h, p);
      if (text !== undefined) {
        try {
          return response(this.#objs, text);
        } catch {
          // An id this side lacks: the js.FuncOf entry starts both halves
          // of the identity table afresh when that happens.
        }
      }
      return call('ctrlGetResponse', this._h, h, p);
    }

    useSuspense(endpoint, params) {
      let h, p;
      try {
        this.#tick();
        if (params === null) return Promise.resolve(undefined);
        h = endpointHandle(endpoint);
        p = paramsText(params, 'useSuspense', endpoint);
      } catch (err) {
        return Promise.reject(err);
      }
      if (this.#reads !== undefined) {
        // Fresh data needs no request: answered from a read, most often a
        // kept one, without the asynchronous entry.
        try {
          this.#response(h, p);
          const data = this.#reads.fresh(h, p);
          if (data !== undefined) return Promise.resolve(data);
        } catch {
          // The asynchronous entry reports the error as it always has.
        }
      }
      return callAsync('ctrlSuspense', this._h, h, p);
    }

    fetch(endpoint, params, body) {
      let args;
      try {
        this.#tick();
        args = [endpointHandle(endpoint), paramsText(params, 'fetch', endpoint), ...encodeBody(body, `fetch ${endpoint.name}: body`)];
      } catch (err) {
        return Promise.reject(err);
      }
      return callAsync('ctrlFetch', this._h, ...args);
    }

    fetchIfStale(endpoint, params) {
      let args;
      try {
        this.#tick();
        if (params === null) return Promise.resolve(undefined);
        args = [endpointHandle(endpoint), paramsText(params, 'fetchIfStale', endpoint)];
      } catch (err) {
        return Promise.reject(err);
      }
      return callAsync('ctrlFetchIfStale', this._h, ...args);
    }

    getResponse(endpoint, params) {
      const h = endpointHandle(endpoint);
      return this.#response(h, paramsText(params, 'getResponse', endpoint));
    }

    #response(h, p) {
      const reads = this.#reads;
      if (reads === undefined) {
        this.#tick();
        return this.#read(h, p);
      }
      // Reads the clock (through the kept answer, or first), so a broken
      // now option is reported here.
      const kept = reads.get(h, p);
      if (kept !== undefined) return kept;
      this.#tick();
      const v = reads.version;
      afterExpiry = undefined;
      errorKept = false;
      const answer = this.#read(h, p);
      reads.keep(reads.changes() === v ? v : -1, h, p, answer, afterExpiry, errorKept);
      return answer;
    }

    subscribe(endpoint, params, listener) {
      const h = endpointHandle(endpoint);
      const p = paramsText(params, 'subscribe', endpoint);
      if (typeof listener !== 'function') throw new TypeError(`subscribe ${endpoint.name}: listener must be a function, got ${show(listener)}`);
      this.#tick();
      const sub = call('ctrlSubscribe', this._h, h, p, (data, loading, error) => listener({ data, loading, error }));
      let done = false;
      return () => {
        if (done) return;
        done = true;
        call('ctrlUnsubscribe', sub);
      };
    }

    invalidate(endpoint, params) {
      return promised(() => {
        const h = endpointHandle(endpoint);
        const p = paramsText(params, 'invalidate', endpoint);
        this.#tick();
        call('ctrlInvalidate', this._h, h, p);
      });
    }

    invalidateAll(testKey) {
      return promised(() => {
        this.#tick();
        call('ctrlInvalidateAll', this._h, keyTest(testKey, 'invalidateAll'));
      });
    }

    expireAll(testKey) {
      return promised(() => {
        this.#tick();
        call('ctrlExpireAll', this._h, keyTest(testKey, 'expireAll'));
      });
    }

    resetEntireStore() {
      this.#reads?.clear();
      return promised(() => call('ctrlResetEntireStore', this._h));
    }

    setResponse(endpoint, params, data) {
      return promised(() => {
        const h = endpointHandle(endpoint);
        const p = paramsText(params, 'setResponse', endpoint);
        const d = jsonText(data, `setResponse ${endpoint.name}: data`);
        this.#tick();
        call('ctrlSetResponse', this._h, h, p, d);
      });
    }

    getState() {
      return JSON.parse(call('ctrlGetState', this._h));
    }
  }

  function keyTest(testKey, where) {
    if (typeof testKey !== 'function') throw new TypeError(`${where}: testKey must be a function, got ${show(testKey)}`);
    return testKey;
  }

  let defaultController;
  function useController() {
    return (defaultController ??= new Controller());
  }

  function useSuspense(endpoint, params) {
    return useController().useSuspense(endpoint, params);
  }

  function useLoading(asyncFn, onChange) {
    if (typeof asyncFn !== 'function') throw new TypeError(`useLoading: expected a function, got ${show(asyncFn)}`);
    let loading = false;
    let error;
    const notify = () => onChange?.([handler, loading, error]);
    async function handler(...args) {
      loading = true;
      error = undefined;
      notify();
      try {
        const result = await asyncFn(...args);
        loading = false;
        notify();
        return result;
      } catch (err) {
        loading = false;
        error = err;
        notify();
        return undefined;
      }
    }
    return [handler, loading, error];
  }

  return {
    version: go.version,
    Entity,
    schema: { Array: ArraySchema, Object: ObjectSchema, Values: ValuesSchema, Union: UnionSchema, Invalidate: InvalidateSchema },
    normalize,
    denormalize,
    RestEndpoint,
    resource,
    createResource: resource,
    Controller,
    useController,
    useSuspense,
    useResource: useSuspense,
    useLoading,
    Resource,
    NetworkError,
    AbortOptimistic,
  };
}
