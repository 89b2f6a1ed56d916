// Requests that start before datafetch.wasm is ready (docs/js-api.md, "The
// Controller"). A read asked of a controller while the module is still
// loading (a PendingController's useSuspense, fetchIfStale, fetch or
// subscribe; the React hooks' first suspend) would wait for the module
// before its request went out. For a plain GET endpoint, this module sends
// the request at once, from JavaScript, with the URL computed by a port of
// the engine's URL rules (core/rest/url.go) for the cases it can follow;
// when the engine is up and makes a request with the same URL and a plain
// GET init, the transport (transport.mjs) hands Go the Response already on
// its way instead of fetching again.
//
// Whatever this module cannot follow exactly is not pre-started: an
// endpoint whose request a function option may change (getRequestInit,
// getHeaders, fetch, body, signal, an overridden url), any method but GET,
// params the engine would refuse. A URL that differed from Go's would only
// cost a second request, never wrong data: a pre-started Response is used
// only for a request to that very URL, once, and only while a read that
// asked for it is still waiting (see prestart's release).

import { RestEndpoint, recipeOf } from './endpoints.mjs';
import { fillPath, isFullURL, parsePath, queryString } from './paths.mjs';
import { jsonText } from './values.mjs';

// ---------------------------------------------------------------- URLs

/**
 * requestURL returns the URL the engine would request for endpoint and
 * params (endpoint.url(params), computed here with no engine), or
 * undefined when this port does not follow the case exactly or the
 * engine would refuse it.
 */
export function requestURL(endpoint, params) {
  const { urlPrefix = '', path } = endpoint;
  if (typeof urlPrefix !== 'string' || typeof path !== 'string' || (path === '' && urlPrefix === '')) return undefined;
  if (isFullURL(path) ? urlPrefix !== '' : path !== '' && path[0] !== '/') return undefined;
  if (urlPrefix !== '' && urlPrefix[0] !== '/' && !isFullURL(urlPrefix)) return undefined;
  let values;
  try {
    // The params as the engine gets them: their JSON.
    const text = jsonText(params, '');
    values = text === '' ? {} : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (values === null) values = {};
  if (typeof values !== 'object' || Array.isArray(values)) return undefined;
  const template = parsePath(path);
  if (template === undefined) return undefined;
  const head = fillPath(urlPrefix, template, values);
  if (head === undefined) return undefined;
  const query = queryString(values, template.tokens);
  if (query === undefined) return undefined;
  if (query === '') return head;
  return head + (template.query ? '&' : '?') + query;
}

// ---------------------------------------------------------------- requests

// The request init of a plain GET, as Go describes it to the transport.
const GET = 'GET';
// The members of such an init: any other (a body, getRequestInit's extra
// members) makes a request the pre-started one is not.
const PLAIN_INIT = new Set(['method', 'headers', 'signal']);

// The function options that change the request, and the members that must
// be RestEndpoint's own: an endpoint with any of them is not pre-started.
const REQUEST_OPTIONS = ['body', 'signal'];
const REQUEST_METHODS = ['getRequestInit', 'getHeaders', 'url', 'fetch'];

// started holds the requests in flight that no request of the engine has
// taken yet, by URL: {response, body, ac, holders}.
const started = new Map();

// The first visit of a page spends its time waiting for datafetch.wasm,
// then running it: the answer to a pre-started request is in long before
// the engine asks for it. So the body of a JSON success is read as soon
// as it arrives (body, a Promise of its bytes), and the engine, when it
// takes the request, gets the bytes at once rather than reading them then
// (test/bench/README.md, "Start sooner"). A success that is not JSON, or
// an error status, is left for the transport, which reads it from a clone
// (so that NetworkError.response keeps its body). So is the answer of an
// endpoint whose parseResponse reads the Response itself (keepsBody).

/**
 * prestart starts the request of a read of endpoint with params, unless
 * one to that URL is started already (then it joins it), and returns
 * {release, fresh}: release (call it once) says the read no longer needs
 * it, as when the read it was started for has settled; when no read needs
 * it any more and the engine has not taken it, it is aborted and
 * forgotten, so that a later fetch never gets an old Response. fresh tells
 * whether this call started it. Returns undefined when the read is not
 * one this module pre-starts. Never throws: a read it cannot start is the
 * controller's to run (and to refuse).
 */
export function prestart(endpoint, params) {
  let url;
  try {
    if (params === null || !isPlainGET(endpoint)) return undefined;
    url = requestURL(endpoint, params);
  } catch {
    return undefined;
  }
  if (url === undefined) return undefined;
  let entry = started.get(url);
  const fresh = entry === undefined;
  if (fresh) {
    const ac = new AbortController();
    let response;
    try {
      response = Promise.resolve(globalThis.fetch(url, { method: GET, headers: {}, signal: ac.signal }));
    } catch {
      return undefined;
    }
    // Its failure is the engine's to see, when it takes it; a failure
    // nobody takes is nobody's.
    response.catch(() => undefined);
    const body = keepsBody(endpoint) ? undefined : response.then(readEarly);
    // As the response's: an abort while the body is read is nobody's.
    body?.catch(() => undefined);
    entry = { response, body, ac, holders: 0 };
    started.set(url, entry);
  }
  entry.holders++;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    entry.holders--;
    if (entry.holders === 0 && started.get(url) === entry) {
      started.delete(url);
      entry.ac.abort();
    }
  };
  return { release, fresh };
}

/**
 * prestartRead is a read the caller is about to wait for while the module
 * loads (the React hooks suspending): its request starts now when it can,
 * and run(), called at once, returns a Promise of the read asked of the
 * controller once it exists (its fetchIfStale, which takes the request);
 * the request is released when that settles. Nothing is done for a read
 * already started by another, which runs it.
 */
export function prestartRead(endpoint, params, run) {
  const started = prestart(endpoint, params);
  if (started === undefined) return;
  if (!started.fresh) {
    started.release();
    return;
  }
  run().then(started.release, started.release);
}

/**
 * takePrestarted returns the pre-started request to url, if any, when init
 * is a plain GET (method GET, no headers, no body, nothing else), and
 * forgets it: it is used once. Aborting init's signal then aborts it. It
 * is {response, body}: the Response promise, and a promise of its body's
 * bytes when the body was read as it arrived (then the Response's own
 * body is used up), of undefined when it was not; body itself is
 * undefined when the body is not read early at all. keepBody (the
 * transport leaves the body for the endpoint's parseResponse) declines a
 * request whose body is read early: the engine then makes its own.
 */
export function takePrestarted(url, init, keepBody = false) {
  if (started.size === 0) return undefined;
  const entry = started.get(url);
  if (entry === undefined || !isPlainInit(init) || (keepBody && entry.body !== undefined)) return undefined;
  started.delete(url);
  const signal = init.signal;
  if (signal !== undefined) {
    if (signal.aborted) entry.ac.abort();
    else signal.addEventListener('abort', () => entry.ac.abort(), { once: true });
  }
  return { response: entry.response, body: entry.body };
}

// readEarly reads the body of response when it is a JSON success (what the
// transport reads without a clone), and returns its bytes; undefined, the
// body untouched, otherwise, and for anything but a Response (a replaced
// globalThis.fetch may answer anything: the transport reports it).
function readEarly(response) {
  if (!(typeof Response === 'function' && response instanceof Response)) return undefined;
  const status = response.status;
  if (!(status >= 200 && status <= 299)) return undefined;
  if (!(response.headers.get('Content-Type') ?? '').toLowerCase().includes('json')) return undefined;
  return response.arrayBuffer().then((b) => new Uint8Array(b));
}

// keepsBody reports whether the engine leaves the body of endpoint's
// answers to a parseResponse: its own, or the default one that a content
// option makes the engine call (endpoints.mjs, optionsOf).
function keepsBody(endpoint) {
  return endpoint.parseResponse !== RestEndpoint.prototype.parseResponse || (endpoint.content !== undefined && endpoint.content !== null);
}

/** How many pre-started requests wait for the engine (for tests). */
export function prestartedCount() {
  return started.size;
}

function isPlainInit(init) {
  if (init?.method !== GET || init.body !== undefined) return false;
  for (const k of Object.keys(init)) if (!PLAIN_INIT.has(k)) return false;
  const h = init.headers;
  return h === undefined || (typeof h === 'object' && h !== null && Object.keys(h).length === 0);
}

// isPlainGET reports whether a read of endpoint sends a GET that nothing
// but its URL and params shape: an endpoint made by RestEndpoint, resource
// or extend (not a paginated or collection one, whose requests the engine
// derives), with no option that changes the request.
function isPlainGET(endpoint) {
  if (!(endpoint instanceof RestEndpoint)) return false;
  const recipe = recipeOf(endpoint);
  if (recipe === undefined || recipe.paginatedOf !== undefined || recipe.collectionOf !== undefined || recipe.handles !== undefined) return false;
  if (endpoint.method !== GET || endpoint.sideEffect) return false;
  for (const name of REQUEST_OPTIONS) if (endpoint[name] !== undefined && endpoint[name] !== null) return false;
  for (const name of REQUEST_METHODS) if (endpoint[name] !== RestEndpoint.prototype[name]) return false;
  return true;
}
