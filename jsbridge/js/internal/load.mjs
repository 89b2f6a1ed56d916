// load(): instantiates datafetch.wasm (from a URL, a path, bytes, a
// Response or a compiled module), runs it, and attaches the API to the
// bridge it registers.
//
// Nothing here imports a Node.js module: the package's "node" entry
// (datafetch.node.mjs) hands load() a file reader, so browser bundles never
// meet a node: import. The toolchain's support file is imported statically,
// so a bundler makes no separate chunk of it (a worker bundled as a classic
// script cannot have chunks).

// The Go toolchain's own support file, matching the compiler: a classic
// script that sets globalThis.Go when evaluated.
import '../wasm_exec.js';
import { attach } from './api.mjs';
import { markExited } from './bridge.mjs';
import { GO_GLOBAL } from './calls.mjs';
import { show } from './values.mjs';

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
    loading.then(
      (api) => {
        loaded = api;
      },
      // A failed load may be retried; callers of this one still see the error.
      () => {
        loading = undefined;
      },
    );
  }
  return loading;
}

let loaded;

/** The API load() resolved to; undefined until it has. */
export function loadedAPI() {
  return loaded;
}

/**
 * setFileReader makes load() read paths and file: URLs with read (a
 * function of a path or URL to the file's bytes); the package's Node.js
 * entry calls it. Without it, under Node.js, load() reads them with
 * node:fs, reached through process.getBuiltinModule (not an import, which
 * a browser bundle would meet).
 */
export function setFileReader(read) {
  readFile = read;
}

let readFile;

/**
 * setDefaultSource sets where load() finds datafetch.wasm when given no
 * source: the package's entry (datafetch.mjs) gives the file beside
 * itself, which is beside the bundle once a bundler has put the entry in
 * one (esbuild copies no file: the app copies datafetch.wasm there), and
 * the file the bundler emitted when it follows new URL(..., import.meta.url)
 * (Vite, webpack).
 */
export function setDefaultSource(url) {
  defaultWasm ??= url;
}

let defaultWasm;

// nodeFileReader reads a path or file: URL with node:fs under Node.js
// (20.16 and later have process.getBuiltinModule); undefined elsewhere.
function nodeFileReader() {
  const builtin = globalThis.process?.getBuiltinModule;
  if (typeof builtin !== 'function') return undefined;
  const fs = builtin('node:fs/promises');
  const { fileURLToPath } = builtin('node:url');
  return (source) => fs.readFile(source instanceof URL ? fileURLToPath(source) : source);
}

/**
 * The environment datafetch.wasm runs with: its collector settings, which
 * the Go runtime reads as it starts (wasm/main.go says why they are set
 * here). In wasm the collector runs on the page's only thread and stops
 * the work while it marks: at the default target (GOGC=100) it took a
 * third of a cold read (test/bench profiles). GOGC=1000 makes the first
 * target 40 MB (the runtime's floor is 4 MB × GOGC/100), so that a read of
 * 10,000 articles (about 30 MB of garbage and new records) from a small
 * heap runs without a collection in its middle; after every collection the
 * bridge sets GOGC from the heap left live (jsbridge/pacer.go): 40 MB
 * again while the heap is small, five times the heap once it is large.
 * GOMEMLIMIT bounds it, so that a large store falls back to collecting
 * more often, not to growing (test/bench/README.md, Collector pacing).
 */
const GO_ENV = Object.freeze({ GOGC: '1000', GOMEMLIMIT: '1GiB' });

async function start(source) {
  const go = new globalThis.Go();
  go.env = { ...go.env, ...GO_ENV };
  const instance = await instantiate(source ?? defaultSource(), go.importObject);
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

// defaultSource is datafetch.wasm beside the package's entry (see
// setDefaultSource), or beside the package's modules when the entry did
// not say. Vite's dev server is the exception: its pre-bundler copies the
// entry into node_modules/.vite/deps, where that URL answers the app's
// HTML (vitejs/vite#8427), so a default that finds itself under a
// node_modules folder but not in the package's own also tries the
// package's folder there.
function defaultSource() {
  const beside = defaultWasm ?? new URL('../datafetch.wasm', import.meta.url);
  const at = beside.href.lastIndexOf(NODE_MODULES);
  if (at < 0) return beside;
  const own = new URL(`${beside.href.slice(0, at + NODE_MODULES.length)}${PACKAGE_NAME}/datafetch.wasm`);
  return own.href === beside.href ? beside : [beside, own];
}

// The folder packages are installed in, and the package's name: what
// defaultSource needs to tell whether a bundler moved the entry.
const NODE_MODULES = '/node_modules/';
const PACKAGE_NAME = 'datafetch';

async function instantiate(source, imports) {
  if (Array.isArray(source)) return firstOf(source, imports);
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
    if (isNode()) {
      const url = nodeURL(source);
      if (url === undefined || url.protocol === 'file:') {
        readFile ??= nodeFileReader();
        if (readFile === undefined) {
          throw new Error(
            `datafetch load: cannot read ${source} here: under Node.js, import the package by its name (its "node" entry, datafetch.node.mjs, reads files), or pass datafetch.wasm's bytes`,
          );
        }
        return (await WebAssembly.instantiate(await readFile(url ?? source), imports)).instance;
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

// firstOf instantiates the first of the URLs that answers with a module,
// and reports the first URL's failure when none does.
async function firstOf(urls, imports) {
  let first;
  for (const url of urls) {
    try {
      const response = await fetch(url);
      if (response.ok && !isHTML(response)) return await fromResponse(response, imports);
      first ??= response;
    } catch (err) {
      first ??= err;
    }
  }
  if (first instanceof Error) throw first;
  return fromResponse(first, imports);
}

function isHTML(response) {
  return (response.headers.get('Content-Type') ?? '').startsWith('text/html');
}

async function fromResponse(response, imports) {
  if (!response.ok) {
    throw new Error(`datafetch load: ${response.url || 'datafetch.wasm'}: ${response.status} ${response.statusText}`);
  }
  if (isHTML(response)) {
    throw new Error(`datafetch load: ${response.url || 'datafetch.wasm'} answered an HTML page, not datafetch.wasm (is the file served there?)`);
  }
  const type = response.headers.get('Content-Type') ?? '';
  if (typeof WebAssembly.instantiateStreaming === 'function' && type.startsWith('application/wasm')) {
    return (await WebAssembly.instantiateStreaming(response, imports)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}
