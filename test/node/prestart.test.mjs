// Requests that start before datafetch.wasm is ready (issue 21, item 5;
// docs/js-api.md, "The Controller"): a read asked of a Controller made
// before load() has resolved sends its request at once, and the engine,
// once up, takes that Response instead of fetching again. The module is
// held back (heldWasm) until the request has reached the fixture server,
// so "before the engine is up" is a fact of the test, not a race. This
// file is its own process: load() runs once in it, under the test's
// control.

import assert from 'node:assert/strict';
import { fixtureURL, heldWasm, importModule, server, setup, test, waitFor } from './harness.mjs';

setup();

const { Controller, Entity, resource, load } = await importModule();

class Article extends Entity {
  id = '';
  title = '';
}

test('useSuspense and subscribe before load(): the requests reach the server before the engine is up, are made once, and their data is read', async () => {
  const base = await fixtureURL();
  const articles = resource({ urlPrefix: base, path: '/articles/:id', schema: Article });
  const expected = await (await fetch(`${base}/articles/1`)).json();
  const second = await (await fetch(`${base}/articles/2`)).json();
  await server.reset(); // the count starts at 0

  await server.hold('request');
  const wasm = heldWasm();
  let loaded = false;
  const loading = load(wasm.response).then((df) => {
    loaded = true;
    return df;
  });
  const ctrl = new Controller();
  const read = ctrl.useSuspense(articles.get, { id: '1' });
  // A second read of the same result joins the first's request.
  const again = ctrl.useSuspense(articles.get, { id: '1' });
  const told = [];
  const unsubscribe = ctrl.subscribe(articles.get, { id: '2' }, (state) => told.push(state));
  // A subscription stopped at once starts nothing.
  ctrl.subscribe(articles.get, { id: '3' }, () => undefined)();

  const held = await server.held(2);
  assert.deepEqual(held.map((r) => `${r.method} ${r.path}`).sort(), ['GET /articles/1', 'GET /articles/2'], 'the requests are at the server');
  assert.equal(ctrl.loaded, undefined, 'while the controller does not exist yet');
  assert.equal(loaded, false, 'and load() has not resolved');

  wasm.open();
  await loading;
  await ctrl.ready;
  await server.unhold();
  const [one, two] = await Promise.all([read, again]);
  assert.ok(one instanceof Article);
  assert.equal(one.title, expected.title, 'the data is the server answer');
  assert.equal(two, one);
  assert.equal(ctrl.getResponse(articles.get, { id: '1' }).data, one, 'stored in the controller');
  await waitFor(() => told.at(-1).data !== undefined, { message: 'the subscription is told the data' });
  assert.equal(told.at(-1).data.title, second.title);
  unsubscribe();
  assert.deepEqual(await server.counts(), { 'GET /articles/1': 1, 'GET /articles/2': 1 }, 'one request a result, in all');
  ctrl.close();
});
