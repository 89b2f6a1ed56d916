// The calls into Go: the entries the Go program registered (its bridge),
// whether the program has exited, and the release of Go objects when the
// JavaScript objects holding them are collected.

import { bindCalls } from './calls.mjs';
import { makeError } from './errors.mjs';
import { Transport } from './transport.mjs';
import { Exchange, decode, response } from './wire.mjs';

let exited = false;

// The message of wasm_exec.js's Error for a call into a Go program that has
// exited.
const GO_EXITED = /Go program has already exited/;

// How long, in ms, the Go collector's run after a reset, a sweep or a
// large read (jsbridge/release.go) waits for the page to be idle: a page
// that never is (a loop of operations, each awaiting the last) still
// collects that often, so that the heap, and the wasm memory, which never
// shrinks, do not grow to the collector's own target in between.
const IDLE_COLLECT_MS = 50;

// idle calls fn once the page is idle (requestIdleCallback, within
// IDLE_COLLECT_MS), so that the collection does not run inside the
// caller's next operations; where there is no requestIdleCallback
// (Node.js, Deno), after a setTimeout(0). Looked up at each call, as a
// test may install one.
function idle(fn) {
  if (typeof globalThis.requestIdleCallback === 'function') globalThis.requestIdleCallback(fn, { timeout: IDLE_COLLECT_MS });
  else setTimeout(fn, 0);
}

/** Records that the Go program has exited: no call into Go can succeed. */
export function markExited() {
  exited = true;
}

// makeBridge returns what the rest of an API instance uses to reach go, the
// bridge a Go program registered, and wasmExports (its instance's exports,
// or undefined): calls (the entries, see calls.mjs), startAsync, promised, hold, finalizer, endpointRefs,
// and the module's memory and exported(), its exported entries (an
// Exchange) when there are exports. resume, when given, resumes the Go
// program (wasm_exec.js's Go._resume): with it, the fetch path reports to
// Go through exports (internal/transport.mjs).
export function makeBridge(go, wasmExports, resume) {
  const memory = wasmExports?.mem;
  // An exported entry that failed keeps its error for exchangeError to
  // throw (calls is set below, before any call).
  const fail = () => calls.exchangeError();
  const exchange = typeof wasmExports?.datafetchGetResponse === 'function' ? new Exchange(wasmExports, fail) : undefined;
  // Goroutines an exported call leaves runnable, the collector's mark
  // workers above all, run only when Go next gets control (a js.FuncOf
  // call, a Go timer, a resume: jsbridge/wake.go). A page that only reads
  // and sets through exports for a while would give it none: no collection
  // could finish, and the module's memory would grow with every call
  // (4 KB a one-record setResponse). So a resume follows exported calls,
  // once per task, after the caller's code has run.
  let resumeQueued = false;
  const resumeAfter = () => {
    resumeQueued = false;
    if (!exited) resume();
  };
  // A call through an exported entry, or undefined when there is none or
  // the program has exited (then call reports it).
  const exported = () => {
    if (exited || exchange === undefined) return undefined;
    if (resume !== undefined && !resumeQueued) {
      resumeQueued = true;
      setTimeout(resumeAfter, 0);
    }
    return exchange;
  };

  // call runs a synchronous Go entry, which returns its error as an Error.
  function call(name, ...args) {
    if (exited) throw new Error('datafetch: datafetch.wasm has exited');
    const r = go[name](...args);
    if (r instanceof Error) throw r;
    return r;
  }

  // callAsync runs an asynchronous Go entry, which settles the Promise.
  function callAsync(name, ...args) {
    return new Promise((resolve, reject) => {
      if (exited) throw new Error('datafetch: datafetch.wasm has exited');
      const r = go[name](resolve, reject, ...args);
      if (r instanceof Error) reject(r);
    });
  }

  // calls are the entries as functions (calls.mjs, generated from the Go
  // table jsbridge/calls.go): the only way the modules call Go's entries.
  const calls = bindCalls(call, callAsync, go);

  // promised runs a synchronous operation that the API presents as
  // returning a Promise: it takes effect now, and its error rejects.
  function promised(fn) {
    try {
      fn();
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err);
    }
  }

  // With the memory, Go hands a read's output over as its address and
  // length, decoded in place, rather than as a copy of its bytes
  // (jsbridge/controller.go handOver).
  const lib = { decode, response, makeError, idle };
  // A ctrl.get read is handed over here (hand) and taken by the caller
  // (takeHanded) rather than returned through Go: a value Go has held stays
  // referenced from wasm_exec.js's table until Go's collector finalizes its
  // handle, and so would every object a get built, after a sweep or a reset
  // let it go.
  let handed;
  lib.hand = (objs, bytes) => {
    handed = undefined;
    handed = decode(objs, bytes);
  };
  const takeHanded = () => {
    const v = handed;
    handed = undefined;
    return v;
  };
  if (memory) {
    const at = (fn) => (objs, addr, len) => fn(objs, new Uint8Array(memory.buffer, addr, len));
    lib.decodeAt = at(decode);
    lib.responseAt = at(response);
    lib.handAt = at(lib.hand);
  }
  // watch has Go's settle told how a promise Go awaits settles (await in
  // jsbridge/promise.go): one Go callback for every await instead of two
  // made for each. settle returns an Error only for an id Go is not
  // waiting for, a fault with no caller to throw to.
  const settled = (r) => {
    if (r instanceof Error) console.error('datafetch:', r);
  };
  lib.watch = (promise, id) => {
    promise.then(
      (v) => settled(exited ? undefined : calls.settle(id, true, v)),
      (e) => settled(exited ? undefined : calls.settle(id, false, e)),
    );
  };
  // startAsync starts an asynchronous entry through the exports
  // (Transport.start), or returns undefined: then callAsync does.
  let startAsync = () => undefined;
  if (resume !== undefined && typeof wasmExports?.datafetchWake === 'function') {
    // An exited program cannot be resumed; what it waited for is dropped.
    const transport = new Transport(
      wasmExports,
      () => {
        if (!exited) resume();
      },
      fail,
    );
    lib.request = (id, fetch, url, initText, extra, body, keepBody) => transport.request(id, fetch, url, initText, extra, body, keepBody);
    lib.await = (promise, id) => transport.await(promise, id);
    lib.awaitText = (promise, id) => transport.awaitText(promise, id);
    lib.take = (id) => transport.take(id);
    lib.abort = (id) => transport.abort(id);
    lib.complete = (id, ok, value) => transport.complete(id, ok, value);
    startAsync = (op, ctrl, h, paramsText, bodyText) => (exited ? undefined : transport.start(op, ctrl, h, paramsText, bodyText));
  }
  calls.setLibrary(lib);

  // Go objects are released when the JavaScript objects holding them are
  // collected.
  const endpointRefs = new Map(); // handle → WeakRef of its RestEndpoint
  const finalizer =
    typeof FinalizationRegistry === 'function'
      ? new FinalizationRegistry((h) => {
          endpointRefs.delete(h);
          // An exited program holds nothing to release.
          if (exited) return;
          try {
            calls.release(h);
          } catch (err) {
            // release reports its errors as a returned Error; a throw is
            // wasm_exec's refusal once the program has exited, which this
            // side may not have heard of yet (run()'s Promise settles
            // later, and attach() callers have no such Promise). Anything
            // else is reported: a finalizer has no caller to throw to.
            if (!GO_EXITED.test(err?.message)) console.error('datafetch: releasing a Go object failed:', err);
          }
        })
      : undefined;
  function hold(obj, h) {
    Object.defineProperty(obj, '_h', { value: h });
    finalizer?.register(obj, h);
  }

  return { calls, startAsync, promised, hold, finalizer, endpointRefs, memory, exported, takeHanded };
}
