// The React benchmark page (react.mjs drives it; README.md, "React"): one
// app written twice over the same components, once with datafetch/react
// and once with @data-client/react 0.10, in one page with React 19. The
// scenarios are the shapes of data-client's own React benchmark
// (getlist-100/500, getlist-500-sorted, update-entity, update-user,
// invalidate-and-resolve, a mount/unmount cycle for memory); each sample is
// timed from the action to the DOM change that shows it, seen by a
// MutationObserver. The "server" is in the page: endpoints' fetch functions
// return parsed objects (prepared, untimed, before the sample), as apps
// with a GraphQL client, a worker or a local store do.
//
// react.mjs bundles this file with esbuild (React, react-dom and
// @data-client/react from node_modules, datafetch from dist/) into
// out/react-app.js and calls window.reactBench.

import * as DCR from '@data-client/react';
import { Entity, Query, RestEndpoint, schema } from '@data-client/rest';
import { createElement as h, memo, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { load } from '../../dist/datafetch.mjs';
import * as DFR from '../../dist/react.mjs';
import { articlesText } from './data.mjs';

// The articles the store holds in the update scenarios (the peer's
// mountCount) and the rows rendered of them (its renderLimit).
const MOUNT_COUNT = 1000;
const RENDER_LIMIT = 100;
// A sample that sees no DOM change in this long is broken, not slow.
const STUCK_MS = 60_000;
const PREFIX = 'http://bench.invalid';

// The Go instance load() makes, for its linear memory's size; with
// ?gctrace=1 its runtime prints each collection (the Go heap after it) to
// the console, which react.mjs reads.
let go;
const query = new URLSearchParams(location.search);
globalThis.Go = class extends globalThis.Go {
  constructor() {
    super();
    go = this;
    if (query.get('gctrace') === '1') this.env = { GODEBUG: 'gctrace=1' };
  }
};
// ?count=1 (react.mjs's REACT_COUNT): every call from Go into JavaScript
// (datafetch.wasm's imports) and from JavaScript into Go (its exports:
// resume, datafetchStart, ...) is counted, with the time of each from the
// sample's start, for countRun. The wrappers cost time: timings of such a
// page mean nothing.
const counted = { calls: new Map(), events: null, t0: 0 };
function countCall(name) {
  counted.calls.set(name, (counted.calls.get(name) ?? 0) + 1);
  counted.events?.push([name, performance.now() - counted.t0]);
}
if (query.get('count') === '1') {
  const wrapImports = (imports) => {
    for (const [mod, fns] of Object.entries(imports ?? {})) {
      for (const [name, fn] of Object.entries(fns)) {
        if (typeof fn !== 'function') continue;
        fns[name] = /valueInvoke|valueCall|valueNew/.test(name)
          ? (...a) => {
              countCall(`${mod}.${name}`);
              try {
                return fn(...a);
              } finally {
                counted.events?.push([`return ${name}`, performance.now() - counted.t0]);
              }
            }
          : name === 'runtime.scheduleTimeoutEvent'
            ? (sp) => {
                countCall(`${mod}.${name}`);
                const dv = new DataView(go._inst.exports.mem.buffer);
                counted.events?.push([
                  `timeout ${dv.getUint32((sp >>> 0) + 8, true) + dv.getInt32((sp >>> 0) + 12, true) * 4294967296}ms`,
                  performance.now() - counted.t0,
                ]);
                return fn(sp);
              }
            : (...a) => {
                countCall(`${mod}.${name}`);
                return fn(...a);
              };
      }
    }
    return imports;
  };
  const wrapInstance = (instance) => {
    const exports = {};
    for (const [name, x] of Object.entries(instance.exports)) {
      exports[name] =
        typeof x === 'function'
          ? (...a) => {
              countCall(`export ${name}`);
              try {
                return x(...a);
              } finally {
                counted.events?.push([`return ${name}`, performance.now() - counted.t0]);
              }
            }
          : x;
    }
    const fake = Object.create(WebAssembly.Instance.prototype);
    Object.defineProperty(fake, 'exports', { value: exports });
    return fake;
  };
  const streaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const r = await streaming.call(WebAssembly, source, wrapImports(imports));
    return { module: r.module, instance: wrapInstance(r.instance) };
  };
  const origTimeout = globalThis.setTimeout;
  globalThis.setTimeout = (...a) => {
    countCall('js setTimeout');
    return origTimeout(...a);
  };
  const origQM = globalThis.queueMicrotask;
  globalThis.queueMicrotask = (f) => {
    countCall('js queueMicrotask');
    origQM(f);
  };
}
const df = await load(query.get('wasm') ?? '/dist/datafetch.wasm');

// ------------------------------------------------------------ the server

// server holds the records the endpoints' fetch functions answer with. A
// list answer is prepared (copied) before the sample, untimed, so that both
// libraries get fresh objects of their own and the copy is not timed.
const server = {
  articles: JSON.parse(articlesText(MOUNT_COUNT)),
  users: new Map(),
  prepared: undefined,
  pending: [],
  prepare(count) {
    const list = this.articles.slice(0, count).map((a) => ({ ...a, author: { ...this.users.get(a.author.id) }, tags: [...a.tags] }));
    this.prepared = { count, list };
  },
  list(count) {
    counted.events?.push(['server.list', performance.now() - counted.t0]);
    if (this.prepared?.count !== count) this.prepare(count);
    const { list } = this.prepared;
    this.prepared = undefined;
    return Promise.resolve(list);
  },
  // A write's answer waits until the sample is timed (the peer's network
  // answers later than its optimistic update shows): settle resolves them.
  answer(record) {
    return new Promise((resolve) => this.pending.push(() => resolve(record)));
  },
  settle() {
    const p = this.pending;
    this.pending = [];
    for (const resolve of p) resolve();
  },
};
for (const a of server.articles) server.users.set(a.author.id, { ...a.author });

function byTitle(articles) {
  return [...articles].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id));
}

// ------------------------------------------------------------ datafetch

const D = {};
D.User = new df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
D.Article = new df.Entity({
  key: 'Article',
  defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
  schema: { author: D.User },
});
D.list = new df.RestEndpoint({
  urlPrefix: PREFIX,
  path: '/articles',
  searchParams: undefined,
  name: 'getArticles',
  schema: [D.Article],
  fetch: (params) => server.list(params.count),
});
D.updateArticle = new df.RestEndpoint({
  urlPrefix: PREFIX,
  path: '/articles/:id',
  method: 'PATCH',
  name: 'updateArticle',
  schema: D.Article,
  getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  fetch: (params, body) => server.answer({ ...server.articles[params.id - 1], ...body }),
});
D.updateUser = new df.RestEndpoint({
  urlPrefix: PREFIX,
  path: '/users/:id',
  method: 'PATCH',
  name: 'updateUser',
  schema: D.User,
  getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  fetch: (params, body) => server.answer({ ...server.users.get(params.id), ...body }),
});
D.sorted = new df.schema.Query(new df.schema.All(D.Article), byTitle);

// ------------------------------------------------------------ data-client

class User extends Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static key = 'User';
}

class Article extends Entity {
  id = 0;
  title = '';
  content = '';
  published = false;
  author = null;
  tags = [];
  pk() {
    return `${this.id}`;
  }
  static key = 'Article';
  static schema = { author: User };
}

const C = {};
C.list = new RestEndpoint({ urlPrefix: PREFIX, path: '/articles', schema: [Article], fetch: (params) => server.list(params.count) });
C.updateArticle = new RestEndpoint({
  urlPrefix: PREFIX,
  path: '/articles/:id',
  method: 'PATCH',
  schema: Article,
  getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  fetch: (params, body) => server.answer({ ...server.articles[params.id - 1], ...body }),
});
C.updateUser = new RestEndpoint({
  urlPrefix: PREFIX,
  path: '/users/:id',
  method: 'PATCH',
  schema: User,
  getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  fetch: (params, body) => server.answer({ ...server.users.get(params.id), ...body }),
});
// data-client 0.10 reads a Query with useCache (it has no useQuery).
C.sorted = new Query(new schema.All(Article), byTitle);

// ------------------------------------------------------------ components
//
// The same components for both: a library is the hooks that read the list
// and the sorted list, and its provider.

const UserName = memo(function UserName({ user }) {
  return h('span', { 'data-user': user.id }, user.name);
});

const Row = memo(function Row({ article }) {
  return h(
    'div',
    { 'data-id': article.id },
    h('span', { 'data-title': '' }, article.title),
    ' by ',
    h(UserName, { user: article.author }),
    h('span', null, article.published ? ' published ' : ' draft '),
    h('span', null, article.tags.join(', ')),
    h('p', null, article.content),
  );
});

function Rows({ list, limit }) {
  useLayoutEffect(() => {
    if (list) counted.events?.push(['rows commit', performance.now() - counted.t0]);
  }, [list]);
  if (!list) return null;
  counted.events?.push(['rows render', performance.now() - counted.t0]);
  return h(
    'div',
    { 'data-count': list.length },
    list.slice(0, limit).map((a) => h(Row, { key: a.id, article: a })),
  );
}

function ListView({ lib, count, limit }) {
  return h(Rows, { list: lib.useList(count), limit });
}

function SortedView({ lib, count, limit }) {
  return h('div', { 'data-sorted': '' }, h(Rows, { list: lib.useSorted(count), limit }));
}

function App({ lib }) {
  const [view, setView] = useState(null);
  lib.setView = setView;
  lib.ctrl = lib.useController();
  useEffect(() => lib.mounted(), [lib]);
  let body = null;
  if (view !== null) body = h(view.sorted ? SortedView : ListView, { lib, count: view.count, limit: view.limit });
  return h(Suspense, { fallback: h('p', { 'data-loading': '' }, 'loading') }, body);
}

function library(name, container) {
  const lib = { name, container, root: createRoot(container) };
  // ready settles once App has mounted (a provider may render its
  // children later than the first commit).
  lib.ready = new Promise((resolve) => {
    lib.mounted = resolve;
  });
  if (name === 'datafetch') {
    lib.controller = new df.Controller();
    lib.useController = DFR.useController;
    lib.useList = (count) => DFR.useDLE(D.list, { count }).data;
    lib.useSorted = (count) => {
      const { data } = DFR.useDLE(D.list, { count });
      const sorted = DFR.useQuery(D.sorted);
      return data && sorted;
    };
    lib.E = D;
    flushSync(() => lib.root.render(h(DFR.DataProvider, { controller: lib.controller }, h(App, { lib }))));
  } else {
    lib.useController = DCR.useController;
    lib.useList = (count) => DCR.useDLE(C.list, { count }).data;
    lib.useSorted = (count) => {
      const { data } = DCR.useDLE(C.list, { count });
      const sorted = DCR.useCache(C.sorted);
      return data && sorted;
    };
    lib.E = C;
    flushSync(() => lib.root.render(h(DCR.CacheProvider, null, h(App, { lib }))));
  }
  return lib;
}

// ------------------------------------------------------------ measuring

// changed resolves with performance.now() at the first DOM change of
// container after which done() holds (a MutationObserver callback runs
// right after React's commit, before the browser paints).
function changed(container, done, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      mo.disconnect();
      reject(new Error(`react bench: ${what} never showed`));
    }, STUCK_MS);
    const mo = new MutationObserver(() => {
      if (!done()) return;
      const t = performance.now();
      mo.disconnect();
      clearTimeout(timer);
      resolve(t);
    });
    mo.observe(container, { childList: true, subtree: true, characterData: true });
  });
}

function showsCount(lib, count) {
  return () => lib.container.querySelector('[data-count]')?.dataset.count === String(count);
}

function titleOf(lib, id) {
  return lib.container.querySelector(`[data-id="${id}"] [data-title]`)?.textContent;
}

// timed runs act and resolves with the ms until done() holds in the DOM.
async function timed(lib, act, done, what) {
  const seen = changed(lib.container, done, what);
  counted.start?.();
  const t0 = performance.now();
  act();
  return (await seen) - t0;
}

// show sets the view, untimed, and waits until it is in the DOM.
async function show(lib, view) {
  if (view === null) {
    flushSync(() => lib.setView(null));
    return;
  }
  server.prepare(view.count);
  const seen = changed(lib.container, showsCount(lib, view.count), `${lib.name}: ${view.count} articles`);
  lib.setView(view);
  await seen;
}

async function reset(lib) {
  flushSync(() => lib.setView(null));
  server.settle();
  await lib.ctrl.resetEntireStore();
}

let version = 0;

// Each scenario: setup(lib) (untimed, once per library and round) and
// sample(lib, i) (one timed sample, its own untimed preparation).
const SCENARIOS = {
  'getlist-100': getlist(100, false),
  'getlist-500': getlist(500, false),
  'getlist-500-sorted': getlist(500, true),
  'update-entity': {
    setup: mounted,
    async sample(lib, i) {
      const id = 1 + ((i * 37) % RENDER_LIMIT);
      const title = `${server.articles[id - 1].title} (v${++version})`;
      let done;
      const ms = await timed(
        lib,
        () => {
          done = lib.ctrl.fetch(lib.E.updateArticle, { id }, { title });
        },
        () => titleOf(lib, id) === title,
        `${lib.name}: the new title of ${id}`,
      );
      server.settle();
      await done;
      return ms;
    },
  },
  'update-user': {
    setup: mounted,
    async sample(lib, i) {
      const id = server.articles[(i * 37) % RENDER_LIMIT].author.id;
      const name = `${server.users.get(id).name} (v${++version})`;
      let done;
      const ms = await timed(
        lib,
        () => {
          done = lib.ctrl.fetch(lib.E.updateUser, { id }, { name });
        },
        () => lib.container.querySelector(`[data-user="${id}"]`)?.textContent === name,
        `${lib.name}: the new name of user ${id}`,
      );
      server.settle();
      await done;
      return ms;
    },
  },
  'invalidate-and-resolve': {
    setup: mounted,
    async sample(lib, i) {
      const id = 1 + ((i * 37) % RENDER_LIMIT);
      const a = server.articles[id - 1];
      const title = `${a.title.replace(/ \(v\d+\)$/, '')} (v${++version})`;
      a.title = title;
      server.prepare(MOUNT_COUNT);
      let done;
      const ms = await timed(
        lib,
        () => {
          done = lib.ctrl.invalidate(lib.E.list, { count: MOUNT_COUNT });
        },
        () => titleOf(lib, id) === title,
        `${lib.name}: invalidated list showing the new title of ${id}`,
      );
      await done;
      return ms;
    },
  },
};

function getlist(count, sorted) {
  return {
    async setup(lib) {
      await reset(lib);
    },
    async sample(lib) {
      await reset(lib);
      // What the reset started (datafetch collects what the store held,
      // from a timer) runs before the sample, not in it.
      await idle();
      server.prepare(count);
      return timed(lib, () => lib.setView({ count, sorted, limit: count }), showsCount(lib, count), `${lib.name}: ${count} articles`);
    },
  };
}

async function mounted(lib) {
  await reset(lib);
  await show(lib, { count: MOUNT_COUNT, limit: RENDER_LIMIT });
}

// idle resolves when the page is next idle: timers due and queued work
// have run.
function idle() {
  return new Promise((resolve) => requestIdleCallback(resolve));
}

function gc() {
  // Between samples, so that one side's garbage is not collected on the
  // other's time (Chromium runs with --expose-gc).
  globalThis.gc?.({ type: 'minor' });
}

const libs = {
  datafetch: library('datafetch', document.getElementById('datafetch')),
  'data-client': library('data-client', document.getElementById('data-client')),
};

// run: warmup + iterations interleaved samples of each library (the one
// that goes first alternating): {datafetch: [ms...], 'data-client': [...]}.
async function run(name, warmup, iterations) {
  const sc = SCENARIOS[name];
  if (sc === undefined) throw new Error(`react bench: no scenario ${name}`);
  const out = { datafetch: [], 'data-client': [] };
  const order = [libs.datafetch, libs['data-client']];
  for (const lib of order) await sc.setup(lib);
  for (let i = 0; i < warmup + iterations; i++) {
    const pair = i % 2 ? [order[1], order[0]] : order;
    for (const lib of pair) {
      gc();
      const ms = await sc.sample(lib, i);
      if (i >= warmup) out[lib.name].push(ms);
      // What the sample left queued runs before the next sample, untimed:
      // data-client 0.10's NetworkManager starts requests and forgets
      // finished ones from requestIdleCallback (without this wait, a
      // second invalidate right after a refetch is never fetched).
      await idle();
    }
  }
  for (const lib of order) await reset(lib);
  return out;
}

// profileRun runs iterations samples of datafetch's side alone (react.mjs
// profiles it with REACT_PROFILE).
async function profileRun(name, iterations) {
  const sc = SCENARIOS[name];
  const lib = libs.datafetch;
  await sc.setup(lib);
  for (let i = 0; i < iterations; i++) {
    await sc.sample(lib, i);
    await new Promise((resolve) => requestIdleCallback(resolve));
  }
  await reset(lib);
}

// countRun runs one side's samples of scenario name k times (after its
// setup and a warm-up sample) in a page opened with ?count=1 and returns
// the calls between JavaScript and Go per sample in the timed part, per
// sample the goroutines at its start, its end and after the idle callback
// and the Go GC cycles during it and after (a datafetch.wasm built with
// test/bench/countwasm; -1 without), and each sample's timeline:
// [what, ms from the action] for every call, the fetch, the list's render
// and commit, and the DOM changes.
async function countRun(name, k, side = 'datafetch') {
  const sc = SCENARIOS[name];
  const lib = libs[side];
  const x = go._inst.exports;
  const goroutines = () => (x.datafetchCountGoroutines ? x.datafetchCountGoroutines() : -1);
  const gcs = () => (x.datafetchCountGC ? x.datafetchCountGC() : -1);
  await sc.setup(lib);
  await sc.sample(lib, 0);
  await idle();
  const total = new Map();
  const per = [];
  const events = [];
  const mo = new MutationObserver(() => counted.events?.push(['DOM mutation', performance.now() - counted.t0]));
  mo.observe(lib.container, { childList: true, subtree: true, characterData: true });
  for (let i = 0; i < k; i++) {
    let g0, c0, before;
    counted.start = () => {
      g0 = goroutines();
      c0 = gcs();
      before = new Map(counted.calls);
      counted.events = [];
      counted.t0 = performance.now();
    };
    const ms = await sc.sample(lib, i + 1);
    counted.start = undefined;
    const g1 = goroutines();
    const c1 = gcs();
    events.push(counted.events);
    counted.events = null;
    await idle();
    per.push({ ms, goroutinesBefore: g0, goroutinesEnd: g1, goroutinesIdle: goroutines(), gc: c1 - c0, gcAfterIdle: gcs() - c1 });
    for (const [fn, n] of counted.calls) {
      const d = n - (before.get(fn) ?? 0);
      if (d) total.set(fn, (total.get(fn) ?? 0) + d);
    }
  }
  mo.disconnect();
  await reset(lib);
  const calls = {};
  for (const [fn, n] of [...total].sort((a, b) => b[1] - a[1])) calls[fn] = n / k;
  return { calls, per, events };
}

// memory: the peer's mount/unmount cycle on datafetch's side, cycles
// times: a list of count articles fetched into an empty store
// (resetEntireStore), shown, unmounted; then a full JavaScript GC and a
// controller gc() sweep. After each cycle: the wasm memory's size and the
// JavaScript heap in use (bytes).
async function memory(count, cycles) {
  const lib = libs.datafetch;
  const sizes = [];
  for (let c = 0; c < cycles; c++) {
    await reset(lib);
    await show(lib, { count, limit: count });
    flushSync(() => lib.setView(null));
    await reset(lib);
    globalThis.gc?.();
    lib.controller.gc();
    // Go's collector runs once the page is idle after a sweep (an idle
    // callback asked for before this one): let it run.
    await new Promise((resolve) => requestIdleCallback(resolve));
    sizes.push({ wasm: go._inst.exports.mem.buffer.byteLength, js: performance.memory?.usedJSHeapSize });
  }
  return sizes;
}

await Promise.all(Object.values(libs).map((lib) => lib.ready));
window.reactBench = { run, memory, profileRun, countRun, scenarios: Object.keys(SCENARIOS) };
document.getElementById('status').textContent = 'ready';
