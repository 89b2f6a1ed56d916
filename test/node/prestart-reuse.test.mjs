// A pre-started request (prestart.test.mjs) is used once, and only for a
// request to its own URL: a read of another URL made while it is still
// waiting goes to the network, and so does a later fetch of the same URL,
// which reads the server's data of then. Its own process, as
// prestart.test.mjs: the module is held back until the test lets it in.

import assert from 'node:assert/strict';
import { fixtureURL, heldWasm, importModule, patchOnServer, server, setup, test } from './harness.mjs';

setup();

const { Controller, Entity, RestEndpoint, resource, load } = await importModule();

class Article extends Entity {
  id = '';
  title = '';
}

test('a pre-started response is not reused for another URL, nor for a second fetch', async () => {
  const base = await fixtureURL();
  const articles = resource({ urlPrefix: base, path: '/articles/:id', schema: Article });
  // Not pre-started (a signal option may abort its request), but its
  // request is a plain GET: had the transport matched on anything but the
  // URL, it would have taken article 1's response.
  const withSignal = new RestEndpoint({ urlPrefix: base, path: '/articles/:id', schema: Article, signal: new AbortController().signal });
  const [first, second] = await Promise.all(['1', '2'].map(async (id) => (await fetch(`${base}/articles/${id}`)).json()));
  await server.reset();

  await server.hold('request');
  const wasm = heldWasm();
  const loading = load(wasm.response);
  const ctrl = new Controller();
  // Asked first, so it reaches the engine first: article 1's response is
  // still waiting to be taken when its request is made.
  const other = ctrl.useSuspense(withSignal, { id: '2' });
  const read = ctrl.useSuspense(articles.get, { id: '1' });
  const held = await server.held(1);
  assert.deepEqual(
    held.map((r) => `${r.method} ${r.path}`),
    ['GET /articles/1'],
    'only the plain read started early',
  );
  assert.equal(ctrl.loaded, undefined);

  wasm.open();
  await loading;
  await server.unhold();
  const [two, one] = await Promise.all([other, read]);
  assert.equal(two.title, second.title, 'the other URL read its own response');
  assert.equal(one.title, first.title);
  assert.deepEqual(await server.counts(), { 'GET /articles/1': 1, 'GET /articles/2': 1 });

  await patchOnServer(base, '1', { title: 'changed on the server' });
  const again = await ctrl.fetch(articles.get, { id: '1' });
  assert.equal(again.title, 'changed on the server', 'a second fetch reads the server again');
  assert.equal(await server.count('GET /articles/1'), 2);
  ctrl.close();
});
