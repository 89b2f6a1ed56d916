// A deleted nested entity, as data-client reads it (issue 22, item 3): a
// required member (a truthy default, as a nested entity's default
// instance) makes what holds it deleted, so a read fetches it again and a
// list leaves it out; an optional one (null) reads as undefined.

import assert from 'node:assert/strict';
import { env, importModule, server, setup, test } from './harness.mjs';

setup();

const { Entity, RestEndpoint, Controller, schema } = await importModule();

test('a deleted required author makes the article fetch again; a deleted optional one reads as undefined', async () => {
  const { base } = await env();
  await server.reset();
  class User extends Entity {
    id = 0;
    name = '';
  }
  class Required extends Entity {
    id = '';
    title = '';
    author = User.fromJS();
    static key = 'Article';
    static schema = { author: User };
  }
  class Optional extends Entity {
    id = '';
    title = '';
    author = null;
    static key = 'Article';
    static schema = { author: User };
  }
  const deleteUser = new RestEndpoint({ urlPrefix: base, path: '/users/:id', method: 'DELETE', schema: new schema.Invalidate(User) });
  for (const [Article, required] of [
    [Required, true],
    [Optional, false],
  ]) {
    await server.reset();
    const ctrl = new Controller();
    const get = new RestEndpoint({ urlPrefix: base, path: '/articles/:id', schema: Article, name: `get${Article.name}` });
    const list = new RestEndpoint({ urlPrefix: base, path: '/articles', schema: [Article], name: `list${Article.name}` });
    // The articles name their authors by id: the users come from /users.
    await ctrl.useSuspense(new RestEndpoint({ urlPrefix: base, path: '/users', schema: [User] }));
    const article = await ctrl.useSuspense(get, { id: '1' });
    const all = await ctrl.useSuspense(list);
    const author = article.author.id;
    const written = all.filter((a) => a.author?.id === author).length;
    assert.ok(written >= 1);
    // The user is deleted (the answer is stored; no request).
    await ctrl.setResponse(deleteUser, { id: author }, { id: author });

    const now = ctrl.getResponse(get, { id: '1' });
    const listed = ctrl.getResponse(list).data;
    if (required) {
      assert.equal(now.expiryStatus, 'invalid', 'the article is deleted with its author');
      assert.equal(listed.length, all.length - written, 'the list leaves out the articles of that author');
      await ctrl.useSuspense(get, { id: '1' });
      assert.equal(await server.count('GET /articles/1'), 2, 'a read fetches it again');
    } else {
      assert.equal(now.expiryStatus, 'valid');
      assert.equal(now.data.author, undefined, 'the optional author reads as undefined');
      assert.equal(listed.length, all.length, 'the list keeps them all');
      assert.equal(listed.find((a) => a.id === article.id).author, undefined);
      await ctrl.useSuspense(get, { id: '1' });
      assert.equal(await server.count('GET /articles/1'), 1, 'nothing is fetched again');
    }
    ctrl.close();
  }
});

test('a DELETE answered with no body deletes what its params name (an Invalidate schema on any endpoint)', async () => {
  const { base } = await env();
  await server.reset();
  class Article extends Entity {
    id = '';
    title = '';
  }
  const get = new RestEndpoint({ urlPrefix: base, path: '/articles/:id', schema: Article });
  const remove = new RestEndpoint({ urlPrefix: base, path: '/articles/:id', method: 'DELETE', schema: new schema.Invalidate(Article) });
  const ctrl = new Controller();
  await ctrl.useSuspense(get, { id: '2' });
  // The fixture server answers a DELETE with 204 No Content.
  await ctrl.fetch(remove, { id: '2' });
  assert.equal(await server.count('DELETE /articles/2'), 1);
  assert.equal(ctrl.getResponse(get, { id: '2' }).expiryStatus, 'invalid', 'the article is gone from the cache');
  assert.equal(ctrl.get(Article, { id: '2' }), undefined);
  // Without params naming a record, an empty answer is still an error.
  const removeAll = new RestEndpoint({ urlPrefix: base, path: '/articles/1', method: 'DELETE', schema: new schema.Invalidate(Article) });
  await assert.rejects(ctrl.fetch(removeAll), /expected a record or a primary key, got null/);
  ctrl.close();
});

test('an entity whose process returns undefined is invalidated: reads leave it out or fetch it again', async () => {
  await env();
  class Item extends Entity {
    id = '';
    name = '';
    static process(input) {
      return input.archived ? undefined : input;
    }
  }
  const list = new RestEndpoint({ path: 'http://h.test/items', schema: [Item] });
  const one = new RestEndpoint({ path: 'http://h.test/items/:id', schema: Item });
  const ctrl = new Controller();
  await ctrl.setResponse(one, { id: '2' }, { id: '2', name: 'kept so far' });
  await ctrl.setResponse(list, {}, [
    { id: '1', name: 'a' },
    { id: '2', name: 'b', archived: true },
  ]);
  assert.deepEqual(
    ctrl.getResponse(list).data.map((i) => i.id),
    ['1'],
  );
  assert.equal(ctrl.getResponse(one, { id: '2' }).expiryStatus, 'invalid', 'the stored item 2 is invalidated');
  ctrl.close();
});
