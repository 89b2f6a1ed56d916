// Controller, as the package exports it at module top level: made before
// datafetch.wasm is loaded as well as after. Once load() has resolved, new
// Controller(options) is the loaded instance's controller itself; before,
// it is a PendingController, which starts load() (with its default
// source) when nobody has, and acts on the controller it makes once the
// module is in: asynchronous calls wait for it, synchronous reads answer
// that nothing is stored yet, subscriptions are told so and then follow
// the real one.

import { HOLD, LISTEN } from './controller.mjs';
import { load, loadedAPI } from './load.mjs';
import { show } from './values.mjs';

// What a read answers before the module is in: nothing is stored.
const MISSING = Object.freeze({ data: undefined, expiryStatus: 'missing', expiresAt: 0 });

// The methods that return a Promise, which a pending controller answers
// once its controller exists.
const ASYNC_METHODS = [
  'useSuspense',
  'fetch',
  'fetchIfStale',
  'invalidate',
  'invalidateAll',
  'expireAll',
  'resetEntireStore',
  'setResponse',
  'setError',
  'revalidateActive',
  'hydrate',
];

/** A controller made before datafetch.wasm is loaded (see above). */
export class PendingController {
  static {
    for (const name of ASYNC_METHODS) {
      Object.defineProperty(PendingController.prototype, name, {
        configurable: true,
        writable: true,
        value(...args) {
          return this.#later((inner) => inner[name](...args));
        },
      });
    }
  }

  #inner;
  #error;
  #closed = false;
  // #waiting holds what was asked of the controller before it existed and
  // must follow it: subscriptions and listeners, as functions of it.
  #waiting = new Set();

  constructor(options) {
    if (options !== undefined && options !== null && typeof options !== 'object') {
      throw new TypeError(`Controller: options must be an object, got ${show(options)}`);
    }
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

  subscribe(endpoint, params, listener, options) {
    if (this.#inner !== undefined) return this.#inner.subscribe(endpoint, params, listener, options);
    if (typeof listener !== 'function') throw new TypeError(`subscribe ${endpoint?.name}: listener must be a function, got ${show(listener)}`);
    listener({ data: undefined, loading: options?.fetch !== false && params !== null, error: undefined });
    return this.#follow((inner) => inner.subscribe(endpoint, params, listener, options));
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
