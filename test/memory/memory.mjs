// Memory and lifetime of datafetch.wasm in headless Chromium.
//
//   node test/memory/memory.mjs        (./build.sh memory; part of ./build.sh test)
//
// A page loads dist/datafetch.mjs and runs 100,000 cycles of subscribe /
// fetch / unsubscribe / invalidate over a working set of 1,000 entities
// (items, each with one of 50 shared authors). Responses come from a
// controller `fetch` option that answers with a ready Response, so the
// cycles measure the library rather than the network; a shorter phase goes
// through the real fetch to a local data endpoint. At the start (after a
// warm-up that fills the working set), the middle and the end it prints:
//
//   - the JS heap after a full GC (CDP HeapProfiler.collectGarbage, then
//     Runtime.getHeapUsage);
//   - the Go heap: the bridge exposes no runtime.MemStats, so the page loads
//     test/memory/wasmstats, which is datafetch.wasm (the bridge, with the
//     collector settings of wasm/main.go) plus a function that runs the Go
//     collector and returns HeapAlloc; and the wasm linear memory
//     (memory.buffer.byteLength), which never shrinks: the high-water mark
//     of the Go heap;
//   - the JS values Go holds (wasm_exec.js's table of values referenced from
//     Go, js.Funcs included): the bridge exposes no count of live js.Funcs.
//
// It asserts that the heaps level off (end <= 1.5 x middle) and that the
// values Go holds come back to the baseline once nothing is subscribed.
// Then ResetEntireStore must free what the store held: the Go heap and the
// JS heap drop back to where they were before the store was filled, and
// refilling after each reset keeps them there.
//
// Environment: MEMORY_CYCLES (default 100000), DATAFETCH_DIST (default dist/).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../browser/launch.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = process.env.DATAFETCH_DIST ? resolve(process.env.DATAFETCH_DIST) : join(ROOT, 'dist');
const CYCLES = Number(process.env.MEMORY_CYCLES ?? 100_000);
const WORKING_SET = 1000;
const NETWORK_CYCLES = 2000;

// ---------------------------------------------------------------- the page

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>datafetch memory</title>
<script type="module">
// Capture the Go instance: datafetch.mjs imports this same wasm_exec.js,
// which is evaluated once, so it makes its Go with the class set here.
await import('/dist/wasm_exec.js');
const Go = globalThis.Go;
globalThis.Go = class extends Go {
  constructor() {
    super();
    window.__go = this;
  }
};
const { load } = await import('/dist/datafetch.mjs');
const df = await load('/stats/datafetch.wasm');
const go = window.__go;

const N = ${WORKING_SET};
const User = df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
const Item = df.Entity({
  key: 'Item',
  defaults: { id: undefined, title: '', body: '', author: null, tags: [], updatedAt: null },
  schema: { author: User, updatedAt: Date },
});
const texts = [];
let version = 0;
function itemText(id) {
  return JSON.stringify({ id, title: 'item ' + id + ' v' + version, body: 'x'.repeat(200),
    author: { id: id % 50, name: 'author ' + (id % 50) }, tags: ['a', 'b'], updatedAt: 1700000000000 + id });
}
for (let i = 0; i < N; i++) texts.push(itemText(i));
const fakeFetch = (url) => {
  const id = Number(url.slice(url.lastIndexOf('/') + 1));
  return Promise.resolve(new Response(texts[id], { status: 200, headers: { 'content-type': 'application/json' } }));
};

let ctrl = new df.Controller({ fetch: fakeFetch });
const getItem = new df.RestEndpoint({ urlPrefix: location.origin, path: '/data/items/:id', name: 'getItem', schema: Item });
const netCtrl = new df.Controller();
let notified = 0;
const listener = (s) => { if (s.data) notified++; };

async function cycle(c, i) {
  const params = { id: i % N };
  const unsub = c.subscribe(getItem, params, listener);
  await c.fetch(getItem, params);
  unsub();
  await c.invalidate(getItem, params);
}

window.bench = {
  async run(from, to, network) {
    const c = network ? netCtrl : ctrl;
    for (let i = from; i < to; i++) await cycle(c, i);
    return notified;
  },
  async stats() {
    const go_ = await globalThis.__datafetchStats();
    return {
      goHeap: go_.heapAlloc,
      wasmBytes: go._inst.exports.mem.buffer.byteLength,
      goHeldValues: go._values.length - go._idPool.length,
      stateEntities: Object.keys(ctrl.getState().entities.Item ?? {}).length,
    };
  },
  // Fills the store with n big records of a fresh generation.
  async fill(n) {
    version++;
    const big = 'y'.repeat(2000);
    const list = new df.RestEndpoint({ urlPrefix: location.origin, path: '/data/big', name: 'big' + version, schema: [Item] });
    const data = [];
    for (let i = 0; i < n; i++) data.push({ id: 'g' + version + '-' + i, title: 'generation ' + version, body: big, author: { id: i % 50 } });
    await ctrl.setResponse(list, {}, data);
    const read = ctrl.getResponse(list, {}).data;
    return read.length;
  },
  async reset() {
    await ctrl.resetEntireStore();
  },
  async resetAll() {
    await ctrl.resetEntireStore();
    await netCtrl.resetEntireStore();
  },
};
window.ready = true;
</script>`;

function serve() {
  const types = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/favicon.ico') {
        res.writeHead(204);
        res.end();
      } else if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(PAGE);
      } else if (url.pathname === '/stats/datafetch.wasm') {
        res.writeHead(200, { 'content-type': 'application/wasm' });
        res.end(await readFile(STATS_WASM));
      } else if (url.pathname.startsWith('/dist/')) {
        const name = url.pathname.slice('/dist/'.length);
        const body = await readFile(join(DIST, name));
        res.writeHead(200, { 'content-type': types[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream' });
        res.end(body);
      } else if (url.pathname.startsWith('/data/items/')) {
        const id = Number(url.pathname.slice('/data/items/'.length));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id,
            title: 'item ' + id,
            body: 'x'.repeat(200),
            author: { id: id % 50, name: 'author ' + (id % 50) },
            tags: [],
            updatedAt: 1700000000000,
          }),
        );
      } else {
        res.writeHead(404);
        res.end();
      }
    } catch (err) {
      res.writeHead(500);
      res.end(String(err));
    }
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

// ---------------------------------------------------------------- driving it

const MB = (b) => (b / 1048576).toFixed(1) + ' MB';

// The stats build of datafetch.wasm, made once per run.
const STATS_WASM = join(mkdtempSync(join(tmpdir(), 'datafetch-memory-')), 'datafetch.wasm');
function buildStatsWasm() {
  execFileSync('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', STATS_WASM, './test/memory/wasmstats'], {
    cwd: ROOT,
    env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function main() {
  const started = Date.now();
  buildStatsWasm();
  const server = await serve();
  const browser = await launchChromium({ args: ['--js-flags=--expose-gc'] });
  const failures = [];
  const check = (ok, what) => {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failures.push(what);
  };
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.ready === true, null, { timeout: 180_000 }); // a hang guard
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.enable');

    async function measure(label) {
      // Go first: its collection releases the JS values it held.
      const s = await page.evaluate(() => window.bench.stats());
      for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const m = { label, jsHeap: usedSize, ...s };
      console.log(
        `${label.padEnd(30)} JS heap ${MB(m.jsHeap).padStart(8)}   Go heap ${MB(m.goHeap).padStart(8)}   ` +
          `wasm memory ${MB(m.wasmBytes).padStart(8)}   JS values held by Go ${String(m.goHeldValues).padStart(5)}   ` +
          `items ${m.stateEntities}`,
      );
      return m;
    }
    const run = async (from, to, network = false) => {
      const chunk = 5000;
      for (let i = from; i < to; i += chunk) {
        await page.evaluate(([a, b, n]) => window.bench.run(a, b, n), [i, Math.min(to, i + chunk), network]);
      }
    };

    const empty = await measure('empty (loaded)');
    // Warm-up: the working set is stored, the identity tables are full.
    await run(0, WORKING_SET * 2);
    const base = await measure(`start (after ${WORKING_SET * 2})`);
    const half = Math.floor(CYCLES / 2);
    let t = Date.now();
    await run(WORKING_SET * 2, half);
    const mid = await measure(`middle (${half} cycles)`);
    console.log(`  ${(((Date.now() - t) / (half - WORKING_SET * 2)) * 1000).toFixed(1)} µs per cycle`);
    await run(half, CYCLES);
    const end = await measure(`end (${CYCLES} cycles)`);

    check(end.jsHeap <= 1.5 * mid.jsHeap, `JS heap levels off: end ${MB(end.jsHeap)} <= 1.5 x middle ${MB(mid.jsHeap)}`);
    check(end.goHeap <= 1.5 * mid.goHeap, `Go heap levels off: end ${MB(end.goHeap)} <= 1.5 x middle ${MB(mid.goHeap)}`);
    check(end.wasmBytes <= 1.5 * mid.wasmBytes, `wasm memory levels off: end ${MB(end.wasmBytes)} <= 1.5 x middle ${MB(mid.wasmBytes)}`);
    // A js.Func (or any JS value) kept per cycle would add ${CYCLES / 2} here.
    const held = base.goHeldValues + 64;
    check(
      end.goHeldValues <= held && mid.goHeldValues <= held,
      `JS values held by Go (js.Funcs included) back to the baseline: ${base.goHeldValues} at start, ${mid.goHeldValues} middle, ${end.goHeldValues} end`,
    );

    // Through the real fetch (AbortController, Response, arrayBuffer).
    t = Date.now();
    await run(0, NETWORK_CYCLES, true);
    const net = await measure(`after ${NETWORK_CYCLES} network cycles`);
    console.log(`  ${(((Date.now() - t) / NETWORK_CYCLES) * 1000).toFixed(1)} µs per network cycle`);
    // A second controller, with its own working set: Go holds about one JS
    // value (an emitted read's text, whose js.Value finalizer a small
    // allocation of the same key keeps from running) per key read, until
    // that controller is reset.
    check(net.goHeldValues <= held + WORKING_SET * 1.5, `JS values held by Go after network fetches: ${net.goHeldValues}`);

    // ResetEntireStore frees what the store held: the heaps drop back to
    // where they were before it was filled (the working set of the cycles
    // goes too), and stay there when it is filled and reset again.
    const n = 20000;
    const filled = await page.evaluate((k) => window.bench.fill(k), n);
    const full = await measure(`filled (${filled} x 2 KB records)`);
    await page.evaluate(() => window.bench.reset());
    const cleared = await measure('after resetEntireStore');
    check(cleared.stateEntities === 0, 'the store is empty');
    check(
      cleared.goHeap <= net.goHeap + 0.1 * (full.goHeap - net.goHeap),
      `the Go heap drops back: ${MB(net.goHeap)} before filling, ${MB(full.goHeap)} filled, ${MB(cleared.goHeap)} after the reset`,
    );
    check(
      cleared.jsHeap <= net.jsHeap + 0.1 * (full.jsHeap - net.jsHeap),
      `the JS heap drops back: ${MB(net.jsHeap)} before filling, ${MB(full.jsHeap)} filled, ${MB(cleared.jsHeap)} after the reset`,
    );
    let last;
    for (let g = 1; g <= 3; g++) {
      await page.evaluate((k) => window.bench.fill(k), n);
      await page.evaluate(() => window.bench.reset());
      last = await measure(`refill + reset #${g}`);
    }
    check(last.goHeap <= 1.25 * cleared.goHeap, `the Go heap after refills and resets: ${MB(last.goHeap)}`);
    check(last.jsHeap <= 1.25 * cleared.jsHeap, `the JS heap after refills and resets: ${MB(last.jsHeap)}`);
    check(last.wasmBytes <= 1.25 * cleared.wasmBytes, `the wasm memory after refills and resets: ${MB(cleared.wasmBytes)} -> ${MB(last.wasmBytes)}`);
    await page.evaluate(() => window.bench.resetAll());
    const final = await measure('both controllers reset');
    check(
      final.goHeldValues <= empty.goHeldValues + 64,
      `JS values held by Go back to the empty page's: ${final.goHeldValues} (${empty.goHeldValues} when loaded)`,
    );
    check(final.goHeap <= empty.goHeap + 2 * 1048576, `the Go heap back to the empty page's: ${MB(final.goHeap)} (${MB(empty.goHeap)} when loaded)`);
    check(errors.length === 0, `no page errors${errors.length ? ': ' + errors.slice(0, 3).join(' | ') : ''}`);
  } finally {
    await browser.close();
    server.close();
    rmSync(dirname(STATS_WASM), { recursive: true, force: true });
  }
  console.log(`${failures.length ? 'FAIL' : 'PASS'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exitCode = failures.length ? 1 : 0;
}

await main();
