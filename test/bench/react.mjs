#!/usr/bin/env node
// The React benchmark: datafetch/react against @data-client/react 0.10 on
// React 19, one app over the same components (react-app.mjs), in one
// headless Chromium page, interleaved. `./build.sh bench` runs it after
// bench.mjs; alone: `node test/bench/react.mjs` after `./build.sh`.
//
// Each scenario runs REACT_REPEATS rounds (default 3); a round is warm-up
// samples then kept samples of both libraries, interleaved (the one that
// goes first alternating), and gives the ratio of medians
// datafetch/data-client. Then the mount/unmount cycle: wasm memory after
// each of 10 cycles of a 500-article list (target: the tenth at most 1.5x
// the first) and the Go heap after the last collection (gctrace). Prints a
// table and writes out/react.json. Targets are reported, never enforced.
//
// Environment:
//   REACT_QUICK=1       a smoke run: one round, few samples
//   REACT_REPEATS=3     rounds per scenario
//   REACT_SCENARIOS=getlist-100,update-user   only those (none: only memory)
//   REACT_MEMORY=0      no memory cycle
//   REACT_DIST=/path/dist   bundle datafetch's JavaScript from another build
//                       of dist/ (an older commit's: a before/after)
//   REACT_WASM=/bench/out/x.wasm   another datafetch.wasm (served under /bench/)
//   REACT_MINIFY=0      an unminified bundle (names in profiles)
//   REACT_PROFILE=getlist-500   also profiles datafetch's side of those
//                       scenarios (Chromium's sampler, a datafetch.wasm that
//                       keeps Go's names): out/react-profile-<name>.cpuprofile,
//                       summarized by `node test/bench/bench.mjs --analyze`

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../browser/launch.mjs';
import { serve } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '..', '..');
const OUT = join(here, 'out');
const QUICK = process.env.REACT_QUICK === '1';
const REPEATS = Number(process.env.REACT_REPEATS ?? (QUICK ? 1 : 3));
const MEMORY = process.env.REACT_MEMORY !== '0';
const MEMORY_COUNT = 500;
const MEMORY_CYCLES = QUICK ? 3 : 10;
const MEMORY_TARGET = 1.5;
const PEER_REACT = '0.10.0';
const COUNT_SAMPLES = 15;

// Samples per round: [warm-up, kept].
function plan(name) {
  if (QUICK) return [1, 3];
  return name.startsWith('getlist') || name.startsWith('invalidate') ? [3, 15] : [5, 21];
}

function log(msg) {
  process.stderr.write(`react bench: ${msg}\n`);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function bundle() {
  const { readFileSync } = await import('node:fs');
  const got = JSON.parse(readFileSync(join(ROOT, 'node_modules/@data-client/react/package.json'), 'utf8')).version;
  if (got !== PEER_REACT) throw new Error(`@data-client/react is ${got}, the benchmark wants ${PEER_REACT} (root package.json)`);
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(here, 'react-app.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // REACT_MINIFY=0 keeps names in profiles.
    minify: process.env.REACT_MINIFY !== '0',
    define: { 'process.env.NODE_ENV': '"production"' },
    outfile: join(OUT, 'react-app.js'),
    logLevel: 'warning',
    plugins: process.env.REACT_DIST ? [jsxShim, otherDist(resolve(process.env.REACT_DIST))] : [jsxShim],
  });
}

// jsxShim bundles react-jsx-shim.mjs for Babel's jsx helper, which
// @data-client/react 0.10 (written for React 18) makes its elements with.
// otherDist bundles the modules of dist/ from another build of it.
function otherDist(dir) {
  const dist = join(ROOT, 'dist');
  return {
    name: 'other-dist',
    setup(build) {
      build.onResolve({ filter: /datafetch\.mjs$|react\.mjs$/ }, (args) => {
        const path = resolve(args.resolveDir, args.path);
        return path.startsWith(`${dist}/`) ? { path: join(dir, path.slice(dist.length + 1)) } : undefined;
      });
    },
  };
}

const jsxShim = {
  name: 'react19-jsx',
  setup(build) {
    build.onResolve({ filter: /^@babel\/runtime\/helpers\/(esm\/)?jsx$/ }, () => ({ path: join(here, 'react-jsx-shim.mjs') }));
  },
};

async function open(browser, base, query = '') {
  const page = await browser.newPage();
  const errors = [];
  const lines = [];
  page.on('pageerror', (e) => errors.push(e.stack || e.message));
  page.on('console', (m) => {
    lines.push(m.text());
    if (m.type() === 'error' || m.type() === 'warning') log(`page console.${m.type()}: ${m.text()}`);
  });
  const q = new URLSearchParams(query);
  if (process.env.REACT_WASM && !q.has('wasm')) q.set('wasm', process.env.REACT_WASM);
  await page.goto(`${base}bench/react.html${q.size ? `?${q}` : ''}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (errors.length) throw new Error(`the React benchmark page failed:\n${errors.join('\n')}`);
    if (await page.evaluate(() => typeof window.reactBench === 'object')) return { page, errors, lines };
    if (Date.now() > deadline) throw new Error('the React benchmark page did not start in 60 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function profile(browser, base, names) {
  const wasm = join(OUT, 'datafetch.names.wasm');
  execFileSync('go', ['build', '-trimpath', '-o', wasm, './wasm'], { cwd: ROOT, env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' }, stdio: 'inherit' });
  const { page } = await open(browser, base, 'wasm=/bench/out/datafetch.names.wasm');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  for (const name of names) {
    await page.evaluate((n) => window.reactBench.profileRun(n, 3), name);
    await cdp.send('Profiler.start');
    await page.evaluate((n) => window.reactBench.profileRun(n, 20), name);
    const { profile: p } = await cdp.send('Profiler.stop');
    const file = join(OUT, `react-profile-${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(p));
    log(`wrote ${file}`);
  }
  await page.close();
}

// count accounts for one sample of each scenario named on datafetch's
// side (REACT_COUNT), in a page whose calls between JavaScript and Go are
// counted (?count=1, react-app.mjs countRun) with a datafetch.wasm built
// with two more exports (test/bench/countwasm: the goroutines and GC cycles), and
// prints per sample: the calls by name, the goroutines, the GC cycles, and
// the medians of the steps of both sides' timelines.
async function count(browser, base, names) {
  const wasm = join(OUT, 'count.wasm');
  execFileSync('go', ['build', '-trimpath', '-o', wasm, './test/bench/countwasm'], {
    cwd: ROOT,
    env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' },
    stdio: 'inherit',
  });
  const { page, errors } = await open(browser, base, 'count=1&wasm=/bench/out/count.wasm');
  const at = (ev, what, after = 0) => ev.find(([n, t]) => n === what && t >= after)?.[1];
  for (const name of names) {
    for (const side of ['datafetch', 'data-client']) {
      const r = await page.evaluate(([n, k, s]) => window.reactBench.countRun(n, k, s), [name, COUNT_SAMPLES, side]);
      if (errors.length)
        throw new Error(`page error counting ${name}:
${errors.join('\n')}`);
      // The steps of a sample's timeline, where it has them.
      const marks = (ev) => {
        const wake = at(ev, 'export datafetchWake');
        return [
          ['the fetch function called', at(ev, 'server.list')],
          ['datafetchWake (the answer handed to Go)', wake],
          ['Go done with it (its resume returns)', wake === undefined ? undefined : at(ev, 'return resume', wake)],
          ['the list rendered (Rows)', at(ev, 'rows render')],
          ['committed (layout effect)', at(ev, 'rows commit')],
          ['the DOM change seen', at(ev, 'DOM mutation')],
        ];
      };
      console.log(`${name}, ${side}: ${COUNT_SAMPLES} samples, median ${median(r.per.map((p) => p.ms)).toFixed(2)} ms (the counters slow it)`);
      const steps = r.events.map(marks);
      for (let i = 0; i < steps[0].length; i++) {
        const ts = steps.map((s) => s[i][1]).filter((t) => t !== undefined);
        if (ts.length) console.log(`  ${fmt(median(ts)).padStart(6)} ms  ${steps[0][i][0]}`);
      }
      if (process.env.REACT_EVENTS) {
        // One sample's whole timeline (the median one), event by event.
        const mid = r.per.map((p, i) => [p.ms, i]).sort((a, b) => a[0] - b[0])[r.per.length >> 1][1];
        for (const [what, t] of r.events[mid]) console.log(`    ${fmt(t).padStart(6)}  ${what}`);
      }
      if (side !== 'datafetch') continue;
      const per = (f) => r.per.map(f).join(' ');
      console.log(
        `  goroutines at the start ${per((p) => p.goroutinesBefore)}; at the end ${per((p) => p.goroutinesEnd)}; after idle ${per((p) => p.goroutinesIdle)}`,
      );
      console.log(`  Go GC cycles during ${per((p) => p.gc)}; after, to idle ${per((p) => p.gcAfterIdle)}`);
      console.log("  calls per sample (gojs.*: Go into JavaScript; export *: JavaScript into Go; js *: the page's timers):");
      for (const [fn, n] of Object.entries(r.calls)) if (!fn.includes('datafetchCount')) console.log(`    ${n.toFixed(1).padStart(6)}  ${fn}`);
    }
  }
  await page.close();
}

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));

async function main() {
  mkdirSync(OUT, { recursive: true });
  await bundle();
  const [load1] = loadavg();
  if (load1 > 1.5) log(`load average ${load1.toFixed(1)}: absolute times move, compare ratios`);
  const server = await serve({ '/dist/': join(ROOT, 'dist'), '/bench/': here });
  const browser = await launchChromium({ args: ['--js-flags=--expose-gc', '--enable-precise-memory-info'] });
  const results = { scenarios: {}, memory: undefined };
  try {
    const { page, errors } = await open(browser, server.url);
    const all = await page.evaluate(() => window.reactBench.scenarios);
    const names = process.env.REACT_SCENARIOS ? process.env.REACT_SCENARIOS.split(',').filter((n) => n !== 'none') : all;
    for (const name of names) if (!all.includes(name)) throw new Error(`REACT_SCENARIOS: no scenario ${name} (${all.join(', ')})`);
    console.log('scenario                 datafetch ms  data-client ms  ratio (per round)');
    for (const name of names) {
      const [warmup, iterations] = plan(name);
      const rounds = [];
      for (let r = 0; r < REPEATS; r++) {
        const got = await page.evaluate(([n, w, it]) => window.reactBench.run(n, w, it), [name, warmup, iterations]);
        if (errors.length) throw new Error(`page error in ${name}:\n${errors.join('\n')}`);
        const df = median(got.datafetch);
        const dc = median(got['data-client']);
        rounds.push({ datafetch: df, dataClient: dc, ratio: df / dc });
      }
      results.scenarios[name] = rounds;
      const ratios = rounds.map((x) => x.ratio.toFixed(2)).join(' ');
      console.log(
        `${name.padEnd(24)} ${fmt(median(rounds.map((x) => x.datafetch))).padStart(12)}  ${fmt(median(rounds.map((x) => x.dataClient))).padStart(14)}  ${ratios}`,
      );
    }
    await page.close();
    if (process.env.REACT_COUNT) await count(browser, server.url, process.env.REACT_COUNT.split(','));
    if (process.env.REACT_PROFILE) await profile(browser, server.url, process.env.REACT_PROFILE.split(','));
    if (MEMORY) {
      // A page of its own, with Go's gctrace on (its printing would cost
      // time in the timed page).
      const m = await open(browser, server.url, 'gctrace=1');
      const sizes = await m.page.evaluate(([n, c]) => window.reactBench.memory(n, c), [MEMORY_COUNT, MEMORY_CYCLES]);
      if (m.errors.length) throw new Error(`page error in the memory cycle:\n${m.errors.join('\n')}`);
      // gctrace lines: "gc 12 @1.234s 3%: ... 4->5->2 MB, 5 MB goal, ...":
      // the last number before "MB," is the live heap after that collection.
      const heaps = m.lines.map((l) => /(\d+)->(\d+)->(\d+) MB/.exec(l)).filter(Boolean);
      const lastHeap = heaps.length ? Number(heaps.at(-1)[3]) : undefined;
      const first = sizes[0].wasm;
      const last = sizes.at(-1).wasm;
      results.memory = { count: MEMORY_COUNT, cycles: sizes, goHeapMB: lastHeap, ratio: last / first };
      const mb = (b) => (b / 1048576).toFixed(1);
      console.log(
        `memory: ${MEMORY_CYCLES} mount/unmount cycles of ${MEMORY_COUNT}: wasm ${sizes.map((s) => mb(s.wasm)).join(' ')} MB; ` +
          `last/first ${(last / first).toFixed(2)} (target <= ${MEMORY_TARGET}); Go heap after the last GC ${lastHeap ?? '?'} MB; ` +
          `JS heap ${mb(sizes[0].js ?? 0)} -> ${mb(sizes.at(-1).js ?? 0)} MB`,
      );
      await m.page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  writeFileSync(join(OUT, 'react.json'), `${JSON.stringify(results, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
