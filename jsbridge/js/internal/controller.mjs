// The Controller (docs/js-api.md, "Controller") and the hook-style functions over a
// default one.

import { BODY_JSON, BODY_NONE, BODY_RAW, START_FETCH, START_FETCH_IF_STALE, START_PREFETCH, START_SUSPENSE } from './protocol.mjs';
import { gcOptions, scheduleGC } from './gc.mjs';
import { LIFECYCLE_FLAGS, listenLifecycle } from './lifecycle.mjs';
import { MANAGE, checkManagers, installManagers } from './managers.mjs';
import { retryCount, retryDelayAdapter } from './retry.mjs';
import { indexLookup, indexed } from './indexes.mjs';
import { queryAnswer, queryPromise, queryRead } from './queryread.mjs';
import { snapshotOf } from './readsnapshot.mjs';
import { QuerySchema, dataText, isQueryable, lazyRead } from './schemas.mjs';
import { deletedAsNull, plainState } from './state.mjs';
import { exactKey } from './argskey.mjs';
import { checkedClock, duration, isPlainObject, jsonText, markedText, refuseInLockedHook, sendsAsJSON, show } from './values.mjs';
import { IdentityTable, NO_VERSION, Reads, UnknownObject, lastRead } from './wire.mjs';

// controllerInternals maps each Controller to what other parts of the
// package (persist.mjs) read of it: {handle, clock(), changes()}, changes
// being the counter that moves whenever something a read sees may have.
export const controllerInternals = new WeakMap();

// snapshotText checks a snapshot (getState's shape) and returns its JSON.
// isStoreState reports whether v is a store state (getState's, or
// data-client's) given as the state to read.
// Its entities and indexes may be ImmutableJS Maps (state.mjs).
function isStoreState(v) {
  return isPlainObject(v) && isPlainObject(plainState(v).entities) && ('endpoints' in v || 'entitiesMeta' in v || 'indexes' in v || 'meta' in v);
}

// FAR_EXPIRY stands for an expiry a state does not give: not stale.
const FAR_EXPIRY = 8.64e15;

// metaOf is a state's meta with the times a snapshot needs.
function metaOf(m) {
  const time = (v, or) => (typeof v === 'number' && Number.isFinite(v) ? v : or);
  const date = time(m?.date, 0);
  return { date, fetchedAt: time(m?.fetchedAt, date), expiresAt: time(m?.expiresAt, FAR_EXPIRY) };
}

function snapshotText(snapshot, where) {
  if (!isPlainObject(snapshot)) throw new TypeError(`${where}: a snapshot must be an object (as getState() returns), got ${show(snapshot)}`);
  // A deleted record may be data-client's INVALID (as normalize gives it).
  const entities = deletedAsNull(snapshot.entities);
  return jsonText(entities === snapshot.entities ? snapshot : { ...snapshot, entities }, where);
}

// The boolean options of subscribe.
const SUBSCRIBE_FLAGS = ['fetch', 'poll'];

/**
 * The expiryStatus values of getResponse, named (data-client's
 * ExpiryStatus names; the values are datafetch's strings, and data that
 * was never stored is Missing, where data-client says Invalid).
 */
export const ExpiryStatus = Object.freeze({ Valid: 'valid', Stale: 'stale', Invalid: 'invalid', Missing: 'missing' });

// LISTEN names the Controller method that calls fn after each change to
// the stored data and returns the function that stops it: what useQuery
// subscribes with. A registered symbol, so that the React bindings find it
// whichever copy of this module made the controller (a bundle may hold one
// of its own).
export const LISTEN = Symbol.for('datafetch.controller.listen');

// NO_DATA, a key of subscribe's options, set true, calls the listener
// with data undefined (still on every change of it): the React bindings
// read the data with getResponse, memoized by store version, and need of
// the subscription only loading, error and when to read again. A
// registered symbol, as LISTEN; a controller that does not know it
// passes the data, which such a reader ignores.
export const NO_DATA = Symbol.for('datafetch.subscribe.noData');

// HOLD names the Controller method that keeps what a read of a queryable
// schema with args reads through garbage collection, until the function
// it returns is called: useQuery holds its query while mounted (a held
// Query or All counts as a holder). A registered symbol, as LISTEN.
export const HOLD = Symbol.for('datafetch.controller.hold');

// RESPONSE names the Controller method the React hooks read a result
// with: [getResponse's answer, whether an error of the result's last fetch
// is kept]. getResponse does not report a kept error; knowing there is
// none spares a render a subscription made only to ask. A registered
// symbol, as LISTEN.
export const RESPONSE = Symbol.for('datafetch.controller.response');

// PREFETCH names the Controller method a hook that renders loading (useDLE)
// starts its fetch with while rendering: fetchIfStale whose Promise
// resolves to undefined, since the hook reads the result from the store
// (the result is not made a second time for the Promise). A registered
// symbol, as LISTEN.
export const PREFETCH = Symbol.for('datafetch.controller.prefetch');

// How many args of one query ctrl.get keeps derived data for; past it,
// that query's memo starts afresh (identity is lost once).
const MAX_QUERY_ARGS = 256;

// How many memos of ctrl.get (one per schema read) are listed before the
// list is rid of those whose schema was collected; the bound doubles with
// what stays.
const MIN_QUERY_MEMOS = 64;

// Where, after the address ctrlChanges gives, Go's exported entries read
// the controller's time for the call (ctrlShared.now in
// jsbridge/controller.go: a float64 of epoch ms, NaN for none).
const SHARED_TIME_OFFSET = 8;

// makeController returns the controller part of an API instance over
// bridge (see makeBridge), endpoints (see makeEndpoints) and schemas (see
// makeSchemas).
export function makeController(bridge, endpoints, schemas) {
  const { calls, startAsync, promised, hold, memory, exported, takeHanded } = bridge;
  const { endpointHandle, paramsText } = endpoints;
  const { schemaHandle } = schemas;

  function encodeBody(body, where) {
    if (body === undefined) return [BODY_NONE, undefined];
    return sendsAsJSON(body, where) ? [BODY_JSON, jsonText(body, where)] : [BODY_RAW, body];
  }

  // stateControllers holds the controllers #of made, by state.
  const stateControllers = new WeakMap();

  // snapshotOfState turns a store state into a snapshot hydrate reads: a
  // state of getState as it is; a data-client state (no version, metas
  // that may be missing) with what is missing filled in, so that its
  // entities (and its results, where their keys are this library's) read.
  function snapshotOfState(state) {
    if (state.version !== undefined) return state;
    const entities = state.entities ?? {};
    const entitiesMeta = {};
    for (const [key, table] of Object.entries(entities)) {
      const metas = state.entitiesMeta?.[key] ?? {};
      entitiesMeta[key] = {};
      // A record that is undefined is none (JSON leaves it out).
      for (const pk of Object.keys(table ?? {})) if (table[pk] !== undefined) entitiesMeta[key][pk] = metaOf(metas[pk]);
    }
    const endpoints = state.endpoints ?? {};
    const meta = {};
    for (const key of Object.keys(endpoints)) meta[key] = metaOf(state.meta?.[key]);
    return { version: calls.snapshotVersion(), entities, entitiesMeta, endpoints, meta };
  }

  // changesOf(ctrl) reads a Controller's change counter (undefined without
  // the module's memory): a static block below sets it, as only the class
  // body sees private fields.
  let changesOf;

  class Controller {
    static {
      changesOf = (ctrl) => ctrl.#reads?.changes();
    }

    constructor(options) {
      if (options !== undefined && options !== null && typeof options !== 'object') {
        throw new TypeError(`Controller: options must be an object, got ${show(options)}`);
      }
      const { fetch, dataExpiryLength, errorExpiryLength, now, retry, retryDelay, initialState } = options ?? {};
      if (fetch !== undefined && typeof fetch !== 'function') throw new TypeError(`Controller: fetch must be a function, got ${show(fetch)}`);
      const lengths = {};
      for (const [name, v] of Object.entries({ dataExpiryLength, errorExpiryLength })) {
        if (v !== undefined) lengths[name] = duration(v, name, 'Controller', true);
      }
      if (retry !== undefined) lengths.retry = retryCount(retry, 'Controller');
      const gc = gcOptions(options?.gc);
      if (gc !== undefined) lengths.gc = { expiryMultiplier: gc.expiryMultiplier };
      if (retryDelay !== undefined && typeof retryDelay !== 'function') {
        throw new TypeError(`Controller: retryDelay must be a function, got ${show(retryDelay)}`);
      }
      for (const name of LIFECYCLE_FLAGS) {
        const v = options?.[name];
        if (v !== undefined && typeof v !== 'boolean') throw new TypeError(`Controller: ${name} must be a boolean, got ${show(v)}`);
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
      const state = initialState === undefined ? undefined : snapshotText(initialState, 'Controller: initialState');
      const managers = checkManagers(options?.managers);
      // This side of the identity table (decode).
      const objs = new IdentityTable();
      const delay = retryDelay && retryDelayAdapter(retryDelay, () => 'Controller: retryDelay');
      hold(this, calls.ctrlNew(JSON.stringify(lengths), fetch, objs, goNow, delay, state));
      this.#stopListening = listenLifecycle(this, options ?? {}, (c) => c.#revalidateInBackground());
      this.#stopGC = gc && scheduleGC(this, gc.interval, (c) => c.gc());
      this.#objs = objs;
      this.#clock = clock;
      const shared = memory && calls.ctrlChanges(this._h);
      this.#reads = memory && new Reads(memory, shared, clock);
      if (memory) {
        this.#timeAddr = shared + SHARED_TIME_OFFSET;
        this.#timeCell = new Float64Array(memory.buffer, this.#timeAddr, 1);
      }
      const reads = this.#reads;
      const changes = reads ? () => reads.changes() : () => calls.ctrlChangeCount(this._h);
      this.#changes = changes;
      controllerInternals.set(this, { handle: this._h, clock, changes });
      if (managers !== undefined) this.#stopManagers = this[MANAGE](managers);
    }

    // #stopManagers stops the managers of the managers option, on close.
    #stopManagers;

    // #of returns a controller holding state (a store state as getState
    // or data-client gives it, plain or ImmutableJS), made once per state object, for reads
    // given a state to read: data-client's get(schema, ...args, state) and
    // getResponse(endpoint, ...args, state).
    #of(given) {
      // Immutable entities and indexes read as plain tables (the same
      // plain state, and so the same controller, for the same state).
      const state = plainState(given);
      let ctrl = stateControllers.get(state);
      if (ctrl === undefined) {
        ctrl = new Controller({ initialState: snapshotOfState(state), now: this.#clock });
        stateControllers.set(state, ctrl);
      }
      return ctrl;
    }

    /**
     * Starts managers on this controller (see managers.mjs) and returns
     * the function that stops them. One set at a time.
     */
    [MANAGE](managers) {
      if (Object.hasOwn(this, 'dispatch')) throw new Error('Controller: managers are running already');
      return installManagers(this, checkManagers(managers) ?? [], Controller.prototype, this.#clock);
    }

    [HOLD](schema, ...args) {
      const read = lazyRead(schema instanceof QuerySchema ? schema.schema : schema);
      if (!isQueryable(read)) throw new TypeError(`hold: ${show(schema)} is not queryable`);
      const h = calls.ctrlHoldQuery(this._h, schemaHandle(read, 'hold: schema'), jsonText(args, 'hold: args'));
      let done = false;
      return () => {
        if (done) return;
        done = true;
        calls.ctrlUnsubscribe(h);
      };
    }

    [LISTEN](fn) {
      if (typeof fn !== 'function') throw new TypeError(`listen: expected a function, got ${show(fn)}`);
      const h = calls.ctrlListen(this._h, fn);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        calls.ctrlUnsubscribe(h);
      };
    }

    #changes;
    // #queries holds, per schema read by get, per args (keyed by exactKey:
    // their JSON text, and what JSON lost, as process sees the args as
    // given), the last read: {changes, input, output}.
    #queries = new WeakMap();
    // #memos lists #queries' maps by WeakRef, for a sweep to go through
    // them (#forgetSwept); #memoBound is when dead ones are taken out.
    #memos = new Set();
    #memoBound = MIN_QUERY_MEMOS;

    // #forgetSwept lets go of the reads ctrl.get kept whose object the
    // identity table no longer holds: Go dropped it because what it read
    // was swept (or is no longer what the read gives), so a next get
    // builds it again and the kept one only holds swept data alive. A read
    // still held keeps its memo: re-read unchanged, it is the same object.
    #forgetSwept() {
      if (this.#memos.size === 0) return;
      const held = new Set(this.#objs.objects);
      for (const ref of this.#memos) {
        const byArgs = ref.deref();
        if (byArgs === undefined) {
          this.#memos.delete(ref);
          continue;
        }
        for (const [key, last] of byArgs) {
          if (last.input !== undefined && !held.has(last.input)) byArgs.delete(key);
        }
      }
    }

    // #memoOf returns get's memo of schema, made (and listed) the first
    // time.
    #memoOf(schema) {
      let byArgs = this.#queries.get(schema);
      if (byArgs !== undefined) {
        if (byArgs.size >= MAX_QUERY_ARGS) byArgs.clear();
        return byArgs;
      }
      byArgs = new Map();
      this.#queries.set(schema, byArgs);
      if (this.#memos.size >= this.#memoBound) {
        for (const ref of this.#memos) if (ref.deref() === undefined) this.#memos.delete(ref);
        this.#memoBound = Math.max(MIN_QUERY_MEMOS, 2 * this.#memos.size);
      }
      this.#memos.add(new WeakRef(byArgs));
      return byArgs;
    }

    /**
     * Reads schema from the cache with no request (section 11): a
     * schema.Query (its process derives the value from the read of its
     * schema and args), an Entity (args[0] names its pk), a schema.All.
     * Memoized: the same value until an entity it read changes; a Query's
     * process runs again only then, or for other args (args that JSON
     * writes alike but process could tell apart, as NaN and null or a Date
     * and its ISO string, are other args).
     */
    get(schema, ...args) {
      refuseInLockedHook('get');
      schema = lazyRead(schema);
      // data-client's form: the state to read is the last argument.
      if (args.length > 0 && isStoreState(args[args.length - 1])) {
        const state = args.pop();
        return this.#of(state).get(schema, ...args);
      }
      // By a static index (indexes.mjs): the record of the entity's All read.
      const lookup = indexLookup(schema, args);
      if (lookup !== undefined) return indexed(this.get(lookup.all), lookup);
      this.#tick();
      const query = schema instanceof QuerySchema ? schema : undefined;
      const read = query ? query.schema : schema;
      if (!isQueryable(read)) {
        throw new TypeError(`get: ${show(schema)} is not queryable (a schema.Query, an Entity, a schema.All, a schema.Collection or an object of them)`);
      }
      const argsText = jsonText(args, 'get: args');
      const key = exactKey(args, argsText);
      const byArgs = this.#memoOf(schema);
      const last = byArgs.get(key);
      const changes = this.#changes();
      // Nothing changed since the last read: no call into Go at all.
      if (last !== undefined && last.changes === changes) return last.output;
      // true: Go handed the read over (takeHanded), rather than return it.
      const got = calls.ctrlGet(this._h, schemaHandle(read, 'get: schema'), argsText);
      const input = got === true ? takeHanded() : got;
      let output = input;
      if (query !== undefined && input !== undefined) {
        // Go hands back the very object while the read is unchanged.
        output = last !== undefined && last.input === input ? last.output : query.process(input, ...args);
      }
      byArgs.set(key, { changes, input, output });
      return output;
    }

    /**
     * Stores value as the data of schema read with args, with no request
     * (data-client's ctrl.set(schema, ...args, value)): its entities are
     * written as a response would write them, and every result that reads
     * them sees the change. Takes effect before it returns. value may be a
     * function of what ctrl.get(schema, ...args) reads now, which returns
     * the value (nothing is set when nothing is stored). A schema.Query
     * writes through the schema it reads.
     */
    set(schema, ...argsAndValue) {
      refuseInLockedHook('set');
      return promised(() => {
        if (argsAndValue.length === 0) throw new TypeError('set: expected set(schema, ...args, value)');
        let value = argsAndValue[argsAndValue.length - 1];
        const args = argsAndValue.slice(0, -1);
        if (typeof value === 'function') {
          const previous = this.get(schema, ...args);
          if (previous === undefined) return;
          value = value(previous);
        }
        const h = schemaHandle(schema instanceof QuerySchema ? schema.schema : schema, 'set: schema');
        const text = markedText(value, 'set: value');
        this.#tick();
        calls.ctrlSet(this._h, h, jsonText(args, 'set: args'), text);
      });
    }

    #objs;
    #reads;
    #stopListening;
    #stopGC;
    #clock;
    #timeAddr;
    #timeCell;

    // #tick reads the controller's clock (the now option, or Date.now) and
    // returns the time, the one the call that follows passes to Go (see
    // #give): a now option that throws or returns a non-number is reported
    // by the call that met it.
    #tick() {
      return this.#clock();
    }

    // #give sets the time Go's exported entries read for the controller
    // (SHARED_TIME_OFFSET): the time of the call just before it enters Go,
    // NaN (none: Go reads its clock) just after, so that no later call
    // takes a stale one. Go reading its own clock costs two calls into
    // JavaScript; with a now option, a call of the caller's function.
    #give(t) {
      let cell = this.#timeCell;
      if (cell === undefined) return;
      // A grown memory detaches the old buffer, which leaves the view empty.
      if (cell.length === 0) cell = this.#timeCell = new Float64Array(memory.buffer, this.#timeAddr, 1);
      cell[0] = t;
    }

    // #read is getResponse without the kept reads, at time t (see #tick):
    // through the exported entry when there is one (it declines only params
    // too long for its input buffer), else the js.FuncOf one.
    #read(h, p, t) {
      const x = exported();
      if (x !== undefined) {
        this.#give(t);
        try {
          const answer = x.getResponse(this._h, h, p, this.#objs);
          if (answer !== undefined) return answer;
        } catch (err) {
          // An id this side lacks: the js.FuncOf entry below starts both
          // halves of the identity table afresh when that happens, and
          // answers in full. Anything else is a fault to report.
          if (!(err instanceof UnknownObject)) throw err;
        } finally {
          this.#give(Number.NaN);
        }
      }
      return calls.ctrlGetResponse(this._h, h, p);
    }

    // #exportedAt runs fn with the exported entries (an Exchange), at time
    // t (see #give), and returns what it returns; undefined when there are
    // none.
    #exportedAt(t, fn) {
      const x = exported();
      if (x === undefined) return undefined;
      this.#give(t);
      try {
        return fn(x);
      } finally {
        this.#give(Number.NaN);
      }
    }

    useSuspense(endpoint, params) {
      refuseInLockedHook('useSuspense');
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
          if (data !== undefined) return Promise.resolve(queryRead(endpoint, params, data));
        } catch (err) {
          // An Error of the read (from Go, or the clock) is not lost: the
          // asynchronous entry below meets it again and rejects with it, as
          // it does when nothing is kept. Anything else is not ours to
          // repeat: it rejects here.
          if (!(err instanceof Error)) return Promise.reject(err);
        }
      }
      return queryPromise(endpoint, params, startAsync(START_SUSPENSE, this._h, h, p, undefined) ?? calls.ctrlSuspense(this._h, h, p));
    }

    fetch(endpoint, params, body) {
      refuseInLockedHook('fetch');
      let args;
      try {
        this.#tick();
        args = [endpointHandle(endpoint), paramsText(params, 'fetch', endpoint), ...encodeBody(body, `fetch ${endpoint.name}: body`)];
      } catch (err) {
        return Promise.reject(err);
      }
      const [h, p, kind, payload] = args;
      if (kind !== BODY_RAW) {
        const started = startAsync(START_FETCH, this._h, h, p, kind === BODY_JSON ? payload : undefined);
        if (started !== undefined) return queryPromise(endpoint, params, started);
      }
      return queryPromise(endpoint, params, calls.ctrlFetch(this._h, ...args));
    }

    fetchIfStale(endpoint, params) {
      refuseInLockedHook('fetchIfStale');
      return queryPromise(endpoint, params, this.#ifStale(START_FETCH_IF_STALE, endpoint, params));
    }

    [PREFETCH](endpoint, params) {
      // Nobody reads the result: START_PREFETCH settles without encoding it.
      return this.#ifStale(START_PREFETCH, endpoint, params).then(() => undefined);
    }

    // #ifStale starts fetchIfStale as op through the exported entry, or
    // through the js.FuncOf entry where the export declines.
    #ifStale(op, endpoint, params) {
      let args;
      try {
        this.#tick();
        if (params === null) return Promise.resolve(undefined);
        args = [endpointHandle(endpoint), paramsText(params, 'fetchIfStale', endpoint)];
      } catch (err) {
        return Promise.reject(err);
      }
      return startAsync(op, this._h, args[0], args[1], undefined) ?? calls.ctrlFetchIfStale(this._h, ...args);
    }

    [RESPONSE](endpoint, params) {
      const h = endpointHandle(endpoint);
      const p = paramsText(params, 'getResponse', endpoint);
      lastRead.errorKept = false;
      const answer = queryAnswer(endpoint, params, this.#response(h, p));
      // A kept answer says it; one read now has just set lastRead.
      const kept = this.#reads?.kept(h, p);
      return [answer, kept === undefined ? lastRead.errorKept : kept.err];
    }

    getResponse(endpoint, params, state) {
      refuseInLockedHook('getResponse');
      if (isStoreState(state)) return this.#of(state).getResponse(endpoint, params);
      // getResponse(endpoint, state): an endpoint without params.
      if (state === undefined && isStoreState(params)) return this.#of(params).getResponse(endpoint, undefined);
      const h = endpointHandle(endpoint);
      return queryAnswer(endpoint, params, this.#response(h, paramsText(params, 'getResponse', endpoint)));
    }

    /** data-client's name of getResponse (the answer has data, expiryStatus, expiresAt). */
    getResponseMeta(endpoint, params, state) {
      refuseInLockedHook('getResponseMeta');
      return this.getResponse(endpoint, params, state);
    }

    /** get's read as data-client's getQueryMeta gives it: {data}. */
    getQueryMeta(schema, ...args) {
      refuseInLockedHook('getQueryMeta');
      return { data: this.get(schema, ...args) };
    }

    /** The reads of a store state, as data-client's Snapshot (readsnapshot.mjs). */
    snapshot(state, fetchedAt) {
      refuseInLockedHook('snapshot');
      return snapshotOf(this, state, fetchedAt, isStoreState);
    }

    #response(h, p) {
      const reads = this.#reads;
      if (reads === undefined) return this.#read(h, p, this.#tick());
      // Reads the clock (through the kept answer, or first), so a broken
      // now option is reported here.
      const kept = reads.get(h, p);
      if (kept !== undefined) return kept;
      const t = this.#tick();
      const v = reads.version;
      lastRead.afterExpiry = undefined;
      lastRead.errorKept = false;
      const answer = this.#read(h, p, t);
      reads.keep(reads.changes() === v ? v : NO_VERSION, h, p, answer, lastRead.afterExpiry, lastRead.errorKept);
      return answer;
    }

    subscribe(endpoint, params, listener, options) {
      refuseInLockedHook('subscribe');
      const h = endpointHandle(endpoint);
      const p = paramsText(params, 'subscribe', endpoint);
      if (typeof listener !== 'function') throw new TypeError(`subscribe ${endpoint.name}: listener must be a function, got ${show(listener)}`);
      const { fetch = true, poll = true } = subscribeOptions(options, endpoint);
      this.#tick();
      const sub = calls.ctrlSubscribe(
        this._h,
        h,
        p,
        (data, loading, error) => listener({ data: queryRead(endpoint, params, data), loading, error }),
        !fetch,
        !poll,
        options?.[NO_DATA] === true,
      );
      let done = false;
      return () => {
        if (done) return;
        done = true;
        calls.ctrlUnsubscribe(sub);
      };
    }

    invalidate(endpoint, params) {
      refuseInLockedHook('invalidate');
      return promised(() => {
        const h = endpointHandle(endpoint);
        const p = paramsText(params, 'invalidate', endpoint);
        const t = this.#tick();
        // Through the exported entry, which throws the call's error and
        // declines only a subscription to tell: the js.FuncOf entry does it.
        if (this.#exportedAt(t, (x) => x.invalidate(this._h, h, p))) return;
        calls.ctrlInvalidate(this._h, h, p);
      });
    }

    invalidateAll(testKey) {
      refuseInLockedHook('invalidateAll');
      return promised(() => {
        this.#updateAll(keyTest(testKey, 'invalidateAll'), calls.ctrlInvalidateAll, false, this.#tick());
      });
    }

    expireAll(testKey) {
      refuseInLockedHook('expireAll');
      return promised(() => {
        this.#updateAll(keyTest(testKey, 'expireAll'), calls.ctrlExpireAll, true, this.#tick());
      });
    }

    // #updateAll is invalidateAll (or expireAll, with expire) at time t:
    // Go hands over the stored keys, test chooses here, Go updates the
    // chosen ones. When Go declines, the js.FuncOf entry (entry) runs test
    // itself.
    #updateAll(test, entry, expire, t) {
      const x = exported();
      const keys = x?.keys(this._h, expire);
      if (keys !== undefined) {
        let chosen;
        try {
          chosen = keys.filter((k) => test(k));
        } catch (err) {
          // The js.FuncOf entry meets the same exception (without running
          // the caller's test again) and reports it as it always has; the
          // store is unchanged.
          entry(this._h, () => {
            throw err;
          });
          throw err; // only if Go found no key to test any more
        }
        if (this.#exportedAt(t, (xt) => xt.updateKeys(this._h, chosen, expire))) return;
      }
      entry(this._h, test);
    }

    resetEntireStore() {
      refuseInLockedHook('resetEntireStore');
      this.#reads?.clear();
      // What get kept is built again after a reset, whatever it read.
      this.#queries = new WeakMap();
      this.#memos.clear();
      return promised(() => {
        if (exported()?.resetEntireStore(this._h)) {
          // Go has reset its half of the identity table: this is the other.
          this.#objs.clear();
          return;
        }
        calls.ctrlResetEntireStore(this._h);
      });
    }

    setResponse(endpoint, params, data) {
      refuseInLockedHook('setResponse');
      return promised(() => {
        const h = endpointHandle(endpoint);
        const p = paramsText(params, 'setResponse', endpoint);
        const d = dataText(endpoint.schema, data, `setResponse ${endpoint.name}: data`);
        const t = this.#tick();
        // Through the exported entry, which throws the call's error (Go
        // ran it, pk and process hooks included: they run once) and
        // declines only a controller with a subscription to tell.
        if (this.#exportedAt(t, (x) => x.setResponse(this._h, h, p, d))) return;
        calls.ctrlSetResponse(this._h, h, p, d);
      });
    }

    setError(endpoint, params, error) {
      refuseInLockedHook('setError');
      return promised(() => {
        const h = endpointHandle(endpoint);
        const p = paramsText(params, 'setError', endpoint);
        // An Error, or what passes for one (a DOMException, an Error of
        // another realm): reads reject with this very value.
        if (error === null || typeof error !== 'object' || typeof error.message !== 'string') {
          throw new TypeError(`setError ${endpoint.name}: error must be an Error, got ${show(error)}`);
        }
        this.#tick();
        calls.ctrlSetError(this._h, h, p, error);
      });
    }

    getState() {
      refuseInLockedHook('getState');
      return JSON.parse(calls.ctrlGetState(this._h));
    }

    /**
     * Fetches again every result a subscription holds that is stale or
     * invalid, as fetchIfStale would; resolves when those fetches settle.
     */
    revalidateActive() {
      refuseInLockedHook('revalidateActive');
      return calls.ctrlRevalidateActive(this._h);
    }

    // #revalidateInBackground is revalidateActive for an event, which
    // nobody awaits: it resolves whatever the fetches do (their errors go
    // to the subscribers), so a rejection is a fault of this library.
    #revalidateInBackground() {
      this.revalidateActive().catch((err) => {
        if (typeof globalThis.reportError === 'function') globalThis.reportError(err);
        else console.error(err);
      });
    }

    // gc runs one garbage collection sweep now (docs/js-api.md 9.1) and
    // returns what it removed, {results, entities}. It takes effect before
    // it returns.
    gc() {
      refuseInLockedHook('gc');
      this.#tick();
      const removed = calls.ctrlGC(this._h);
      if (removed.results > 0 || removed.entities > 0) {
        // Go has dropped what the sweep removed from both halves of the
        // identity table; a kept answer or a kept get would still hold its
        // objects until the next read of the same key, which may never come.
        this.#reads?.clear();
        this.#forgetSwept();
      }
      return removed;
    }

    /** Removes the controller's listeners, stops its timers (polling, waits to retry, gc sweeps) and its managers (cleanup). */
    close() {
      refuseInLockedHook('close');
      this.#stopListening();
      this.#stopGC?.();
      const stop = this.#stopManagers;
      this.#stopManagers = undefined;
      stop?.();
      calls.ctrlClose(this._h);
    }

    // hydrate merges a snapshot (getState's shape) into the store, newer
    // stored data winning by fetchedAt (docs/js-api.md, "Snapshots,
    // hydration and persistence"). It takes effect before it returns.
    hydrate(snapshot) {
      refuseInLockedHook('hydrate');
      return promised(() => {
        const text = snapshotText(snapshot, 'hydrate');
        this.#tick();
        calls.ctrlHydrate(this._h, text);
      });
    }
  }

  // subscribeOptions checks subscribe's options: {fetch: false} only
  // listens, {poll: false} does not poll.
  function subscribeOptions(options, endpoint) {
    if (options === undefined || options === null) return {};
    const where = `subscribe ${endpoint.name}: options`;
    if (typeof options !== 'object') throw new TypeError(`${where} must be an object, got ${show(options)}`);
    for (const name of SUBSCRIBE_FLAGS) {
      const v = options[name];
      if (v !== undefined && typeof v !== 'boolean') throw new TypeError(`${where}.${name} must be a boolean, got ${show(v)}`);
    }
    return options;
  }

  // keyTest returns the key test of invalidateAll or expireAll: as
  // data-client takes it, something with a testKey method (an endpoint,
  // itself a function), called as its method; or a function.
  function keyTest(testKey, where) {
    if (typeof testKey?.testKey === 'function') return (key) => testKey.testKey(key);
    if (typeof testKey === 'function') return testKey;
    throw new TypeError(`${where}: testKey must be a function or an object with a testKey method (an endpoint), got ${show(testKey)}`);
  }

  // inspectSource returns what df.inspect reads of ctrl, all of it
  // read-only: model() (core/inspect's model, by the controller's clock),
  // state() (getState) and changes() (the change counter, or undefined).
  function inspectSource(ctrl) {
    if (!(ctrl instanceof Controller)) throw new TypeError(`inspect: expected a Controller of this datafetch instance, got ${show(ctrl)}`);
    return {
      model: () => JSON.parse(calls.ctrlInspect(ctrl._h)),
      state: () => ctrl.getState(),
      changes: () => changesOf(ctrl),
    };
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

  return { Controller, useController, useSuspense, useLoading, inspectSource };
}
