// What a garbage collection sweep removes is freed on both sides
// (docs/js-api.md 9.1): rounds of reading a fresh list of records and
// sweeping it away must leave none of an early round's objects alive, and
// must not grow WebAssembly memory round after round. Objects are counted
// with WeakRefs after forced collections, memory in bytes; nothing is
// timed. (node --test runs this file in a process of its own, with the
// fresh instance it loads.)

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DIST, env, fakeClock, setup, test } from './harness.mjs';

setup();

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc');

// The Go instance datafetch.mjs makes (see memory.test.mjs): its memory.
let go;
await import(pathToFileURL(join(DIST, 'wasm_exec.js')).href);
const Go = globalThis.Go;
globalThis.Go = class extends Go {
  constructor() {
    super();
    go = this;
  }
};

const ROUNDS = 40;
const RECORDS = 1000;
// Rounds before memory is measured: the heap and the tables reach their
// working size first.
const WARM_ROUNDS = 10;
// How much wasm memory may grow over the measured rounds, which read and
// sweep RECORDS × 30 records in all (about 5 MB of records): a sweep that
// frees nothing grows it by tens of MB.
const MAX_GROWTH_BYTES = 8 << 20;

// watch adds WeakRefs to the objects of list to refs. A function of its
// own: a suspended async function may keep a loop variable's last value in
// its frame, which would keep that object alive.
function watch(refs, list) {
  for (const r of list) refs.push(new WeakRef(r));
}

// collected runs the JavaScript collector until finalization can have run.
async function collected() {
  for (let i = 0; i < 3; i++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test('sweeping what was read frees its objects on both sides', async () => {
  const { df } = await env();
  const Row = df.Entity({ key: 'SweptRow', defaults: { id: undefined, name: '', text: '' } });
  const rows = new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:9', path: '/rows/:round', schema: [Row], dataExpiryLength: 1000 });
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const early = [];
  let before;
  for (let round = 0; round < ROUNDS; round++) {
    const list = Array.from({ length: RECORDS }, (_, i) => ({ id: round * RECORDS + i, name: `row ${i}`, text: 'x'.repeat(64) }));
    await ctrl.setResponse(rows, { round }, list);
    const read = ctrl.getResponse(rows, { round }).data;
    assert.equal(read.length, RECORDS);
    if (round === 0) watch(early, read);
    clock.advance(10_000);
    const removed = ctrl.gc();
    assert.deepEqual(removed, { results: 1, entities: RECORDS }, `round ${round}: the sweep removed the round`);
    if (round === WARM_ROUNDS) {
      await collected();
      before = go._inst.exports.mem.buffer.byteLength;
    }
  }
  await collected();
  const alive = early.filter((r) => r.deref() !== undefined).length;
  assert.equal(alive, 0, `objects of the first round still alive after ${ROUNDS} sweeps`);
  const growth = go._inst.exports.mem.buffer.byteLength - before;
  assert.ok(growth <= MAX_GROWTH_BYTES, `wasm memory grew ${growth} bytes over ${ROUNDS - WARM_ROUNDS} rounds of reading and sweeping`);
  ctrl.close();
});
