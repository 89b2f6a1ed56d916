// End-to-end tests of the go-app demo (web/demo/app, web/demo/ui) in headless
// Chromium: the demo server runs on a random port, each test opens a fresh
// page and waits for go-app's wasm loader to go away (the server
// pre-renders every page, so seeing HTML proves nothing), then drives the
// demo like a user. Screenshots land in test/e2e/out/.
//
// Run: ./build.sh test (stage e2e), or node --test test/e2e/

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, brotliCompressSync, constants as zlib } from 'node:zlib';
import { APP_WASM, OUT, ROOT, api, control, held, watchErrors } from './server.mjs';
import { HANG_MS, useDemo } from './suite.mjs';

const demo = useDemo();
const metrics = {};

after(() => {
  writeFileSync(join(OUT, 'metrics.json'), JSON.stringify(metrics, null, 2) + '\n');
  console.log('demo metrics:', JSON.stringify(metrics));
});

const VIEWPORT = { width: 1400, height: 900 };

// Every wait of a page is bounded by HANG_MS: a guard against hangs, never a
// check of speed (a loaded machine can take many seconds for a click). What
// must happen before the server answers is made to by holding the request
// at the server (control 'hold', then 'unhold'), not by latency.

// openDemo resets the server's data and controls, loads path in a fresh
// browser context and waits until the wasm has taken over the page.
async function openDemo(path = '') {
  await control(demo.server.url, 'reset');
  const page = await demo.browser.newPage({ viewport: VIEWPORT });
  page.setDefaultTimeout(HANG_MS);
  const errors = watchErrors(page);
  const start = performance.now();
  await page.goto(new URL(path, demo.server.url).href);
  await page.waitForSelector('#app-wasm-loader', { state: 'detached' });
  return { page, errors, loadMs: Math.round(performance.now() - start) };
}

// setLatency moves the latency slider and, when random is given, sets the
// random box, then waits until the server has taken the setting.
async function setLatency(page, ms, random) {
  if (random !== undefined) await page.setChecked('#latency-random', random);
  await page.locator('#latency').fill(String(ms));
  await page.waitForSelector('.netctl[data-busy="false"]');
}

async function shot(page, name) {
  await page.screenshot({ path: join(OUT, name) });
}

function kib(n) {
  return Math.round(n / 1024);
}

test('the go-app demo loads and renders the articles from the API', async () => {
  const html = await (await fetch(demo.server.url)).text();
  assert.match(html, /id="app-wasm-loader"/, "the page is pre-rendered with go-app's loader");
  assert.doesNotMatch(html, /class="skeleton"/, 'pre-rendered with the data (goapp.Prerender), not placeholders');
  assert.match(html, /class="row-title"/, 'the rows are in the page');
  assert.doesNotMatch(html, /(src|href)="https?:|raw\.githubusercontent/, 'no resource points at the internet');

  const { page, errors, loadMs } = await openDemo();
  metrics.loadMs = loadMs;
  const wasm = readFileSync(APP_WASM);
  metrics.appWasm = {
    rawKiB: kib(statSync(APP_WASM).size),
    gzip9KiB: kib(gzipSync(wasm, { level: 9 }).length),
    brotli9KiB: kib(
      brotliCompressSync(wasm, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: wasm.length },
      }).length,
    ),
  };

  const articles = await api(demo.server.url, 'articles');
  await page.waitForSelector('#articles .article-row');
  assert.equal(await page.locator('#articles .article-row').count(), articles.length);
  assert.equal(await page.locator('#articles .row-title').first().textContent(), articles[0].title);
  assert.equal(await page.locator('#article-count').textContent(), `${articles.length} articles`);

  // The inspector panel reads the store: one Article per record.
  await page.waitForSelector(`#inspector li[data-type="Article"] .insp-count:text-is("${articles.length}")`);
  assert.ok((await page.locator('#inspector .insp-results li[data-status="valid"]').count()) >= 1);

  // useSuspense semantics: a stale result stays on screen while it
  // revalidates (held at the server until checked); an invalidated one
  // shows the placeholder.
  await control(demo.server.url, 'hold');
  await page.click('.revalidate');
  await page.waitForSelector('.card-head .refreshing');
  assert.equal(await page.locator('#articles .article-row').count(), articles.length, 'stale rows stay');
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('.card-head .refreshing', { state: 'detached' });
  await control(demo.server.url, 'hold');
  await page.click('.invalidate');
  await page.waitForSelector('.card .skeleton');
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('#articles .article-row');

  await shot(page, 'articles.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('creating an article with 1 s latency shows it at once, then under its server id', async () => {
  const { page, errors } = await openDemo();
  await page.waitForSelector('#articles .article-row');
  await setLatency(page, 1000);

  const title = 'Caching in the browser, from Go';
  await page.fill('#new-title', title);
  await page.fill('#new-content', 'Created by the end-to-end test with a second of latency.');
  // The server holds the request until the pending state has been checked,
  // so a slow machine cannot let the answer overtake the assertions.
  await control(demo.server.url, 'hold');
  const start = performance.now();
  await page.click('#create');
  const pending = page.locator('.article-row[data-id^="tmp-"]');
  await pending.waitFor();
  const shownMs = performance.now() - start;
  // getList.push: one POST to the list's path, no update function and no
  // refetch of the list (the server holds it, so it has not run yet).
  assert.deepEqual(
    (await held(demo.server.url, 1)).map((h) => `${h.method} ${h.path}`),
    ['POST /articles'],
    'the create is a push to the collection',
  );
  assert.equal(await pending.locator('.row-title').textContent(), title);
  assert.equal(await pending.locator('.pk').textContent(), 'saving…');
  assert.ok(await pending.locator('.toggle-publish').isDisabled(), 'no pk-based actions on a temporary id');
  assert.equal(await page.inputValue('#new-title'), '', 'the form is cleared');
  // The inspector shows the optimistic update waiting in the queue.
  await page.waitForSelector('#insp-optimistic strong:text-is("1")');
  await pending.scrollIntoViewIfNeeded();
  await shot(page, 'create-pending.png');
  if (process.env.UPDATE_DOCS_SCREENSHOT) {
    copyFileSync(join(OUT, 'create-pending.png'), join(ROOT, 'docs', 'demo.png'));
  }
  metrics.optimisticCreateMs = Math.round(shownMs);
  await control(demo.server.url, 'unhold');

  const saved = page.locator('.article-row[data-id="101"]');
  await saved.waitFor();
  assert.ok(performance.now() - start >= 1000, 'the server id arrives after the latency');
  assert.equal(await saved.locator('.pk').textContent(), '#101');
  assert.equal(await saved.locator('.row-title').textContent(), title);
  assert.equal(await page.locator('.article-row[data-id^="tmp-"]').count(), 0, 'the temporary row is replaced, not kept');
  await page.waitForSelector('#insp-optimistic strong:text-is("0")');
  const created = await api(demo.server.url, 'articles/101');
  assert.equal(created.title, title);
  const counts = await api(demo.server.url, '_control/counts');
  // The list came with the page (the server's snapshot) and was not
  // refetched after the push.
  assert.equal(counts['GET /articles'] ?? 0, 0, `the list was not fetched: ${JSON.stringify(counts)}`);
  await shot(page, 'create-saved.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a forced server failure rolls a publish toggle back', async () => {
  const { page, errors } = await openDemo();
  const expected = (e) => !/status of 500/.test(e); // the injected failure itself
  const row = page.locator('.article-row[data-id="4"]');
  await row.waitFor();
  assert.equal(await row.getAttribute('data-published'), 'false');
  await page.click('#fail-next');
  await page.waitForSelector('#fail-next.armed');
  await page.waitForSelector('.netctl[data-busy="false"]');

  // The server holds the request: "before the server answered" and "after
  // it failed" are told apart by the release, not by a clock.
  await control(demo.server.url, 'hold');
  await row.locator('.toggle-publish').click();
  await page.waitForSelector('.article-row[data-id="4"][data-published="true"]');
  assert.ok(
    (await held(demo.server.url, 1)).some((h) => `${h.method} ${h.path}` === 'PATCH /articles/4'),
    'the toggle is optimistic: the server holds the request, not run yet',
  );
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('.article-row[data-id="4"][data-published="false"]');
  const notice = page.locator('.notice-error');
  await notice.waitFor();
  assert.match(await notice.textContent(), /rolled back/);
  assert.match(await notice.textContent(), /injected failure/);
  await page.waitForSelector('#fail-next:not(.armed)');
  assert.equal((await api(demo.server.url, 'articles/4')).published, false);
  await shot(page, 'rollback.png');

  // Without a failure the same toggle sticks.
  await row.locator('.toggle-publish').click();
  await page.waitForSelector('.article-row[data-id="4"][data-published="true"]');
  await page.waitForSelector('#insp-optimistic strong:text-is("0")');
  assert.equal((await api(demo.server.url, 'articles/4')).published, true);
  assert.deepEqual(errors.filter(expected), []);
  await page.close();
});

test('posts page forward and back, and the infinite list loads every page', async () => {
  const { page, errors } = await openDemo('posts');
  const first = () => page.locator('#paged .post-row').first().getAttribute('data-id');
  await page.waitForSelector('#paged .post-row');
  assert.equal(await first(), '1');
  assert.equal(await page.locator('#prev-page').isDisabled(), true);

  await page.click('#next-page');
  await page.waitForSelector('#paged .post-row[data-id="6"]');
  assert.equal(await page.locator('#page-number').textContent(), 'page 2');
  await page.click('#next-page');
  await page.waitForSelector('#paged .post-row[data-id="11"]');
  assert.equal(await page.locator('#page-number').textContent(), 'page 3');

  // Going back shows the cached page while the server holds every request:
  // it comes from the cache. (Page 1 is not: its token from page 2,
  // /posts?page=1, is another key than the first load's /posts.)
  await control(demo.server.url, 'hold');
  await page.click('#prev-page');
  await page.waitForSelector('#paged .post-row[data-id="6"]');
  await control(demo.server.url, 'unhold');
  await page.click('#prev-page');
  await page.waitForSelector('#paged .post-row[data-id="1"]');

  const loaded = () => page.locator('#infinite .post-row').count();
  assert.equal(await loaded(), 5);
  const posts = 23; // the seed
  for (let want = 10; !(await page.locator('#list-end').count()); want += 5) {
    await page.click('#load-more');
    await page.waitForFunction((n) => document.querySelectorAll('#infinite .post-row').length >= n, Math.min(want, posts));
  }
  assert.equal(await loaded(), posts, 'every post, each once');
  assert.equal(await page.locator('#infinite-count').textContent(), `${posts} posts`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'posts.png');

  // The cache inspector names each page by the link its token is.
  await page.click('.sidebar a[href="/cache"]');
  const labels = page.locator('#inspector .insp-results li .insp-key');
  await labels.filter({ hasText: /^getPosts \/posts\?page=3$/ }).waitFor();
  const pages = (await labels.allTextContents()).filter((t) => t.startsWith('getPosts '));
  assert.deepEqual(pages.sort(), ['getPosts /posts', 'getPosts /posts?page=1', 'getPosts /posts?page=2', 'getPosts /posts?page=3']);
  assert.deepEqual(errors, []);
  await page.close();
});

test("fast counter clicks with random latency end at the server's count", async () => {
  const { page, errors } = await openDemo('counter');
  await page.waitForSelector('#count:text-is("0")');
  await setLatency(page, 700, true);
  const clicks = 8;
  for (let i = 0; i < clicks; i++) await page.click('#increment', { delay: 0 });
  await page.waitForSelector('#in-flight[data-n="0"]');
  const counted = await api(demo.server.url, 'api/count');
  assert.equal(counted.count, clicks);
  assert.equal(await page.locator('#count').textContent(), String(clicks), "the page ends at the server's count");
  assert.equal(await page.locator('#counter-log li').count(), clicks);
  await shot(page, 'counter.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an article opened from the list shows at once, with no request for it', async () => {
  const { page, errors } = await openDemo();
  await page.waitForSelector('#articles .article-row[data-id="4"]');
  await page.click('.article-row[data-id="4"] .row-title');
  await page.waitForSelector('#article[data-id="4"]');
  const counts = await api(demo.server.url, '_control/counts');
  assert.equal(counts['GET /articles'], undefined, `the list came with the page: ${JSON.stringify(counts)}`);
  assert.equal(counts['GET /articles/4'], undefined, `the detail was read from the list's entity: ${JSON.stringify(counts)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the first article rows come with the page: no request for the list, and the app runs', async () => {
  await control(demo.server.url, 'reset');
  const page = await demo.browser.newPage({ viewport: VIEWPORT });
  page.setDefaultTimeout(HANG_MS);
  const errors = watchErrors(page);
  const requested = [];
  page.on('request', (r) => requested.push(`${r.method()} ${new URL(r.url()).pathname}`));
  await page.goto(demo.server.url);
  await page.waitForSelector('#app-wasm-loader', { state: 'detached' });
  const articles = await api(demo.server.url, 'articles');
  await page.waitForSelector('#articles .article-row');
  assert.equal(await page.locator('#articles .article-row').count(), articles.length);
  assert.equal(await page.locator('#articles .row-title').first().textContent(), articles[0].title);
  // The app runs on the hydrated cache: a click is answered from it.
  await page.click(`.article-row[data-id="${articles[0].id}"] .row-title`);
  await page.waitForSelector(`#article[data-id="${articles[0].id}"]`);
  assert.ok(!requested.includes('GET /rest/articles'), `the browser did not ask for the list: ${requested.join(', ')}`);
  const counts = await api(demo.server.url, '_control/counts');
  assert.equal(counts['GET /articles'], 1, `only this test's own GET was counted: ${JSON.stringify(counts)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the current user updates when made a manager from the team list', async () => {
  const { page, errors } = await openDemo('account');
  await page.waitForSelector('#current-user [data-manager="false"]');
  await page.click('#team .user-row[data-id="1"] .make-manager');
  await page.waitForSelector('#current-user [data-manager="true"]');
  assert.equal(await page.locator('#current-user .role').textContent(), 'manager');
  await page.waitForSelector('#insp-optimistic strong:text-is("0")');
  assert.equal((await api(demo.server.url, 'current_user/')).isManager, true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the cache inspector shows the entities the pages stored', async () => {
  const { page, errors } = await openDemo();
  await page.waitForSelector('#articles .article-row');
  for (const [href, ready] of [
    ['/comments', '#comments-wrapped .comment-row'],
    ['/birthdays', '#birthdays-7 .birthday-row'],
    ['/profiles', '.profile-row'],
    ['/cache', '#inspector'],
  ]) {
    await page.click(`.sidebar a[href="${href}"]`);
    await page.waitForSelector(ready);
  }
  const count = (type) => page.locator(`#inspector li[data-type="${type}"] .insp-count`).textContent();
  await page.waitForSelector('#inspector li[data-type="Profile"]');
  assert.equal(await count('Article'), '24');
  assert.equal(await count('Comment'), '5', 'plain and wrapped comments are the same 5 entities');
  assert.equal(await count('Birthday'), '8');
  assert.equal(await count('Profile'), '8');
  assert.equal(await page.locator('#inspector li[data-type="Article"] .insp-records tr').count(), 24);
  assert.ok((await page.locator('#inspector .insp-results li[data-status="valid"]').count()) >= 5);
  assert.equal(await page.locator('#insp-requests strong').textContent(), '0', 'nothing in flight');
  assert.equal(await page.locator('#insp-errors strong').textContent(), '0', 'no error');
  await shot(page, 'cache.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the author shows a placeholder on its line while the user loads', async () => {
  const { page, errors } = await openDemo();
  await page.waitForSelector('#articles .article-row[data-id="4"]');
  const article = await api(demo.server.url, 'articles/4');
  assert.ok(article.author, 'article 4 has an author');
  // The article comes from the list's entity; its author's GET is held.
  await control(demo.server.url, 'hold');
  await page.click('.article-row[data-id="4"] .row-title');
  await page.waitForSelector('#article[data-id="4"]');
  assert.deepEqual(
    (await held(demo.server.url, 1)).map((h) => `${h.method} ${h.path}`),
    [`GET /users/${article.author}`],
    'only the author is fetched',
  );
  const placeholder = page.locator('#article .author-placeholder');
  await placeholder.waitFor();
  assert.equal(await placeholder.getAttribute('aria-busy'), 'true');
  // The placeholder keeps the author's line: no gap of skeleton bars.
  const line = await page.locator('#article .author').boundingBox();
  const created = await page.locator('#article dd').nth(2).boundingBox();
  assert.ok(line.height <= created.height * 2, `author line ${line.height}px, a line ${created.height}px`);
  assert.equal(await page.locator('#article .skeleton').count(), 0, 'no block skeleton in the details');
  await shot(page, 'author-loading.png');
  await control(demo.server.url, 'unhold');
  const user = await api(demo.server.url, `users/${article.author}`);
  await page.waitForSelector(`#article .author-name:text-is("${user.name}")`);
  assert.equal(await placeholder.count(), 0);
  await shot(page, 'author-loaded.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a failed unpublish says unpublishing failed', async () => {
  const { page, errors } = await openDemo();
  const expected = (e) => !/status of 500/.test(e); // the injected failure itself
  const published = (await api(demo.server.url, 'articles')).find((a) => a.published);
  assert.ok(published, 'the seed has a published article');
  const row = page.locator(`.article-row[data-id="${published.id}"]`);
  await row.waitFor();
  assert.equal(await row.locator('.toggle-publish').textContent(), 'Unpublish');
  await page.click('#fail-next');
  await page.waitForSelector('#fail-next.armed');
  await page.waitForSelector('.netctl[data-busy="false"]');
  await row.locator('.toggle-publish').click();
  const notice = page.locator('.notice-error');
  await notice.waitFor();
  const text = await notice.textContent();
  assert.ok(text.includes(`Unpublishing “${published.title}” failed`), text);
  assert.doesNotMatch(text, /(^|[^n])Publishing/, text);
  await page.waitForSelector(`.article-row[data-id="${published.id}"][data-published="true"]`);
  await shot(page, 'unpublish-failed.png');
  assert.deepEqual(errors.filter(expected), []);
  await page.close();
});

test('profile rows are reached with Tab and opened with Enter', async () => {
  const { page, errors } = await openDemo('profiles');
  await page.waitForSelector('.profile-row');
  const profiles = await api(demo.server.url, 'profiles');
  const focused = () => page.evaluate(() => document.activeElement?.closest('.profile-row')?.dataset.id ?? null);
  // Tab through the page (sidebar, controls) until a profile row has focus.
  let id = null;
  for (let i = 0; i < 100 && id === null; i++) {
    await page.keyboard.press('Tab');
    id = await focused();
  }
  assert.equal(id, profiles[0].id, 'the first profile row is the first one Tab reaches');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`#profile-detail h3:text-is("${profiles[0].fullName}")`);
  await page.waitForSelector(`.profile-row[data-id="${profiles[0].id}"][aria-current="true"]`);
  await page.keyboard.press('Tab');
  assert.equal(await focused(), profiles[1].id, 'Tab moves to the next row');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`#profile-detail h3:text-is("${profiles[1].fullName}")`);
  await shot(page, 'profiles-keyboard.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the published-by-title view is a query whose count follows a publish', async () => {
  const { page, errors } = await openDemo();
  await page.waitForSelector('#articles .article-row');
  const articles = await api(demo.server.url, 'articles');
  const published = articles.filter((a) => a.published);
  const want = (list) => list.map((a) => a.title).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  await page.waitForSelector(`#published-count:text-is("${published.length} articles")`);
  assert.deepEqual(await page.locator('#published .row-title').allTextContents(), want(published), 'sorted by title');

  const draft = articles.find((a) => !a.published);
  await control(demo.server.url, 'hold');
  await page.click(`.article-row[data-id="${draft.id}"] .toggle-publish`);
  // Optimistic: the count moves before the server has answered.
  await page.waitForSelector(`#published-count:text-is("${published.length + 1} articles")`);
  await page.waitForSelector(`#published .published-row[data-id="${draft.id}"]`);
  assert.deepEqual(await page.locator('#published .row-title').allTextContents(), want([...published, draft]));
  assert.deepEqual(
    (await held(demo.server.url, 1)).map((h) => `${h.method} ${h.path}`),
    [`PATCH /articles/${draft.id}`],
    'the view made no request of its own',
  );
  await shot(page, 'published-view.png');
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('#insp-optimistic strong:text-is("0")');
  assert.equal(await page.locator('#published-count').textContent(), `${published.length + 1} articles`);
  assert.deepEqual(errors, []);
  await page.close();
});

// countsOf returns the API's request counts.
const countsOf = () => api(demo.server.url, '_control/counts');

test('a read survives "fail next 2 GETs": it retries and shows the data, the API counted 3 attempts', async () => {
  const { page, errors } = await openDemo();
  const expected = (e) => !/status of 503/.test(e); // the injected failures themselves
  await page.waitForSelector('#articles .article-row');
  await page.click('#fail-gets');
  await page.waitForSelector('.notice:has-text("The next 2 reads fail")');
  await page.waitForSelector('.netctl[data-busy="false"]');
  // A page whose list is not in the cache: its read fails twice, the page
  // keeps loading through the retries, then shows the data.
  await page.click('.sidebar a[href="/profiles"]');
  await page.waitForSelector('.notice:has-text("retry 1 of 2")');
  await page.waitForSelector('.notice:has-text("retry 2 of 2")');
  await page.waitForSelector('.profile-row');
  const counts = await countsOf();
  assert.equal(counts['GET /profiles'], 3, `two failed attempts and the one that succeeded: ${JSON.stringify(counts)}`);
  const profiles = await api(demo.server.url, 'profiles');
  assert.equal(await page.locator('.profile-row').count(), profiles.length);
  assert.equal(await page.locator('.notice-error').count(), 0, 'no error shown: the retries cured it');
  await shot(page, 'retry.png');
  assert.deepEqual(errors.filter(expected), []);
  await page.close();
});

test('with "Keep cache" on, a reload shows the data with no request', async () => {
  const { page, errors } = await openDemo('posts');
  await page.waitForSelector('#paged .post-row');
  assert.equal(await page.isChecked('#persist'), false, 'off by default');
  await page.check('#persist');
  // The snapshot is written (throttled) after the toggle: wait until the
  // posts are in it.
  await page.waitForFunction(() => (localStorage.getItem('datafetch-goapp-demo') ?? '').includes('"Post"'));
  await control(demo.server.url, 'reset'); // the counts from zero; the same seed
  await page.reload();
  await page.waitForSelector('#app-wasm-loader', { state: 'detached' });
  await page.waitForSelector('#paged .post-row[data-id="1"]');
  assert.equal(await page.isChecked('#persist'), true, 'the toggle is remembered');
  assert.equal(await page.locator('#paged .post-row').count(), 5);
  const counts = await countsOf();
  assert.deepEqual(counts, {}, `nothing was asked of the API: ${JSON.stringify(counts)}`);
  await shot(page, 'persisted-reload.png');

  // Off: what was kept is forgotten; a reload still shows the data with
  // no request, as the page comes with it (goapp.Prerender's snapshot).
  await page.uncheck('#persist');
  assert.equal(await page.evaluate(() => localStorage.getItem('datafetch-goapp-demo')), null);
  await page.reload();
  await page.waitForSelector('#app-wasm-loader', { state: 'detached' });
  await page.waitForSelector('#paged .post-row[data-id="1"]');
  assert.equal(await page.isChecked('#persist'), false, 'off is remembered');
  assert.deepEqual(await countsOf(), {}, 'the data came with the page');
  assert.deepEqual(errors, []);
  await page.close();
});

test('two tabs stay in sync: a publish in one shows in the other with no request', async () => {
  await control(demo.server.url, 'reset');
  const context = await demo.browser.newContext({ viewport: VIEWPORT });
  const open = async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(HANG_MS);
    const errors = watchErrors(page);
    await page.goto(demo.server.url);
    await page.waitForSelector('#app-wasm-loader', { state: 'detached' });
    await page.waitForSelector('#articles .article-row');
    return { page, errors };
  };
  const a = await open();
  const b = await open();
  const draft = (await api(demo.server.url, 'articles')).find((x) => !x.published);
  await control(demo.server.url, 'reset'); // counts from zero
  await a.page.click(`.article-row[data-id="${draft.id}"] .toggle-publish`);
  await a.page.waitForSelector('#insp-optimistic strong:text-is("0")');
  await b.page.waitForSelector(`.article-row[data-id="${draft.id}"][data-published="true"]`);
  const counts = await countsOf();
  assert.deepEqual(counts, { [`PATCH /articles/${draft.id}`]: 1 }, `only the publish reached the API: ${JSON.stringify(counts)}`);
  await b.page.bringToFront();
  await b.page.locator(`.article-row[data-id="${draft.id}"]`).scrollIntoViewIfNeeded();
  await shot(b.page, 'tabs-synced.png');
  assert.deepEqual([...a.errors, ...b.errors], []);
  await context.close();
});
