// Results inferred from entities and setError (docs/js-api.md, Controller).
// A read of an endpoint whose schema is one Entity, by the entity's pk, is
// answered from the entity table when the entity is stored and fresh, with
// no request; setError keeps an error as a failed fetch does. Requests are
// counted at the fixture server; time comes from a fake clock.

import assert from 'node:assert/strict';
import { env, failureOf, fakeClock, recorder, server, setup, test } from './harness.mjs';

setup();

const DETAIL_1 = 'GET /articles/1';

/** The articles resource of the fixture server, on a fresh controller. */
async function articles(options) {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller(options);
  const res = df.resource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article });
  return { df, fx, ctrl, res };
}

test('list then detail: no second request, the very object of the list, the entity expiry', async () => {
  const { ctrl, res } = await articles();
  const list = await ctrl.useSuspense(res.getList, {});
  const inList = list.find((a) => a.id === '1');
  assert.ok(inList, 'article 1 is in the list');
  const listed = ctrl.getResponse(res.getList, {});

  const detail = await ctrl.useSuspense(res.get, { id: '1' });
  assert.equal(detail, inList, 'the same object as in the list');
  const r = ctrl.getResponse(res.get, { id: '1' });
  assert.equal(r.expiryStatus, 'valid');
  assert.equal(r.data, inList);
  assert.equal(r.expiresAt, listed.expiresAt, "the entity's expiresAt, from the list's response");
  assert.equal(ctrl.getResponse(res.get, { id: 1 }).data, inList, '1 and "1" name one entity');
  assert.equal(await ctrl.fetchIfStale(res.get, { id: '1' }), inList);

  const listener = recorder();
  const unsubscribe = ctrl.subscribe(res.get, { id: '1' }, listener);
  unsubscribe();
  assert.equal(listener.calls.length, 1);
  assert.equal(listener.last().data, inList);
  assert.equal(listener.last().loading, false, 'the subscription started no request');

  assert.equal(await server.count(DETAIL_1), 0, 'no request for the detail');
  assert.equal(await server.count('GET /articles'), 1);
  assert.equal(ctrl.getState().endpoints[res.get.key({ id: '1' })], undefined, 'nothing is stored for the detail');
});

test('an inferred read changes with its entity, and an unchanged one stays the same object', async () => {
  const { ctrl, res } = await articles();
  await ctrl.useSuspense(res.getList, {});
  const before = ctrl.getResponse(res.get, { id: '2' }).data;
  assert.equal(ctrl.getResponse(res.get, { id: '2' }).data, before, 'an unchanged re-read');
  await ctrl.setResponse(res.get, { id: '1' }, { id: '1', title: 'changed elsewhere' });
  assert.equal(ctrl.getResponse(res.get, { id: '2' }).data, before, 'another entity changed: still the same');

  const list = await ctrl.fetch(res.getList, {}); // a refetch of equal data: no change
  assert.equal(ctrl.getResponse(res.get, { id: '2' }).data, before);
  await ctrl.setResponse(res.getList, {}, [...list.map((a) => ({ ...a, author: a.author?.id ?? null })), { ...before, author: null, title: 'renamed' }]);
  const after = ctrl.getResponse(res.get, { id: '2' }).data;
  assert.notEqual(after, before);
  assert.equal(after.title, 'renamed');
  assert.equal(ctrl.getResponse(res.getList, {}).data.at(-1), after, 'the list holds the same new object');
  assert.equal(await server.count('GET /articles/2'), 0);
});

test('not inferred: a pk not stored, or params that name no pk, fetch', async () => {
  const { ctrl, res, fx } = await articles();
  await ctrl.useSuspense(res.getList, {});
  assert.equal(ctrl.getResponse(res.get, { id: '999999' }).expiryStatus, 'missing');
  await failureOf(() => ctrl.useSuspense(res.get, { id: '999999' }), 'a read of an article the server lacks');
  assert.equal(await server.count('GET /articles/999999'), 1);

  // An endpoint keyed by something other than the pk is not inferred.
  const bySlug = fx.getArticle.extend({ name: 'bySlug', path: '/articles/:slug' });
  assert.equal(ctrl.getResponse(bySlug, { slug: '1' }).expiryStatus, 'missing');
});

test('a custom pk: inferred when the params name it as a record would', async () => {
  const { df, base } = await env();
  const ctrl = new df.Controller();
  // The fixture's articles keyed by their title (a pk function), read back
  // through an endpoint whose params carry the title.
  const ByTitle = df.Entity({ key: 'ArticleByTitle', pk: (a) => a.title, defaults: { id: undefined, title: '' } });
  const list = new df.RestEndpoint({ urlPrefix: base, path: '/articles', name: 'titles', schema: [ByTitle] });
  const one = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', name: 'byTitle', schema: ByTitle });
  const all = await ctrl.useSuspense(list, {});
  const first = all[0];
  const r = ctrl.getResponse(one, { id: first.id, title: first.title });
  assert.equal(r.expiryStatus, 'valid');
  assert.equal(r.data, first);
  assert.equal(ctrl.getResponse(one, { id: first.id }).expiryStatus, 'missing', 'params without the title name no pk');
  assert.equal(await server.count(`GET /articles/${first.id}`), 0);
});

test('expiry: the entity expiry on the fake clock; past it the read is missing and fetches', async () => {
  const clock = fakeClock();
  const { ctrl, res } = await articles({ now: clock.now, dataExpiryLength: 10_000 });
  await ctrl.useSuspense(res.getList, {});
  const r = ctrl.getResponse(res.get, { id: '1' });
  assert.equal(r.expiryStatus, 'valid');
  assert.equal(r.expiresAt, clock.t + 10_000);

  clock.advance(9_999);
  assert.equal(await ctrl.useSuspense(res.get, { id: '1' }), r.data, 'still fresh: no request');
  assert.equal(await server.count(DETAIL_1), 0);

  clock.advance(1);
  const expired = ctrl.getResponse(res.get, { id: '1' });
  assert.equal(expired.expiryStatus, 'missing', 'not stale: never fetched for this endpoint');
  assert.equal(expired.data, undefined);
  const fetched = await ctrl.useSuspense(res.get, { id: '1' });
  assert.equal(fetched.id, '1');
  assert.equal(await server.count(DETAIL_1), 1, 'fetched once expired');
  assert.equal(ctrl.getResponse(res.get, { id: '1' }).expiryStatus, 'valid');
});

test('a deleted or an invalidated entity is not inferred: the read fetches', async () => {
  const { df, base, fx } = await env();
  for (const [name, drop] of [
    [
      'deleted',
      (ctrl) => {
        // Deleted in the store only, so the server still serves it.
        const remove = new df.RestEndpoint({
          urlPrefix: base,
          path: '/articles/:id',
          method: 'DELETE',
          name: 'removeLocally',
          schema: new df.schema.Invalidate(fx.Article),
          fetch: (params) => ({ id: params.id }),
        });
        return ctrl.fetch(remove, { id: '1' });
      },
    ],
    ['invalidated', (ctrl) => ctrl.invalidate(fx.getArticle, { id: '1' })],
  ]) {
    await server.reset();
    const ctrl = new df.Controller();
    await ctrl.useSuspense(fx.listArticles, {});
    assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'valid', name);
    await drop(ctrl);
    assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, undefined, name);
    const a = await ctrl.useSuspense(fx.getArticle, { id: '1' });
    assert.equal(a.id, '1');
    assert.equal(await server.count(DETAIL_1), 1, `${name}: fetched`);
  }
});

test('optimistic data is inferred while its request is pending, and rolled back with it', async () => {
  const { ctrl, res } = await articles();
  await ctrl.useSuspense(res.getList, {});
  const before = ctrl.getResponse(res.get, { id: '1' }).data;
  const patch = res.partialUpdate.extend({
    getOptimisticResponse: (snap, params, body) => ({ ...snap.getResponse(res.get, params).data, ...body, author: null }),
  });
  await server.failNext(1, 500);
  const failing = ctrl.fetch(patch, { id: '1' }, { title: 'optimistic' });
  const during = ctrl.getResponse(res.get, { id: '1' });
  assert.equal(during.expiryStatus, 'valid');
  assert.equal(during.data.title, 'optimistic');
  assert.equal(
    ctrl.getResponse(res.getList, {}).data.find((a) => a.id === '1'),
    during.data,
  );
  await failureOf(() => failing, 'the refused patch');
  assert.equal(ctrl.getResponse(res.get, { id: '1' }).data, before, 'rolled back to the very object');
  assert.equal(await server.count(DETAIL_1), 0);
});

// ------------------------------------------------------------------ setError

test('setError: reads reject with that error, with no request, for errorExpiryLength', async () => {
  const clock = fakeClock();
  const { ctrl, fx } = await articles({ now: clock.now, errorExpiryLength: 5_000 });
  const err = new Error('set by the page');
  const p = ctrl.setError(fx.getArticle, { id: '1' }, err);
  assert.ok(p instanceof Promise);
  assert.equal(await p, undefined);

  assert.equal(await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '1' })), err, 'the very error');
  assert.equal(await failureOf(() => ctrl.fetchIfStale(fx.getArticle, { id: '1' })), err);
  const r = ctrl.getResponse(fx.getArticle, { id: '1' });
  assert.deepEqual([r.data, r.expiryStatus], [undefined, 'missing'], 'getResponse reads the data, as for a failed fetch');
  const listener = recorder();
  ctrl.subscribe(fx.getArticle, { id: '1' }, listener)();
  assert.equal(listener.last().error, err);

  clock.advance(4_999);
  assert.equal(await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '1' })), err, 'still kept');
  assert.equal(await server.count(DETAIL_1), 0, 'no request while kept');

  clock.advance(1);
  const a = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  assert.equal(a.id, '1');
  assert.equal(await server.count(DETAIL_1), 1, 'fetched once expired');
});

test('setError over stored data: getResponse keeps the data, useSuspense rejects; invalidate drops it', async () => {
  const { ctrl, fx } = await articles({ errorExpiryLength: 3_600_000 });
  const a = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const err = new TypeError('typed');
  await ctrl.setError(fx.getArticle, { id: '1' }, err);
  const r = ctrl.getResponse(fx.getArticle, { id: '1' });
  assert.deepEqual([r.data, r.expiryStatus], [a, 'valid']);
  assert.equal(await failureOf(() => ctrl.useSuspense(fx.getArticle, { id: '1' })), err);
  await ctrl.invalidate(fx.getArticle, { id: '1' });
  assert.equal((await ctrl.useSuspense(fx.getArticle, { id: '1' })).id, '1');
  assert.equal(await server.count(DETAIL_1), 2);
});

test('setError wins over an inferred read', async () => {
  const { ctrl, res } = await articles({ errorExpiryLength: 3_600_000 });
  await ctrl.useSuspense(res.getList, {});
  const err = new Error('no detail for you');
  await ctrl.setError(res.get, { id: '1' }, err);
  assert.equal(await failureOf(() => ctrl.useSuspense(res.get, { id: '1' })), err);
  assert.equal(await server.count(DETAIL_1), 0);
});

test('setError with bad arguments: a TypeError naming the argument, nothing kept', async () => {
  const { ctrl, fx } = await articles();
  for (const [what, run, words] of [
    ['no error', () => ctrl.setError(fx.getArticle, { id: '1' }), ['error must be an Error', 'getArticle']],
    ['a string', () => ctrl.setError(fx.getArticle, { id: '1' }, 'oops'), ['error must be an Error', '"oops"']],
    ['null', () => ctrl.setError(fx.getArticle, { id: '1' }, null), ['error must be an Error']],
    ['not an endpoint', () => ctrl.setError({}, { id: '1' }, new Error('x')), ['expected an endpoint']],
    ['params missing a path token', () => ctrl.setError(fx.getArticle, {}, new Error('x')), ['id']],
  ]) {
    const err = await failureOf(run, what);
    if (what !== 'params missing a path token') assert.ok(err instanceof TypeError, `${what}: ${err}`);
    for (const w of words) assert.ok(err.message.includes(w), `${what}: ${JSON.stringify(err.message)} should mention ${w}`);
  }
  assert.deepEqual(ctrl.getState().meta, {}, 'nothing kept');
  assert.equal((await ctrl.useSuspense(fx.getArticle, { id: '1' })).id, '1', 'the controller keeps working');
});

test('an object schema of entities and defaults is inferred, as data-client: the entity, the defaults, its expiry', async () => {
  const { df, base, fx, ctrl, res } = await articles();
  const list = await ctrl.useSuspense(res.getList, {});
  const inList = list.find((a) => a.id === '1');
  const wrapped = new df.RestEndpoint({
    urlPrefix: base,
    path: '/articles/:id',
    name: 'wrapped',
    schema: { data: fx.Article, extra: '', page: { first: null, next: { n: 0 } } },
  });
  const r = ctrl.getResponse(wrapped, { id: '1' });
  assert.equal(r.expiryStatus, 'valid');
  assert.equal(r.data.data, inList, "the list's object of the entity");
  assert.equal(r.data.extra, '');
  assert.deepEqual(r.data.page, { first: null, next: { n: 0 } });
  assert.equal(r.expiresAt, ctrl.getResponse(res.getList, {}).expiresAt);
  assert.equal(ctrl.getResponse(wrapped, { id: '1' }).data.data, inList, 'the same object again');
  assert.equal(ctrl.getResponse(wrapped, { id: '999' }).expiryStatus, 'missing', 'an entity not stored');
  const withList = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', name: 'withList', schema: { data: fx.Article, all: [fx.Article] } });
  assert.equal(ctrl.getResponse(withList, { id: '1' }).expiryStatus, 'missing', 'a list member needs the stored result');
  assert.equal(await server.count(DETAIL_1), 0);
});
