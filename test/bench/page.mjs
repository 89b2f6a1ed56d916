// The benchmark page: datafetch and data-client in one page, on the same
// data, each case measured from the JavaScript caller's point of view.
// bench.mjs drives it through window.bench (see the end of this file):
//
//   await bench.prepare(N)            data of N articles, a loaded store per library
//   await bench.run(caseName, N, opt) interleaved samples: {df: [ms...], dc: [ms...], ...}
//   await bench.profileRun(caseName, N, iterations)  datafetch's side only (for the profiler)
//
// ?wasm=URL loads that datafetch.wasm instead of /dist/datafetch.wasm (the
// profiler uses a build that keeps function names).
//
// Every sample checks what it got (length, the field it changed, ...) and
// throws when it is wrong, so that a broken path fails the benchmark
// instead of measuring nothing.

import { load } from '/dist/datafetch.mjs';
import * as peer from '/bench/out/peer.js';
import { articlesText, AUTHORS, AUTHOR_NAMES } from '/bench/data.mjs';

const status = document.getElementById('status');
const query = new URLSearchParams(location.search);
const wasmURL = query.get('wasm') ?? undefined;

// ?count=1: every function datafetch.wasm imports from wasm_exec.js (each
// call from Go into JavaScript: syscall/js.valueGet, valueCall, ...,
// runtime.nanotime1, ...) is wrapped in a counter, for bench.countRun. The
// wrappers cost time: timings of such a page mean nothing.
const crossings = new Map();
if (query.get('count') === '1') {
  const wrap = (imports) => {
    const gojs = imports?.gojs;
    if (gojs && !gojs.__counted) {
      for (const name of Object.keys(gojs)) {
        const fn = gojs[name];
        gojs[name] = (sp) => {
          crossings.set(name, (crossings.get(name) ?? 0) + 1);
          return fn(sp);
        };
      }
      Object.defineProperty(gojs, '__counted', { value: true });
    }
    return imports;
  };
  const streaming = WebAssembly.instantiateStreaming;
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiateStreaming = (source, imports) => streaming.call(WebAssembly, source, wrap(imports));
  WebAssembly.instantiate = (source, imports) => instantiate.call(WebAssembly, source, wrap(imports));
}

const df = await load(wasmURL);

// In a counting page, now() also takes a snapshot of the counters, so that
// countRun counts only what lies between a sample's first and last now():
// its timed part.
let marks = null;
const now =
  query.get('count') === '1'
    ? () => {
        marks?.push(new Map(crossings));
        return performance.now();
      }
    : () => performance.now();
const PREFIX = 'http://bench.invalid';
const JSON_HEADERS = { 'Content-Type': 'application/json' };

function check(cond, what) {
  if (!cond) throw new Error(`benchmark check failed: ${what}`);
}

// ------------------------------------------------------------ the data

// The current data set: bench.prepare sets it.
let cur;

// A response as fetch gives it: a real Response over the UTF-8 bytes of the
// text (encoded once per data set, as they arrive from the network), with a
// JSON content type.
function respond() {
  return Promise.resolve(new Response(cur.bytes, { headers: JSON_HEADERS }));
}

// The server's answer to a create: the record sent, with the next id.
let nextId = 1_000_000;
function createdResponse(bodyText) {
  const record = { ...JSON.parse(bodyText), id: nextId++ };
  return Promise.resolve(new Response(JSON.stringify(record), { status: 201, headers: JSON_HEADERS }));
}

// The Query's process, the same function on both sides: the published
// articles sorted by title (then id), with their count.
function publishedByTitle(articles) {
  const list = articles.filter((a) => a.published);
  list.sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : Number(a.id) - Number(b.id)));
  return { count: list.length, list };
}

// ------------------------------------------------------------ datafetch

const D = {};
if (query.get('classes') === '1') {
  // The entities as classes (?classes=1, BENCH_CLASSES=1): reads are
  // instances of them.
  D.User = df.Entity(
    class User {
      id = undefined;
      name = '';
    },
  );
  D.Article = df.Entity(
    class Article {
      id = undefined;
      title = '';
      content = '';
      published = false;
      author = null;
      tags = [];
      static schema = { author: D.User };
    },
  );
} else {
  D.User = new df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
  D.Article = new df.Entity({
    key: 'Article',
    defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
    schema: { author: D.User },
  });
}
D.list = new df.RestEndpoint({ urlPrefix: PREFIX, path: '/articles', name: 'getArticles', schema: [D.Article] });
D.article = new df.RestEndpoint({ urlPrefix: PREFIX, path: '/articles/:id', name: 'getArticle', schema: D.Article });
D.user = new df.RestEndpoint({ urlPrefix: PREFIX, path: '/users/:id', name: 'getUser', schema: D.User });
// The server's answer to a PATCH is held until the sample has been timed.
D.pending = undefined;
D.patch = new df.RestEndpoint({
  urlPrefix: PREFIX,
  path: '/articles/:id',
  method: 'PATCH',
  name: 'partialUpdateArticle',
  schema: D.Article,
  getOptimisticResponse(snap, params, body) {
    return { id: params.id, ...body };
  },
  fetch() {
    return new Promise((resolve) => {
      D.pending = resolve;
    });
  },
});

function dfController() {
  return new df.Controller({ fetch: respond });
}

// Collections and queries (issue 15). A Collection-backed list: its push
// endpoint POSTs the new article, and the controller's fetch option answers
// with the created record (createdResponse).
D.coll = new df.RestEndpoint({ urlPrefix: PREFIX, path: '/articles', name: 'getArticleList', schema: new df.schema.Collection([D.Article]) });
D.push = D.coll.push;
D.published = new df.schema.Query(new df.schema.All(D.Article), publishedByTitle);

function dfCollController() {
  return new df.Controller({ fetch: (url, init) => (init?.method === 'POST' ? createdResponse(init.body) : respond()) });
}

function dfRead(ctrl) {
  return ctrl.getResponse(D.list).data;
}

// ------------------------------------------------------------ data-client

class User extends peer.Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static key = 'User';
}

class Article extends peer.Entity {
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
C.list = new peer.RestEndpoint({ urlPrefix: PREFIX, path: '/articles', schema: [Article] });
C.article = new peer.RestEndpoint({ urlPrefix: PREFIX, path: '/articles/:id', schema: Article });
C.user = new peer.RestEndpoint({ urlPrefix: PREFIX, path: '/users/:id', schema: User });
C.pending = undefined;
C.patch = new peer.RestEndpoint({
  urlPrefix: PREFIX,
  path: '/articles/:id',
  method: 'PATCH',
  schema: Article,
  getOptimisticResponse(snap, params, body) {
    return { id: params.id, ...body };
  },
  fetch() {
    return new Promise((resolve) => {
      C.pending = resolve;
    });
  },
});

// The same Collection-backed list: push's fetchResponse answers as the
// controller's fetch option does on datafetch's side (createdResponse), so
// both sides stringify the body, build a Response and parse it.
C.coll = new peer.RestEndpoint({ urlPrefix: PREFIX, path: '/articles', schema: new peer.schema.Collection([Article]) });
C.push = C.coll.push.extend({
  fetchResponse(url, init) {
    return createdResponse(init.body);
  },
});
// data-client 0.10 reads a Query through getResponse (what its useCache
// and useQuery do): Query is an endpoint-like object with a key and a schema.
C.published = new peer.Query(new peer.schema.All(Article), publishedByTitle);

// DCStore is what @data-client/react's CacheProvider sets up, without
// React: a Controller, its reducer, the NetworkManager as middleware, and
// the state that hooks read, with the optimistic updates applied
// (state.optimistic.reduce(reducer, state), computed once per state).
class DCStore {
  constructor() {
    const controller = new peer.Controller();
    const reducer = peer.createReducer(controller);
    let state = peer.initialState;
    let dispatch;
    const api = { getState: () => state, dispatch: (action) => dispatch(action) };
    // Waiters for the next state (what a subscribed component gets).
    let waiters = [];
    const base = (action) => {
      state = reducer(state, action);
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
      return Promise.resolve();
    };
    this.nextState = () => new Promise((resolve) => waiters.push(resolve));
    const chain = peer.applyManager([new peer.NetworkManager()], controller).map((mw) => mw(api));
    dispatch = chain.reduceRight((next, mw) => mw(next), base);
    this.controller = controller;
    this.memo = new Map();
    this.state = () => state;
    let seen;
    let view;
    this.view = () => {
      if (state !== seen) {
        seen = state;
        view = state.optimistic.length ? state.optimistic.reduce(reducer, state) : state;
      }
      return view;
    };
  }

  read(endpoint = C.list) {
    return this.controller.getResponse(endpoint, this.view()).data;
  }

  // readMemo reads as @data-client/react's useCache (and so useQuery)
  // does: getResponse in a useMemo keyed on the state, computed again only
  // when the state changed. A Query's getResponse alone runs its process
  // (and All's scan of the table) on every call, returning a new object.
  readMemo(endpoint) {
    const view = this.view();
    const m = this.memo.get(endpoint);
    if (m?.view === view) return m.data;
    const data = this.controller.getResponse(endpoint, view).data;
    this.memo.set(endpoint, { view, data });
    return data;
  }
}

// ------------------------------------------------------------ checks

function sameArticle(got, want, where) {
  check(got && typeof got === 'object', `${where}: an article object`);
  check(String(got.id) === String(want.id), `${where}: id ${got.id} = ${want.id}`);
  check(got.title === want.title, `${where}: title`);
  check(got.content === want.content, `${where}: content`);
  check(got.published === want.published, `${where}: published`);
  check(got.author && String(got.author.id) === String(want.author.id), `${where}: author.id`);
  check(got.author.name === want.author.name, `${where}: author.name`);
  check(Array.isArray(got.tags) && got.tags.join() === want.tags.join(), `${where}: tags`);
}

// checkList compares a read of the whole list with the source data: the
// length always, every field of a spread of articles.
function checkList(data, where, full = false) {
  const src = cur.src;
  check(Array.isArray(data), `${where}: an array (got ${typeof data})`);
  check(data.length === src.length, `${where}: ${data.length} articles, want ${src.length}`);
  const idx = full ? src.map((_, i) => i) : [0, src.length >> 1, src.length - 1];
  for (const i of idx) sameArticle(data[i], src[i], `${where}[${i}]`);
}

// checkOne checks a read of the list after refetchOne: the second
// article's title is variant next's, and, where before is given (datafetch;
// data-client's setResponse makes every article anew), an article of
// another author keeps its object.
function checkOne(data, before, next, where) {
  checkList(data, where);
  check(data[1].title === cur.one.titles[next], `${where}: the second article's title`);
  const other = cur.otherAuthor[1];
  if (before !== undefined) check(data[other] === before[other], `${where}: an article of another author keeps its object`);
}

// ------------------------------------------------------------ cases
//
// Each case has a sample function per side; a sample does its own untimed
// setup, times the operation, checks the result, and returns the time in
// ms (or {metric: ms}). i is the sample's index (it picks what changes).

// pickArticle spreads the changed article over the list.
const pickArticle = (i) => 1 + ((i * 7919) % cur.N);

const CASES = {
  // Response text → data in JavaScript, in an empty store.
  cold: {
    async df() {
      const ctrl = dfController();
      const t0 = now();
      const data = await ctrl.fetch(D.list);
      const t1 = now();
      checkList(data, 'datafetch cold');
      await ctrl.resetEntireStore();
      return t1 - t0;
    },
    async dc() {
      const store = new DCStore();
      const t0 = now();
      const input = JSON.parse(cur.text);
      await store.controller.setResponse(C.list, input);
      const data = store.read();
      const t1 = now();
      checkList(data, 'data-client cold');
      return t1 - t0;
    },
    // data-client as an app gets it: RestEndpoint's parseResponse reads the
    // Response with response.json() (not a target, for comparison).
    async 'dc via Response.json()'() {
      const store = new DCStore();
      const t0 = now();
      const input = await new Response(cur.bytes, { headers: JSON_HEADERS }).json();
      await store.controller.setResponse(C.list, input);
      const data = store.read();
      const t1 = now();
      checkList(data, 'data-client cold via Response.json()');
      return t1 - t0;
    },
    // The floors: V8's JSON.parse of the text, and reading the bytes of a
    // Response (what datafetch's transport does before Go sees them).
    async 'floor JSON.parse'() {
      const t0 = now();
      const v = JSON.parse(cur.text);
      const t1 = now();
      check(v.length === cur.N, 'JSON.parse length');
      return t1 - t0;
    },
    async 'floor Response.arrayBuffer'() {
      const t0 = now();
      const buf = await new Response(cur.bytes, { headers: JSON_HEADERS }).arrayBuffer();
      const t1 = now();
      check(buf.byteLength === cur.bytes.length, 'arrayBuffer length');
      return t1 - t0;
    },
  },

  // A read of the list with nothing changed since the last read: per read,
  // timed over a batch (the operation is near the timer's resolution).
  reread: {
    async df() {
      const ctrl = cur.dfStore;
      const first = dfRead(ctrl);
      const reps = cur.reps;
      let data;
      const t0 = now();
      for (let r = 0; r < reps; r++) data = dfRead(ctrl);
      const t1 = now();
      check(data === first, 'datafetch re-read returns the same object (===)');
      return (t1 - t0) / reps;
    },
    async dc() {
      const store = cur.dcStore;
      const first = store.read();
      const reps = cur.reps;
      let data;
      const t0 = now();
      for (let r = 0; r < reps; r++) data = store.read();
      const t1 = now();
      check(data === first, 'data-client re-read returns the same object (===)');
      return (t1 - t0) / reps;
    },
  },

  // The same response again, into the store that holds it.
  refetch: {
    async df() {
      const ctrl = cur.dfStore;
      const before = dfRead(ctrl);
      const t0 = now();
      const data = await ctrl.fetch(D.list);
      const t1 = now();
      checkList(data, 'datafetch re-fetch');
      cur.stable.df = data === before;
      return t1 - t0;
    },
    async dc() {
      const store = cur.dcStore;
      const before = store.read();
      const t0 = now();
      const input = JSON.parse(cur.text);
      await store.controller.setResponse(C.list, input);
      const data = store.read();
      const t1 = now();
      checkList(data, 'data-client re-fetch');
      cur.stable.dc = data === before;
      return t1 - t0;
    },
  },

  // The list again with the second article's title changed, or put back
  // (alternately): a poll of a list one of whose items changed. The
  // response text differs from the stored one inside that article.
  refetchOne: {
    async df() {
      const ctrl = cur.dfStore;
      const before = dfRead(ctrl);
      const next = (cur.one.df = 1 - cur.one.df);
      cur.bytes = cur.one.bytes[next];
      const t0 = now();
      const data = await ctrl.fetch(D.list);
      const t1 = now();
      cur.bytes = cur.one.bytes[0];
      checkOne(data, before, next, 'datafetch re-fetch, one changed');
      return t1 - t0;
    },
    async dc() {
      const store = cur.dcStore;
      const next = (cur.one.dc = 1 - cur.one.dc);
      const t0 = now();
      const input = JSON.parse(cur.one.texts[next]);
      await store.controller.setResponse(C.list, input);
      const data = store.read();
      const t1 = now();
      checkOne(data, undefined, next, 'data-client re-fetch, one changed');
      return t1 - t0;
    },
  },

  // One article changes (the detail endpoint's response is stored), then
  // the list is read: "set" and "read" are timed separately.
  change1: {
    async df(i) {
      const ctrl = cur.dfStore;
      const k = pickArticle(i);
      const before = dfRead(ctrl);
      const record = { ...cur.src[k - 1], title: `changed ${i} df` };
      const t0 = now();
      await ctrl.setResponse(D.article, { id: k }, record);
      const t1 = now();
      const data = dfRead(ctrl);
      const t2 = now();
      check(data.length === cur.N && data[k - 1].title === record.title, 'datafetch: the changed title is read');
      const other = cur.otherAuthor[k - 1];
      check(data[other] === before[other], 'datafetch: an unchanged article (another author) keeps its object');
      return { read: t2 - t1, set: t1 - t0 };
    },
    async dc(i) {
      const store = cur.dcStore;
      const k = pickArticle(i);
      const before = store.read();
      const record = { ...cur.src[k - 1], title: `changed ${i} dc` };
      const t0 = now();
      await store.controller.setResponse(C.article, { id: k }, record);
      const t1 = now();
      const data = store.read();
      const t2 = now();
      check(data.length === cur.N && data[k - 1].title === record.title, 'data-client: the changed title is read');
      const other = cur.otherAuthor[k - 1];
      check(data[other] === before[other], 'data-client: an unchanged article (another author) keeps its object');
      return { read: t2 - t1, set: t1 - t0 };
    },
  },

  // One shared user (the author of about N/20 articles) changes.
  changeUser: {
    async df(i) {
      const ctrl = cur.dfStore;
      const u = 1 + (i % AUTHORS);
      const name = `${AUTHOR_NAMES[u - 1]} ${i} df`;
      const t0 = now();
      await ctrl.setResponse(D.user, { id: u }, { id: u, name });
      const t1 = now();
      const data = dfRead(ctrl);
      const t2 = now();
      const a = cur.byAuthor[u];
      check(data.length === cur.N && (a === undefined || data[a].author.name === name), 'datafetch: the changed user is read');
      return { read: t2 - t1, set: t1 - t0 };
    },
    async dc(i) {
      const store = cur.dcStore;
      const u = 1 + (i % AUTHORS);
      const name = `${AUTHOR_NAMES[u - 1]} ${i} dc`;
      const t0 = now();
      await store.controller.setResponse(C.user, { id: u }, { id: u, name });
      const t1 = now();
      const data = store.read();
      const t2 = now();
      const a = cur.byAuthor[u];
      check(data.length === cur.N && (a === undefined || data[a].author.name === name), 'data-client: the changed user is read');
      return { read: t2 - t1, set: t1 - t0 };
    },
  },

  // setResponse of one record, then the read of that record: the cost of
  // a synchronous call into the library, which the list cases hide behind
  // the size of the list (issue 11).
  setOne: {
    async df(i) {
      const ctrl = cur.dfStore;
      const k = pickArticle(i);
      const record = { ...cur.src[k - 1], title: `one ${i} df` };
      const t0 = now();
      await ctrl.setResponse(D.article, { id: k }, record);
      const data = ctrl.getResponse(D.article, { id: k }).data;
      const t1 = now();
      check(data.title === record.title && data.author.id === record.author.id, 'datafetch: the record set is read');
      return t1 - t0;
    },
    async dc(i) {
      const store = cur.dcStore;
      const k = pickArticle(i);
      const record = { ...cur.src[k - 1], title: `one ${i} dc` };
      const t0 = now();
      await store.controller.setResponse(C.article, { id: k }, record);
      const data = store.controller.getResponse(C.article, { id: k }, store.view()).data;
      const t1 = now();
      check(data.title === record.title && data.author.id === record.author.id, 'data-client: the record set is read');
      return t1 - t0;
    },
  },

  // A PATCH with getOptimisticResponse: the fetch is started, the list read
  // back with the optimistic title (timed); then the server answers and
  // the update settles (untimed), so the store stays at N articles.
  optimistic: {
    async df(i) {
      const ctrl = cur.dfStore;
      const k = pickArticle(i);
      const title = `optimistic ${i} df`;
      D.pending = undefined;
      const t0 = now();
      const done = ctrl.fetch(D.patch, { id: k }, { title });
      const data = dfRead(ctrl);
      const t1 = now();
      check(data.length === cur.N && data[k - 1].title === title, 'datafetch: the optimistic title is read');
      while (D.pending === undefined) await new Promise((r) => setTimeout(r, 0));
      D.pending({ ...cur.src[k - 1], title });
      await done;
      check(dfRead(ctrl)[k - 1].title === title, 'datafetch: the server title is stored');
      return t1 - t0;
    },
    async dc(i) {
      const store = cur.dcStore;
      const k = pickArticle(i);
      const title = `optimistic ${i} dc`;
      C.pending = undefined;
      const t0 = now();
      const done = store.controller.fetch(C.patch, { id: k }, { title });
      const data = store.read();
      const t1 = now();
      check(data.length === cur.N && data[k - 1].title === title, 'data-client: the optimistic title is read');
      while (C.pending === undefined) await new Promise((r) => setTimeout(r, 0));
      C.pending({ ...cur.src[k - 1], title });
      await done;
      while (store.state().optimistic.length) await new Promise((r) => setTimeout(r, 0));
      check(store.read()[k - 1].title === title, 'data-client: the server title is stored');
      return t1 - t0;
    },
  },
  // push into a Collection of N articles (issue 15): the new article is
  // POSTed, the server's answer (the record with its id, built by
  // createdResponse on both sides) is appended to the stored list, and the
  // list is read. No update function. The list grows by one a sample, in a
  // store of its own, so the other cases keep N articles.
  push: {
    async df(i) {
      const ctrl = (cur.dfColl ??= await loadCollection('df'));
      const before = ctrl.getResponse(D.coll).data;
      const body = newArticle(i, 'df');
      const t0 = now();
      await ctrl.fetch(D.push, {}, body);
      const data = ctrl.getResponse(D.coll).data;
      const t1 = now();
      checkPushed(data, before, body, 'datafetch');
      return t1 - t0;
    },
    async dc(i) {
      const store = (cur.dcColl ??= await loadCollection('dc'));
      const before = store.read(C.coll);
      const body = newArticle(i, 'dc');
      const t0 = now();
      // controller.fetch resolves when the server has answered; the
      // NetworkManager stores the answer right after: wait for that state.
      let next = store.nextState();
      await store.controller.fetch(C.push, {}, body);
      let data = store.read(C.coll);
      while (data.length === before.length) {
        await next;
        next = store.nextState();
        data = store.read(C.coll);
      }
      const t1 = now();
      checkPushed(data, before, body, 'data-client');
      return t1 - t0;
    },
  },

  // A Query over the N stored articles (issue 15): the published ones
  // sorted by title, with their count (publishedByTitle, the same process
  // on both sides). Untimed, one article changes (its title, and its
  // published flag flips); then "first" is the first read of the query
  // after that change, "reread" a read with nothing changed since (per
  // read, over a batch): it must be the same object.
  query: {
    async df(i) {
      const ctrl = cur.dfStore;
      const change = queryChange(i, 'df');
      await ctrl.setResponse(D.article, { id: change.id }, change.record);
      const t0 = now();
      const first = ctrl.get(D.published);
      const t1 = now();
      let again;
      for (let r = 0; r < QUERY_REREADS; r++) again = ctrl.get(D.published);
      const t2 = now();
      checkQuery(first, change, 'datafetch');
      check(again === first, 'datafetch: the unchanged query re-read returns the same object (===)');
      return { first: t1 - t0, reread: (t2 - t1) / QUERY_REREADS };
    },
    async dc(i) {
      const store = cur.dcStore;
      const change = queryChange(i, 'dc');
      await store.controller.setResponse(C.article, { id: change.id }, change.record);
      const t0 = now();
      const first = store.readMemo(C.published);
      const t1 = now();
      let again;
      for (let r = 0; r < QUERY_REREADS; r++) again = store.readMemo(C.published);
      const t2 = now();
      checkQuery(first, change, 'data-client');
      check(again === first, 'data-client: the unchanged query re-read returns the same object (===)');
      return { first: t1 - t0, reread: (t2 - t1) / QUERY_REREADS };
    },
  },
};

// The query's unchanged re-reads are a few property reads on both sides:
// timed over a batch this long, so the timer's 5 µs step does not hide them.
const QUERY_REREADS = 200;

// loadCollection makes the store the push case grows: the N articles
// fetched through the Collection-backed list endpoint.
async function loadCollection(side) {
  if (side === 'df') {
    const ctrl = dfCollController();
    checkList(await ctrl.fetch(D.coll), 'datafetch collection load');
    return ctrl;
  }
  const store = new DCStore();
  await store.controller.setResponse(C.coll, JSON.parse(cur.text));
  checkList(store.read(C.coll), 'data-client collection load');
  return store;
}

// newArticle is the body of a create: an article of the first user.
function newArticle(i, side) {
  const src = cur.src[i % cur.N];
  return { title: `pushed ${i} ${side}`, content: src.content, published: true, author: { id: 1, name: AUTHOR_NAMES[0] }, tags: src.tags };
}

function checkPushed(data, before, body, who) {
  check(Array.isArray(data) && data.length === before.length + 1, `${who}: push appends one article (${data?.length} after ${before.length})`);
  const last = data[data.length - 1];
  check(last.title === body.title && last.author.id === 1 && Number(last.id) >= 1_000_000, `${who}: the pushed article, with the server's id, is last`);
  check(data[cur.notAuthor1] === before[cur.notAuthor1], `${who}: an article of another user keeps its object`);
}

// queryChange picks the article the query case changes in sample i: a new
// title, and the published flag flipped from what that side last stored.
function queryChange(i, side) {
  const id = pickArticle(i);
  const pub = cur.published[side];
  const published = !(pub.get(id) ?? cur.src[id - 1].published);
  pub.set(id, published);
  cur.publishedCount[side] += published ? 1 : -1;
  return { id, record: { ...cur.src[id - 1], title: `query ${i} ${side}`, published }, count: cur.publishedCount[side] };
}

// checkQuery checks a read of publishedByTitle after a change: the count,
// the order, and the changed article in the list exactly when published.
function checkQuery(v, change, who) {
  check(v && Array.isArray(v.list) && v.count === v.list.length, `${who}: the query reads {count, list}`);
  check(v.count === change.count, `${who}: ${v.count} published articles, want ${change.count}`);
  for (let j = 1; j < v.list.length; j++) check(v.list[j - 1].title <= v.list[j].title, `${who}: the list is sorted by title`);
  const found = v.list.find((a) => String(a.id) === String(change.id));
  check(
    change.record.published ? found?.title === change.record.title : found === undefined,
    `${who}: the changed article is in the list exactly when published`,
  );
}

// ------------------------------------------------------------ driver API

async function prepare(N) {
  status.textContent = `preparing N=${N}`;
  const text = articlesText(N);
  const src = JSON.parse(text);
  const byAuthor = {};
  src.forEach((a, i) => {
    byAuthor[a.author.id] ??= i;
  });
  // otherAuthor[i]: an article whose author is not article i's (data-client
  // re-creates the author of a stored article, and with it every article
  // of that author, so only those keep their objects in both libraries).
  const otherAuthor = src.map((a) => src.findIndex((b) => b.author.id !== a.author.id));
  cur = { N, text, bytes: new TextEncoder().encode(text), src, byAuthor, otherAuthor, stable: {} };
  // refetchOne's two texts: as it is, and with the second article's title
  // changed (the list's text otherwise byte for byte the same).
  const title = src[1].title;
  const changed = `${title} (changed)`;
  const texts = [text, text.replace(`{"id":2,"title":${JSON.stringify(title)}`, `{"id":2,"title":${JSON.stringify(changed)}`)];
  check(texts[1] !== text, 'refetchOne: the second article found in the text');
  cur.one = { df: 0, dc: 0, texts, bytes: texts.map((t) => new TextEncoder().encode(t)), titles: [title, changed] };
  cur.reps = Math.max(5, Math.round(2000 / N) * 5);
  // For the push and query cases.
  cur.notAuthor1 = src.findIndex((a) => a.author.id !== 1);
  cur.published = { df: new Map(), dc: new Map() };
  const publishedCount = src.filter((a) => a.published).length;
  cur.publishedCount = { df: publishedCount, dc: publishedCount };

  // A loaded store per library for the warm cases, and the full check of
  // what each returns against the source data.
  cur.dfStore = dfController();
  const dfData = await cur.dfStore.fetch(D.list);
  checkList(dfData, 'datafetch load', true);
  check(dfRead(cur.dfStore) === dfData, 'datafetch: ctrl.fetch resolves to what getResponse returns');
  check(dfData[0].author === dfData.find((a, i) => i > 0 && a.author.id === dfData[0].author.id)?.author, 'datafetch: a shared user is one object');
  cur.dcStore = new DCStore();
  await cur.dcStore.controller.setResponse(C.list, JSON.parse(text));
  const dcData = cur.dcStore.read();
  checkList(dcData, 'data-client load', true);
  return { N, bytes: cur.bytes.length, articles: src.length, authors: Object.keys(byAuthor).length };
}

// run takes interleaved samples of a case: per iteration each side once,
// the side that goes first alternating; the first `warmup` iterations are
// not kept.
async function run(name, N, { warmup = 5, iterations = 15 } = {}) {
  check(cur && cur.N === N, `prepare(${N}) first`);
  const c = CASES[name];
  check(c, `no case ${name}`);
  status.textContent = `${name} N=${N}`;
  const sides = Object.keys(c);
  const samples = {};
  for (let i = 0; i < warmup + iterations; i++) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      // A full JavaScript GC before each sample (untimed): one side's
      // garbage is not collected on the other side's time. What a sample
      // allocates itself is still collected on its own time.
      await settle();
      const r = await c[side](i);
      if (i < warmup) continue;
      const metrics = typeof r === 'number' ? { '': r } : r;
      for (const [m, ms] of Object.entries(metrics)) {
        check(Number.isFinite(ms) && ms >= 0, `${name} ${side}: a time`);
        (samples[m] ??= {})[side] ??= [];
        samples[m][side].push(ms);
      }
    }
  }
  return { samples, stable: { ...cur.stable } };
}

// settle runs between samples, untimed: with ?gc=minor (the default when
// the page may, Chromium started with --js-flags=--expose-gc as bench.mjs
// does) a young-generation GC, so that one side's short-lived garbage is
// not collected on the other side's time; ?gc=full a full GC; ?gc=idle a
// task turn; ?gc=none nothing. What a sample allocates itself is
// collected on its own time.
const GC_MODE = new URLSearchParams(location.search).get('gc') ?? (typeof globalThis.gc === 'function' ? 'minor' : 'idle');
async function settle() {
  if (GC_MODE === 'minor') globalThis.gc({ type: 'minor' });
  else if (GC_MODE === 'full') globalThis.gc();
  else if (GC_MODE === 'idle') await new Promise((r) => setTimeout(r, 0));
}

// profileRun runs datafetch's side of a case only, for the profiler, and
// returns {timed: the sum of the timed parts in ms, wall: ms of the whole
// loop, with the untimed setup and checks}.
async function profileRun(name, N, iterations) {
  check(cur && cur.N === N, `prepare(${N}) first`);
  const c = CASES[name];
  let timed = 0;
  const t0 = now();
  for (let i = 0; i < iterations; i++) {
    const r = await c.df(1000 + i);
    timed += typeof r === 'number' ? r : Object.values(r).reduce((a, b) => a + b, 0);
  }
  return { timed, wall: now() - t0 };
}

// countRun runs datafetch's side of a case k times in a page opened with
// ?count=1 and returns the calls from Go into JavaScript in the timed part
// of one run (of one read, for the re-read batches), by import name.
async function countRun(name, N, k) {
  check(cur && cur.N === N, `prepare(${N}) first`);
  check(query.get('count') === '1', 'countRun needs ?count=1');
  const c = CASES[name];
  await c.df(0); // warm
  const total = new Map();
  for (let i = 0; i < k; i++) {
    marks = [];
    await c.df(2000 + i);
    const first = marks[0];
    const last = marks[marks.length - 1];
    marks = null;
    for (const [fn, n] of last) {
      const d = n - (first.get(fn) ?? 0);
      if (d) total.set(fn, (total.get(fn) ?? 0) + d);
    }
  }
  const per = name === 'reread' ? k * cur.reps : k;
  const out = {};
  for (const [fn, n] of [...total].sort((a, b) => b[1] - a[1])) out[fn] = n / per;
  return out;
}

// timerResolution is the smallest step performance.now() shows.
function timerResolution() {
  let min = Infinity;
  for (let i = 0; i < 200; i++) {
    const a = now();
    let b = now();
    while (b === a) b = now();
    min = Math.min(min, b - a);
  }
  return min;
}

window.bench = {
  prepare,
  run,
  profileRun,
  countRun,
  cases: Object.keys(CASES),
  info: () => ({
    crossOriginIsolated: self.crossOriginIsolated,
    timerResolutionMs: timerResolution(),
    betweenSamples: GC_MODE,
    userAgent: navigator.userAgent,
    datafetchVersion: df.version,
    peer: peer.versions,
  }),
};
status.textContent = 'ready';
