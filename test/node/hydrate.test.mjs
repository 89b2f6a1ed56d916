// Snapshots and hydration (docs/js-api.md, "Snapshots, hydration and
// persistence"): getState() is a versioned, plain-JSON snapshot;
// ctrl.hydrate and the initialState option merge one into a store, newer
// stored data winning by fetchedAt; a malformed or unknown-version snapshot
// is an Error and the store is unchanged. Requests are counted at the
// fixture server.

import assert from 'node:assert/strict';
import { env, failureOf, fakeClock, server, setup, test, waitFor } from './harness.mjs';

setup();

const T = { timeout: 300_000 };
const LIST = 'GET /articles';

// through JSON, as a snapshot rendered into a page or kept in a storage is.
const viaJSON = (v) => JSON.parse(JSON.stringify(v));

test('a snapshot round-trips through JSON: the same data, Dates as Date, no request', T, async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const a = new df.Controller({ now: clock.now });
  const list = await a.fetch(fx.listArticles);
  assert.equal(await server.count(LIST), 1);
  const snapshot = viaJSON(a.getState());
  assert.equal(snapshot.version, 1, 'the snapshot names its format version');

  for (const [how, make] of [
    ['initialState', async () => new df.Controller({ now: clock.now, initialState: snapshot })],
    [
      'hydrate',
      async () => {
        const c = new df.Controller({ now: clock.now });
        await c.hydrate(snapshot);
        return c;
      },
    ],
  ]) {
    const b = await make();
    const r = b.getResponse(fx.listArticles);
    assert.equal(r.expiryStatus, 'valid', how);
    assert.equal(r.expiresAt, a.getResponse(fx.listArticles).expiresAt, `${how}: expiry kept`);
    assert.deepEqual(r.data, list, `${how}: the same data`);
    assert.ok(r.data[0].createdAt instanceof Date, `${how}: a Date field comes back as a Date`);
    assert.equal(r.data[0].createdAt.getTime(), list[0].createdAt.getTime());
    assert.equal(r.data[0].author?.name, list[0].author?.name, `${how}: nested entities resolved`);
    assert.equal(await b.useSuspense(fx.listArticles), r.data, `${how}: useSuspense answers from the snapshot`);
    assert.deepEqual(viaJSON(b.getState()), snapshot, `${how}: the state is the snapshot`);
  }
  assert.equal(await server.count(LIST), 1, 'no request after hydration');
});

test('after hydration a stale result resolves at once and revalidates', T, async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const a = new df.Controller({ now: clock.now, dataExpiryLength: 60_000 });
  const list = await a.fetch(fx.listArticles);
  clock.advance(120_000);
  const b = new df.Controller({ now: clock.now, initialState: viaJSON(a.getState()) });
  assert.equal(b.getResponse(fx.listArticles).expiryStatus, 'stale');
  assert.deepEqual(await b.useSuspense(fx.listArticles), list, 'the stale data at once');
  await waitFor(async () => (await server.count(LIST)) === 2, { message: 'the revalidation request' });
  await waitFor(() => b.getResponse(fx.listArticles).expiryStatus === 'valid', { message: 'revalidated' });
});

test('newer stored data wins over an older snapshot by fetchedAt, both ways', T, async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const article = (title) => ({ id: '1', title, content: '', published: false, author: null, tags: [], createdAt: '2024-01-01T00:00:00Z' });
  const old = new df.Controller({ now: clock.now });
  await old.setResponse(fx.getArticle, { id: '1' }, article('older'));
  const olderSnapshot = viaJSON(old.getState());
  clock.advance(1000);

  const c = new df.Controller({ now: clock.now });
  await c.setResponse(fx.getArticle, { id: '1' }, article('stored'));
  const before = c.getState();
  await c.hydrate(olderSnapshot);
  assert.equal(c.getResponse(fx.getArticle, { id: '1' }).data.title, 'stored', 'the store is newer: kept');
  assert.deepEqual(c.getState(), before);

  clock.advance(1000);
  const newer = new df.Controller({ now: clock.now });
  await newer.setResponse(fx.getArticle, { id: '1' }, article('newer'));
  await c.hydrate(viaJSON(newer.getState()));
  assert.equal(c.getResponse(fx.getArticle, { id: '1' }).data.title, 'newer', 'the snapshot is newer: taken');
});

test('a malformed or unknown-version snapshot is an Error naming what is wrong; the store is unchanged', T, async () => {
  const { df, fx } = await env();
  const c = new df.Controller();
  await c.fetch(fx.getArticle, { id: '1' });
  const good = viaJSON(c.getState());
  const before = c.getState();
  const bad = [
    [{ ...good, version: 7 }, 'hydrate: version 7 is not known (this build reads 1)'],
    [{ entities: {} }, 'hydrate: version is missing (this build reads 1)'],
    [{ ...good, entities: { Article: { 1: 'x' } } }, 'hydrate: entities.Article["1"]: a string, not an object or an array'],
    [
      { ...good, entitiesMeta: { ...good.entitiesMeta, Article: { 1: { fetchedAt: 'now', expiresAt: 1 } } } },
      'hydrate: entitiesMeta.Article["1"].fetchedAt: a string, not a number',
    ],
    [{ ...good, meta: {} }, `hydrate: meta[${JSON.stringify(Object.keys(good.endpoints)[0])}]: missing`],
  ];
  for (const [snapshot, message] of bad) {
    const err = await failureOf(() => c.hydrate(snapshot), message);
    assert.ok(err instanceof Error);
    assert.equal(err.message, message);
    assert.deepEqual(c.getState(), before, `${message}: the store is as it was`);
    assert.throws(() => new df.Controller({ initialState: snapshot }), { message: `Controller: initialState: ${message}` });
  }
  for (const notASnapshot of [null, 'text', [good]]) {
    const err = await failureOf(() => c.hydrate(notASnapshot), `hydrate(${JSON.stringify(notASnapshot)})`);
    assert.ok(err instanceof TypeError);
    assert.match(err.message, /^hydrate: a snapshot must be an object/);
  }
  assert.deepEqual(c.getState(), before);
  assert.equal(c.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'valid', 'the instance still works');
});

test('a time out of range (as near 2^63 ms) is refused, naming it; the store is unchanged and later fetches win', T, async () => {
  const { df, fx } = await env();
  const a = new df.Controller();
  const fetched = await a.fetch(fx.getArticle, { id: '1' });
  const good = viaJSON(a.getState());
  const key = fx.getArticle.key({ id: '1' });
  good.entities.Article['1'].title = 'poisoned';
  const RANGE = 'is out of range (a time is epoch milliseconds within ±9007199254740991)';
  // Such a time used to be taken: every later stamp overflowed, and the
  // record outlived every fetch.
  const cases = [
    [(s) => (s.meta[key].fetchedAt = 1e300), `hydrate: meta[${JSON.stringify(key)}].fetchedAt: 1e+300 ${RANGE}`],
    [(s) => (s.entitiesMeta.Article['1'].fetchedAt = 9.3e18), `hydrate: entitiesMeta.Article["1"].fetchedAt: 9300000000000000000 ${RANGE}`],
    [(s) => (s.entitiesMeta.Article['1'].expiresAt = 2 ** 63), `hydrate: entitiesMeta.Article["1"].expiresAt: 9223372036854776000 ${RANGE}`],
    [(s) => (s.meta[key].date = -1e300), `hydrate: meta[${JSON.stringify(key)}].date: -1e+300 ${RANGE}`],
  ];
  for (const [poison, message] of cases) {
    const snapshot = structuredClone(good);
    poison(snapshot);
    for (const how of ['hydrate', 'initialState']) {
      let c = new df.Controller();
      let err;
      try {
        if (how === 'hydrate') await c.hydrate(snapshot);
        else c = new df.Controller({ initialState: snapshot });
      } catch (e) {
        err = e;
      }
      const empty = new df.Controller().getState();
      const state = c.getState();
      assert.equal((await c.fetch(fx.getArticle, { id: '1' })).title, fetched.title, `${how}, ${message}: a fetch is stored`);
      assert.equal(err?.message, how === 'hydrate' ? message : `Controller: initialState: ${message}`, how);
      assert.deepEqual(state, empty, `${how}, ${message}: the store is unchanged`);
    }
  }
});

test('a snapshot is checked as a response is: data no response could have stored is refused, or read as missing and fetched', T, async () => {
  const { df, fx } = await env();
  const a = new df.Controller();
  const article = await a.fetch(fx.getArticle, { id: '1' });
  const list = await a.fetch(fx.listArticles);
  const good = viaJSON(a.getState());
  const one = fx.getArticle.key({ id: '1' });
  const all = fx.listArticles.key({});
  const forged = (edit) => {
    const s = structuredClone(good);
    edit(s);
    return s;
  };
  const cases = [
    [
      'a record under another pk',
      forged((s) => {
        s.entities.Article['1'] = { ...s.entities.Article['1'], id: '2', title: 'forged' };
      }),
      'hydrate: entities.Article["1"].id: "2", not the record\'s key "1"',
    ],
    [
      'a record without its pk',
      forged((s) => {
        const { id, ...rest } = s.entities.Article['1'];
        s.entities.Article['1'] = { ...rest, title: 'forged' };
      }),
      'hydrate: entities.Article["1"].id: missing: the record has no primary key',
    ],
    [
      'a list result that is a string',
      forged((s) => {
        s.endpoints[all] = '1';
      }),
      `hydrate: endpoints[${JSON.stringify(all)}]: a string, not an array (the schema of its endpoint is [Article])`,
    ],
    [
      'an entity result that is a record',
      forged((s) => {
        s.endpoints[one] = { title: 'forged' };
      }),
      `hydrate: endpoints[${JSON.stringify(one)}]: an object, not a pk of Article (a string or a number) (the schema of its endpoint is Article)`,
    ],
  ];
  for (const [what, snapshot, message] of cases) {
    // A controller that knows the schemas (it read those endpoints) refuses
    // the snapshot, naming the place; its store is unchanged.
    const before = a.getState();
    const err = await failureOf(() => a.hydrate(snapshot), what);
    assert.equal(err.message, message, what);
    assert.deepEqual(a.getState(), before, `${what}: the store is unchanged`);

    // A new one (a page's initial state) checks each part when it is first
    // read: the forged parts read as missing, and are fetched.
    const c = new df.Controller({ initialState: snapshot });
    assert.notEqual(c.get(fx.Article, { id: '1' })?.title, 'forged', `${what}: Article 1 as an entity`);
    assert.equal(c.get(fx.Article, { id: '2' })?.title, list[1].title, `${what}: Article 2 is the one stored`);
    for (const [ep, params, want] of [
      [fx.getArticle, { id: '1' }, article],
      [fx.listArticles, {}, list],
    ]) {
      const r = c.getResponse(ep, params);
      assert.ok(JSON.stringify(r.data ?? null).includes('forged') === false, `${what}: ${ep.key(params)} read ${JSON.stringify(r.data)}`);
      assert.deepEqual(viaJSON(await c.useSuspense(ep, params)), viaJSON(want), `${what}: ${ep.key(params)}`);
    }
  }
});
