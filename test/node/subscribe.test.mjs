// Spec section 4: subscribe's options. {fetch: false} only listens (the
// React bindings' useCache); {poll: false} fetches as useSuspense would but
// does not poll (useSuspense, useDLE). Requests are counted as the library
// starts them (the controller's fetch option) and at the fixture server.

import assert from 'node:assert/strict';
import { env, recorder, server, setup, test, waitFor } from './harness.mjs';

setup();

/** A controller whose requests are counted as they start, by URL part. */
function countingController(df) {
  const urls = [];
  const ctrl = new df.Controller({
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
