// datafetch/react (docs/react.md) in headless Chromium, with React
// 19 from npm. The page (react/page.mjs) is bundled here with esbuild, with
// datafetch/react taken from dist/ and datafetch itself loaded by URL; each
// test opens a fresh page, renders components through window.T and checks
// the DOM, render counts, the controller, and the requests the fixture
// server saw. No test waits for time to pass: the controller's clock is a
// fake one, requests are held at the server until released, and polling
// is measured in the polls of a control subscription.
//
// Run (needs ./build.sh build): node --test test/browser/react.spec.mjs

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { launchChromium } from './launch.mjs';
import { serveFiles } from './serve.mjs';
import { HANG_GUARD, fixtureURL, server as fixture, releaseWhere, waitFor } from '../node/harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '../../dist');
const DIST_MODULE = join(dist, 'datafetch.mjs');
// Where the page loads datafetch.mjs from (not bundled: it finds its wasm
// beside itself).
const DIST_URL = '/dist/datafetch.mjs';
const TEST_TIMEOUT = 2 * HANG_GUARD + 60_000;
// The poll period of the polled endpoints, and how many polls of a control
// subscription stand for "time has passed".
const POLL_MS = 25;
const CONTROL_POLLS = 5;

/** The page bundle: React (development build) and datafetch/react from dist/. */
async function bundle() {
  const result = await build({
    entryPoints: [join(here, 'react/page.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"development"' },
    plugins: [
      {
        name: 'datafetch-from-dist',
        setup(b) {
          b.onResolve({ filter: /^datafetch$/ }, () => ({ path: DIST_URL, external: true }));
          b.onResolve({ filter: /^datafetch\/react$/ }, () => ({ path: join(dist, 'react.mjs') }));
          // react.mjs's own import of the loader: the same module by URL.
          b.onResolve({ filter: /datafetch\.mjs$/ }, (args) =>
            join(args.resolveDir, args.path) === DIST_MODULE ? { path: DIST_URL, external: true } : undefined,
          );
        },
      },
    ],
  });
  return result.outputFiles[0].text;
}

let browser;
let web;
let origin;
let fixtureBase;

before(async () => {
  assert.ok(existsSync(join(dist, 'react.mjs')), 'dist/react.mjs is missing: run ./build.sh build');
  fixtureBase = await fixtureURL();
  const html = '<!doctype html><meta charset="utf-8"><title>datafetch/react</title><script type="module" src="/page.js"></script>';
  web = await serveFiles({ pages: { '/': html, '/page.js': [await bundle(), '.js'] }, dirs: { '/dist/': dist } });
  origin = `http://127.0.0.1:${web.port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await web?.close();
});

/**
 * Runs fn(page) on a fresh page with window.T ready, the fixture server
 * reset; fails on any page error or console error (React's warnings
 * included: a getSnapshot that is not cached, an update after unmount).
 */
function pageTest(name, fn) {
  test(name, { timeout: TEST_TIMEOUT }, async () => {
    await fixture.reset();
    const page = await browser.newPage();
    page.setDefaultTimeout(HANG_GUARD); // hang guards, not speed bounds
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // Chromium logs the 404s the error tests ask for, and React
      // logs the errors that reach an error boundary (expected).
      const text = m.text();
      if (m.type() === 'error' && !text.startsWith('Failed to load resource') && !expectedReactError(text)) problems.push(`console: ${text}`);
      if (m.type() === 'warning') problems.push(`console warning: ${text}`);
    });
    try {
      await page.goto(`${origin}/?fixture=${encodeURIComponent(fixtureBase)}`);
      await page.waitForFunction(() => window.T?.ready);
      await fn(page);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
      await fixture.reset();
    }
  });
}

/** React reports errors caught by an error boundary on the console: those the tests cause are expected. */
function expectedReactError(text) {
  return /The above error occurred in the <\w+> component|NetworkError|404|broken on purpose/.test(text);
}

/** Waits until the element `#id` has exactly `text`. */
async function textIs(page, id, text) {
  try {
    await page.waitForFunction(([i, t]) => document.getElementById(i)?.textContent === t, [id, text]);
  } catch (err) {
    const got = await page.evaluate((i) => document.getElementById(i)?.textContent, id);
    throw new Error(`#${id}: want ${JSON.stringify(text)}, got ${JSON.stringify(got)}: ${err.message}`);
  }
}

const renders = (page, name) => page.evaluate((n) => T.renders[n] ?? 0, name);

const TITLE_1 = 'Normalizing nested API responses';

// ---------------------------------------------------------------- suspending

pageTest('useSuspense: suspends while the result is missing, resumes with the data; one request', async (page) => {
  await fixture.hold();
  await page.evaluate(async () => {
    const { h, setup, mount, Show, Boundary, bindings } = T;
    const { ctrl, fx } = await setup();
    T.state = { ctrl, fx };
    mount(h(bindings.DataProvider, { controller: ctrl }, h(Boundary, { name: 'b' }, h(Show, { ep: fx.articles.get, params: { id: '1' }, name: 'a' }))));
  });
  await textIs(page, 'b-fallback', 'loading');
  await fixture.held(1);
  assert.equal(await page.evaluate(() => document.getElementById('a')), null, 'nothing rendered while suspended');
  await releaseWhere('GET', '/articles/1');
  await textIs(page, 'a', TITLE_1);
  assert.equal(await page.evaluate(() => document.getElementById('b-fallback')), null, 'the fallback is gone');
  assert.equal(await fixture.count('GET /articles/1'), 1);
});

pageTest('without a DataProvider: the hooks suspend until load() resolved and use the default controller', async (page) => {
  // Rendered before anything has loaded the module (window.T does not).
  await page.evaluate(() => {
    const { h, mount, bindings, React } = T;
    function Who() {
      T.state.used = bindings.useController();
      return h('p', { id: 'who' }, 'has a controller');
    }
    mount(h(React.Suspense, { fallback: h('p', { id: 'wait' }, 'waiting for load') }, h(Who)));
  });
  await textIs(page, 'who', 'has a controller');
  assert.equal(await page.evaluate(async () => T.state.used === (await T.load()).useController()), true, 'the default controller');
  // And the hooks read through it.
  await page.evaluate(async () => {
    const { h, mount, Show, Boundary, fixtures, fixture, load } = T;
    const fx = fixtures(await load(), fixture);
    mount(h(Boundary, { name: 'b' }, h(Show, { ep: fx.articles.get, params: { id: '2' }, name: 'a' })));
  });
  await textIs(page, 'a', 'Stale-while-revalidate in practice');
  assert.equal(
    await page.evaluate(async () => (await T.load()).useController().getResponse(T.fixtures(await T.load(), T.fixture).articles.get, { id: '2' }).expiryStatus),
    'valid',
  );
});

pageTest('useSuspense: null params render undefined and fetch nothing', async (page) => {
  await page.evaluate(async () => {
    const { h, setup, mount, Show, Boundary, bindings } = T;
    const { ctrl, fx } = await setup();
    T.state = { ctrl, fx };
    const both = h(
      'div',
      null,
      h(Show, { ep: fx.articles.get, params: null, name: 'none' }),
      h(Show, { hook: 'useDLE', ep: fx.articles.get, params: null, name: 'dle' }),
    );
    mount(h(bindings.DataProvider, { controller: ctrl }, h(Boundary, { name: 'b' }, both)));
  });
  await textIs(page, 'none', 'undefined');
  await textIs(page, 'dle', 'data: undefined; loading: false; error: undefined');
  assert.equal(await page.evaluate(() => T.state.ctrl.openSubscriptions()), 0, 'nothing subscribed');
  assert.equal(await fixture.total(), 0);
});

pageTest('<StrictMode>: no request doubled (missing, and stale revalidated on mount)', async (page) => {
  await page.evaluate(async () => {
    const { h, setup, mount, Show, Boundary, bindings } = T;
    const { ctrl, fx, clock } = await setup();
    T.state = { ctrl, fx };
    // Article 3 cached and stale before the mount: it is shown at once and revalidated once.
    await ctrl.setResponse(fx.articles.get, { id: '3' }, { id: '3', title: 'cached' });
    clock.advance(60_000);
    const views = h(
      'div',
      null,
      h(Show, { ep: fx.articles.getList, params: {}, name: 'list' }),
      h(Show, { ep: fx.articles.get, params: { id: '1' }, name: 'one' }),
      h(Show, { hook: 'useDLE', ep: fx.articles.get, params: { id: '2' }, name: 'two' }),
    );
    mount(
      h(
        bindings.DataProvider,
        { controller: ctrl },
        h(Boundary, { name: 'b' }, views),
        h(Boundary, { name: 'c' }, h(Show, { ep: fx.articles.get, params: { id: '3' }, name: 'three' })),
      ),
      { strict: true },
    );
  });
  await textIs(page, 'list', `24 articles, first: ${TITLE_1}`);
  await textIs(page, 'one', TITLE_1);
  await textIs(page, 'two', 'data: Stale-while-revalidate in practice; loading: false; error: undefined');
  await textIs(page, 'three', 'Why your cache needs primary keys');
  assert.equal(await page.evaluate(() => T.seen.three[0]), 'cached', 'the stale data rendered first, without suspending');
  assert.ok((await renders(page, 'one')) >= 2, 'StrictMode rendered twice (development build)');
  // Counted as the controller started them, so a request doubled in the
  // same commit is seen even if its response has not arrived.
  const started = await page.evaluate(() => ({
    total: T.state.ctrl.started(),
    two: T.state.ctrl.started('/articles/2'),
    three: T.state.ctrl.started('/articles/3'),
  }));
  // Articles 1 and 2 are fetched, or inferred from the list if that was
  // stored first (3 has a result of its own, stale: it is revalidated).
  const one = await fixture.count('GET /articles/1');
  const two = await fixture.count('GET /articles/2');
  assert.ok(one <= 1, 'article 1 at most once');
  assert.ok(two <= 1, 'article 2 at most once');
  assert.deepEqual(started, { total: 2 + one + two, two, three: 1 }, 'the list and 3 once each, 1 and 2 at most once');
  assert.equal(await fixture.count('GET /articles'), 1);
  assert.equal(await fixture.count('GET /articles/3'), 1);
});

pageTest('useSuspense: stale data is shown at once and revalidated (fake clock)', async (page) => {
  const { patchOnServer } = await import('../node/harness.mjs');
  await page.evaluate(async () => {
    const { h, setup, mount, Show, Boundary, bindings } = T;
    const { ctrl, fx, clock } = await setup();
    const ep = fx.articles.get.extend({ dataExpiryLength: 1000 });
    const tree = (rev) => h(bindings.DataProvider, { controller: ctrl }, h(Boundary, { name: 'b' }, h(Show, { ep, params: { id: '1' }, name: 'a', rev })));
    T.state = { ctrl, clock, handle: mount(tree(0)), tree };
  });
  await textIs(page, 'a', TITLE_1);
  await patchOnServer(fixtureBase, '1', { title: 'Changed on the server' });
  await fixture.hold();
  // Time passes (no change the subscription hears of); the next render finds the data stale.
  await page.evaluate(() => {
    T.state.clock.advance(1000);
    T.state.handle.render(T.state.tree(1));
  });
  await fixture.held(1);
  assert.equal(await page.evaluate(() => document.getElementById('a')?.textContent), TITLE_1, 'the stale data is shown while revalidating');
  assert.equal(await page.evaluate(() => document.getElementById('b-fallback')), null, 'no fallback');
  await releaseWhere('GET', '/articles/1');
  await textIs(page, 'a', 'Changed on the server');
  assert.equal(await fixture.count('GET /articles/1'), 2);
});

pageTest('useSuspense: re-renders on an optimistic update and on its rollback', async (page) => {
  await page.evaluate(async () => {
    const { h, setup, mount, Show, Boundary, bindings } = T;
    const { ctrl, fx } = await setup();
    T.state = { ctrl, fx };
    mount(h(bindings.DataProvider, { controller: ctrl }, h(Boundary, { name: 'b' }, h(Show, { ep: fx.articles.get, params: { id: '1' }, name: 'a' }))));
  });
  await textIs(page, 'a', TITLE_1);
  const before = await renders(page, 'a');
  await fixture.hold();
  await page.evaluate(() => {
    const { ctrl, fx } = T.state;
    T.state.done = ctrl.fetch(fx.rename, { id: '1' }, { title: 'Optimistic title' }).then(
      () => 'saved',
      (err) => `failed ${err.status}`,
    );
  });
  await textIs(page, 'a', 'Optimistic title');
  assert.equal(await renders(page, 'a'), before + 1, 'one render for the optimistic update');
  await fixture.failNext(1, 500);
  await releaseWhere('PATCH', '/articles/1');
  await textIs(page, 'a', TITLE_1);
  assert.equal(await page.evaluate(() => T.state.done), 'failed 500');
  assert.equal(await renders(page, 'a'), before + 2, 'one render for the rollback');
  assert.equal(await fixture.count('GET /articles/1'), 1, 'the rollback needs no refetch');
});

pageTest('errors reach the nearest error boundary; resetErrorBoundary renders again (kept error, then a refetch)', async (page) => {
  await page.evaluate(async () => {
    const { h, setup, mount, Show, Boundary, bindings } = T;
    const { ctrl, fx, clock } = await setup({ errorExpiryLength: 1000 });
    T.state = { ctrl, fx, clock };
    mount(h(bindings.DataProvider, { controller: ctrl }, h(Boundary, { name: 'b' }, h(Show, { ep: fx.articles.get, params: { id: '997' }, name: 'a' }))));
  });
  await textIs(page, 'b-error', 'error 404');
  assert.equal(await fixture.count('GET /articles/997'), 1);

  // Reset while the error is kept: rendered again, the same error, no request.
  const before = await renders(page, 'a');
  await page.click('#b-retry');
  await page.waitForFunction((n) => (T.renders.a ?? 0) > n, before);
  await textIs(page, 'b-error', 'error 404');
  assert.equal(await fixture.count('GET /articles/997'), 1, 'a kept error is not refetched');

  // Once it has expired, a reset fetches again (and fails again).
  const shown = await renders(page, 'a');
  await page.evaluate(() => T.state.clock.advance(1000));
  await page.click('#b-retry');
  await waitFor(async () => (await fixture.count('GET /articles/997')) === 2, { message: 'the reset refetches' });
  await page.waitForFunction((n) => T.renders.a > n, shown);
  await textIs(page, 'b-error', 'error 404');

  // Data stored meanwhile: a reset shows it.
  await page.evaluate(() => T.state.ctrl.setResponse(T.state.fx.articles.get, { id: '997' }, { id: '997', title: 'Recovered' }));
  await page.click('#b-retry');
  await textIs(page, 'a', 'Recovered');
});

pageTest('identity across renders: React.memo children of unchanged data do not re-render; a change re-renders only its readers', async (page) => {
  await page.evaluate(async () => {
    const { h, setup, mount, Show, Boundary, bindings, React, counted } = T;
    const { ctrl, fx } = await setup();
    T.state = { ctrl, fx };
    const Row = React.memo(({ article }) => {
      counted(`row${article.id}`);
      return h('li', { id: `row${article.id}` }, article.title);
    });
    function List({ rev }) {
      counted('list');
      const list = bindings.useSuspense(fx.articles.getList, {});
      T.state.lists = [...(T.state.lists ?? []), list];
      return h('ul', { 'data-rev': rev }, ...list.slice(0, 3).map((a) => h(Row, { key: a.id, article: a })));
    }
    const tree = (rev) =>
      h(
        bindings.DataProvider,
        { controller: ctrl },
        h(Boundary, { name: 'b' }, h(List, { rev }), h(Show, { ep: fx.articles.get, params: { id: '1' }, name: 'one' })),
      );
    T.state.handle = mount(tree(0));
    T.state.tree = tree;
  });
  await textIs(page, 'row1', TITLE_1);
  await textIs(page, 'one', TITLE_1);
  const counts = () => page.evaluate(() => ({ list: T.renders.list, row1: T.renders.row1, row2: T.renders.row2, one: T.renders.one }));
  const start = await counts();

  // The parent renders again with nothing changed: the same list object, no row renders.
  await page.evaluate(() => T.state.handle.render(T.state.tree(1)));
  await page.waitForFunction((n) => T.renders.list > n, start.list);
  const after = await counts();
  assert.deepEqual([after.row1, after.row2], [start.row1, start.row2], 'the memo rows did not render');
  assert.equal(await page.evaluate(() => T.state.lists.at(-1) === T.state.lists.at(-2)), true, 'the same list (===)');

  // Article 2 changes: its row and the list render; row 1 and the reader of article 1 do not.
  await page.evaluate(() => {
    const { ctrl, fx } = T.state;
    const two = T.state.lists.at(-1)[1];
    return ctrl.setResponse(fx.articles.get, { id: '2' }, { ...two, title: 'Changed 2' });
  });
  await textIs(page, 'row2', 'Changed 2');
  const changed = await counts();
  assert.equal(changed.row2, after.row2 + 1, 'row 2 rendered once');
  assert.equal(changed.row1, after.row1, 'row 1 did not render');
  assert.equal(changed.one, after.one, 'the reader of article 1 did not render');
  assert.equal(await page.evaluate(() => T.state.lists.at(-1)[0] === T.state.lists.at(-2)[0]), true, 'article 1 kept its identity');
});

/**
 * Lets time pass, measured in polls: a plain subscription of the page's
 * controller polls `ep` on article `id` CONTROL_POLLS times, then ends.
 */
async function controlPolls(page, epName, id) {
  const from = await page.evaluate(
    ([name, i]) => {
      const { ctrl } = T.state;
      T.state.control = ctrl.subscribe(T.state[name], { id: i }, () => {});
      return ctrl.started(`/articles/${i}`);
    },
    [epName, id],
  );
  await page.waitForFunction(([i, n]) => T.state.ctrl.started(`/articles/${i}`) >= n, [id, from + CONTROL_POLLS]);
  await page.evaluate(() => T.state.control());
}

pageTest('useLive polls while mounted; useSuspense, useDLE and useCache do not; unmounting leaves no subscription and stops polling', async (page) => {
  const { patchOnServer } = await import('../node/harness.mjs');
  await page.evaluate(async (pollFrequency) => {
    const { h, setup, mount, Show, Boundary, bindings } = T;
    const { ctrl, fx } = await setup();
    const polled = fx.articles.get.extend({ pollFrequency, name: 'polled' });
    T.state = { ctrl, fx, polled };
    await ctrl.setResponse(polled, { id: '4' }, { id: '4', title: 'cached 4' });
    const views = h(
      'div',
      null,
      h(Show, { hook: 'useLive', ep: polled, params: { id: '1' }, name: 'live' }),
      h(Show, { ep: polled, params: { id: '2' }, name: 'suspense' }),
      h(Show, { hook: 'useDLE', ep: polled, params: { id: '3' }, name: 'dle' }),
      h(Show, { hook: 'useCache', ep: polled, params: { id: '4' }, name: 'cache' }),
    );
    T.state.handle = mount(h(bindings.DataProvider, { controller: ctrl }, h(Boundary, { name: 'b' }, views)), { strict: true });
  }, POLL_MS);
  await textIs(page, 'live', TITLE_1);
  await textIs(page, 'suspense', 'Stale-while-revalidate in practice');
  await textIs(page, 'dle', 'data: Why your cache needs primary keys; loading: false; error: undefined');
  await textIs(page, 'cache', 'cached 4');
  assert.equal(await page.evaluate(() => T.state.ctrl.openSubscriptions()), 4, 'one subscription per hook (StrictMode remounted them, not doubled)');

  // useLive brings a change made on the server.
  await patchOnServer(fixtureBase, '1', { title: 'Seen by polling' });
  await textIs(page, 'live', 'Seen by polling');
  assert.ok((await fixture.count('GET /articles/1')) >= 2, 'useLive polled');
  const counts = await fixture.counts();
  assert.equal(counts['GET /articles/2'], 1, 'useSuspense did not poll');
  assert.equal(counts['GET /articles/3'], 1, 'useDLE did not poll');
  assert.equal(counts['GET /articles/4'], undefined, 'useCache never fetched');

  // Unmounted: no subscription left, and polling stops.
  await page.evaluate(() => T.state.handle.unmount());
  assert.equal(await page.evaluate(() => T.state.ctrl.openSubscriptions()), 0, 'no subscription left');
  const n = await page.evaluate(() => T.state.ctrl.started('/articles/1'));
  await controlPolls(page, 'polled', '5');
  assert.equal(await page.evaluate(() => T.state.ctrl.started('/articles/1')), n, 'no poll after unmount');
  const renders = await page.evaluate(() => ({ ...T.renders }));
  await page.evaluate(() => T.state.ctrl.setResponse(T.state.polled, { id: '4' }, { id: '4', title: 'after unmount' }));
  assert.deepEqual(await page.evaluate(() => ({ ...T.renders })), renders, 'a write after unmount renders nothing');
});

pageTest('useSubscription: fetches and polls while mounted, returns nothing, stops when unmounted', async (page) => {
  await page.evaluate(async (pollFrequency) => {
    const { h, setup, mount, bindings, counted } = T;
    const { ctrl, fx } = await setup();
    const polled = fx.articles.get.extend({ pollFrequency, name: 'polled' });
    T.state = { ctrl, fx, polled };
    function Poller() {
      counted('poller');
      const r = bindings.useSubscription(polled, { id: '1' });
      return h('p', { id: 'poller' }, String(r));
    }
    T.state.handle = mount(h(bindings.DataProvider, { controller: ctrl }, h(Poller)), { strict: true });
  }, POLL_MS);
  await textIs(page, 'poller', 'undefined');
  await page.waitForFunction((n) => T.state.ctrl.started('/articles/1') >= n, 3);
  assert.equal(await renders(page, 'poller'), 2, 'polling does not render it (StrictMode renders twice)');
  await page.evaluate(() => T.state.handle.unmount());
  assert.equal(await page.evaluate(() => T.state.ctrl.openSubscriptions()), 0);
  const n = await page.evaluate(() => T.state.ctrl.started('/articles/1'));
  await controlPolls(page, 'polled', '5');
  assert.equal(await page.evaluate(() => T.state.ctrl.started('/articles/1')), n, 'no poll after unmount');
});

pageTest('useDLE: loading, then data; an error without suspending or throwing', async (page) => {
  await fixture.hold();
  await page.evaluate(async () => {
    const { h, setup, mount, Show, Boundary, bindings } = T;
    const { ctrl, fx } = await setup();
    T.state = { ctrl, fx };
    const views = h(
      'div',
      null,
      h(Show, { hook: 'useDLE', ep: fx.articles.get, params: { id: '1' }, name: 'ok' }),
      h(Show, { hook: 'useDLE', ep: fx.articles.get, params: { id: '997' }, name: 'bad' }),
    );
    mount(h(bindings.DataProvider, { controller: ctrl }, h(Boundary, { name: 'b' }, views)));
  });
  await textIs(page, 'ok', 'data: undefined; loading: true; error: undefined');
  await textIs(page, 'bad', 'data: undefined; loading: true; error: undefined');
  await fixture.held(2);
  await fixture.releaseAll();
  await textIs(page, 'ok', `data: ${TITLE_1}; loading: false; error: undefined`);
  await textIs(page, 'bad', 'data: undefined; loading: false; error: 404');
  assert.equal(await page.evaluate(() => document.getElementById('b-fallback')), null, 'never suspended');
  assert.equal(await page.evaluate(() => document.getElementById('b-error')), null, 'the error is not thrown');
  assert.equal(await fixture.count('GET /articles/997'), 1);
});

pageTest('useDLE: a missing result is requested while rendering, before the commit, and no subscription is made to ask for an error', async (page) => {
  await fixture.hold();
  await page.evaluate(async () => {
    const { React, h, setup, mount, bindings } = T;
    const { ctrl, fx } = await setup();
    T.state = { ctrl, fx, atCommit: [], subscribedInRender: 0 };
    let rendering = false;
    const subscribe = ctrl.subscribe;
    ctrl.subscribe = (...args) => {
      if (rendering) T.state.subscribedInRender++;
      return subscribe(...args);
    };
    function Dle() {
      rendering = true;
      const { data, loading } = bindings.useDLE(fx.articles.get, { id: '1' });
      rendering = false;
      React.useLayoutEffect(() => {
        T.state.atCommit.push(ctrl.started('/articles/1'));
      });
      return h('p', { id: 'dle' }, `${data?.title}; ${loading}`);
    }
    mount(h(bindings.DataProvider, { controller: ctrl }, h(Dle)));
  });
  await textIs(page, 'dle', 'undefined; true');
  assert.deepEqual(await page.evaluate(() => T.state.atCommit), [1], 'the request had started when the component first committed');
  assert.equal(await page.evaluate(() => T.state.subscribedInRender), 0, 'no subscription made while rendering');
  await fixture.held(1);
  await fixture.releaseAll();
  await textIs(page, 'dle', `${TITLE_1}; false`);
  assert.equal(await fixture.count('GET /articles/1'), 1, 'one request: the subscription shared it');
});

pageTest('useFetch: fetches a missing result once without suspending, returns its promise; nothing when it is fresh', async (page) => {
  await fixture.hold();
  await page.evaluate(async () => {
    const { h, setup, mount, Boundary, bindings } = T;
    const { ctrl, fx } = await setup();
    T.state = { ctrl, fx, promises: [] };
    function Prefetch() {
      const promise = bindings.useFetch(fx.articles.get, { id: '1' });
      T.state.promises.push(promise);
      return h('p', { id: 'f' }, promise === undefined ? 'none' : 'fetching');
    }
    mount(h(bindings.DataProvider, { controller: ctrl }, h(Boundary, { name: 'b' }, h(Prefetch))));
  });
  await textIs(page, 'f', 'fetching');
  assert.equal(await page.evaluate(() => document.getElementById('b-fallback')), null, 'it does not suspend');
  await releaseWhere('GET', '/articles/1');
  await page.waitForFunction(() => T.state.ctrl.getResponse(T.state.fx.articles.get, { id: '1' }).expiryStatus === 'valid');
  assert.equal(await fixture.count('GET /articles/1'), 1, 'one request, StrictMode and all');
  // Rendered again with the result fresh: nothing to fetch.
  await page.evaluate(() => {
    const { h, mount, bindings } = T;
    function Again() {
      const promise = bindings.useFetch(T.state.fx.articles.get, { id: '1' });
      return h('p', { id: 'g' }, promise === undefined ? 'none' : 'fetching');
    }
    mount(h(bindings.DataProvider, { controller: T.state.ctrl }, h(Again)));
  });
  await textIs(page, 'g', 'none');
  assert.equal(await fixture.count('GET /articles/1'), 1);
});

pageTest('ErrorBoundary: an error below renders errorComponent; resetErrorBoundary renders the children again', async (page) => {
  await page.evaluate(() => {
    const { h, mount, bindings } = T;
    T.state = { fail: true };
    function Risky() {
      if (T.state.fail) throw new Error('broken on purpose');
      return h('p', { id: 'ok' }, 'fine');
    }
    const retry = (reset) => () => {
      T.state.fail = false;
      reset();
    };
    const errorComponent = ({ error, resetErrorBoundary }) => h('button', { id: 'reset', onClick: retry(resetErrorBoundary) }, error.message);
    mount(h(bindings.ErrorBoundary, { errorComponent }, h(Risky)));
  });
  await textIs(page, 'reset', 'broken on purpose');
  await page.click('#reset');
  await textIs(page, 'ok', 'fine');
});

pageTest('useCache: the cached data or undefined, never fetching', async (page) => {
  await page.evaluate(async () => {
    const { h, setup, mount, Show, bindings } = T;
    const { ctrl, fx } = await setup();
    T.state = { ctrl, fx };
    mount(h(bindings.DataProvider, { controller: ctrl }, h(Show, { hook: 'useCache', ep: fx.articles.get, params: { id: '1' }, name: 'a' })));
  });
  await textIs(page, 'a', 'undefined');
  await page.waitForFunction(() => T.state.ctrl.openSubscriptions() === 1); // subscribed: it hears the write below
  await page.evaluate(() => T.state.ctrl.setResponse(T.state.fx.articles.get, { id: '1' }, { id: '1', title: 'set' }));
  await textIs(page, 'a', 'set');
  await page.evaluate(() => T.state.ctrl.invalidate(T.state.fx.articles.get, { id: '1' }));
  await textIs(page, 'a', 'undefined');
  assert.equal(await page.evaluate(() => T.state.ctrl.started()), 0, 'no request started');
  assert.equal(await fixture.total(), 0);
});

pageTest('useLoading: [handler, loading, error], the error exposed, not thrown', async (page) => {
  await page.evaluate(async () => {
    const { h, setup, mount, Boundary, bindings } = T;
    const { ctrl, fx } = await setup();
    T.state = { ctrl, fx };
    function Publish() {
      const c = bindings.useController();
      const [publish, loading, error] = bindings.useLoading(async () => c.fetch(fx.articles.partialUpdate, { id: '1' }, { published: true }), [c]);
      return h(
        'div',
        null,
        h('button', { id: 'go', onClick: () => publish().then((r) => (T.state.result = r === undefined ? 'undefined' : r.published)) }, 'publish'),
        h('p', { id: 'state' }, `loading: ${loading}; error: ${error?.status}`),
      );
    }
    mount(h(bindings.DataProvider, { controller: ctrl }, h(Boundary, { name: 'b' }, h(Publish))));
  });
  await textIs(page, 'state', 'loading: false; error: undefined');
  await fixture.hold();
  await page.click('#go');
  await textIs(page, 'state', 'loading: true; error: undefined');
  await releaseWhere('PATCH', '/articles/1');
  await textIs(page, 'state', 'loading: false; error: undefined');
  assert.equal(await page.evaluate(() => T.state.result), true);

  await fixture.failNext(1, 500);
  await page.click('#go');
  await releaseWhere('PATCH', '/articles/1');
  await textIs(page, 'state', 'loading: false; error: 500');
  assert.equal(await page.evaluate(() => T.state.result), 'undefined', 'a failure resolves undefined');
  assert.equal(await page.evaluate(() => document.getElementById('b-error')), null, 'nothing thrown to the boundary');
});

// ---------------------------------------------------------------- useQuery

pageTest('useQuery: a derived view re-renders when an entity it reads changes, keeps its identity otherwise; no listener left', async (page) => {
  await page.evaluate(async () => {
    const { h, setup, mount, bindings, React, counted } = T;
    const { df, ctrl, fx } = await setup();
    // Listeners open on the controller (useQuery's subscriptions).
    const LISTEN = Symbol.for('datafetch.controller.listen');
    const listen = ctrl[LISTEN].bind(ctrl);
    let open = 0;
    ctrl[LISTEN] = (fn) => {
      const stop = listen(fn);
      open++;
      return () => {
        open--;
        stop();
      };
    };
    ctrl.openListeners = () => open;
    await ctrl.setResponse(fx.articles.getList, {}, [
      { id: '1', title: 'b', published: true },
      { id: '2', title: 'a', published: true },
      { id: '3', title: 'c', published: false },
    ]);
    let processed = 0;
    const published = new df.schema.Query(new df.schema.All(fx.Article), (entries) => {
      processed++;
      const list = entries.filter((a) => a.published).sort((a, b) => a.title.localeCompare(b.title));
      return { count: list.length, titles: list.map((a) => a.title).join(',') };
    });
    const users = new df.RestEndpoint({ urlPrefix: T.fixture, path: '/users/:id', schema: fx.User });
    T.state = { ctrl, fx, users, processed: () => processed, views: [] };
    const View = React.memo(({ view }) => {
      counted('view');
      return h('p', { id: 'q' }, `${view.count}: ${view.titles}`);
    });
    function Published({ rev }) {
      counted('published');
      const view = bindings.useQuery(published);
      T.state.views.push(view);
      return h('div', { 'data-rev': rev }, h(View, { view }));
    }
    const tree = (rev) => h(bindings.DataProvider, { controller: ctrl }, h(Published, { rev }));
    T.state.handle = mount(tree(0), { strict: true });
    T.state.tree = tree;
  });
  await textIs(page, 'q', '2: a,b');
  const views = () => page.evaluate(() => ({ n: T.state.views.length, view: T.renders.view, same: T.state.views.at(-1) === T.state.views.at(-2) }));

  // The parent renders again: the same object, the memo child does not render.
  const before = await views();
  await page.evaluate(() => T.state.handle.render(T.state.tree(1)));
  await page.waitForFunction((n) => T.state.views.length > n, before.n);
  const again = await views();
  assert.equal(again.same, true, 'the same derived object (===)');
  assert.equal(again.view, before.view, 'the memo child did not render');

  // Another entity type changes: no render of the reader.
  const rendersBefore = await renders(page, 'published');
  await page.evaluate(() => T.state.ctrl.setResponse(T.state.users, { id: 'u1' }, { id: 'u1', name: 'Ann' }));
  assert.equal(await renders(page, 'published'), rendersBefore, 'a User changed: the query reader did not render');
  const processedBefore = await page.evaluate(() => T.state.processed());
  const lastBefore = await page.evaluate(() => T.state.views.length - 1);

  // An article is published: the view changes.
  await page.evaluate(() => T.state.ctrl.setResponse(T.state.fx.articles.get, { id: '3' }, { id: '3', title: 'c', published: true }));
  await textIs(page, 'q', '3: a,b,c');
  assert.equal(await page.evaluate(() => T.state.processed()), processedBefore + 1, 'processed once for the change');
  assert.equal(await page.evaluate((i) => T.state.views.at(-1) !== T.state.views[i], lastBefore), true, 'a new object');

  assert.equal(await page.evaluate(() => T.state.ctrl.openListeners()), 1, 'one listener while mounted (StrictMode cleaned its double)');
  await page.evaluate(() => T.state.handle.unmount());
  assert.equal(await page.evaluate(() => T.state.ctrl.openListeners()), 0, 'none after unmount');
  assert.equal(await fixture.total(), 0, 'no request');
});

pageTest(
  'useQuery: args that JSON writes alike (Infinity and null, a Date and its ISO string) are other args: a re-render with them reads them',
  async (page) => {
    await page.evaluate(async () => {
      const { h, setup, mount, bindings } = T;
      const { df, ctrl, fx } = await setup();
      await ctrl.setResponse(fx.articles.get, { id: '1' }, { id: '1', title: 'a' });
      // process writes what it was given, as it sees it.
      const seen = new df.schema.Query(new df.schema.All(fx.Article), (entries, { max }) =>
        max instanceof Date ? `Date ${max.getTime()}` : `${typeof max} ${String(max)}`,
      );
      function Seen({ max }) {
        return h('p', { id: 'seen' }, bindings.useQuery(seen, { max }));
      }
      const tree = (max) => h(bindings.DataProvider, { controller: ctrl }, h(Seen, { max }));
      T.state = { handle: mount(tree(Infinity), { strict: true }), tree };
    });
    await textIs(page, 'seen', 'number Infinity');
    const rerender = (max) => page.evaluate((m) => T.state.handle.render(T.state.tree(m === 'date' ? new Date(0) : m)), max);
    await rerender(null);
    await textIs(page, 'seen', 'object null');
    await rerender('date');
    await textIs(page, 'seen', 'Date 0');
    await rerender('1970-01-01T00:00:00.000Z');
    await textIs(page, 'seen', 'string 1970-01-01T00:00:00.000Z');
    await page.evaluate(() => T.state.handle.unmount());
  },
);

// ---------------------------------------------------------------- managers

for (const strict of [false, true]) {
  pageTest(
    `<DataProvider managers>${strict ? ' (StrictMode)' : ''}: makes a controller with them; every manager started is cleaned up after unmount`,
    async (page) => {
      await page.evaluate(
        async ({ strict }) => {
          const { h, mount, Show, Boundary, bindings, load } = T;
          const df = await load();
          const log = { init: 0, cleanup: 0, actions: [] };
          const fx = T.fixtures(df, T.fixture);
          // A manager made per provider render, as an app might (a new one
          // each time must not start a controller each time).
          const manager = () => ({
            init: () => log.init++,
            cleanup: () => log.cleanup++,
            middleware: () => (next) => (action) => {
              log.actions.push(action.type);
              return next(action);
            },
          });
          function Refetch() {
            const ctrl = bindings.useController();
            return h('button', { id: 'refetch', onClick: () => ctrl.fetch(fx.articles.get, { id: '1' }) }, 'refetch');
          }
          function App() {
            return h(
              bindings.DataProvider,
              { managers: [manager()] },
              h(Boundary, { name: 'b' }, h(Show, { ep: fx.articles.get, params: { id: '1' }, name: 'a' }), h(Refetch)),
            );
          }
          T.state = { log, handle: mount(h(App), { strict }) };
        },
        { strict },
      );
      await textIs(page, 'a', TITLE_1);
      await page.click('#refetch');
      await page.waitForFunction(() => T.state.log.actions.includes('rdc/fetch'));
      const live = await page.evaluate(() => T.state.log.init - T.state.log.cleanup);
      assert.equal(live, 1, 'one controller (and its managers) in use while mounted');
      await page.evaluate(() => T.state.handle.unmount());
      await page.waitForFunction(() => T.state.log.cleanup === T.state.log.init);
      assert.ok((await page.evaluate(() => T.state.log.init)) >= 1);
    },
  );
}
