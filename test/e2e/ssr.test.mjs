// End-to-end test of the go-app demo's server rendering with data
// (web/goapp Prerender, Hydrate): every page is written by the server with
// its data and its cache snapshot, and the app resumes from it with no
// request, whether the page is opened on 127.0.0.1 (the host the server
// pre-renders with) or on localhost (another host name for the same API,
// whose keys would differ if they held the origin).
//
// Run: ./build.sh test e2e, or node --test test/e2e/ssr.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, control, watchErrors } from './server.mjs';
import { HANG_MS, useDemo } from './suite.mjs';

const demo = useDemo();

// The pages that read data. /cache shows the browser's own cache and reads
// nothing.
const PAGES = ['', 'articles/3', 'counter', 'posts', 'comments', 'profiles', 'birthdays', 'account'];

// The host names the page is opened on: the one the server pre-renders
// with, and another one for the same server.
const HOSTS = ['127.0.0.1', 'localhost'];

for (const host of HOSTS) {
  for (const path of PAGES) {
    test(`/${path} on ${host} renders with data on the server and resumes with no request`, async () => {
      await control(demo.server.url, 'reset'); // the counts from zero
      const url = new URL(path, demo.server.url);
      url.hostname = host;

      // The server's page: data, no placeholder, a snapshot.
      const html = await (await fetch(new URL(path, demo.server.url), { headers: { Accept: 'text/html' } })).text();
      assert.match(html, /<script type="application\/json" id="datafetch-snapshot">/);
      assert.doesNotMatch(html, /aria-busy="true"/, 'the server wrote the data, not a placeholder');

      const page = await demo.browser.newPage();
      page.setDefaultTimeout(HANG_MS);
      const errors = watchErrors(page);
      const requested = [];
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (u.pathname.startsWith('/rest/')) requested.push(`${r.method()} ${u.pathname}${u.search}`);
      });
      await page.goto(url.href);
      await page.waitForSelector('#app-wasm-loader', { state: 'detached' });
      // The app renders the page from its hydrated cache. A component
      // mounted inside another one's data (the article's author) shows its
      // placeholder for its first render, until its OnMount reads the
      // cache: on a busy machine the loader can be gone by then. So wait
      // for placeholders to go; that they go with no request is what the
      // counts below check.
      await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0, null, { timeout: HANG_MS });
      assert.equal(await page.locator('.error-box').count(), 0, 'no error');
      const results = Number(await page.locator('#insp-results strong').textContent());
      assert.ok(results > 0, "the cache holds the page's results");
      // Let the app run on past its first render: the inspector polls the
      // cache and counts down the results' time left; once a count has
      // moved, any request the app started at mount has reached the server.
      const first = await page.locator('.insp-results .insp-ttl').first().textContent();
      await page.waitForFunction((text) => document.querySelector('.insp-results .insp-ttl')?.textContent !== text, first, { timeout: HANG_MS });
      assert.equal(await page.locator('#insp-requests strong').textContent(), '0', 'nothing in flight');
      assert.deepEqual(requested, [], 'the browser asked the API for nothing');
      assert.deepEqual(await api(demo.server.url, '_control/counts'), {}, 'the API counted no request');
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
}
