// First visit of the go-app demo: how long a visitor with an empty cache
// waits for the first article row and for a running app, and how many
// bytes of wasm the browser downloads. A benchmark script, not a test: it
// prints figures and asserts nothing.
//
//   node test/bench/firstvisit.mjs            # starts the demo server itself
//   FIRSTVISIT_URL=http://127.0.0.1:8080/ node test/bench/firstvisit.mjs
//   FIRSTVISIT_RUNS=9 node test/bench/firstvisit.mjs
//   FIRSTVISIT_THROTTLE=1 node test/bench/firstvisit.mjs  # a 20 Mbit/s link, 40 ms each way
//
// Each run opens the demo in a fresh browser context (no HTTP cache, no
// service worker) and records, from navigation start:
//   row      the first article row (#articles .article-row) is in the page
//   wasm     app.wasm's response ended (download)
//   loader   go-app's loader (#app-wasm-loader) is gone: the wasm compiled,
//            Go started, the first render ran
//   ready    row and loader both done
//   click    a click on the first row's title is answered (the article page
//            shows, read from the cache): the app runs
//   articles when the page's own GET /rest/articles ended (- if none)
// and the wasm bytes transferred (compressed size, from Resource Timing).
// It prints each run and the medians. Needs the demo built (./build.sh build).

import { launchChromium } from '../browser/launch.mjs';
import { startServer } from '../e2e/server.mjs';

const RUNS = Number(process.env.FIRSTVISIT_RUNS ?? 7);
// FIRSTVISIT_THROTTLE: Chromium's network emulation (CDP) at issue 25's
// slow link: 20 Mbit/s down and up, 40 ms of latency a request.
const THROTTLE = process.env.FIRSTVISIT_THROTTLE ? { offline: false, latency: 40, downloadThroughput: 20e6 / 8, uploadThroughput: 20e6 / 8 } : undefined;
const MiB = 1024 * 1024;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// visit loads the demo once in a fresh context and returns its figures.
async function visit(browser, url) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  try {
    if (THROTTLE) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', THROTTLE);
    }
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector('#articles .article-row', { timeout: 120_000 });
    const row = await page.evaluate(() => performance.now());
    await page.waitForSelector('#app-wasm-loader', { state: 'detached', timeout: 120_000 });
    const loader = await page.evaluate(() => performance.now());
    const first = page.locator('#articles .article-row .row-title').first();
    const id = await page.locator('#articles .article-row').first().getAttribute('data-id');
    await first.click();
    await page.waitForSelector(`#article[data-id="${id}"]`, { timeout: 120_000 });
    const click = await page.evaluate(() => performance.now());
    const res = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => ({ name: e.name, end: e.responseEnd, size: e.transferSize })));
    const wasm = res.filter((e) => new URL(e.name).pathname.endsWith('.wasm'));
    const app = wasm.find((e) => new URL(e.name).pathname.endsWith('/app.wasm'));
    const articles = res.find((e) => new URL(e.name).pathname === '/rest/articles');
    return {
      row,
      wasm: app ? app.end : Number.NaN,
      loader,
      ready: Math.max(row, loader),
      click,
      articles: articles ? articles.end : Number.NaN,
      wasmMiB: wasm.reduce((n, e) => n + e.size, 0) / MiB,
    };
  } finally {
    await context.close();
  }
}

const fmt = (v, digits = 0) => (Number.isNaN(v) ? '-' : v.toFixed(digits));
const COLUMNS = ['row', 'wasm', 'loader', 'ready', 'click', 'articles'];

async function main() {
  let server;
  let url = process.env.FIRSTVISIT_URL;
  if (!url) {
    server = await startServer();
    url = server.url;
  }
  const browser = await launchChromium();
  try {
    await visit(browser, url); // warms the server (its compressed wasm), not the browser
    const runs = [];
    const link = THROTTLE ? ', 20 Mbit/s and 40 ms a request' : '';
    console.log(`first visit of ${url}${link}, ${RUNS} fresh contexts (ms from navigation start)`);
    console.log(`${['run', ...COLUMNS].map((c) => c.padStart(9)).join('')}  wasm MiB`);
    for (let i = 0; i < RUNS; i++) {
      const r = await visit(browser, url);
      runs.push(r);
      console.log(`${String(i + 1).padStart(9)}${COLUMNS.map((c) => fmt(r[c]).padStart(9)).join('')}  ${fmt(r.wasmMiB, 2)}`);
    }
    const med = (k) => median(runs.map((r) => r[k]));
    console.log(`${'median'.padStart(9)}${COLUMNS.map((c) => fmt(med(c)).padStart(9)).join('')}  ${fmt(med('wasmMiB'), 2)}`);
  } finally {
    await browser.close();
    await server?.stop();
  }
}

await main();
