// datafetch: data fetching and normalized caching in the style of
// data-client (rest-hooks), implemented in Go and compiled to WebAssembly.
// This module loads datafetch.wasm and wraps the functions it registers
// (package jsbridge) in the API that docs/js-api.md documents.
//
//   import { Entity, resource } from './datafetch.mjs';  // no engine needed
//   class Todo extends Entity { id = 0; title = ''; }
//   const TodoResource = resource({ path: '/todos/:id', schema: Todo });
//
// How the two sides talk: declarations (entity classes, endpoints,
// resources) are plain JavaScript, registered with an instance's engine
// the first time it uses them; the engine's objects (schemas, endpoints,
// controllers) are held here by numeric handles. Params, bodies and the
// results of callbacks cross as JSON text. A read comes back as one output
// of ops in the module's memory (jsbridge/wire/SPEC.md), decoded by
// internal/wire.mjs: it builds the objects (instances of their entity
// class where there is one), reuses those this side holds for data that
// did not change (so unchanged data is ===), and turns Date fields into
// Dates.
//
// The code is in internal/, one module a part: load.mjs (loading the
// module), wire.mjs (decoding reads), protocol.mjs and wireops.mjs (the
// numbers both sides agree on) and calls.mjs (the Go entries, one function
// each), all three generated from Go (jsbridge/CALLS.md), entity.mjs and classes.mjs (entity
// classes), schemas.mjs, endpoints.mjs, controller.mjs, pending.mjs (a
// controller made before loading), prestart.mjs (requests started while
// loading), api.mjs (attach, which puts them together), bridge.mjs (calls
// into Go), errors.mjs and values.mjs (checks and conversions of the
// caller's values), state.mjs (the entity tables and states callers hand
// in: deleted records, ImmutableJS) and memo.mjs (MemoCache). This module
// is the package's browser entry (datafetch.node.mjs, its Node.js entry,
// adds file reading to load()): what it exports is the public API.

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
export { Endpoint } from './internal/generic.mjs';
export { ExpiryStatus } from './internal/controller.mjs';
export { Entity, EntityMixin, validateRequired } from './internal/entity.mjs';
export { AbortOptimistic, NetworkError } from './internal/errors.mjs';
export { load } from './internal/load.mjs';
export { MemoCache } from './internal/memo.mjs';
export { actionTypes, getDefaultManagers } from './internal/managers.mjs';
export { StreamManager } from './internal/stream.mjs';
export { Controller } from './internal/pending.mjs';
export { INVALID, schema, unshift } from './internal/schemas.mjs';
// The schema classes by name too, as data-client exports them (all but
// Array and Object, which would shadow the globals).
export {
  AllSchema as All,
  CollectionSchema as Collection,
  InvalidateSchema as Invalidate,
  LazySchema as Lazy,
  QuerySchema as Query,
  ScalarSchema as Scalar,
  UnionSchema as Union,
  ValuesSchema as Values,
} from './internal/schemas.mjs';
