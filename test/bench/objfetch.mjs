// The engine's cost of data that is already JavaScript, in Node.js: an
// endpoint whose fetch returns parsed objects (the React bench's shape:
// N articles of data.mjs, each sample a fresh copy, made untimed), fetched
// into an empty store and read, with no React and no browser. Prints the
// median of `ctrl.fetch(list)` + `ctrl.getResponse(list)` per N and build.
//
//   node test/bench/objfetch.mjs                     (dist/)
//   OBJ_DISTS=/tmp/main-dist,dist node test/bench/objfetch.mjs
//       two builds of dist/ in one process, samples interleaved (the first
//       alternating), and the ratio of their medians (second/first)
//   OBJ_NS=100,500 OBJ_SAMPLES=300 OBJ_CPU=1
//   OBJ_WASM=a.wasm[,b.wasm]  other datafetch.wasm files (one per dist; a
//       build with function names for `node --cpu-prof`)
//   OBJ_BODY=1  the engine bench's cold case instead: a new Controller whose
//       fetch option answers the response text (`new Response(bytes)`), so
//       the body crosses as bytes and Go parses it (bench.mjs's `cold`, in
//       Node, timed by CPU with OBJ_CPU=1)
//   OBJ_CROSSING=1  the crossing alone: an endpoint without a schema,
//       fetched as useDLE starts it (PREFETCH: nothing handed back) and not
//       read in the timed part: JSON.stringify, the text into Go, its parse
//       and the store's write, no normalize and no read
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { articlesText } from './data.mjs';

const DISTS = (process.env.OBJ_DISTS ?? new URL('../../dist', import.meta.url).pathname).split(',').map((d) => resolve(d));
const WASMS = (process.env.OBJ_WASM ?? '').split(',');
const NS = (process.env.OBJ_NS ?? '100,500').split(',').map(Number);
const SAMPLES = Number(process.env.OBJ_SAMPLES ?? 200);
const WARMUP = 40;
// OBJ_CPU=1 times each sample by the process's CPU time (user + system,
// all its threads) rather than the wall clock: steadier on a busy machine.
const CPU = process.env.OBJ_CPU === '1';
const BODY = process.env.OBJ_BODY === '1';
const CROSSING = process.env.OBJ_CROSSING === '1';
// The controller's method useDLE starts a fetch with (controller.mjs).
const PREFETCH = Symbol.for('datafetch.controller.prefetch');

const source = JSON.parse(articlesText(Math.max(...NS)));
const encoder = new TextEncoder();
const bodies = new Map(NS.map((n) => [n, encoder.encode(articlesText(n))]));
const copy = (n) => source.slice(0, n).map((a) => ({ ...a, author: { ...a.author }, tags: [...a.tags] }));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

// side loads one build and declares the bench's endpoint in it.
async function side(dist, wasm) {
  const { load } = await import(pathToFileURL(`${dist}/datafetch.node.mjs`).href);
  const df = await load(wasm || undefined);
  const User = new df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
  const Article = new df.Entity({
    key: 'Article',
    defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
    schema: { author: User },
  });
  const s = { dist, df, prepared: undefined, ctrl: new df.Controller(), times: [] };
  s.list = new df.RestEndpoint({
    urlPrefix: 'http://bench.invalid',
    path: '/articles',
    name: 'getArticles',
    schema: [Article],
    // With OBJ_BODY, the controller's fetch option answers.
    ...(BODY ? {} : { fetch: () => Promise.resolve(s.prepared) }),
  });
  s.plain = new df.RestEndpoint({ urlPrefix: 'http://bench.invalid', path: '/plain', name: 'plain', fetch: () => Promise.resolve(s.prepared) });
  return s;
}

async function sample(s, n) {
  await s.ctrl.resetEntireStore();
  let read;
  if (BODY) {
    const body = bodies.get(n);
    s.ctrl = new s.df.Controller({ fetch: () => Promise.resolve(new Response(body, { headers: { 'Content-Type': 'application/json' } })) });
    read = () => s.ctrl.fetch(s.list, { count: n });
  } else if (CROSSING) {
    s.prepared = copy(n);
    read = () => s.ctrl[PREFETCH](s.plain, { count: n });
  } else {
    s.prepared = copy(n);
    read = async () => {
      await s.ctrl.fetch(s.list, { count: n });
      return s.ctrl.getResponse(s.list, { count: n }).data;
    };
  }
  const c0 = CPU ? process.cpuUsage() : undefined;
  const t0 = performance.now();
  let got = await read();
  let dt = performance.now() - t0;
  if (CPU) {
    const c = process.cpuUsage(c0);
    dt = (c.user + c.system) / 1000;
  }
  if (CROSSING) got = s.ctrl.getResponse(s.plain, { count: n }).data;
  if (got?.length !== n || got[n - 1].title !== source[n - 1].title) throw new Error(`${s.dist}: read ${got?.length} articles, want ${n}`);
  return dt;
}

const sides = [];
for (let i = 0; i < DISTS.length; i++) sides.push(await side(DISTS[i], WASMS[i]));
for (const n of NS) {
  for (const s of sides) s.times = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) {
      const dt = await sample(s, n);
      if (i >= WARMUP) s.times.push(dt);
    }
  }
  const medians = sides.map((s) => median(s.times));
  const ratio = medians.length === 2 ? `  ratio ${(medians[1] / medians[0]).toFixed(3)}` : '';
  console.log(`N=${n}: ${sides.map((s, i) => `${s.dist} ${medians[i].toFixed(3)} ms`).join(', ')}${ratio}`);
}
