// datafetch/react's hooks while datafetch.wasm loads (issue 21, item 5;
// docs/react.md): a hook that suspends until the module is in, for a read
// that fetches, sends the read's request at once, with the default
// controller (no DataProvider) and with a DataProvider's controller made
// before load(); once the module is in, the controller takes that
// response: one request in all. Rendered with react-dom/server, which
// shows the Suspense fallback while a hook suspends. Its own process, as
// prestart.test.mjs: the module is held back until the test lets it in.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Suspense, createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { DIST, fixtureURL, heldWasm, importModule, server, setup, test } from './harness.mjs';

setup();

const { Controller, Entity, resource, load } = await importModule();
const { DataProvider, useCache, useSuspense } = await import(pathToFileURL(join(DIST, 'react.mjs')).href);

class Article extends Entity {
  id = '';
  title = '';
}

function Title({ ep, id }) {
  return h('h1', null, useSuspense(ep, { id }).title);
}

function Cached({ ep, id }) {
  return h('p', null, useCache(ep, { id })?.title ?? 'none');
}

const page = (body) => h(Suspense, { fallback: h('p', null, 'loading') }, body);

test('hooks suspending while the module loads start their reads at once: default controller and a DataProvider controller made before load()', async () => {
  const base = await fixtureURL();
  const articles = resource({ urlPrefix: base, path: '/articles/:id', schema: Article });
  const titles = await Promise.all(['1', '2'].map(async (id) => (await (await fetch(`${base}/articles/${id}`)).json()).title));
  await server.reset();

  await server.hold('request');
  const wasm = heldWasm();
  let loaded = false;
  const loading = load(wasm.response).then((df) => {
    loaded = true;
    return df;
  });
  const pending = new Controller();
  // useCache never fetches: it starts nothing.
  assert.match(renderToString(page(h(Cached, { ep: articles.get, id: '3' }))), /loading/);
  assert.match(renderToString(page(h(Title, { ep: articles.get, id: '1' }))), /loading/, 'the default controller: suspended');
  assert.match(renderToString(h(DataProvider, { controller: pending }, page(h(Title, { ep: articles.get, id: '2' })))), /loading/);
  // Rendered again while still suspended: no second request.
  renderToString(page(h(Title, { ep: articles.get, id: '1' })));

  const held = await server.held(2);
  assert.deepEqual(held.map((r) => `${r.method} ${r.path}`).sort(), ['GET /articles/1', 'GET /articles/2'], 'both requests are at the server');
  assert.equal(loaded, false, 'before load() has resolved');
  assert.equal(pending.loaded, undefined);

  wasm.open();
  const df = await loading;
  await server.unhold();
  // The reads the hooks started run in the controllers as soon as they
  // exist: these join them.
  const [one, two] = await Promise.all([
    df.useController().useSuspense(articles.get, { id: '1' }),
    (await pending.ready).useSuspense(articles.get, { id: '2' }),
  ]);
  assert.deepEqual([one.title, two.title], titles, 'the data is the server answer');
  assert.deepEqual(await server.counts(), { 'GET /articles/1': 1, 'GET /articles/2': 1 }, 'one request a read, in all');
  assert.equal(renderToString(page(h(Title, { ep: articles.get, id: '1' }))), `<!--$--><h1>${titles[0]}</h1><!--/$-->`);
  pending.close();
});
