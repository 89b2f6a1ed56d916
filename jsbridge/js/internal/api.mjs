// attach: the API of jsbridge over a registered bridge, put together from
// its parts (schemas, endpoints, controller), one per bridge.

import { makeBridge } from './bridge.mjs';
import { ExpiryStatus, makeController } from './controller.mjs';
import { offerEngine } from './engine.mjs';
import { RestEndpoint, makeEndpoints, resource } from './endpoints.mjs';
import { Endpoint } from './generic.mjs';
import { AbortOptimistic, NetworkError } from './errors.mjs';
import { actionTypes, getDefaultManagers } from './managers.mjs';
import { MemoCache, offerReaders } from './memo.mjs';
import { StreamManager } from './stream.mjs';
import { makePersist } from './persist.mjs';
import { inspect } from './inspect/panel.mjs';
import { INVALID, makeSchemas, schema } from './schemas.mjs';
import { makeSyncTabs } from './tabsync.mjs';

const apis = new WeakMap();

/**
 * Returns the API over a bridge that a Go program registered with
 * jsbridge.Register (globalThis.__datafetchGo); load() does this for
 * datafetch.wasm. A Go program that links jsbridge itself can use it to
 * share its cache with the page's JavaScript. wasmExports, the instance's
 * exports, is optional: with them, reads use the module's memory and its
 * exported entries (an unchanged re-read does not call into Go at all).
 * go, optional too, is the wasm_exec.js Go instance running the module:
 * with it (and the exports), the fetch path wakes Go through the exports
 * and go._resume() rather than a js.FuncOf call (internal/transport.mjs).
 */
export function attach(bridge, wasmExports, go) {
  let api = apis.get(bridge);
  if (!api) {
    const exports = wasmExports?.mem instanceof WebAssembly.Memory ? wasmExports : undefined;
    const resume = typeof go?._resume === 'function' ? () => go._resume() : undefined;
    api = makeAPI(bridge, exports, resume);
    apis.set(bridge, api);
  }
  return api;
}

function makeAPI(go, wasmExports, resume) {
  const bridge = makeBridge(go, wasmExports, resume);
  const schemas = makeSchemas(bridge);
  const { Entity, normalize, denormalize } = schemas;
  const endpoints = makeEndpoints(bridge, schemas);
  const { Resource } = endpoints;
  offerEngine(endpoints.engine);
  const { Controller, useController, useSuspense, useLoading, inspectSource } = makeController(bridge, endpoints, schemas);
  offerReaders({ denormalize, Controller });
  const { persist, indexedDBStorage } = makePersist(bridge);
  const { syncTabs } = makeSyncTabs(bridge);

  return {
    version: go.version,
    Entity,
    schema,
    normalize,
    denormalize,
    MemoCache,
    INVALID,
    RestEndpoint,
    Endpoint,
    resource,
    createResource: resource,
    Controller,
    ExpiryStatus,
    useController,
    useSuspense,
    useResource: useSuspense,
    useLoading,
    persist,
    indexedDBStorage,
    syncTabs,
    Resource,
    NetworkError,
    AbortOptimistic,
    actionTypes,
    getDefaultManagers,
    StreamManager,
    inspect: (ctrl, element) => inspect(inspectSource(ctrl), element),
  };
}
