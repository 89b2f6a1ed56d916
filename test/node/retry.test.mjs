// Retry (docs/js-api.md 9.2) and revalidation (9.3) as far as Node has
// them: attempts are counted at the fixture server (/bad/retry fails the
// first ?fail= requests to a URL), and waits between attempts are kept at
// zero with retryDelay or Retry-After, so nothing sleeps. The browser's
// focus and online events are tested in test/browser.

import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { DIST, env, failureOf, fakeClock, recorder, server, setup, test, waitFor } from './harness.mjs';

setup();

// retrying returns the /bad/retry endpoint with options, and count(params),
// the requests the server saw for those params.
function retrying(df, base, fx, options = {}) {
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/retry', name: 'retrying', schema: fx.Comment, ...options });
  const count = (params) => server.count(`GET ${new URL(ep.url(params)).pathname}${new URL(ep.url(params)).search}`);
  return { ep, count };
}

const noWait = () => 0;

test('retry: errors a retry may cure are retried until one succeeds, as one request', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const { ep, count } = retrying(df, base, fx, { retry: 3, retryDelay: noWait });
  for (const [i, status] of [408, 429, 500, 502, 503, 0].entries()) {
    const params = { id: i + 1, fail: 2, status };
    const c = await ctrl.useSuspense(ep, params);
    assert.equal(c.name, 'answered on attempt 3', `status ${status}`);
    assert.equal(await count(params), 3, `status ${status}: three attempts`);
  }
});

test('retry: other errors are not retried; the error says 0 retries', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const { ep, count } = retrying(df, base, fx, { retry: 3, retryDelay: noWait });
  for (const status of [400, 401, 403, 404, 409, 422]) {
    const params = { id: 1, fail: 2, status };
    const err = await failureOf(() => ctrl.useSuspense(ep, params));
    assert.ok(err instanceof df.NetworkError);
    assert.equal(err.status, status);
    assert.equal(err.retries, 0);
    assert.equal(await count(params), 1, `status ${status}: one attempt`);
  }
});

test('retry: the caller sees the last error only, with the number of retries made', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller({ retry: 5, retryDelay: noWait });
  const { ep, count } = retrying(df, base, fx, { retry: 2 }); // the endpoint's count wins
  const params = { id: 1, fail: 10 };
  const err = await failureOf(() => ctrl.useSuspense(ep, params));
  assert.ok(err instanceof df.NetworkError);
  assert.equal(err.name, 'NetworkError');
  assert.equal(err.status, 503);
  assert.equal(err.retries, 2);
  assert.match(err.body.error, /failure 3 of 10/, 'the last attempt');
  assert.match(err.message, /after 2 retries/);
  assert.equal(await count(params), 3);
  // Kept as any failed fetch's error is.
  const kept = await failureOf(() => ctrl.useSuspense(ep, params));
  assert.equal(kept.message, err.message);
  assert.equal(kept.retries, 2);
  assert.equal(await count(params), 3);
});

test('retry: the controller option applies to endpoints without one; retry: 0 on an endpoint turns it off', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller({ retry: 2, retryDelay: noWait });
  const { ep, count } = retrying(df, base, fx);
  assert.equal((await ctrl.useSuspense(ep, { id: 1, fail: 2 })).name, 'answered on attempt 3');
  const off = ep.extend({ retry: 0, name: 'off' });
  const err = await failureOf(() => ctrl.useSuspense(off, { id: 2, fail: 2 }));
  assert.equal(err.status, 503);
  assert.equal('retries' in err, false, 'no retry policy applied');
  assert.equal(await count({ id: 2, fail: 2 }), 1);
  // Without retry anywhere, errors are as they always were: no retries member.
  const plain = await failureOf(() => new df.Controller().useSuspense(ep, { id: 3 }));
  assert.equal(plain.status, 503);
  assert.equal('retries' in plain, false);
});

test('retry: endpoints with side effects never retry', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller({ retry: 3, retryDelay: noWait });
  const { ep, count } = retrying(df, base, fx, { method: 'GET', sideEffect: true, retry: 3 });
  const err = await failureOf(() => ctrl.fetch(ep, { id: 1, fail: 2 }));
  assert.equal(err.status, 503);
  assert.equal(await count({ id: 1, fail: 2 }), 1);
});

test('retryDelay gets the attempt (from 0) and the error; Retry-After replaces it', async () => {
  const { df, base, fx } = await env();
  const clock = fakeClock();
  const calls = [];
  const ctrl = new df.Controller({ now: clock.now });
  const { ep, count } = retrying(df, base, fx, {
    retry: 3,
    retryDelay(attempt, error) {
      calls.push([attempt, error instanceof df.NetworkError, error.status, this === ep]);
      return 0;
    },
  });
  assert.equal((await ctrl.useSuspense(ep, { id: 1, fail: 2, status: 500 })).name, 'answered on attempt 3');
  assert.deepEqual(calls, [
    [0, true, 500, true],
    [1, true, 500, true],
  ]);

  // An hour's delay, replaced by the server's Retry-After: seconds, or a
  // date read against the controller's clock.
  const slow = ep.extend({ name: 'slow', retryDelay: () => 3_600_000 });
  const date = new Date(clock.now()).toUTCString();
  // Each case reads another record: one stored already would be answered
  // from the entity, with no request.
  for (const [i, [status, after]] of [
    [503, '0'],
    [429, '0'],
    [503, date],
    [429, date],
  ].entries()) {
    const params = { id: 2 + i, fail: 1, status, after };
    assert.equal((await ctrl.useSuspense(slow, params)).name, 'answered on attempt 2', `${status} Retry-After: ${after}`);
    assert.equal(await count(params), 2);
  }
});

test('retryDelay: a bad return or a throw fails the request, naming the option', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const { ep, count } = retrying(df, base, fx, { retry: 3, retryDelay: () => 'soon' });
  const err = await failureOf(() => ctrl.useSuspense(ep, { id: 1 }));
  assert.match(err.message, /retryDelay must return a number of milliseconds/);
  assert.equal(await count({ id: 1 }), 1);
  const thrower = ep.extend({
    name: 'thrower',
    retryDelay: () => {
      throw new RangeError('no delay for you');
    },
  });
  const thrown = await failureOf(() => ctrl.useSuspense(thrower, { id: 2 }));
  assert.match(thrown.message, /no delay for you/);
  assert.equal(await count({ id: 2 }), 1);
});

test('retry: while retrying it is one request in flight, shared, and subscribers see loading', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller({ retry: 3, retryDelay: noWait });
  const { ep, count } = retrying(df, base, fx);
  const params = { id: 1, fail: 2 };
  const rec = recorder();
  const unsub = ctrl.subscribe(ep, params, rec);
  const [a, b, c] = await Promise.all([ctrl.useSuspense(ep, params), ctrl.useSuspense(ep, params), ctrl.fetch(ep, params)]);
  await waitFor(() => rec.last().data !== undefined);
  unsub();
  assert.equal(a.name, 'answered on attempt 3');
  assert.equal(b, a);
  assert.equal(c, a);
  assert.equal(await count(params), 3, 'three attempts for every caller together');
  const states = rec.calls;
  assert.equal(states.at(-1).loading, false);
  assert.equal(states.at(-1).data, a);
  for (const s of states.slice(0, -1)) {
    assert.equal(s.loading, true, 'loading until the last attempt');
    assert.equal(s.error, undefined, 'no error between attempts');
  }
});

test('retry: a custom fetch that throws an error with a status is retried by it', async () => {
  const { df } = await env();
  const ctrl = new df.Controller({ retry: 2, retryDelay: noWait });
  let calls = 0;
  const ep = new df.RestEndpoint({
    path: '/custom',
    fetch: async () => {
      calls++;
      if (calls < 3) throw Object.assign(new Error('busy'), { status: 503 });
      return { ok: calls };
    },
  });
  assert.deepEqual(await ctrl.useSuspense(ep, {}), { ok: 3 });
  let other = 0;
  const plain = new df.RestEndpoint({
    path: '/custom2',
    fetch: async () => {
      other++;
      throw new Error('no status');
    },
  });
  const err = await failureOf(() => ctrl.useSuspense(plain, {}));
  assert.equal(err.retries, 0);
  assert.equal(other, 1, 'an error without a status is not retried');
});

test('retry: aborting the signal stops the retries with an AbortError', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const abort = new AbortController();
  const { ep, count } = retrying(df, base, fx, { retry: 3, retryDelay: () => 3_600_000, signal: abort.signal });
  const params = { id: 1, fail: 5 };
  const p = ctrl.useSuspense(ep, params);
  await waitFor(async () => (await count(params)) === 1);
  abort.abort();
  const err = await failureOf(() => p);
  assert.equal(err.name, 'AbortError');
  assert.equal(err.retries, 0);
  assert.equal(await count(params), 1);
  assert.equal(ctrl.getResponse(ep, params).expiryStatus, 'missing');
});

test('retry: resetEntireStore stops the retries', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const { ep, count } = retrying(df, base, fx, { retry: 3, retryDelay: () => 3_600_000 });
  const params = { id: 1, fail: 5 };
  const p = ctrl.useSuspense(ep, params);
  await waitFor(async () => (await count(params)) === 1);
  await ctrl.resetEntireStore();
  const err = await failureOf(() => p);
  assert.match(err.message, /reset/);
  assert.equal(err.retries, 0);
  assert.equal(await count(params), 1);
});

test('retry: a timeout is not retried', async () => {
  const { df, base } = await env();
  const ctrl = new df.Controller({ retry: 3, retryDelay: noWait });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/hang', name: 'hang', timeout: 1 });
  const err = await failureOf(() => ctrl.useSuspense(ep, {}));
  assert.equal(err.name, 'TimeoutError');
  assert.equal(err.retries, 0);
  // At most the one request: a 1 ms timeout on a busy machine may abort it
  // before it reaches the server, so the count is not the test's measure.
  assert.ok((await server.count('GET /bad/hang')) <= 1);
});

test('retry options: a bad value is a TypeError naming the option', async () => {
  const { df, base } = await env();
  for (const retry of [-1, 1.5, '2', Number.NaN, Infinity, null]) {
    assert.throws(
      () => new df.RestEndpoint({ urlPrefix: base, path: '/x', name: 'bad', retry }),
      (e) => e instanceof TypeError && /bad: retry must be a whole number/.test(e.message),
      String(retry),
    );
    assert.throws(
      () => new df.Controller({ retry }),
      (e) => e instanceof TypeError && /Controller: retry must be a whole number/.test(e.message),
      String(retry),
    );
  }
  assert.throws(
    () => new df.RestEndpoint({ urlPrefix: base, path: '/x', name: 'bad', retryDelay: 'x' }),
    (e) => e instanceof TypeError && /retryDelay must be a function, got "x"/.test(e.message),
  );
  assert.throws(
    () => new df.Controller({ retryDelay: 5 }),
    (e) => e instanceof TypeError && /Controller: retryDelay must be a function, got 5/.test(e.message),
  );
  for (const name of ['revalidateOnFocus', 'revalidateOnReconnect']) {
    assert.throws(
      () => new df.Controller({ [name]: 'yes' }),
      (e) => e instanceof TypeError && e.message.includes(`Controller: ${name} must be a boolean`),
    );
  }
});

// ---------------------------------------------------------------- revalidation

test('revalidateActive: refetches the held results that are stale or invalid, and resolves when they are stored', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const short = fx.getArticle.extend({ name: 'short', dataExpiryLength: 1000 });
  const strict = fx.getArticle.extend({ name: 'strict', dataExpiryLength: 1000, invalidIfStale: true });
  const long = fx.getArticle.extend({ name: 'long', dataExpiryLength: 3_600_000 });
  const held = [
    [short, '1'],
    [strict, '2'],
    [long, '3'],
  ];
  for (const [ep, id] of [...held, [short, '4']]) await ctrl.useSuspense(ep, { id });
  const unsubs = held.map(([ep, id]) => ctrl.subscribe(ep, { id }, () => {}));
  unsubs.push(ctrl.subscribe(short, { id: '5' }, () => {}, { fetch: false })); // only listens
  await ctrl.useSuspense(short, { id: '5' });
  clock.advance(2000);
  assert.equal(ctrl.getResponse(short, { id: '1' }).expiryStatus, 'stale');
  assert.equal(ctrl.getResponse(strict, { id: '2' }).expiryStatus, 'invalid');

  assert.equal(await ctrl.revalidateActive(), undefined);
  const counts = {};
  for (const id of ['1', '2', '3', '4', '5']) counts[id] = await server.count(`GET /articles/${id}`);
  assert.deepEqual(counts, { 1: 2, 2: 2, 3: 1, 4: 1, 5: 1 }, 'held stale (1) and invalid (2) only');
  assert.equal(ctrl.getResponse(short, { id: '1' }).expiryStatus, 'valid', 'stored when it resolved');
  assert.equal(ctrl.getResponse(strict, { id: '2' }).expiryStatus, 'valid');

  // Failures resolve too: the subscribers get the errors.
  await ctrl.resetEntireStore();
  const bad = fx.getArticle.extend({ name: 'bad' });
  const rec = recorder();
  unsubs.push(ctrl.subscribe(bad, { id: '999' }, rec));
  await waitFor(() => rec.last().error !== undefined);
  clock.advance(5000); // the kept error expires
  assert.equal(await ctrl.revalidateActive(), undefined);
  assert.equal(await server.count('GET /articles/999'), 2);
  for (const u of unsubs) u();
});

test('revalidateOnFocus / revalidateOnReconnect: harmless where there is no document or window (Node)', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller({ revalidateOnFocus: true, revalidateOnReconnect: true });
  assert.equal((await ctrl.useSuspense(fx.getArticle, { id: '1' })).id, '1');
  ctrl.close();
  ctrl.close();
  assert.equal((await ctrl.useSuspense(fx.getArticle, { id: '2' })).id, '2', 'a closed controller still reads and fetches');
});

test('close: stops polling', async () => {
  const { df, fx } = await env();
  const closed = new df.Controller();
  const open = new df.Controller();
  const ep = fx.getArticle.extend({ pollFrequency: 20, name: 'polled' });
  const rec = recorder();
  closed.subscribe(ep, { id: '1' }, rec);
  await waitFor(() => rec.last().data !== undefined);
  closed.close();
  // A poll that started before close is let finish.
  await waitFor(() => rec.last().loading === false);
  const n = await server.count('GET /articles/1');
  // A negative needs time to pass: a control subscription polled as often
  // measures it in poll periods.
  const control = open.subscribe(ep, { id: '2' }, () => {});
  await waitFor(async () => (await server.count('GET /articles/2')) >= 6, { message: 'the control subscription polls' });
  control();
  assert.equal(await server.count('GET /articles/1'), n, 'no polling after close');
  // Nor does a subscription made after close.
  closed.subscribe(ep, { id: '3' }, () => {});
  const control2 = open.subscribe(ep, { id: '4' }, () => {});
  await waitFor(async () => (await server.count('GET /articles/4')) >= 6, { message: 'the control subscription polls' });
  control2();
  assert.equal(await server.count('GET /articles/3'), 1, 'fetched once, not polled');
});

test('a wait longer than a timer can wait is refused where it is given (pollFrequency, timeout) or bounded (retryDelay)', async () => {
  const { df } = await env();
  const MAX_TIMER_MS = 2 ** 31 - 1;
  for (const name of ['pollFrequency', 'timeout']) {
    assert.throws(() => new df.RestEndpoint({ path: '/x', [name]: MAX_TIMER_MS + 1 }), new RegExp(`${name} must be at most ${MAX_TIMER_MS} ms`));
    assert.doesNotThrow(() => new df.RestEndpoint({ path: '/x', [name]: MAX_TIMER_MS }));
  }
  const { retryDelayAdapter } = await import(new URL('internal/retry.mjs', pathToFileURL(`${DIST}/`)).href);
  const delay = retryDelayAdapter(
    () => 30 * 24 * 3600 * 1000,
    () => 'retryDelay',
  );
  assert.equal(delay(0, new Error('x')), MAX_TIMER_MS, 'a month-long retry wait is the longest timer');
  assert.equal(
    retryDelayAdapter(
      () => 5,
      () => 'retryDelay',
    )(0, new Error('x')),
    5,
  );
});
