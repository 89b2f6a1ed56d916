// RestEndpoint's details as data-client has them (issue 22, item 8):
// sideEffect and method, testKey, a searchToString override, JSON.stringify
// of a NetworkError, and a body said to be JSON that is not.

import assert from 'node:assert/strict';
import { env, server, setup, test } from './harness.mjs';

setup();

test('sideEffect is undefined for a GET and true for other methods; sideEffect: true alone makes a POST', async () => {
  const { df } = await env();
  const get = new df.RestEndpoint({ path: 'http\\://test.com/user/:id' });
  assert.equal(get.sideEffect, undefined);
  assert.equal(get.method, 'GET');
  assert.equal(get.path, 'http\\://test.com/user/:id', 'the path as written');
  assert.equal(get.url({ id: '5' }), 'http://test.com/user/5');
  assert.equal(new df.RestEndpoint({ path: '/u', method: 'post' }).sideEffect, true);
  assert.equal(new df.RestEndpoint({ path: '/u', method: 'DELETE' }).sideEffect, true);
  const marked = new df.RestEndpoint({ path: '/u', sideEffect: true });
  assert.equal(marked.method, 'POST');
  assert.equal(marked.sideEffect, true);
  assert.match(marked.key({}), / POST \/u$/, 'the engine sends a POST too');
  assert.equal(new df.RestEndpoint({ path: '/u', sideEffect: true, method: 'GET' }).method, 'GET', 'a method given wins');
  assert.equal(new df.RestEndpoint({ path: '/u', sideEffect: false }).method, 'GET');
  // The method is fixed when the endpoint is made: marking a GET as a side
  // effect later keeps it a GET.
  const ext = get.extend({ sideEffect: true });
  assert.equal(ext.method, 'GET');
  assert.equal(ext.sideEffect, true);
  assert.match(ext.key({ id: 1 }), / GET http:\/\/test.com\/user\/1$/);
});

test('testKey tells the keys of the endpoint from others', async () => {
  const { df } = await env();
  const getUser = new df.RestEndpoint({ path: 'http\\://test.com/user/:id' });
  const list = new df.RestEndpoint({ path: 'http\\://test.com/article' });
  assert.ok(getUser.testKey(getUser.key({ id: '100', extra: '345' })));
  assert.ok(getUser.testKey(getUser.key({ id: 'xxx?*' })), 'an escaped ? is in the path');
  assert.ok(list.testKey(list.key()));
  assert.ok(list.testKey(list.key({ page: 2 })));
  assert.equal(getUser.testKey(list.key()), false);
  assert.equal(list.testKey(getUser.key({ id: '1' })), false);
  assert.equal(getUser.testKey('GET http://test.com/user/1/more'), false);
  const post = getUser.extend({ method: 'POST' });
  assert.equal(post.testKey(getUser.key({ id: '1' })), false, 'the method is part of the key');
  const files = new df.RestEndpoint({ urlPrefix: 'http://h', path: '/files{/*path}' });
  assert.ok(files.testKey(files.key({ path: ['a', 'b'] })));
  assert.ok(files.testKey(files.key({})));
  assert.equal(files.testKey(42), false);
});

test('searchToString, as an option or a method, writes the query of url(), key() and the request', async () => {
  const { df, base } = await env();
  await server.reset();
  class Bracketed extends df.RestEndpoint {
    searchToString(search) {
      return Object.entries(search)
        .map(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}[]=${x}`).join('&') : `${k}=${v}`))
        .join('&');
    }
  }
  const ep = new Bracketed({ urlPrefix: base, path: '/articles' });
  assert.equal(ep.url({ tags: ['a', 'b'], z: 1 }), `${base}/articles?tags[]=a&tags[]=b&z=1`);
  assert.match(ep.key({ tags: ['a'] }), /\/articles\?tags\[\]=a$/);
  assert.equal(ep.url(), `${base}/articles`, 'no query, no call');
  const ctrl = new df.Controller();
  await ctrl.fetch(ep, { tags: ['x'] });
  assert.equal(await server.count('GET /articles?tags[]=x'), 1, 'the request went to the URL it wrote');

  // As an option; the default is reachable through super.
  const opt = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', searchToString: (s) => `only=${Object.keys(s).join(',')}` });
  assert.equal(opt.url({ id: 1, b: 2, a: 3 }), `${base}/articles/1?only=b,a`);
  class Upper extends df.RestEndpoint {
    searchToString(search) {
      return super.searchToString(search).toUpperCase();
    }
  }
  assert.equal(new Upper({ path: '/x' }).url({ b: 'x y', a: [1, 2] }), '/x?A=1&A=2&B=X+Y');
  // What it returns must be a string.
  const bad = new df.RestEndpoint({ path: '/x', name: 'bad', searchToString: () => 42 });
  assert.throws(() => bad.url({ a: 1 }), /bad: searchToString must return a string, got 42/);
});

test('JSON.stringify of a NetworkError gives its name, status, message and URL', async () => {
  const { df, base } = await env();
  await server.reset();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', name: 'getArticle' });
  const err = await new df.Controller().fetch(ep, { id: '999999' }).catch((e) => e);
  assert.ok(err instanceof df.NetworkError);
  const json = JSON.parse(JSON.stringify(err));
  assert.equal(json.name, 'NetworkError');
  assert.equal(json.status, 404);
  assert.equal(json.message, err.message);
  assert.equal(json.url, `${base}/articles/999999`);
  assert.deepEqual(Object.keys(new df.NetworkError(new Response('', { status: 500 })).toJSON()).sort(), ['message', 'name', 'status', 'url']);
});

test('a 2xx body said to be JSON that is not fails with status 400; text said to be text is the data', async () => {
  const { df } = await env();
  const reply = (body, type) => new df.Controller({ fetch: async () => new Response(body, { headers: { 'content-type': type } }) });
  const ep = new df.RestEndpoint({ path: 'http://h.test/x', name: 'x' });
  const err = await reply('{bad', 'application/json; charset=utf-8')
    .fetch(ep)
    .catch((e) => e);
  assert.ok(err instanceof df.NetworkError, String(err));
  assert.equal(err.status, 400);
  assert.equal(await reply('{bad', 'text/plain').fetch(ep), '{bad');
});
