// RestEndpoint (docs/js-api.md, Endpoints): url and key, request bodies and headers,
// getRequestInit, custom fetch, parseResponse, process, responses and
// errors, extend, signal and timeout, update.

import assert from 'node:assert/strict';
import { assertMentions, deadURL, env, failureOf, fakeClock, promiseState, quiet, server, setup, startEcho, test, waitFor } from './harness.mjs';

setup();

// ---------------------------------------------------------------- url and key

test('url(): prefix + path with tokens filled and URL-encoded', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/users/:userId/articles/:id' });
  assert.equal(ep.url({ userId: 3, id: 'a b/c?d' }), `${base}/users/3/articles/a%20b%2Fc%3Fd`);
  assert.equal(ep.url({ userId: 'é', id: 'x&y' }), `${base}/users/%C3%A9/articles/x%26y`);
});

test('url(): other params become query members in sorted order', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id' });
  const u = new URL(ep.url({ z: 'last', id: '1', a: 'x y', m: 2 }));
  assert.equal(u.origin + u.pathname, `${base}/articles/1`);
  assert.deepEqual(
    [...u.searchParams],
    [
      ['a', 'x y'],
      ['m', '2'],
      ['z', 'last'],
    ],
  );
  const v = ep.url({ id: '1', b: '&=', a: '1' });
  assert.ok(v.startsWith(`${base}/articles/1?a=1&b=`), v);
  assert.equal(new URL(v).searchParams.get('b'), '&=', 'query values are escaped');
});

test('url(): no params for a path without tokens', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/articles' });
  assert.equal(ep.url(), `${base}/articles`);
  assert.equal(ep.url({}), `${base}/articles`);
  assert.equal(ep.key(), ep.key({}), 'no params and {} are the same request');
});

test('url(): without urlPrefix the path is the URL', async () => {
  const { df } = await env();
  const ep = new df.RestEndpoint({ path: '/articles/:id' });
  assert.equal(ep.url({ id: 7 }), '/articles/7');
});

test('key(): equal params give equal keys, in any member order', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', name: 'getArticle' });
  assert.equal(typeof ep.key({ id: '1' }), 'string');
  assert.equal(ep.key({ id: '1', a: 1, b: 2 }), ep.key({ b: 2, a: 1, id: '1' }));
  assert.equal(ep.key({ id: 1 }), ep.key({ id: '1' }));
  assert.notEqual(ep.key({ id: '1' }), ep.key({ id: '2' }));
  assert.notEqual(ep.key({ id: '1' }), ep.key({ id: '1', page: 2 }));
});

test('key(): unique for method, URL and endpoint name', async () => {
  const { df, base } = await env();
  const get = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', name: 'a' });
  const del = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', name: 'a', method: 'DELETE' });
  const other = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', name: 'b' });
  const otherHost = new df.RestEndpoint({ urlPrefix: 'http://127.0.0.2:1', path: '/articles/:id', name: 'a' });
  const keys = [get, del, other, otherHost].map((e) => e.key({ id: '1' }));
  assert.equal(new Set(keys).size, 4, `keys should all differ: ${JSON.stringify(keys)}`);
});

// ---------------------------------------------------------------- bodies and headers

async function withEcho(fn) {
  const echo = await startEcho();
  try {
    return await fn(echo);
  } finally {
    await echo.close();
  }
}

test('a plain-object body is sent as JSON with Content-Type: application/json', async () => {
  const { df } = await env();
  await withEcho(async (echo) => {
    const ep = new df.RestEndpoint({ urlPrefix: echo.url, path: '/things', method: 'POST' });
    const got = await new df.Controller().fetch(ep, {}, { title: 'T', n: 1, nested: { a: [1] } });
    assert.equal(got.method, 'POST');
    assert.deepEqual(JSON.parse(got.body), { title: 'T', n: 1, nested: { a: [1] } });
    assert.match(got.headers['content-type'], /^application\/json/);
  });
});

test('PUT and PATCH send the body too', async () => {
  const { df } = await env();
  await withEcho(async (echo) => {
    const ctrl = new df.Controller();
    for (const method of ['PUT', 'PATCH']) {
      const ep = new df.RestEndpoint({ urlPrefix: echo.url, path: '/things/:id', method });
      const got = await ctrl.fetch(ep, { id: 1 }, { x: method });
      assert.equal(got.method, method);
      assert.equal(got.path, '/things/1');
      assert.deepEqual(JSON.parse(got.body), { x: method });
    }
  });
});

test('GET and DELETE send no body, even when given one', async () => {
  const { df } = await env();
  await withEcho(async (echo) => {
    const ctrl = new df.Controller();
    for (const method of ['GET', 'DELETE']) {
      const ep = new df.RestEndpoint({ urlPrefix: echo.url, path: '/things/:id', method, body: { dflt: true } });
      const got = await ctrl.fetch(ep, { id: 1 }, { ignored: true });
      assert.equal(got.method, method);
      assert.equal(got.body, null, `${method} must not send a body`);
    }
  });
});

test('the body option is the default body; an explicit body replaces it (no merge)', async () => {
  const { df } = await env();
  await withEcho(async (echo) => {
    const ctrl = new df.Controller();
    const ep = new df.RestEndpoint({ urlPrefix: echo.url, path: '/things', method: 'POST', body: { a: 1, b: 2 } });
    const dflt = await ctrl.fetch(ep, {});
    assert.deepEqual(JSON.parse(dflt.body), { a: 1, b: 2 });
    const explicit = await ctrl.fetch(ep, {}, { c: 3 });
    assert.deepEqual(JSON.parse(explicit.body), { c: 3 });
  });
});

test('a string body passes through as it is', async () => {
  const { df } = await env();
  await withEcho(async (echo) => {
    const ep = new df.RestEndpoint({ urlPrefix: echo.url, path: '/raw', method: 'POST' });
    const got = await new df.Controller().fetch(ep, {}, 'just "text", not JSON');
    assert.equal(got.body, 'just "text", not JSON');
    assert.doesNotMatch(got.headers['content-type'] ?? '', /application\/json/);
  });
});

test('FormData passes through as multipart/form-data', async () => {
  const { df } = await env();
  await withEcho(async (echo) => {
    const fd = new FormData();
    fd.append('name', 'Ada');
    fd.append('file', new Blob(['hello file'], { type: 'text/plain' }), 'hello.txt');
    const ep = new df.RestEndpoint({ urlPrefix: echo.url, path: '/upload', method: 'POST' });
    const got = await new df.Controller().fetch(ep, {}, fd);
    assert.match(got.headers['content-type'], /^multipart\/form-data; boundary=/);
    assert.match(got.body, /name="name"\r\n\r\nAda/);
    assert.match(got.body, /filename="hello.txt"/);
    assert.match(got.body, /hello file/);
  });
});

test('binary bodies (Uint8Array, ArrayBuffer, Blob) pass through byte for byte', async () => {
  const { df } = await env();
  await withEcho(async (echo) => {
    const ep = new df.RestEndpoint({ urlPrefix: echo.url, path: '/bin', method: 'POST' });
    const ctrl = new df.Controller();
    const bytes = new Uint8Array([0, 1, 2, 250, 255, 10, 13]);
    for (const body of [bytes, bytes.buffer.slice(0), new Blob([bytes])]) {
      const got = await ctrl.fetch(ep, {}, body);
      assert.deepEqual([...Buffer.from(got.bodyBase64, 'base64')], [...bytes], `${Object.prototype.toString.call(body)}`);
      assert.doesNotMatch(got.headers['content-type'] ?? '', /application\/json/);
    }
  });
});

test('getHeaders(headers) may add headers, sync or async', async () => {
  const { df } = await env();
  await withEcho(async (echo) => {
    const ctrl = new df.Controller();
    const seen = [];
    const sync = new df.RestEndpoint({
      urlPrefix: echo.url,
      path: '/me',
      method: 'POST',
      getHeaders(headers) {
        seen.push(headers);
        return { ...headers, Authorization: 'Bearer sync' };
      },
    });
    const a = await ctrl.fetch(sync, {}, { x: 1 });
    assert.equal(a.headers.authorization, 'Bearer sync');
    assert.match(a.headers['content-type'], /application\/json/, 'the JSON content type survives getHeaders');
    const async_ = sync.extend({
      async getHeaders(headers) {
        await new Promise((r) => setImmediate(r)); // really asynchronous
        return { ...headers, Authorization: 'Bearer async', 'X-Extra': 'yes' };
      },
    });
    const b = await ctrl.fetch(async_, {}, { x: 1 });
    assert.equal(b.headers.authorization, 'Bearer async');
    assert.equal(b.headers['x-extra'], 'yes');
  });
});

test('getRequestInit(body) can add a temporary id to the body; called with this = the endpoint', async () => {
  const { df } = await env();
  await withEcho(async (echo) => {
    let self;
    let gotBody;
    const ep = new df.RestEndpoint({
      urlPrefix: echo.url,
      path: '/articles',
      method: 'POST',
      getRequestInit(body) {
        self = this;
        gotBody = body;
        return { method: 'POST', body: { ...body, id: 'tmp-123' } };
      },
    });
    const got = await new df.Controller().fetch(ep, {}, { title: 'New' });
    assert.deepEqual(gotBody, { title: 'New' }, 'getRequestInit gets the body');
    assert.deepEqual(JSON.parse(got.body), { title: 'New', id: 'tmp-123' });
    assert.match(got.headers['content-type'], /^application\/json/, 'a plain-object body from getRequestInit is sent as JSON');
    assert.equal(typeof self?.url, 'function', 'this is the endpoint');
    assert.equal(self.url({}), ep.url({}));
  });
});

test('getRequestInit may return a Promise; its headers are sent', async () => {
  const { df } = await env();
  await withEcho(async (echo) => {
    const ep = new df.RestEndpoint({
      urlPrefix: echo.url,
      path: '/count/increment',
      method: 'POST',
      async getRequestInit(body) {
        await new Promise((r) => setImmediate(r)); // really asynchronous
        return { method: 'POST', headers: { 'X-Init': 'async' }, body: { ...body, updatedAt: 1234 } };
      },
    });
    const got = await new df.Controller().fetch(ep, {}, {});
    assert.deepEqual(JSON.parse(got.body), { updatedAt: 1234 });
    assert.equal(got.headers['x-init'], 'async');
  });
});

// ---------------------------------------------------------------- custom fetch, parseResponse, process

test('fetch(params, body) replaces the request; this.url works; its value is normalized', async () => {
  const { df, base, fx } = await env();
  const calls = [];
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/comments/:id',
    schema: fx.Comment,
    async fetch(params, body) {
      calls.push({ params, body, self: this });
      const res = await globalThis.fetch(this.url(params));
      const json = await res.json();
      return { ...json, fetchedBy: 'custom' };
    },
  });
  const ctrl = new df.Controller();
  const c = await ctrl.useSuspense(ep, { id: 2 });
  assert.equal(c.id, 2);
  assert.equal(c.fetchedBy, 'custom');
  assert.equal(calls.length, 1);
  assert.deepEqual({ ...calls[0].params }, { id: 2 });
  assert.equal(ctrl.getState().entities.Comment['2'].fetchedBy, 'custom', 'the custom result is normalized');
  assert.equal(await server.count('GET /comments/2'), 1);
});

test('custom fetch without a schema: its value is the data', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/anything/:n',
    fetch: async (params) => ({ doubled: params.n * 2 }),
  });
  assert.deepEqual(await new df.Controller().useSuspense(ep, { n: 21 }), { doubled: 42 });
  assert.equal(await server.total(), 0, 'no request reached the server');
});

test('a custom fetch that throws rejects with its error', async () => {
  const { df } = await env();
  const ep = new df.RestEndpoint({
    path: '/x',
    fetch: async () => {
      throw new TypeError('custom failure');
    },
  });
  const err = await failureOf(() => new df.Controller().fetch(ep, {}));
  assertMentions(err, ['custom failure']);
});

test('parseResponse(response) replaces the parsing', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/wrapped/comments/:id',
    schema: fx.Comment,
    async parseResponse(response) {
      assert.ok(response instanceof Response);
      const json = await response.json();
      return json.data;
    },
  });
  const c = await new df.Controller().useSuspense(ep, { id: 3 });
  assert.equal(c.id, 3);
  assert.equal(c.postId, 1);
});

test('process(value, params) transforms the parsed response', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/comments',
    process(value, params) {
      return { n: value.length, postId: params.postId, first: value[0].id };
    },
  });
  assert.deepEqual(await new df.Controller().useSuspense(ep, { postId: 2 }), { n: 5, postId: 2, first: 6 });
});

test('process output is what the schema normalizes', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/wrapped/comments',
    schema: [fx.Comment],
    process: (value) => value.data,
  });
  const list = await new df.Controller().useSuspense(ep, { postId: 1 });
  assert.deepEqual(
    list.map((c) => c.id),
    [1, 2, 3, 4, 5],
  );
});

test('an endpoint without a schema resolves to the parsed JSON', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/profiles/:id' });
  assert.deepEqual(await new df.Controller().useSuspense(ep, { id: '2' }), {
    id: '2',
    fullName: 'Bruno Castellanos',
    bio: 'Engineering manager; keeps a spreadsheet of every flaky test since 2019.',
  });
});

// ---------------------------------------------------------------- responses and errors

test('204 gives null', async () => {
  const { df, base } = await env();
  const ctrl = new df.Controller();
  const empty = new df.RestEndpoint({ urlPrefix: base, path: '/bad/empty' });
  assert.equal(await ctrl.fetch(empty), null);
  const del = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', method: 'DELETE' });
  assert.equal(await ctrl.fetch(del, { id: '1' }), null);
  assert.equal(await server.count('DELETE /articles/1'), 1);
});

for (const [route, what] of [
  ['/bad/html', 'an HTML page'],
  ['/bad/truncated', 'truncated JSON'],
]) {
  test(`a 2xx body that is not JSON (${what}) where a schema expects data: error with status 400`, async () => {
    const { df, base, fx } = await env();
    const ep = new df.RestEndpoint({ urlPrefix: base, path: route, name: 'notJson', schema: fx.Comment });
    const err = await failureOf(() => new df.Controller().fetch(ep));
    assert.ok(err instanceof Error);
    assert.equal(err.status, 400);
    assertMentions(err, ['notJson', route]);
  });
}

test('non-2xx: a NetworkError with status, statusText, response and JSON body', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/status/:code', name: 'statusEp', schema: fx.Comment });
  const ctrl = new df.Controller();
  for (const [code, text] of [
    [404, 'Not Found'],
    [500, 'Internal Server Error'],
    [503, 'Service Unavailable'],
    [401, 'Unauthorized'],
  ]) {
    const err = await failureOf(() => ctrl.fetch(ep, { code }));
    assert.ok(err instanceof df.NetworkError, `status ${code}: want a df.NetworkError, got ${err}`);
    assert.ok(err instanceof Error);
    assert.equal(err.status, code);
    assert.equal(err.statusText, text);
    assert.ok(err.response instanceof Response, 'err.response is the Response');
    assert.equal(err.response.status, code);
    assert.deepEqual(err.body, { error: `status ${code} ${text} requested from /bad/status` });
    assertMentions(err, ['statusEp', `/bad/status/${code}`]);
  }
});

test('404 from a resource route: NetworkError whose body says what was missing', async () => {
  const { df, fx } = await env();
  const err = await failureOf(() => new df.Controller().useSuspense(fx.getArticle, { id: '999' }));
  assert.ok(err instanceof df.NetworkError);
  assert.equal(err.status, 404);
  assert.deepEqual(err.body, { error: 'article 999 not found' });
});

test('network failure: an error with status 0 naming the endpoint or URL', async () => {
  const { df } = await env();
  const dead = await deadURL();
  const ep = new df.RestEndpoint({ urlPrefix: dead, path: '/articles/:id', name: 'deadEp' });
  const err = await failureOf(() => new df.Controller().fetch(ep, { id: 1 }));
  assert.ok(err instanceof Error);
  assert.equal(err.status, 0, 'status 0 for a network failure (docs/js-api.md, NetworkError), where data-client differs');
  assertMentions(err, ['deadEp', `${dead}/articles/1`]);
});

test('a connection dropped mid-body rejects', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/close', name: 'dropped', schema: fx.Comment });
  const err = await failureOf(() => new df.Controller().fetch(ep));
  assert.ok(err instanceof Error);
  assert.ok(!(err.status >= 200 && err.status < 300), 'not a success status');
});

// ---------------------------------------------------------------- extend

test('extend(options) returns a new endpoint; the original is unchanged', async () => {
  const { df, base, fx } = await env();
  const orig = fx.getArticle;
  const origUrl = orig.url({ id: '1' });
  const origKey = orig.key({ id: '1' });
  const comments = orig.extend({ path: '/comments/:id', schema: fx.Comment });
  const post = orig.extend({ method: 'POST' });
  const slow = orig.extend({ dataExpiryLength: 1 });
  assert.notEqual(comments, orig);
  assert.equal(comments.url({ id: '1' }), `${base}/comments/1`);
  assert.notEqual(post.key({ id: '1' }), origKey, 'another method, another key');
  assert.equal(orig.url({ id: '1' }), origUrl);
  assert.equal(orig.key({ id: '1' }), origKey);
  assert.equal(slow.url({ id: '1' }), origUrl, 'unchanged parts are kept');

  const ctrl = new df.Controller();
  const c = await ctrl.useSuspense(comments, { id: '1' });
  assert.equal(c.email, 'chiara.l@example.net', 'the extended schema is used');
  const a = await ctrl.useSuspense(orig, { id: '1' });
  assert.equal(a.title, 'Normalizing nested API responses', 'the original still uses its own path and schema');
  assert.ok(ctrl.getState().entities.Comment?.['1'], 'the comment went to the Comment table');
});

test('extend keeps options it does not replace (fetch, process, getHeaders)', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/api/count',
    process: (v) => ({ counted: v.count }),
  });
  const named = ep.extend({ name: 'renamed' });
  assert.deepEqual(await new df.Controller().fetch(named), { counted: 0 });
});

test('endpoint objects cannot be changed in place', async () => {
  const { base, fx } = await env();
  const ep = fx.getArticle;
  const before = ep.url({ id: '1' });
  try {
    ep.path = '/comments/:id';
    ep.urlPrefix = 'http://example.invalid';
  } catch {
    // frozen: fine
  }
  assert.equal(ep.url({ id: '1' }), before);
  assert.equal(ep.url({ id: '1' }), `${base}/articles/1`);
});

// ---------------------------------------------------------------- signal, timeout, expiry options

test('signal: aborting rejects with an error named AbortError', async () => {
  const { df, base } = await env();
  const ac = new AbortController();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/hang', signal: ac.signal });
  const p = quiet(new df.Controller().fetch(ep));
  await waitFor(async () => (await server.count('GET /bad/hang')) === 1, { message: 'the request reaches the server' });
  assert.equal(await promiseState(p), 'pending', '/bad/hang does not answer by itself');
  ac.abort();
  const err = await failureOf(() => p);
  assert.equal(err.name, 'AbortError');
});

test('timeout: past it the request is aborted with an error named TimeoutError', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/hang', timeout: 150 });
  const t0 = Date.now();
  const err = await failureOf(() => new df.Controller().fetch(ep));
  const took = Date.now() - t0;
  assert.equal(err.name, 'TimeoutError');
  // Timers fire late on a loaded machine, never early: only the lower bound
  // is certain (the test's timeout guards against a hang).
  assert.ok(took >= 120, `timed out after ${took} ms, want at least 150`);
});

test('timeout does not fire for a request that answers in time', async () => {
  const { df, fx } = await env();
  // A timeout a loaded machine cannot reach: the point is that a request
  // with one set completes normally.
  const ep = fx.getArticle.extend({ timeout: 120_000 });
  assert.equal((await new df.Controller().fetch(ep, { id: '2' })).id, '2');
});

test('dataExpiryLength default is 60 s: expiresAt is about now + 60000', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const t0 = clock.t;
  await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const { expiresAt, expiryStatus } = ctrl.getResponse(fx.getArticle, { id: '1' });
  assert.equal(expiryStatus, 'valid');
  assert.equal(expiresAt, t0 + 60_000);
  clock.advance(59_999);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'valid');
  clock.advance(1);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'stale');
});

test('dataExpiryLength: the result goes stale after it', async () => {
  const { df, fx } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const ep = fx.getArticle.extend({ dataExpiryLength: 100 });
  await ctrl.useSuspense(ep, { id: '1' });
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'valid');
  clock.advance(100);
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'stale');
});

// ---------------------------------------------------------------- update

test('update(newResultPks, params) rewrites another stored list with no refetch', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const listKey = fx.listArticles.key({});
  let updateArgs;
  const create = new df.RestEndpoint({
    urlPrefix: base,
    path: '/articles',
    method: 'POST',
    schema: fx.Article,
    update(newPk, params) {
      updateArgs = { newPk, params };
      return { [listKey]: (pks = []) => [...pks, newPk] };
    },
  });
  const before = await ctrl.useSuspense(fx.listArticles, {});
  assert.equal(before.length, 24);
  const created = await ctrl.fetch(create, {}, { title: 'Brand new' });
  assert.equal(created.id, '101');
  assert.equal(String(updateArgs.newPk), '101');
  const after = ctrl.getResponse(fx.listArticles, {}).data;
  assert.equal(after.length, 25);
  assert.equal(after[24].title, 'Brand new');
  assert.equal(after[0], before[0], 'unchanged members keep their identity');
  assert.equal(await server.count('GET /articles'), 1, 'no refetch of the list');
});

// ---------------------------------------------------------------- sideEffect

test('sideEffect: true on a GET makes it a mutation: concurrent fetches are not shared', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const ep = fx.getArticle.extend({ sideEffect: true, name: 'getAsMutation' });
  await server.hold();
  const ps = [ctrl.fetch(ep, { id: '1' }), ctrl.fetch(ep, { id: '1' })];
  await server.held(2);
  await server.unhold();
  await Promise.all(ps);
  assert.equal(await server.count('GET /articles/1'), 2);
});

test('sideEffect: false on a POST makes it a read: identical useSuspense calls share one request', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const search = new df.RestEndpoint({
    urlPrefix: base,
    path: '/users/:id/make_manager',
    method: 'POST',
    name: 'postAsRead',
    sideEffect: false,
    schema: fx.User,
  });
  await server.hold();
  const ps = [ctrl.useSuspense(search, { id: 2 }), ctrl.useSuspense(search, { id: 2 })];
  await server.held(1);
  // The second call joined the first: both wait on the one held request
  // (a second one would be counted at the server below).
  for (const p of ps) assert.equal(await promiseState(p), 'pending');
  await server.unhold();
  const [a, b] = await Promise.all(ps);
  assert.equal(a, b);
  assert.equal(a.isManager, true);
  assert.equal(await server.count('POST /users/2/make_manager'), 1);
});
