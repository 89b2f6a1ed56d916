// The errors the API throws: its two public classes, the Error of a
// descriptor Go made (jsbridge/errors.go), and the mark on errors this
// library throws from inside a caller's hook.

/**
 * A request that failed: a response with a status that is not 2xx, a 2xx
 * body that is not JSON (status 400), or no response at all (status 0; the
 * name is AbortError or TimeoutError for an aborted or timed-out request).
 */
export class NetworkError extends Error {
  constructor(response, message) {
    super(message ?? (response ? responseMessage(response) : 'network error'));
    this.name = 'NetworkError';
    this.status = response?.status ?? 0;
    this.statusText = response?.statusText ?? '';
    this.response = response;
  }

  /**
   * What JSON.stringify writes of it (an Error's own members are not
   * enumerable): name, status, message and the request's URL, as
   * data-client's NetworkError has it; body too, when it was JSON.
   */
  toJSON() {
    const json = { name: this.name, status: this.status, message: this.message, url: this.response?.url };
    if (this.body !== undefined) json.body = this.body;
    return json;
  }
}

// responseMessage is the message of a NetworkError made from response
// alone, as data-client words it: the URL, then the status text or, with
// none (HTTP/2 has none), the status.
function responseMessage(response) {
  return `${response.url}: ${response.statusText || `Status not 'ok': ${response.status}`}`;
}

/** Thrown in getOptimisticResponse to apply no optimistic data. */
export class AbortOptimistic extends Error {
  constructor(message = 'optimistic update aborted') {
    super(message);
    this.name = 'AbortOptimistic';
  }
}

// makeError builds the Error of a descriptor made by Go (jsbridge/errors.go).
export function makeError(text, response, cause) {
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
  // How many retries were made before this error (docs/js-api.md 9.2).
  if ('retries' in d) err.retries = d.retries;
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

// OURS marks the errors this module throws from inside a caller's hook
// (its result cannot cross to Go), so that makeError does not take them for
// the caller's own and give the error that reaches the caller their name.
const OURS = Symbol('datafetch error');
export function ours(err) {
  err[OURS] = true;
  return err;
}
