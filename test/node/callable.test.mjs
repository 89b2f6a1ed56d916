// Endpoints are functions, as data-client's (issue 22): endpoint(params,
// body) is endpoint.fetch(params, body), which requests, parses and runs
// process, with no controller and no cache. One argument to an endpoint
// that sends a body is the body.

import assert from 'node:assert/strict';
import { env, server, setup, test } from './harness.mjs';

setup();

test('endpoint(params) and endpoint.fetch(params) request, parse and run process; nothing is stored', async () => {
  const { df, base } = await env();
  const seen = [];
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/articles/:id',
    process(value, params) {
      seen.push(params);
      return { title: value.title, via: params.id };
    },
  });
  assert.equal(typeof ep, 'function');
  assert.ok(ep instanceof df.RestEndpoint);
  assert.equal(ep.name, '/articles/:id', 'the name is the path, not the function name');
  assert.deepEqual(await ep({ id: '2' }), { title: 'Stale-while-revalidate in practice', via: '2' });
  assert.deepEqual(await ep.fetch({ id: '2' }), { title: 'Stale-while-revalidate in practice', via: '2' });
  assert.deepEqual(await ep.call(null, { id: '2' }), { title: 'Stale-while-revalidate in practice', via: '2' }, 'call, apply and bind work');
  assert.deepEqual(seen, [{ id: '2' }, { id: '2' }, { id: '2' }]);
  assert.deepEqual(await server.counts(), { 'GET /articles/2': 3 });
});

test('a resource called: get, create(body), update(params, body), delete falls back to the params', async () => {
  const { df, base, fx } = await env();
  const r = df.resource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article });
  const got = await r.get({ id: '2' });
  assert.equal(got.title, 'Stale-while-revalidate in practice');
  assert.equal(typeof got.createdAt, 'string', 'the response as parsed: no schema applied');
  const created = await r.create({ title: 'Called' });
  assert.equal(created.title, 'Called');
  const updated = await r.update({ id: '3' }, { title: 'Replaced' });
  assert.equal(updated.title, 'Replaced');
  assert.deepEqual(await r.delete({ id: '3' }), { id: '3' }, 'an empty response gives the params');
  assert.deepEqual(await server.counts(), { 'GET /articles/2': 1, 'POST /articles': 1, 'PUT /articles/3': 1, 'DELETE /articles/3': 1 });
});

test('extend, a subclass and a collection endpoint are callable too; an override of fetch is what a call runs', async () => {
  const { df, base } = await env();
  class Titled extends df.RestEndpoint {
    urlPrefix = base;
    path = '/articles/:id';
    process(value) {
      return value.title;
    }
  }
  const sub = new Titled({});
  assert.ok(sub instanceof Titled);
  assert.equal(await sub({ id: '2' }), 'Stale-while-revalidate in practice');
  const ext = sub.extend({ process: (value) => value.id });
  assert.equal(typeof ext, 'function');
  assert.equal(await ext({ id: '2' }), '2');
  let processed = 0;
  const wrapped = new df.RestEndpoint({
    urlPrefix: base,
    path: '/articles/:id',
    process(value) {
      processed++;
      return value;
    },
    async fetch(params, body) {
      const v = await df.RestEndpoint.prototype.fetch.call(this, params, body);
      return { wrapped: v.id };
    },
  });
  assert.deepEqual(await wrapped({ id: '2' }), { wrapped: '2' });
  assert.deepEqual(await new df.Controller().fetch(wrapped, { id: '2' }), { wrapped: '2' }, 'the engine runs the override, process once inside it');
  assert.equal(processed, 2, 'process runs inside super.fetch, not again after the override');
});

test('resource extend takes endpoints as members, as data-client (extend(Base => ({name: Base.get.extend(...)})))', async () => {
  const { df, base, fx } = await env();
  const r = df.resource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article }).extend((Base) => ({
    longLived: Base.get.extend({ dataExpiryLength: 3_600_000 }),
  }));
  assert.equal(typeof r.longLived, 'function');
  assert.equal(r.longLived.dataExpiryLength, 3_600_000);
  const a = await new df.Controller().useSuspense(r.longLived, { id: '2' });
  assert.equal(a.title, 'Stale-while-revalidate in practice');
  assert.equal((await r.longLived({ id: '2' })).id, '2');
});

test('a call reads a binary Content-Type as a Blob with no schema; fetchResponse overrides the request for calls and the controller', async () => {
  const { df, base } = await env();
  const file = new df.RestEndpoint({ urlPrefix: base, path: '/bad/body' });
  const blob = await file({ status: 200, type: 'image/png', text: 'PNG' });
  assert.ok(blob instanceof Blob, 'a binary Content-Type is a Blob');
  assert.equal(await blob.text(), 'PNG');
  assert.equal(await file({ status: 200, type: 'text/plain', text: 'plain' }), 'plain');
  const requested = [];
  const canned = new df.RestEndpoint({
    urlPrefix: 'http://canned.invalid',
    path: '/things/:id',
    fetchResponse(input, init) {
      requested.push(`${init.method} ${input}`);
      return Promise.resolve(new Response('{"id":"7","n":1}', { headers: { 'Content-Type': 'application/json' } }));
    },
  });
  assert.deepEqual(await canned({ id: '7' }), { id: '7', n: 1 });
  assert.deepEqual(await new df.Controller().fetch(canned, { id: '7' }), { id: '7', n: 1 });
  const ext = canned.extend({ name: 'again' });
  assert.deepEqual(await new df.Controller().fetch(ext, { id: '8' }), { id: '7', n: 1 });
  assert.deepEqual(requested, ['GET http://canned.invalid/things/7', 'GET http://canned.invalid/things/7', 'GET http://canned.invalid/things/8']);
});

test('a call that gets no response fails with a NetworkError of status 0 naming the request', async () => {
  const { df } = await env();
  const down = new df.RestEndpoint({ urlPrefix: 'http://down.invalid', path: '/x' });
  const saved = globalThis.fetch;
  globalThis.fetch = () => Promise.reject(new TypeError('fetch failed'));
  let err;
  try {
    err = await down({}).catch((e) => e);
  } finally {
    globalThis.fetch = saved;
  }
  assert.ok(err instanceof df.NetworkError);
  assert.equal(err.status, 0);
  assert.match(err.message, /\/x: GET http:\/\/down\.invalid\/x: fetch failed/);
});

test("a call honours the endpoint's timeout (TimeoutError) and signal (AbortError)", async () => {
  const { df, base } = await env();
  const hangs = new df.RestEndpoint({ urlPrefix: base, path: '/bad/hang', timeout: 50 });
  const err = await hangs({}).catch((e) => e);
  assert.equal(err.name, 'TimeoutError');
  const controller = new AbortController();
  const aborted = new df.RestEndpoint({ urlPrefix: base, path: '/bad/hang', signal: controller.signal });
  const pending = aborted({}).catch((e) => e);
  controller.abort();
  assert.equal((await pending).name, 'AbortError');
});
