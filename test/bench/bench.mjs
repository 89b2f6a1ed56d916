#!/usr/bin/env node
// Browser benchmark: datafetch against data-client in one headless Chromium
// page, on the same data, interleaved. `./build.sh bench` runs it after the
// Go benchmarks of core (and after building dist/).
//
//   node test/bench/bench.mjs        (dist/ must be built: ./build.sh build)
//
// It bundles the peer (@data-client/{core,endpoint,rest,normalizr}, pinned in
// the root package.json) with esbuild into out/peer.js, serves dist/ and
// this folder with cross-origin isolation headers (so performance.now() has
// 5 µs resolution), runs page.mjs's cases for N = 100, 1,000 and 10,000
// articles, prints a table of medians and the ratio datafetch/data-client,
// and writes out/results.json. Then:
//   - load(): import + load() to ready in fresh browser contexts (median);
//   - datafetch.wasm's size raw, gzip -9 and brotli -q 11;
//   - for each (case, N) that misses its target, a CPU profile of
//     datafetch's side (Chromium's profiler over CDP, with a datafetch.wasm
//     that keeps Go's function names), summarized into
//     out/profile-<case>-N<N>.txt (raw profile beside it as .cpuprofile).
//
// Targets are reported, never enforced: the exit status is non-zero only
// when something is broken (a check in the page fails, a page error, ...).
//
// Environment:
//   BENCH_QUICK=1     few samples, one N (1,000): a smoke run
//   BENCH_NS=100,1000 the sizes to run (default 100,1000,10000)
//   BENCH_WARMUP=40   untimed rounds of every case at N=1000 first (0: none)
//   BENCH_PROFILE=0   no profiles; BENCH_PROFILE=all profiles every case
//   BENCH_LOADS=7     fresh page loads for load()
//   BENCH_CASES=setOne  the cases to run (default all, in CASES order)

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { launchChromium } from '../browser/launch.mjs';
import { serve } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '..', '..');
const OUT = join(here, 'out');
const DIST = join(ROOT, 'dist');
const NAMES_WASM = join(OUT, 'datafetch.names.wasm');

const QUICK = process.env.BENCH_QUICK === '1';
const NS = (process.env.BENCH_NS ?? (QUICK ? '1000' : '100,1000,10000')).split(',').map(Number);
const PROFILE = process.env.BENCH_PROFILE ?? '1';
const LOADS = Number(process.env.BENCH_LOADS ?? (QUICK ? 3 : 7));

// The peer's versions: a consistent set, pinned in the root package.json.
const PEER = {
  '@data-client/core': '0.10.0',
  '@data-client/endpoint': '0.9.9',
  '@data-client/rest': '0.9.9',
  '@data-client/normalizr': '0.10.0',
};

// Cases in the order they run (refetch before the change cases, so the
// stores still hold exactly the response), and their targets: the ratio
// of medians datafetch/data-client must be at most max (for the listed Ns
// only, when given).
const ALL_CASES = ['cold', 'reread', 'refetch', 'refetchOne', 'change1', 'changeUser', 'setOne', 'optimistic', 'push', 'query'];
const CASES = process.env.BENCH_CASES ? process.env.BENCH_CASES.split(',') : ALL_CASES;
for (const name of CASES) if (!ALL_CASES.includes(name)) throw new Error(`BENCH_CASES: no case ${name} (cases: ${ALL_CASES.join(', ')})`);
const LABELS = {
  cold: 'cold: Response → data',
  'cold dc via Response.json()': '  data-client via Response.json()',
  'cold floor JSON.parse': '  floor: JSON.parse(text) alone',
  'cold floor Response.arrayBuffer': '  floor: Response.arrayBuffer() alone',
  reread: 're-read, nothing changed',
  refetch: 're-fetch same data into full store',
  refetchOne: 're-fetch, one article changed',
  change1: 'one article changed: set + re-read',
  changeUser: 'one shared user changed: set + re-read',
  'change1 set': 'one article changed: set',
  'change1 read': 'one article changed: re-read',
  'changeUser set': 'one shared user changed: set',
  'changeUser read': 'one shared user changed: re-read',
  setOne: 'setResponse of one record + read',
  optimistic: 'optimistic update applied + read',
  push: 'push into a Collection + read',
  'query first': 'Query: first read after a change',
  'query reread': 'Query: re-read, nothing changed',
};
const TARGETS = {
  cold: { max: 1.0, ns: [1000, 10000] },
  reread: { max: 0.3 },
  'change1 read': { max: 1.0 },
  'changeUser read': { max: 1.0 },
  refetch: { max: 1.0 },
  setOne: { max: 1.25 },
  optimistic: { max: 1.0 },
};
const LOAD_TARGET_MS = 150;
const BROTLI_TARGET_BYTES = 1_048_576; // 1 MiB, issue 11's target

// Samples per case and N: [warmup, kept]. Each kept sample is one run of
// each side (interleaved), so a median over 11..31 of each.
function plan(name, N) {
  if (QUICK) return { warmup: 2, iterations: 5 };
  const big = N >= 10000;
  if (name === 'cold' || name === 'refetch' || name === 'refetchOne')
    return big ? { warmup: 3, iterations: 11 } : { warmup: 5, iterations: N >= 1000 ? 21 : 31 };
  return big ? { warmup: 3, iterations: 15 } : { warmup: 5, iterations: 31 };
}

function log(msg) {
  process.stderr.write(`bench: ${msg}\n`);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
}

// ------------------------------------------------------------ setup

function checkPeerVersions() {
  for (const [name, want] of Object.entries(PEER)) {
    const file = join(ROOT, 'node_modules', name, 'package.json');
    if (!existsSync(file)) throw new Error(`${name} is not installed: run npm ci in ${ROOT} (./build.sh bench does)`);
    const got = JSON.parse(readFileSync(file, 'utf8')).version;
    if (got !== want) throw new Error(`${name} is ${got}, the benchmark wants ${want} (root package.json)`);
  }
}

async function bundlePeer() {
  checkPeerVersions();
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(here, 'peer-entry.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    // What an app ships: data-client's production build.
    define: { 'process.env.NODE_ENV': '"production"' },
    outfile: join(OUT, 'peer.js'),
    logLevel: 'warning',
  });
}

// buildNamesWasm builds datafetch.wasm as dist/ has it but keeping the
// name section (no -s -w), so that profiles name Go functions. The Go
// build cache makes this a link step after dist/ was built.
function buildNamesWasm() {
  if (statMtime(NAMES_WASM) >= statMtime(join(DIST, 'datafetch.wasm'))) return;
  log('building out/datafetch.names.wasm (with function names, for the profiler)');
  execFileSync('go', ['build', '-trimpath', '-o', NAMES_WASM, './wasm'], {
    cwd: ROOT,
    env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

function statMtime(f) {
  return existsSync(f) ? statSync(f).mtimeMs : 0;
}

async function openPage(browser, base, wasm, extra = {}) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.stack || e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') log(`page console.${m.type()}: ${m.text()}`);
  });
  const q = new URLSearchParams();
  if (wasm) q.set('wasm', wasm);
  if (process.env.BENCH_GC) q.set('gc', process.env.BENCH_GC);
  if (process.env.BENCH_CLASSES === '1') q.set('classes', '1');
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const url = `${base}bench/page.html${q.size ? `?${q}` : ''}`;
  await page.goto(url);
  // page.mjs sets window.bench when datafetch and the peer are loaded; a
  // failure there is a page error.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (errors.length) throw new Error(`the benchmark page failed to start:\n${errors.join('\n')}`);
    if (await page.evaluate(() => typeof window.bench === 'object')) return { page, errors };
    if (Date.now() > deadline) throw new Error('the benchmark page did not start in 60 s (window.bench missing)');
    await new Promise((r) => setTimeout(r, 50));
  }
}

// ------------------------------------------------------------ measuring

// warmUp runs every case untimed, both libraries, at WARMUP_N before
// anything is measured. V8 runs a wasm function in its baseline compiler
// (Liftoff) until it has run a lot, and JavaScript in its interpreter and
// baseline tiers likewise; without this, the first N measured (N=100)
// would time code that has not tiered up yet, on both sides, while later
// N time optimized code. BENCH_WARMUP=0 skips it, to time first use.
const WARMUP_N = 1000;
const WARMUP_ROUNDS = Number(process.env.BENCH_WARMUP ?? (QUICK ? 3 : 40));

async function warmUp(page, errors) {
  if (!WARMUP_ROUNDS) return;
  const t = Date.now();
  await page.evaluate((n) => window.bench.prepare(n), WARMUP_N);
  for (const name of CASES) {
    await page.evaluate(([c, n, o]) => window.bench.run(c, n, o), [name, WARMUP_N, { warmup: WARMUP_ROUNDS, iterations: 0 }]);
    if (errors.length) throw new Error(`page error warming up ${name}:\n${errors.join('\n')}`);
  }
  log(`warmed up (${WARMUP_ROUNDS} rounds of every case at N=${WARMUP_N}) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

async function measure(page, errors) {
  const results = [];
  await warmUp(page, errors);
  for (const N of NS) {
    const t = Date.now();
    const prep = await page.evaluate((n) => window.bench.prepare(n), N);
    log(`N=${N}: ${prep.bytes} bytes, ${prep.articles} articles, ${prep.authors} users`);
    for (const name of CASES) {
      const p = plan(name, N);
      const r = await page.evaluate(([c, n, o]) => window.bench.run(c, n, o), [name, N, p]);
      if (errors.length) throw new Error(`page error in ${name} N=${N}:\n${errors.join('\n')}`);
      for (const [metric, sides] of Object.entries(r.samples)) {
        const id = metric ? `${name} ${metric}` : name;
        const row = { id, case: name, metric, N, samples: sides.df.length };
        row.dfUs = median(sides.df) * 1000;
        row.dcUs = median(sides.dc) * 1000;
        row.ratio = row.dfUs / row.dcUs;
        row.df = spread(sides.df);
        row.dc = spread(sides.dc);
        const target = TARGETS[id];
        if (target && (!target.ns || target.ns.includes(N))) {
          row.target = target.max;
          row.pass = row.ratio <= target.max;
        }
        results.push(row);
        for (const [side, xs] of Object.entries(sides)) {
          if (side === 'df' || side === 'dc') continue;
          const extra = { id: `${id} ${side}`, case: name, metric: side, N, samples: xs.length };
          if (side.startsWith('dc ')) {
            // Another data-client path, for comparison (no target).
            extra.dcUs = median(xs) * 1000;
            extra.dc = spread(xs);
            extra.ratio = row.dfUs / extra.dcUs;
          } else {
            extra.floorUs = median(xs) * 1000;
            extra.floor = spread(xs);
          }
          results.push(extra);
        }
      }
      if (r.stable && Object.keys(r.stable).length) {
        const row = results.find((x) => x.id === name && x.N === N);
        if (row) row.sameObjectAfter = r.stable;
      }
    }
    log(`N=${N} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  return results;
}

function spread(msList) {
  return {
    p25Us: quantile(msList, 0.25) * 1000,
    p75Us: quantile(msList, 0.75) * 1000,
    minUs: Math.min(...msList) * 1000,
  };
}

// measureLoads measures load() in LOADS fresh browser contexts: a first
// visit, or with second set, the visit after it in the same context (HTTP
// cache and code cache warm: the server answers 304 to revalidations).
async function measureLoads(browser, base, query = '', second = false) {
  const runs = [];
  for (let i = 0; i < LOADS; i++) {
    // A fresh context each time: empty HTTP cache, no cached compiled wasm.
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const visit = async () => {
        await page.goto(`${base}bench/load.html${query}`);
        const r = await page.waitForFunction(() => window.loadResult, null, { timeout: 60_000 }).then((h) => h.jsonValue());
        if (r.error) throw new Error(`load() failed: ${r.error}`);
        if (!r.crossOriginIsolated) throw new Error('load.html is not cross-origin isolated');
        return r;
      };
      let r = await visit();
      if (second) {
        // V8 writes a module's code cache once it has tiered up or after a
        // delay; navigating away and back is what a returning visitor does.
        await page.goto('about:blank');
        r = await visit();
      }
      runs.push(r);
    } finally {
      await context.close();
    }
  }
  const pick = (k) => median(runs.map((r) => r[k]));
  return {
    runs: runs.length,
    readyMs: pick('readyMs'),
    loadMs: pick('loadMs'),
    importMs: pick('importMs'),
    totalMs: pick('totalMs'),
    sinceNavigationMs: pick('sinceNavigationMs'),
    allReadyMs: runs.map((r) => r.readyMs),
    target: LOAD_TARGET_MS,
    pass: pick('readyMs') <= LOAD_TARGET_MS,
  };
}

function wasmSizes() {
  const bytes = readFileSync(join(DIST, 'datafetch.wasm'));
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const brotli = brotliCompressSync(bytes, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
      [zlibConstants.BROTLI_PARAM_LGWIN]: 24, // as the brotli command's default
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_GENERIC,
    },
  }).length;
  return { raw: bytes.length, gzip, brotli, brotliTarget: BROTLI_TARGET_BYTES, pass: brotli <= BROTLI_TARGET_BYTES };
}

// ------------------------------------------------------------ profiles

// Profiles datafetch's side of (case, N) with the CDP profiler and writes
// the summary; returns it.
async function profileCase(page, cdp, name, N) {
  await page.evaluate((n) => window.bench.prepare(n), N);
  let iterations = name === 'cold' || name === 'refetch' || name === 'refetchOne' ? (N >= 10000 ? 8 : 30) : N >= 10000 ? 20 : 60;
  if (name === 'reread') iterations = 400; // each a batch of reads of a few µs
  // Warm up, so that the wasm code has tiered up before the profiler starts.
  await page.evaluate(([c, n, k]) => window.bench.profileRun(c, n, k), [name, N, Math.max(5, iterations >> 1)]);
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  await cdp.send('Profiler.start');
  const ms = await page.evaluate(([c, n, k]) => window.bench.profileRun(c, n, k), [name, N, iterations]);
  if (name === 'reread') ms.timed = undefined; // the samples are per read, not per batch
  const { profile } = await cdp.send('Profiler.stop');
  const base = `profile-${name}-N${N}`;
  writeFileSync(join(OUT, `${base}.cpuprofile`), JSON.stringify(profile));
  const summary = summarize(profile);
  const text = formatProfile(name, N, iterations, ms, summary);
  writeFileSync(join(OUT, `${base}.txt`), text);
  return { case: name, N, iterations, timedMs: ms.timed, wallMs: ms.wall, file: `test/bench/out/${base}.txt`, ...summary, text };
}

const GAP_CAP_MS = 1;

const isWasm = (url) => url.startsWith('wasm://') || url.endsWith('.wasm');

// goName turns a name from Go's wasm name section, as Chromium shows it
// (github.com_datafetch_datafetch_core_schema.__Entity_.fill), back into
// Go's spelling (github.com/datafetch/datafetch/core/schema.(*Entity).fill)
// as far as it can.
function goName(fn) {
  return fn
    .replace(/^github\.com_datafetch_datafetch_([a-z_]+)\./, (_, p) => `github.com/datafetch/datafetch/${p.replace(/_/g, '/')}.`)
    .replace(/^github\.com_hack_pad_safejs(_internal_catch)?\./, (_, c) => `github.com/hack-pad/safejs${c ? '/internal/catch' : ''}.`)
    .replace(/^(internal|syscall)_([a-z]+)_?([a-z]*)\./, (_, a, b, c) => `${a}/${b}${c ? `/${c}` : ''}.`)
    .replace(/\.__([A-Za-z0-9]+)_\./g, '.(*$1).')
    .replace(/^github\.com\/datafetch\/datafetch\//, 'datafetch/');
}

const GC_RE =
  /^runtime\.(gc|scanObject|scanobject|greyobject|findObject|tryDeferToSpanScan|markBits|wbBuf|bulkBarrier|typePointers|scanObjectsSmall|scanblock|scanstack|scanframe|markroot|sweep|bgsweep|spanOf|heapBits|(\(\*[a-zA-Z]+\)\.)?(tryGet|put|push|pop|drain|sweep|scan|markBits))|^internal\/runtime\/atomic\.|^runtime\.\(\*(gcWork|mspan|gcBits|spanSet|spanQueue|wbBuf|mheap)\)/;
const ALLOC_RE =
  /^runtime\.(mallocgc|newobject|makeslice|growslice|nextFree|memclr|fixalloc|\(\*(mcache|mcentral|fixalloc)\)|refill|allocSpan|newarray|heapSetType|rawbyteslice|rawstring|slicebytetostring|concatstring)/;
const MAP_RE = /^(runtime\.(map|memhash|strhash|aeshash|memequal|efaceeq|ifaceeq|interhash|nilinterhash)|internal\/runtime\/maps)/;

// category puts a leaf frame (self time) in a bucket a reader can act on.
function category(fn, url) {
  if (isWasm(url)) {
    const g = goName(fn);
    if (/^runtime\.(addspecial|addfinalizer|SetFinalizer|queuefinalizer|runfinq|removespecial|removefinalizer|AddCleanup|addCleanup)/.test(g))
      return 'Go finalizers (syscall/js sets one per js.Value it receives)';
    if (GC_RE.test(g)) return 'Go GC (marking, sweeping, write barriers)';
    if (ALLOC_RE.test(g)) return 'Go allocation';
    if (MAP_RE.test(g)) return 'Go maps + hashing';
    if (g.startsWith('runtime.memmove')) return 'Go memmove';
    if (g.startsWith('runtime.') || g.startsWith('wasm_') || g.startsWith('internal/')) return 'Go runtime: scheduler, wasm glue, other';
    if (g.startsWith('syscall/js.') || g.startsWith('github.com/hack-pad/safejs')) return 'Go syscall/js + safejs (crossings, Go side)';
    const m = g.match(/^datafetch\/([a-z/]+?)\./);
    if (m) return `Go datafetch/${m[1]}`;
    const pkg = g.match(/^([a-z0-9_./-]+?)\./);
    return `Go ${pkg ? pkg[1] : 'other'}`;
  }
  if (url.endsWith('/wasm_exec.js')) return 'wasm_exec.js glue (crossings, JS side)';
  if (isLibraryURL(url)) return 'datafetch.mjs (incl. JSON.parse of reads, which has no frame of its own)';
  if (url.endsWith('/page.mjs')) return 'benchmark page';
  if (fn === '(garbage collector)') return 'V8 garbage collector';
  if (fn === '(program)') return 'V8 (program: native code outside JS frames)';
  if (fn === '(idle)') return 'idle';
  if (fn === 'decode') return 'TextDecoder.decode (Go string → JS, wasm_exec loadString)';
  if (fn === 'encode' || fn === 'encodeInto') return 'TextEncoder.encode (JS string → Go)';
  if (fn === 'wasm-to-js' || fn.startsWith('js-to-wasm')) return 'wasm↔JS call trampolines (crossings)';
  if (fn === 'arrayBuffer' || fn === 'Response' || fn === 'json' || fn === 'text') return 'Response body (fetch API)';
  if (fn === 'parse') return 'JSON.parse';
  if (url === '') return `V8 builtin: ${fn || '(anonymous)'}`;
  return `other JS: ${url.split('/').pop()}`;
}

// isLibraryURL reports whether a frame's script is the library: the entry
// dist/datafetch.mjs or one of the modules it imports (dist/internal/).
function isLibraryURL(url) {
  return /\/dist\/(datafetch|internal\/[a-z]+)\.mjs$/.test(url);
}

// PHASES name what datafetch is doing: a sample belongs to the innermost
// frame on its stack that matches one (so GC inside an allocation inside
// the encoder counts as GC).
const PHASES = [
  [
    'Go GC (incl. assists during allocation)',
    (g) =>
      /^runtime\.(gcAssistAlloc|gcBgMarkWorker|gcDrain|bulkBarrierPreWrite|wbBufFlush|gcStart|gcMarkDone|gcMarkTermination|sweepone|bgsweep|deductSweepCredit|markroot)/.test(
        g,
      ),
  ],
  ['Go allocation (malloc, growslice)', (g) => ALLOC_RE.test(g)],
  ['JSON.parse / text decode in JS (datafetch.mjs decode/response)', (g, f) => isLibraryURL(f.url) && /^(decode|response|apply|known)$/.test(f.functionName)],
  ['Go → JS strings (TextDecoder in wasm_exec loadString)', (g, f) => f.url === '' && f.functionName === 'decode'],
  ['JS → Go strings (TextEncoder)', (g, f) => f.url === '' && (f.functionName === 'encode' || f.functionName === 'encodeInto')],
  [
    'Response body read (arrayBuffer + copy into Go)',
    (g, f) =>
      (f.url === '' && (f.functionName === 'arrayBuffer' || f.functionName === 'Response')) ||
      /^datafetch\/jsbridge\.(transport|\(\*transport\))\.read/.test(g) ||
      /^syscall\/js\.CopyBytesToGo/.test(g),
  ],
  ['parse response JSON (core/value)', (g) => /^datafetch\/core\/value\.(Parse|\(\*parser\)|\(\*scanner\)|scan|parse)/i.test(g)],
  ['normalize (core/schema)', (g) => /^datafetch\/core\/schema\.(Normalize|.*\.normalize|\(\*normalizer\))/.test(g)],
  ['store write/merge (core/store)', (g) => /^datafetch\/core\/store\./.test(g)],
  ['denormalize (core/schema)', (g) => /^datafetch\/core\/schema\.(Denormalize|.*\.denormalize|\(\*deps\)|.*\.fill|.*\.build)/.test(g)],
  [
    'encode read for JS (jsbridge encoder + identities)',
    (g) => /^datafetch\/jsbridge(\/encode)?\.(\(\*encoder\)|\(\*[iI]dentities\)|appendString|closeObject|needsWalk|entityFields)/.test(g),
  ],
  ['JSON text out (core/value.AppendJSON)', (g) => /^datafetch\/core\/value\.(AppendJSON|append)/.test(g)],
  ['value equality (core/value.Equal)', (g) => /^datafetch\/core\/value\.(Equal|equal)/.test(g)],
  ['other core/value', (g) => /^datafetch\/core\/value\./.test(g)],
  ['controller / optimistic (core/controller)', (g) => /^datafetch\/core\/controller\./.test(g)],
  [
    'crossings (syscall/js, safejs, wasm_exec.js)',
    (g, f) => /^(syscall\/js\.|github\.com\/hack-pad\/safejs)/.test(g) || f.url.endsWith('/wasm_exec.js') || f.functionName === 'wasm-to-js',
  ],
  ['jsbridge (other)', (g) => /^datafetch\/jsbridge\./.test(g)],
  ['V8 GC', (g, f) => f.functionName === '(garbage collector)'],
  ['benchmark page', (g, f) => f.url.endsWith('/page.mjs')],
];

function phaseOf(cf) {
  const g = isWasm(cf.url) ? goName(cf.functionName) : cf.functionName;
  for (const [name, test] of PHASES) if (test(g, cf)) return name;
  return undefined;
}

function frameName(cf) {
  const fn = cf.functionName || '(anonymous)';
  if (isWasm(cf.url)) return `${goName(fn)} [wasm]`;
  if (!cf.url) return fn;
  return `${fn} (${cf.url.split('/').pop()}:${cf.lineNumber + 1})`;
}

function summarize(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const deltas = profile.timeDeltas;
  // A sample stands for the time until the next one, up to GAP_CAP: a
  // longer gap (the sampler could not run: a stall, the profiler logging
  // newly tiered-up wasm code) is counted apart, not charged to a frame.
  let gaps = 0;
  const weight = (i) => {
    const d = (i + 1 < deltas.length ? deltas[i + 1] : deltas[i]) / 1000; // ms
    if (d > GAP_CAP_MS) gaps += d - GAP_CAP_MS;
    return Math.min(d, GAP_CAP_MS);
  };
  const self = new Map();
  const total = new Map();
  const cats = new Map();
  const phases = new Map();
  let all = 0;
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const w = weight(i);
    let id = profile.samples[i];
    const leaf = byId.get(id);
    const leafName = frameName(leaf.callFrame);
    all += w;
    if (leaf.callFrame.functionName === '(idle)') continue;
    busy += w;
    self.set(leafName, (self.get(leafName) ?? 0) + w);
    const cat = category(leaf.callFrame.functionName, leaf.callFrame.url);
    cats.set(cat, (cats.get(cat) ?? 0) + w);
    const seen = new Set();
    let phase;
    while (id !== undefined) {
      const n = byId.get(id);
      const name = frameName(n.callFrame);
      phase ??= phaseOf(n.callFrame);
      if (!seen.has(name) && n.callFrame.functionName !== '(root)') {
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + w);
      }
      id = parent.get(id);
    }
    phase ??= 'other';
    phases.set(phase, (phases.get(phase) ?? 0) + w);
  }
  const top = (m, k) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, ms]) => ({ name, ms, pct: (100 * ms) / busy }));
  return { totalMs: all, busyMs: busy, gapMs: gaps, phases: top(phases, 20), categories: top(cats, 20), self: top(self, 30), inclusive: top(total, 40) };
}

function formatProfile(name, N, iterations, ms, s) {
  const row = (e) => `${e.ms.toFixed(1).padStart(9)} ms ${e.pct.toFixed(1).padStart(5)} %  ${e.name}`;
  return [
    `CPU profile of datafetch's side of "${LABELS[name] ?? name}", N=${N}, ${iterations} iterations`,
    `(Chromium sampling profiler over CDP, 50 µs interval; datafetch.wasm built with function names).`,
    `Iterations: ${ms.wall.toFixed(1)} ms wall (with untimed setup and checks)${ms.timed === undefined ? '' : `, ${ms.timed.toFixed(1)} ms in the timed parts`};`,
    `profile: ${s.busyMs.toFixed(1)} ms busy of ${s.totalMs.toFixed(1)} ms sampled,`,
    `plus ${s.gapMs.toFixed(1)} ms of gaps without samples (longer than ${GAP_CAP_MS} ms: stalls, the profiler logging tiered-up code).`,
    `Percentages are of busy (non-idle) time.`,
    '',
    'By phase (each sample goes to the innermost frame on its stack that names a phase):',
    ...s.phases.map(row),
    '',
    'By category (self time of the innermost frame):',
    ...s.categories.map(row),
    '',
    'Top functions by self time:',
    ...s.self.map(row),
    '',
    'Top functions by total (inclusive) time:',
    ...s.inclusive.map(row),
    '',
  ].join('\n');
}

// ------------------------------------------------------------ report

function fmtUs(us) {
  if (us === undefined) return '';
  if (us >= 100) return us.toFixed(0);
  if (us >= 10) return us.toFixed(1);
  return us.toFixed(2);
}

function fmtCount(n) {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2).replace(/\.?0+$/, '');
}

function table(results) {
  const head = ['case', 'N', 'datafetch µs', 'data-client µs', 'ratio', 'target', '', 'floor µs'];
  const rows = results.map((r) => [
    LABELS[r.id] ?? r.id,
    String(r.N),
    fmtUs(r.dfUs),
    fmtUs(r.dcUs),
    r.ratio === undefined ? '' : r.ratio.toFixed(2),
    r.target === undefined ? '' : `≤ ${r.target.toFixed(1)}`,
    r.pass === undefined ? '' : r.pass ? 'ok' : 'MISS',
    fmtUs(r.floorUs),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

// ------------------------------------------------------------ main

async function main() {
  const started = Date.now();
  mkdirSync(OUT, { recursive: true });
  // Profiles of an earlier run would pass for this run's.
  for (const f of readdirSync(OUT)) if (/^profile-.*\.(txt|cpuprofile)$/.test(f)) rmSync(join(OUT, f));
  if (!existsSync(join(DIST, 'datafetch.wasm')) || !existsSync(join(DIST, 'datafetch.mjs'))) {
    throw new Error('dist/ is not built: run ./build.sh build (./build.sh bench does)');
  }
  await bundlePeer();
  const server = await serve({ '/dist/': DIST, '/bench/': here });
  const browser = await launchChromium({ args: ['--js-flags=--expose-gc'] });
  const report = { date: new Date().toISOString(), quick: QUICK, ns: NS };
  try {
    const { page, errors } = await openPage(browser, server.url);
    report.env = await page.evaluate(() => window.bench.info());
    report.env.browserVersion = browser.version();
    report.env.cpus = cpus().length;
    report.env.loadavgBefore = loadavg();
    if (!report.env.crossOriginIsolated) throw new Error('the page is not cross-origin isolated: performance.now() would be coarse');
    log(
      `Chromium ${report.env.browserVersion}, crossOriginIsolated, timer step ${(report.env.timerResolutionMs * 1000).toFixed(1)} µs; datafetch ${report.env.datafetchVersion}`,
    );

    report.results = await measure(page, errors);
    await page.close();

    log(`load(): ${LOADS} fresh page loads`);
    report.load = await measureLoads(browser, server.url);
    log(`load(): ${LOADS} fresh page loads through datafetch.bundle.mjs`);
    report.loadBundle = await measureLoads(browser, server.url, '?entry=bundle');
    log(`load(): ${LOADS} second visits through datafetch.bundle.mjs`);
    report.loadSecond = await measureLoads(browser, server.url, '?entry=bundle', true);
    report.wasm = wasmSizes();

    // Calls from Go into JavaScript per operation, datafetch's side of each
    // case at N = 1,000 (or the one N run), in a page whose imports count.
    const countN = NS.includes(1000) ? 1000 : NS[0];
    log(`counting crossings (Go → JavaScript calls) per operation at N=${countN}`);
    const { page: cpage, errors: cerrors } = await openPage(browser, server.url, undefined, { count: '1' });
    await cpage.evaluate((n) => window.bench.prepare(n), countN);
    report.crossings = { N: countN, perOperation: {} };
    for (const name of CASES) {
      const per = await cpage.evaluate(([c, n]) => window.bench.countRun(c, n, 5), [name, countN]);
      if (cerrors.length) throw new Error(`page error while counting:\n${cerrors.join('\n')}`);
      report.crossings.perOperation[name] = per;
    }
    await cpage.close();

    const missed = report.results.filter((r) => r.pass === false || (PROFILE === 'all' && r.dfUs !== undefined));
    const toProfile = [...new Map(missed.map((r) => [`${r.case} ${r.N}`, r])).values()];
    report.profiles = [];
    if (PROFILE !== '0' && toProfile.length) {
      buildNamesWasm();
      const { page: ppage, errors: perrors } = await openPage(browser, server.url, '/bench/out/datafetch.names.wasm');
      const cdp = await ppage.context().newCDPSession(ppage);
      await cdp.send('Profiler.enable');
      for (const r of toProfile) {
        log(`profiling datafetch: ${r.case} N=${r.N}`);
        const p = await profileCase(ppage, cdp, r.case, r.N);
        if (perrors.length) throw new Error(`page error while profiling:\n${perrors.join('\n')}`);
        report.profiles.push(p);
      }
      await cdp.send('Profiler.disable');
    }
  } finally {
    await browser.close();
    await server.close();
  }

  report.env.loadavgAfter = loadavg();
  const out = [];
  out.push('');
  const busy = Math.max(report.env.loadavgBefore[0], report.env.loadavgAfter[0]);
  if (busy > report.env.cpus * 0.75) {
    out.push(`note: the machine was busy (load average ${busy.toFixed(1)} on ${report.env.cpus} CPUs): expect noise; ratios are steadier than absolute times.`);
  }
  out.push(
    `datafetch vs data-client (${Object.entries(PEER)
      .map(([k, v]) => `${k.split('/')[1]} ${v}`)
      .join(', ')})`,
  );
  out.push(`Chromium ${report.env.browserVersion}, medians of interleaved samples; ratio = datafetch / data-client (lower is better for datafetch)`);
  out.push('');
  out.push(table(report.results));
  out.push('');
  const l = report.load;
  out.push(
    `load() to ready (fresh context: fetch + compile + start datafetch.wasm + first call), median of ${l.runs}: ${l.readyMs.toFixed(1)} ms` +
      `  target ≤ ${LOAD_TARGET_MS} ms: ${l.pass ? 'ok' : 'MISS'}`,
  );
  out.push(
    `  (before it, import of datafetch.mjs ${l.importMs.toFixed(1)} ms; import + load ${l.totalMs.toFixed(1)} ms; ready at ${l.sinceNavigationMs.toFixed(1)} ms after navigation start)`,
  );
  const lb = report.loadBundle;
  out.push(
    `  through datafetch.bundle.mjs (one file): import ${lb.importMs.toFixed(1)} ms; load() to ready ${lb.readyMs.toFixed(1)} ms; import + load ${lb.totalMs.toFixed(1)} ms; ready at ${lb.sinceNavigationMs.toFixed(1)} ms after navigation start`,
  );
  const ls = report.loadSecond;
  out.push(
    `  second visit (HTTP cache and code cache warm), through the bundle: import ${ls.importMs.toFixed(1)} ms; load() to ready ${ls.readyMs.toFixed(1)} ms; ready at ${ls.sinceNavigationMs.toFixed(1)} ms after navigation start`,
  );
  const w = report.wasm;
  const mb = (b) => `${(b / 1e6).toFixed(2)} MB (${b.toLocaleString('en-US')} B)`;
  out.push(`datafetch.wasm: ${mb(w.raw)} raw, ${mb(w.gzip)} gzip -9, ${mb(w.brotli)} brotli -q 11  target ≤ 1.0 MB brotli: ${w.pass ? 'ok' : 'MISS'}`);
  const misses = report.results.filter((r) => r.pass === false);
  out.push('');
  out.push(`calls from Go into JavaScript (wasm_exec.js imports) per operation, datafetch, N=${report.crossings.N}:`);
  for (const [name, per] of Object.entries(report.crossings.perOperation)) {
    const total = Object.values(per).reduce((a, b) => a + b, 0);
    const top = Object.entries(per)
      .slice(0, 6)
      .map(([fn, n]) => `${fn.replace(/^syscall\/js\./, '')} ${fmtCount(n)}`)
      .join(', ');
    out.push(`  ${(LABELS[name] ?? name).padEnd(36)} ${fmtCount(total).padStart(7)}  (${top})`);
  }
  out.push(
    `targets: ${report.results.filter((r) => r.pass).length + (l.pass ? 1 : 0) + (w.pass ? 1 : 0)} met, ${misses.length + (l.pass ? 0 : 1) + (w.pass ? 0 : 1)} missed`,
  );
  for (const p of report.profiles) {
    out.push('');
    out.push(`profile ${p.case} N=${p.N} (${p.file}), datafetch's time by phase:`);
    for (const c of p.phases.slice(0, 8)) out.push(`  ${c.pct.toFixed(1).padStart(5)} %  ${c.name}`);
    out.push('  top functions (self):');
    for (const c of p.self.slice(0, 6)) out.push(`  ${c.pct.toFixed(1).padStart(5)} %  ${c.name}`);
  }
  report.seconds = (Date.now() - started) / 1000;
  for (const p of report.profiles) delete p.text;
  writeFileSync(join(OUT, 'results.json'), JSON.stringify(report, null, 2) + '\n');
  out.push('');
  out.push(`wrote test/bench/out/results.json (${report.seconds.toFixed(0)} s)`);
  console.log(out.join('\n'));
}

// `node test/bench/bench.mjs --analyze out/x.cpuprofile...` summarizes saved
// profiles again (after changing the phases, say) without measuring.
async function analyze(files) {
  for (const f of files) {
    const profile = JSON.parse(readFileSync(f, 'utf8'));
    const m = f.match(/profile-([A-Za-z0-9]+)-N(\d+)\.cpuprofile$/);
    console.log(formatProfile(m?.[1] ?? f, m ? Number(m[2]) : 0, '?', { wall: 0 }, summarize(profile)));
  }
}

(process.argv[2] === '--analyze' ? analyze(process.argv.slice(3)) : main()).catch((err) => {
  console.error(`bench: FAILED: ${err.stack || err}`);
  process.exit(1);
});
