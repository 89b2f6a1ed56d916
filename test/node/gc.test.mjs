// Garbage collection (docs/js-api.md 9.1): ctrl.gc() removes the results
// no subscription holds whose stretched expiry has passed, then the
// entities no remaining result reaches; held results keep their objects.
// Time comes from the controller's now option; the periodic sweep runs on
// node:test's mocked setInterval. Nothing sleeps.

import assert from 'node:assert/strict';
import { env, fakeClock, server, setup, test } from './harness.mjs';

setup();

const T = { timeout: 300_000 };
const MINUTE = 60_000;

const article = (id, author) => ({ id, title: `t${id}`, content: '', published: false, tags: [], author, createdAt: '2024-01-01T00:00:00Z' });
const writer = (id) => ({ id, name: `n${id}`, email: '', isManager: false });

// stored lists what getState() holds: entity "Key/pk"s and endpoint keys.
function stored(ctrl) {
  const st = ctrl.getState();
  const entities = Object.entries(st.entities).flatMap(([k, byPK]) => Object.keys(byPK).map((pk) => `${k}/${pk}`));
  return { entities: entities.sort(), endpoints: Object.keys(st.meta).sort() };
}

test('gc() removes an unheld result past its stretched expiry, and its entities; not before', T, async () => {
  const { df, fx } = await env();
  for (const [multiplier, after, removed] of [
    [undefined, 90_000, false], // stale, not yet twice its expiry length
    [undefined, 2 * MINUTE + 1, true],
    [3, 2 * MINUTE + 1, false],
    [1, MINUTE + 1, true],
  ]) {
    const what = `expiryMultiplier ${multiplier}, ${after} ms later`;
    const clock = fakeClock();
    const ctrl = new df.Controller({ now: clock.now, dataExpiryLength: MINUTE, gc: { expiryMultiplier: multiplier } });
    await ctrl.setResponse(fx.listArticles, {}, [article('1', writer('a')), article('2', writer('b'))]);
    clock.advance(after);
    const swept = ctrl.gc();
    const r = ctrl.getResponse(fx.listArticles, {});
    if (removed) {
      assert.deepEqual(swept, { results: 1, entities: 4 }, what);
      assert.equal(r.expiryStatus, 'missing', what);
      assert.equal(r.data, undefined, what);
      assert.deepEqual(stored(ctrl), { entities: [], endpoints: [] }, `${what}: getState() lists nothing removed`);
    } else {
      assert.deepEqual(swept, { results: 0, entities: 0 }, what);
      assert.notEqual(r.expiryStatus, 'missing', what);
      assert.equal(stored(ctrl).entities.length, 4, what);
    }
    ctrl.close();
  }
  assert.equal(await server.count('GET /articles'), 0, 'no request');
});

test('a subscribed result survives gc() with its entities, the same objects; an unheld one next to it goes', T, async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now, dataExpiryLength: MINUTE });
  await ctrl.setResponse(fx.listArticles, {}, [article('1', writer('a')), article('2', writer('b'))]);
  await ctrl.setResponse(fx.getArticle, { id: '3' }, article('3', writer('b')));
  const seen = [];
  const unsubscribe = ctrl.subscribe(fx.listArticles, {}, (s) => seen.push(s), { fetch: false });
  const before = ctrl.getResponse(fx.listArticles, {}).data;

  clock.advance(24 * 60 * MINUTE);
  assert.deepEqual(ctrl.gc(), { results: 1, entities: 1 }, 'getArticle 3 and article 3 go; author b stays, article 2 names it');

  const after = ctrl.getResponse(fx.listArticles, {});
  assert.equal(after.data, before, 'the held result reads the same object');
  assert.equal(after.data[1].author, before[1].author, 'and the same nested objects');
  assert.equal(after.expiryStatus, 'stale');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '3' }).expiryStatus, 'missing');
  assert.deepEqual(stored(ctrl).entities, ['Article/1', 'Article/2', 'User/a', 'User/b']);
  assert.equal(seen.length, 1, 'the subscriber hears nothing of a sweep');

  unsubscribe();
  assert.deepEqual(ctrl.gc(), { results: 1, entities: 4 }, 'released, it goes');
  assert.equal(ctrl.getResponse(fx.listArticles, {}).expiryStatus, 'missing');
  assert.deepEqual(stored(ctrl), { entities: [], endpoints: [] });
  ctrl.close();
});

test('the gc option sweeps every interval until close()', T, async (t) => {
  const { df, fx } = await env();
  t.mock.timers.enable({ apis: ['setInterval'] });
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now, dataExpiryLength: MINUTE, gc: {} });
  await ctrl.setResponse(fx.getArticle, { id: '1' }, article('1', null));
  clock.advance(3 * MINUTE);
  t.mock.timers.tick(300_000 - 1);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'stale', 'not swept before the interval');
  t.mock.timers.tick(1);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'missing', 'swept at 300000 ms, the default');

  await ctrl.setResponse(fx.getArticle, { id: '2' }, article('2', null));
  clock.advance(3 * MINUTE);
  ctrl.close();
  t.mock.timers.tick(600_000);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '2' }).expiryStatus, 'stale', 'no sweep after close()');

  // Without the option nothing sweeps on its own.
  const plain = new df.Controller({ now: clock.now, dataExpiryLength: MINUTE });
  await plain.setResponse(fx.getArticle, { id: '1' }, article('1', null));
  clock.advance(3 * MINUTE);
  t.mock.timers.tick(600_000);
  assert.equal(plain.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'stale');
});

test('a bad gc option is a TypeError naming it', T, async () => {
  const { df } = await env();
  for (const [gc, words] of [
    [true, 'gc must be an object'],
    [300000, 'gc must be an object'],
    [{ interval: 0 }, 'gc.interval'],
    [{ interval: '5m' }, 'gc.interval'],
    [{ interval: 2 ** 31 }, 'gc.interval'],
    [{ expiryMultiplier: 0.5 }, 'gc.expiryMultiplier'],
    [{ expiryMultiplier: Number.NaN }, 'gc.expiryMultiplier'],
    [{ expiryMultiplier: Number.POSITIVE_INFINITY }, 'gc.expiryMultiplier'],
  ]) {
    assert.throws(
      () => new df.Controller({ gc }),
      (err) => err instanceof TypeError && err.message.includes(words),
      `gc: ${JSON.stringify(gc)}`,
    );
  }
});

test('a held Query keeps what it reads through gc() (the hold useQuery makes while mounted); released, it goes', T, async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now, dataExpiryLength: MINUTE });
  await ctrl.setResponse(fx.listArticles, {}, [article('1', writer('a')), article('2', writer('b'))]);
  const titles = new df.schema.Query(new df.schema.All(fx.Article), (entries) => entries.map((a) => a.title));
  const release = ctrl[Symbol.for('datafetch.controller.hold')](titles);
  const before = ctrl.get(titles);
  assert.deepEqual(before, ['t1', 't2']);

  clock.advance(60 * MINUTE);
  assert.deepEqual(ctrl.gc(), { results: 1, entities: 0 }, 'the unheld list result goes; the articles the held Query reads stay');
  assert.equal(ctrl.get(titles), before, 'the same derived object');

  release();
  release(); // again: nothing
  assert.deepEqual(ctrl.gc(), { results: 0, entities: 4 }, 'released: the articles and their authors go');
  assert.equal(ctrl.get(titles), undefined, 'every article swept: nothing stored, as before any was');
  assert.throws(() => ctrl[Symbol.for('datafetch.controller.hold')]([fx.Article]), TypeError);
  ctrl.close();
});

// After resetEntireStore the Go collector runs once the page is idle
// (requestIdleCallback, where there is one, with a timeout so that a page
// never idle still collects), not from a timer that would run it inside
// the caller's next operation.
test('the collection after resetEntireStore waits for requestIdleCallback, with a timeout', T, async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller({ now: fakeClock().now });
  await ctrl.setResponse(fx.listArticles, {}, [article('1', writer('a'))]);
  // A collection an earlier test asked for runs from its timer first: one
  // asked for while another is pending is folded into it, unscheduled.
  // Not a bet on speed: that timer is a setTimeout(0) set before this
  // one, and Node runs timers of one delay in the order they were set.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const calls = [];
  globalThis.requestIdleCallback = (fn, options) => calls.push({ fn, options });
  try {
    await ctrl.resetEntireStore();
    assert.equal(calls.length, 1, 'one idle callback asked for');
    assert.equal(typeof calls[0].fn, 'function');
    assert.deepEqual(calls[0].options, { timeout: 50 });
    calls[0].fn({ didTimeout: false, timeRemaining: () => 50 });
  } finally {
    delete globalThis.requestIdleCallback;
  }
  assert.equal(ctrl.getResponse(fx.listArticles, {}).data, undefined, 'the store is empty');
});
