// Persistence (docs/js-api.md, "Snapshots, hydration and persistence"):
// df.persist keeps a controller's snapshot in a storage and restores it;
// df.indexedDBStorage is the IndexedDB storage browsers use by default.
// The policy (the stored envelope, which stored snapshot is taken, when to
// write) is Go's, core/persist, shared with Go front ends: this module
// reads the storage, and gives Go the writes and the timer.

import { controllerInternals } from './controller.mjs';
import { MAX_TIMER_MS, show } from './values.mjs';

// The defaults of persist's options.
const DEFAULT_KEY = 'datafetch';
const DEFAULT_THROTTLE_MS = 1000;
const DEFAULT_MAX_AGE_MS = 86_400_000;
// How Infinity (no timer, no age limit) goes to Go; a longer time is
// taken as a century, where Go's durations are exact.
const NONE = -1;
const CENTURY_MS = 100 * 365 * 86_400_000;

// IndexedDB: one object store of string values by key.
const IDB_DEFAULT_NAME = 'datafetch';
const IDB_STORE = 'kv';
const IDB_VERSION = 1;

// makePersist returns persist and indexedDBStorage over bridge.
export function makePersist(bridge) {
  const { calls } = bridge;

  async function persist(ctrl, options) {
    const inner = controllerInternals.get(ctrl);
    if (inner === undefined) throw new TypeError(`persist: expected a Controller, got ${show(ctrl)}`);
    const { storage, key, throttle, maxAge, buster, schedule } = persistOptions(options);
    const where = `persist: ${storageName(storage)} "${key}"`;
    const failed = (what, err) => new Error(`${where}: ${what} failed: ${err?.message ?? String(err)}`, { cause: err });

    let raw;
    try {
      raw = await storage.getItem(key);
    } catch (err) {
      throw failed('getItem', err);
    }
    if (raw !== null && raw !== undefined && typeof raw !== 'string') {
      throw new Error(`${where}: the stored value is ${show(raw)}, not a datafetch snapshot (text)`);
    }

    // What Go calls: save the text (answering with persistSaved), arm the
    // timer, report a failed write nothing waited for.
    let handle;
    const io = {
      save(text) {
        let done;
        try {
          done = Promise.resolve(storage.setItem(key, text));
        } catch (err) {
          done = Promise.reject(err);
        }
        done.then(
          () => calls.persistSaved(handle, undefined),
          (err) => calls.persistSaved(handle, failed('setItem', err)),
        );
      },
      schedule: (ms) => schedule(() => calls.persistFire(handle), Math.min(ms, MAX_TIMER_MS)),
      report: (err) => console.error(err),
    };
    const ms = (v) => (v === Infinity ? NONE : Math.min(v, CENTURY_MS));
    let dropped;
    try {
      [handle, dropped] = calls.persistStart(inner.handle, raw ?? undefined, io, ms(throttle), ms(maxAge), buster);
    } catch (err) {
      throw new Error(`${where}: ${err.message}`, { cause: err });
    }
    if (dropped) {
      // Written by another build, another buster, or too long ago: the
      // cache starts as it is, and it is not read again.
      try {
        await storage.removeItem(key);
      } catch (err) {
        calls.persistStop(handle);
        throw failed('removeItem', err);
      }
    }

    return {
      // flush writes the snapshot now when it changed since the last write,
      // whatever the throttle, and resolves when it is stored.
      flush: () => new Promise((resolve, reject) => calls.persistFlush(handle, (err) => (err === undefined ? resolve() : reject(err)))),
      // stop ends the writes (call flush first to keep the last changes).
      stop: () => calls.persistStop(handle),
    };
  }

  return { persist, indexedDBStorage };
}

function persistOptions(options) {
  if (options !== undefined && options !== null && typeof options !== 'object') throw new TypeError(`persist: options must be an object, got ${show(options)}`);
  const {
    storage = defaultStorage(),
    key = DEFAULT_KEY,
    throttle = DEFAULT_THROTTLE_MS,
    maxAge = DEFAULT_MAX_AGE_MS,
    buster = '',
    schedule = defaultSchedule,
  } = options ?? {};
  for (const method of ['getItem', 'setItem', 'removeItem']) {
    if (typeof storage?.[method] !== 'function')
      throw new TypeError(`persist: storage must have getItem, setItem and removeItem methods, got ${show(storage)}`);
  }
  if (typeof key !== 'string' || key === '') throw new TypeError(`persist: key must be a non-empty string, got ${show(key)}`);
  for (const [name, v] of Object.entries({ throttle, maxAge })) {
    if (typeof v !== 'number' || !(v >= 0)) throw new TypeError(`persist: ${name} must be a number of milliseconds, got ${show(v)}`);
  }
  if (typeof buster !== 'string') throw new TypeError(`persist: buster must be a string, got ${show(buster)}`);
  if (typeof schedule !== 'function') throw new TypeError(`persist: schedule must be a function, got ${show(schedule)}`);
  return { storage, key, throttle, maxAge, buster, schedule };
}

function defaultStorage() {
  if (typeof indexedDB === 'undefined') throw new TypeError('persist: no storage given, and there is no IndexedDB here (pass {storage})');
  return indexedDBStorage();
}

// defaultSchedule runs fn after ms on a timer that does not keep Node
// running, and returns its cancel function.
function defaultSchedule(fn, ms) {
  const t = setTimeout(fn, ms);
  t?.unref?.();
  return () => clearTimeout(t);
}

// storageName names a storage in messages: its class ("Storage" for
// localStorage), or "storage".
function storageName(storage) {
  const name = Object.getPrototypeOf(storage)?.constructor?.name;
  return name && name !== 'Object' ? name : 'storage';
}

// IndexedDBStorage keeps string values by key in an IndexedDB database.
class IndexedDBStorage {
  #name;
  #db;

  constructor(name) {
    this.#name = name;
  }

  #open() {
    this.#db ??= new Promise((resolve, reject) => {
      const req = indexedDB.open(this.#name, IDB_VERSION);
      req.onupgradeneeded = () => req.result.createObjectStore(IDB_STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(new Error(`indexedDB "${this.#name}": blocked by another connection`));
    }).catch((err) => {
      this.#db = undefined; // the next call tries again
      throw err;
    });
    return this.#db;
  }

  async #run(mode, op) {
    const db = await this.#open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(IDB_STORE, mode);
      const req = op(tx.objectStore(IDB_STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? req.error);
      tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
    });
  }

  async getItem(key) {
    return (await this.#run('readonly', (s) => s.get(key))) ?? null;
  }

  async setItem(key, value) {
    await this.#run('readwrite', (s) => s.put(value, key));
  }

  async removeItem(key) {
    await this.#run('readwrite', (s) => s.delete(key));
  }
}

// indexedDBStorage returns a storage over the IndexedDB database dbName.
export function indexedDBStorage(dbName = IDB_DEFAULT_NAME) {
  if (typeof dbName !== 'string' || dbName === '') throw new TypeError(`indexedDBStorage: dbName must be a non-empty string, got ${show(dbName)}`);
  if (typeof indexedDB === 'undefined') throw new TypeError('indexedDBStorage: there is no IndexedDB here');
  return new IndexedDBStorage(dbName);
}
