// Deletes as data-client's own tests read them (issue 22 items 2 and 3;
// test/node/deletes.test.mjs has the rest): a delete's 204, {} or null
// response falls back to its params, for a resource and a RestEndpoint
// alike, while one naming a record wins; denormalize answers INVALID for
// data that requires a deleted entity. Responses come from the fixture
// server's /bad/body, which answers whatever ?status= and ?text= ask for.

import assert from 'node:assert/strict';
import { env, importModule, server, setup, test } from './harness.mjs';

setup();

const mod = await importModule();
const { Entity, Invalidate } = mod;

class Article extends Entity {
  id = '';
  title = '';
}

// A local list no test fetches: data goes in with setResponse.
function localList(df, s) {
  return new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:9', path: '/local/deletes', schema: s });
}

// The DELETE requests the server saw for /bad/body/<id>, whatever the query.
async function deletesOf(id) {
  const counts = await server.counts();
  return Object.entries(counts)
    .filter(([k]) => k.startsWith(`DELETE /bad/body/${id}?`))
    .reduce((n, [, c]) => n + c, 0);
}

test('a delete whose response has no record (204, {}, null) deletes what its params name', async () => {
  const { df, base } = await env();
  const r = df.resource({ urlPrefix: base, path: '/bad/body/:id', schema: Article });
  const plain = new df.RestEndpoint({ urlPrefix: base, path: '/bad/body/:id', method: 'DELETE', schema: new Invalidate(Article) });
  const bodies = [
    { status: 204, text: '' },
    { status: 200, text: '{}' },
    { status: 200, text: 'null' },
  ];
  for (const [name, del] of [
    ['resource delete', r.delete],
    ['RestEndpoint with an Invalidate schema', plain],
  ]) {
    for (const body of bodies) {
      const what = `${name}, ${body.status} ${JSON.stringify(body.text)}`;
      const ctrl = new df.Controller();
      const list = localList(df, [Article]);
      await ctrl.setResponse(list, {}, [
        { id: '5', title: 'five' },
        { id: '9', title: 'nine' },
      ]);
      await ctrl.setResponse(r.get, { id: '5' }, { id: '5', title: 'five' });
      const before = await deletesOf(5);
      await ctrl.fetch(del, { id: '5', ...body });
      assert.equal(await deletesOf(5), before + 1, `${what}: one DELETE`);
      assert.deepEqual(
        ctrl.getResponse(list, {}).data.map((a) => a.id),
        ['9'],
        `${what}: the entity the params name is gone from the list`,
      );
      const detail = ctrl.getResponse(r.get, { id: '5' });
      assert.equal(detail.data, undefined, `${what}: its detail reads nothing`);
      assert.equal(detail.expiryStatus, 'invalid', `${what}: and fetches again`);
    }
  }
});

test('a delete response that names a record wins over the params', async () => {
  const { df, base } = await env();
  const del = new df.RestEndpoint({ urlPrefix: base, path: '/bad/body/:id', method: 'DELETE', schema: new Invalidate(Article) });
  const ctrl = new df.Controller();
  const list = localList(df, [Article]);
  await ctrl.setResponse(list, {}, [{ id: '5' }, { id: '9' }]);
  await ctrl.fetch(del, { id: '5', text: '{"id":"9"}' });
  assert.deepEqual(
    ctrl.getResponse(list, {}).data.map((a) => a.id),
    ['5'],
  );
  // A record without its pk is not an empty response: an error, as in data-client.
  await assert.rejects(ctrl.fetch(del, { id: '5', text: '{"title":"x"}' }), /primary key/);
  assert.deepEqual(
    ctrl.getResponse(list, {}).data.map((a) => a.id),
    ['5'],
    'the failed delete changed nothing',
  );
});

test('denormalize returns INVALID for data that requires a deleted entity', async () => {
  const { df } = await env();
  assert.equal(typeof mod.INVALID, 'symbol');
  assert.equal(df.INVALID, mod.INVALID);
  class ArticleEntity extends Entity {
    id = '';
    title = '';
  }
  class WithOptional extends Entity {
    id = '';
    article = null;
    requiredArticle = ArticleEntity.fromJS();
    nextPage = '';
    static schema = { article: ArticleEntity, requiredArticle: ArticleEntity };
  }
  // Deleted records are null in denormalize's tables, as normalize gives them.
  assert.equal(
    df.denormalize(WithOptional, 'abc', {
      WithOptional: { abc: { id: 'abc', requiredArticle: '5', nextPage: 'blob' } },
      ArticleEntity: { 5: null },
    }),
    df.INVALID,
    'a required member deleted',
  );
  const optional = df.denormalize(WithOptional, 'abc', {
    WithOptional: { abc: { id: 'abc', article: '5', requiredArticle: '6', nextPage: 'blob' } },
    ArticleEntity: { 5: null, 6: { id: '6' } },
  });
  assert.ok(optional instanceof WithOptional, 'an optional member deleted');
  assert.equal(optional.article, undefined);
  assert.equal(optional.requiredArticle.id, '6');
  assert.equal(
    df.denormalize(
      new df.schema.Object({ data: WithOptional, other: ArticleEntity }),
      { data: 'abc' },
      {
        WithOptional: { abc: { id: 'abc', article: '6', requiredArticle: '5' } },
        ArticleEntity: { 5: null, 6: { id: '6' } },
      },
    ),
    df.INVALID,
    'deleted in one part of the schema, present in another',
  );
  const users = { ArticleEntity: { 1: null } };
  assert.equal(df.denormalize(new Invalidate(ArticleEntity), '1', users), df.INVALID, 'Invalidate of a deleted entity');
  assert.equal(df.denormalize({ data: new Invalidate(ArticleEntity) }, { data: '1' }, users), df.INVALID, 'an object holding one');
  assert.deepEqual(df.denormalize([{ data: ArticleEntity }], [{ data: '1' }], users), [], 'a list leaves it out');
  const missing = df.denormalize([{ data: ArticleEntity }], [{ data: '1' }], {});
  assert.equal(missing.length, 1, 'missing is not deleted: the object is kept');
  assert.equal(missing[0].data, undefined);
});
