// The peer, data-client, as a browser bundle: bench.mjs bundles this file
// with esbuild into out/peer.js (production mode, minified), and page.mjs
// imports it. Versions are pinned in the root package.json.
export { Controller, createReducer, initialState, NetworkManager, applyManager } from '@data-client/core';
// schema (Collection, All) and Query come from @data-client/endpoint 0.9.9,
// which @data-client/rest re-exports.
export { RestEndpoint, Entity, schema, Query } from '@data-client/rest';
export const versions = {
  core: '0.10.0',
  endpoint: '0.9.9',
  rest: '0.9.9',
  normalizr: '0.10.0',
};
