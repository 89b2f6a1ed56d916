// Persistence (docs/js-api.md, "Snapshots, hydration and persistence"):
// df.persist keeps a controller's snapshot in a storage and restores it;
// df.indexedDBStorage is the IndexedDB storage browsers use by default.

import { controllerInternals } from './controller.mjs';
import { MAX_EPOCH_MS, MAX_TIMER_MS, isPlainObject, show } from './values.mjs';

// The defaults of persist's options.
const DEFAULT_KEY = 'datafetch';
const DEFAULT_THROTTLE_MS = 1000;
const DEFAULT_MAX_AGE_MS = 86_400_000;
// The shortest wait between two checks for changes, so that throttle 0
// (write as soon as possible) does not spin.
const MIN_CHECK_MS = 50;

// What is stored under the key: one JSON text, the envelope's fields first
// and the snapshot last, {"datafetch":1,"version":<snapshot version>,
// "savedAt":<ms>,"buster":"…","state":<snapshot>}. Reading it, the header
// is matched and the snapshot's text goes to Go as it is, unparsed here.
const ENVELOPE_VERSION = 1;
const ENVELOPE_HEADER = /^\{"datafetch":(\d+),"version":(\d+),"savedAt":(-?\d+(?:\.\d+)?),"buster":("(?:[^"\\]|\\.)*"),"state":/;

function envelopeHeader(version, savedAt, buster) {
  return `{"datafetch":${ENVELOPE_VERSION},"version":${version},"savedAt":${savedAt},"buster":${JSON.stringify(buster)},"state":`;
}

// IndexedDB: one object store of string values by key.
const IDB_DEFAULT_NAME = 'datafetch';
const IDB_STORE = 'kv';
const IDB_VERSION = 1;

// makePersist returns persist and indexedDBStorage over bridge.
export function makePersist(bridge) {
  const { calls } = bridge;
  let snapshotVersion;

  async function persist(ctrl, options) {
    const inner = controllerInternals.get(ctrl);
    if (inner === undefined) throw new TypeError(`persist: expected a Controller, got ${show(ctrl)}`);
    const opts = persistOptions(options);
    const { storage, key, throttle, maxAge, buster, schedule } = opts;
    const where = `persist: ${storageName(storage)} "${key}"`;
    snapshotVersion ??= calls.snapshotVersion();

    // Whether the controller has been used before: then what it holds is
    // not in the storage yet, and the first check writes it.
    const usedBefore = inner.changes() !== 0;

    // Restore.
    let raw;
    try {
      raw = await storage.getItem(key);
    } catch (err) {
      throw new Error(`${where}: getItem failed: ${err?.message ?? String(err)}`, { cause: err });
    }
    if (raw !== null && raw !== undefined) {
      const stored = readEnvelope(raw, where);
      const age = inner.clock() - stored.savedAt;
      if (stored.envelope !== ENVELOPE_VERSION || stored.version !== snapshotVersion || stored.buster !== buster || !(age <= maxAge)) {
        // Written by another build, another buster, or too long ago:
        // start empty, and do not read it again.
        try {
          await storage.removeItem(key);
        } catch (err) {
          throw new Error(`${where}: removeItem failed: ${err?.message ?? String(err)}`, { cause: err });
        }
      } else {
        try {
          calls.ctrlHydrate(inner.handle, stored.state);
        } catch (err) {
          throw new Error(`${where}: the stored snapshot was refused: ${err.message}`, { cause: err });
        }
      }
    }

    // Write after changes, at most once per throttle ms (by the
    // controller's clock).
    let written = usedBefore ? Number.NaN : inner.changes();
    let writtenAt = Number.NEGATIVE_INFINITY;
    let writing; // the write in flight, if any
    let cancel;
    let stopped = false;

    async function write() {
      const count = inner.changes();
      const at = inner.clock();
      const text = envelopeHeader(snapshotVersion, at, buster) + calls.ctrlSnapshot(inner.handle) + '}';
      try {
        await storage.setItem(key, text);
      } catch (err) {
        throw new Error(`${where}: setItem failed: ${err?.message ?? String(err)}`, { cause: err });
      }
      written = count;
      writtenAt = at;
    }

    // run makes the one write in flight.
    function run() {
      writing = write().finally(() => {
        writing = undefined;
      });
      return writing;
    }

    // arm schedules the next check in ms (at most a timer's longest wait:
    // a longer wait is checked again then). A throttle of Infinity writes
    // only on flush(): nothing is scheduled.
    function arm(ms) {
      if (stopped || throttle === Infinity) return;
      cancel = schedule(check, Math.min(Math.max(ms, MIN_CHECK_MS), MAX_TIMER_MS));
    }

    function check() {
      cancel = undefined;
      if (stopped) return;
      if (writing !== undefined || inner.changes() === written) {
        arm(throttle);
        return;
      }
      const wait = writtenAt + throttle - inner.clock();
      if (wait > 0) {
        arm(wait);
        return;
      }
      run().then(
        () => arm(throttle),
        (err) => {
          // No caller to tell: the next check tries again.
          console.error(err);
          arm(throttle);
        },
      );
    }
    arm(throttle);

    return {
      // flush writes the snapshot now when it changed since the last write,
      // whatever the throttle, and resolves when it is stored.
      async flush() {
        if (writing !== undefined) {
          // A failed write in flight was reported where it started; this
          // flush writes again below.
          await writing.catch(() => undefined);
        }
        if (inner.changes() !== written) await run();
      },
      // stop ends the writes (call flush first to keep the last changes).
      stop() {
        stopped = true;
        cancel?.();
        cancel = undefined;
      },
    };
  }

  // readEnvelope checks what a storage returned under the key.
  function readEnvelope(raw, where) {
    const env = parseEnvelope(raw, where);
    // savedAt is a reading of a controller's clock, which is within a
    // Date's range: beyond it, the snapshot would never be too old.
    if (!(Math.abs(env.savedAt) <= MAX_EPOCH_MS)) {
      throw new Error(`${where}: savedAt: ${env.savedAt} is out of range (a time is epoch milliseconds within ±${MAX_EPOCH_MS})`);
    }
    return env;
  }

  // parseEnvelope reads what a storage returned under the key.
  function parseEnvelope(raw, where) {
    if (typeof raw !== 'string') throw new Error(`${where}: the stored value is ${show(raw)}, not a datafetch snapshot (text)`);
    const m = ENVELOPE_HEADER.exec(raw);
    if (m !== null && raw.endsWith('}')) {
      return { envelope: Number(m[1]), version: Number(m[2]), savedAt: Number(m[3]), buster: JSON.parse(m[4]), state: raw.slice(m[0].length, -1) };
    }
    // Not as persist writes it: read it the slow way, for a clear message.
    let env;
    try {
      env = JSON.parse(raw);
    } catch (err) {
      throw new Error(`${where}: the stored value is not JSON (${err.message})`, { cause: err });
    }
    if (
      !isPlainObject(env) ||
      typeof env.datafetch !== 'number' ||
      typeof env.savedAt !== 'number' ||
      typeof env.buster !== 'string' ||
      !isPlainObject(env.state)
    ) {
      throw new Error(`${where}: the stored value is not a datafetch snapshot (expected {datafetch, version, savedAt, buster, state})`);
    }
    return { envelope: env.datafetch, version: env.version, savedAt: env.savedAt, buster: env.buster, state: JSON.stringify(env.state) };
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
