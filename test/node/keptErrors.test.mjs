// Which errors a Controller keeps (docs/js-api.md, useSuspense). A failed fetch is kept
// for errorExpiryLength, until invalidate, invalidateAll or expireAll ask
// for a new fetch; a request aborted by its caller's signal is not kept (no
// fetch happened), a timeout is. Requests are counted at the fixture server.

import assert from 'node:assert/strict';
import { env, failureOf, recorder, server, setup, test, waitFor } from './harness.mjs';

setup();

// Long enough that a kept error never expires by itself during a test, so
// only the call under test can make the next read fetch.
const KEEP = 3_600_000;

// Hang guard of each test: minutes, never a bound on speed.
const T = { timeout: 300_000 };

const missing = { id: '999999' };
const MISSING_KEY = 'GET /articles/999999';

for (const [name, drop] of [
  ['invalidate', (ctrl, ep) => ctrl.invalidate(ep, missing)],
  ['invalidateAll', (ctrl) => ctrl.invalidateAll(() => true)],
  ['expireAll', (ctrl) => ctrl.expireAll(() => true)],
]) {
  test(`${name} after a failed read: the next read fetches instead of replaying the kept error`, T, async () => {
    const { df, fx } = await env();
    const ctrl = new df.Controller({ errorExpiryLength: KEEP });
    const first = await failureOf(() => ctrl.useSuspense(fx.getArticle, missing), 'read of a missing article');
    assert.equal(first.status, 404);
    assert.equal(await server.count(MISSING_KEY), 1);

    const kept = await failureOf(() => ctrl.useSuspense(fx.getArticle, missing), 'read within errorExpiryLength');
    assert.equal(kept.status, 404);
    assert.equal(await server.count(MISSING_KEY), 1, 'a kept error sends nothing');

    await drop(ctrl, fx.getArticle);
    const again = await failureOf(() => ctrl.useSuspense(fx.getArticle, missing), `read after ${name}`);
    assert.equal(again.status, 404);
    assert.equal(await server.count(MISSING_KEY), 2, `the read after ${name} sent a request`);
  });
}

test('invalidate after a failed read: a subscriber refetches and gets the data', T, async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller({ errorExpiryLength: KEEP });
  const listener = recorder();
  const unsubscribe = ctrl.subscribe(fx.getArticle, missing, listener);
  try {
    await waitFor(() => listener.last().error, { timeout: 120_000 });
    assert.equal(listener.last().error.status, 404);
    await ctrl.invalidate(fx.getArticle, missing);
    await waitFor(async () => (await server.count(MISSING_KEY)) === 2 && !listener.last().loading, { timeout: 120_000 });
  } finally {
    unsubscribe();
  }
});

/**
 * Holds the server and starts a read of article 1 through a copy of
 * fx.getArticle whose signal is ac's, on a controller that keeps errors;
 * returns once the read's request is held at the server.
 */
async function startAbortableRead() {
  const { df, fx } = await env();
  const ctrl = new df.Controller({ errorExpiryLength: KEEP });
  const ac = new AbortController();
  const abortable = fx.getArticle.extend({ signal: ac.signal });
  await server.hold();
  const aborted = ctrl.useSuspense(abortable, { id: '1' });
  await server.held(1, 120_000);
  return { fx, ctrl, ac, aborted };
}

test("a read aborted by its endpoint's signal is not kept: the next plain read fetches", T, async () => {
  const { fx, ctrl, ac, aborted } = await startAbortableRead();
  ac.abort();
  const err = await failureOf(() => aborted, 'aborted read');
  assert.equal(err.name, 'AbortError');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'missing', 'as if no fetch had happened');
  await server.unhold();

  const a = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  assert.equal(a.id, '1');
  assert.equal(await server.count('GET /articles/1'), 2, 'the plain read sent a request');
});

test("a subscriber is not shown a signal's abort as the result's error", T, async () => {
  const { fx, ctrl, ac, aborted } = await startAbortableRead();
  const listener = recorder();
  const unsubscribe = ctrl.subscribe(fx.getArticle, { id: '1' }, listener);
  try {
    assert.equal(listener.last().loading, true, 'it shares the request in flight');
    ac.abort();
    assert.equal((await failureOf(() => aborted, 'aborted read')).name, 'AbortError');
    await server.unhold();
    // Its own endpoint has no signal: it fetches again and gets the data.
    await waitFor(() => listener.last().data?.id === '1' && !listener.last().loading, { timeout: 120_000 });
    for (const [i, call] of listener.calls.entries()) {
      assert.equal(call.error, undefined, `call ${i} shows no error`);
    }
    assert.equal(await server.count('GET /articles/1'), 2);
  } finally {
    unsubscribe();
  }
});

test('a timeout is a failed fetch: kept like any other error', T, async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller({ errorExpiryLength: KEEP });
  // A fetch that never answers, counted as it is called (a network request
  // could time out before it reached the server on a loaded machine).
  let calls = 0;
  const slow = fx.getArticle.extend({
    timeout: 50,
    fetch: () => {
      calls++;
      return new Promise(() => {});
    },
  });
  const err = await failureOf(() => ctrl.useSuspense(slow, { id: '1' }), 'timed-out read');
  assert.equal(err.name, 'TimeoutError');
  const kept = await failureOf(() => ctrl.useSuspense(slow, { id: '1' }), 'read within errorExpiryLength');
  assert.equal(kept.name, 'TimeoutError');
  assert.equal(calls, 1, 'a kept timeout sends nothing');
});
