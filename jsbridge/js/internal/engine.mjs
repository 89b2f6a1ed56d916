// The engine that declarations use when they are asked something only the
// engine knows (an endpoint's url or key, the default request init): the
// API instance load() made, or the first one attach() made. Declarations
// themselves (entity classes, endpoints, resources) need none: each API
// instance registers them with its own engine when it first uses them.

let current;

/**
 * Sets the engine declarations use, unless one is set already: engine is
 * what an API instance gives declarations ({endpointHandle, call,
 * callAsync, paramsText, decodeValue}).
 */
export function offerEngine(engine) {
  current ??= engine;
}

/** The engine declarations use; what names the operation that needs it. */
export function engine(what) {
  if (current === undefined) throw new Error(`datafetch: ${what} needs datafetch.wasm: await load() first`);
  return current;
}
