// Collections (docs/js-api.md, Collections and queries): schema.Collection,
// endpoint.push / unshift / remove, resource getList.push, optimistic
// pushes, and paginationField with getList.getPage; requests counted at the
// fixture server.

import assert from 'node:assert/strict';
import { env, server, setup, test } from './harness.mjs';

setup();

function articles(df, base, fx, extra = {}) {
  return df.resource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article, ...extra });
}

const ids = (list) => list.map((a) => a.id);

test('getList is a Collection: getList.push creates and appends, with no update function and no refetch', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  assert.ok(r.getList.schema instanceof df.schema.Collection);
  const ctrl = new df.Controller();
  const before = await ctrl.useSuspense(r.getList, {});
  const other = await ctrl.useSuspense(r.getList, { published: 'false' });
  const created = await ctrl.fetch(r.getList.push, {}, { title: 'pushed', published: true });
  assert.equal(created.title, 'pushed');
  assert.equal(created.id, '101');
  const after = ctrl.getResponse(r.getList, {}).data;
  assert.deepEqual(ids(after), [...ids(before), '101']);
  for (let i = 0; i < before.length; i++) assert.equal(after[i], before[i], `article ${before[i].id} unchanged: ===`);
  assert.equal(ctrl.getResponse(r.getList, { published: 'false' }).data, other, 'published=false does not match the body: untouched');
  assert.equal(await server.count('POST /articles'), 1);
  assert.equal(await server.count('GET /articles'), 1);
  assert.equal(r.getList.assign.schema, undefined, "a list's assign has no schema (data-client's)");
  assert.equal(r.get.push.schema, undefined, 'push of an endpoint without a Collection has no schema');
  assert.equal(r.getList.getPage, undefined, 'no paginationField, no getPage');
  assert.equal(r.getList.push, r.getList.push, 'made once');
});

test('unshift prepends and remove takes out, in every collection whose args match', async () => {
  const { df, base, fx } = await env();
  const Articles = new df.schema.Collection([fx.Article]);
  const list = new df.RestEndpoint({ urlPrefix: base, path: '/articles', name: 'articles', schema: Articles });
  const ctrl = new df.Controller();
  const before = await ctrl.useSuspense(list, {});
  const first = await ctrl.fetch(list.unshift, {}, { title: 'first' });
  assert.deepEqual(ids(ctrl.getResponse(list, {}).data), [first.id, ...ids(before)]);
  assert.equal(list.remove.method, 'PATCH');
  const gone = before[0];
  // remove sends the record (PATCH to the list path); the fixture has no
  // such route, so the response is given by a fetch of our own.
  const remove = list.remove.extend({ fetch: (_params, body) => body });
  await ctrl.fetch(remove, {}, { id: gone.id });
  const now = ctrl.getResponse(list, {}).data;
  assert.deepEqual(ids(now), [first.id, ...ids(before).slice(1)]);
  assert.equal(now[1], before[1], 'others keep their identity');
});

test('optimistic push: the temporary id shows at once, is replaced on success, and rolled back on error', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  const push = r.getList.push.extend({ getOptimisticResponse: (_snap, _params, body) => ({ id: `tmp-${body.title}`, ...body }) });
  const ctrl = new df.Controller();
  const before = await ctrl.useSuspense(r.getList, {});
  const seen = [];
  const unsubscribe = ctrl.subscribe(r.getList, {}, ({ data }) => seen.push(ids(data ?? [])), { fetch: false });
  const ok = ctrl.fetch(push, {}, { title: 'a' });
  assert.deepEqual(ids(ctrl.getResponse(r.getList, {}).data), [...ids(before), 'tmp-a'], 'before the network answers');
  await ok;
  assert.deepEqual(ids(ctrl.getResponse(r.getList, {}).data), [...ids(before), '101'], 'server id in place of the temporary one');

  await server.failNext(1, 500);
  const bad = ctrl.fetch(push, {}, { title: 'b' });
  assert.deepEqual(ids(ctrl.getResponse(r.getList, {}).data), [...ids(before), '101', 'tmp-b']);
  await assert.rejects(bad, (err) => err.status === 500);
  assert.deepEqual(ids(ctrl.getResponse(r.getList, {}).data), [...ids(before), '101'], 'rolled back');
  unsubscribe();
  assert.deepEqual(seen.at(-1), [...ids(before), '101']);
  assert.ok(
    seen.some((s) => s.includes('tmp-b')),
    'subscribers saw the optimistic push',
  );
  assert.equal(await server.count('GET /articles'), 1);
});

test('two racing optimistic pushes: each is replaced by its own response, in any order', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  const push = r.getList.push.extend({ getOptimisticResponse: (_snap, _params, body) => ({ id: `tmp-${body.title}`, ...body }) });
  const ctrl = new df.Controller();
  const before = await ctrl.useSuspense(r.getList, {});
  await server.hold();
  const a = ctrl.fetch(push, {}, { title: 'a' });
  const b = ctrl.fetch(push, {}, { title: 'b' });
  assert.deepEqual(ids(ctrl.getResponse(r.getList, {}).data), [...ids(before), 'tmp-a', 'tmp-b']);
  const held = await server.held(2);
  await server.release(held[1].seq);
  await server.release(held[0].seq);
  await server.unhold();
  await Promise.all([a, b]);
  const list = ctrl.getResponse(r.getList, {}).data;
  assert.deepEqual(ids(list.slice(0, before.length)), ids(before));
  const added = list.slice(before.length);
  assert.deepEqual(added.map((x) => x.title).sort(), ['a', 'b']);
  assert.deepEqual(ids(added).sort(), ['101', '102'], `server ids in place of the temporary ones: ${ids(list)}`);
});

test('an update function on a Collection-backed getList gets and returns its pks', async () => {
  const { df, base, fx } = await env();
  const r = articles(df, base, fx);
  const ctrl = new df.Controller();
  const before = await ctrl.useSuspense(r.getList, {});
  let got;
  const create = r.create.extend({
    update: (newId) => ({
      [r.getList.key({})]: (pks) => {
        got = pks;
        return [newId, ...pks];
      },
    }),
  });
  const made = await ctrl.fetch(create, {}, { title: 'made' });
  assert.deepEqual(got, ids(before));
  const after = ctrl.getResponse(r.getList, {}).data;
  assert.deepEqual(ids(after), [made.id, ...ids(before)]);
  assert.equal(after[1], before[0]);
});

test('paginationField: getList.getPage appends each page to the list stored without the page param, once each, in order', async () => {
  const { df, base, fx } = await env();
  const posts = new df.RestEndpoint({
    urlPrefix: base,
    path: '/post',
    name: 'post',
    paginationField: 'page',
    schema: { results: new df.schema.Collection([fx.Post]), nextPage: '', lastPage: '' },
  });
  const ctrl = new df.Controller();
  const first = await ctrl.useSuspense(posts, {});
  const page1 = ids(first.results);
  assert.ok(first.nextPage, 'the fixture has a second page');
  const two = await ctrl.fetch(posts.getPage, { page: first.nextPage });
  assert.deepEqual(ids(two.results).slice(0, page1.length), page1);
  const page2 = ids(two.results).slice(page1.length);
  assert.ok(page2.length > 0);
  assert.equal(two.results[0], first.results[0], 'entities of page 1 keep their identity');
  // Fetching page 2 again adds nothing: each entity once.
  const again = await ctrl.fetch(posts.getPage, { page: first.nextPage });
  assert.deepEqual(ids(again.results), [...page1, ...page2]);
  assert.equal(ctrl.getResponse(posts, {}).data.results, again.results);
  const counts = await server.counts();
  assert.equal(counts['GET /post'], 1);
  assert.equal(counts[`GET /post?page=${first.nextPage}`], 2);
});

test('schema.Collection: bad input is a TypeError naming it', async () => {
  const { df, fx } = await env();
  assert.throws(() => new df.schema.Collection(fx.Article), /schema.Collection: schema must be a list/);
  assert.throws(() => new df.schema.Collection([fx.Article], { argsKey: 3 }), /argsKey must be a function/);
  const byUser = new df.schema.Collection([fx.Article], { argsKey: ({ userId }) => ({ userId }) });
  const { result, entities } = df.normalize(byUser, [{ id: '1', title: 'x' }]);
  assert.equal(typeof result, 'string');
  assert.deepEqual(Object.values(entities[Object.keys(entities).find((k) => k !== 'Article')]), [['1']]);
});
