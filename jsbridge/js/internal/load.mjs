// load(): instantiates datafetch.wasm (from a URL, a path, bytes, a
// Response or a compiled module), runs it, and attaches the API to the
// bridge it registers.

import { attach } from './api.mjs';
import { markExited } from './bridge.mjs';
import { show } from './values.mjs';

const GO_GLOBAL = '__datafetchGo';

// ------------------------------------------------------------ loading

let loading;

/**
 * Loads datafetch.wasm and returns the API. source is a URL (or a path, in
 * Node.js), an ArrayBuffer, a Uint8Array, a Response or a
 * WebAssembly.Module; the default is datafetch.wasm beside this module.
 * Later calls return the same instance.
 */
export function load(source) {
  if (!loading) {
    loading = start(source);
    // A failed load may be retried; callers of this one still see the error.
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

async function start(source) {
  const node = isNode();
  // The Go toolchain's own support file, matching the compiler. It is a
  // classic script that sets globalThis.Go; importing it evaluates it.
  await import('../wasm_exec.js');
  const go = new globalThis.Go();
  const instance = await instantiate(source ?? new URL('../datafetch.wasm', import.meta.url), go.importObject, node);
  const before = globalThis[GO_GLOBAL];
  // run() executes main until it blocks, by which time it has registered
  // the bridge; its Promise settles only if the program exits.
  go.run(instance).then(() => {
    markExited();
  });
  const bridge = globalThis[GO_GLOBAL];
  if (typeof bridge !== 'object' || bridge === null || bridge === before) {
    throw new Error('datafetch: datafetch.wasm did not register its bridge (is it the right file?)');
  }
  delete globalThis[GO_GLOBAL];
  return attach(bridge, instance.exports, go);
}

function isNode() {
  return typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';
}

async function instantiate(source, imports, node) {
  if (source instanceof WebAssembly.Module) {
    return WebAssembly.instantiate(source, imports);
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return (await WebAssembly.instantiate(source, imports)).instance;
  }
  if (typeof Response === 'function' && source instanceof Response) {
    return fromResponse(source, imports);
  }
  if (typeof source === 'string' || source instanceof URL) {
    if (node) {
      const url = nodeURL(source);
      if (url === undefined || url.protocol === 'file:') {
        const { readFile } = await import('node:fs/promises');
        const { fileURLToPath } = await import('node:url');
        const bytes = await readFile(url ? fileURLToPath(url) : source);
        return (await WebAssembly.instantiate(bytes, imports)).instance;
      }
      return fromResponse(await fetch(url), imports);
    }
    return fromResponse(await fetch(source), imports);
  }
  throw new TypeError(`datafetch load: source must be a URL, a path, an ArrayBuffer, a Uint8Array or a Response, got ${show(source)}`);
}

// nodeURL returns source as a URL when it is one, undefined for a path.
function nodeURL(source) {
  if (source instanceof URL) return source;
  if (/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(source) && !/^[a-zA-Z]:[\\/]/.test(source)) {
    try {
      return new URL(source);
    } catch (err) {
      // Not a URL after all (new URL refuses it with a TypeError): a path.
      if (!(err instanceof TypeError)) throw err;
      return undefined;
    }
  }
  return undefined;
}

async function fromResponse(response, imports) {
  if (!response.ok) {
    throw new Error(`datafetch load: ${response.url || 'datafetch.wasm'}: ${response.status} ${response.statusText}`);
  }
  const type = response.headers.get('Content-Type') ?? '';
  if (typeof WebAssembly.instantiateStreaming === 'function' && type.startsWith('application/wasm')) {
    return (await WebAssembly.instantiateStreaming(response, imports)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}
