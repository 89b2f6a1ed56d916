// The controller the hooks use: the one a <DataProvider> gives, else the
// default controller of the loaded module (df.useController()), for which
// the hooks suspend until load() has resolved. A hook that suspends so for
// a read that fetches starts the read's request at once (prestart.mjs).

import { createContext, createElement, useContext, useEffect, useState } from 'react';
// The loader's module itself (not its parts), so that a page that loads it
// by URL and bundles this one still has one module state.
import { Controller, load } from '../../datafetch.mjs';
import { MANAGE } from '../managers.mjs';
import { EARLY, PendingController } from '../pending.mjs';
import { prestartRead } from '../prestart.mjs';

const ControllerContext = createContext(undefined);
ControllerContext.displayName = 'datafetch.Controller';

/**
 * <DataProvider controller={ctrl}>: the controller of the hooks below it.
 * Without a controller, as in data-client, <DataProvider managers={[...]}
 * initialState={snapshot}> makes one for its lifetime with those options,
 * and closes it (its managers' cleanup runs) when it unmounts.
 */
export function DataProvider({ controller, managers, initialState, children }) {
  const own = useOwnController(controller === undefined || controller === null, managers, initialState);
  return createElement(ControllerContext.Provider, { value: controller ?? own }, children);
}

// useOwnController makes a controller (with initialState) once, when
// wanted and given managers or a state, starts the managers on it in an
// effect and stops them when that effect is cleaned up, as data-client's
// provider does: a render React discards starts nothing. The controller is
// closed on unmount, a turn of the event loop later, so that StrictMode's
// second run of the effect (cleanup, then setup again, at once) keeps it.
function useOwnController(wanted, managers, initialState) {
  const [made] = useState(() => (!wanted || (managers === undefined && initialState === undefined) ? undefined : new Controller({ initialState })));
  // The managers of the first render: as in data-client, later ones are
  // not taken (an app may pass a new array each render).
  const [started] = useState(managers);
  useEffect(() => {
    if (made === undefined) return undefined;
    clearTimeout(closing.get(made));
    let stop;
    let stopped = false;
    if (started !== undefined && started !== null) {
      const start = (ctrl) => {
        if (!stopped) stop = ctrl[MANAGE](started);
      };
      if (made instanceof PendingController) made.ready.then(start, () => undefined);
      else start(made);
    }
    return () => {
      stopped = true;
      stop?.();
      closing.set(
        made,
        setTimeout(() => made.close(), 0),
      );
    };
  }, [made, started]);
  return made;
}

// closing holds the pending close of each controller a DataProvider made.
const closing = new WeakMap();

// The module, once loaded: load() is started by the first hook that needs
// the default controller, and suspends it (and every other) until it is done.
const loading = { api: undefined, promise: undefined, error: undefined };

// defaultController returns the default controller, or suspends until
// the module is loaded; read, when given, is the read the caller suspends
// for ([endpoint, params]).
function defaultController(read) {
  // biome-ignore lint/correctness/useHookAtTopLevel: df.useController() (section 4) returns the default controller; it is not a React hook
  if (loading.api !== undefined) return loading.api.useController();
  if (loading.error !== undefined) throw loading.error;
  loading.promise ??= load().then(
    (api) => {
      loading.api = api;
    },
    (err) => {
      loading.error = err;
    },
  );
  if (read !== undefined) {
    const [endpoint, params] = read;
    prestartRead(endpoint, params, () => loading.promise.then(() => loading.api?.useController().fetchIfStale(endpoint, params)));
  }
  throw loading.promise;
}

/**
 * The controller in use: the DataProvider's, else the default one (the
 * caller suspends while the module loads; a failed load goes to the
 * nearest error boundary).
 */
export function useController() {
  return controllerIn(useContext(ControllerContext), undefined);
}

/**
 * useController for a hook that reads endpoint with params and fetches
 * it: when it suspends while the module loads, the read's request starts
 * at once (prestart.mjs) and the controller fetches it as soon as it
 * exists.
 */
export function useReadController(endpoint, params) {
  return controllerIn(useContext(ControllerContext), params === null ? undefined : [endpoint, params]);
}

function controllerIn(given, read) {
  if (given === undefined) return defaultController(read);
  // A controller made before the module was loaded: its users suspend
  // until it is in, and then use it.
  if (given instanceof PendingController) {
    if (given.failed !== undefined) throw given.failed;
    if (given.loaded !== undefined) return given.loaded;
    if (read !== undefined) given[EARLY](...read);
    return suspendOn(given.ready);
  }
  return given;
}

function suspendOn(promise) {
  throw promise;
}
