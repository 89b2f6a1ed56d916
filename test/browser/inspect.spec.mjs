// df.inspect in Chromium: a page with hostile CSS opens the floating panel
// on a controller with a fake clock, and the test follows what the panel
// shows as the controller works against the REST fixture server: entity
// counts and records, results turning from valid to stale as the fake clock
// advances, an optimistic update and a read in flight while the server
// holds them, an error after a failed fetch. Inspecting never changes
// getState(); stop() removes the panel. Screenshots go to
// test/browser/output/ (git-ignored).
//
// Run: node --test test/browser/inspect.spec.mjs

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { server as fixture } from '../node/harness.mjs';
import { pageRig } from './rig.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, 'output');

// Waits are hang guards, never speed bounds.
const HANG_MS = 120_000;
// The articles' data expiry in the page: the fake clock moves past it.
const EXPIRY_MS = 60_000;

// The page: hostile CSS (the panel must not be affected), a button the
// floating panel must not cover, and the library on window for the test.
const PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>df.inspect</title>
<style>
  body { font: 14px/1.4 serif; margin: 16px; color: #444; }
  li, header, section, table { display: none !important; }
  button, span { color: red !important; font-size: 30px !important; }
  * { box-sizing: content-box; }
</style>
<h1>A page with its own CSS</h1>
<p><button id="page-control">The page's own button</button></p>
<div id="mount"></div>
<script type="module">
  import { load } from '/dist/datafetch.mjs';
  const fixture = new URLSearchParams(location.search).get('fixture');
  try {
    const df = await load();
    const User = df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
    const Article = df.Entity({
      key: 'Article',
      defaults: { id: undefined, title: '', content: '', published: false, author: null },
      schema: { author: User, createdAt: Date },
    });
    const articles = df.resource({ urlPrefix: fixture, path: '/articles/:id', schema: Article, dataExpiryLength: ${EXPIRY_MS} });
    const rename = articles.partialUpdate.extend({
      getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
    });
    const clock = { t: 1_700_000_000_000 };
    const ctrl = new df.Controller({ now: () => clock.t });
    Object.assign(window, { df, ctrl, articles, rename, clock, pending: [] });
    window.__ready = true;
  } catch (e) {
    window.__error = String(e && e.stack || e);
  }
</script>
</html>`;

const rig = pageRig(PAGE);

after(async () => {
  await fixture.reset();
});

async function openPage() {
  const page = await rig.browser.newPage({ viewport: { width: 1000, height: 760 } });
  page.setDefaultTimeout(HANG_MS);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    // The test asks for /articles/999 on purpose; Chromium logs the 404.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(`console: ${m.text()}`);
  });
  await page.goto(rig.pageURL());
  await page.waitForFunction(() => window.__ready || window.__error);
  assert.equal(await page.evaluate(() => window.__error), undefined);
  return { page, errors };
}

// The state as JSON text, for comparing before and after.
const stateText = (page) => page.evaluate(() => JSON.stringify(window.ctrl.getState()));

test('the floating panel follows the controller, changes nothing, and stop() removes it', { timeout: 300_000 }, async () => {
  await fixture.reset();
  const { page, errors } = await openPage();
  try {
    await page.evaluate(() => window.ctrl.useSuspense(window.articles.getList, {}));
    const before = await stateText(page);

    await page.evaluate(() => {
      window.stop = window.df.inspect(window.ctrl);
    });
    // Playwright's CSS selectors pierce open shadow roots.
    const panel = page.locator('datafetch-inspector');
    const summary = panel.locator('.summary');
    const toggle = panel.locator('button.toggle');
    await summary.filter({ hasText: '1 result ' }).waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'a floating panel starts collapsed');
    assert.equal(await panel.locator('.body').isVisible(), false);
    const box = await panel.boundingBox();
    const button = await page.locator('#page-control').boundingBox();
    assert.ok(box.y > button.y + button.height, `the collapsed panel (${JSON.stringify(box)}) is below the page's button (${JSON.stringify(button)})`);

    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const type = (name) => panel.locator(`li[data-type="${name}"]`);
    await type('Article').waitFor();
    assert.equal(await type('Article').locator('.count').textContent(), '24');
    // Articles, and the list's Collection (resource getList is one): the
    // fixture sends authors as ids, so no User type.
    assert.deepEqual(await panel.locator('section[data-section="entities"] li').evaluateAll((lis) => lis.map((li) => li.dataset.type).sort()), [
      'Article',
      '[Article]',
    ]);
    assert.equal(await type('Article').isVisible(), true, "the page's li { display: none !important } does not reach the panel");

    const listKey = await page.evaluate(() => window.articles.getList.key({}));
    const listRow = panel.locator(`section[data-section="results"] li[data-key="${listKey}"]`);
    await listRow.waitFor();
    assert.equal(await listRow.getAttribute('data-status'), 'valid');
    assert.equal(await listRow.locator('.when').textContent(), '60s', 'time left by the fake clock');
    assert.match(await listRow.locator('.label').textContent(), /^\S+ \/articles$/, 'the label: name and path, GET implicit');

    // Records of an opened type.
    await type('Article').locator('summary').click();
    await type('Article').locator('table tr').nth(23).waitFor();
    assert.equal(await type('Article').locator('table tr').count(), 24, 'one row a record');
    assert.match(
      await type('Article')
        .locator('tr', { has: page.locator('th', { hasText: /^1$/ }) })
        .locator('td')
        .textContent(),
      /"title":"Normalizing nested API responses"/,
    );

    await type('Article').locator('summary').click();
    await type('Article').locator('table').waitFor({ state: 'detached' });

    // The fake clock moves on: valid, then stale.
    await page.evaluate((ms) => {
      window.clock.t += ms;
    }, EXPIRY_MS / 2);
    await listRow.locator('.when', { hasText: '30s' }).waitFor();
    await page.evaluate((ms) => {
      window.clock.t += ms;
    }, EXPIRY_MS);
    await panel.locator(`section[data-section="results"] li[data-key="${listKey}"][data-status="stale"]`).waitFor();

    // A failed read: its error is listed, and shown on its result.
    await page.evaluate(() => window.ctrl.useSuspense(window.articles.get, { id: '999' }).catch(() => {}));
    const missingKey = await page.evaluate(() => window.articles.get.key({ id: '999' }));
    const error = panel.locator(`section[data-section="errors"] li[data-key="${missingKey}"]`);
    await error.waitFor();
    assert.match(await error.locator('.message').textContent(), /404/);
    assert.equal(await error.getAttribute('data-kept'), '');
    const failed = panel.locator(`section[data-section="results"] li[data-key="${missingKey}"]`);
    assert.equal(await failed.getAttribute('data-status'), 'missing');

    // An optimistic update and a read, held at the server.
    await fixture.hold('request');
    await page.evaluate(() => {
      window.pending.push(window.ctrl.fetch(window.rename, { id: '1' }, { title: 'Held in the queue' }));
      window.pending.push(window.ctrl.useSuspense(window.articles.get, { id: '2' }));
    });
    await fixture.held(2);
    const [patchKey, readKey] = await page.evaluate(() => [window.rename.key({ id: '1' }), window.articles.get.key({ id: '2' })]);
    const queued = panel.locator(`section[data-section="optimistic"] li[data-key="${patchKey}"]`);
    await queued.waitFor();
    const inFlight = panel.locator('section[data-section="requests"] li');
    await inFlight.nth(1).waitFor();
    const flying = await inFlight.evaluateAll((lis) => lis.map((li) => [li.dataset.key, li.querySelector('.badge').textContent]));
    assert.deepEqual(
      flying.sort(),
      [
        [patchKey, 'mutation'],
        [readKey, 'read'],
      ].sort(),
    );

    mkdirSync(outDir, { recursive: true });
    const shot = join(outDir, 'inspect.png');
    await page.screenshot({ path: shot });
    assert.equal(readFileSync(shot).subarray(1, 4).toString('latin1'), 'PNG');

    await fixture.unhold();
    await page.evaluate(() => Promise.all(window.pending));
    await panel.locator('section[data-section="optimistic"] .muted').waitFor();
    await panel.locator('section[data-section="requests"] .muted').waitFor();

    // Read-only: inspecting left the store as the controller's own calls
    // made it. A state taken now, with the panel open, is the state taken
    // after a few more refreshes.
    const during = await stateText(page);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await stateText(page), during);

    await page.evaluate(() => window.stop());
    assert.equal(await page.locator('datafetch-inspector').count(), 0, 'stop() removed the panel');
    await page.evaluate(() => window.stop()); // twice is harmless
    assert.notEqual(before, during, 'the controller did work meanwhile (a check that the comparison can fail)');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('inspect into an element: open at once; getState() is deep-equal before and after', { timeout: 300_000 }, async () => {
  await fixture.reset();
  const { page, errors } = await openPage();
  try {
    await page.evaluate(() => window.ctrl.useSuspense(window.articles.getList, {}));
    const r = await page.evaluate(async () => {
      const before = window.ctrl.getState();
      const mount = document.getElementById('mount');
      const stop = window.df.inspect(window.ctrl, mount);
      const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      await frames();
      window.clock.t += 1000;
      await frames();
      const after = window.ctrl.getState();
      const shown = mount.querySelector('datafetch-inspector').shadowRoot.querySelector('li[data-type="Article"] .count').textContent;
      stop();
      return { before, after, shown, left: mount.childElementCount };
    });
    assert.deepEqual(r.after, r.before, 'inspect changed nothing in the store');
    assert.equal(r.shown, '24');
    assert.equal(r.left, 0, 'stop() removed what inspect added to the element');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('a store of 10,000 results renders a bounded page, with a count and a way to see more', { timeout: 300_000 }, async () => {
  await fixture.reset();
  const { page, errors } = await openPage();
  try {
    const r = await page.evaluate(async () => {
      const N = 10_000;
      for (let i = 0; i < N; i++) {
        await window.ctrl.setResponse(window.articles.get, { id: String(i) }, { id: String(i), title: `Article ${i}` });
      }
      const mount = document.getElementById('mount');
      window.stop = window.df.inspect(window.ctrl, mount);
      const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const root = () => mount.querySelector('datafetch-inspector').shadowRoot;
      const results = () => root().querySelectorAll('section[data-section="results"] li').length;
      while (results() === 0) await frames();
      const first = {
        nodes: root().querySelectorAll('*').length,
        rows: results(),
        more: root().querySelector('section[data-section="results"] .more')?.textContent,
      };
      root().querySelector('section[data-section="results"] .more button').click();
      while (results() === first.rows) await frames();
      const more = root().querySelector('section[data-section="results"] .more')?.textContent;
      // An opened type of 10,000 records lists a bounded number of them.
      const records = () => root().querySelectorAll('li[data-type="Article"] tr');
      root().querySelector('li[data-type="Article"] summary').click();
      while (records().length === 0) await frames();
      const opened = { records: records().length, last: records()[records().length - 1].textContent, nodes: root().querySelectorAll('*').length };
      root().querySelector('section[data-section="results"] .more').scrollIntoView({ block: 'center' });
      return { first, rows: results(), more, opened };
    });
    assert.equal(r.first.rows, 100, 'one page of results');
    assert.ok(r.first.nodes < 2_000, `a bounded DOM: ${r.first.nodes} nodes for 10,000 results`);
    assert.match(r.first.more, /^Showing 100 of 10,000 Show 100 more$/);
    assert.equal(r.rows, 200, 'show more adds a page');
    assert.match(r.more, /^Showing 200 of 10,000/);
    assert.deepEqual([r.opened.records, r.opened.last], [201, '…9,800 more'], 'an opened type lists 200 records and a count of the rest');
    assert.ok(r.opened.nodes < 4_000, `a bounded DOM with a type open: ${r.opened.nodes} nodes`);
    await page.screenshot({ path: join(outDir, 'inspect-large.png') });
    await page.evaluate(() => window.stop());
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
