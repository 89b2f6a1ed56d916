// datafetch: data fetching and normalized caching in the style of
// data-client (rest-hooks), implemented in Go and compiled to WebAssembly.
// This module loads datafetch.wasm and wraps the functions it registers
// (package jsbridge) in the API that docs/js-api.md documents.
//
//   import { load } from './datafetch.mjs';
//   const df = await load();
//
// How the two sides talk: schemas, endpoints and controllers live in Go;
// the objects here hold numeric handles to them. Params, bodies and the
// results of callbacks cross as JSON text. Reads come back as one JSON text
// each, decoded by decode() (internal/wire.mjs): it parses the data, reuses
// the objects this side already holds for data that did not change (so
// unchanged data is ===), and turns Date fields into Dates.
//
// The code is in internal/, one module a part: load.mjs (loading the
// module), wire.mjs (decoding reads), protocol.mjs (the numbers both sides
// agree on), schemas.mjs, endpoints.mjs, controller.mjs, api.mjs (attach,
// which puts them together), bridge.mjs (calls into Go), errors.mjs and
// values.mjs (checks and conversions of the caller's values). This module is
// the package's browser entry (datafetch.node.mjs, its Node.js entry, adds
// file reading to load()): what it exports is the public API.

import { setDefaultSource } from './internal/load.mjs';

// load()'s default: datafetch.wasm beside this module, or beside the
// bundle that holds it (the literal form bundlers follow to emit the file).
try {
  setDefaultSource(new URL('./datafetch.wasm', import.meta.url));
} catch (err) {
  // A module whose URL is no base for another (a blob: URL): load() then
  // looks beside its own module, or is given a source.
  if (!(err instanceof TypeError)) throw err;
}

export { attach } from './internal/api.mjs';
export { RestEndpoint, resource, resource as createResource } from './internal/endpoints.mjs';
export { Entity, EntityMixin } from './internal/entity.mjs';
export { AbortOptimistic, NetworkError } from './internal/errors.mjs';
export { load } from './internal/load.mjs';
export { Controller } from './internal/pending.mjs';
export { schema } from './internal/schemas.mjs';
// The schema classes by name too, as data-client exports them (all but
// Array and Object, which would shadow the globals).
export {
  AllSchema as All,
  CollectionSchema as Collection,
  InvalidateSchema as Invalidate,
  QuerySchema as Query,
  UnionSchema as Union,
  ValuesSchema as Values,
} from './internal/schemas.mjs';
