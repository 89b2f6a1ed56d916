// Resources (docs/js-api.md, Resources): df.resource / df.createResource and extend.

import assert from 'node:assert/strict';
import { env, failureOf, fakeClock, server, setup, test } from './harness.mjs';

setup();

function articles(df, base, fx, extra = {}) {
  return df.resource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article, ...extra });
}

test('resource: get is GET path with the entity schema', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  const ctrl = new df.Controller();
  const a = await ctrl.useSuspense(r.get, { id: '2' });
  assert.equal(a.id, '2');
  assert.equal(a.title, 'Stale-while-revalidate in practice');
  assert.ok(a.createdAt instanceof Date, 'the schema of the resource is used');
  assert.deepEqual(await server.counts(), { 'GET /articles/2': 1 });
});

test('resource: getList is GET of the path without its last /:token, schema [schema]', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  assert.equal(r.getList.url({}), `${base}/articles`);
  const list = await new df.Controller().useSuspense(r.getList, {});
  assert.equal(list.length, 24);
  assert.equal(list[23].title, 'Migrating from legacy resources');
  assert.deepEqual(await server.counts(), { 'GET /articles': 1 });
  const nested = df.resource({ urlPrefix: base, path: '/users/:userId/posts/:id', schema: fx.Post });
  assert.equal(nested.getList.url({ userId: 3 }), `${base}/users/3/posts`);
  assert.equal(nested.get.url({ userId: 3, id: 4 }), `${base}/users/3/posts/4`);
  const filtered = new URL(r.getList.url({ tag: 'go' }));
  assert.equal(filtered.searchParams.get('tag'), 'go');
});

test('resource: create is POST of the list path and stores the server record', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  const ctrl = new df.Controller();
  const created = await ctrl.fetch(r.create, {}, { title: 'Created', tags: ['go'] });
  assert.equal(created.id, '101');
  assert.equal(created.title, 'Created');
  assert.deepEqual(created.tags, ['go']);
  assert.deepEqual(await server.counts(), { 'POST /articles': 1 });
  assert.equal(ctrl.getState().entities.Article['101'].title, 'Created');
  const again = await ctrl.fetch(r.create, {}, { title: 'Second' });
  assert.equal(again.id, '102', 'mutations are never deduplicated');
});

test('resource: update is PUT path (replaces the record)', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  const ctrl = new df.Controller();
  const before = await ctrl.useSuspense(r.get, { id: '3' });
  assert.notEqual(before.content, '');
  const after = await ctrl.fetch(r.update, { id: '3' }, { title: 'Replaced' });
  assert.equal(after.title, 'Replaced');
  assert.equal(after.content, '', 'PUT resets the fields not sent');
  assert.equal(ctrl.getResponse(r.get, { id: '3' }).data.title, 'Replaced', 'get of the same entity sees it');
  assert.equal(await server.count('PUT /articles/3'), 1);
});

test('resource: partialUpdate is PATCH path (changes only the fields sent)', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  const ctrl = new df.Controller();
  const before = await ctrl.useSuspense(r.get, { id: '4' });
  assert.equal(before.published, false);
  const after = await ctrl.fetch(r.partialUpdate, { id: '4' }, { published: true });
  assert.equal(after.published, true);
  assert.equal(after.title, before.title);
  assert.equal(after.content, before.content);
  assert.equal(ctrl.getResponse(r.get, { id: '4' }).data.published, true);
  assert.deepEqual(await server.counts(), { 'GET /articles/4': 1, 'PATCH /articles/4': 1 });
});

test('resource: delete is DELETE path; the empty response falls back to the params', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  const ctrl = new df.Controller();
  const list = await ctrl.useSuspense(r.getList, {});
  assert.ok(list.some((a) => a.id === '5'));
  await ctrl.useSuspense(r.get, { id: '5' });
  await ctrl.fetch(r.delete, { id: '5' });
  assert.equal(await server.count('DELETE /articles/5'), 1);
  const after = ctrl.getResponse(r.getList, {}).data;
  assert.equal(after.length, 23);
  assert.ok(!after.some((a) => a.id === '5'), 'the deleted article is gone from the list');
  assert.equal(ctrl.getResponse(r.get, { id: '5' }).data, undefined, 'the deleted entity reads as missing');
});

test('resource: reading a deleted entity fetches again', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  const ctrl = new df.Controller();
  await ctrl.useSuspense(r.get, { id: '6' });
  await ctrl.fetch(r.delete, { id: '6' });
  const err = await failureOf(() => ctrl.useSuspense(r.get, { id: '6' }));
  assert.equal(err.status, 404, 'the refetch finds it deleted on the server');
  assert.equal(await server.count('GET /articles/6'), 2);
});

test('resource: the rest of the options is passed to every endpoint', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx, { dataExpiryLength: 50 });
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  await ctrl.useSuspense(r.get, { id: '1' });
  await ctrl.useSuspense(r.getList, {});
  assert.equal(ctrl.getResponse(r.get, { id: '1' }).expiryStatus, 'valid');
  clock.advance(50);
  assert.equal(ctrl.getResponse(r.get, { id: '1' }).expiryStatus, 'stale');
  assert.equal(ctrl.getResponse(r.getList, {}).expiryStatus, 'stale');
});

test('createResource is resource', async () => {
  const { df, base, fx } = await env();
  const r = df.createResource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article });
  for (const name of ['get', 'getList', 'create', 'update', 'partialUpdate', 'delete']) {
    assert.equal(typeof r[name]?.key, 'function', `createResource(...).${name} is an endpoint`);
  }
  const a = await new df.Controller().useSuspense(r.get, { id: '7' });
  assert.equal(a.title, 'Reading the Link header');
});

test('resource(...).extend: extends and adds endpoints; the original is unchanged', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  const x = r.extend({
    get: { dataExpiryLength: 10 },
    publish: { urlPrefix: base, path: '/articles/:id', method: 'PATCH', schema: fx.Article, body: { published: true } },
  });
  assert.equal(r.publish, undefined, 'the original resource gains nothing');
  for (const name of ['get', 'getList', 'create', 'update', 'partialUpdate', 'delete', 'publish']) {
    assert.equal(typeof x[name]?.key, 'function', `extended.${name} is an endpoint`);
  }
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const published = await ctrl.fetch(x.publish, { id: '8' });
  assert.equal(published.published, true);
  assert.equal(await server.count('PATCH /articles/8'), 1);

  await ctrl.useSuspense(x.get, { id: '1' });
  await ctrl.useSuspense(r.get, { id: '2' });
  clock.advance(10);
  assert.equal(ctrl.getResponse(x.get, { id: '1' }).expiryStatus, 'stale', 'extended get expires fast');
  assert.equal(ctrl.getResponse(r.get, { id: '2' }).expiryStatus, 'valid', 'original get keeps the default');
  assert.equal(typeof x.extend, 'function', 'an extended resource can be extended again');
});

test('resource(...).extend can replace an endpoint schema (wrapped list)', async () => {
  const { df, base, fx } = await env();
  const r = df.resource({ urlPrefix: base, path: '/wrapped/comments/:id', schema: fx.Comment }).extend({
    get: { schema: { data: fx.Comment } },
    getList: { schema: { data: [fx.Comment] } },
  });
  const ctrl = new df.Controller();
  const one = await ctrl.useSuspense(r.get, { id: 4 });
  assert.equal(one.data.id, 4);
  const all = await ctrl.useSuspense(r.getList, { postId: 2 });
  assert.deepEqual(
    all.data.map((c) => c.id),
    [6, 7, 8, 9, 10],
  );
});
