// Endpoints: RestEndpoint and resource(), declared as data-client declares
// them (at module top level, subclassed, extended) with no engine, and
// registered with an API instance's engine the first time that instance
// runs them (makeEndpoints). An endpoint's options are its own properties
// (endpoint.path, endpoint.schema, ...), class fields and overridden
// methods of a subclass included; what crosses to Go is split into JSON and
// the callbacks Go calls (adapted to take and give JSON text).

import { AbortOptimistic, NetworkError, ours as ownError } from './errors.mjs';
import { engine } from './engine.mjs';
import { Endpoint } from './generic.mjs';
import { BODY_JSON, BODY_NONE, BODY_RAW, SCHEMA_NONE } from './protocol.mjs';
import { listPath, pathRegex, queryString } from './paths.mjs';
import { RETRY_NONE, retryCount, retryDelayAdapter } from './retry.mjs';
import { engineSchema } from './queryread.mjs';
import { ArraySchema, CollectionSchema, InvalidateSchema, ObjectSchema, QuerySchema, ValuesSchema, checkShape, isEntity, isQueryable } from './schemas.mjs';
import { bodyFrom, checkJSON, duration, headerPairs, isPlainObject, jsonText, parse, sendsAsJSON, show, synchronous } from './values.mjs';

const FUNCTION_OPTIONS = [
  'getHeaders',
  'getRequestInit',
  'fetch',
  'parseResponse',
  'process',
  'getOptimisticResponse',
  'update',
  'retryDelay',
  'searchToString',
];
const DURATION_OPTIONS = new Set(['dataExpiryLength', 'errorExpiryLength', 'pollFrequency', 'timeout']);
// Expiry lengths may be Infinity: never stale, an error kept until invalidated.
const EXPIRY_OPTIONS = new Set(['dataExpiryLength', 'errorExpiryLength']);
// The options an endpoint's own properties may hold, as the engine takes
// them (encodeOptions).
const OPTIONS = [
  'urlPrefix',
  'path',
  'method',
  'name',
  'schema',
  'body',
  'dataExpiryLength',
  'errorExpiryLength',
  'pollFrequency',
  'timeout',
  'retry',
  'invalidIfStale',
  'paginationField',
  'movePath',
  'sideEffect',
  'signal',
  'content',
  ...FUNCTION_OPTIONS,
];
// The response body kinds of the content option (data-client's): JSON, or
// what the Response method of that name makes ('stream': its body).
const CONTENT = ['json', 'text', 'blob', 'arrayBuffer', 'formData', 'stream'];
// Content-Types that are text (data-client's list): any other but JSON is
// binary.
const TEXT_LIKE = /\btext\b|\bxml\b|\bhtml\b|\bjavascript\b|\bcss\b|\bcsv\b|\burlencoded\b/;
const NO_CONTENT = 204;
// The endpoints a Collection (or paginationField) derives: name, method
// (undefined: the endpoint's own).
const COLLECTION_ENDPOINTS = [
  ['push', 'POST'],
  ['unshift', 'POST'],
  ['remove', 'PATCH'],
  ['move', 'PATCH'],
  ['assign', 'POST'],
  ['getPage', undefined],
];
// Options that would hide the endpoint's methods are not copied onto it.
const METHODS = new Set(['url', 'key', 'extend', 'paginated', 'constructor', ...COLLECTION_ENDPOINTS.map(([name]) => name)]);

// RECIPE is how an endpoint is made in an engine (see makeEndpoints'
// register): {} from its own options; {base, changes} an extend of base;
// {resource, member} a member of a resource; {paginatedOf, cursor};
// {collectionOf, op}; {handles} made by one engine only (a legacy
// Resource).
const RECIPE = Symbol('datafetch.recipe');

/** How endpoint is made (see RECIPE): what prestart.mjs asks of it. */
export function recipeOf(endpoint) {
  return endpoint[RECIPE];
}

// ---------------------------------------------------------------- RestEndpoint

/**
 * A REST endpoint (docs/js-api.md, Endpoints). Its options become its own
 * properties; a subclass may set them as class fields and override the
 * function options as methods (getRequestInit, parseResponse, process,
 * getHeaders, fetch...), calling super for the defaults. Nothing is asked
 * of the engine until an instance runs it.
 */
export class RestEndpoint {
  constructor(options) {
    if (!options || typeof options !== 'object') {
      throw new TypeError(`RestEndpoint: options must be an object with at least a path, got ${show(options)}`);
    }
    encodeOptions(options, `RestEndpoint ${options.name ?? options.path ?? ''}`, undefined, checking);
    // An endpoint is a function, as data-client's: endpoint(params, body)
    // is endpoint.fetch(params, body). A subclass's fields land on it.
    const self = callable(new.target.prototype);
    setOptions(self, options);
    // As data-client's constructor: the method is fixed now (POST for a
    // side effect given without one), so that extend keeps it; a subclass
    // that defines method itself keeps its own.
    if (options.method === undefined && !definesMethod(self)) own(self, 'method', self.method);
    Object.defineProperty(self, RECIPE, { value: {}, writable: true });
    warnContent(self);
    // biome-ignore lint/correctness/noConstructorReturn: the instance is a function, so that endpoints are callable (data-client's form).
    return self;
  }

  /** The HTTP method: GET unless set (POST when sideEffect is set true, as in data-client). */
  get method() {
    return Object.getOwnPropertyDescriptor(this, 'sideEffect')?.value === true ? 'POST' : 'GET';
  }

  set method(v) {
    own(this, 'method', typeof v === 'string' ? v.toUpperCase() : v);
  }

  /** The endpoint's name, in keys and errors: its path unless set. */
  get name() {
    return this.path;
  }

  set name(v) {
    own(this, 'name', v);
  }

  /**
   * Whether the endpoint changes data on the server, unless set: true for
   * every method but GET, undefined for a GET (as data-client has it).
   */
  get sideEffect() {
    return this.method === 'GET' ? undefined : true;
  }

  set sideEffect(v) {
    own(this, 'sideEffect', v);
  }

  /** The request URL for params. */
  url(params) {
    const e = engineOf(this, 'url()');
    const h = e.endpointHandle(this);
    const p = e.paramsText(params, 'url', this);
    return e.exported()?.url(h, p) ?? e.calls.endpointURL(h, p);
  }

  /**
   * The query string of the params that are not path tokens, without its
   * '?': what url() puts after the path. Override it to encode them
   * otherwise; by default they are sorted by name and encoded as
   * URLSearchParams encodes them (an array repeats its name).
   */
  searchToString(searchParams) {
    const values = parse(jsonText(searchParams ?? {}, `${this.name}: searchToString`));
    const query = queryString(values ?? {}, []);
    if (query === undefined)
      throw new TypeError(`${this.name}: searchToString: only strings, numbers, booleans, null and arrays of them go in a URL, got ${show(searchParams)}`);
    return query;
  }

  /** Whether key is a key of this endpoint (for some params). */
  testKey(key) {
    if (typeof key !== 'string') return false;
    const prefix = `${this.name} ${this.method} ${this.urlPrefix ?? ''}`;
    if (!key.startsWith(prefix)) return false;
    const q = key.lastIndexOf('?');
    return pathRegex(this.path).test(key.slice(prefix.length, q < prefix.length ? undefined : q));
  }

  /** The store key for params. */
  key(params) {
    const e = engineOf(this, 'key()');
    const h = e.endpointHandle(this);
    const p = e.paramsText(params, 'key', this);
    return e.exported()?.key(h, p) ?? e.calls.endpointKey(h, p);
  }

  /** A new endpoint with those options replaced; this one is unchanged. */
  extend(options) {
    if (!options || typeof options !== 'object') throw new TypeError(`${this.name}: extend: options must be an object, got ${show(options)}`);
    encodeOptions(options, `${this.name}: extend`, undefined, checking);
    const d = derive(this, options, { base: this, changes: options });
    // A new content option moves the default parsing here or back.
    if ('content' in options && DEFAULTS.has(d.parseResponse)) {
      d[RECIPE].changes = { ...options, parseResponse: d.content === undefined ? undefined : RestEndpoint.prototype.parseResponse };
    }
    // A new fetchResponse is used by the default fetch, here.
    if ('fetchResponse' in options && DEFAULTS.has(d.fetch)) d[RECIPE].changes = { ...d[RECIPE].changes, fetch: RestEndpoint.prototype.fetch };
    return d;
  }

  /**
   * An endpoint whose pages append to one list: cursor names the param
   * that selects a page, or is data-client's removeCursor(...args), which
   * returns the args without it (as [params]).
   */
  paginated(cursor) {
    if (typeof cursor !== 'function' && (typeof cursor !== 'string' || cursor === '')) {
      throw new TypeError(`${this.name}: paginated: expected a cursor param name or a removeCursor function, got ${show(cursor)}`);
    }
    return derive(this, {}, { paginatedOf: this, cursor });
  }

  /**
   * The request init the endpoint would send for body (method, headers
   * with getHeaders applied, the body encoded): what an override of
   * getRequestInit gets from super.getRequestInit(body).
   */
  getRequestInit(body) {
    const e = engineOf(this, 'getRequestInit()');
    return e.calls.endpointRequestInit(e.endpointHandle(this), ...encodeBody(body, `${this.name}: getRequestInit: body`)).then(([desc, raw]) => {
      const init = JSON.parse(desc);
      if (raw !== undefined) init.body = raw;
      return init;
    });
  }

  /** The headers to send: these, unchanged. */
  getHeaders(headers) {
    return headers;
  }

  /**
   * The response parsed as the endpoint would parse it (JSON, null for an
   * empty body, a NetworkError for a failure status): what an override of
   * parseResponse gets from super.parseResponse(response).
   */
  parseResponse(response) {
    const kind = this.content ?? autoContent(response);
    if (kind === undefined || !response.ok || response.status === NO_CONTENT) {
      const e = engineOf(this, 'parseResponse()');
      return e.calls.endpointParseResponse(e.endpointHandle(this), response).then((text) => parse(text));
    }
    if (kind === 'json') return response.json().catch((cause) => Promise.reject(notJSON(this, response, cause)));
    if (hasSchema(this)) return Promise.reject(incompatible(this, response, kind));
    return kind === 'stream' ? Promise.resolve(response.body) : response[kind]();
  }

  /** The value to normalize: the parsed response, unchanged. */
  process(value, ...args) {
    return value;
  }

  /**
   * What the endpoint fetches by default, as data-client's: the request
   * (url, getRequestInit with getHeaders applied, fetchResponse), its
   * parsed response (parseResponse) and process run on that: what calling
   * the endpoint resolves to, and what an override of fetch gets from
   * super.fetch(params, body). It goes through the global fetch, not a
   * controller's fetch option.
   */
  fetch(params, body) {
    return fetchJS(this, params, body).then((v) => this.process(v, params ?? {}));
  }

  /**
   * Sends the request: the global fetch, a failure to get any response
   * being a NetworkError of status 0. Override it to answer from elsewhere;
   * endpoint.fetch() and the controller both use the override.
   */
  fetchResponse(input, init) {
    return globalThis.fetch(input, init).catch((cause) => {
      if (cause?.name === 'AbortError' || cause?.name === 'TimeoutError') throw cause;
      const err = new NetworkError(undefined, `${this.name}: ${init?.method ?? this.method} ${input}: ${cause?.message ?? cause}`);
      err.cause = cause;
      throw err;
    });
  }
}

// callable returns a function with prototype proto: an endpoint, which
// calling fetches (see callEndpoint). The function's own name and length
// go, so that the endpoint's (its options, the prototype's getters) show.
function callable(proto) {
  const self = (...args) => callEndpoint(self, args);
  delete self.name;
  delete self.length;
  Object.setPrototypeOf(self, proto);
  return self;
}

// callEndpoint is endpoint(...args): endpoint.fetch(params, body), where
// one argument to an endpoint that sends a body is the body (as
// data-client reads its args: create(body), update(params, body)).
function callEndpoint(ep, args) {
  if (args.length === 1 && sendsBody(ep)) return ep.fetch({}, args[0]);
  return ep.fetch(args[0], args[1]);
}

// sendsBody reports whether ep's requests carry a body: a method other
// than GET, HEAD and DELETE, and no body option set to undefined.
function sendsBody(ep) {
  return !NO_BODY_METHODS.has(ep.method) && (!('body' in ep) || ep.body !== undefined);
}
const NO_BODY_METHODS = new Set(['GET', 'HEAD', 'DELETE']);

// ---------------------------------------------------------------- content

// autoContent is the body kind data-client picks with no content option
// for a 2xx response whose Content-Type is neither JSON nor text: 'blob',
// or undefined (the engine's parse: JSON, else text).
function autoContent(response) {
  const type = response.headers?.get?.('content-type');
  if (!type || type.includes('json') || TEXT_LIKE.test(type)) return undefined;
  return 'blob';
}

// hasSchema reports whether ep's schema expects data to normalize (a
// process of its own makes any body acceptable, as in data-client).
function hasSchema(ep) {
  const s = ep.schema;
  return s !== undefined && s !== null && typeof s !== 'string' && DEFAULTS.has(ep.process);
}

// warnContent tells, as data-client's constructor does, of a content kind
// that every fetch of ep will refuse (a schema expects data): a console
// error, since a process of a subclass or a later extend may yet fix it.
function warnContent(ep) {
  if (ep.content !== undefined && ep.content !== 'json' && hasSchema(ep)) {
    console.error(`${ep.name}: content '${ep.content}' is incompatible with schema: binary and text responses cannot be normalized; use schema: undefined`);
  }
}

// incompatible is the error of a body kind JSON cannot carry where the
// schema expects data: status 400, as data-client's.
function incompatible(ep, response, kind) {
  const err = new NetworkError(response);
  err.status = 400;
  err.message = ep.content
    ? `${ep.name}: content '${kind}' is incompatible with schema: binary and text responses cannot be normalized; use schema: undefined`
    : `${ep.name}: unexpected binary content-type "${response.headers.get('content-type')}" for a schema: binary responses cannot be normalized; use schema: undefined or content: 'blob'`;
  return err;
}

// notJSON is the error of content 'json' for a body that is not JSON:
// status 400, as the engine's for a schema.
function notJSON(ep, response, cause) {
  const err = new NetworkError(response, `${ep.name}: content 'json': the body is not JSON (${cause.message})`);
  err.status = 400;
  return err;
}

// isJSContent reports whether v is a body kind JSON cannot carry.
function isJSContent(v) {
  return (
    v instanceof ArrayBuffer ||
    ArrayBuffer.isView(v) ||
    (typeof Blob === 'function' && v instanceof Blob) ||
    (typeof FormData === 'function' && v instanceof FormData) ||
    (typeof ReadableStream === 'function' && v instanceof ReadableStream)
  );
}

// fetchJS is endpoint.fetch(): the request as the engine builds it
// (getRequestInit, getHeaders), sent by fetchResponse and parsed by
// parseResponse here, so that a Blob, ArrayBuffer, FormData or stream
// reaches the caller. The signal and timeout options abort it.
async function fetchJS(ep, params, body) {
  const url = ep.url(params ?? {});
  const init = await ep.getRequestInit(sendsBody(ep) ? (body ?? ep.body) : undefined);
  const signals = [ep.signal, ep.timeout > 0 ? AbortSignal.timeout(ep.timeout) : undefined].filter(Boolean);
  if (signals.length > 0) init.signal = signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  const response = await ep.fetchResponse(url, init);
  return ep.parseResponse(response);
}

// engines holds, per endpoint, the engine that registered it last: its
// url(), key() and defaults ask that engine, or load()'s when none has.
const engines = new WeakMap();

function engineOf(ep, what) {
  return engines.get(ep) ?? engine(what);
}

// The function options' defaults, which are not options the engine gets:
// an endpoint whose getRequestInit is RestEndpoint's has none of its own.
// A resource delete's process (deleteFallback) is the engine's too.
const DEFAULTS = new Set([
  ...['getRequestInit', 'getHeaders', 'parseResponse', 'process', 'fetch', 'searchToString'].map((name) => RestEndpoint.prototype[name]),
  deleteFallback,
]);

// Endpoints are functions (see callable): call, apply and bind work on
// them as on data-client's.
Object.setPrototypeOf(RestEndpoint.prototype, Function.prototype);

// definesMethod reports whether a subclass of RestEndpoint, between ep and
// RestEndpoint.prototype, defines method.
function definesMethod(ep) {
  for (let p = Object.getPrototypeOf(ep); p !== null && p !== RestEndpoint.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.hasOwn(p, 'method')) return true;
  }
  return false;
}

// own sets obj[k] = v as an own data property, whatever the prototype
// defines under k.
function own(obj, k, v) {
  Object.defineProperty(obj, k, { value: v, writable: true, enumerable: true, configurable: true });
}

function setOptions(ep, options) {
  for (const [k, v] of Object.entries(options)) {
    if (METHODS.has(k)) continue;
    own(ep, k, k === 'method' && typeof v === 'string' ? v.toUpperCase() : v);
  }
}

// derive returns an endpoint of ep's class with ep's own properties and
// options over them, made in an engine by recipe.
function derive(ep, options, recipe) {
  const d = callable(Object.getPrototypeOf(ep));
  for (const k of Object.keys(ep)) own(d, k, ep[k]);
  setOptions(d, options);
  Object.defineProperty(d, RECIPE, { value: recipe, writable: true });
  return d;
}

// optionsOf returns the options an endpoint made from its own options
// has: its properties (own or inherited: class fields, getters) and the
// function options it overrides.
function optionsOf(ep) {
  const o = {};
  for (const name of OPTIONS) {
    const v = ep[name];
    if (v === undefined || DEFAULTS.has(v)) continue;
    if (name === 'name' && !Object.hasOwn(ep, 'name') && v === ep.path) continue;
    if (name === 'sideEffect' && !Object.hasOwn(ep, 'sideEffect')) continue;
    o[name] = v;
  }
  // A content option is read by the default parseResponse, here.
  if (o.content !== undefined && o.parseResponse === undefined) o.parseResponse = RestEndpoint.prototype.parseResponse;
  // An override of fetchResponse is used by the default fetch, here.
  if (ep.fetchResponse !== RestEndpoint.prototype.fetchResponse && o.fetch === undefined) o.fetch = RestEndpoint.prototype.fetch;
  return o;
}

// Collection endpoints: getters on every endpoint, made once per endpoint.
// As data-client's, push, unshift, remove, move and assign always exist:
// where the schema holds no Collection with that operation (no Collection,
// a list's assign) they are plain requests of their method with no schema.
// getPage is undefined without a paginationField, and throws where the
// schema holds no Collection to add the pages to.
const derived = new WeakMap();
for (const [name, method] of COLLECTION_ENDPOINTS) {
  Object.defineProperty(RestEndpoint.prototype, name, {
    configurable: true,
    get() {
      if (this[RECIPE] === undefined) return undefined; // the prototype itself
      let made = derived.get(this);
      if (made === undefined) derived.set(this, (made = {}));
      if (!(name in made)) made[name] = collectionEndpoint(this, name, method);
      return made[name];
    },
  });
}

function collectionEndpoint(ep, op, method) {
  const has = hasCollectionEndpoint(ep, op);
  if (op === 'getPage') {
    if (collectionIn(ep.schema) === undefined) {
      throw new TypeError(`${ep.name}.getPage: the schema holds no Collection to add pages to (getPage needs one, as paginated does)`);
    }
    return has ? derive(ep, {}, { collectionOf: ep, op }) : undefined;
  }
  const changes = { method, name: `${ep.name}.${op}` };
  if (op === 'move') {
    // One record's path (a resource's getList has it as movePath), with
    // no searchParams, as data-client's move.
    if (typeof ep.movePath === 'string') changes.path = ep.movePath;
    if ('searchParams' in ep) changes.searchParams = undefined;
  }
  const d = has ? derive(ep, changes, { collectionOf: ep, op }) : ep.extend({ ...changes, schema: undefined, paginationField: undefined });
  delete d.paginationField;
  return d;
}

// hasCollectionEndpoint tells, as the engine does (jsbridge/collection.go),
// whether ep has the collection endpoint op.
function hasCollectionEndpoint(ep, op) {
  if (op === 'getPage') return typeof ep.paginationField === 'string' && ep.paginationField !== '';
  const c = collectionIn(ep.schema);
  if (c === undefined) return false;
  const values = c.schema instanceof ValuesSchema;
  return op === 'remove' || op === 'move' || (op === 'assign' ? values : !values);
}

// collectionIn returns the Collection an endpoint's schema is or holds as
// a member of an object shape, at any depth ({data: {results: C}}), the
// first in member order (as core/rest collectionOf).
function collectionIn(s, depth = 0) {
  if (s instanceof CollectionSchema) return s;
  const members = s instanceof ObjectSchema ? s.schema : isPlainObject(s) ? s : undefined;
  if (members === undefined || depth > MAX_COLLECTION_DEPTH) return undefined;
  for (const m of Object.values(members)) {
    const c = collectionIn(m, depth + 1);
    if (c !== undefined) return c;
  }
  return undefined;
}
// How deep collectionIn looks: as deep as a schema may nest (schemas.mjs).
const MAX_COLLECTION_DEPTH = 256;

// ---------------------------------------------------------------- resource

// The endpoints of a resource, as the engine makes them (core/rest
// NewResource): name, method, and whether its path is the list path.
const RESOURCE_ENDPOINTS = [
  ['get', 'GET', false],
  ['getList', 'GET', true],
  ['create', 'POST', true],
  ['update', 'PUT', false],
  ['partialUpdate', 'PATCH', false],
  ['delete', 'DELETE', false],
];

// RESOURCE holds how a resource is made in an engine: {options} or
// {base, changes}.
const RESOURCE = Symbol('datafetch.resource');

/**
 * The endpoints of a REST resource (docs/js-api.md, Resources): get,
 * getList, create, update, partialUpdate, delete; options.Endpoint, a
 * RestEndpoint subclass, is the class of each.
 */
export function resource(options) {
  if (!options || typeof options !== 'object') throw new TypeError(`resource: options must be an object with path and schema, got ${show(options)}`);
  const { schema, Endpoint = RestEndpoint, ...rest } = options;
  if (!isEntity(schema)) throw new TypeError(`resource ${options.path}: schema must be an Entity, got ${show(schema)}`);
  if (typeof options.path !== 'string') throw new TypeError(`resource: path must be a string, got ${show(options.path)}`);
  if (Endpoint !== RestEndpoint && !(Endpoint?.prototype instanceof RestEndpoint)) {
    throw new TypeError(`resource ${options.path}: Endpoint must be RestEndpoint or a subclass of it, got ${show(Endpoint)}`);
  }
  const res = {};
  const prefix = rest.name ?? schema.key;
  const shared = { ...rest };
  delete shared.name;
  for (const [name, method, list] of RESOURCE_ENDPOINTS) {
    const ep = new Endpoint({
      ...shared,
      path: list ? listPath(options.path) : options.path,
      method,
      name: `${prefix}.${name}`,
      schema: resourceSchema(schema, name),
      // getList.move PATCHes one record's path (core/rest NewResource).
      ...(name === 'getList' ? { movePath: options.path } : {}),
    });
    ep[RECIPE] = { resource: res, member: name };
    // delete's fallback to the params, which the engine applies to what it
    // stores (core/rest deleteProcess), applies to a call too.
    if (name === 'delete' && ep.process === RestEndpoint.prototype.process) own(ep, 'process', deleteFallback);
    res[name] = ep;
  }
  return finishResource(res, { options: { ...shared, schema, name: rest.name }, Endpoint });
}

function finishResource(res, recipe) {
  Object.defineProperty(res, RESOURCE, { value: recipe });
  Object.defineProperty(res, 'extend', {
    value(changes, more) {
      if (typeof changes === 'string') changes = { [changes]: more };
      else if (typeof changes === 'function') changes = changes(res);
      if (!isPlainObject(changes)) throw new TypeError(`resource extend: expected {name: options}, got ${show(changes)}`);
      const next = {};
      for (const k of Object.keys(res)) next[k] = res[k];
      for (const [name, opts] of Object.entries(changes)) {
        // An endpoint (a function) given as the member takes its options.
        if (!opts || (typeof opts !== 'object' && !(opts instanceof RestEndpoint))) {
          throw new TypeError(`resource extend ${name}: options must be an object or an endpoint, got ${show(opts)}`);
        }
        const from = res[name] ?? res.get;
        const ep = derive(from, res[name] ? opts : { name: `${prefixOf(res)}.${name}`, method: 'GET', ...opts }, { resource: next, member: name });
        next[name] = ep;
      }
      return finishResource(next, { base: res, changes });
    },
  });
  return res;
}

function prefixOf(res) {
  for (let r = res; ; r = r[RESOURCE].base) {
    const o = r[RESOURCE].options;
    if (o !== undefined) return o.name ?? o.schema.key;
  }
}

// deleteFallback is a resource delete's process: the params when the
// response has no record (null, or an empty object as some servers send),
// as core/rest deleteProcess.
function deleteFallback(value, params) {
  return value === null || value === undefined || (isPlainObject(value) && Object.keys(value).length === 0) ? params : value;
}

// resourceSchema is the schema of a built-in resource endpoint (as
// JavaScript shows it: Go makes its own). getList's is a Collection.
const listSchemas = new WeakMap();
function resourceSchema(entity, name) {
  if (name === 'getList' || name === 'list') {
    let c = listSchemas.get(entity);
    if (c === undefined) listSchemas.set(entity, (c = new CollectionSchema([entity])));
    return name === 'getList' ? c : new ArraySchema(entity);
  }
  if (name === 'delete') return new InvalidateSchema(entity);
  return entity;
}

// ---------------------------------------------------------------- Endpoint

// The options of a generic Endpoint the engine takes (registerGeneric).
const GENERIC_OPTIONS = [
  'schema',
  'sideEffect',
  'dataExpiryLength',
  'errorExpiryLength',
  'pollFrequency',
  'invalidIfStale',
  'getOptimisticResponse',
  'update',
  'retry',
  'retryDelay',
];

// genericArgs is the args of a generic Endpoint the engine's params text
// stands for: none for undefined params, else the params.
function genericArgs(params) {
  return params === '' ? [] : [parse(params)];
}

// ---------------------------------------------------------------- bodies

function encodeBody(body, where) {
  if (body === undefined) return [BODY_NONE, undefined];
  return sendsAsJSON(body, where) ? [BODY_JSON, jsonText(body, where)] : [BODY_RAW, body];
}

// ---------------------------------------------------------------- options

// encodeOptions splits endpoint options into what crosses as JSON and
// the rest (jsbridge/endpoint.go, endpointOptions), refusing what the
// engine cannot take with an Error naming the option. self is the
// endpoint, `this` in callbacks that Go does not name one for. to gives
// the engine's forms of a schema (to.schemaHandle) and of a function
// option (to.adapt); checking's make nothing, to check options with no
// engine.
function encodeOptions(options, where, self, to) {
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
      // A schema.Query's responses are its schema's (queryread.mjs).
      json.schema = v === undefined || v === null ? SCHEMA_NONE : to.schemaHandle(engineSchema(v), `${where}: schema`);
    } else if (name === 'body') {
      if (v === undefined || v === null) json.body = null;
      else if (sendsAsJSON(v, `${where}: body`)) {
        checkJSON(v, `${where}: body`);
        json.body = v;
      } else {
        json.rawBody = true;
        raw = v;
      }
    } else if (DURATION_OPTIONS.has(name)) {
      json[name] = v === undefined ? 0 : duration(v, name, where, EXPIRY_OPTIONS.has(name));
    } else if (name === 'retry') {
      // 0 here means none, whatever the controller's: Go's 0 means the
      // controller's (undefined), its -1 none.
      const n = v === undefined ? 0 : retryCount(v, where);
      json.retry = v !== undefined && n === 0 ? RETRY_NONE : n;
    } else if (name === 'invalidIfStale' || name === 'optimistic') {
      // optimistic is resource()'s (jsbridge/resource.go).
      json[name] = !!v;
    } else if (name === 'movePath') {
      if (v !== undefined && typeof v !== 'string') throw new TypeError(`${where}: movePath must be a string, got ${show(v)}`);
      json.movePath = v ?? '';
    } else if (name === 'paginationField') {
      if (v !== undefined && (typeof v !== 'string' || v === '')) throw new TypeError(`${where}: paginationField must be a param name, got ${show(v)}`);
      json.paginationField = v ?? '';
    } else if (name === 'sideEffect') {
      json.sideEffect = v === undefined ? null : !!v;
    } else if (name === 'content') {
      if (v !== undefined && !CONTENT.includes(v)) throw new TypeError(`${where}: content must be one of ${CONTENT.join(', ')}, got ${show(v)}`);
    } else if (name === 'signal') {
      if (v !== undefined && v !== null && !(typeof AbortSignal === 'function' && v instanceof AbortSignal)) {
        throw new TypeError(`${where}: signal must be an AbortSignal, got ${show(v)}`);
      }
      json.signal = v !== undefined && v !== null;
      signal = v ?? undefined;
    } else if (FUNCTION_OPTIONS.includes(name)) {
      if (v === undefined) {
        unset.push(name);
      } else if (typeof v !== 'function') {
        throw new TypeError(`${where}: ${name} must be a function, got ${show(v)}`);
      } else {
        fns[name] = to.adapt(name, v, self);
        hooks.push(name);
      }
    }
    // Other members are the caller's own; they stay on the object.
  }
  json.hooks = hooks;
  json.unset = unset;
  return [JSON.stringify(json), fns, raw, signal];
}

// checking is encodeOptions' target that makes nothing: options are
// checked where they are given, before any engine runs them.
const checking = {
  schemaHandle(s, where) {
    checkShape(s, where);
    return 0;
  },
  adapt: () => undefined,
};

// ---------------------------------------------------------------- per engine

// makeEndpoints returns the endpoint half of an API instance over bridge
// (see makeBridge) and schemas (see makeSchemas): endpointHandle (an
// endpoint's Go handle, registering it the first time), paramsText, and
// the legacy Resource.
export function makeEndpoints(bridge, schemas) {
  const { calls, finalizer, endpointRefs } = bridge;
  const { Entity, schemaHandle } = schemas;

  function thisOf(h) {
    return endpointRefs.get(h)?.deref();
  }

  // ours is this engine as declarations use it (engine.mjs).
  const ours = {
    endpointHandle: (ep) => endpointHandle(ep),
    paramsText: (...a) => paramsText(...a),
    calls,
    exported: bridge.exported,
  };

  // to is encodeOptions' target for this engine.
  const to = { schemaHandle, adapt: (name, fn, self) => adapt(name, fn, self) };

  // adapt wraps a function option in the form Go calls it in: JSON text in
  // and out (jsbridge/endpoint.go documents each). self() is the endpoint
  // the option was given to.
  function adapt(name, fn, self) {
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
        return async (res) => {
          const v = await fn.call(self(), res);
          if (isJSContent(v)) {
            throw ownError(
              new TypeError(`${hook()}: a ${v.constructor.name} cannot be stored in the cache (JSON cannot carry it): get it with endpoint.fetch(params)`),
            );
          }
          return jsonText(v, `${hook()} result`);
        };
      case 'process':
        return (value, params) => jsonText(synchronous(fn.call(self(), parse(value), parse(params)), hook()), `${hook()} result`);
      case 'getOptimisticResponse':
        return (snapHandle, fetchedAt, params, kind, payload) => {
          const snap = {
            fetchedAt,
            getResponse: (endpoint, p) => calls.snapGetResponse(snapHandle, endpointHandle(endpoint), paramsText(p, 'snap.getResponse', endpoint)),
            // As ctrl.get: an Entity by pk params, All, a Collection, a
            // Query (its process run here).
            get: (schema, ...args) => {
              const query = schema instanceof QuerySchema ? schema : undefined;
              const read = query ? query.schema : schema;
              if (!isQueryable(read)) {
                throw new TypeError(
                  `snap.get: ${show(schema)} is not queryable (a schema.Query, an Entity, a schema.All, a schema.Collection or an object of them)`,
                );
              }
              const v = calls.snapGet(snapHandle, schemaHandle(read, 'snap.get: schema'), jsonText(args, 'snap.get: args'));
              return query !== undefined && v !== undefined ? query.process(v, ...args) : v;
            },
          };
          try {
            return jsonText(synchronous(fn.call(self(), snap, parse(params), bodyFrom(kind, payload)), hook()), `${hook()} result`);
          } catch (err) {
            if (err instanceof AbortOptimistic) return false;
            throw err;
          }
        };
      case 'searchToString':
        return (params) => {
          const q = fn.call(self(), parse(params));
          if (typeof q !== 'string') throw ownError(new TypeError(`${hook()} must return a string, got ${show(q)}`));
          return q;
        };
      case 'retryDelay':
        return retryDelayAdapter((attempt, err) => fn.call(self(), attempt, err), hook);
      case 'update':
        return (pks, params) => {
          const updates = synchronous(fn.call(self(), parse(pks), parse(params)), hook()) ?? {};
          const keys = Object.keys(updates);
          const fs = keys.map((k) => updates[k]);
          for (let i = 0; i < keys.length; i++) {
            if (typeof fs[i] !== 'function') throw ownError(new TypeError(`${hook()}: the update for ${keys[i]} must be a function, got ${show(fs[i])}`));
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
      if (sendsAsJSON(body, `${where}: body`)) {
        checkJSON(body, `${where}: body`);
        d.b = body;
      } else {
        d.raw = true;
        raw = body;
      }
    }
    return [JSON.stringify(d), raw, Object.keys(extra).length > 0 ? extra : undefined];
  }

  // handles holds the handle of each endpoint registered with this
  // engine; resources holds each resource's {h, members: {name: handle}}.
  const handles = new WeakMap();
  const resources = new WeakMap();

  // endpointHandle returns the Go handle of endpoint, registering it (and
  // what it derives from) the first time this engine meets it.
  function endpointHandle(endpoint) {
    const generic = endpoint instanceof Endpoint;
    if (!generic && !(endpoint instanceof RestEndpoint)) {
      throw ownError(new TypeError(`expected an endpoint (a RestEndpoint or an Endpoint), got ${show(endpoint)}`));
    }
    let h = handles.get(endpoint);
    if (h === undefined) {
      h = generic ? registerGeneric(endpoint) : register(endpoint);
      // A resource's registration remembers its members itself.
      if (!handles.has(endpoint)) remember(endpoint, h);
    }
    return h;
  }

  function remember(ep, h) {
    handles.set(ep, h);
    engines.set(ep, ours);
    endpointRefs.set(h, new WeakRef(ep));
    finalizer?.register(ep, h);
  }

  function register(ep) {
    const recipe = ep[RECIPE];
    const self = () => ep;
    if (recipe === undefined) throw ownError(new TypeError(`${ep.name}: not an endpoint made by RestEndpoint, extend or resource`));
    if (recipe.resource !== undefined) {
      const h = resourceHandles(recipe.resource).members[recipe.member];
      if (h === undefined) throw new Error(`datafetch: resource member ${recipe.member} has no endpoint`);
      return h;
    }
    if (recipe.base !== undefined) {
      return calls.endpointExtend(endpointHandle(recipe.base), ...encodeOptions(recipe.changes, `${ep.name}: extend`, self, to));
    }
    if (recipe.paginatedOf !== undefined) {
      const { cursor } = recipe;
      return calls.endpointPaginated(endpointHandle(recipe.paginatedOf), typeof cursor === 'string' ? cursor : removeCursorAdapter(cursor, ep));
    }
    if (recipe.collectionOf !== undefined) {
      const h = calls.endpointCollection(endpointHandle(recipe.collectionOf), recipe.op);
      if (h === 0) throw ownError(new Error(`${ep.name}: the engine has no ${recipe.op} for this endpoint`));
      return h;
    }
    if (recipe.handles !== undefined) {
      throw ownError(new Error(`${ep.name}: a legacy Resource's endpoint runs only with the instance that made it`));
    }
    return calls.endpointNew(...encodeOptions(optionsOf(ep), `RestEndpoint ${ep.name ?? ''}`, self, to));
  }

  // registerGeneric registers a generic Endpoint: an endpoint of the
  // engine whose store key is ep.key(...args) and whose fetch is
  // ep.fetch(...args) (the engine's params are the first arg, its body
  // the second), with ep's engine options. Its path is a placeholder: it
  // has no URL.
  function registerGeneric(ep) {
    const name = String(ep.name ?? 'Endpoint');
    const options = { path: '/', name, fetch: ep.fetch };
    for (const k of GENERIC_OPTIONS) if (ep[k] !== undefined) options[k] = ep[k];
    const self = () => ep;
    const [json, fns, raw, signal] = encodeOptions(options, `Endpoint ${name}`, self, to);
    const desc = JSON.parse(json);
    desc.hooks.push('key');
    fns.key = (params) => {
      const key = ep.key(...genericArgs(params));
      if (typeof key !== 'string') throw ownError(new TypeError(`${name}: key must return a string, got ${show(key)}`));
      return key;
    };
    fns.fetch = async (h, params, kind, payload) => {
      const args = genericArgs(params);
      const body = bodyFrom(kind, payload);
      if (body !== undefined) args.push(body);
      return jsonText(await ep.fetch(...args), `${name}: fetch result`);
    };
    return calls.endpointNew(JSON.stringify(desc), fns, raw, signal);
  }

  // resourceHandles returns res's handles in this engine, registering it.
  function resourceHandles(res) {
    let r = resources.get(res);
    if (r !== undefined) return r;
    const recipe = res[RESOURCE];
    let desc;
    if (recipe.options !== undefined) {
      // The options every member shares, as the Endpoint class has them
      // (class fields, overridden methods), with the resource's own path,
      // name and schema.
      const probe = res.get;
      const shared = recipe.Endpoint === RestEndpoint ? {} : optionsOf(probe);
      for (const k of ['path', 'method', 'name', 'schema']) delete shared[k];
      const options = { ...recipe.options, ...shared, schema: recipe.options.schema };
      if (recipe.options.name === undefined) delete options.name;
      desc = JSON.parse(calls.resourceNew(...encodeOptions(options, `resource ${options.path}`, () => probe, to)));
    } else {
      const base = resourceHandles(recipe.base);
      const list = Object.entries(recipe.changes).map(([name, opts]) => [name, ...encodeOptions(opts, `resource extend ${name}`, () => res[name], to)]);
      desc = JSON.parse(calls.resourceExtend(base.h, list));
      desc.inherited = base.members;
    }
    const members = {};
    for (const e of desc.endpoints) {
      members[e.name] = e.h === 0 ? desc.inherited[e.name] : e.h;
      if (e.h !== 0 && res[e.name] !== undefined) remember(res[e.name], e.h);
    }
    r = { h: desc.h, members };
    resources.set(res, r);
    finalizer?.register(res, desc.h);
    return r;
  }

  // Resource is the legacy (6.0) form: an entity with endpoint methods,
  // made by this engine at once.
  function Resource(options) {
    if (!options || typeof options !== 'object') throw new TypeError(`df.Resource: options must be an object with urlRoot, got ${show(options)}`);
    const { urlRoot, ...rest } = options;
    if (typeof urlRoot !== 'string' || urlRoot === '') throw new TypeError(`df.Resource: urlRoot is required, got ${show(urlRoot)}`);
    const entity = new Entity({ key: urlRoot, ...rest });
    const desc = JSON.parse(calls.legacyResource(entity._h, urlRoot));
    const endpoints = {};
    for (const e of desc.endpoints) {
      const ep = new RestEndpoint({ path: e.path, method: e.method, name: e.fullName, schema: resourceSchema(entity, e.name) });
      ep[RECIPE] = { handles: true };
      remember(ep, e.h);
      endpoints[e.name] = ep;
    }
    endpoints.listShape = endpoints.list;
    for (const name of ['detail', 'list', 'listShape', 'create', 'update', 'partialUpdate', 'delete']) {
      Object.defineProperty(entity, name, { value: () => endpoints[name] });
    }
    return entity;
  }

  // removeCursorAdapter adapts data-client's removeCursor(...args), which
  // returns the args without the cursor ([params], or [] for none), to
  // the params JSON in and out that Go calls (jsbridge/endpoint.go).
  function removeCursorAdapter(fn, ep) {
    const where = `${ep.name}: paginated: removeCursor`;
    return (params) => {
      const out = synchronous(fn.call(ep, parse(params)), where);
      if (!Array.isArray(out)) throw ownError(new TypeError(`${where} must return the args as an array ([params]), got ${show(out)}`));
      if (out[0] !== undefined && !isPlainObject(out[0]))
        throw ownError(new TypeError(`${where} must return [params] with params an object, got ${show(out[0])}`));
      return jsonText(out[0] ?? {}, `${where} result`);
    };
  }

  // paramsText encodes the params of a call (named by call) to endpoint.
  function paramsText(params, call, endpoint) {
    return jsonText(params, `${call} ${endpoint.name}: params`);
  }

  return { endpointHandle, paramsText, Resource, engine: ours };
}
