// df.persist (docs/js-api.md, "Snapshots, hydration and persistence"): the
// snapshot is restored from a storage (unless older than maxAge or written
// with another buster) and written after changes, at most once per
// throttle ms by the controller's clock. Storages here are in memory, with
// synchronous and asynchronous methods; the timer persist waits on is the
// test's (the schedule option), so nothing sleeps. Requests are counted at
// the fixture server.

import assert from 'node:assert/strict';
import { env, failureOf, fakeClock, server, setup, test, waitFor } from './harness.mjs';

setup();

const T = { timeout: 300_000 };
const LIST = 'GET /articles';
const HOUR = 3_600_000;

// memoryStorage keeps values in a Map; async makes every method return a
// Promise. sets counts setItem calls.
function memoryStorage({ async = false } = {}) {
  const map = new Map();
  const wrap = (v) => (async ? Promise.resolve(v) : v);
  const storage = {
    map,
    sets: 0,
    getItem: (k) => wrap(map.has(k) ? map.get(k) : null),
    setItem: (k, v) => {
      storage.sets++;
      map.set(k, v);
      return wrap(undefined);
    },
    removeItem: (k) => wrap(void map.delete(k)),
  };
  return storage;
}

// manualTimers is persist's schedule option: scheduled checks wait until
// the test runs them (fire), instead of a timer.
function manualTimers() {
  const t = {
    pending: [],
    schedule(fn, ms) {
      const entry = { fn, ms };
      t.pending.push(entry);
      return () => {
        t.pending = t.pending.filter((e) => e !== entry);
      };
    },
    // fire runs the checks scheduled so far and waits for the write one may
    // have started.
    async fire() {
      const due = t.pending;
      t.pending = [];
      for (const e of due) e.fn();
      await new Promise((r) => setImmediate(r));
    },
  };
  return t;
}

for (const async of [false, true]) {
  const kind = async ? 'an asynchronous' : 'a synchronous';

  test(`persist with ${kind} storage: written after a change, restored by another controller with no request`, T, async () => {
    const { df, fx } = await env();
    const clock = fakeClock();
    const storage = memoryStorage({ async });
    const timers = manualTimers();
    const a = new df.Controller({ now: clock.now, dataExpiryLength: HOUR });
    const pa = await df.persist(a, { storage, schedule: timers.schedule });
    assert.equal(storage.sets, 0, 'nothing to write yet');
    const list = await a.fetch(fx.listArticles);
    await timers.fire();
    assert.equal(storage.sets, 1, 'written after the change');
    const stored = JSON.parse(storage.map.get('datafetch'));
    assert.equal(stored.savedAt, clock.t, 'stamped by the controller clock');
    assert.equal(stored.state.version, 1);
    pa.stop();

    clock.advance(1000);
    const b = new df.Controller({ now: clock.now });
    await df.persist(b, { storage, schedule: timers.schedule });
    const r = b.getResponse(fx.listArticles);
    assert.equal(r.expiryStatus, 'valid');
    assert.deepEqual(r.data, list);
    assert.ok(r.data[0].createdAt instanceof Date, 'Dates come back as Date');
    assert.deepEqual(await b.useSuspense(fx.listArticles), list);
    assert.equal(await server.count(LIST), 1, 'the restored result needs no request');
    await timers.fire();
    assert.equal(storage.sets, 1, 'a restore alone is no change to write');
  });
}

test('writes are throttled by the controller clock; flush writes at once', T, async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const storage = memoryStorage();
  const timers = manualTimers();
  const c = new df.Controller({ now: clock.now });
  const p = await df.persist(c, { storage, throttle: 1000, schedule: timers.schedule });
  const article = (title) => ({ id: '1', title, content: '', published: false, author: null, tags: [] });
  const storedTitle = () => JSON.parse(storage.map.get('datafetch')).state.entities.Article['1'].title;

  await c.setResponse(fx.getArticle, { id: '1' }, article('one'));
  await timers.fire();
  assert.equal(storage.sets, 1);

  clock.advance(400);
  await c.setResponse(fx.getArticle, { id: '1' }, article('two'));
  await timers.fire();
  assert.equal(storage.sets, 1, 'within throttle ms of the last write: not yet');
  assert.deepEqual(
    timers.pending.map((e) => e.ms),
    [600],
    'the next check waits out the throttle',
  );
  clock.advance(600);
  await timers.fire();
  assert.equal(storage.sets, 2, 'throttle ms after the last write');
  assert.equal(storedTitle(), 'two');

  await timers.fire();
  assert.equal(storage.sets, 2, 'no change, no write');

  await c.setResponse(fx.getArticle, { id: '1' }, article('three'));
  await p.flush();
  assert.equal(storage.sets, 3, 'flush writes at once, throttle or not');
  assert.equal(storedTitle(), 'three');
  await p.flush();
  assert.equal(storage.sets, 3, 'flush with nothing new writes nothing');

  p.stop();
  assert.deepEqual(timers.pending, [], 'stop cancels the scheduled check');
  await c.setResponse(fx.getArticle, { id: '1' }, article('four'));
  await timers.fire();
  assert.equal(storage.sets, 3, 'nothing is written after stop');
});

test('throttle: Infinity writes only on flush, scheduling nothing; a throttle past the longest timer waits at most that long', T, async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const article = { id: '1', title: 'one', content: '', published: false, author: null, tags: [] };
  const MAX_TIMER_MS = 2 ** 31 - 1;

  const storage = memoryStorage();
  const timers = manualTimers();
  const c = new df.Controller({ now: clock.now });
  const p = await df.persist(c, { storage, throttle: Infinity, schedule: timers.schedule });
  await c.setResponse(fx.getArticle, { id: '1' }, article);
  assert.deepEqual(timers.pending, [], 'no check is scheduled');
  assert.equal(storage.sets, 0);
  await p.flush();
  assert.equal(storage.sets, 1, 'flush writes');
  p.stop();

  const month = 30 * 24 * 3600 * 1000;
  const other = memoryStorage();
  const monthly = manualTimers();
  const d = new df.Controller({ now: clock.now });
  const q = await df.persist(d, { storage: other, throttle: month, schedule: monthly.schedule });
  await d.setResponse(fx.getArticle, { id: '1' }, article);
  for (let i = 0; i < 3; i++) {
    assert.ok(
      monthly.pending.every((e) => e.ms <= MAX_TIMER_MS),
      `every wait fits a timer: ${monthly.pending.map((e) => e.ms)}`,
    );
    await monthly.fire();
  }
  assert.equal(other.sets, 1, 'written at the first check, then not again within the month');
  q.stop();
});

test('the default timer is never asked to wait longer than it can (throttle Infinity, 30 days, 2^31 ms)', T, async () => {
  const { df, fx } = await env();
  const MAX_TIMER_MS = 2 ** 31 - 1;
  const month = 30 * 24 * HOUR;
  const article = (title) => ({ id: '1', title, content: '', published: false, author: null, tags: [] });
  const real = globalThis.setTimeout;
  // Every wait asked of setTimeout while persist starts, writes a first
  // change and arms the write of a second, a throttle later (Go's own
  // timers among them: its runtime bounds them itself).
  const asked = [];
  globalThis.setTimeout = (fn, ms, ...args) => {
    asked.push(ms);
    return real(fn, ms, ...args);
  };
  try {
    for (const throttle of [Infinity, month, MAX_TIMER_MS + 1]) {
      asked.length = 0;
      const c = new df.Controller({ now: fakeClock().now });
      const p = await df.persist(c, { storage: memoryStorage(), throttle });
      await c.setResponse(fx.getArticle, { id: '1' }, article('one'));
      await p.flush();
      await c.setResponse(fx.getArticle, { id: '1' }, article('two'));
      p.stop();
      assert.deepEqual(
        asked.filter((ms) => !(ms <= MAX_TIMER_MS)),
        [],
        `throttle ${throttle}: a longer wait fires after 1 ms, over and over`,
      );
      if (throttle !== Infinity) assert.ok(asked.includes(MAX_TIMER_MS), `throttle ${throttle}: the check waits the longest a timer can`);
    }
  } finally {
    globalThis.setTimeout = real;
  }
});

test('a controller used before persist is written at the first check', T, async () => {
  const { df, fx } = await env();
  const storage = memoryStorage();
  const timers = manualTimers();
  const c = new df.Controller();
  await c.fetch(fx.getArticle, { id: '1' });
  await df.persist(c, { storage, schedule: timers.schedule });
  await timers.fire();
  assert.equal(storage.sets, 1);
  assert.ok(JSON.parse(storage.map.get('datafetch')).state.entities.Article['1']);
});

test('after a restore a stale result resolves at once and revalidates', T, async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const storage = memoryStorage({ async: true });
  const a = new df.Controller({ now: clock.now, dataExpiryLength: 60_000 });
  const list = await a.fetch(fx.listArticles);
  await (await df.persist(a, { storage, schedule: manualTimers().schedule })).flush();

  clock.advance(120_000);
  const b = new df.Controller({ now: clock.now });
  await df.persist(b, { storage, schedule: manualTimers().schedule });
  assert.equal(b.getResponse(fx.listArticles).expiryStatus, 'stale');
  assert.deepEqual(await b.useSuspense(fx.listArticles), list, 'at once, from the storage');
  await waitFor(async () => (await server.count(LIST)) === 2, { message: 'the revalidation request' });
});

test('maxAge and buster: an old snapshot or another buster starts empty and is removed', T, async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const write = async (buster) => {
    const storage = memoryStorage();
    const a = new df.Controller({ now: clock.now });
    await a.fetch(fx.getArticle, { id: '1' });
    await (await df.persist(a, { storage, buster, schedule: manualTimers().schedule })).flush();
    return storage;
  };
  const restore = async (storage, options) => {
    const b = new df.Controller({ now: clock.now });
    await df.persist(b, { storage, schedule: manualTimers().schedule, ...options });
    return b;
  };

  let storage = await write('v1');
  clock.advance(5000);
  let b = await restore(storage, { buster: 'v1', maxAge: 5000 });
  assert.equal(b.getResponse(fx.getArticle, { id: '1' }).expiryStatus !== 'missing', true, 'maxAge ms old: restored');

  clock.advance(1);
  b = await restore(storage, { buster: 'v1', maxAge: 5000 });
  assert.equal(b.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'missing', 'older than maxAge: empty');
  assert.equal(storage.map.has('datafetch'), false, 'and removed');

  storage = await write('v1');
  b = await restore(storage, { buster: 'v2' });
  assert.equal(b.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'missing', 'another buster: empty');
  assert.equal(storage.map.has('datafetch'), false);

  storage = await write('');
  const stored = JSON.parse(storage.map.get('datafetch'));
  storage.map.set('datafetch', JSON.stringify({ ...stored, version: 99, state: { ...stored.state, version: 99 } }));
  b = await restore(storage, {});
  assert.equal(b.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'missing', 'another snapshot version: empty');
  assert.equal(storage.map.has('datafetch'), false);
});

test('a storage that throws or returns garbage: the Promise rejects naming the storage and key; the store is intact', T, async () => {
  const { df, fx } = await env();
  const c = new df.Controller();
  await c.fetch(fx.getArticle, { id: '1' });
  const before = c.getState();
  const good = memoryStorage();
  await (await df.persist(new df.Controller({ initialState: before }), { storage: good, schedule: manualTimers().schedule })).flush();
  const goodText = good.map.get('datafetch');

  class BrokenStorage {
    getItem() {
      throw new Error('disk on fire');
    }
    setItem() {}
    removeItem() {}
  }
  const returning = (v) => ({ getItem: async () => v, setItem() {}, removeItem() {} });
  const cases = [
    [new BrokenStorage(), /^persist: BrokenStorage "k": getItem failed: disk on fire$/],
    [{ getItem: () => Promise.reject(new Error('quota')), setItem() {}, removeItem() {} }, /^persist: storage "k": getItem failed: quota$/],
    [returning(42), /^persist: storage "k": the stored value is 42, not a datafetch snapshot/],
    [returning('not json'), /^persist: storage "k": the stored value is not JSON/],
    [returning('{"a":1}'), /^persist: storage "k": the stored value is not a datafetch snapshot/],
    [
      returning(goodText.replace('"entitiesMeta":{', '"entitiesMeta":{"Zed":7,')),
      /^persist: storage "k": the stored snapshot was refused: hydrate: entitiesMeta.Zed: a number, not an object$/,
    ],
    [returning(goodText.slice(0, -20)), /^persist: storage "k": the stored snapshot was refused: hydrate: snapshot: invalid JSON at offset \d+/],
  ];
  for (const [storage, message] of cases) {
    const err = await failureOf(() => df.persist(c, { storage, key: 'k', schedule: manualTimers().schedule }), String(message));
    assert.ok(err instanceof Error);
    assert.match(err.message, message);
    assert.deepEqual(c.getState(), before, `${message}: the store is intact`);
  }

  // A failed write: flush rejects, naming setItem; the next flush retries.
  let fail = true;
  const flaky = memoryStorage();
  const setItem = flaky.setItem;
  flaky.setItem = (k, v) => {
    if (fail) throw new Error('quota exceeded');
    return setItem(k, v);
  };
  const p = await df.persist(c, { storage: flaky, schedule: manualTimers().schedule });
  const err = await failureOf(() => p.flush(), 'flush to a failing storage');
  assert.match(err.message, /^persist: storage "datafetch": setItem failed: quota exceeded$/);
  fail = false;
  await p.flush();
  assert.ok(flaky.map.has('datafetch'), 'written once the storage works');

  await assert.rejects(() => df.persist(c, { storage: {} }), /^TypeError: persist: storage must have getItem, setItem and removeItem methods/);
  await assert.rejects(() => df.persist({}, { storage: good }), /^TypeError: persist: expected a Controller/);
  await assert.rejects(() => df.persist(c, { storage: good, throttle: -1 }), /^TypeError: persist: throttle must be a number/);
  await assert.rejects(() => df.persist(c), /^TypeError: persist: no storage given, and there is no IndexedDB here/);
});

test('a stored snapshot with a time out of range is refused, naming it; the store is intact and fetches still win', T, async () => {
  const { df, fx } = await env();
  const a = new df.Controller();
  const fetched = await a.fetch(fx.getArticle, { id: '1' });
  const storage = memoryStorage();
  await (await df.persist(a, { storage, schedule: manualTimers().schedule })).flush();
  const stored = JSON.parse(storage.map.get('datafetch'));
  const key = fx.getArticle.key({ id: '1' });
  stored.state.entities.Article['1'].title = 'poisoned';
  // A time near 2^63 ms used to be taken, and every later stamp overflowed:
  // the poisoned record outlived every fetch.
  const cases = [
    [(env) => (env.state.meta[key].fetchedAt = 1e300), /the stored snapshot was refused: hydrate: meta\[".*"\]\.fetchedAt: 1e\+300 is out of range/],
    [
      (env) => (env.state.entitiesMeta.Article['1'].fetchedAt = 9.3e18),
      /the stored snapshot was refused: hydrate: entitiesMeta\.Article\["1"\]\.fetchedAt: 9300000000000000000 is out of range/,
    ],
    [(env) => (env.state.entitiesMeta.Article['1'].date = -1e300), /entitiesMeta\.Article\["1"\]\.date: -1e\+300 is out of range/],
    [(env) => (env.state.meta[key].expiresAt = 2 ** 63), /meta\[".*"\]\.expiresAt: 9223372036854776000 is out of range/],
    [
      (env) => (env.savedAt = 1e300),
      /^persist: storage "datafetch": savedAt: 1e\+300 is out of range \(a time is epoch milliseconds within ±8640000000000000\)$/,
    ],
    [(env) => (env.savedAt = 9.3e18), /^persist: storage "datafetch": savedAt: 9300000000000000000 is out of range/],
  ];
  for (const [poison, message] of cases) {
    const env = structuredClone(stored);
    poison(env);
    const bad = memoryStorage();
    bad.map.set('datafetch', JSON.stringify(env));
    const c = new df.Controller();
    const empty = c.getState();
    const err = await failureOf(() => df.persist(c, { storage: bad, schedule: manualTimers().schedule }), String(message));
    assert.match(err.message, message);
    assert.deepEqual(c.getState(), empty, `${message}: the store is intact`);
    assert.equal((await c.fetch(fx.getArticle, { id: '1' })).title, fetched.title, `${message}: a fetch is stored`);
  }
});

test('pending optimistic updates are not persisted', T, async () => {
  const { df, base } = await env();
  const Article = df.Entity({ key: 'Article', defaults: { id: undefined, title: '' } });
  const get = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', schema: Article });
  let release;
  const gate = new Promise((r) => {
    release = r;
  });
  const rename = new df.RestEndpoint({
    urlPrefix: base,
    path: '/articles/:id',
    method: 'PATCH',
    schema: Article,
    fetch: async () => {
      await gate;
      throw new Error('refused');
    },
    getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  });
  const c = new df.Controller();
  await c.setResponse(get, { id: '1' }, { id: '1', title: 'real' });
  const storage = memoryStorage();
  const p = await df.persist(c, { storage, schedule: manualTimers().schedule });
  const pending = c.fetch(rename, { id: '1' }, { title: 'optimistic' });
  assert.equal(c.getResponse(get, { id: '1' }).data.title, 'optimistic');
  await p.flush();
  assert.equal(JSON.parse(storage.map.get('datafetch')).state.entities.Article['1'].title, 'real');
  assert.deepEqual(JSON.parse(storage.map.get('datafetch')).state.optimistic, []);
  release();
  await assert.rejects(pending, /refused/);
});
