// A refetch that changes little (docs/how-it-works.md, "Store"): the same
// JSON text as the response stored under the key is not normalized again,
// and a list whose text differs inside one element has that element alone
// normalized, also when an endpoint's fetch function hands over objects.
// Normalizing is counted by the calls of the list entity's pk function,
// one per record normalized.

import assert from 'node:assert/strict';
import { env, setup, test } from './harness.mjs';

setup();

const ARTICLES = 5;

/**
 * A list endpoint whose fetch function answers rows (copies, as a server
 * would), over an entity keyed by pk, which counts its calls.
 */
function rig(df, name, pk) {
  const counted = { calls: 0 };
  const User = new df.Entity({ key: `${name}User`, defaults: { id: undefined, name: '' } });
  const Article = new df.Entity({
    key: `${name}Article`,
    pk: pk(counted),
    defaults: { slug: '', title: '', author: null },
    schema: { author: User },
  });
  const rows = Array.from({ length: ARTICLES }, (_, i) => ({ slug: `a${i}`, title: `t${i}`, author: { id: `u${i % 2}`, name: `n${i % 2}` } }));
  const list = new df.RestEndpoint({
    urlPrefix: 'http://refetch.invalid',
    path: `/${name}`,
    name,
    schema: [Article],
    fetch: async () => rows.map((r) => ({ ...r, author: { ...r.author } })),
  });
  return { counted, rows, list, ctrl: new df.Controller() };
}

/** An entity keyed by slug whose pk function counts its calls. */
function countedArticle(df, key) {
  const counted = { calls: 0 };
  const Article = new df.Entity({
    key,
    pk: (rec) => {
      counted.calls++;
      return rec.slug;
    },
    defaults: { slug: '', title: '' },
  });
  return { counted, Article };
}

test('refetch: the same text again is not normalized; one changed element is normalized alone', async () => {
  const { df } = await env();
  const { counted, rows, list, ctrl } = rig(df, 'refetchElem', (c) => (rec) => {
    c.calls++;
    return rec.slug;
  });
  await ctrl.fetch(list, {});
  assert.equal(counted.calls, ARTICLES, 'the first response is normalized whole');
  const first = ctrl.getResponse(list, {}).data;

  await ctrl.fetch(list, {});
  assert.equal(counted.calls, ARTICLES, 'the same text again: no record normalized');
  assert.equal(ctrl.getResponse(list, {}).data, first, 'and the read is the same object');

  rows[2].title = 'changed';
  await ctrl.invalidate(list, {});
  await ctrl.fetch(list, {});
  assert.equal(counted.calls, ARTICLES + 1, 'one element changed, after an invalidation: that record alone normalized');
  const read = ctrl.getResponse(list, {});
  assert.equal(read.expiryStatus, 'valid');
  assert.equal(read.data[2].title, 'changed');
  for (const i of [0, 1, 3, 4]) assert.equal(read.data[i], first[i], `article ${i} keeps its object`);

  // A record the other elements share, changed in one of them: their
  // order decides, so once the element is normalized the whole list is.
  rows[0].author.name = 'renamed';
  await ctrl.fetch(list, {});
  assert.equal(counted.calls, ARTICLES + 1 + 1 + ARTICLES);
  assert.deepEqual(
    ctrl.getResponse(list, {}).data.map((a) => a.author.name),
    ['n0', 'n1', 'n0', 'n1', 'n0'],
    'the last of the shared author texts wins, as in a full normalize',
  );
});

test('refetch: a pk function that reads the parent normalizes the whole list', async () => {
  const { df } = await env();
  const { counted, rows, list, ctrl } = rig(df, 'refetchParent', (c) => (rec, parent) => {
    c.calls++;
    return parent === undefined ? undefined : rec.slug;
  });
  await ctrl.fetch(list, {});
  assert.equal(counted.calls, ARTICLES);
  rows[2].title = 'changed';
  await ctrl.fetch(list, {});
  assert.equal(counted.calls, 2 * ARTICLES, 'each element is given the whole list as its parent');
  assert.equal(ctrl.getResponse(list, {}).data[2].title, 'changed');
});

test("refetch: a Collection list (a resource's getList) fetched again is normalized as a plain list is", async () => {
  const { df } = await env();
  const { counted, Article } = countedArticle(df, 'refetchCollectionArticle');
  const rows = [
    { slug: 'a', title: 'A' },
    { slug: 'b', title: 'B' },
  ];
  const list = new df.RestEndpoint({
    urlPrefix: 'http://refetch.invalid',
    path: '/collection',
    name: 'refetchCollection',
    schema: new df.schema.Collection([Article]),
    fetch: async () => rows.map((r) => ({ ...r })),
  });
  const ctrl = new df.Controller();
  await ctrl.fetch(list, {});
  const first = ctrl.getResponse(list, {}).data;
  assert.equal(counted.calls, 2);
  await ctrl.fetch(list, {});
  assert.equal(counted.calls, 2, 'the same text again: no record normalized');
  assert.equal(ctrl.getResponse(list, {}).data, first);
  rows[1].title = 'B2';
  await ctrl.fetch(list, {});
  assert.equal(counted.calls, 3, 'one element changed: that record alone normalized');
  const second = ctrl.getResponse(list, {}).data;
  assert.deepEqual(
    second.map((a) => a.title),
    ['A', 'B2'],
  );
  assert.equal(second[0], first[0], 'the other article keeps its object');
  rows[0].title = 'A2';
  rows[1].title = 'B3';
  await ctrl.fetch(list, {});
  assert.equal(counted.calls, 5, 'two elements changed: normalized whole');
  assert.deepEqual(
    ctrl.getResponse(list, {}).data.map((a) => a.title),
    ['A2', 'B3'],
  );
});

test('refetch: a list inside an object ({results, next}) with one element changed is normalized as a plain list is', async () => {
  const { df } = await env();
  const { counted, Article } = countedArticle(df, 'refetchPageArticle');
  const rows = ['a', 'b', 'c', 'd'].map((slug) => ({ slug, title: slug.toUpperCase() }));
  const page = new df.RestEndpoint({
    urlPrefix: 'http://refetch.invalid',
    path: '/page',
    name: 'refetchPage',
    schema: { results: [Article] },
    fetch: async () => ({ results: rows.map((r) => ({ ...r })), next: 'page 2' }),
  });
  const ctrl = new df.Controller();
  await ctrl.fetch(page, {});
  const first = ctrl.getResponse(page, {}).data;
  assert.equal(counted.calls, 4);
  rows[2].title = 'C2';
  await ctrl.fetch(page, {});
  assert.equal(counted.calls, 5, 'one element changed: that record alone normalized');
  const { data } = ctrl.getResponse(page, {});
  assert.deepEqual(
    data.results.map((a) => a.title),
    ['A', 'B', 'C2', 'D'],
  );
  assert.equal(data.next, 'page 2');
  assert.equal(data.results[0], first.results[0], 'another article keeps its object');
});
