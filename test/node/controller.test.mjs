// The Controller (docs/js-api.md, The Controller). Request counts are taken at the fixture
// server (/_control/counts), so deduplication is checked where it matters.

import assert from 'node:assert/strict';
import { env, failureOf, fakeClock, patchOnServer, promiseState, quiet, recorder, releaseWhere, server, setup, test, waitFor } from './harness.mjs';

setup();

const isThenable = (p) => p !== null && typeof p === 'object' && typeof p.then === 'function';

/**
 * A controller whose requests are counted as the library starts them (its
 * fetch option), so a test can show that a call started none without
 * waiting for one that might still be on its way to the server.
 */
function countingController(df) {
  const urls = [];
  const ctrl = new df.Controller({
    fetch: (url, init) => {
      urls.push(String(url));
      return globalThis.fetch(url, init);
    },
  });
  // started(): requests started; started(part): those whose URL contains part.
  return { ctrl, started: (part) => (part === undefined ? urls.length : urls.filter((u) => u.includes(part)).length) };
}

/** Lets the jobs and callbacks already queued run (no wall-clock wait). */
async function turns(n = 2) {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

// ---------------------------------------------------------------- useSuspense

test('useSuspense: missing → fetches, resolves with the denormalized data', async () => {
  const { df, fx } = await env();
  const a = await new df.Controller().useSuspense(fx.getArticle, { id: '1' });
  assert.equal(a.id, '1');
  assert.equal(a.title, 'Normalizing nested API responses');
  assert.equal(await server.count('GET /articles/1'), 1);
});

test('useSuspense: fresh cache resolves at once with no request, same object', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const a = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  await server.hold(); // any request now would hang
  const p = ctrl.useSuspense(fx.getArticle, { id: '1' });
  assert.equal(await promiseState(p), 'resolved', 'a fresh read must not wait');
  assert.equal(await p, a, 'the same object (===)');
  assert.deepEqual(await server.held(), [], 'no request was made');
  assert.equal(await server.count('GET /articles/1'), 1);
});

test('useSuspense: stale cache resolves at once with the cached value and revalidates in the background', async () => {
  const { df, base, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const ep = fx.getArticle.extend({ dataExpiryLength: 1000 });
  const first = await ctrl.useSuspense(ep, { id: '1' });
  await patchOnServer(base, '1', { title: 'Changed on the server' });
  clock.advance(1000);
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'stale');
  await server.hold();
  const p = ctrl.useSuspense(ep, { id: '1' });
  assert.equal(await promiseState(p), 'resolved', 'stale data is returned without waiting');
  assert.equal(await p, first, 'the cached object');
  await releaseWhere('GET', '/articles/1');
  await waitFor(() => ctrl.getResponse(ep, { id: '1' }).data.title === 'Changed on the server', {
    message: 'the background revalidation stores the new title',
  });
  assert.equal(await server.count('GET /articles/1'), 2);
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'valid');
});

test('useSuspense: invalidIfStale makes a stale read wait for the refetch', async () => {
  const { df, base, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const ep = fx.getArticle.extend({ dataExpiryLength: 80, invalidIfStale: true });
  await ctrl.useSuspense(ep, { id: '1' });
  await patchOnServer(base, '1', { title: 'Fresh title' });
  clock.advance(80);
  await server.hold();
  const p = quiet(ctrl.useSuspense(ep, { id: '1' }));
  await server.held(1);
  assert.equal(await promiseState(p), 'pending', 'must wait for the refetch');
  await releaseWhere('GET', '/articles/1');
  assert.equal((await p).title, 'Fresh title');
});

test('useSuspense: params === null resolves undefined and does nothing', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const p = ctrl.useSuspense(fx.getArticle, null);
  assert.equal(await promiseState(p), 'resolved');
  assert.equal(await p, undefined);
  // No request can follow: null params answer in JavaScript, without Go.
  assert.equal(await server.total(), 0, 'no request');
  assert.deepEqual(ctrl.getState().endpoints, {});
});

test('useSuspense: identical requests in flight are shared (counted at the server)', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await server.hold();
  const ps = [ctrl.useSuspense(fx.getArticle, { id: '1' }), ctrl.useSuspense(fx.getArticle, { id: '1' })];
  await server.held(1);
  ps.push(ctrl.useSuspense(fx.getArticle, { id: '1' }));
  ps.push(ctrl.fetchIfStale(fx.getArticle, { id: '1' }));
  // The late readers joined the request in flight: they are pending while
  // it is held (a second request would be counted at the server below).
  for (const p of ps) assert.equal(await promiseState(p), 'pending');
  await server.releaseAll();
  const [a, b, c] = await Promise.all(ps);
  assert.equal(a.title, 'Normalizing nested API responses');
  assert.equal(a, b);
  assert.equal(a, c);
  assert.equal(await server.count('GET /articles/1'), 1);
});

test('useSuspense: different params are different requests', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const [a, b] = await Promise.all([ctrl.useSuspense(fx.getArticle, { id: '1' }), ctrl.useSuspense(fx.getArticle, { id: '2' })]);
  assert.equal(a.id, '1');
  assert.equal(b.id, '2');
  assert.deepEqual(await server.counts(), { 'GET /articles/1': 1, 'GET /articles/2': 1 });
});

test('useSuspense: a failed fetch rejects; the error is kept for errorExpiryLength', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const ep = fx.getArticle.extend({ errorExpiryLength: 300 });
  const e1 = await failureOf(() => ctrl.useSuspense(ep, { id: '999' }));
  assert.equal(e1.status, 404);
  clock.advance(299);
  const e2 = await failureOf(() => ctrl.useSuspense(ep, { id: '999' }));
  assert.equal(e2.status, 404, 'rejects again inside the window');
  assert.equal(await server.count('GET /articles/999'), 1, 'without a new request');
  clock.advance(1);
  const e3 = await failureOf(() => ctrl.useSuspense(ep, { id: '999' }));
  assert.equal(e3.status, 404);
  assert.equal(await server.count('GET /articles/999'), 2, 'after the window it fetches again');
});

test('useSuspense: errorExpiryLength defaults to 1 s', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '998' }));
  clock.advance(999);
  await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '998' }));
  assert.equal(await server.count('GET /articles/998'), 1, 'kept at 999 ms');
  clock.advance(1);
  await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '998' }));
  assert.equal(await server.count('GET /articles/998'), 2, 'expired at 1000 ms');
});

test('useSuspense: after an error expires, a success replaces it', async () => {
  const { df } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  let calls = 0;
  const ep = new df.RestEndpoint({
    path: '/flaky',
    errorExpiryLength: 50,
    fetch: async () => {
      calls++;
      if (calls === 1) throw Object.assign(new Error('first call fails'), { status: 500 });
      return { ok: true };
    },
  });
  const err = await failureOf(() => ctrl.useSuspense(ep, {}));
  assert.equal(err.message.includes('first call fails'), true);
  clock.advance(50);
  assert.deepEqual(await ctrl.useSuspense(ep, {}), { ok: true });
  assert.equal(calls, 2);
  const r = ctrl.getResponse(ep, {});
  assert.equal(r.expiryStatus, 'valid');
  assert.deepEqual(r.data, { ok: true });
});

test('useSuspense: an endpoint without a schema resolves to its fetch result', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/api/count' });
  const v = await new df.Controller().useSuspense(ep);
  assert.equal(v.count, 0);
  assert.equal(typeof v.updatedAt, 'string', 'no schema: no Date conversion');
});

test('df.useSuspense uses the default controller', async () => {
  const { df, fx } = await env();
  const ctrl = df.useController();
  await ctrl.resetEntireStore();
  const a = await df.useSuspense(fx.getArticle, { id: '3' });
  assert.equal(a.id, '3');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '3' }).data, a);
  await df.useSuspense(fx.getArticle, { id: '3' });
  assert.equal(await server.count('GET /articles/3'), 1);
  await ctrl.resetEntireStore();
});

// ---------------------------------------------------------------- fetch, fetchIfStale

test('fetch: runs now even when fresh, stores, resolves with what getResponse returns', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  await patchOnServer(base, '1', { title: 'Refetched' });
  const d = await ctrl.fetch(fx.getArticle, { id: '1' });
  assert.equal(d.title, 'Refetched');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, d, 'the same object (===)');
  assert.equal(await server.count('GET /articles/1'), 2);
});

test('fetch: mutations are never deduplicated', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const inc = new df.RestEndpoint({ urlPrefix: base, path: '/api/count/increment', method: 'POST', schema: fx.Count });
  await server.hold();
  const ps = [ctrl.fetch(inc), ctrl.fetch(inc), ctrl.fetch(inc)];
  const held = await server.held(3);
  assert.equal(held.length, 3, 'three requests reached the server at once');
  await server.unhold();
  const results = await Promise.all(ps);
  assert.equal(await server.count('POST /api/count/increment'), 3);
  // Which answer each fetch resolves to depends on the order the server ran
  // them in against the order they started (a response to an earlier request
  // never overwrites a later one's fields), so only the range is certain.
  for (const r of results) assert.ok(r.count >= 1 && r.count <= 3, `count ${r.count}`);
});

test('hooks: a merge hook may read and write the controller running it', async () => {
  const { df, base } = await env();
  const ctrl = new df.Controller();
  const seen = [];
  let runs = 0;
  let invalidated;
  const Item = df.Entity({
    key: 'ReentrantItem',
    defaults: { id: undefined, n: 0 },
    useIncoming() {
      runs += 1;
      // A read sees the cache before the write that runs the hook.
      seen.push(`getResponse: ${ctrl.getResponse(ep, { id: 1 }).data.n}`);
      seen.push(`getState: ${typeof ctrl.getState().entities}`);
      // A write once: the write that runs the hook is made again over it.
      invalidated ??= ctrl.invalidate(ep, { id: 1 });
      return true;
    },
  });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/reentrant/:id', name: 'reentrant', schema: Item });
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, n: 1 });
  assert.equal(runs, 0, 'nothing to merge with yet');
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, n: 2 }); // the merge runs the hook
  await invalidated;
  assert.ok(runs >= 1, `the hook ran (${runs} times)`);
  for (let i = 0; i < runs; i++) {
    assert.deepEqual(seen.slice(2 * i, 2 * i + 2), ['getResponse: 1', 'getState: object'], seen.join('; '));
  }
  // The second response was stored, over the hook's invalidation.
  const r = ctrl.getResponse(ep, { id: 1 });
  assert.equal(r.data.n, 2);
  assert.equal(r.expiryStatus, 'valid');
});

test('hooks: a merge hook that writes every time it runs fails the write, not the instance', async () => {
  const { df, base } = await env();
  const ctrl = new df.Controller();
  let runs = 0;
  const Item = df.Entity({
    key: 'ChurnItem',
    defaults: { id: undefined, n: 0 },
    useIncoming() {
      runs += 1;
      ctrl.setResponse(other, { id: 2 }, { id: 2, n: runs });
      return true;
    },
  });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/churn/:id', name: 'churn', schema: Item });
  const other = new df.RestEndpoint({
    urlPrefix: base,
    path: '/other/:id',
    name: 'other',
    schema: df.Entity({ key: 'Other', defaults: { id: undefined, n: 0 } }),
  });
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, n: 1 });
  const err = await ctrl.setResponse(ep, { id: 1 }, { id: 1, n: 2 }).then(
    () => assert.fail('resolved'),
    (e) => e,
  );
  assert.match(err.message, /hooks kept changing the store/);
  assert.equal(runs, 8);
  assert.equal(ctrl.getResponse(ep, { id: 1 }).data.n, 1, 'the cache keeps its last good state');
  assert.equal(ctrl.getResponse(ep, { id: 1 }).expiryStatus, 'valid');
});

test('fetch: rejects with the error and does not clobber good data', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const a = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  await server.failNext(1, 500);
  const err = await failureOf(() => ctrl.fetch(fx.patchArticle, { id: '1' }, { title: 'nope' }));
  assert.ok(err instanceof df.NetworkError);
  assert.equal(err.status, 500);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, a);
});

test('fetchIfStale: fetches only when missing or stale', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const ep = fx.getArticle.extend({ dataExpiryLength: 100 });
  await ctrl.fetchIfStale(ep, { id: '1' });
  assert.equal(await server.count('GET /articles/1'), 1, 'missing: fetched');
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'valid');
  await server.hold(); // a request now would be held, and its promise pending
  clock.advance(99);
  assert.equal(await promiseState(ctrl.fetchIfStale(ep, { id: '1' })), 'resolved', 'fresh: answered at once');
  assert.deepEqual(await server.held(), [], 'fresh: not fetched');
  clock.advance(1);
  const stale = ctrl.fetchIfStale(ep, { id: '1' });
  await server.held(1); // stale: fetched
  await server.unhold();
  await stale;
  assert.equal(await server.count('GET /articles/1'), 2, 'stale: fetched once');
});

// The React hooks' methods (internal/controller.mjs): PREFETCH is
// fetchIfStale whose Promise carries no result (useDLE reads it from the
// store); RESPONSE is getResponse with whether an error is kept.
const PREFETCH = Symbol.for('datafetch.controller.prefetch');
const RESPONSE = Symbol.for('datafetch.controller.response');

test('PREFETCH: fetches a missing result once (shared with fetchIfStale in flight) and resolves to undefined', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await server.hold();
  const prefetch = ctrl[PREFETCH](fx.getArticle, { id: '1' });
  const shared = ctrl.fetchIfStale(fx.getArticle, { id: '1' });
  await server.held(1);
  await server.unhold();
  assert.equal(await prefetch, undefined, 'no result for the Promise');
  assert.equal((await shared).title, 'Normalizing nested API responses', 'the shared call still has its result');
  assert.equal(await server.count('GET /articles/1'), 1, 'one request');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'valid', 'stored');
  assert.equal(await ctrl[PREFETCH](fx.getArticle, { id: '1' }), undefined, 'fresh: nothing fetched');
  assert.equal(await server.count('GET /articles/1'), 1);
  await assert.rejects(ctrl[PREFETCH](fx.getArticle, { id: '997' }), (err) => err.status === 404, 'a failed fetch rejects');
});

test('RESPONSE: getResponse and whether an error of the last fetch is kept, read or kept', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const [missing, noError] = ctrl[RESPONSE](fx.getArticle, { id: '997' });
  assert.equal(missing.expiryStatus, 'missing');
  assert.equal(noError, false);
  await failureOf(() => ctrl.fetch(fx.getArticle, { id: '997' }));
  for (const read of ['read', 'kept']) {
    const [failed, kept] = ctrl[RESPONSE](fx.getArticle, { id: '997' });
    assert.equal(failed.data, undefined, read);
    assert.equal(kept, true, `${read}: the 404 is kept`);
  }
  await ctrl.fetch(fx.getArticle, { id: '1' });
  assert.deepEqual(
    ctrl[RESPONSE](fx.getArticle, { id: '1' }).map((x) => (typeof x === 'object' ? x.expiryStatus : x)),
    ['valid', false],
  );
});

// ---------------------------------------------------------------- getResponse

test('getResponse: missing, valid, stale, invalid', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const ep = fx.getArticle.extend({ dataExpiryLength: 100 });
  const missing = ctrl.getResponse(ep, { id: '1' });
  assert.equal(missing.expiryStatus, 'missing');
  assert.equal(missing.data, undefined);
  const t0 = clock.t;
  await ctrl.useSuspense(ep, { id: '1' });
  const valid = ctrl.getResponse(ep, { id: '1' });
  assert.equal(valid.expiryStatus, 'valid');
  assert.equal(valid.data.id, '1');
  assert.equal(valid.expiresAt, t0 + 100, 'expiresAt: fetched at the clock, plus dataExpiryLength');
  clock.advance(100);
  const stale = ctrl.getResponse(ep, { id: '1' });
  assert.equal(stale.expiryStatus, 'stale');
  assert.equal(stale.data, valid.data, 'stale data is still returned, same object');
  await ctrl.invalidate(ep, { id: '1' });
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'invalid');
});

test('getResponse is synchronous and reads the same object twice', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await ctrl.useSuspense(fx.listArticles, {});
  const r1 = ctrl.getResponse(fx.listArticles, {});
  assert.ok(!isThenable(r1), 'getResponse does not return a Promise');
  const r2 = ctrl.getResponse(fx.listArticles, {});
  assert.equal(r1.data, r2.data);
  assert.equal(r1.data[0], r2.data[0]);
});

// ---------------------------------------------------------------- subscribe

test('subscribe: calls the listener before returning, loading while its fetch is pending', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await server.hold();
  const rec = recorder();
  const unsub = ctrl.subscribe(fx.getArticle, { id: '1' }, rec);
  try {
    assert.equal(typeof unsub, 'function');
    assert.equal(rec.calls.length, 1, 'called synchronously');
    assert.equal(rec.calls[0].loading, true);
    assert.equal(rec.calls[0].data, undefined);
    assert.equal(rec.calls[0].error, undefined);
    await server.held(1);
    await server.unhold();
    await waitFor(() => rec.last().data?.id === '1');
    assert.equal(rec.last().loading, false);
    assert.equal(rec.last().error, undefined);
    assert.equal(await server.count('GET /articles/1'), 1);
  } finally {
    unsub();
  }
});

test('subscribe: cached data is given at once with loading false and no request', async () => {
  const { df, fx } = await env();
  const { ctrl, started } = countingController(df);
  const a = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const rec = recorder();
  const unsub = ctrl.subscribe(fx.getArticle, { id: '1' }, rec);
  try {
    assert.equal(rec.calls.length, 1);
    assert.equal(rec.calls[0].data, a);
    assert.equal(rec.calls[0].loading, false);
    await turns();
    assert.equal(started(), 1, 'the subscription started no request');
    assert.equal(await server.count('GET /articles/1'), 1);
  } finally {
    unsub();
  }
});

test('subscribe: an error reaches the listener', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const rec = recorder();
  const unsub = ctrl.subscribe(fx.getArticle, { id: '404' }, rec);
  try {
    await waitFor(() => rec.last().error);
    assert.equal(rec.last().error.status, 404);
    assert.equal(rec.last().loading, false);
  } finally {
    unsub();
  }
});

test('subscribe: null params: called with no data, no request', async () => {
  const { df, fx } = await env();
  const rec = recorder();
  const { ctrl, started } = countingController(df);
  const unsub = ctrl.subscribe(fx.getArticle, null, rec);
  try {
    assert.equal(rec.calls.length, 1);
    assert.equal(rec.calls[0].data, undefined);
    assert.equal(rec.calls[0].loading, false);
    await turns();
    assert.equal(started(), 0, 'no request started');
    assert.equal(await server.total(), 0);
  } finally {
    unsub();
  }
});

test('subscribe: unchanged data is === across calls; only changed entities get new objects', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const list = await ctrl.useSuspense(fx.listArticles, {});
  const rec = recorder();
  const unsub = ctrl.subscribe(fx.listArticles, {}, rec);
  try {
    assert.equal(rec.calls[0].data, list);
    // A change elsewhere: any call it causes must carry the same object.
    await ctrl.setResponse(fx.getComment, { id: 1 }, { id: 1, name: 'unrelated' });
    for (const c of rec.calls) assert.equal(c.data, list, 'unrelated change: same list object');

    const n = rec.calls.length;
    await ctrl.fetch(fx.patchArticle, { id: '2' }, { title: 'Only two changed' });
    await waitFor(() => rec.calls.length > n, { message: 'the list subscriber hears of the change' });
    const next = rec.last().data;
    assert.notEqual(next, list, 'a list holding a changed entity is a new object');
    assert.equal(next[1].title, 'Only two changed');
    assert.notEqual(next[1], list[1], 'the changed entity is a new object');
    assert.equal(next[0], list[0], 'entity 1 did not change: same object');
    assert.equal(next[2], list[2], 'entity 3 did not change: same object');
    assert.equal(next[23], list[23]);
  } finally {
    unsub();
  }
});

test('storing a record equal to the stored one is no change', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const list = await ctrl.fetch(fx.listArticles, {});
  const rec = recorder();
  const unsub = ctrl.subscribe(fx.listArticles, {}, rec);
  try {
    const again = await ctrl.fetch(fx.listArticles, {});
    assert.equal(again, list, 'refetching identical data gives the same list object');
    assert.equal(again[5], list[5]);
    for (const c of rec.calls) assert.equal(c.data, list);
    const one = await ctrl.fetch(fx.getArticle, { id: '1' });
    assert.equal(one, list[0], 'the detail read of an unchanged entity is the list member object');
  } finally {
    unsub();
  }
});

test('subscribe: the listener stops after unsubscribe', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const rec = recorder();
  const unsub = ctrl.subscribe(fx.getArticle, { id: '1' }, rec);
  await ctrl.setResponse(fx.getArticle, { id: '1' }, { id: '1', title: 'seen' });
  await waitFor(() => rec.last().data.title === 'seen');
  unsub();
  const n = rec.calls.length;
  await ctrl.setResponse(fx.getArticle, { id: '1' }, { id: '1', title: 'unseen' });
  await turns(); // setResponse notifies before it returns; and nothing is queued
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data.title, 'unseen');
  assert.equal(rec.calls.length, n);
});

test('subscribe: setResponse notifies before it returns (sync listener call)', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const rec = recorder();
  const unsub = ctrl.subscribe(fx.getArticle, { id: '1' }, rec);
  try {
    const p = ctrl.setResponse(fx.getArticle, { id: '1' }, { id: '1', title: 'now' });
    assert.equal(rec.last().data.title, 'now');
    await p;
  } finally {
    unsub();
  }
});

// ---------------------------------------------------------------- invalidation and reset

test('invalidate: takes effect before it returns, returns a Promise; the next read fetches and waits', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const p = ctrl.invalidate(fx.getArticle, { id: '1' });
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'invalid');
  assert.ok(isThenable(p), 'invalidate returns a Promise');
  await p;
  await server.hold();
  const read = quiet(ctrl.useSuspense(fx.getArticle, { id: '1' }));
  await server.held(1);
  assert.equal(await promiseState(read), 'pending', 'an invalidated result is not used');
  await releaseWhere('GET', '/articles/1');
  assert.equal((await read).id, '1');
  assert.equal(await server.count('GET /articles/1'), 2);
});

test('invalidateAll(testKey): invalidates the keys it selects', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  await ctrl.useSuspense(fx.getArticle, { id: '2' });
  await ctrl.useSuspense(fx.getComment, { id: 1 });
  const seen = [];
  const k1 = fx.getArticle.key({ id: '1' });
  const p = ctrl.invalidateAll((key) => {
    seen.push(key);
    return key === k1 || key === fx.getComment.key({ id: 1 });
  });
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'invalid');
  assert.equal(ctrl.getResponse(fx.getComment, { id: 1 }).expiryStatus, 'invalid');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '2' }).expiryStatus, 'valid');
  assert.ok(isThenable(p));
  await p;
  assert.ok(seen.includes(k1), `testKey gets endpoint keys; got ${JSON.stringify(seen)}`);
  assert.ok(seen.includes(fx.getArticle.key({ id: '2' })));
});

test('expireAll(testKey): marks stale; the next read uses the cache and refetches without waiting', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const a = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  await ctrl.useSuspense(fx.getArticle, { id: '2' });
  const p = ctrl.expireAll((key) => key === fx.getArticle.key({ id: '1' }));
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'stale');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '2' }).expiryStatus, 'valid');
  assert.ok(isThenable(p));
  await p;
  const read = ctrl.useSuspense(fx.getArticle, { id: '1' });
  assert.equal(await promiseState(read), 'resolved');
  assert.equal(await read, a);
  await waitFor(async () => (await server.count('GET /articles/1')) === 2, { message: 'refetched in the background' });
  await waitFor(() => ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus === 'valid');
});

test('resetEntireStore: empties the store before it returns; responses to earlier requests are ignored', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  await server.hold();
  const pending = quiet(ctrl.fetch(fx.getArticle, { id: '2' }));
  await server.held(1);
  const p = ctrl.resetEntireStore();
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'missing');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, undefined);
  assert.ok(isThenable(p));
  await p;
  assert.deepEqual(ctrl.getState().entities, {});
  await server.unhold();
  await pending.catch(() => {}); // settled: the response was handled
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '2' }).expiryStatus, 'missing', 'the late response is not stored');
  assert.equal(ctrl.getState().entities.Article, undefined);
  // The controller still works.
  assert.equal((await ctrl.useSuspense(fx.getArticle, { id: '2' })).id, '2');
});

test('setResponse: stores as if fetched, before it returns, and returns a Promise', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const p = ctrl.setResponse(fx.listArticles, {}, [
    { id: '1', title: 'one', author: { id: 3, name: 'Three' } },
    { id: '2', title: 'two' },
  ]);
  const r = ctrl.getResponse(fx.listArticles, {});
  assert.equal(r.expiryStatus, 'valid');
  assert.deepEqual(
    r.data.map((a) => a.title),
    ['one', 'two'],
  );
  assert.equal(r.data[0].author.name, 'Three');
  assert.equal(r.data[1].content, '', 'defaults apply');
  assert.ok(isThenable(p));
  await p;
  assert.equal(await ctrl.useSuspense(fx.listArticles, {}), r.data, 'a read after setResponse uses it');
  assert.equal(await server.total(), 0, 'no request');
  assert.equal(ctrl.getState().entities.User['3'].name, 'Three');
});

// ---------------------------------------------------------------- getState

test('getState: a plain JSON snapshot {entities, endpoints, meta, entitiesMeta, optimistic}', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  await ctrl.useSuspense(fx.listArticles, {});
  const s = ctrl.getState();
  for (const k of ['entities', 'endpoints', 'meta', 'entitiesMeta', 'optimistic']) {
    assert.ok(k in s, `getState().${k}`);
  }
  assert.ok(Array.isArray(s.optimistic));
  assert.equal(s.entities.Article['1'].title, 'Normalizing nested API responses');
  assert.equal(String(s.entities.Article['1'].author), '1', 'records are normalized: author is a pk');
  assert.equal(String(s.endpoints[fx.getArticle.key({ id: '1' })]), '1');
  const listResult = s.endpoints[fx.listArticles.key({})];
  assert.ok(Array.isArray(listResult));
  assert.equal(listResult.length, 24);
  assert.ok(s.meta[fx.getArticle.key({ id: '1' })], 'meta is keyed by endpoint key');
  assert.ok(s.entitiesMeta.Article['1'], 'entitiesMeta[key][pk]');
  assert.deepEqual(JSON.parse(JSON.stringify(s)), s, 'plain JSON');
});

test('getState: editing the snapshot does not touch the store', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const a = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const s = ctrl.getState();
  s.entities.Article['1'].title = 'HACKED';
  delete s.endpoints[fx.getArticle.key({ id: '1' })];
  s.entities.Article['2'] = { id: '2', title: 'fake' };
  assert.equal(ctrl.getState().entities.Article['1'].title, 'Normalizing nested API responses');
  assert.equal(ctrl.getState().entities.Article['2'], undefined);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, a);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '2' }).expiryStatus, 'missing');
});

// ---------------------------------------------------------------- controller options

test('Controller({fetch}): used as fetch(url, init) for every endpoint', async () => {
  const { df, fx } = await env();
  const calls = [];
  const ctrl = new df.Controller({
    fetch(url, init) {
      calls.push({ url: String(url), method: init?.method ?? 'GET' });
      return globalThis.fetch(url, init);
    },
  });
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  await ctrl.fetch(fx.patchArticle, { id: '1' }, { title: 'via custom fetch' });
  assert.deepEqual(
    calls.map((c) => [c.method.toUpperCase(), c.url]),
    [
      ['GET', fx.getArticle.url({ id: '1' })],
      ['PATCH', fx.patchArticle.url({ id: '1' })],
    ],
  );
});

test("Controller({fetch}): an endpoint's own fetch option still wins", async () => {
  const { df, base } = await env();
  let controllerFetches = 0;
  const ctrl = new df.Controller({
    fetch: (url, init) => {
      controllerFetches++;
      return globalThis.fetch(url, init);
    },
  });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/x', fetch: async () => ({ own: true }) });
  assert.deepEqual(await ctrl.useSuspense(ep, {}), { own: true });
  assert.equal(controllerFetches, 0);
});

test('Controller({dataExpiryLength, errorExpiryLength}): defaults for endpoints that set none', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now, dataExpiryLength: 60, errorExpiryLength: 60 });
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const own = fx.getArticle.extend({ dataExpiryLength: 60_000, name: 'own' });
  // fetch, not useSuspense: a read would be answered from Article 1, stored
  // already, and store no result of its own.
  await ctrl.fetch(own, { id: '1' });
  await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '997' }));
  clock.advance(60);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'stale');
  assert.equal(ctrl.getResponse(own, { id: '1' }).expiryStatus, 'valid', "the endpoint's own setting wins");
  await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '997' }));
  assert.equal(await server.count('GET /articles/997'), 2, 'the error expired after 60 ms');
});

test('controllers do not share stores', async () => {
  const { df, fx } = await env();
  const a = new df.Controller();
  const b = new df.Controller();
  await a.useSuspense(fx.getArticle, { id: '1' });
  assert.equal(b.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'missing');
});

test('pollFrequency: a subscribed result is refetched that often, and no more after unsubscribe', async () => {
  const { df, base, fx } = await env();
  const { ctrl, started } = countingController(df);
  const ep = fx.getArticle.extend({ pollFrequency: 100, name: 'polled' });
  const rec = recorder();
  const unsub = ctrl.subscribe(ep, { id: '1' }, rec);
  await waitFor(() => rec.last().data?.id === '1');
  await patchOnServer(base, '1', { title: 'Seen by polling' });
  // Polling runs on real timers: wait for what it causes.
  await waitFor(() => rec.last().data?.title === 'Seen by polling', { message: 'the poll brings the change' });
  assert.ok((await server.count('GET /articles/1')) >= 2);
  unsub();
  const n = started('/articles/1');
  // A negative needs time to pass. A control subscription polled as often
  // measures it in poll periods, so a loaded machine cannot shorten it:
  // five of its polls, and none of the unsubscribed one.
  const control = ctrl.subscribe(ep, { id: '2' }, () => {});
  const from = started('/articles/2');
  await waitFor(() => started('/articles/2') >= from + 5, { message: 'the control subscription polls' });
  control();
  assert.equal(started('/articles/1'), n, 'no polling after unsubscribe');
});

// ---------------------------------------------------------------- the now option

test('Controller({now}): fetchedAt, expiresAt and expiry read the controller clock', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const ep = fx.getArticle.extend({ dataExpiryLength: 1000, name: 'clocked' });
  const t0 = clock.t;
  await ctrl.useSuspense(ep, { id: '1' });
  const key = ep.key({ id: '1' });
  assert.equal(ctrl.getState().meta[key].fetchedAt, t0, 'fetchedAt is the clock');
  const r = ctrl.getResponse(ep, { id: '1' });
  assert.equal(r.expiresAt, t0 + 1000, 'expiresAt is the clock plus dataExpiryLength');
  assert.equal(r.expiryStatus, 'valid');
  clock.advance(999);
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'valid', 'a ms before expiresAt');
  clock.advance(1);
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'stale', 'at expiresAt (a kept read)');
  // A change elsewhere makes the next read come from Go: the same clock.
  await ctrl.setResponse(fx.getComment, { id: 1 }, { id: 1, name: 'elsewhere' });
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'stale', 'at expiresAt (read in Go)');
  clock.advance(-1);
  await ctrl.setResponse(fx.getComment, { id: 1 }, { id: 1, name: 'elsewhere again' });
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'valid', 'the clock, not the wall clock, decides');
});

test('Controller({now}): not a function, a non-number or a throw is a clear Error', async () => {
  const { df, fx } = await env();
  for (const bad of [42, 'Date.now', {}]) {
    const err = await failureOf(() => new df.Controller({ now: bad }), `now: ${String(bad)}`);
    assert.ok(err instanceof TypeError);
    assert.match(err.message, /now must be a function/);
  }
  for (const [what, now, want] of [
    ['a string', () => 'soon', /now\(\) must return epoch milliseconds.*"soon"/],
    ['NaN', () => NaN, /now\(\) must return epoch milliseconds.*NaN/],
    ['a Date', () => new Date(), /now\(\) must return epoch milliseconds/],
    // Beyond a Date's range: near 2^63 such a time used to overflow the
    // stamps that order responses in Go.
    ['1e300', () => 1e300, /now\(\) must return epoch milliseconds, a number within ±8640000000000000 \(the range of a Date\), got 1e\+300/],
    ['9.3e18', () => 9.3e18, /within ±8640000000000000 .*got 9300000000000000000/],
    ['-Infinity', () => Number.NEGATIVE_INFINITY, /within ±8640000000000000 .*got -Infinity/],
    [
      'a throw',
      () => {
        throw new Error('clock broke');
      },
      /now\(\) threw: clock broke/,
    ],
  ]) {
    const err = await failureOf(() => new df.Controller({ now }), `now returning ${what}`);
    assert.match(err.message, want, what);
  }
  // A clock that breaks later: the calls that meet it say so.
  let broken = false;
  const ctrl = new df.Controller({
    now: () => {
      if (broken) throw new Error('clock broke');
      return 1_700_000_000_000;
    },
  });
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  broken = true;
  assert.throws(() => ctrl.getResponse(fx.getArticle, { id: '1' }), /now\(\) threw: clock broke/);
  const err = await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '1' }));
  assert.match(err.message, /now\(\) threw: clock broke/);
  broken = false;
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data.id, '1', 'the controller keeps working');
});

// ---------------------------------------------------------------- Infinity

test('dataExpiryLength: Infinity on an endpoint: never stale', async () => {
  const { df, base, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const ep = fx.getArticle.extend({ dataExpiryLength: Infinity, name: 'forever' });
  const a = await ctrl.useSuspense(ep, { id: '1' });
  clock.advance(100 * 365 * 24 * 3600 * 1000); // a century
  const r = ctrl.getResponse(ep, { id: '1' });
  assert.equal(r.expiryStatus, 'valid');
  assert.ok(r.expiresAt > clock.t, `expiresAt ${r.expiresAt} is after now`);
  await server.hold();
  assert.equal(await ctrl.useSuspense(ep, { id: '1' }), a, 'answered from the cache');
  assert.equal(await server.count('GET /articles/1'), 1, 'no request');
  const made = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', dataExpiryLength: Infinity, errorExpiryLength: Infinity });
  assert.equal(made.dataExpiryLength, Infinity, 'accepted by the constructor too');
});

test('dataExpiryLength and errorExpiryLength: Infinity on the Controller: never stale, an error kept', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now, dataExpiryLength: Infinity, errorExpiryLength: Infinity });
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const r = ctrl.getResponse(fx.getArticle, { id: '1' });
  assert.ok(r.expiresAt - clock.t > 1e12, `expiresAt ${r.expiresAt - clock.t} ms from now: not the 60 s default`);
  await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '404' }));
  clock.advance(100 * 365 * 24 * 3600 * 1000);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'valid', 'never stale');
  const err = await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '404' }));
  assert.equal(err.status, 404, 'the error is kept');
  assert.equal(await server.count('GET /articles/404'), 1, 'without a new request');
  assert.equal(await server.count('GET /articles/1'), 1);
});

test('errorExpiryLength: Infinity on an endpoint keeps the error', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const ep = fx.getArticle.extend({ errorExpiryLength: Infinity, name: 'keepsErrors' });
  await failureOf(() => ctrl.useSuspense(ep, { id: '404' }));
  clock.advance(100 * 365 * 24 * 3600 * 1000);
  await failureOf(() => ctrl.useSuspense(ep, { id: '404' }));
  assert.equal(await server.count('GET /articles/404'), 1);
});

test('an invalid expiry length: the message shows the value given', async () => {
  const { df, base } = await env();
  const BAD = [
    [-5, '-5'],
    ['abc', '"abc"'],
    [NaN, 'NaN'],
    [-Infinity, '-Infinity'],
  ];
  for (const name of ['dataExpiryLength', 'errorExpiryLength']) {
    for (const [v, shown] of BAD) {
      for (const [where, make] of [
        ['Controller', () => new df.Controller({ [name]: v })],
        ['RestEndpoint', () => new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', name: 'badExpiry', [name]: v })],
      ]) {
        const err = await failureOf(make, `${where} ${name}: ${shown}`);
        assert.ok(err.message.includes(name), `${where}: ${err.message} names ${name}`);
        assert.ok(err.message.includes(`got ${shown}`), `${where}: ${JSON.stringify(err.message)} shows ${shown}`);
      }
    }
  }
});
