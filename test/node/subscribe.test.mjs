// Spec section 4: subscribe's options. {fetch: false} only listens (the
// React bindings' useCache); {poll: false} fetches as useSuspense would but
// does not poll (useSuspense, useDLE). Requests are counted as the library
// starts them (the controller's fetch option) and at the fixture server.

import assert from 'node:assert/strict';
import { env, fakeClock, patchOnServer, recorder, server, setup, test, waitFor } from './harness.mjs';

setup();

/** A controller whose requests are counted as they start, by URL part. */
function countingController(df, options = {}) {
  const urls = [];
  const ctrl = new df.Controller({
    ...options,
    fetch: (url, init) => {
      urls.push(String(url));
      return globalThis.fetch(url, init);
    },
  });
  return { ctrl, started: (part) => urls.filter((u) => u.includes(part)).length };
}

const POLL_MS = 20;
// How many polls of a control subscription measure "time has passed".
const CONTROL_POLLS = 5;

/**
 * Lets time pass, measured in polls: a control subscription on `params`
 * polls `ep` CONTROL_POLLS times, then ends. A loaded machine slows it as
 * much as the subscription under test, so no wall-clock bound is involved.
 */
async function controlPolls(ctrl, started, ep, id) {
  const control = ctrl.subscribe(ep, { id }, () => {});
  const from = started(`/articles/${id}`);
  await waitFor(() => started(`/articles/${id}`) >= from + CONTROL_POLLS, { message: 'the control subscription polls' });
  control();
}

test('subscribe {fetch: false}: only listens; no request for a missing, invalid or stale result, no polling', async () => {
  const { df, fx } = await env();
  const { ctrl, started } = countingController(df);
  const ep = fx.getArticle.extend({ pollFrequency: POLL_MS, name: 'listenOnly' });
  const rec = recorder();
  const unsub = ctrl.subscribe(ep, { id: '1' }, rec, { fetch: false });
  assert.equal(rec.calls.length, 1, 'called before subscribe returned');
  assert.deepEqual(rec.last(), { data: undefined, loading: false, error: undefined }, 'missing, and nothing loading');

  // Another caller's fetch is seen.
  const a = await ctrl.useSuspense(ep, { id: '1' });
  await waitFor(() => rec.last().data === a, { message: "the listener sees the other caller's data" });

  // Invalidation does not make it fetch.
  await ctrl.invalidate(ep, { id: '1' });
  await ctrl.setResponse(fx.getArticle, { id: '2' }, { id: '2', title: 'unrelated' });
  await controlPolls(ctrl, started, ep, '3');
  assert.equal(started('/articles/1'), 1, 'only the useSuspense fetched; the listener neither refetched nor polled');
  assert.equal(await server.count('GET /articles/1'), 1);
  unsub();
});

test('subscribe {poll: false}: fetches a missing result once and does not poll', async () => {
  const { df, fx } = await env();
  const { ctrl, started } = countingController(df);
  const ep = fx.getArticle.extend({ pollFrequency: POLL_MS, name: 'noPoll' });
  const rec = recorder();
  const unsub = ctrl.subscribe(ep, { id: '1' }, rec, { poll: false });
  assert.equal(rec.calls[0].loading, true, 'it fetches as useSuspense would');
  await waitFor(() => rec.last().data?.id === '1', { message: 'the fetch arrives' });
  await controlPolls(ctrl, started, ep, '2');
  assert.equal(started('/articles/1'), 1, 'no poll');
  assert.equal(await server.count('GET /articles/1'), 1);

  // The same endpoint without the option polls: the test above can fail.
  const polled = ctrl.subscribe(ep, { id: '1' }, () => {});
  await waitFor(() => started('/articles/1') >= 3, { message: 'without {poll: false} it polls' });
  polled();
  unsub();
});

test('subscribe options: {fetch: true, poll: true} is the default behaviour', async () => {
  const { df, fx } = await env();
  const { ctrl, started } = countingController(df);
  const ep = fx.getArticle.extend({ pollFrequency: POLL_MS, name: 'explicit' });
  const unsub = ctrl.subscribe(ep, { id: '1' }, () => {}, { fetch: true, poll: true });
  await waitFor(() => started('/articles/1') >= 3, { message: 'it fetches and polls' });
  unsub();
});

test('subscribe options: bad options are a TypeError naming the option, and nothing is subscribed', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const rec = recorder();
  assert.throws(() => ctrl.subscribe(fx.getArticle, { id: '1' }, rec, 'no'), { name: 'TypeError', message: /subscribe getArticle: options must be an object/ });
  assert.throws(() => ctrl.subscribe(fx.getArticle, { id: '1' }, rec, { fetch: 0 }), { name: 'TypeError', message: /options\.fetch must be a boolean, got 0/ });
  assert.throws(() => ctrl.subscribe(fx.getArticle, { id: '1' }, rec, { poll: 'no' }), { name: 'TypeError', message: /options\.poll must be a boolean/ });
  assert.equal(rec.calls.length, 0);
  assert.equal(await server.total(), 0);
});

// ------------------------------------------------ results that go stale with time

const EXPIRY_MS = 60_000;
// Well past the expiry: 80 s after a 60 s one.
const AFTER_EXPIRY_MS = 80_000;

/**
 * A controller on a fake clock with article 1 fetched once (a 60 s expiry)
 * and subscribed to: {ctrl, started, clock, ep, rec, unsub, fx, base, first}.
 */
async function staleRig(name) {
  const { df, fx, base } = await env();
  const clock = fakeClock();
  const { ctrl, started } = countingController(df, { now: clock.now });
  const ep = fx.getArticle.extend({ name, dataExpiryLength: EXPIRY_MS });
  const first = await ctrl.useSuspense(ep, { id: '1' });
  const rec = recorder();
  const unsub = ctrl.subscribe(ep, { id: '1' }, rec);
  assert.deepEqual(rec.calls, [{ data: first, loading: false, error: undefined }]);
  return { ctrl, started, clock, ep, rec, unsub, fx, base, first };
}

test('subscribe: a result that goes stale with time is held as it is (no request, no call), as data-client holds it; getResponse reads the clock', async () => {
  const { ctrl, started, clock, ep, rec, unsub, fx, first } = await staleRig('heldStale');
  const fetchedAt = clock.t;
  clock.advance(AFTER_EXPIRY_MS);
  const now = ctrl.getResponse(ep, { id: '1' });
  assert.equal(now.expiryStatus, 'stale', "getResponse reads the controller's clock");
  assert.equal(now.expiresAt, fetchedAt + EXPIRY_MS);
  assert.equal(now.data, first);

  // Changes to other results: no call, so no request started (a request
  // would be told as loading before the change returns).
  await ctrl.setResponse(fx.getArticle, { id: '2' }, { id: '2', title: 'unrelated' });
  await ctrl.invalidate(ep, { id: '3' });
  assert.equal(rec.calls.length, 1, 'a change elsewhere neither refetches it nor calls the listener');

  // An entity it holds changes: the listener is told, nothing is fetched.
  await ctrl.setResponse(fx.patchArticle, { id: '1' }, { ...first, title: 'renamed here' });
  assert.equal(rec.calls.length, 2);
  assert.equal(rec.last().data.title, 'renamed here');
  assert.equal(rec.last().loading, false, 'not refetched');
  assert.equal(started('/articles/1'), 1, 'one request in all');
  assert.equal(await server.count('GET /articles/1'), 1);
  unsub();
});

test('subscribe: a held result that went stale is revalidated by the next read: fetchIfStale, useSuspense, a new subscribe, revalidateActive, expireAll', async () => {
  const { ctrl, started, clock, ep, rec, unsub, base } = await staleRig('revalidateStale');
  const reads = {
    fetchIfStale: () => ctrl.fetchIfStale(ep, { id: '1' }),
    useSuspense: () => ctrl.useSuspense(ep, { id: '1' }),
    subscribe: () => ctrl.subscribe(ep, { id: '1' }, () => {}, { poll: false })(),
    revalidateActive: () => ctrl.revalidateActive(),
    expireAll: () => ctrl.expireAll((key) => key === ep.key({ id: '1' })),
  };
  let requests = 1;
  for (const [name, read] of Object.entries(reads)) {
    clock.advance(AFTER_EXPIRY_MS);
    await patchOnServer(base, '1', { title: `before ${name}` });
    const stale = rec.last().data;
    const calls = rec.calls.length;
    await read();
    requests++;
    await waitFor(() => rec.last().data.title === `before ${name}` && rec.last().loading === false, {
      message: `${name}: the subscriber is told the server's new data`,
    });
    assert.equal(started('/articles/1'), requests, `${name}: one request`);
    assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'valid', name);
    const told = rec.calls.slice(calls);
    assert.deepEqual(
      told.map((s) => s.loading),
      [true, false],
      `${name}: the subscriber is told it loads (with the stale data), then the new data`,
    );
    assert.equal(told[0].data, stale, `${name}: the stale data is shown while it loads`);
  }
  assert.equal(await server.count('GET /articles/1'), requests);
  unsub();
});

test("subscribe's NO_DATA option (the React bindings'): told of every change, loading and error, without the data", async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const NO_DATA = Symbol.for('datafetch.subscribe.noData');
  const rec = recorder();
  const unsub = ctrl.subscribe(fx.getArticle, { id: '1' }, rec, { [NO_DATA]: true });
  assert.deepEqual(rec.last(), { data: undefined, loading: true, error: undefined }, 'it fetches, and says so');
  await waitFor(() => rec.last().loading === false, { message: 'the fetch arrives' });
  assert.equal(rec.last().data, undefined, 'the data is not handed over');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data.id, '1', 'though it is stored');

  // A change of the data alone is still told.
  const told = rec.calls.length;
  await ctrl.setResponse(fx.getArticle, { id: '1' }, { id: '1', title: 'changed' });
  await waitFor(() => rec.calls.length > told, { message: 'the change is told' });
  assert.deepEqual(rec.last(), { data: undefined, loading: false, error: undefined });

  // Without the option the same subscription gets the data.
  const plain = recorder();
  ctrl.subscribe(fx.getArticle, { id: '1' }, plain)();
  assert.equal(plain.last().data.title, 'changed');
  unsub();
});
