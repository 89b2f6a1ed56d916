// The controller the hooks use: the one a <DataProvider> gives, else the
// default controller of the loaded module (df.useController()), for which
// the hooks suspend until load() has resolved.

import { createContext, createElement, useContext } from 'react';
import { load } from '../../datafetch.mjs';
import { PendingController } from '../pending.mjs';

const ControllerContext = createContext(undefined);
ControllerContext.displayName = 'datafetch.Controller';

/** <DataProvider controller={ctrl}>: the controller of the hooks below it. */
export function DataProvider({ controller, children }) {
  return createElement(ControllerContext.Provider, { value: controller ?? undefined }, children);
}

// The module, once loaded: load() is started by the first hook that needs
// the default controller, and suspends it (and every other) until it is done.
const loading = { api: undefined, promise: undefined, error: undefined };

function defaultController() {
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
  throw loading.promise;
}

/**
 * The controller in use: the DataProvider's, else the default one (the
 * caller suspends while the module loads; a failed load goes to the
 * nearest error boundary).
 */
export function useController() {
  const given = useContext(ControllerContext);
  if (given === undefined) return defaultController();
  // A controller made before the module was loaded: its users suspend
  // until it is in, and then use it.
  if (given instanceof PendingController) {
    if (given.failed !== undefined) throw given.failed;
    return given.loaded ?? suspendOn(given.ready);
  }
  return given;
}

function suspendOn(promise) {
  throw promise;
}
