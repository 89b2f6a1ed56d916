// Playwright smoke test of the JavaScript API in Chromium: a page served by a
// small static server (dist/ plus a test page) imports dist/datafetch.mjs,
// loads the module and, against the REST fixture server, reads a list,
// subscribes to it, mutates a record optimistically and renders the result;
// the test checks the page and the requests the fixture server saw, and takes
// a screenshot into test/browser/output/ (git-ignored).
//
// Run: node --test test/browser/js-api.spec.mjs
// The fixture server comes from FIXTURE_URL, or is started here (see
// test/node/harness.mjs). Chromium is the system one, through launch.mjs.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './launch.mjs';
import { serveFiles } from './serve.mjs';
import { fixtureURL, server as fixture } from '../node/harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const dist = join(root, 'dist');
const outDir = join(here, 'output');

// The test page. It writes progress into the DOM and its outcome into
// window.__result (or window.__error).
const PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>datafetch JS API smoke test</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; }
  h1 { font-size: 18px; }
  li.optimistic { color: #a60; }
  #status { font-weight: bold; }
</style>
<h1>datafetch <span id="version">?</span></h1>
<p id="status">loading</p>
<p>subscriber calls: <span id="calls">0</span></p>
<ul id="list"></ul>
<script type="module">
  import { load } from '/dist/datafetch.mjs';
  const fixture = new URLSearchParams(location.search).get('fixture');
  const $ = (id) => document.getElementById(id);
  try {
    const df = await load();
    const sameInstance = (await load()) === df;
    $('version').textContent = df.version;

    const User = df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
    const Article = df.Entity({
      key: 'Article',
      defaults: { id: undefined, title: '', content: '', published: false, author: null },
      schema: { author: User, createdAt: Date },
    });
    const articles = df.resource({ urlPrefix: fixture, path: '/articles/:id', schema: Article });
    const rename = articles.partialUpdate.extend({
      getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
    });
    const ctrl = new df.Controller();

    const seen = [];
    const render = ({ data, loading, error }) => {
      seen.push({ loading, error: error ? String(error) : null, n: data ? data.length : null, first: data?.[0]?.title ?? null });
      $('calls').textContent = String(seen.length);
      if (error) $('status').textContent = 'error: ' + error.message;
      if (!data) return;
      $('list').replaceChildren(...data.slice(0, 6).map((a) => {
        const li = document.createElement('li');
        li.textContent = a.id + ': ' + a.title + ' (' + a.createdAt.toISOString().slice(0, 10) + ')';
        return li;
      }));
    };
    const unsubscribe = ctrl.subscribe(articles.getList, {}, render);
    const list = await ctrl.useSuspense(articles.getList, {});
    const firstBefore = list[0];

    const pending = ctrl.fetch(rename, { id: '1' }, { title: 'Edited in Chromium' });
    const optimisticTitle = ctrl.getResponse(articles.getList, {}).data?.[0]?.title ?? null;
    const saved = await pending;
    const after = ctrl.getResponse(articles.getList, {}).data;

    let notFound = null;
    try {
      await ctrl.useSuspense(articles.get, { id: '999' });
    } catch (e) {
      notFound = { isNetworkError: e instanceof df.NetworkError, status: e.status };
    }
    unsubscribe();
    $('status').textContent = 'done';
    window.__result = {
      version: df.version,
      sameInstance,
      count: list.length,
      firstTitle: firstBefore.title,
      createdAtIsDate: firstBefore.createdAt instanceof Date,
      optimisticTitle,
      savedTitle: saved.title,
      afterFirstTitle: after[0].title,
      secondKept: after[1] === list[1],
      notFound,
      seen,
    };
  } catch (e) {
    $('status').textContent = 'failed: ' + e;
    window.__error = String(e && e.stack || e);
  }
</script>
</html>`;

// A module worker that loads the library and reads one record.
const WORKER = `
  import { load } from '/dist/datafetch.mjs';
  self.onmessage = async ({ data: fixture }) => {
    try {
      const df = await load();
      const Comment = df.Entity({ key: 'Comment', defaults: { id: undefined, name: '', body: '' } });
      const ep = new df.RestEndpoint({ urlPrefix: fixture, path: '/comments/:id', schema: Comment });
      const c = await new df.Controller().useSuspense(ep, { id: 2 });
      self.postMessage({ ok: true, id: c.id, name: c.name, version: df.version });
    } catch (e) {
      self.postMessage({ ok: false, error: String(e && e.stack || e) });
    }
  };
`;

const WORKER_PAGE = `<!doctype html><meta charset="utf-8"><title>worker</title>
<script type="module">
  const w = new Worker('/worker.mjs', { type: 'module' });
  w.onmessage = (e) => { window.__worker = e.data; };
  w.onerror = (e) => { window.__worker = { ok: false, error: 'worker error: ' + e.message }; };
  w.postMessage(new URLSearchParams(location.search).get('fixture'));
</script>`;

let browser;
let web;
let origin;
let fixtureBase;

before(async () => {
  fixtureBase = await fixtureURL();
  web = await serveFiles({
    pages: { '/': PAGE, '/index.html': PAGE, '/favicon.ico': ['', '.html'], '/worker.html': WORKER_PAGE, '/worker.mjs': [WORKER, '.mjs'] },
    dirs: { '/dist/': dist },
  });
  origin = `http://127.0.0.1:${web.port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await web?.close();
});

test('dist/ has the loader and the module', () => {
  for (const f of ['datafetch.mjs', 'datafetch.wasm', 'wasm_exec.js']) {
    assert.ok(existsSync(join(dist, f)), `dist/${f} is missing: run ./build.sh build`);
  }
});

test('Chromium page: load, read, subscribe, optimistic mutate, errors; screenshot', { timeout: 300_000 }, async () => {
  await fixture.reset();
  const page = await browser.newPage({ viewport: { width: 900, height: 520 } });
  page.setDefaultTimeout(120_000); // hang guards, not speed bounds
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    // The page asks for /articles/999 on purpose; Chromium logs the 404.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) pageErrors.push('console: ' + m.text());
  });
  try {
    await page.goto(`${origin}/?fixture=${encodeURIComponent(fixtureBase)}`);
    await page.waitForFunction(() => window.__result || window.__error, null, { timeout: 120_000 }); // a hang guard
    const error = await page.evaluate(() => window.__error);
    assert.equal(error, undefined, `the page failed: ${error}`);
    const r = await page.evaluate(() => window.__result);

    assert.equal(typeof r.version, 'string');
    assert.ok(r.version.length > 0);
    assert.equal(r.sameInstance, true, 'load() twice gives one instance');
    assert.equal(r.count, 24);
    assert.equal(r.firstTitle, 'Normalizing nested API responses');
    assert.equal(r.createdAtIsDate, true);
    assert.equal(r.optimisticTitle, 'Edited in Chromium', 'the optimistic update is visible before the server answers');
    assert.equal(r.savedTitle, 'Edited in Chromium');
    assert.equal(r.afterFirstTitle, 'Edited in Chromium', 'the list shows the mutation');
    assert.equal(r.secondKept, true, 'unchanged list members keep their identity');
    assert.deepEqual(r.notFound, { isNetworkError: true, status: 404 });

    assert.ok(r.seen.length >= 2, 'the subscriber was called at least twice');
    assert.equal(r.seen[0].loading, true, 'first call while loading');
    assert.ok(
      r.seen.some((s) => s.n === 24 && s.first === 'Normalizing nested API responses'),
      'subscriber saw the list',
    );
    assert.ok(
      r.seen.some((s) => s.first === 'Edited in Chromium'),
      'subscriber saw the edit',
    );

    assert.equal(await page.textContent('#status'), 'done');
    assert.match(await page.textContent('#list'), /1: Edited in Chromium \(2024-03-01\)/);
    assert.equal(await page.textContent('#version'), r.version);

    const counts = await fixture.counts();
    assert.equal(counts['GET /articles'], 1, 'the list was fetched once (subscribe and useSuspense share it)');
    assert.equal(counts['PATCH /articles/1'], 1);
    assert.equal(counts['GET /articles/999'], 1);
    assert.deepEqual(pageErrors, []);

    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, 'js-api.png');
    await page.screenshot({ path: file, fullPage: true });
    const png = readFileSync(file);
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  } finally {
    await page.close();
  }
});

test('Chromium module worker: load and read', { timeout: 300_000 }, async () => {
  await fixture.reset();
  const page = await browser.newPage();
  page.setDefaultTimeout(120_000); // hang guards, not speed bounds
  try {
    await page.goto(`${origin}/worker.html?fixture=${encodeURIComponent(fixtureBase)}`);
    await page.waitForFunction(() => window.__worker, null, { timeout: 120_000 }); // a hang guard
    const w = await page.evaluate(() => window.__worker);
    assert.equal(w.ok, true, `worker failed: ${w.error}`);
    assert.equal(w.id, 2);
    assert.equal(w.name, 'tried it with a slow network');
    assert.equal(typeof w.version, 'string');
    assert.equal(await fixture.count('GET /comments/2'), 1);
  } finally {
    await page.close();
  }
});
