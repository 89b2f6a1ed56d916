// Controller at the package's top level (docs/js-api.md, "The Controller"):
// made before datafetch.wasm is loaded, it starts loading and acts once the
// module is in. This file never calls load() itself: the first controller
// does.

import assert from 'node:assert/strict';
import { fixtureURL, importModule, server, setup, test, waitFor } from './harness.mjs';

setup();

const mod = await importModule();
const { Controller, Entity, resource, load } = mod;

class Article extends Entity {
  id = '';
  title = '';
}

test('a Controller made before load(): starts loading, answers reads as missing until then, then runs', async () => {
  const base = await fixtureURL();
  const articles = resource({ urlPrefix: base, path: '/articles/:id', schema: Article });
  // Both made before anything has loaded the module.
  const ctrl = new Controller();
  const other = new Controller();
  for (const c of [ctrl, other]) {
    assert.ok(c instanceof Controller);
    assert.ok(c.ready instanceof Promise && c.loaded === undefined, 'pending until the module is in');
  }
  assert.deepEqual(ctrl.getResponse(articles.get, { id: '1' }), { data: undefined, expiryStatus: 'missing', expiresAt: 0 });
  assert.deepEqual(ctrl.getResponseMeta(articles.get, { id: '1' }), { data: undefined, expiryStatus: 'missing', expiresAt: 0 });
  assert.deepEqual(ctrl.getQueryMeta(Article, { id: '1' }), { data: undefined });
  assert.throws(() => ctrl.snapshot({ entities: {}, endpoints: {} }), /snapshot\(\) needs datafetch.wasm/);
  const told = [];
  const unsubscribe = ctrl.subscribe(articles.get, { id: '2' }, (state) => told.push(state));
  assert.equal(told.length, 1, 'told at once');
  assert.equal(told[0].loading, true);
  // A subscription stopped before the module is in never starts.
  let otherCalls = 0;
  other.subscribe(articles.get, { id: '3' }, () => otherCalls++)();

  const one = await ctrl.useSuspense(articles.get, { id: '1' });
  assert.ok(one instanceof Article);
  assert.equal(String(one.id), '1');
  assert.equal(ctrl.getResponse(articles.get, { id: '1' }).data, one, 'reads go to the loaded controller');
  assert.equal(ctrl.getResponseMeta(articles.get, { id: '1' }).data, one);
  assert.equal(ctrl.getQueryMeta(Article, { id: '1' }).data, one);
  assert.equal(ctrl.snapshot(ctrl.getState()).get(Article, { id: '1' }).title, one.title);
  await waitFor(() => told.some((s) => s.data !== undefined), { message: 'the subscription followed the loaded controller' });
  assert.equal(String(told.at(-1).data.id), '2');
  unsubscribe();

  await other.ready;
  assert.equal(otherCalls, 1, 'only the first, synchronous call');
  assert.equal(await server.count('GET /articles/3'), 0, 'nothing was fetched for it');

  const df = await load();
  assert.equal(await ctrl.ready, ctrl.loaded);
  assert.ok(ctrl.loaded instanceof df.Controller);
  const after = new Controller();
  assert.ok(after instanceof df.Controller, 'once loaded, new Controller() is the engine controller itself');
  assert.ok(after instanceof Controller);
  for (const c of [after, ctrl, other]) c.close();
});
