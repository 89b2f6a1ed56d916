// Memory a large read takes, through the JavaScript API: ctrl.fetch of a
// 20 MB list of comments (the fixture server's /bad/huge) with the global
// fetch, on the fresh instance this file loads (node --test runs each file
// in a process of its own).
//
// - The wasm linear memory, which only grows and never shrinks, must grow
//   by at most 4 times the body, issue 11's target (it grew 8.5 times when
//   the body was copied once more to be parsed and the read's output grew
//   by append, 4.8 times while the output took its size twice, for its
//   string area and for the room reserved for it; test/bench/bodymem.mjs
//   prints the figures, 3.7 times now). wasm runs Go on one thread, so for
//   the same input the collector runs at the same points and the growth is
//   the same from run to run (it moves in 4 MB steps, 0.2 times here).
// - Once the read has resolved, Go holds neither the ArrayBuffer the body
//   came in (nor the Uint8Array over it) nor the string the read was handed
//   over as, each as large as the body: JavaScript values Go has held stay
//   in wasm_exec.js's table of values until Go's collector finalizes its
//   handles. The bridge detaches the buffer once it has copied it, which
//   frees it whatever the table holds, and runs the collector once a large
//   read has been handed over, for the string (jsbridge/release.go).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, env, setup, test, waitFor } from './harness.mjs';

setup();

const MB = 20;

/** The most wasm memory may grow per body byte. */
const MAX_GROWTH = 4;

// The Go instance datafetch.mjs makes: it imports this same wasm_exec.js,
// which is evaluated once, so it makes its Go with the class set here.
let go;
await import(pathToFileURL(join(DIST, 'wasm_exec.js')).href);
const Go = globalThis.Go;
globalThis.Go = class extends Go {
  constructor() {
    super();
    go = this;
  }
};

/** The values in Go's table of JavaScript values of at least n bytes. */
function largeValuesHeld(n) {
  return [...largeStringsHeld(n), ...largeBuffersHeld(n)];
}

/** The strings in Go's table of JavaScript values of at least n characters. */
function largeStringsHeld(n) {
  return go._values.filter((v) => typeof v === 'string' && v.length >= n).map((v) => `string of ${v.length} characters`);
}

/** The ArrayBuffers and views in Go's table of at least n bytes. */
function largeBuffersHeld(n) {
  return go._values
    .filter((v) => (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) && v.byteLength >= n)
    .map((v) => `${v.constructor.name} of ${v.byteLength} bytes`);
}

test(`a ${MB} MB list grows wasm memory by at most ${MAX_GROWTH} times the body, and Go lets the body and the text go`, async (t) => {
  const { df, base, fx } = await env();
  assert.ok(go, 'the test sees the Go instance that datafetch.mjs made');
  const memory = go._inst.exports.mem;
  const huge = new df.RestEndpoint({ urlPrefix: base, path: '/bad/huge', name: 'huge', schema: [fx.Comment] });
  const ctrl = new df.Controller();
  // What one instance allocates once (the controller, the schema, a first
  // response) is not the body's.
  await ctrl.fetch(fx.getComment, { id: 1 });

  const before = memory.buffer.byteLength;
  const list = await ctrl.fetch(huge, { mb: MB });
  const growth = memory.buffer.byteLength - before;

  const bytes = Buffer.byteLength(JSON.stringify(list));
  assert.ok(bytes >= MB << 20, `the read returned the whole list (${bytes} bytes of JSON)`);
  assert.equal(list[list.length - 1].id, list.length);
  const ratio = growth / bytes;
  t.diagnostic(`wasm memory grew ${(growth / 2 ** 20).toFixed(1)} MiB for ${(bytes / 2 ** 20).toFixed(1)} MiB: ${ratio.toFixed(2)} times`);
  assert.ok(
    ratio <= MAX_GROWTH,
    `wasm memory grew by ${(growth / 2 ** 20).toFixed(1)} MiB for a ${(bytes / 2 ** 20).toFixed(1)} MiB body: ${ratio.toFixed(2)} times, want at most ${MAX_GROWTH}`,
  );
  // The buffer is detached before the read resolves, so it is empty now
  // whatever the table holds; the text goes with a collection the bridge
  // runs from a timer once the promise has settled, so that is waited for
  // (HANG_GUARD bounds the wait, not its speed).
  assert.deepEqual(largeBuffersHeld(1 << 20), [], "the body's buffer is empty once the read resolved");
  await waitFor(
    () => {
      const held = largeValuesHeld(1 << 20);
      if (held.length > 0) throw new Error(`Go holds ${held.join(', ')}`);
      return true;
    },
    { message: 'Go kept a JavaScript value of a megabyte or more after the read resolved' },
  );

  // And the instance keeps working: the list is stored and read back.
  assert.equal((await ctrl.useSuspense(huge, { mb: MB })).length, list.length);
});

test('a large body from a Response-like object of a fetch option is read, and the buffer it keeps is left as it was', async () => {
  const { df, fx } = await env();
  // A controller fetch option may answer with an object that only looks
  // like a Response and hands out the same buffer every time: the bridge
  // must not empty it (it empties the buffer of a real Response, which is
  // new each time, once it has copied it).
  const records = [];
  for (let id = 1; records.length * 1100 < 5 << 20; id++) {
    records.push({ postId: 1, id, name: `comment ${id}`, email: `c${id}@example.com`, body: 'x'.repeat(1000) });
  }
  const kept = new TextEncoder().encode(JSON.stringify(records)).buffer;
  const size = kept.byteLength;
  const ctrl = new df.Controller({
    fetch: async () => ({
      status: 200,
      statusText: 'OK',
      headers: new Headers({ 'content-type': 'application/json' }),
      arrayBuffer: async () => kept,
    }),
  });
  const list = new df.RestEndpoint({ urlPrefix: 'http://memory.test', path: '/comments', name: 'keptComments', schema: [fx.Comment] });
  assert.equal((await ctrl.fetch(list, {})).length, records.length);
  assert.equal(kept.byteLength, size, 'the buffer the object keeps still holds the body');
  assert.equal((await ctrl.fetch(list, {})).length, records.length, 'and a second request reads it again');
});
