// What a garbage collection sweep removes is freed on both sides
// (docs/js-api.md 9.1): rounds of reading a fresh list of records and
// sweeping it away must leave none of an early round's objects alive, and
// must not grow WebAssembly memory round after round, whichever way the
// records were read; and what one sweep removed is collectable as soon as
// it returns, wherever the library kept it (a result's identity slot, the
// previous emission of a result that stays, ctrl.get's reads and their
// memo). What a sweep keeps is still the same object. Objects are counted
// with WeakRefs after forced collections, memory in bytes; nothing is
// timed. (node --test runs this file in a process of its own, with the
// fresh instance it loads.)

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DIST, env, fakeClock, setup, test, waitFor } from './harness.mjs';

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
// Rounds of reading and resetting, measured from the first: a reset that
// leaves its garbage to the collector's own pace grows memory round after
// round towards the collector's target (at least 16 MB, wasm/main.go),
// about 13 MB here; one that collects, by the first round's peak.
const RESET_ROUNDS = 12;
const RESET_GROWTH_BYTES = 4 << 20;
// Records of the tests that sweep once: fewer than ctrl.get keeps reads of
// one schema for (MAX_QUERY_ARGS in controller.mjs), so that only a sweep
// can let them go.
const FEW = 50;
// The fake clock's step past every expiry (dataExpiryLength 1000, swept at
// twice that).
const LATER = 10_000;

// watch adds WeakRefs to the objects of list to refs. A function of its
// own: a suspended async function may keep a loop variable's last value in
// its frame, which would keep that object alive.
function watch(refs, list) {
  for (const r of list) refs.push(new WeakRef(r));
}

// alive counts the objects of refs still alive.
const alive = (refs) => refs.filter((r) => r.deref() !== undefined).length;

// collected runs the JavaScript collector until finalization can have run.
async function collected() {
  for (let i = 0; i < 3; i++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

// freed waits until none of refs is alive. A read that crossed through Go
// (ctrl.get is a js.FuncOf entry) stays referenced from wasm_exec.js's table
// of values until Go's collector finalizes its handle; the bridge runs one
// from a timer after a sweep (jsbridge/release.go), so that is waited for
// (HANG_GUARD bounds the wait, not its speed).
async function freed(refs, what) {
  await waitFor(
    async () => {
      await collected();
      return alive(refs) === 0;
    },
    { message: `${alive(refs)} of ${refs.length} objects of ${what} still alive` },
  );
}

// rowsOf returns n records with ids from first.
function rowsOf(first, n) {
  return Array.from({ length: n }, (_, i) => ({ id: first + i, name: `row ${i}`, text: 'x'.repeat(64) }));
}

// sweeping returns a controller on a fake clock, an entity and a list
// endpoint of it whose data expires in a second.
async function sweeping(name) {
  const { df } = await env();
  const Row = df.Entity({ key: name, defaults: { id: undefined, name: '', text: '' } });
  const rows = new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:9', path: '/rows/:round', name, schema: [Row], dataExpiryLength: 1000 });
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  return { df, Row, rows, clock, ctrl };
}

// How a round reads the list it stored: its result, or each record by
// ctrl.get.
const readers = {
  getResponse: (s, round) => s.ctrl.getResponse(s.rows, { round }).data,
  'ctrl.get': (s, round) => rowsOf(round * RECORDS, RECORDS).map((r) => s.ctrl.get(s.Row, { id: r.id })),
};

for (const [how, read] of Object.entries(readers)) {
  test(`sweeping what was read (${how}) frees its objects on both sides`, async () => {
    const s = await sweeping(`Swept${how.replace('.', '')}`);
    const early = [];
    let before;
    for (let round = 0; round < ROUNDS; round++) {
      await s.ctrl.setResponse(s.rows, { round }, rowsOf(round * RECORDS, RECORDS));
      const list = read(s, round);
      assert.equal(list.filter((r) => r?.id !== undefined).length, RECORDS);
      if (round === 0) watch(early, list);
      s.clock.advance(LATER);
      const removed = s.ctrl.gc();
      assert.deepEqual(removed, { results: 1, entities: RECORDS }, `round ${round}: the sweep removed the round`);
      if (round === WARM_ROUNDS) {
        await collected();
        before = go._inst.exports.mem.buffer.byteLength;
      }
    }
    await freed(early, `the first round after ${ROUNDS} sweeps`);
    const growth = go._inst.exports.mem.buffer.byteLength - before;
    assert.ok(growth <= MAX_GROWTH_BYTES, `wasm memory grew ${growth} bytes over ${ROUNDS - WARM_ROUNDS} rounds of reading and sweeping`);
    s.ctrl.close();
  });
}

// Each case reads FEW records one way, lets a sweep remove them (what it
// does to the store is checked), and the objects it read must be
// collectable once the sweep returns.
const cases = [
  {
    name: 'a result read, then swept',
    async run(s, refs) {
      await s.ctrl.setResponse(s.rows, { round: 0 }, rowsOf(0, FEW));
      watch(refs, s.ctrl.getResponse(s.rows, { round: 0 }).data);
      s.clock.advance(LATER);
      return { results: 1, entities: FEW };
    },
  },
  {
    name: 'a result invalidated, then swept',
    async run(s, refs) {
      await s.ctrl.setResponse(s.rows, { round: 0 }, rowsOf(0, FEW));
      watch(refs, s.ctrl.getResponse(s.rows, { round: 0 }).data);
      await s.ctrl.invalidate(s.rows, { round: 0 });
      s.clock.advance(LATER);
      return { results: 1, entities: FEW };
    },
  },
  {
    name: 'a result a subscription was given, unsubscribed, then swept',
    async run(s, refs) {
      await s.ctrl.setResponse(s.rows, { round: 0 }, rowsOf(0, FEW));
      // The listener's data crosses through Go's values (wasm_exec.js's
      // table), which hold it until Go's collector runs.
      const stop = s.ctrl.subscribe(s.rows, { round: 0 }, ({ data }) => watch(refs, data), { fetch: false });
      stop();
      s.clock.advance(LATER);
      return { results: 1, entities: FEW };
    },
  },
  {
    name: 'records ctrl.get read, then swept with their result',
    async run(s, refs) {
      await s.ctrl.setResponse(s.rows, { round: 0 }, rowsOf(0, FEW));
      watch(
        refs,
        rowsOf(0, FEW).map((r) => s.ctrl.get(s.Row, { id: r.id })),
      );
      s.clock.advance(LATER);
      return { results: 1, entities: FEW };
    },
  },
  {
    name: 'a Query over all records, unheld, then swept',
    async run(s, refs) {
      await s.ctrl.setResponse(s.rows, { round: 0 }, rowsOf(0, FEW));
      // Kept alive by s, as an app keeps its queries: ctrl.get's memo of a
      // schema goes with the schema.
      s.all = new s.df.schema.Query(new s.df.schema.All(s.Row), (rows) => rows.map((r) => ({ r })));
      const derived = s.ctrl.get(s.all);
      watch(refs, derived);
      watch(
        refs,
        derived.map((d) => d.r),
      );
      s.clock.advance(LATER);
      return { results: 1, entities: FEW };
    },
  },
  {
    name: 'the records a result listed before its latest fetch, swept while the result stays',
    async run(s, refs) {
      await s.ctrl.setResponse(s.rows, { round: 0 }, rowsOf(0, FEW));
      watch(refs, s.ctrl.getResponse(s.rows, { round: 0 }).data);
      s.clock.advance(LATER);
      await s.ctrl.setResponse(s.rows, { round: 0 }, rowsOf(FEW, FEW));
      assert.equal(s.ctrl.getResponse(s.rows, { round: 0 }).data[0].id, FEW);
      return { results: 0, entities: FEW };
    },
  },
];

for (const c of cases) {
  test(`a sweep frees at once what it removed: ${c.name}`, async () => {
    const s = await sweeping(`Once${cases.indexOf(c)}`);
    const refs = [];
    const want = await c.run(s, refs);
    assert.equal(refs.length >= FEW, true);
    await collected();
    assert.equal(alive(refs), refs.length, 'alive before the sweep');
    assert.deepEqual(s.ctrl.gc(), want, 'what the sweep removed');
    await freed(refs, 'what the sweep removed');
    s.ctrl.close();
  });
}

test('resetEntireStore frees what ctrl.get read', async () => {
  const s = await sweeping('ResetGets');
  await s.ctrl.setResponse(s.rows, { round: 0 }, rowsOf(0, FEW));
  const refs = [];
  watch(
    refs,
    rowsOf(0, FEW).map((r) => s.ctrl.get(s.Row, { id: r.id })),
  );
  await s.ctrl.resetEntireStore();
  await freed(refs, 'what ctrl.get read before the reset');
  assert.equal(s.ctrl.get(s.Row, { id: 0 }), undefined);
  s.ctrl.close();
});

test('what a sweep keeps reads the same objects: a record ctrl.get read that a stored result reaches, and a held result', async () => {
  const s = await sweeping('Kept');
  await s.ctrl.setResponse(s.rows, { round: 0 }, rowsOf(0, 3));
  const stop = s.ctrl.subscribe(s.rows, { round: 0 }, () => {}, { fetch: false });
  const list = s.ctrl.getResponse(s.rows, { round: 0 }).data;
  const one = s.ctrl.get(s.Row, { id: 1 });
  assert.equal(one, list[1]);
  const byQuery = new s.df.schema.Query(s.Row, (r) => ({ name: r.name }));
  const derived = s.ctrl.get(byQuery, { id: 2 });
  // Something to sweep beside them: another round, read both ways.
  await s.ctrl.setResponse(s.rows, { round: 1 }, rowsOf(10, 3));
  s.ctrl.getResponse(s.rows, { round: 1 });
  s.ctrl.get(s.Row, { id: 10 });
  s.clock.advance(LATER);

  assert.deepEqual(s.ctrl.gc(), { results: 1, entities: 3 });
  assert.equal(s.ctrl.getResponse(s.rows, { round: 0 }).data, list, 'the held result');
  assert.equal(s.ctrl.get(s.Row, { id: 1 }), one, 'a record ctrl.get read');
  assert.equal(s.ctrl.get(byQuery, { id: 2 }), derived, "a Query's derived value");
  assert.equal(s.ctrl.get(s.Row, { id: 10 }), undefined, 'a swept record reads nothing');
  stop();
  s.ctrl.close();
});

test('a sweep while an optimistic update is pending keeps what its rollback returns to', async () => {
  const { df } = await env();
  const Row = df.Entity({ key: 'Rolled', defaults: { id: undefined, name: '' } });
  const get = new df.RestEndpoint({ urlPrefix: 'http://rows.test', path: '/rows/:id', name: 'getRolled', schema: Row, dataExpiryLength: 1000 });
  const other = new df.RestEndpoint({ urlPrefix: 'http://rows.test', path: '/other', name: 'otherRolled', schema: [Row], dataExpiryLength: 1000 });
  const rename = new df.RestEndpoint({
    urlPrefix: 'http://rows.test',
    path: '/rows/:id',
    method: 'PATCH',
    name: 'renameRolled',
    schema: Row,
    getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  });
  let fail;
  const clock = fakeClock();
  const ctrl = new df.Controller({
    now: clock.now,
    fetch: () =>
      new Promise((_, reject) => {
        fail = reject;
      }),
  });
  await ctrl.setResponse(get, { id: 1 }, { id: 1, name: 'before' });
  // Shown while the update runs: a sweep keeps it.
  const stop = ctrl.subscribe(get, { id: 1 }, () => {}, { fetch: false });
  const before = ctrl.getResponse(get, { id: 1 }).data;
  const renamed = ctrl.fetch(rename, { id: 1 }, { name: 'during' });
  assert.equal(ctrl.getResponse(get, { id: 1 }).data.name, 'during');
  // A sweep that removes something else while the update is pending.
  await ctrl.setResponse(other, {}, [{ id: 2, name: 'other' }]);
  ctrl.getResponse(other, {});
  clock.advance(LATER);
  assert.equal(ctrl.gc().results, 1, 'the other result goes; the pending write keeps what it touches');

  fail(new TypeError('offline'));
  await assert.rejects(renamed);
  assert.equal(ctrl.getResponse(get, { id: 1 }).data, before, 'the rollback returns the object from before the update');
  stop();
  ctrl.close();
});

// resetEntireStore drops everything the store held: what was read from it
// (through Go's handles too, ctrl.get) is collectable once it returns, and
// rounds of reading a fresh list and resetting reuse the memory the last
// round left rather than grow WebAssembly memory to the Go collector's
// target (which wasm/main.go sets high: five times the live heap, at least
// 16 MB): the bridge collects after a reset (jsbridge/release.go).
test('resetEntireStore frees what the store held on both sides, and rounds of reading and resetting reuse memory', async () => {
  const s = await sweeping('Reset');
  const early = [];
  let before;
  for (let round = 0; round < RESET_ROUNDS; round++) {
    await s.ctrl.setResponse(s.rows, { round }, rowsOf(round * RECORDS, RECORDS));
    const list = readers['ctrl.get'](s, round);
    assert.equal(list.filter((r) => r?.id !== undefined).length, RECORDS);
    if (round === 0) watch(early, list);
    await s.ctrl.resetEntireStore();
    assert.equal(s.ctrl.getResponse(s.rows, { round }).data, undefined, `round ${round}: the reset emptied the store`);
    await collected();
    if (round === 0) before = go._inst.exports.mem.buffer.byteLength;
  }
  await freed(early, `the first round after ${RESET_ROUNDS} resets`);
  const growth = go._inst.exports.mem.buffer.byteLength - before;
  assert.ok(growth <= RESET_GROWTH_BYTES, `wasm memory grew ${growth} bytes over ${RESET_ROUNDS - 1} rounds of reading and resetting after the first`);
  s.ctrl.close();
});
