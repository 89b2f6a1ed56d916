// Endpoints: RestEndpoint, resource() and the legacy Resource, whose
// options are split into what crosses to Go as JSON and the callbacks Go
// calls (adapted to take and give JSON text).

import { AbortOptimistic, ours } from './errors.mjs';
import { SCHEMA_NONE } from './protocol.mjs';
import { CollectionSchema, InvalidateSchema, isEntity } from './schemas.mjs';
import { RETRY_NONE, retryCount, retryDelayAdapter } from './retry.mjs';
import { bodyFrom, checkJSON, duration, headerPairs, isPlainObject, jsonText, parse, sendsAsJSON, show, synchronous } from './values.mjs';

const FUNCTION_OPTIONS = new Set(['getHeaders', 'getRequestInit', 'fetch', 'parseResponse', 'process', 'getOptimisticResponse', 'update', 'retryDelay']);
const DURATION_OPTIONS = new Set(['dataExpiryLength', 'errorExpiryLength', 'pollFrequency', 'timeout']);
// Expiry lengths may be Infinity: never stale, an error kept until invalidated.
const EXPIRY_OPTIONS = new Set(['dataExpiryLength', 'errorExpiryLength']);
// Options that would hide the endpoint's methods are not copied onto it.
const METHODS = new Set(['url', 'key', 'extend', 'paginated', 'constructor']);
// The endpoints a Collection (or paginationField) derives, made by Go on
// first use (jsbridge/collection.go): name, method.
const COLLECTION_ENDPOINTS = [
  ['push', 'POST'],
  ['unshift', 'POST'],
  ['remove', 'PATCH'],
  ['assign', 'POST'],
  ['getPage', undefined],
];
for (const [name] of COLLECTION_ENDPOINTS) METHODS.add(name);

// makeEndpoints returns the endpoint half of an API instance over bridge
// (see makeBridge) and schemas (see makeSchemas).
export function makeEndpoints(bridge, schemas) {
  const { call, hold, endpointRefs, exported } = bridge;
  const { Entity, schemaHandle } = schemas;

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
        json.schema = v === undefined ? SCHEMA_NONE : schemaHandle(v, `${where}: schema`);
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
      } else if (name === 'invalidIfStale') {
        json.invalidIfStale = !!v;
      } else if (name === 'paginationField') {
        if (v !== undefined && (typeof v !== 'string' || v === '')) throw new TypeError(`${where}: paginationField must be a param name, got ${show(v)}`);
        json.paginationField = v ?? '';
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
      case 'retryDelay':
        return retryDelayAdapter((attempt, err) => fn.call(self(), attempt, err), hook);
      case 'update':
        return (pks, params) => {
          const updates = synchronous(fn.call(self(), parse(pks), parse(params)), hook()) ?? {};
          const keys = Object.keys(updates);
          const fs = keys.map((k) => updates[k]);
          for (let i = 0; i < keys.length; i++) {
            if (typeof fs[i] !== 'function') throw ours(new TypeError(`${hook()}: the update for ${keys[i]} must be a function, got ${show(fs[i])}`));
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

  function endpointHandle(endpoint) {
    if (!(endpoint instanceof RestEndpoint)) throw ours(new TypeError(`expected an endpoint (df.RestEndpoint), got ${show(endpoint)}`));
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
      const p = paramsText(params, 'url', this);
      return exported()?.url(this._h, p) ?? call('endpointURL', this._h, p);
    }

    /** The store key for params. */
    key(params) {
      const p = paramsText(params, 'key', this);
      return exported()?.key(this._h, p) ?? call('endpointKey', this._h, p);
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

  // Collection endpoints: getters on every endpoint, undefined where the
  // endpoint has none (no Collection in its schema, a list's assign, no
  // paginationField), made once per endpoint.
  const derived = new WeakMap();
  for (const [name, method] of COLLECTION_ENDPOINTS) {
    Object.defineProperty(RestEndpoint.prototype, name, {
      configurable: true,
      get() {
        if (this._h === undefined) return undefined; // the prototype itself
        let made = derived.get(this);
        if (made === undefined) derived.set(this, (made = {}));
        if (!(name in made)) {
          const h = call('endpointCollection', this._h, name);
          const { paginationField, ...base } = this._options;
          const options = method === undefined ? this._options : { ...base, method, name: `${this.name}.${name}` };
          made[name] = h === 0 ? undefined : wrapEndpoint(h, options, {});
        }
        return made[name];
      },
    });
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

  // resourceSchema is the schema of a built-in resource endpoint (as
  // JavaScript shows it: Go makes its own). getList's is a Collection.
  const listSchemas = new WeakMap();
  function resourceSchema(entity, name) {
    if (name === 'getList') return listSchemas.get(entity) ?? listSchemas.set(entity, new CollectionSchema([entity])).get(entity);
    if (name === 'list') return [entity];
    if (name === 'delete') return new InvalidateSchema(entity);
    return entity;
  }

  function resource(options) {
    if (!options || typeof options !== 'object') throw new TypeError(`resource: options must be an object with path and schema, got ${show(options)}`);
    const { schema } = options;
    if (!isEntity(schema)) throw new TypeError(`resource ${options.path}: schema must be an Entity, got ${show(schema)}`);
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

  // paramsText encodes the params of a call (named by call) to endpoint.
  function paramsText(params, call, endpoint) {
    return jsonText(params, `${call} ${endpoint.name}: params`);
  }

  return { RestEndpoint, endpointHandle, paramsText, resource, Resource };
}
