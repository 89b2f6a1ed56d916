// Controller, as the package exports it at module top level: made before
// datafetch.wasm is loaded as well as after. Once load() has resolved, new
// Controller(options) is the loaded instance's controller itself; before,
// it is a PendingController, which starts load() (with its default
// source) when nobody has, and acts on the controller it makes once the
// module is in: asynchronous calls wait for it, synchronous reads answer
// that nothing is stored yet, subscriptions are told so and then follow
// the real one. A read that would fetch (useSuspense, fetchIfStale, fetch
// of a GET, subscribe) sends its request at once when prestart.mjs can
// (a plain GET endpoint, a controller with no fetch option or
// initialState): the loaded controller then takes that Response rather
// than fetching again.

import { HOLD, LISTEN } from './controller.mjs';
import { load, loadedAPI } from './load.mjs';
import { prestart, prestartRead } from './prestart.mjs';
import { show } from './values.mjs';

// EARLY names the PendingController method the React hooks call for a
// read they suspend on while the module loads (see PendingController's
// [EARLY]). A registered symbol, as controller.mjs's LISTEN.
export const EARLY = Symbol.for('datafetch.controller.early');

// What a read answers before the module is in: nothing is stored.
const MISSING = Object.freeze({ data: undefined, expiryStatus: 'missing', expiresAt: 0 });

// The methods that return a Promise, which a pending controller answers
// once its controller exists; READS are those that may fetch (with fetch,
// only when it has no body).
const READS = new Set(['useSuspense', 'fetch', 'fetchIfStale']);
const ASYNC_METHODS = [
  ...READS,
  'invalidate',
  'invalidateAll',
  'expireAll',
  'resetEntireStore',
  'setResponse',
  'setError',
  'set',
  'revalidateActive',
  'hydrate',
];

/** A controller made before datafetch.wasm is loaded (see above). */
export class PendingController {
  static {
    for (const name of ASYNC_METHODS) {
      const read = READS.has(name);
      Object.defineProperty(PendingController.prototype, name, {
        configurable: true,
        writable: true,
        value(...args) {
          // A read's request starts now (when it can); the read asked of
          // the controller once it exists takes it.
          const started = read && args.length <= 2 ? this.#prestart(args[0], args[1]) : undefined;
          const answer = this.#later((inner) => inner[name](...args));
          if (started === undefined) return answer;
          return answer.then(
            (v) => {
              started.release();
              return v;
            },
            (err) => {
              started.release();
              throw err;
            },
          );
        },
      });
    }
  }

  #inner;
  #error;
  #closed = false;
  // #early: whether reads may be pre-started (prestart.mjs): not when the
  // controller's requests go through a fetch option (which a pre-started
  // request would bypass) or it starts with stored data.
  #early;
  // #waiting holds what was asked of the controller before it existed and
  // must follow it: subscriptions and listeners, as functions of it.
  #waiting = new Set();

  constructor(options) {
    if (options !== undefined && options !== null && typeof options !== 'object') {
      throw new TypeError(`Controller: options must be an object, got ${show(options)}`);
    }
    this.#early = options?.fetch === undefined && options?.initialState === undefined;
    /** Resolves to the controller once the module is loaded. */
    this.ready = load().then(
      (api) => {
        const inner = new api.Controller(options ?? undefined);
        this.#inner = inner;
        if (this.#closed) inner.close();
        for (const start of this.#waiting) start(inner);
        this.#waiting.clear();
        return inner;
      },
      (err) => {
        this.#error = err;
        throw err;
      },
    );
    // The rejection is the callers' to see (each call rejects with it).
    this.ready.catch(() => undefined);
  }

  /** The controller, once loaded; undefined before. */
  get loaded() {
    return this.#inner;
  }

  /** Why loading failed; undefined unless it has. */
  get failed() {
    return this.#error;
  }

  // #prestarts tells whether a read's request may start now (see
  // prestart.mjs): the controller does not exist yet, and would fetch as
  // the pre-started request does.
  #prestarts() {
    return this.#early && this.#inner === undefined && this.#error === undefined;
  }

  // #prestart starts the request of a read of endpoint with params, if it
  // can: {release, fresh} (see prestart), else undefined.
  #prestart(endpoint, params) {
    return this.#prestarts() ? prestart(endpoint, params) : undefined;
  }

  /**
   * [EARLY](endpoint, params) is a read the caller is about to wait for
   * (the React hooks, suspending until the controller exists): its request
   * starts now when it can, and the controller, once made, fetches it if
   * stale (taking that request) without waiting for the caller to ask.
   */
  [EARLY](endpoint, params) {
    if (this.#prestarts()) prestartRead(endpoint, params, () => this.#later((inner) => inner.fetchIfStale(endpoint, params)));
  }

  #later(fn) {
    if (this.#error !== undefined) return Promise.reject(this.#error);
    return this.#inner !== undefined ? fn(this.#inner) : this.ready.then(fn);
  }

  // #follow runs start(controller) now or once the controller exists, and
  // returns the function that stops what start started (or that it ever
  // does).
  #follow(start) {
    if (this.#inner !== undefined) return start(this.#inner);
    let stop;
    let stopped = false;
    const run = (inner) => {
      if (!stopped) stop = start(inner);
    };
    this.#waiting.add(run);
    return () => {
      stopped = true;
      this.#waiting.delete(run);
      stop?.();
    };
  }

  getResponse(endpoint, params) {
    return this.#inner !== undefined ? this.#inner.getResponse(endpoint, params) : MISSING;
  }

  get(schema, ...args) {
    return this.#inner?.get(schema, ...args);
  }

  getResponseMeta(endpoint, params, state) {
    return this.#inner !== undefined ? this.#inner.getResponseMeta(endpoint, params, state) : MISSING;
  }

  getQueryMeta(schema, ...args) {
    return { data: this.get(schema, ...args) };
  }

  snapshot(state, fetchedAt) {
    if (this.#inner === undefined) throw new Error('Controller: snapshot() needs datafetch.wasm: await controller.ready (or load()) first');
    return this.#inner.snapshot(state, fetchedAt);
  }

  subscribe(endpoint, params, listener, options) {
    if (this.#inner !== undefined) return this.#inner.subscribe(endpoint, params, listener, options);
    if (typeof listener !== 'function') throw new TypeError(`subscribe ${endpoint?.name}: listener must be a function, got ${show(listener)}`);
    const fetches = options?.fetch !== false && params !== null;
    listener({ data: undefined, loading: fetches, error: undefined });
    const stop = this.#follow((inner) => inner.subscribe(endpoint, params, listener, options));
    if (!fetches) return stop;
    // The request starts after this call, so that a subscription stopped
    // at once starts none; it is released when the controller's fetch of
    // the result (which joins the subscription's) settles, or when the
    // subscription stops first.
    let stopped = false;
    let started;
    queueMicrotask(() => {
      if (stopped) return;
      started = this.#prestart(endpoint, params);
      if (started === undefined) return;
      this.#later((inner) => (stopped ? undefined : inner.fetchIfStale(endpoint, params))).then(started.release, started.release);
    });
    return () => {
      stopped = true;
      started?.release();
      stop();
    };
  }

  getState() {
    if (this.#inner === undefined) throw new Error('Controller: getState() needs datafetch.wasm: await controller.ready (or load()) first');
    return this.#inner.getState();
  }

  gc() {
    return this.#inner?.gc() ?? { results: 0, entities: 0 };
  }

  close() {
    this.#closed = true;
    this.#inner?.close();
  }

  [LISTEN](fn) {
    return this.#follow((inner) => inner[LISTEN](fn));
  }

  [HOLD](schema, ...args) {
    return this.#follow((inner) => inner[HOLD](schema, ...args));
  }
}

/**
 * The Controller of the package's top level: the loaded instance's
 * controller when datafetch.wasm is loaded, a PendingController before.
 * Either is an instance of it.
 */
export class Controller {
  constructor(options) {
    const api = loadedAPI();
    // biome-ignore lint/correctness/noConstructorReturn: a controller made after loading is the engine's own
    return api !== undefined ? new api.Controller(options) : new PendingController(options);
  }

  static [Symbol.hasInstance](x) {
    return x instanceof PendingController || (x !== null && typeof x === 'object' && loadedAPI() !== undefined && x instanceof loadedAPI().Controller);
  }
}
