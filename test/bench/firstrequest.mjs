// Time to first request and to first data on a first visit: datafetch
// against data-client, the same page, the same server (issue 21, item 5).
// A benchmark script, not a test: it prints figures and fails only when a
// page breaks.
//
//   node test/bench/firstrequest.mjs
//   FIRSTREQ_RUNS=15 FIRSTREQ_N=1000 node test/bench/firstrequest.mjs
//   FIRSTREQ_THROTTLE=40,20000 node test/bench/firstrequest.mjs   # RTT ms, kbit/s down
//   FIRSTREQ_DIST=/path/to/another/dist node test/bench/firstrequest.mjs
//   FIRSTREQ_BASE=/path/to/an/older/dist node test/bench/firstrequest.mjs
//
// Each app is bundled with esbuild (minified, as an app ships):
// first-datafetch.mjs imports 'datafetch' (dist/, or FIRSTREQ_DIST) and
// reads a list with a top-level Controller, nothing awaited before;
// first-dataclient.mjs does the same read with @data-client/core 0.10 and
// @data-client/rest 0.9.9 (the versions bench.mjs uses). One server serves
// the page (/?lib=datafetch|dataclient: the same HTML, only the script
// differs), the bundles, datafetch.wasm (beside the bundles' folder, where
// load() looks by default) and the API (GET /api/articles: N articles of
// data.mjs), compressed with gzip as a production server would.
//
// Each run opens the page in a fresh browser context (no HTTP cache, no
// compiled code) and records, from navigation:
//   request  the API request's arrival at the server, minus the page
//            request's arrival (one clock: the server's)
//   fetch    the API request's startTime in the page (Resource Timing:
//            when fetch was called)
//   sent     its requestStart (when the browser sent it)
//   answered its responseEnd
//   wasm     datafetch.wasm's responseEnd in the page (datafetch only)
//   data     the list shown (the app's performance.now() after rendering)
// The libraries alternate run by run, each starting first in half the runs;
// a warm-up visit of each comes first. It prints each run, the medians, the
// difference and the ratio, and writes out/firstrequest.json.
// FIRSTREQ_BASE adds a third app, the same datafetch app bundled from
// another build of dist/ (a "before"), interleaved with the other two.

import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../browser/launch.mjs';
import { articlesText } from './data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const OUT = join(here, 'out');
const DIST = resolve(process.env.FIRSTREQ_DIST ?? join(ROOT, 'dist'));
const RUNS = Number(process.env.FIRSTREQ_RUNS ?? 11);
const N = Number(process.env.FIRSTREQ_N ?? 100);
const THROTTLE = process.env.FIRSTREQ_THROTTLE;
const BASE = process.env.FIRSTREQ_BASE ? resolve(process.env.FIRSTREQ_BASE) : undefined;
const LIBS = BASE === undefined ? ['dataclient', 'datafetch'] : ['dataclient', 'datafetch', 'base'];
const LABEL = { dataclient: 'data-client', datafetch: 'datafetch', base: 'datafetch (base)' };
// Each app's bundle (under out/) and the dist/ its datafetch comes from;
// datafetch.wasm is served beside the bundle's folder.
const APPS = {
  dataclient: { entry: 'first-dataclient.mjs', bundle: 'first-dataclient.js', dist: DIST },
  datafetch: { entry: 'first-datafetch.mjs', bundle: 'first-datafetch.js', dist: DIST },
  base: { entry: 'first-datafetch.mjs', bundle: 'base/first-datafetch.js', dist: BASE },
};
const TIMEOUT = 120_000;

function log(msg) {
  process.stderr.write(`firstrequest: ${msg}\n`);
}

function median(xs) {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// ------------------------------------------------------------ bundles

async function bundle() {
  const esbuild = await import('esbuild');
  mkdirSync(OUT, { recursive: true });
  for (const lib of LIBS) {
    const { entry, bundle: out, dist: from } = APPS[lib];
    if (!existsSync(join(from, 'datafetch.mjs'))) throw new Error(`${from}/datafetch.mjs does not exist: run ./build.sh first`);
    // 'datafetch' is the package in that dist/, as an app's bundler resolves it.
    const dist = {
      name: 'datafetch-dist',
      setup(build) {
        build.onResolve({ filter: /^datafetch$/ }, () => ({ path: join(from, 'datafetch.mjs') }));
      },
    };
    await esbuild.build({
      entryPoints: [join(here, entry)],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [dist],
      outfile: join(OUT, out),
      logLevel: 'warning',
    });
  }
}

// ------------------------------------------------------------ server

const PAGE = (lib) => `<!doctype html>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<title>first request</title>
<ul id="list"></ul>
<script type="module" src="/out/${APPS[lib].bundle}"></script>
`;

// A compressed body (gzip, level 6) with its type, made once.
function asset(body, type) {
  const raw = Buffer.from(body);
  return { raw, gz: gzipSync(raw, { level: 6 }), type };
}

// serve runs the server in this process (a child of the runner's, so that
// the browser driver's work never delays a request's arrival): it tells
// the parent {url, sizes}, and answers each 'take' message with what it
// saw of the last visit.
async function serve() {
  const assets = new Map([['/api/articles', asset(articlesText(N), 'application/json')]]);
  for (const lib of LIBS) {
    const { bundle: out, dist: from } = APPS[lib];
    assets.set(`/out/${out}`, asset(readFileSync(join(OUT, out)), 'text/javascript; charset=utf-8'));
    // Where load() looks first by default: beside the bundle (the module
    // that import.meta.url names once bundled). Beside the bundle's folder,
    // out/base/'s wasm was out/datafetch.wasm, which the datafetch app
    // loads first: with FIRSTREQ_BASE both apps ran the base's wasm.
    const wasm = new URL('./datafetch.wasm', `http://x/out/${out}`).pathname;
    if (lib !== 'dataclient') assets.set(wasm, asset(readFileSync(join(from, 'datafetch.wasm')), 'application/wasm'));
  }
  const pages = new Map(LIBS.map((lib) => [lib, asset(PAGE(lib), 'text/html; charset=utf-8')]));
  // What the server saw of the visit in progress (one at a time).
  let visit;
  const server = createServer((req, res) => {
    const t = performance.now();
    const url = new URL(req.url, 'http://x');
    let a;
    if (url.pathname === '/') {
      a = pages.get(url.searchParams.get('lib'));
      visit = { page: t, api: undefined, apiCount: 0 };
    } else {
      a = assets.get(url.pathname);
      if (url.pathname === '/api/articles' && visit !== undefined) {
        visit.api ??= t;
        visit.apiCount++;
      }
    }
    if (a === undefined || req.method !== 'GET') {
      res.writeHead(404).end('not found');
      return;
    }
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const body = gzip ? a.gz : a.raw;
    const headers = { 'Content-Type': a.type, 'Content-Length': body.length, 'Cache-Control': 'no-cache' };
    if (gzip) headers['Content-Encoding'] = 'gzip';
    res.writeHead(200, headers).end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  process.on('message', (m) => {
    if (m === 'take') {
      process.send({ visit: visit ?? null });
      visit = undefined;
    } else if (m === 'close') {
      server.closeAllConnections?.();
      server.close(() => process.disconnect());
    }
  });
  process.send({
    url: `http://127.0.0.1:${server.address().port}/`,
    sizes: Object.fromEntries([...assets].map(([path, a]) => [path, { raw: a.raw.length, gzip: a.gz.length }])),
  });
}

// startServer starts serve() in a child process and returns {url, sizes,
// takeVisit(), close()}.
async function startServer() {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () =>
    new Promise((resolveMessage, reject) => {
      const onExit = (code) => reject(new Error(`the server exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (m) => {
        child.off('exit', onExit);
        resolveMessage(m);
      });
    });
  const { url, sizes } = await next();
  return {
    url,
    sizes,
    async takeVisit() {
      const answer = next();
      child.send('take');
      return (await answer).visit ?? undefined;
    },
    close: () =>
      new Promise((r) => {
        child.once('exit', () => r());
        child.send('close');
      }),
  };
}

// ------------------------------------------------------------ visits

async function visitOnce(browser, server, lib) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.stack || e.message));
  try {
    if (THROTTLE) {
      const [latency, kbps] = THROTTLE.split(',').map(Number);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      const bytes = (kbps * 1000) / 8;
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput: bytes, uploadThroughput: bytes });
    }
    await page.goto(`${server.url}?lib=${lib}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.firstData !== undefined, undefined, { timeout: TIMEOUT });
    const got = await page.evaluate(() => {
      const entries = performance.getEntriesByType('resource');
      const api = entries.find((e) => new URL(e.name).pathname === '/api/articles');
      const wasm = entries.find((e) => new URL(e.name).pathname.endsWith('/datafetch.wasm'));
      return {
        ...window.firstData,
        fetch: api ? api.startTime : Number.NaN,
        sent: api ? api.requestStart : Number.NaN,
        answered: api ? api.responseEnd : Number.NaN,
        wasm: wasm ? wasm.responseEnd : Number.NaN,
      };
    });
    const seen = await server.takeVisit();
    if (got.error !== undefined) throw new Error(`${lib}: the page failed: ${got.error}`);
    if (errors.length > 0) throw new Error(`${lib}: page errors: ${errors.join('\n')}`);
    if (got.count !== N) throw new Error(`${lib}: showed ${got.count} articles, want ${N}`);
    if (seen?.api === undefined) throw new Error(`${lib}: the server saw no API request`);
    if (seen.apiCount !== 1) throw new Error(`${lib}: the server saw ${seen.apiCount} API requests, want 1`);
    return { request: seen.api - seen.page, fetch: got.fetch, sent: got.sent, answered: got.answered, wasm: got.wasm, data: got.at };
  } finally {
    await context.close();
  }
}

const fmt = (v) => (Number.isNaN(v) ? '-' : v.toFixed(1));
const COLUMNS = ['request', 'fetch', 'sent', 'answered', 'wasm', 'data'];

async function main() {
  log(`bundling the apps (datafetch from ${DIST})`);
  await bundle();
  const server = await startServer();
  const browser = await launchChromium();
  const runs = Object.fromEntries(LIBS.map((lib) => [lib, []]));
  try {
    for (const lib of LIBS) await visitOnce(browser, server, lib); // warm-up: the server, the OS's file cache
    for (let i = 0; i < RUNS; i++) {
      // Each app first in turn.
      const order = LIBS.map((_, k) => LIBS[(i + k) % LIBS.length]);
      for (const lib of order) {
        const r = await visitOnce(browser, server, lib);
        runs[lib].push(r);
        log(`run ${i + 1} ${LABEL[lib].padEnd(16)} ${COLUMNS.map((c) => `${c} ${fmt(r[c])}`).join('  ')}`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const medians = Object.fromEntries(LIBS.map((lib) => [lib, Object.fromEntries(COLUMNS.map((c) => [c, median(runs[lib].map((r) => r[c]))]))]));
  const df = medians.datafetch;
  const dc = medians.dataclient;
  const sizes = server.sizes;
  const kb = (path) => `${(sizes[path].gzip / 1024).toFixed(0)} KiB gzip`;
  console.log(
    `\nfirst visit, ms from navigation (medians of ${RUNS} runs each; N = ${N} articles${THROTTLE ? `; throttled to ${THROTTLE.replace(',', ' ms RTT, ')} kbit/s` : '; no throttling'})`,
  );
  console.log(
    `bundles: data-client ${kb('/out/first-dataclient.js')}, datafetch ${kb('/out/first-datafetch.js')} + datafetch.wasm ${kb('/out/datafetch.wasm')}`,
  );
  if (BASE !== undefined) console.log(`datafetch (base): ${BASE}`);
  console.log(`${''.padEnd(26)}${COLUMNS.map((c) => c.padStart(9)).join('')}`);
  for (const lib of LIBS) console.log(`${LABEL[lib].padEnd(26)}${COLUMNS.map((c) => fmt(medians[lib][c]).padStart(9)).join('')}`);
  const compare = (name, a, b) => {
    console.log(`${`${name} −`.padEnd(26)}${COLUMNS.map((c) => fmt(a[c] - b[c]).padStart(9)).join('')}`);
    console.log(`${`${name} /`.padEnd(26)}${COLUMNS.map((c) => (Number.isNaN(a[c] / b[c]) ? '-' : (a[c] / b[c]).toFixed(2)).padStart(9)).join('')}`);
  };
  compare('datafetch, data-client', df, dc);
  if (BASE !== undefined) compare('datafetch, base', df, medians.base);
  const target = 50;
  const diff = df.request - dc.request;
  console.log(`target: first request within ${target} ms of data-client's: ${diff <= target ? 'met' : 'MISSED'} (${fmt(diff)} ms)`);
  writeFileSync(
    join(OUT, 'firstrequest.json'),
    `${JSON.stringify({ N, RUNS, throttle: THROTTLE ?? null, dist: DIST, base: BASE ?? null, sizes, medians, runs }, null, 2)}\n`,
  );
}

if (process.argv[2] === '--serve') {
  serve();
} else {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
