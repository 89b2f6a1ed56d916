// One endpoint result as React reads it: a source that useSyncExternalStore
// subscribes to (the controller's subscribe) and reads (getResponse), the
// same on the server (getServerSnapshot), and the hooks built on it.
//
// Rendering starts a request only for a result that is missing or
// invalid, as data-client's hooks do: by suspending (the thrown promise is
// the controller's useSuspense) or, for useDLE, with the controller's
// PREFETCH (fetchIfStale); either is shared with any identical request in
// flight, so StrictMode's second render doubles nothing. The subscription,
// made when the component commits, joins that request and fetches what is
// stale, so StrictMode's second mount doubles nothing either.

import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useReadController } from './provider.mjs';

// The controller's methods for the hooks (internal/controller.mjs):
// RESPONSE reads a result and whether an error is kept, PREFETCH starts a
// fetch whose Promise carries no result. Registered symbols, as in
// query.mjs.
const RESPONSE = Symbol.for('datafetch.controller.response');
const PREFETCH = Symbol.for('datafetch.controller.prefetch');
// A subscribe option (NO_DATA in internal/controller.mjs): the listener is
// told of changes without the data, which the source reads with RESPONSE.
const NO_DATA = Symbol.for('datafetch.subscribe.noData');

const VALID = 'valid';
const STALE = 'stale';

const noop = () => {
  // nothing to do: a listener that ignores its calls, a settled promise
};

/**
 * How a hook reads a result: the options of its subscription (section 4:
 * fetch: false only listens, poll: false does not poll), and whether it
 * renders loading (only useDLE does: the others do not re-render when
 * only that changes).
 */
const SUSPENSE = Object.freeze({ subscribe: Object.freeze({ poll: false, [NO_DATA]: true }), fetches: true, loading: false });
const LIVE = Object.freeze({ subscribe: Object.freeze({ poll: true, [NO_DATA]: true }), fetches: true, loading: false });
const DLE = Object.freeze({ subscribe: Object.freeze({ poll: false, [NO_DATA]: true }), fetches: true, loading: true });
const CACHE = Object.freeze({ subscribe: Object.freeze({ fetch: false, [NO_DATA]: true }), fetches: false, loading: false });

/**
 * A snapshot: data (the denormalized result, optimistic data included),
 * usable (valid or stale: data can be shown), stale, loading (only for a
 * reader that renders it) and error (the kept error of the last fetch).
 */
const NOTHING = Object.freeze({ data: undefined, usable: true, stale: false, loading: false, error: undefined });

/** The state of a result no subscription told yet, with no error kept, for a reader that fetches. */
const WILL_FETCH = Object.freeze({ loading: true, error: undefined });

const FIELDS = ['data', 'usable', 'stale', 'loading', 'error'];

function sameSnapshot(a, b) {
  return FIELDS.every((f) => a[f] === b[f]);
}

/** The result for null params: nothing, and nothing to subscribe to. */
const NULL_SOURCE = Object.freeze({ subscribe: () => noop, getSnapshot: () => NOTHING, revalidate: noop });

class ResultSource {
  #ctrl;
  #endpoint;
  #params;
  #reader;
  // live is what the subscription last told (while subscribed); peeked
  // the same, read once before it exists.
  #live;
  #peeked;
  #snapshot = NOTHING;

  constructor(ctrl, endpoint, params, reader) {
    this.#ctrl = ctrl;
    this.#endpoint = endpoint;
    this.#params = params;
    this.#reader = reader;
    // useSyncExternalStore's subscribe and getSnapshot: stable functions.
    this.subscribe = (onChange) => {
      const unsubscribe = ctrl.subscribe(
        endpoint,
        params,
        (state) => {
          this.#live = state;
          onChange();
        },
        reader.subscribe,
      );
      return () => {
        unsubscribe();
        this.#live = undefined;
        this.#peeked = undefined;
      };
    };
    this.getSnapshot = () => this.#read();
  }

  /** Fetches the result if it is stale (shared with a request in flight). */
  revalidate() {
    this.#ctrl.fetchIfStale(this.#endpoint, this.#params).catch(noop);
  }

  // #state is {loading, error} of the result: the subscription's, else
  // read through a subscription that only listens and ends at once (a
  // result that is not valid may have a kept error, which getResponse
  // does not report). errorKept is false when the read said no error is
  // kept: then nothing need be asked (the subscription will fetch).
  #state(expiryStatus, errorKept) {
    if (this.#live !== undefined) return this.#live;
    if (expiryStatus === VALID) return NOTHING;
    if (!errorKept) return this.#reader.fetches ? WILL_FETCH : NOTHING;
    if (this.#peeked === undefined) {
      let told = NOTHING;
      this.#ctrl.subscribe(this.#endpoint, this.#params, (state) => (told = state), CACHE.subscribe)();
      // The subscription this reader makes will fetch unless there is
      // an error to show.
      const loading = told.loading || (this.#reader.fetches && told.error === undefined);
      this.#peeked = { loading, error: told.error };
    }
    return this.#peeked;
  }

  #read() {
    const ctrl = this.#ctrl;
    // A controller without RESPONSE (another copy of the package) is asked.
    const [{ data, expiryStatus }, errorKept] =
      typeof ctrl[RESPONSE] === 'function' ? ctrl[RESPONSE](this.#endpoint, this.#params) : [ctrl.getResponse(this.#endpoint, this.#params), true];
    const usable = expiryStatus === VALID || expiryStatus === STALE;
    const { loading, error } = this.#state(expiryStatus, errorKept);
    const next = {
      data,
      usable,
      stale: expiryStatus === STALE,
      loading: this.#reader.loading && loading,
      error,
    };
    if (!sameSnapshot(next, this.#snapshot)) this.#snapshot = next;
    return this.#snapshot;
  }
}

/** [controller, snapshot] of endpoint's result for params, read by reader. */
function useResult(endpoint, params, reader) {
  // A reader that fetches starts its read early when the hook suspends
  // while the module loads; the others read nothing yet (null params).
  const ctrl = useReadController(endpoint, reader.fetches ? params : null);
  const key = params === null ? null : endpoint.key(params);
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for params (equal params, equal key), which are a new object each render
  const source = useMemo(() => (key === null ? NULL_SOURCE : new ResultSource(ctrl, endpoint, params, reader)), [ctrl, endpoint, key, reader]);
  const snapshot = useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot);
  // A reader that renders loading (useDLE) starts the fetch of a missing
  // or invalid result while rendering, as a suspending read does, not a
  // commit later when its subscription is made (which then shares it).
  const starts = reader.loading && snapshot.loading && !snapshot.usable && typeof ctrl[PREFETCH] === 'function';
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for params (equal params, equal key), which are a new object each render
  useMemo(() => {
    if (starts) ctrl[PREFETCH](endpoint, params).catch(noop);
  }, [ctrl, endpoint, key, starts]);
  // Data that went stale with the passing of time (no change the
  // subscription hears of) is revalidated when a render finds it stale.
  const revalidate = reader.fetches && snapshot.stale;
  useEffect(() => {
    if (revalidate) source.revalidate();
  }, [source, revalidate]);
  return [ctrl, snapshot];
}

/** The data of a suspending read: throws to Suspense or to the error boundary. */
function suspended(ctrl, endpoint, params, snapshot) {
  if (params === null || snapshot.usable) return snapshot.data;
  if (snapshot.error !== undefined) throw snapshot.error;
  // The controller's own read: it starts the fetch (or joins the one in
  // flight); the component renders again when it settles, either way.
  // biome-ignore lint/correctness/useHookAtTopLevel: the Controller's useSuspense (section 4) returns a Promise; it is not a React hook
  throw ctrl.useSuspense(endpoint, params).then(noop, noop);
}

/**
 * useSuspense(endpoint, params): the data; suspends while it is missing
 * or invalid, throws a failed fetch's error to the nearest error boundary;
 * stale data is returned and revalidated. Does not poll.
 */
export function useSuspense(endpoint, params) {
  const [ctrl, snapshot] = useResult(endpoint, params, SUSPENSE);
  return suspended(ctrl, endpoint, params, snapshot);
}

/** useLive(endpoint, params): useSuspense, polling (pollFrequency) while mounted. */
export function useLive(endpoint, params) {
  const [ctrl, snapshot] = useResult(endpoint, params, LIVE);
  return suspended(ctrl, endpoint, params, snapshot);
}

/** useDLE(endpoint, params): {data, loading, error}, without suspending. Does not poll. */
export function useDLE(endpoint, params) {
  const [, snapshot] = useResult(endpoint, params, DLE);
  const { data, loading, error } = snapshot;
  return useMemo(() => ({ data, loading, error }), [data, loading, error]);
}

/** useCache(endpoint, params): the cached data (valid or stale), else undefined; never fetches. */
export function useCache(endpoint, params) {
  const [, snapshot] = useResult(endpoint, params, CACHE);
  return snapshot.usable ? snapshot.data : undefined;
}

/**
 * useFetch(endpoint, params): fetches the result when it is missing,
 * stale or invalid, without suspending or re-rendering; returns the
 * Promise of that fetch (shared with any identical request in flight), or
 * undefined when nothing needed fetching. null params fetch nothing.
 */
export function useFetch(endpoint, params) {
  const ctrl = useReadController(endpoint, params);
  const key = params === null ? null : endpoint.key(params);
  const status = key === null ? VALID : ctrl.getResponse(endpoint, params).expiryStatus;
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for params (equal params, equal key), which are a new object each render
  return useMemo(() => (status === VALID ? undefined : ctrl.fetchIfStale(endpoint, params)), [ctrl, endpoint, key, status]);
}

/** useSubscription(endpoint, params): fetches and polls while mounted; returns nothing. */
export function useSubscription(endpoint, params) {
  const ctrl = useReadController(endpoint, params);
  const key = params === null ? null : endpoint.key(params);
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for params (equal params, equal key), which are a new object each render
  useEffect(() => (key === null ? undefined : ctrl.subscribe(endpoint, params, noop)), [ctrl, endpoint, key]);
}
