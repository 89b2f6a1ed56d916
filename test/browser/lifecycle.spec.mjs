// Revalidation on focus and reconnect in Chromium (docs/js-api.md,
// "Revalidation on focus and reconnect"): a page shown again
// (visibilitychange) or a browser back online (online) refetches what the
// controller's subscriptions hold that is stale, and nothing else; after
// close() the events fetch nothing. Requests are counted at the fixture
// server; the controllers' clocks are fake, moved by the test.
//
// Run: node --test test/browser/lifecycle.spec.mjs (after ./build.sh build)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HANG_GUARD, server as fixture, waitFor } from '../node/harness.mjs';
import { pageRig } from './rig.mjs';

// The page: two controllers listening for both events, each with a clock
// of its own (window.clocks), and functions for the test to call.
const PAGE = `<!doctype html><meta charset="utf-8"><title>datafetch lifecycle</title>
<script type="module">
  import { load } from '/dist/datafetch.mjs';
  const fixture = new URLSearchParams(location.search).get('fixture');
  try {
    const df = await load();
    const Article = df.Entity({ key: 'Article', defaults: { id: undefined, title: '' } });
    const short = new df.RestEndpoint({ urlPrefix: fixture, path: '/articles/:id', name: 'short', schema: Article, dataExpiryLength: 1000 });
    const long = short.extend({ name: 'long', dataExpiryLength: 3_600_000 });
    const clocks = { main: 1_700_000_000_000, control: 1_700_000_000_000 };
    const options = { revalidateOnFocus: true, revalidateOnReconnect: true };
    const ctrl = new df.Controller({ ...options, now: () => clocks.main });
    const control = new df.Controller({ ...options, now: () => clocks.control });
    // Every listener call with loading: true, by id: a fetch started.
    const loads = {};
    const hold = (c, ep, id) => c.subscribe(ep, { id }, (s) => { if (s.loading) loads[id] = (loads[id] ?? 0) + 1; });
    hold(ctrl, short, '1');   // held, will go stale
    hold(ctrl, long, '3');    // held, stays fresh
    hold(control, short, '4'); // the control controller's
    await Promise.all([ctrl.useSuspense(short, { id: '1' }), ctrl.useSuspense(short, { id: '2' }), ctrl.useSuspense(long, { id: '3' }), control.useSuspense(short, { id: '4' })]);
    let visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    window.lifecycle = {
      clocks,
      loads,
      // show(state) sets document.visibilityState and fires visibilitychange.
      show(state) {
        visibility = state;
        document.dispatchEvent(new Event('visibilitychange'));
      },
      status: (id) => (id === '3' ? ctrl.getResponse(long, { id }) : ctrl.getResponse(short, { id })).expiryStatus,
      controlStatus: () => control.getResponse(short, { id: '4' }).expiryStatus,
      close: () => ctrl.close(),
    };
    window.__ready = true;
  } catch (e) {
    window.__error = String(e && e.stack || e);
  }
</script>`;

// waitForCount waits until GET /articles/{id} reached n at the fixture
// server (HANG_GUARD bounds the wait; it is not a speed bound).
function waitForCount(id, n) {
  return waitFor(async () => (await fixture.count(`GET /articles/${id}`)) >= n, { message: `GET /articles/${id}: waited for ${n} requests` });
}

async function counts() {
  const all = await fixture.counts();
  return Object.fromEntries(['1', '2', '3', '4'].map((id) => [id, all[`GET /articles/${id}`] ?? 0]));
}

const rig = pageRig(PAGE);

test('Chromium: visibilitychange and online refetch only held stale results; close() removes the listeners', { timeout: 600_000 }, async () => {
  await fixture.reset();
  const context = await rig.browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(HANG_GUARD);
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  try {
    await page.goto(rig.pageURL());
    await page.waitForFunction(() => window.__ready || window.__error);
    assert.equal(await page.evaluate(() => window.__error), undefined);
    assert.deepEqual(await counts(), { 1: 1, 2: 1, 3: 1, 4: 1 });

    // 1. Focus. Results 1 and 2 go stale; 3 is fresh; 2 is not held.
    await page.evaluate(() => {
      window.lifecycle.clocks.main += 2000;
    });
    assert.equal(await page.evaluate(() => window.lifecycle.status('1')), 'stale');
    // Hidden: nothing. A fetch would have told the subscriber (loading)
    // before dispatchEvent returned: Go runs it up to its first wait.
    const hidden = await page.evaluate(() => {
      const before = window.lifecycle.loads['1'] ?? 0;
      window.lifecycle.show('hidden');
      return (window.lifecycle.loads['1'] ?? 0) - before;
    });
    assert.equal(hidden, 0, 'a hidden page does not revalidate');
    const shown = await page.evaluate(() => {
      const before = window.lifecycle.loads['1'] ?? 0;
      window.lifecycle.show('visible');
      return (window.lifecycle.loads['1'] ?? 0) - before;
    });
    assert.equal(shown, 1, 'a page shown again revalidates at once');
    await waitForCount('1', 2);
    await page.waitForFunction(() => window.lifecycle.status('1') === 'valid');
    assert.deepEqual(await counts(), { 1: 2, 2: 1, 3: 1, 4: 1 }, 'only the held stale result');

    // 2. Reconnect.
    await page.evaluate(() => {
      window.lifecycle.clocks.main += 2000;
    });
    await context.setOffline(true);
    await context.setOffline(false);
    await waitForCount('1', 3);
    await page.waitForFunction(() => window.lifecycle.status('1') === 'valid');
    assert.deepEqual(await counts(), { 1: 3, 2: 1, 3: 1, 4: 1 }, 'only the held stale result');

    // 3. After close(), neither event fetches for that controller; the
    // control controller, whose result is stale now, shows they fired.
    await page.evaluate(() => {
      window.lifecycle.clocks.main += 2000;
      window.lifecycle.clocks.control += 2000;
      window.lifecycle.close();
      window.lifecycle.show('hidden');
      window.lifecycle.show('visible');
    });
    await waitForCount('4', 2);
    // Its response stored before going offline: a response still on the
    // way when the browser goes offline would leave 4 stale for the online
    // event below, which would refetch it once more.
    await page.waitForFunction(() => window.lifecycle.controlStatus() === 'valid');
    await context.setOffline(true);
    await context.setOffline(false);
    await page.evaluate(() => {
      window.lifecycle.clocks.control += 2000;
    });
    await context.setOffline(true);
    await context.setOffline(false);
    await waitForCount('4', 3);
    assert.deepEqual(await counts(), { 1: 3, 2: 1, 3: 1, 4: 3 }, 'nothing for the closed controller');
    assert.equal(await page.evaluate(() => window.lifecycle.status('1')), 'stale');
    assert.deepEqual(pageErrors, []);
  } finally {
    await context.close();
  }
});
