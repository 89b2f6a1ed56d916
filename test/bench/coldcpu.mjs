// CPU time of datafetch's cold read in Node.js, and the collector settings'
// effect on it (test/bench/README.md, Collector pacing).
//
//   node test/bench/coldcpu.mjs        (after ./build.sh; prints one JSON line)
//
// Each sample makes a new Controller whose fetch option answers with the
// response text of data.mjs's N articles, times `await ctrl.fetch(list)` by
// the process's CPU time (process.cpuUsage(): moves far less than the wall
// clock on a busy machine), then resets the store and lets the collection
// the bridge asks for at idle run (two setTimeout(0) turns) before the next
// sample. It prints the medians of the read's CPU time (readCPU), of the
// whole iteration's (iterCPU: the read, the reset and that collection), of
// the read's wall time, and the size of wasm memory at the end (memMB:
// linear memory only grows, so this is the peak).
//
// Knobs: COLD_N (articles, default 1000), COLD_SAMPLES (default 40, after
// an eighth as many untimed), COLD_DIST (a dist/ folder, default ../../dist),
// COLD_GOGC and COLD_GOMEMLIMIT (override load()'s GO_ENV), GODEBUG (passed
// to the Go runtime: gctrace=1 prints each collection), COLD_IDLE=0 (no turn
// of the event loop between samples: back-to-back reads, where the bridge's
// collections do not get to run and only the runtime's own pacing does).

import { pathToFileURL } from 'node:url';
import { articlesText } from './data.mjs';

const N = Number(process.env.COLD_N ?? 1000);
const SAMPLES = Number(process.env.COLD_SAMPLES ?? 40);
const WARMUP = Math.max(3, SAMPLES >> 3);
const IDLE = process.env.COLD_IDLE !== '0';
const dist = process.env.COLD_DIST ? pathToFileURL(`${process.env.COLD_DIST}/`).href : new URL('../../dist/', import.meta.url).href;

const overrides = {};
if (process.env.GODEBUG) overrides.GODEBUG = process.env.GODEBUG;
if (process.env.COLD_GOGC) overrides.GOGC = process.env.COLD_GOGC;
if (process.env.COLD_GOMEMLIMIT) overrides.GOMEMLIMIT = process.env.COLD_GOMEMLIMIT;

const mod = await import(`${dist}datafetch.node.mjs`);
// The Go load() makes: datafetch.mjs imports the wasm_exec.js that set
// globalThis.Go, evaluated once. load() assigns go.env after constructing
// it, so the overrides go in through an accessor on the instance (a setter
// on a subclass would be shadowed by the data property the constructor's
// own assignment creates).
let go;
globalThis.Go = class extends globalThis.Go {
  constructor() {
    super();
    go = this;
    let env = this.env;
    Object.defineProperty(this, 'env', {
      get: () => env,
      set: (e) => {
        env = { ...e, ...overrides };
      },
      configurable: true,
    });
  }
};
const df = await mod.load();

const bytes = new TextEncoder().encode(articlesText(N));
const User = new df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
const Article = new df.Entity({
  key: 'Article',
  defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
  schema: { author: User },
});
const list = new df.RestEndpoint({ urlPrefix: 'http://bench.test', path: '/articles', name: 'getArticles', schema: [Article] });
const respond = () => new Response(bytes, { headers: { 'Content-Type': 'application/json' } });
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const read = [];
const iteration = [];
const wall = [];
for (let i = 0; i < WARMUP + SAMPLES; i++) {
  const ctrl = new df.Controller({ fetch: respond });
  const c0 = cpuMs();
  const t0 = performance.now();
  const data = await ctrl.fetch(list);
  const c1 = cpuMs();
  const t1 = performance.now();
  if (data.length !== N) throw new Error(`coldcpu: read ${data.length} articles, want ${N}`);
  await ctrl.resetEntireStore();
  if (IDLE) {
    await turn();
    await turn();
  }
  const c2 = cpuMs();
  ctrl.close();
  if (i >= WARMUP) {
    read.push(c1 - c0);
    iteration.push(c2 - c0);
    wall.push(t1 - t0);
  }
}

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return Number(s[s.length >> 1].toFixed(2));
};
console.log(
  JSON.stringify({
    N,
    samples: SAMPLES,
    idle: IDLE,
    GOGC: go.env.GOGC,
    GOMEMLIMIT: go.env.GOMEMLIMIT,
    readCPU: median(read),
    iterCPU: median(iteration),
    wall: median(wall),
    memMB: Number((go._inst.exports.mem.buffer.byteLength / 2 ** 20).toFixed(1)),
  }),
);
process.exit(0);
