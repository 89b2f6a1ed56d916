// Shared helpers of the Node.js test suite (node --test test/node/).
//
// The suite is black-box: it loads ../../dist/datafetch.mjs, as a user would,
// and runs it against the REST fixture server (test/fixture/testapi, served by
// test/fixtureserver). The server is found through FIXTURE_URL:
//
//   .tools/bin/fixtureserver node --test --test-concurrency=1 --test-force-exit test/node/*.test.mjs
//
// Every test resets the server first, so the files must not run at the same
// time against one server: hence --test-concurrency=1. Without FIXTURE_URL
// each test file starts a fixture server of its own (.tools/bin/fixtureserver,
// else one built with `go build` into a temporary folder), and then files may
// run in parallel:
//
//   node --test --test-force-exit test/node/*.test.mjs
//
// DATAFETCH_DIST=<folder> runs the suite against another build of dist/.
//
// Helpers: fixture URL and the /_control/ calls (reset, delay, failNext, hold,
// held, release...), request counts as the server saw them, waitFor and
// promise-state helpers, a local echo server for wire-level checks, and
// `test`, node:test's with a per-test timeout so that a promise the library
// never settles fails one test instead of hanging the run.

import { test as nodeTest, beforeEach, afterEach, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// DATAFETCH_DIST points the suite at another build of dist/ (a folder).
export const DIST = process.env.DATAFETCH_DIST ? resolve(process.env.DATAFETCH_DIST) : join(ROOT, 'dist');
export const MODULE_PATH = join(DIST, 'datafetch.node.mjs');

// ---------------------------------------------------------------- library

let dfPromise;

/** The datafetch module as Node.js imports the package (dist/datafetch.node.mjs, its "node" entry). */
export async function importModule() {
  if (!existsSync(MODULE_PATH)) {
    throw new Error(`${MODULE_PATH} does not exist: run ./build.sh build first`);
  }
  return import(pathToFileURL(MODULE_PATH).href);
}

/**
 * A second datafetch instance, loaded as load() does but not attached, with
 * its bridge and exports wrapped in counters of the calls into Go:
 * `{mod, go, instance, bridge, exports, calls, funcCalls}`. `calls` holds the
 * counts by entry name; `funcCalls()` sums the js.FuncOf entries (the
 * exported ones are named datafetch...). Tests attach the API as they need
 * (`mod.attach(bridge(), exports, go)`); each bridge() is a new object, since
 * attach keeps its state by bridge.
 */
export async function countingInstance() {
  const mod = await importModule();
  await import(pathToFileURL(join(DIST, 'wasm_exec.js')).href);
  const go = new globalThis.Go();
  // The collector settings load() starts datafetch.wasm with
  // (jsbridge/js/internal/load.mjs), so that collections, and the calls
  // their finalizers make, come as often as in load()'s instance.
  go.env = { ...go.env, GOGC: '1000', GOMEMLIMIT: '1GiB' };
  const { instance } = await WebAssembly.instantiate(readFileSync(join(DIST, 'datafetch.wasm')), go.importObject);
  const before = globalThis.__datafetchGo;
  go.run(instance);
  const registered = globalThis.__datafetchGo;
  assert.notEqual(registered, before, 'the second instance registered its bridge');
  delete globalThis.__datafetchGo;
  const calls = {};
  const wrap = (functions) => {
    const w = {};
    for (const [name, v] of Object.entries(functions)) {
      w[name] =
        typeof v === 'function'
          ? (...args) => {
              calls[name] = (calls[name] ?? 0) + 1;
              return v(...args);
            }
          : v;
    }
    return w;
  };
  const funcCalls = () => Object.entries(calls).reduce((n, [name, k]) => (name.startsWith('datafetch') ? n : n + k), 0);
  return { mod, go, instance, bridge: () => wrap(registered), exports: wrap(instance.exports), calls, funcCalls };
}

/**
 * A load() source that holds datafetch.wasm back: `{response, open}`.
 * `load(response)` (an application/wasm Response whose body is a stream)
 * does not resolve before `open()` hands it the module's bytes, so a test
 * can tell what happens while the module loads without racing it.
 */
export function heldWasm() {
  let stream;
  const body = new ReadableStream({
    start(c) {
      stream = c;
    },
  });
  const response = new Response(body, { headers: { 'Content-Type': 'application/wasm' } });
  return {
    response,
    open() {
      stream.enqueue(new Uint8Array(readFileSync(join(DIST, 'datafetch.wasm'))));
      stream.close();
    },
  };
}

/** The loaded API (`await load()`), loaded once per test file. */
export function loadDF() {
  dfPromise ??= importModule().then((m) => m.load());
  return dfPromise;
}

/** `{df, base, fx}`: the API, the fixture server URL and fixtures(df, base). */
export async function env() {
  const [df, base] = await Promise.all([loadDF(), fixtureURL()]);
  return { df, base, fx: fixtures(df, base) };
}

// ---------------------------------------------------------------- fixture server

let serverPromise;
let ownServer;

function startOwnServer() {
  let bin = join(ROOT, '.tools/bin/fixtureserver');
  let tmp;
  if (!existsSync(bin)) {
    tmp = mkdtempSync(join(tmpdir(), 'datafetch-fixture-'));
    bin = join(tmp, 'fixtureserver');
    execFileSync('go', ['build', '-o', bin, './test/fixtureserver'], {
      cwd: ROOT,
      env: { ...process.env, GOOS: '', GOARCH: '' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, [], { stdio: ['ignore', 'ignore', 'pipe'] });
    ownServer = { child, tmp };
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const m = /FIXTURE_URL=(\S+)/.exec(err);
      if (m) resolvePromise(m[1]);
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`fixtureserver exited with ${code}: ${err}`)));
  });
}

function stopOwnServer() {
  if (!ownServer) return;
  ownServer.child.kill('SIGTERM');
  if (ownServer.tmp) rmSync(ownServer.tmp, { recursive: true, force: true });
  ownServer = undefined;
}
process.on('exit', stopOwnServer);

/** The fixture server's base URL, without a trailing slash. */
export function fixtureURL() {
  serverPromise ??= process.env.FIXTURE_URL ? Promise.resolve(process.env.FIXTURE_URL.replace(/\/+$/, '')) : startOwnServer();
  return serverPromise;
}

async function control(method, path) {
  const base = await fixtureURL();
  const res = await fetch(base + '/_control/' + path, { method });
  if (!res.ok) {
    throw new Error(`fixture control ${method} ${path}: ${res.status} ${await res.text()}`);
  }
  return res.status === 204 ? undefined : res.json();
}

/** Test controls of the fixture server (see web/restserver/control.go). */
export const server = {
  /** Seed data back, no delay, no failures, counts cleared, holding off (held requests get 503). */
  reset: () => control('POST', 'reset'),
  /** ms of latency before every API request. */
  delay: (ms) => control('POST', `delay?ms=${ms}`),
  /** The next `count` mutations (not GETs) answer `status` and change nothing. */
  failNext: (count = 1, status = 500) => control('POST', `fail-next?count=${count}&status=${status}`),
  /** Hold every API request from now on: 'request' (before it runs) or 'response' (after it ran). */
  hold: (mode = 'request') => control('POST', `hold?mode=${mode}`),
  /**
   * The held requests `[{seq, method, path, stage}]`; with n, waits until at
   * least n are held (HANG_GUARD at most: the wait is for an event, the bound
   * only stops a hang).
   */
  held: (n = 0, timeoutMs = HANG_GUARD) => control('GET', `held?wait=${n}&timeout=${timeoutMs}`),
  /** Releases held request `seq` and returns once it has run (or been answered). */
  release: (seq) => control('POST', `release?seq=${seq}`),
  releaseAll: () => control('POST', 'release-all'),
  /** Stop holding and release everything. */
  unhold: () => control('POST', 'unhold'),
  /** `{"METHOD /path?query": n}`, counted on arrival. */
  counts: () => control('GET', 'counts'),
  /** How many requests "METHOD /path?query" arrived. */
  count: async (key) => (await control('GET', 'counts'))[key] ?? 0,
  /** Total API requests that arrived. */
  total: async () => Object.values(await control('GET', 'counts')).reduce((a, b) => a + b, 0),
};

/**
 * Releases the held request matching `method` and `path` (exact path, with
 * query) and returns it. Waits (up to HANG_GUARD) for it to be held.
 */
export async function releaseWhere(method, path) {
  const deadline = Date.now() + HANG_GUARD;
  for (;;) {
    const held = await server.held();
    const h = held.find((r) => r.method === method && r.path === path);
    if (h) {
      await server.release(h.seq);
      return h;
    }
    if (Date.now() > deadline) {
      throw new Error(`no held request ${method} ${path}; held: ${JSON.stringify(held)}`);
    }
    await sleep(10);
  }
}

// ---------------------------------------------------------------- test plumbing

/**
 * How long a wait for an event (a held request, a listener call) may take
 * before it counts as a hang. Minutes: a loaded two-core machine must never
 * reach it; tests wait for events, never for time to pass.
 */
export const HANG_GUARD = 120_000;

/** Per-test timeout: a promise the library never settles fails its test, not the run. */
export const TEST_TIMEOUT = 2 * HANG_GUARD + 60_000;

/** node:test's `test` with a default timeout. */
export function test(name, options, fn) {
  if (typeof options === 'function') {
    fn = options;
    options = {};
  }
  return nodeTest(name, { timeout: TEST_TIMEOUT, ...options }, fn);
}

/**
 * Registers the hooks every test file uses: reset the fixture server before
 * each test, and after each release anything still held (so nothing hangs).
 */
export function setup() {
  beforeEach(async () => {
    await server.reset();
  });
  afterEach(async () => {
    await server.reset();
  });
  after(() => stopOwnServer());
}

// ---------------------------------------------------------------- time

/**
 * A fake clock for a Controller's `now` option: `new df.Controller({now:
 * clock.now})`; `clock.advance(ms)` moves it on. Expiry tests use it rather
 * than sleeping on the wall clock.
 */
export function fakeClock(start = 1_700_000_000_000) {
  const clock = {
    t: start,
    now: () => clock.t,
    advance(ms) {
      clock.t += ms;
      return clock.t;
    },
  };
  return clock;
}

// ---------------------------------------------------------------- async helpers

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `fn` until it returns a truthy value (returned) or the timeout
 * passes (throws). The timeout is a hang guard, not a speed bound.
 */
export async function waitFor(fn, { timeout = HANG_GUARD, interval = 5, message } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      const why = message ?? `waitFor timed out after ${timeout} ms`;
      throw new Error(last ? `${why}: ${last.message}` : why);
    }
    await sleep(interval);
  }
}

/**
 * 'resolved', 'rejected' or 'pending': the state of `p` once the jobs and
 * callbacks already queued have run (two turns of the event loop), with no
 * wall-clock wait. 'resolved' means the library answered at once; for
 * 'pending' to mean anything, what `p` waits for must be held (a request
 * held at the server, waited for with server.held). Handles the rejection,
 * so a pending promise checked here never becomes an unhandled rejection.
 */
export async function promiseState(p) {
  let state = 'pending';
  p.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
  return state;
}

/** Marks a promise's rejection as handled and returns it. */
export function quiet(p) {
  p?.catch?.(() => {});
  return p;
}

/**
 * Runs `fn` and returns the error it throws or rejects with. Fails when it
 * neither throws nor rejects. A library may report bad input either way.
 */
export async function failureOf(fn, what = 'call') {
  let result;
  try {
    result = await fn();
  } catch (e) {
    return e;
  }
  assert.fail(`${what} should have failed, but returned ${safeString(result)}`);
}

export function safeString(v) {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Asserts `err` is an Error with a non-empty message. */
export function assertError(err, what = 'error') {
  assert.ok(err instanceof Error, `${what}: want an Error, got ${safeString(err)}`);
  assert.equal(typeof err.message, 'string');
  assert.ok(err.message.length > 0, `${what}: empty message`);
}

/** Asserts `err.message` mentions at least one of `words`. */
export function assertMentions(err, words, what = 'error message') {
  const msg = String(err?.message ?? '');
  assert.ok(
    words.some((w) => msg.includes(w)),
    `${what} ${JSON.stringify(msg)} should mention one of ${JSON.stringify(words)}`,
  );
}

/** Records every listener call of a subscription. */
export function recorder() {
  const calls = [];
  const listener = (state) => calls.push(state);
  listener.calls = calls;
  listener.last = () => calls[calls.length - 1];
  return listener;
}

// ---------------------------------------------------------------- echo server

/**
 * A local HTTP server that answers every request with a JSON description of
 * it: {method, path, query, headers, body, bodyBase64}. For checks of what
 * the library puts on the wire (bodies, headers).
 */
export async function startEcho() {
  const requests = [];
  const srv = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const buf = Buffer.concat(chunks);
      const u = new URL(req.url, 'http://x');
      const rec = {
        method: req.method,
        path: u.pathname,
        query: u.search,
        headers: req.headers,
        body: buf.length ? buf.toString('utf8') : null,
        bodyBase64: buf.length ? buf.toString('base64') : null,
      };
      requests.push(rec);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(rec));
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${srv.address().port}`,
    requests,
    close: () => new Promise((r) => srv.close(r)),
  };
}

/** A URL on which nothing listens (a port that was just free). */
export async function deadURL() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const port = srv.address().port;
  await new Promise((r) => srv.close(r));
  return `http://127.0.0.1:${port}`;
}

// ---------------------------------------------------------------- common schemas

/**
 * Entities and endpoints most files use, on the fixture server at `base`.
 * Tests make their own `new df.Controller()`, so each starts with an empty
 * store.
 */
export function fixtures(df, base) {
  const User = df.Entity({
    key: 'User',
    defaults: { id: undefined, name: '', email: '', isManager: false },
  });
  const Article = df.Entity({
    key: 'Article',
    pk: 'id',
    defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
    schema: { author: User, createdAt: Date },
  });
  const Comment = df.Entity({
    key: 'Comment',
    defaults: { id: undefined, postId: 0, name: '', email: '', body: '' },
  });
  const Post = df.Entity({
    key: 'Post',
    defaults: { id: null, title: '', content: '' },
  });
  const Count = df.Entity({
    key: 'Count',
    pk: () => 'SINGLETON',
    defaults: { count: 0, updatedAt: 0 },
    schema: { updatedAt: Date },
  });
  const getArticle = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', name: 'getArticle', schema: Article });
  const listArticles = new df.RestEndpoint({ urlPrefix: base, path: '/articles', name: 'listArticles', schema: [Article] });
  const patchArticle = new df.RestEndpoint({
    urlPrefix: base,
    path: '/articles/:id',
    method: 'PATCH',
    name: 'patchArticle',
    schema: Article,
  });
  const getComment = new df.RestEndpoint({ urlPrefix: base, path: '/comments/:id', name: 'getComment', schema: Comment });
  const getUser = new df.RestEndpoint({ urlPrefix: base, path: '/users/:id', name: 'getUser', schema: User });
  const getCount = new df.RestEndpoint({ urlPrefix: base, path: '/api/count', name: 'getCount', schema: Count });
  return { User, Article, Comment, Post, Count, getArticle, listArticles, patchArticle, getComment, getUser, getCount };
}

/**
 * linkFetch is the `fetch` option of a header-token list (docs/js-api.md,
 * Pagination): the results of the body and the Link header, as one object; a
 * body that is not JSON is an error with status 400, rethrown.
 */
export async function linkFetch(params) {
  const response = await globalThis.fetch(this.url(params));
  let results;
  try {
    results = await response.json();
  } catch (err) {
    err.status = 400;
    throw err;
  }
  return { link: response.headers.get('link'), results };
}

/** Changes an article directly on the server (not through the library). */
export async function patchOnServer(base, id, fields) {
  const res = await fetch(`${base}/articles/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fields),
  });
  assert.equal(res.status, 200, `PATCH /articles/${id} on the server`);
  return res.json();
}
