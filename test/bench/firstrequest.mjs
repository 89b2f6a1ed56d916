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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath, launchChromium } from '../browser/launch.mjs';
import { articlesText } from './data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const OUT = join(here, 'out');
const DIST = resolve(process.env.FIRSTREQ_DIST ?? join(ROOT, 'dist'));
const RUNS = Number(process.env.FIRSTREQ_RUNS ?? 11);
const N = Number(process.env.FIRSTREQ_N ?? 100);
const THROTTLE = process.env.FIRSTREQ_THROTTLE;
// FIRSTREQ_PRELOAD=1: the datafetch pages hint datafetch.wasm in their HTML
// (<link rel="preload" as="fetch">), so that its download starts as the
// page is parsed rather than when the bundle calls load();
// FIRSTREQ_PRELOAD=datafetch (or base): only that app's page does (with
// FIRSTREQ_BASE, a before/after of the hint in one run).
const PRELOAD = new Set(process.env.FIRSTREQ_PRELOAD === '1' ? ['datafetch', 'base'] : (process.env.FIRSTREQ_PRELOAD ?? '').split(',').filter(Boolean));
// FIRSTREQ_VISIT=<n>: time the nth visit instead of the first: each run,
// in a fresh browser profile, visits the page n - 1 times (untimed),
// waiting REVISIT_WAIT_MS after each (Chromium stores a wasm module's
// compiled code beside its HTTP cache entry a while after it compiled, and
// only from the second visit on), then visits it again, timed; the server
// answers the revalidations (ETag) with 304.
const VISIT = Number(process.env.FIRSTREQ_VISIT ?? 1);
const REVISIT_WAIT_MS = 3000;
// FIRSTREQ_TRACE=1: record a Chromium trace of each datafetch visit and
// print, between consecutive marks, the page's main-thread CPU time (the
// marks' thread timestamps) and how much of it V8 spent compiling wasm
// functions on their first call (wasm.CompileLazy): figures that a busy
// machine moves far less than wall-clock ones. Tracing slows the visit:
// compare wall-clock figures only between runs that both trace.
const TRACE = process.env.FIRSTREQ_TRACE === '1';
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

// Where load() finds datafetch.wasm by default: beside the bundle.
const wasmPath = (lib) => new URL('./datafetch.wasm', `http://x/out/${APPS[lib].bundle}`).pathname;

const PAGE = (lib) => `<!doctype html>
<meta charset="utf-8">
<link rel="icon" href="data:,">
${PRELOAD.has(lib) ? `<link rel="preload" href="${wasmPath(lib)}" as="fetch" type="application/wasm" crossorigin>\n` : ''}<title>first request</title>
<ul id="list"></ul>
<script type="module" src="/out/${APPS[lib].bundle}"></script>
`;

// A compressed body (gzip, level 6) with its type, made once.
function asset(body, type) {
  const raw = Buffer.from(body);
  return { raw, gz: gzipSync(raw, { level: 6 }), type, etag: `"${createHash('sha256').update(raw).digest('hex').slice(0, 16)}"` };
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
    if (lib !== 'dataclient') assets.set(wasmPath(lib), asset(readFileSync(join(from, 'datafetch.wasm')), 'application/wasm'));
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
      visit = { page: t, api: undefined, apiCount: 0, wasmCount: 0 };
    } else {
      a = assets.get(url.pathname);
      if (url.pathname === '/api/articles' && visit !== undefined) {
        visit.api ??= t;
        visit.apiCount++;
      }
      // A preload the page's fetch did not reuse would be a second download.
      if (url.pathname.endsWith('/datafetch.wasm') && visit !== undefined) visit.wasmCount++;
    }
    if (a === undefined || req.method !== 'GET') {
      res.writeHead(404).end('not found');
      return;
    }
    // A revalidation (a second visit) of what the browser has.
    if (req.headers['if-none-match'] === a.etag && url.pathname !== '/api/articles') {
      res.writeHead(304, { ETag: a.etag, 'Cache-Control': 'no-cache' }).end();
      return;
    }
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const body = gzip ? a.gz : a.raw;
    const headers = { 'Content-Type': a.type, 'Content-Length': body.length, 'Cache-Control': 'no-cache', ETag: a.etag };
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
  if (VISIT > 1) return laterVisit(server, lib);
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    return await measureVisit(context, server, lib);
  } finally {
    await context.close();
  }
}

// laterVisit times the VISIT-th visit (FIRSTREQ_VISIT) in a fresh browser
// profile on disk: a Playwright browser context is off the record, where
// Chromium keeps no compiled code for the next visit.
async function laterVisit(server, lib) {
  const dir = mkdtempSync(join(tmpdir(), 'firstrequest-'));
  const extra = (process.env.CHROMIUM_ARGS ?? '').split(/\s+/).filter(Boolean);
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath(),
    headless: true,
    chromiumSandbox: false,
    args: [...CHROMIUM_FLAGS, ...extra],
    serviceWorkers: 'block',
  });
  try {
    // The page stays open while it waits: Chromium drops the compiled
    // code of a page that has gone.
    for (let i = 1; i < VISIT; i++) await measureVisit(context, server, lib, REVISIT_WAIT_MS);
    return await measureVisit(context, server, lib);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// startTrace starts recording a trace of the page (FIRSTREQ_TRACE) and
// resolves, once that has begun, to the list its events will be put in.
async function startTrace(cdp) {
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  await cdp.send('Tracing.start', { categories: 'blink.user_timing,v8.wasm', transferMode: 'ReportEvents' });
  return events;
}

// threadTimes ends the trace and returns, for each mark the page made, its
// main-thread time and the thread time of lazy wasm compilation before it
// ({name: [threadMs, lazyMs]}), both from the trace's start.
async function threadTimes(cdp, events) {
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.end');
  await done;
  const marks = events.filter((e) => e.cat === 'blink.user_timing' && typeof e.tts === 'number' && /^(js|go|app):/.test(e.name));
  const lazy = events.filter((e) => e.name === 'wasm.CompileLazy' && typeof e.tdur === 'number');
  return Object.fromEntries(marks.map((m) => [m.name, [m.tts / 1000, lazy.filter((e) => e.ts < m.ts).reduce((sum, e) => sum + e.tdur, 0) / 1000]]));
}

// measureVisit visits the page of lib in a new page of context and returns
// what it and the server saw; the page is closed stayMs after that.
async function measureVisit(context, server, lib, stayMs = 0) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.stack || e.message));
  try {
    const cdp = THROTTLE || (TRACE && lib !== 'dataclient') ? await context.newCDPSession(page) : undefined;
    const traced = TRACE && lib !== 'dataclient' ? startTrace(cdp) : undefined;
    if (THROTTLE) {
      const [latency, kbps] = THROTTLE.split(',').map(Number);
      await cdp.send('Network.enable');
      const bytes = (kbps * 1000) / 8;
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput: bytes, uploadThroughput: bytes });
    }
    await page.goto(`${server.url}?lib=${lib}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.firstData !== undefined, undefined, { timeout: TIMEOUT });
    const thread = traced === undefined ? undefined : await threadTimes(cdp, await traced);
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
        wasmStart: wasm ? wasm.startTime : Number.NaN,
        marks: performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]),
      };
    });
    const seen = await server.takeVisit();
    if (got.error !== undefined) throw new Error(`${lib}: the page failed: ${got.error}`);
    if (errors.length > 0) throw new Error(`${lib}: page errors: ${errors.join('\n')}`);
    if (got.count !== N) throw new Error(`${lib}: showed ${got.count} articles, want ${N}`);
    if (seen?.api === undefined) throw new Error(`${lib}: the server saw no API request`);
    if (seen.apiCount !== 1) throw new Error(`${lib}: the server saw ${seen.apiCount} API requests, want 1`);
    if (seen.wasmCount > 1) throw new Error(`${lib}: the server saw ${seen.wasmCount} requests of datafetch.wasm, want at most 1`);
    // The wasm request's start and the page's performance marks (a build
    // instrumented with performance.mark, FIRSTREQ_DIST), by name.
    const marks = Object.fromEntries([
      ['api fetch', got.fetch],
      ['api end', got.answered],
      ['wasm fetch', got.wasmStart],
      ['wasm end', got.wasm],
      ['data shown', got.at],
      ...got.marks,
    ]);
    return { request: seen.api - seen.page, fetch: got.fetch, sent: got.sent, answered: got.answered, wasm: got.wasm, data: got.at, marks, thread };
  } finally {
    if (stayMs > 0) await new Promise((r) => setTimeout(r, stayMs));
    await page.close();
  }
}

// printMarks prints, for each datafetch app, the marks the page made (and
// the wasm and API requests' start and end), in the order of their
// medians, with the median time of each from navigation and the median,
// over runs, of its step from the mark before it in the same run (steps
// taken within a run move less than differences of medians): where the
// time between the wasm's arrival and the data shown goes, in a build
// instrumented with performance.mark.
function printMarks(runs) {
  for (const lib of LIBS) {
    if (lib === 'dataclient') continue;
    const names = [...new Set(runs[lib].flatMap((r) => Object.keys(r.marks)))];
    if (names.length <= 5) continue;
    const at = (name) => median(runs[lib].map((r) => r.marks[name] ?? Number.NaN));
    const order = names.map((name) => [name, at(name)]).sort((a, b) => a[1] - b[1]);
    console.log(`\n${LABEL[lib]}: marks (ms from navigation, and step from the mark above; medians over runs)`);
    order.forEach(([name, t], i) => {
      const before = order[i - 1]?.[0];
      const step = before === undefined ? t : median(runs[lib].map((r) => (r.marks[name] ?? Number.NaN) - (r.marks[before] ?? Number.NaN)));
      console.log(`  ${name.padEnd(24)}${fmt(t).padStart(9)}${fmt(step).padStart(9)}`);
    });
  }
}

// printThreadTimes prints, for each datafetch app, the medians over runs of
// the main thread's CPU time between consecutive marks and of the lazy
// wasm compilation in it (FIRSTREQ_TRACE).
function printThreadTimes(runs) {
  for (const lib of LIBS) {
    if (lib === 'dataclient') continue;
    const names = [...new Set(runs[lib].flatMap((r) => Object.keys(r.thread ?? {})))];
    if (names.length < 2) continue;
    const at = (name) => median(runs[lib].map((r) => r.marks[name] ?? Number.NaN));
    const order = names.sort((a, b) => at(a) - at(b));
    console.log(`\n${LABEL[lib]}: main-thread CPU ms from the mark above (of it compiling wasm on first call; medians over runs)`);
    let total = 0;
    let totalLazy = 0;
    for (let i = 1; i < order.length; i++) {
      const step = (k) => median(runs[lib].map((r) => (r.thread?.[order[i]]?.[k] ?? Number.NaN) - (r.thread?.[order[i - 1]]?.[k] ?? Number.NaN)));
      const [cpu, lazy] = [step(0), step(1)];
      total += cpu;
      totalLazy += lazy;
      console.log(`  ${order[i].padEnd(24)}${fmt(cpu).padStart(9)}${fmt(lazy).padStart(9)}`);
    }
    console.log(`  ${'sum of the steps'.padEnd(24)}${fmt(total).padStart(9)}${fmt(totalLazy).padStart(9)}`);
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
    `\n${VISIT > 1 ? `visit ${VISIT}` : 'first visit'}${PRELOAD.size > 0 ? ` (datafetch.wasm preloaded by the page: ${[...PRELOAD].join(', ')})` : ''}, ms from navigation (medians of ${RUNS} runs each; N = ${N} articles${THROTTLE ? `; throttled to ${THROTTLE.replace(',', ' ms RTT, ')} kbit/s` : '; no throttling'})`,
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
  printMarks(runs);
  if (TRACE) printThreadTimes(runs);
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
