// df.persist in Chromium with its default storage, IndexedDB: a page reads
// the article list and flushes; after a reload, the restored list is read
// with no request (counted at the fixture server), Dates as Date.
//
// Run: node --test test/browser/persist.spec.mjs (the fixture server from
// FIXTURE_URL, or started here, as in test/node/harness.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageRig } from './rig.mjs';
import { server as fixture } from '../node/harness.mjs';

// The page persists its controller to IndexedDB, reports whether the list
// was there before it read it, reads it, and flushes.
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>datafetch persist</title>
<script type="module">
  import { load } from '/dist/datafetch.mjs';
  const fixture = new URLSearchParams(location.search).get('fixture');
  try {
    const df = await load();
    const Article = df.Entity({ key: 'Article', defaults: { id: undefined, title: '' }, schema: { createdAt: Date } });
    const list = new df.RestEndpoint({ urlPrefix: fixture, path: '/articles', schema: [Article] });
    const ctrl = new df.Controller({ dataExpiryLength: 3_600_000 });
    const persisted = await df.persist(ctrl, { buster: 'spec' });
    const before = ctrl.getResponse(list).expiryStatus;
    const data = await ctrl.useSuspense(list);
    await persisted.flush();
    window.__result = { before, n: data.length, createdAtIsDate: data[0].createdAt instanceof Date };
  } catch (err) {
    window.__error = String(err?.stack ?? err);
  }
</script>`;

const rig = pageRig(PAGE);

test('IndexedDB persistence across a reload: restored with no request', { timeout: 300_000 }, async () => {
  await fixture.reset();
  const context = await rig.browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(120_000); // hang guards, not speed bounds
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const outcome = async () => {
    await page.waitForFunction(() => window.__result || window.__error);
    const error = await page.evaluate(() => window.__error);
    assert.equal(error, undefined, `the page failed: ${error}`);
    return page.evaluate(() => window.__result);
  };
  try {
    await page.goto(rig.pageURL());
    const first = await outcome();
    assert.equal(first.before, 'missing', 'nothing stored at first');
    assert.equal(first.n, 24);
    assert.equal(await fixture.count('GET /articles'), 1);

    await page.reload();
    const second = await outcome();
    assert.equal(second.before, 'valid', 'restored from IndexedDB before any read');
    assert.equal(second.n, 24);
    assert.equal(second.createdAtIsDate, true, 'Dates come back as Date');
    assert.equal(await fixture.count('GET /articles'), 1, 'the reload made no request');
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});
