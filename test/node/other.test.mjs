// useLoading, the legacy Resource form and useResource (docs/js-api.md,
// Functions on the default controller, Legacy forms).

import assert from 'node:assert/strict';
import { env, server, setup, test } from './harness.mjs';

setup();

// ---------------------------------------------------------------- useLoading

test('useLoading: [handler, loading, error]; onChange hears loading, then the result', async () => {
  const { df } = await env();
  const changes = [];
  let release;
  const gate = new Promise((r) => (release = r));
  const initial = df.useLoading(
    async (x, y) => {
      await gate; // running until the test lets it finish
      return x * y;
    },
    (state) => changes.push(state),
  );
  assert.ok(Array.isArray(initial));
  const [handler, loading, error] = initial;
  assert.equal(typeof handler, 'function');
  assert.equal(loading, false);
  assert.equal(error, undefined);
  const p = handler(6, 7);
  assert.ok(changes.length >= 1, 'onChange called when loading starts');
  assert.equal(changes[0][1], true, 'loading is true while running');
  assert.equal(typeof changes[0][0], 'function');
  assert.equal(changes.at(-1)[1], true, 'still loading while the function runs');
  release();
  assert.equal(await p, 42, 'the handler resolves with the function result');
  const last = changes[changes.length - 1];
  assert.equal(last[1], false, 'loading false when done');
  assert.equal(last[2], undefined);
});

test('useLoading: the error is exposed, not thrown', async () => {
  const { df } = await env();
  const changes = [];
  const [handler] = df.useLoading(
    async () => {
      await new Promise((r) => setImmediate(r)); // fails asynchronously
      throw new Error('boom');
    },
    (s) => changes.push(s),
  );
  let threw = false;
  try {
    await handler();
  } catch {
    threw = true;
  }
  assert.equal(threw, false, 'the handler does not reject');
  const last = changes[changes.length - 1];
  assert.equal(last[1], false);
  assert.ok(last[2] instanceof Error);
  assert.equal(last[2].message, 'boom');
});

test('useLoading: a later success clears the error', async () => {
  const { df } = await env();
  const changes = [];
  let fail = true;
  const [handler] = df.useLoading(
    async () => {
      if (fail) throw new Error('first');
      return 'ok';
    },
    (s) => changes.push(s),
  );
  await handler();
  assert.equal(changes[changes.length - 1][2]?.message, 'first');
  fail = false;
  assert.equal(await handler(), 'ok');
  assert.equal(changes[changes.length - 1][2], undefined);
});

test('useLoading wraps controller.fetch (seed usage)', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const states = [];
  const [save] = df.useLoading(
    (id, title) => ctrl.fetch(fx.patchArticle, { id }, { title }),
    (s) => states.push(s),
  );
  const out = await save('2', 'Saved via useLoading');
  assert.equal(out.title, 'Saved via useLoading');
  assert.deepEqual(
    states.map((s) => s[1]),
    [true, false],
  );
  assert.equal(await server.count('PATCH /articles/2'), 1);
});

// ---------------------------------------------------------------- legacy Resource

function legacy(df, base) {
  return df.Resource({
    urlRoot: `${base}/article/`,
    key: 'LegacyArticle',
    pk: (value) => value.id?.toString(),
    defaults: { id: undefined, content: '', author: null, contributors: [] },
  });
}

test('legacy Resource: list() and listShape() GET urlRoot; detail() GETs urlRoot + id', async () => {
  const { df, base } = await env();
  const A = legacy(df, base);
  const ctrl = new df.Controller();
  const list = await ctrl.useSuspense(A.list(), {});
  assert.equal(list.length, 8);
  assert.equal(list[3].author, null, 'null author kept');
  assert.deepEqual(list[0].contributors, []);
  assert.deepEqual(list[2].contributors, [3, 7]);
  const shape = await ctrl.useSuspense(A.listShape(), {});
  assert.deepEqual(
    shape.map((a) => a.id),
    list.map((a) => a.id),
  );
  const one = await ctrl.useSuspense(A.detail(), { id: 2 });
  assert.equal(one.id, 2);
  assert.match(one.content, /^Legacy article 2\./);
  assert.equal(one, list[1], 'detail and list share the entity');
  assert.equal(A.listShape().url({}), `${base}/article/`);
  assert.equal(A.detail().url({ id: 2 }), `${base}/article/2`);
  assert.equal((await server.count('GET /article/2')) <= 1, true);
});

test('legacy Resource: detail() fetches when not cached', async () => {
  const { df, base } = await env();
  const A = legacy(df, base);
  const one = await new df.Controller().useSuspense(A.detail(), { id: 3 });
  assert.equal(one.id, 3);
  assert.equal(await server.count('GET /article/3'), 1);
});

test('legacy Resource: create, update, partialUpdate, delete', async () => {
  const { df, base } = await env();
  const A = legacy(df, base);
  const ctrl = new df.Controller();
  const created = await ctrl.fetch(A.create(), {}, { content: 'new legacy', contributors: [1] });
  assert.equal(created.id, 101);
  assert.equal(created.content, 'new legacy');
  const replaced = await ctrl.fetch(A.update(), { id: 1 }, { content: 'replaced' });
  assert.equal(replaced.content, 'replaced');
  assert.equal(replaced.author, null, 'PUT resets author');
  const patched = await ctrl.fetch(A.partialUpdate(), { id: 2 }, { content: 'patched' });
  assert.equal(patched.content, 'patched');
  assert.notEqual(patched.author, null, 'PATCH keeps author');
  await ctrl.useSuspense(A.list(), {});
  await ctrl.fetch(A.delete(), { id: 4 });
  assert.ok(!ctrl.getResponse(A.list(), {}).data.some((a) => a.id === 4));
  assert.deepEqual(await server.counts(), {
    'POST /article/': 1,
    'PUT /article/1': 1,
    'PATCH /article/2': 1,
    'GET /article/': 1,
    'DELETE /article/4': 1,
  });
});

test('legacy Resource is an entity: usable as a schema', async () => {
  const { df, base } = await env();
  const A = legacy(df, base);
  const { entities } = df.normalize([A], [{ id: 1, content: 'x' }]);
  assert.equal(entities.LegacyArticle['1'].content, 'x');
});

test('useResource is useSuspense on the default controller', async () => {
  const { df, base } = await env();
  const A = legacy(df, base);
  await df.useController().resetEntireStore();
  const list = await df.useResource(A.list(), {});
  assert.equal(list.length, 8);
  assert.equal(df.useController().getResponse(A.list(), {}).data, list);
  const again = await df.useResource(A.list(), {});
  assert.equal(again, list);
  assert.equal(await server.count('GET /article/'), 1);
  assert.equal(await df.useResource(A.list(), null), undefined);
  await df.useController().resetEntireStore();
});
