// The JavaScript port of the engine's URL rules that pre-started requests
// use (internal/prestart.mjs, requestURL), against the engine itself
// (endpoint.url(params), core/rest/url.go): over a table of paths and
// params, and a seeded random sweep, the port gives the engine's URL
// exactly, or gives none where the engine refuses. And the registry of
// pre-started requests: a response is handed over once, only for its URL
// and a plain GET init, and forgotten (aborted) when no read needs it.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, env, importModule, setup, test } from './harness.mjs';

setup();

const { Entity } = await importModule();
const { requestURL, prestart, takePrestarted, prestartedCount } = await import(pathToFileURL(join(DIST, 'internal/prestart.mjs')).href);

// The engine's URL, or the Error it throws.
function engineURL(ep, params) {
  try {
    return ep.url(params);
  } catch (err) {
    return err;
  }
}

// check compares the port with the engine for ep and params.
function check(ep, params, where) {
  const want = engineURL(ep, params);
  const got = requestURL(ep, params);
  if (want instanceof Error) {
    assert.equal(got, undefined, `${where}: the engine refuses (${want.message}); the port must give no URL`);
  } else {
    assert.equal(got, want, `${where}: the port's URL`);
  }
  return want instanceof Error ? 'refused' : 'url';
}

const show = (v) => JSON.stringify(v, (k, x) => (x === undefined ? '<undefined>' : x));

// Paths (urlPrefix, path) and params; every pair is checked.
const PREFIXES = ['', '/rest', '/rest/', 'http://127.0.0.1:8080', 'http://127.0.0.1:8080/api/', 'https://example.com/a%20b'];
const PATHS = [
  '/articles',
  '/articles/',
  '/articles/:id',
  '/users/:userId/articles/:id',
  '/files/:name.:ext',
  '/files/:name.json',
  '/search?format=json',
  '/search?q=:q',
  '/a/:id/b?x=1',
  '/:id',
  '/::id',
  '/a:b',
  '/under_:_score9',
  // path-to-regexp 8's syntax, as data-client writes paths: optional
  // groups, wildcards, escapes.
  '/users{/:id}',
  '/users{/:id}{/:group}',
  '/a{/:id/:userId}',
  '/a{/:id{/:userId}}',
  '/files/*path',
  '/users/:id/*rest',
  '/files{/*path}',
  '/users/:id{/*rest}',
  '/users/:id/events/public\\?per_page=50',
  '/a\\:b/:id',
  '/a\\{b\\}/:id',
  '/a/\\*path',
  // The engine refuses the endpoint: a token named twice, no leading slash,
  // braces that do not match.
  '/a/:id/b/:id',
  'articles/:id',
  '/a/:id{/*id}',
  '/a}/:id',
  '/a{/:id',
];
const FULL_PATHS = [
  'http://127.0.0.1:8080/articles/:id',
  'https://user:pw@example.com:8443/x/:id',
  'http://localhost:3000',
  'http\\://test.com/user/:id',
  'http\\://test.com:8080/files/*path',
];
const PARAMS = [
  undefined,
  null,
  {},
  { id: '1' },
  { id: 1 },
  { id: 0 },
  { id: -2.5 },
  { id: 1e21 },
  { id: 1e-7 },
  { id: 0.1 + 0.2 },
  { id: true },
  { id: false },
  { id: null },
  { id: '' },
  { id: 'a b/c?d#e&f=g' },
  { id: "-_.!~*'()" },
  { id: 'é中😀' },
  { id: '\uD800' },
  { id: 'a\uDC00' },
  { id: '.' },
  { id: '..' },
  { id: '%2e' },
  { id: '%2E%2e' },
  { id: '...' },
  { id: 'x', name: '.', ext: '.' },
  { name: '', ext: '.' },
  { name: '.', ext: 'json' },
  { id: ['1'] },
  { id: { a: 1 } },
  { id: '1', b: '2', a: '1' },
  { id: '1', z: 'last', A: 'upper', _: 'under', 10: 'ten', 9: 'nine', é: 'e-acute', '😀': 'emoji', '\uFFFF': 'max' },
  { id: '1', q: 'x y+z&=é' },
  { id: '1', tags: ['a', 'b c', 1, true, null] },
  { id: '1', tags: [] },
  { id: '1', tags: [undefined, 'x'] },
  { id: '1', tags: [['nested']] },
  { id: '1', tags: [{ a: 1 }] },
  { id: '1', filter: { a: 1 } },
  { id: '1', none: null },
  { id: '1', gone: undefined },
  { id: '1', lone: '\uD83D' },
  { id: '1', '\uDE00key': 'v' },
  { id: '1', "*-._~!'()": "*-._~!'()" },
  { id: '1', d: new Date(0) },
  { id: '1', n: Number.NaN },
  { id: '1', inf: Number.POSITIVE_INFINITY },
  { userId: 3, id: 'x' },
  { q: 'hello world', format: 'xml' },
  { name: 'report', ext: 'tar.gz' },
  { _: 1, _score9: 2 },
  { b: 1, id: '7' },
  { id: '5', group: 'g' },
  { group: 5 },
  { userId: 2 },
  { path: ['a', 'b', 'c'] },
  { path: ['single'] },
  { path: ['a b', 'c/d', 1, true] },
  { path: [] },
  { path: 'a/b' },
  { path: ['a', null] },
  { path: ['a', '..'] },
  { path: ['.', 'b'] },
  { path: [{ a: 1 }] },
  { id: '5', rest: ['docs', 'file'] },
  { id: '5', rest: ['%2e%2e'] },
  'not an object',
  ['1'],
  42,
];

test('requestURL gives the engine URL for every path and params of the table, or none where the engine refuses', async () => {
  const { df } = await env();
  let urls = 0;
  let refused = 0;
  const run = (ep, label) => {
    for (const params of PARAMS) {
      if (check(ep, params, `${label} ${show(params)}`) === 'url') urls++;
      else refused++;
    }
  };
  for (const urlPrefix of PREFIXES) {
    for (const path of PATHS) run(new df.RestEndpoint({ urlPrefix, path }), `${urlPrefix} + ${path}`);
  }
  for (const path of FULL_PATHS) run(new df.RestEndpoint({ path }), path);
  assert.ok(urls > 500 && refused > 300, `both kinds of case are covered (${urls} URLs, ${refused} refusals)`);
});

test('requestURL follows endpoints as declared: resource members, extend, a RestEndpoint subclass with class fields', async () => {
  const { df } = await env();
  class Article extends Entity {
    id = '';
  }
  class Api extends df.RestEndpoint {
    urlPrefix = 'http://127.0.0.1:9/v2';
  }
  const articles = df.resource({ urlPrefix: '/rest/', path: '/articles/:id', schema: Article });
  const extended = articles.extend({ search: { path: '/articles/search/:term' }, get: { urlPrefix: '/other' } });
  const subclassed = df.resource({ path: '/users/:userId/posts/:id', schema: Article, Endpoint: Api });
  const endpoints = {
    'resource get': articles.get,
    'resource getList': articles.getList,
    'extended get': extended.get,
    'extended search': extended.search,
    'extended getList': extended.getList,
    'subclass get': subclassed.get,
    'subclass getList': subclassed.getList,
    'endpoint extend': new df.RestEndpoint({ urlPrefix: '/a', path: '/x/:id' }).extend({ path: '/y/:id/:sub' }),
    'class fields': new (class extends df.RestEndpoint {
      urlPrefix = 'https://example.com';
      path = '/things/:id';
    })({ path: '/ignored' }),
  };
  for (const [label, ep] of Object.entries(endpoints)) {
    for (const params of [{}, { id: '1' }, { id: 'a/b', term: 'x y', userId: 7, sub: 'é' }, { id: '1', page: 2, sort: ['a', 'b'] }]) {
      check(ep, params, `${label} ${show(params)}`);
    }
  }
});

test("a resource's list path is data-client's, in JavaScript and in the engine alike", async () => {
  const { df } = await env();
  class Article extends Entity {
    id = '';
  }
  // resource path -> list path (getList.path, which JavaScript derives)
  const cases = {
    '/articles/:id': '/articles',
    '/api/articles/:id/': '/api/articles',
    '/:id': '',
    '/repos/:owner/*path': '/repos/:owner',
    '/api/:version/files/*path': '/api/:version/files',
    '/users{/:id}': '/users',
    '/users/:id{/*rest}': '/users/:id',
    'http\\://test.com/user/:id': 'http\\://test.com/user',
  };
  const params = [{}, { owner: 'john', version: 'v2', id: '5', page: 2 }];
  for (const [path, list] of Object.entries(cases)) {
    const urlPrefix = path.startsWith('http') ? '' : 'http://127.0.0.1:9';
    const r = df.resource({ urlPrefix, path, schema: Article });
    assert.equal(r.getList.path, list, `${path}: getList.path`);
    assert.equal(r.create.path, list, `${path}: create.path`);
    // The engine's own list endpoint requests what the declared path says.
    for (const p of params) check(r.getList, p, `${path} getList ${show(p)}`);
    assert.equal(typeof r.getList.url(params[1]), 'string', `${path}: the list has a URL`);
  }
  const files = df.resource({ path: '/repos/:owner/*path', schema: Article });
  assert.equal(files.get.url({ owner: 'john', path: ['src', 'index.ts'] }), '/repos/john/src/index.ts');
  assert.equal(files.getList.url({ owner: 'john' }), '/repos/john');
  const root = df.resource({ urlPrefix: 'http://127.0.0.1:9/api', path: '/:id', schema: Article });
  assert.equal(root.getList.url({}), 'http://127.0.0.1:9/api');
  assert.equal(root.getList.url({ page: 2 }), 'http://127.0.0.1:9/api?page=2');
});

// A seeded PRNG (mulberry32), so that a failure repeats.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  'a',
  'Z',
  '0',
  ' ',
  '/',
  '?',
  '#',
  '&',
  '=',
  '+',
  '%',
  '.',
  ':',
  '-',
  '_',
  '~',
  '*',
  "'",
  '(',
  '!',
  'é',
  '中',
  '😀',
  '\uD800',
  '\uDC00',
  '\uFFFF',
  '\u0000',
  '\n',
];

test('requestURL agrees with the engine over random params (seeded)', async () => {
  const { df } = await env();
  const next = random(21);
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const text = () => Array.from({ length: Math.floor(next() * 6) }, () => pick(ALPHABET)).join('');
  const scalar = () => pick([text, text, () => Math.round(next() * 2000 - 1000) / pick([1, 1, 8, 1000]), () => next() < 0.5, () => null])();
  const endpoints = PATHS.map((path) => new df.RestEndpoint({ urlPrefix: pick(PREFIXES), path }));
  for (let i = 0; i < 3000; i++) {
    const ep = pick(endpoints);
    const params = {};
    for (const token of ['id', 'userId', 'name', 'ext', 'q', '_score9']) if (next() < 0.6) params[token] = scalar();
    const members = Math.floor(next() * 4);
    for (let k = 0; k < members; k++) params[text() || 'k'] = next() < 0.2 ? Array.from({ length: Math.floor(next() * 3) }, scalar) : scalar();
    check(ep, params, `case ${i}: ${ep.urlPrefix ?? ''} + ${ep.path} ${show(params)}`);
  }
});

// ---------------------------------------------------------------- the registry

// withFetch runs fn with globalThis.fetch replaced by a recorder whose
// responses never settle unless resolved: {calls: [{url, init}]}.
async function withFetch(fn) {
  const real = globalThis.fetch;
  const calls = [];
  globalThis.fetch = (url, init) => {
    const call = { url, init };
    calls.push(call);
    return new Promise((resolve) => {
      call.resolve = resolve;
    });
  };
  try {
    return await fn(calls);
  } finally {
    globalThis.fetch = real;
  }
}

const PLAIN = Object.freeze({ method: 'GET', headers: {} });

test('a pre-started response is taken once, only for its URL and a plain GET init; joined reads share it', async () => {
  const { df } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:9', path: '/articles/:id' });
  await withFetch(async (calls) => {
    const a = prestart(ep, { id: '1' });
    const b = prestart(ep, { id: '1' });
    assert.equal(calls.length, 1, 'one request for both reads');
    assert.deepEqual([a.fresh, b.fresh], [true, false]);
    const url = 'http://127.0.0.1:9/articles/1';
    assert.equal(calls[0].url, url);
    assert.equal(calls[0].init.method, 'GET');
    assert.equal(takePrestarted('http://127.0.0.1:9/articles/2', { ...PLAIN }), undefined, 'another URL');
    assert.equal(takePrestarted(url, { method: 'GET', headers: { authorization: 'x' } }), undefined, 'a header');
    assert.equal(takePrestarted(url, { method: 'POST', headers: {} }), undefined, 'another method');
    assert.equal(takePrestarted(url, { method: 'GET', headers: {}, body: 'x' }), undefined, 'a body');
    assert.equal(takePrestarted(url, { method: 'GET', headers: {}, credentials: 'include' }), undefined, "getRequestInit's extra members");
    const ac = new AbortController();
    const taken = takePrestarted(url, { ...PLAIN, signal: ac.signal });
    assert.ok(taken.response instanceof Promise, 'the plain GET of its URL takes it');
    assert.equal(takePrestarted(url, { ...PLAIN }), undefined, 'once');
    a.release();
    b.release();
    assert.equal(calls[0].init.signal.aborted, false, 'releasing a taken request leaves it to its taker');
    ac.abort();
    assert.equal(calls[0].init.signal.aborted, true, "the taker's signal aborts it");
    assert.equal(prestartedCount(), 0);
  });
});

test('a pre-started response no read needs any more is aborted and forgotten', async () => {
  const { df } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:9', path: '/articles/:id' });
  await withFetch(async (calls) => {
    const a = prestart(ep, { id: '1' });
    const b = prestart(ep, { id: '1' });
    a.release();
    a.release(); // once counts once
    assert.equal(calls[0].init.signal.aborted, false, 'another read still needs it');
    b.release();
    assert.equal(calls[0].init.signal.aborted, true);
    assert.equal(takePrestarted('http://127.0.0.1:9/articles/1', { ...PLAIN }), undefined, 'a later fetch never gets it');
    assert.equal(prestartedCount(), 0);
    const c = prestart(ep, { id: '1' });
    assert.equal(c.fresh, true, 'a new read starts a new request');
    assert.equal(calls.length, 2);
    c.release();
  });
});

test('only plain GET reads are pre-started', async () => {
  const { df } = await env();
  const base = { urlPrefix: 'http://127.0.0.1:9', path: '/articles/:id' };
  class Headers extends df.RestEndpoint {
    getHeaders(headers) {
      return { ...headers, authorization: 'token' };
    }
  }
  class Init extends df.RestEndpoint {
    getRequestInit(body) {
      return super.getRequestInit(body);
    }
  }
  class Url extends df.RestEndpoint {
    url(params) {
      return `http://elsewhere/${params.id}`;
    }
  }
  const plain = new df.RestEndpoint(base);
  const refused = {
    'a POST': new df.RestEndpoint({ ...base, method: 'POST' }),
    'a side effect': new df.RestEndpoint({ ...base, sideEffect: true }),
    'a getHeaders option': new df.RestEndpoint({ ...base, getHeaders: (h) => h }),
    'a getRequestInit option': new df.RestEndpoint({ ...base, getRequestInit: () => ({}) }),
    'a fetch option': new df.RestEndpoint({ ...base, fetch: async () => ({}) }),
    'a body option': new df.RestEndpoint({ ...base, body: { a: 1 } }),
    'a signal option': new df.RestEndpoint({ ...base, signal: new AbortController().signal }),
    'an overridden getHeaders': new Headers(base),
    'an overridden getRequestInit': new Init(base),
    'an overridden url': new Url(base),
    'a paginated endpoint': plain.paginated('cursor'),
    'an extend adding getHeaders': plain.extend({ getHeaders: (h) => h }),
  };
  await withFetch(async (calls) => {
    for (const [what, ep] of Object.entries(refused)) {
      assert.equal(prestart(ep, { id: '1' }), undefined, what);
    }
    assert.equal(prestart(plain, null), undefined, 'null params (no read)');
    assert.equal(prestart(plain, {}), undefined, 'params the engine refuses (a missing token)');
    assert.equal(calls.length, 0);
    const ok = prestart(plain.extend({ dataExpiryLength: 1000 }), { id: '1' });
    assert.equal(calls.length, 1, 'an extend that leaves the request alone is');
    ok.release();
  });
});
