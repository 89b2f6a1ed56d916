// End-to-end test of index.html, the plain-JS page: it loads
// dist/datafetch.mjs from the demo server and uses the JavaScript API
// against the REST API. Skipped when dist/ has no datafetch.mjs yet (run
// ./build.sh build). Screenshots land in test/e2e/out/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, ROOT, api, control, held, watchErrors } from './server.mjs';
import { HANG_MS, useDemo } from './suite.mjs';

const built = existsSync(join(ROOT, 'dist', 'datafetch.mjs')) && existsSync(join(ROOT, 'dist', 'datafetch.wasm'));

const demo = useDemo({ skip: !built });

// Every wait of a page is bounded by HANG_MS: a guard against hangs, never a
// check of speed. What must happen before the server answers is made to by
// holding the request at the server (control 'hold', then 'unhold').

async function openPage() {
  await control(demo.server.url, 'reset');
  const page = await demo.browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(HANG_MS);
  const errors = watchErrors(page);
  await page.goto(new URL('index.html', demo.server.url).href);
  await page.waitForSelector('#js-status[data-ready]');
  return { page, errors };
}

test('index.html: list, detail, optimistic mutations and a live subscription', { skip: !built && 'dist/datafetch.mjs is not built' }, async () => {
  const { page, errors } = await openPage();
  assert.match(await page.textContent('#js-status'), /^datafetch \S+ ready$/);

  // The list is a subscription: it renders the API's articles.
  const articles = await api(demo.server.url, 'articles');
  await page.waitForSelector('#js-articles .row');
  assert.equal(await page.locator('#js-articles .row').count(), articles.length);
  assert.equal(await page.locator('#js-articles .row-title').first().textContent(), articles[0].title);
  const calls = async () => Number((await page.textContent('#js-calls')).split(' ')[0]);
  const callsBefore = await calls();
  assert.ok(callsBefore >= 2, 'the listener was called while loading and with the data');

  // The detail is a useSuspense read.
  await page.click('#js-articles .row[data-id="4"] .row-title');
  await page.waitForSelector('#js-detail article[data-id="4"]');
  assert.equal(await page.textContent('#js-detail h3'), articles[3].title);
  assert.equal(await page.getAttribute('#js-detail article', 'data-published'), 'false');

  // Publishing is optimistic: list and detail change while the server
  // holds the request.
  await control(demo.server.url, 'hold');
  await page.click('#js-articles .row[data-id="4"] .toggle');
  await page.waitForSelector('#js-articles .row[data-id="4"][data-published="true"]');
  await page.waitForSelector('#js-detail article[data-published="true"]');
  assert.ok(
    (await held(demo.server.url, 1)).some((h) => `${h.method} ${h.path}` === 'PATCH /articles/4'),
    'shown while the server holds the request, not run yet',
  );
  assert.ok((await calls()) > callsBefore, 'the list subscription was called for the optimistic change');
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('#js-notice:text-matches("^Published")');
  assert.equal((await api(demo.server.url, 'articles/4')).published, true);

  // A failure rolls it back.
  await page.click('#js-fail-next');
  await page.waitForSelector('#js-fail-next.armed');
  await control(demo.server.url, 'hold');
  await page.click('#js-articles .row[data-id="4"] .toggle');
  await page.waitForSelector('#js-articles .row[data-id="4"][data-published="false"]');
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('#js-articles .row[data-id="4"][data-published="true"]');
  await page.waitForSelector('#js-notice.bad:text-matches("rolled back")');
  assert.equal(await page.getAttribute('#js-detail article', 'data-published'), 'true', 'the detail is rolled back too');

  // Creating appends under a temporary id, then the server's.
  await page.fill('#js-new-title', 'Written from plain JavaScript');
  await control(demo.server.url, 'hold');
  await page.click('#js-create-button');
  await page.waitForSelector('#js-articles .row[data-id^="tmp-"]');
  await page.screenshot({ path: join(OUT, 'index-pending.png') });
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('#js-articles .row[data-id="101"]');
  assert.equal(await page.locator('#js-articles .row[data-id^="tmp-"]').count(), 0);
  assert.equal(await page.locator('#js-articles .row').count(), articles.length + 1);
  await page.screenshot({ path: join(OUT, 'index.png') });
  assert.deepEqual(
    errors.filter((e) => !/status of 500/.test(e)),
    [],
  );
  await page.close();
});

test('index.html: the Inspector button opens df.inspect on the page controller, and closes it', {
  skip: !built && 'dist/datafetch.mjs is not built',
}, async () => {
  const { page, errors } = await openPage();
  const articles = await api(demo.server.url, 'articles');
  await page.waitForSelector('#js-articles .row');
  await page.click('#js-inspector');
  const panel = page.locator('datafetch-inspector');
  await panel.locator('button.toggle').click();
  const count = panel.locator('li[data-type="Article"] .count');
  await count.waitFor();
  assert.equal(await count.textContent(), String(articles.length));
  assert.equal(await panel.locator('section[data-section="results"] li[data-status="valid"]').count(), 1, 'the list result');
  await page.screenshot({ path: join(OUT, 'index-inspector.png') });
  await page.click('#js-inspector');
  assert.equal(await panel.count(), 0, 'the second click removes the panel');
  assert.equal(await page.getAttribute('#js-inspector', 'aria-pressed'), 'false');
  assert.deepEqual(errors, []);
  await page.close();
});
