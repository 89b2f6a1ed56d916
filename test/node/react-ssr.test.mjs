// Spec section 10: datafetch/react renders on a server. renderToString
// (react-dom/server, in Node.js) reads the controller through the hooks'
// server snapshot (useSyncExternalStore's getServerSnapshot). The
// controller has no initialState option yet (section 9.4): its data is
// stored with setResponse, as a server would after fetching it.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { DIST, env, server, setup, test } from './harness.mjs';

setup();

const { AsyncBoundary, DataProvider, useCache, useController, useDLE, useLive, useSuspense } = await import(pathToFileURL(join(DIST, 'react.mjs')).href);

// What Page read, for the assertions.
const read = {};

function Page({ ep }) {
  read.controller = useController();
  const a = useSuspense(ep, { id: '1' });
  const live = useLive(ep, { id: '1' });
  const dle = useDLE(ep, { id: '1' });
  const none = useSuspense(ep, null);
  const missing = useCache(ep, { id: '2' });
  return h(
    'main',
    null,
    h('h1', null, a.title),
    h('p', null, `by ${a.author.name}; same: ${live === a}`),
    h('p', null, `dle: ${dle.data === a} ${dle.loading} ${dle.error}`),
    h('p', null, `null: ${none}; not cached: ${missing}`),
  );
}

function Title({ ep }) {
  return h('h1', null, useSuspense(ep, { id: '1' }).title);
}

const app = (ctrl, body) => h(DataProvider, { controller: ctrl }, h(AsyncBoundary, { fallback: h('p', null, 'loading') }, body));

test('renderToString: the hooks read what the controller holds, with no request', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await ctrl.setResponse(fx.getArticle, { id: '1' }, { id: '1', title: 'Rendered on the server', author: { id: '7', name: 'Ada' } });
  const html = renderToString(app(ctrl, h(Page, { ep: fx.getArticle })));
  assert.equal(
    html,
    // <!--$--> and <!--/$--> mark the Suspense boundary, rendered complete.
    '<!--$--><main><h1>Rendered on the server</h1><p>by Ada; same: true</p><p>dle: true false undefined</p>' +
      '<p>null: undefined; not cached: undefined</p></main><!--/$-->',
  );
  assert.equal(read.controller, ctrl, 'the DataProvider controller');
  assert.equal(await server.total(), 0, 'rendering stored data requested nothing');
});

test('renderToString: a missing result renders the Suspense fallback', async () => {
  const { df, fx } = await env();
  await server.hold(); // the fetch the suspension starts stays held: the render does not wait for it
  const html = renderToString(app(new df.Controller(), h(Title, { ep: fx.getArticle })));
  assert.match(html, /<p>loading<\/p>/);
  assert.doesNotMatch(html, /<h1>/);
});
