// Pagination (docs/js-api.md, Pagination): tokens in the body, in the
// Link header, and endpoint.paginated() for infinite lists.

import assert from 'node:assert/strict';
import { env, linkFetch, server, setup, test } from './harness.mjs';

setup();

function postList(df, base, fx) {
  return new df.RestEndpoint({
    urlPrefix: base,
    path: '/posts',
    name: 'posts',
    schema: { results: [fx.Post], nextPage: '', prevPage: '' },
  });
}

test('tokens in the body: results, nextPage and prevPage; null means no such page', async () => {
  const { df, base, fx } = await env();
  const ep = postList(df, base, fx);
  const ctrl = new df.Controller();
  const first = await ctrl.useSuspense(ep, {});
  assert.deepEqual(
    first.results.map((p) => p.id),
    [1, 2, 3, 4, 5],
  );
  assert.equal(first.results[0].title, 'Hello from the fixture server');
  assert.equal(first.nextPage, '/posts?page=2');
  assert.ok(!first.prevPage, `no previous page: prevPage ${JSON.stringify(first.prevPage)} should be null or empty`);
  assert.ok(first.results[0].userId, 'unknown entity fields are kept');
});

test('tokens in the body: each page is its own endpoint key; pages share entities', async () => {
  const { df, base, fx } = await env();
  const ep = postList(df, base, fx);
  const ctrl = new df.Controller();
  const first = await ctrl.useSuspense(ep, {});
  const second = await ctrl.useSuspense(ep, { page: first.nextPage });
  assert.deepEqual(
    second.results.map((p) => p.id),
    [6, 7, 8, 9, 10],
  );
  assert.equal(second.prevPage, '/posts?page=1');
  assert.equal(second.nextPage, '/posts?page=3');
  assert.notEqual(ep.key({}), ep.key({ page: first.nextPage }));
  const s = ctrl.getState();
  assert.ok(s.endpoints[ep.key({})], 'page 1 stored');
  assert.ok(s.endpoints[ep.key({ page: first.nextPage })], 'page 2 stored under its own key');
  assert.equal(ctrl.getResponse(ep, {}).data, first, 'page 1 is untouched by page 2');
  assert.equal(Object.keys(s.entities.Post).length, 10);
  const counts = await server.counts();
  assert.equal(counts['GET /posts'], 1);
  assert.equal(counts[`GET /posts?page=${encodeURIComponent('/posts?page=2')}`], 1, JSON.stringify(counts));
});

test('tokens in the body: walking to the last page, whose nextPage is null', async () => {
  const { df, base, fx } = await env();
  const ep = postList(df, base, fx);
  const ctrl = new df.Controller();
  let page = await ctrl.useSuspense(ep, {});
  const ids = page.results.map((p) => p.id);
  let n = 1;
  while (page.nextPage) {
    page = await ctrl.useSuspense(ep, { page: page.nextPage });
    ids.push(...page.results.map((p) => p.id));
    n++;
    assert.ok(n <= 10, 'bounded walk');
  }
  assert.equal(n, 5);
  assert.equal(ids.length, 23);
  assert.deepEqual(
    ids,
    Array.from({ length: 23 }, (_, i) => i + 1),
  );
  assert.equal(page.prevPage, '/posts?page=4');
});

test('page numbers as tokens with a lastPage member (/post?page=)', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/post',
    schema: { results: [fx.Post], nextPage: '', lastPage: '' },
  });
  const ctrl = new df.Controller();
  const p1 = await ctrl.useSuspense(ep, { page: '1' });
  assert.equal(p1.nextPage, '2');
  assert.equal(p1.lastPage, '5');
  const p5 = await ctrl.useSuspense(ep, { page: p1.lastPage });
  assert.equal(p5.nextPage, '', 'empty token: no next page');
  assert.deepEqual(
    p5.results.map((p) => p.id),
    [21, 22, 23],
  );
});

test('tokens in the Link header through a custom fetch', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/linked/posts',
    name: 'linked',
    schema: { results: [fx.Post], link: '' },
    fetch: linkFetch,
  });
  const ctrl = new df.Controller();
  const first = await ctrl.useSuspense(ep, {});
  assert.deepEqual(
    first.results.map((p) => p.id),
    [1, 2, 3, 4, 5],
  );
  assert.match(first.link, /<[^>]*\/linked\/posts\?page=2>; rel="next"/);
  assert.doesNotMatch(first.link, /rel="prev"/);
  const next = /<([^>]*)>; rel="next"/.exec(first.link)[1];
  const page = new URL(next).searchParams.get('page');
  const second = await ctrl.useSuspense(ep, { page });
  assert.deepEqual(
    second.results.map((p) => p.id),
    [6, 7, 8, 9, 10],
  );
  assert.match(second.link, /rel="prev"/);
  assert.equal(ctrl.getState().entities.Post['6'].title, 'Tokens, not offsets');
});

test('sequential reads: a second read uses a value from the first (post.userId)', async () => {
  const { df, base, fx } = await env();
  const getPost = new df.RestEndpoint({ urlPrefix: base, path: '/posts/:id', schema: fx.Post });
  const ctrl = new df.Controller();
  const post = await ctrl.useSuspense(getPost, { id: 4 });
  const user = await ctrl.useSuspense(fx.getUser, { id: post.userId });
  assert.equal(post.userId, 10);
  assert.equal(user.id, 10);
  assert.equal(user.name, 'Jonas Vermeer');
});

test('paginated(cursor): pages append to the list stored without the cursor', async () => {
  const { df, base, fx } = await env();
  const list = new df.RestEndpoint({ urlPrefix: base, path: '/linked/posts', name: 'infinite', schema: [fx.Post] });
  const more = list.paginated('page');
  assert.equal(typeof more.key, 'function');
  const ctrl = new df.Controller();
  const first = await ctrl.useSuspense(list, {});
  assert.equal(first.length, 5);
  await ctrl.fetch(more, { page: 2 });
  let all = ctrl.getResponse(list, {}).data;
  assert.deepEqual(
    all.map((p) => p.id),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
  assert.equal(all[0], first[0], 'earlier members keep their identity');
  await ctrl.fetch(more, { page: 3 });
  await ctrl.fetch(more, { page: 2 }); // again: deduplicated by pk, order kept
  all = ctrl.getResponse(list, {}).data;
  assert.deepEqual(
    all.map((p) => p.id),
    Array.from({ length: 15 }, (_, i) => i + 1),
  );
  const counts = await server.counts();
  assert.equal(counts['GET /linked/posts?page=2'], 2);
  assert.equal(counts['GET /linked/posts?page=3'], 1);
});

test('paginated(cursor): in a {results, nextPage} envelope, earlier results keep their identity as pages append', async () => {
  const { df, base, fx } = await env();
  const feed = new df.RestEndpoint({
    urlPrefix: base,
    path: '/post',
    name: 'envelopeFeed',
    schema: { results: [fx.Post], nextPage: '', lastPage: '' },
  }).paginated('page');
  const ctrl = new df.Controller();
  const one = await ctrl.fetch(feed, {});
  assert.deepEqual(
    one.results.map((p) => p.id),
    [1, 2, 3, 4, 5],
  );
  const two = await ctrl.fetch(feed, { page: one.nextPage });
  assert.deepEqual(
    two.results.map((p) => p.id),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
  assert.notEqual(two, one);
  for (let i = 0; i < 5; i++) assert.equal(two.results[i], one.results[i], `result ${i} keeps its object`);
  // A change to one post rebuilds that post only.
  await ctrl.setResponse(new df.RestEndpoint({ urlPrefix: base, path: '/posts/:id', name: 'onePost', schema: fx.Post }), { id: 3 }, { id: 3, title: 'edited' });
  const three = ctrl.getResponse(feed, {}).data;
  assert.equal(three.results[2].title, 'edited');
  assert.notEqual(three.results[2], two.results[2]);
  for (const i of [0, 1, 3, 4, 5, 9]) assert.equal(three.results[i], two.results[i], `result ${i} keeps its object`);
});
