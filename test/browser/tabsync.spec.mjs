// df.syncTabs in Chromium: two pages of one browser context, each with its
// own datafetch instance and controller, synced over a BroadcastChannel. A
// list fetched in one page is read in the other with no request (counted at
// the fixture server); an invalidation goes the other way. The test waits
// for each receiving page's subscription (which does not fetch) to report
// the change, with hang guards of minutes.
//
// Run: node --test test/browser/tabsync.spec.mjs (the fixture server from
// FIXTURE_URL, or started here, as in test/node/harness.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageRig } from './rig.mjs';
import { server as fixture } from '../node/harness.mjs';

// The page syncs its controller and records every change of the list that
// a subscription without fetching sees: window.__changes, each {n, status}.
// window.__fetch() fetches the list, window.__read() reads it as
// useSuspense would, window.__invalidate() invalidates it.
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>datafetch syncTabs</title>
<script type="module">
  import { load } from '/dist/datafetch.mjs';
  const fixture = new URLSearchParams(location.search).get('fixture');
  try {
    const df = await load();
    const Article = df.Entity({ key: 'Article', defaults: { id: undefined, title: '' }, schema: { createdAt: Date } });
    const list = new df.RestEndpoint({ urlPrefix: fixture, path: '/articles', schema: [Article] });
    const ctrl = new df.Controller();
    df.syncTabs(ctrl, { channel: 'spec' });
    window.__changes = [];
    ctrl.subscribe(list, {}, ({ data }) => {
      window.__changes.push({ n: data?.length ?? 0, status: ctrl.getResponse(list, {}).expiryStatus, dates: data?.[0]?.createdAt instanceof Date });
    }, { fetch: false });
    window.__fetch = async () => (await ctrl.fetch(list, {})).length;
    window.__read = async () => (await ctrl.useSuspense(list, {})).length;
    window.__invalidate = () => ctrl.invalidate(list, {});
    window.__ready = true;
  } catch (err) {
    window.__error = String(err?.stack ?? err);
  }
</script>`;

const rig = pageRig(PAGE);

test('two pages of one browser context stay in sync, with no request in the receiver', { timeout: 300_000 }, async () => {
  await fixture.reset();
  const context = await rig.browser.newContext();
  const pageErrors = [];
  const open = async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(120_000); // hang guards, not speed bounds
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(rig.pageURL());
    await page.waitForFunction(() => window.__ready || window.__error);
    assert.equal(await page.evaluate(() => window.__error), undefined);
    return page;
  };
  // changeTo waits until page's subscription has seen the status.
  const changeTo = (page, status) => page.waitForFunction((s) => window.__changes.some((c) => c.status === s), status);
  try {
    const a = await open();
    const b = await open();

    assert.equal(await a.evaluate(() => window.__fetch()), 24);
    await changeTo(b, 'valid');
    const seen = await b.evaluate(() => window.__changes.find((c) => c.status === 'valid'));
    assert.deepEqual(seen, { n: 24, status: 'valid', dates: true });
    assert.equal(await b.evaluate(() => window.__read()), 24);
    assert.equal(await fixture.count('GET /articles'), 1, 'the second page made no request');

    await b.evaluate(() => window.__invalidate());
    await changeTo(a, 'invalid');
    assert.equal(await fixture.count('GET /articles'), 1, 'the invalidation itself made no request');
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});
