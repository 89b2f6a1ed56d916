// Managers (docs/js-api.md, "Managers"): data-client's way to add
// behaviour to a controller from outside it. A manager is an object with
// cleanup() and, optionally, middleware (or getMiddleware()) and
// init(state). Its middleware, (controller) => (next) => (action) =>
// Promise, sees each action the controller dispatches: it may pass it on
// (next(action)), change it, hold it, drop it, or dispatch others
// (controller.dispatch). The end of the chain does what the action says.
//
// A controller made with managers turns its write methods into actions:
// fetch, set, setResponse, setError, invalidate, invalidateAll, expireAll,
// resetEntireStore and gc are dispatched, and do their work when the
// action reaches the end of the chain. subscribe is done at once and then
// dispatched (as unsubscribing is), for managers to follow: it returns
// its unsubscribe function synchronously. A controller without managers
// dispatches nothing: its calls go straight to the engine.

import { show } from './values.mjs';

/** The types of the actions, as data-client names them. */
export const actionTypes = Object.freeze({
  FETCH: 'rdc/fetch',
  SET: 'rdc/set',
  SET_RESPONSE: 'rdc/setresponse',
  RESET: 'rdc/reset',
  SUBSCRIBE: 'rdc/subscribe',
  UNSUBSCRIBE: 'rdc/unsubscribe',
  INVALIDATE: 'rdc/invalidate',
  INVALIDATEALL: 'rdc/invalidateall',
  EXPIREALL: 'rdc/expireall',
  GC: 'rdc/gc',
});

const T = actionTypes;

/**
 * MANAGE is the Controller method that starts managers on it and returns
 * the function that stops them: what the constructor does with its
 * managers option, and what <DataProvider managers> does from an effect
 * (so that a render React throws away, as StrictMode's second one, starts
 * nothing).
 */
export const MANAGE = Symbol.for('datafetch.controller.manage');

/**
 * getDefaultManagers returns the managers every controller should have.
 * datafetch's own policies (requests, subscriptions and polling, garbage
 * collection, retries) run in its engine, not as managers, so the list is
 * empty: it is here so that data-client code that spreads it works.
 */
export function getDefaultManagers() {
  return [];
}

/**
 * checkManagers validates the managers option and returns it (an array),
 * or undefined when there are none.
 */
export function checkManagers(managers) {
  if (managers === undefined || managers === null) return undefined;
  if (!Array.isArray(managers)) throw new TypeError(`Controller: managers must be an array of managers, got ${show(managers)}`);
  managers.forEach((m, i) => {
    const where = `Controller: managers[${i}]`;
    if (m === null || typeof m !== 'object') throw new TypeError(`${where} must be a manager (an object with cleanup()), got ${show(m)}`);
    if (typeof m.cleanup !== 'function') throw new TypeError(`${where}: cleanup must be a function, got ${show(m.cleanup)}`);
    const mw = middlewareOf(m);
    if (mw !== undefined && typeof mw !== 'function') throw new TypeError(`${where}: middleware must be a function, got ${show(mw)}`);
    if (m.init !== undefined && typeof m.init !== 'function') throw new TypeError(`${where}: init must be a function, got ${show(m.init)}`);
  });
  return managers.length > 0 ? managers : undefined;
}

function middlewareOf(m) {
  return m.middleware ?? (typeof m.getMiddleware === 'function' ? m.getMiddleware() : undefined);
}

/**
 * installManagers makes ctrl dispatch its writes through the managers'
 * middleware (proto holds the methods that do the work), starts the
 * managers (init with the state) and returns the function that stops them
 * (cleanup), for close().
 */
export function installManagers(ctrl, managers, proto, clock) {
  const perform = (action) => performAction(ctrl, proto, action);
  const chain = managers
    .map(middlewareOf)
    .filter((mw) => mw !== undefined)
    .reduceRight((next, mw) => mw(ctrl)(next), perform);
  const dispatch = (action) => {
    try {
      return Promise.resolve(chain(action));
    } catch (err) {
      return Promise.reject(err);
    }
  };
  const meta = () => {
    const now = clock();
    return { fetchedAt: now, date: now, expiresAt: now };
  };
  const defined = [];
  const define = (name, fn) => {
    defined.push(name);
    Object.defineProperty(ctrl, name, { value: fn, writable: true, configurable: true });
  };
  define('dispatch', dispatch);
  define('fetch', (endpoint, params, body) => {
    let key;
    try {
      key = endpoint.key(params);
    } catch (err) {
      return Promise.reject(err);
    }
    let resolve;
    let reject;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const args = body === undefined ? [params] : [params, body];
    dispatch({ type: T.FETCH, endpoint, args, key, meta: { fetchedAt: clock(), resolve, reject, promise } }).catch(reject);
    return promise;
  });
  define('set', (schema, ...argsAndValue) => {
    const value = argsAndValue[argsAndValue.length - 1];
    return dispatch({ type: T.SET, schema, args: argsAndValue.slice(0, -1), value, meta: meta() });
  });
  const setResponse = (error) => (endpoint, params, response) =>
    keyed(endpoint, params).then((key) => dispatch({ type: T.SET_RESPONSE, endpoint, args: [params], key, response, error, meta: meta() }));
  define('setResponse', setResponse(false));
  define('setError', setResponse(true));
  define('invalidate', (endpoint, params) => keyed(endpoint, params).then((key) => dispatch({ type: T.INVALIDATE, endpoint, args: [params], key })));
  define('invalidateAll', (testKey) => dispatch({ type: T.INVALIDATEALL, testKey }));
  define('expireAll', (testKey) => dispatch({ type: T.EXPIREALL, testKey }));
  define('resetEntireStore', () => dispatch({ type: T.RESET, date: clock() }));
  define('gc', () => dispatch({ type: T.GC }));
  define('subscribe', (endpoint, params, listener, options) => {
    const stop = proto.subscribe.call(ctrl, endpoint, params, listener, options);
    const action = (type) => ({ type, endpoint, args: [params], key: endpoint.key(params) });
    dispatch(action(T.SUBSCRIBE)).catch(report);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      stop();
      dispatch(action(T.UNSUBSCRIBE)).catch(report);
    };
  });
  const state = ctrl.getState();
  for (const m of managers) m.init?.(state);
  return () => {
    for (const name of defined) delete ctrl[name];
    for (const m of managers) m.cleanup();
  };
}

function keyed(endpoint, params) {
  try {
    return Promise.resolve(endpoint.key(params));
  } catch (err) {
    return Promise.reject(err);
  }
}

// An action no caller waits for that failed (a subscription's): reported,
// as an uncaught error would be.
function report(err) {
  console.error(err);
}

// performAction does what action says, with the controller's own methods:
// the end of the middleware chain.
function performAction(ctrl, proto, action) {
  switch (action?.type) {
    case T.FETCH: {
      const { endpoint, args, meta } = action;
      const p = proto.fetch.call(ctrl, endpoint, ...args);
      p.then(meta?.resolve, meta?.reject);
      return p.then(
        () => undefined,
        () => undefined,
      );
    }
    case T.SET:
      return proto.set.call(ctrl, action.schema, ...action.args, action.value);
    case T.SET_RESPONSE:
      return (action.error ? proto.setError : proto.setResponse).call(ctrl, action.endpoint, action.args[0], action.response);
    case T.INVALIDATE:
      return proto.invalidate.call(ctrl, action.endpoint, action.args[0]);
    case T.INVALIDATEALL:
      return proto.invalidateAll.call(ctrl, action.testKey);
    case T.EXPIREALL:
      return proto.expireAll.call(ctrl, action.testKey);
    case T.RESET:
      return proto.resetEntireStore.call(ctrl);
    case T.GC:
      return proto.gc.call(ctrl);
    case T.SUBSCRIBE:
    case T.UNSUBSCRIBE:
      // Done before they were dispatched: managers only follow them.
      return undefined;
  }
  throw new TypeError(`dispatch: ${show(action)} is not an action this controller knows`);
}
