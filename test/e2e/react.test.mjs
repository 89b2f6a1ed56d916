// End-to-end test of the React example (web/demo/react, served at /react/
// by the demo server): the articles (list, detail, optimistic publish and
// its rollback, create under a temporary id, delete), the counter's
// ordering under latency, and token pagination, driven in headless
// Chromium against the demo's REST API. What must be seen before the
// server answers is made to by holding requests at the server (control
// 'hold', then 'release' or 'unhold'); nothing waits for time to pass.
// Screenshots land in test/e2e/out/react-*.png.
//
// Run: ./build.sh test (stage e2e), or node --test test/e2e/react.test.mjs
// after ./build.sh build.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, REACT_EXAMPLE, api, control, held, watchErrors } from './server.mjs';
import { HANG_MS, useDemo } from './suite.mjs';

const demo = useDemo({
  ready: () => assert.ok(existsSync(join(REACT_EXAMPLE, 'app.js')), `${REACT_EXAMPLE} holds no app.js: build the React example (./build.sh build)`),
});

// The console error Chromium logs for a response the server was told to
// fail ('fail-next'): expected where a test fails a mutation.
const FAILED_MUTATION = /status of 500/;

// openExample resets the server's data and controls and opens the React
// example at hash (as '#/counter') in a fresh page, once datafetch has
// loaded.
async function openExample(hash = '') {
  await control(demo.server.url, 'reset');
  const page = await demo.browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(HANG_MS);
  const errors = watchErrors(page);
  await page.goto(new URL(`react/${hash}`, demo.server.url).href);
  await page.waitForSelector('#status[data-ready]');
  return { page, errors };
}

// release lets the held request seq proceed (its response, in mode
// 'response').
async function release(seq) {
  const r = await fetch(new URL(`rest/_control/release?seq=${seq}`, demo.server.url), { method: 'POST' });
  assert.equal(r.status, 204, `release ${seq}: ${await r.text()}`);
}

const row = (id) => `#articles .row[data-id="${id}"]`;

test('articles: list, detail, optimistic publish and its rollback, create with a temporary id, delete', async () => {
  const { page, errors } = await openExample();

  // The list is a useSuspense read of the API's articles.
  const articles = await api(demo.server.url, 'articles');
  await page.waitForSelector('#articles .row');
  assert.equal(await page.locator('#articles .row').count(), articles.length);
  assert.equal(await page.locator('#articles .row-title').first().textContent(), articles[0].title);
  assert.equal(await page.textContent('#article-count'), `${articles.length} articles`);

  // "Published, by title" is a useQuery of a Query over the stored
  // articles: the published ones, sorted by title, with their count.
  const published = (list) => list.filter((a) => a.published).sort((a, b) => a.title.localeCompare(b.title));
  const shownPublished = () => page.locator('#published li .row-title').allTextContents();
  const publishedBefore = published(articles);
  await page.waitForSelector(`#published-count:text-is("${publishedBefore.length} published")`);
  assert.deepEqual(
    await shownPublished(),
    publishedBefore.map((a) => a.title),
  );

  // The detail opens on a click (another useSuspense read).
  const four = articles.find((a) => a.id === '4');
  assert.equal(four.published, false, 'the seed has article 4 as a draft');
  await page.click(`${row(4)} .row-title`);
  await page.waitForSelector('#detail article[data-id="4"]');
  assert.equal(await page.textContent('#detail h3'), four.title);
  assert.equal(await page.getAttribute('#detail article', 'data-published'), 'false');

  // Publishing shows at once, in the list and the detail, while the
  // server holds the request.
  await control(demo.server.url, 'hold');
  await page.click(`${row(4)} .toggle`);
  await page.waitForSelector(`${row(4)}[data-published="true"]`);
  await page.waitForSelector('#detail article[data-published="true"]');
  // The query follows at once: one more published, 4 in title order.
  const publishedWith4 = published(articles.map((a) => (a.id === '4' ? { ...a, published: true } : a)));
  await page.waitForSelector(`#published-count:text-is("${publishedWith4.length} published")`);
  assert.equal(publishedWith4.length, publishedBefore.length + 1);
  assert.deepEqual(
    await shownPublished(),
    publishedWith4.map((a) => a.title),
  );
  assert.deepEqual(
    (await held(demo.server.url, 1)).map((h) => `${h.method} ${h.path}`),
    ['PATCH /articles/4'],
    'shown while the request is held, before the server ran it',
  );
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('#notice:text-matches("^Published")');
  assert.equal((await api(demo.server.url, 'articles/4')).published, true);

  // The server fails the next mutation: the unpublish shows at once, then
  // is rolled back, in the list and the detail.
  await page.click('#fail-next');
  await page.waitForSelector('#fail-next.armed');
  await control(demo.server.url, 'hold');
  await page.click(`${row(4)} .toggle`);
  await page.waitForSelector(`${row(4)}[data-published="false"]`);
  await page.waitForSelector('#detail article[data-published="false"]');
  await page.waitForSelector(`#published-count:text-is("${publishedBefore.length} published")`);
  await held(demo.server.url, 1);
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('#notice.bad:text-matches("rolled back")');
  await page.waitForSelector(`${row(4)}[data-published="true"]`);
  assert.equal(await page.getAttribute('#detail article', 'data-published'), 'true', 'the detail is rolled back too');
  await page.waitForSelector(`#published-count:text-is("${publishedWith4.length} published")`);
  assert.deepEqual(
    await shownPublished(),
    publishedWith4.map((a) => a.title),
    'the query is rolled back too',
  );
  assert.equal(await page.locator('#fail-next.armed').count(), 0, 'the failure was spent');
  assert.equal((await api(demo.server.url, 'articles/4')).published, true, 'the server changed nothing');

  // Create (getList.push): the article is in the list at once under a
  // temporary id, then under the id the server gave it.
  const title = 'Written with datafetch/react';
  await page.fill('#new-title', title);
  await control(demo.server.url, 'hold');
  await page.click('#create-button');
  await page.waitForSelector('#articles .row[data-id^="tmp-"]');
  assert.equal(await page.textContent('#articles .row[data-id^="tmp-"] .row-title'), title);
  assert.equal(await page.textContent('#articles .row[data-id^="tmp-"] .pk'), 'saving…');
  assert.equal(await page.textContent('#article-count'), `${articles.length + 1} articles`);
  assert.deepEqual(
    (await held(demo.server.url, 1)).map((h) => `${h.method} ${h.path}`),
    ['POST /articles'],
    'the push is shown while its request is held',
  );
  assert.equal(await page.textContent('#published-count'), `${publishedWith4.length} published`, 'a draft does not count');
  await page.screenshot({ path: join(OUT, 'react-articles-pending.png') });
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('#notice:text-matches("^Created")');
  const created = (await api(demo.server.url, 'articles')).find((a) => a.title === title);
  assert.ok(created, 'the server has the new article');
  await page.waitForSelector(`${row(created.id)}`);
  assert.equal(await page.locator('#articles .row[data-id^="tmp-"]').count(), 0, 'the temporary id is gone');
  assert.equal(await page.textContent(`${row(created.id)} .row-title`), title);
  assert.equal(await page.locator('#articles .row').count(), articles.length + 1);
  assert.match(await page.textContent('#notice'), new RegExp(`as #${created.id}\\.$`));

  // Delete: the row goes at once, before the server runs the request.
  await control(demo.server.url, 'hold');
  await page.click(`${row(2)} .delete`);
  await page.waitForSelector(row(2), { state: 'detached' });
  const publishedAfterDelete = publishedWith4.filter((a) => a.id !== '2');
  await page.waitForSelector(`#published-count:text-is("${publishedAfterDelete.length} published")`);
  assert.deepEqual(
    await shownPublished(),
    publishedAfterDelete.map((a) => a.title),
  );
  assert.deepEqual(
    (await held(demo.server.url, 1)).map((h) => `${h.method} ${h.path}`),
    ['DELETE /articles/2'],
  );
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('#notice:text-matches("^Deleted")');
  assert.equal(await page.locator('#articles .row').count(), articles.length);
  assert.ok(!(await api(demo.server.url, 'articles')).some((a) => a.id === '2'), 'the server deleted it');

  await page.click(`${row(created.id)} .row-title`);
  await page.waitForSelector(`#detail article[data-id="${created.id}"]`);
  await page.screenshot({ path: join(OUT, 'react-articles.png') });
  assert.deepEqual(
    errors.filter((e) => !FAILED_MUTATION.test(e)),
    [],
  );
  await page.close();
});

test('counter: optimistic +1s, and answers out of order never move the count back', async () => {
  const { page, errors } = await openExample('#/counter');
  const start = (await api(demo.server.url, 'api/count')).count;
  await page.waitForSelector(`#count:text-is("${start}")`);

  // Latency through the page's own control, then every response held:
  // each click's request reaches the server (and is applied, in click
  // order) before the next click, and its answer waits.
  const FIXED = 'ms=300';
  await page.selectOption('#latency', FIXED);
  await page.waitForSelector(`.netctl[data-latency="${FIXED}"]`);
  await control(demo.server.url, 'hold?mode=response');
  const clicks = 4;
  let answers = [];
  for (let i = 1; i <= clicks; i++) {
    await page.click('#increment');
    await page.waitForSelector(`#count:text-is("${start + i}")`); // +1 at once
    answers = await held(demo.server.url, i);
  }
  assert.equal(await page.getAttribute('#in-flight', 'data-n'), String(clicks));
  assert.deepEqual(
    answers.map((h) => `${h.method} ${h.path}`),
    Array(clicks).fill('POST /api/count/increment'),
  );

  // The answers arrive newest first: the first brings the final count,
  // and each older one after it is thrown away (Count's useIncoming).
  const final = String(start + clicks);
  for (const [i, h] of [...answers].reverse().entries()) {
    await release(h.seq);
    await page.waitForSelector(`#in-flight[data-n="${clicks - i - 1}"]`);
    assert.equal(await page.textContent('#count'), final, `after ${i + 1} answers the count is still ${final}`);
  }
  await control(demo.server.url, 'unhold');
  assert.equal((await api(demo.server.url, 'api/count')).count, start + clicks, "the server's count");
  const log = await page.locator('#counter-log li').allTextContents();
  assert.deepEqual(
    log,
    [4, 3, 2, 1].map((click, i) => `click #${click} answered ${['1st', '2nd', '3rd', '4th'][i]}; count shows ${final}`),
  );
  assert.equal(await page.locator('#counter-log li.reordered').count(), clicks, 'every answer came out of click order');
  await page.screenshot({ path: join(OUT, 'react-counter.png') });

  // Fast clicks with random latency, nothing held: whatever order the
  // answers take, the page ends at the server's count.
  const RANDOM = 'ms=0&jitter=1000';
  await page.selectOption('#latency', RANDOM);
  await page.waitForSelector(`.netctl[data-latency="${RANDOM}"]`);
  const more = 6;
  for (let i = 0; i < more; i++) await page.click('#increment', { delay: 0 });
  await page.waitForSelector('#in-flight[data-n="0"]');
  const counted = (await api(demo.server.url, 'api/count')).count;
  assert.equal(counted, start + clicks + more);
  assert.equal(await page.textContent('#count'), String(counted), "the page ends at the server's count");
  assert.deepEqual(errors, []);
  await page.close();
});

test('posts: token pagination forward and back, and the infinite list', async () => {
  const { page, errors } = await openExample('#/posts');
  const ids = () => page.locator('#paged .post-row').evaluateAll((rows) => rows.map((r) => r.dataset.id));
  await page.waitForSelector('#paged .post-row');
  assert.deepEqual(await ids(), ['1', '2', '3', '4', '5']);
  assert.equal(await page.locator('#prev-page').isDisabled(), true, 'no page before the first');

  await page.click('#next-page');
  await page.waitForSelector('#paged .post-row[data-id="6"]');
  assert.equal(await page.textContent('#page-number'), 'page 2');
  await page.click('#next-page');
  await page.waitForSelector('#paged .post-row[data-id="11"]');
  assert.equal(await page.textContent('#page-number'), 'page 3');

  // A page that is not cached is fetched in a transition: while the
  // server holds it, the page shown stays. Its param is the token page 3
  // gave, a URL.
  await control(demo.server.url, 'hold');
  await page.click('#next-page');
  assert.deepEqual(
    (await held(demo.server.url, 1)).map((h) => `${h.method} ${decodeURIComponent(h.path)}`),
    ['GET /posts?page=/rest/posts?page=4'],
  );
  assert.deepEqual(await ids(), ['11', '12', '13', '14', '15'], 'page 3 stays while page 4 loads');
  await control(demo.server.url, 'unhold');
  await page.waitForSelector('#paged .post-row[data-id="16"]');
  assert.equal(await page.textContent('#page-number'), 'page 4');

  // Back: the pages seen are cached, shown while the server holds every
  // request.
  await control(demo.server.url, 'hold');
  await page.click('#prev-page');
  await page.waitForSelector('#paged .post-row[data-id="11"]');
  await page.click('#prev-page');
  await page.waitForSelector('#paged .post-row[data-id="6"]');
  assert.equal(await page.textContent('#page-number'), 'page 2');
  await control(demo.server.url, 'unhold');
  await page.click('#prev-page');
  await page.waitForSelector('#paged .post-row[data-id="1"]');
  assert.equal(await page.locator('#prev-page').isDisabled(), true);

  // The infinite list grows a page at a time until the last.
  const posts = 23; // the seed's
  assert.equal(await page.locator('#feed .post-row').count(), 5);
  for (let want = 10; !(await page.locator('#list-end').count()); want += 5) {
    await page.click('#load-more');
    await page.waitForFunction((n) => document.querySelectorAll('#feed .post-row').length >= n, Math.min(want, posts));
  }
  assert.equal(await page.locator('#feed .post-row').count(), posts, 'every post, each once');
  assert.equal(await page.textContent('#feed-count'), `${posts} posts`);
  await page.screenshot({ path: join(OUT, 'react-posts.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
