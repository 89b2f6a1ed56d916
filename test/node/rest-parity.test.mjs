// RestEndpoint details as data-client 0.18 has them (issue 22 item 8; see
// also endpoint-parity.test.mjs): NetworkError's message, invalidateAll
// and expireAll given an endpoint (its testKey), and the content option
// with the body kinds data-client reads by Content-Type. Requests go to the fixture server's
// /bad/body route, which answers any status, Content-Type and body.

import assert from 'node:assert/strict';
import { env, importModule, setup, test } from './harness.mjs';

setup();

const { Entity } = await importModule();

class Item extends Entity {
  id = 0;
  name = '';
}

// bodyURL is the fixture route answering 200 with text as type.
function bodyURL(base, type, text) {
  return `${base}/bad/body?status=200&type=${encodeURIComponent(type)}&text=${encodeURIComponent(text)}`;
}

// ---------------------------------------------------------------- NetworkError

test('NetworkError from a Response: data-client message, toJSON with name, status, message and url', async () => {
  const { df } = await env();
  const response = { status: 404, statusText: 'Not Found', url: 'http://test.com/api/missing' };
  const err = new df.NetworkError(response);
  assert.equal(err.message, 'http://test.com/api/missing: Not Found');
  assert.deepEqual(err.toJSON(), { name: 'NetworkError', status: 404, message: 'http://test.com/api/missing: Not Found', url: 'http://test.com/api/missing' });
  const noText = new df.NetworkError({ status: 500, statusText: '', url: 'http://test.com/api/broken' });
  assert.equal(noText.message, "http://test.com/api/broken: Status not 'ok': 500");
  const parsed = JSON.parse(JSON.stringify(noText));
  assert.equal(parsed.name, 'NetworkError');
  assert.equal(parsed.status, 500);
  assert.equal(parsed.url, 'http://test.com/api/broken');
});

// ---------------------------------------------------------------- testKey

test('ctrl.invalidateAll(endpoint) invalidates the keys its testKey matches, and no others', async () => {
  const { df } = await env();
  const a = new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:9', path: '/a/:id', name: 'a' });
  const b = new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:9', path: '/b/:id', name: 'b' });
  const ctrl = new df.Controller();
  await ctrl.setResponse(a, { id: 1 }, 'one');
  await ctrl.setResponse(a, { id: 2, q: 'x' }, 'two');
  await ctrl.setResponse(b, { id: 1 }, 'other');
  await ctrl.invalidateAll(a);
  assert.equal(ctrl.getResponse(a, { id: 1 }).expiryStatus, 'invalid');
  assert.equal(ctrl.getResponse(a, { id: 2, q: 'x' }).expiryStatus, 'invalid');
  assert.equal(ctrl.getResponse(b, { id: 1 }).expiryStatus, 'valid');
  await ctrl.expireAll({ testKey: (key) => key.startsWith('b ') });
  assert.equal(ctrl.getResponse(b, { id: 1 }).expiryStatus, 'stale');
  await assert.rejects(ctrl.invalidateAll({}), /testKey must be a function or an object with a testKey method/);
});

// ---------------------------------------------------------------- content

test("content: 'text' gives the body's text, JSON or not; 'json' parses whatever the Content-Type", async () => {
  const { df, base } = await env();
  const ctrl = new df.Controller();
  const text = new df.RestEndpoint({ path: bodyURL(base, 'application/json', '{"ok":true}').replace(':', '\\:'), content: 'text' });
  assert.equal(await ctrl.fetch(text), '{"ok":true}');
  assert.equal(await text.fetch(), '{"ok":true}', 'endpoint.fetch() too');
  const json = new df.RestEndpoint({ urlPrefix: base, path: '/bad/body', content: 'json' });
  assert.deepEqual(await ctrl.fetch(json, { status: 200, type: 'text/plain', text: '{"ok":true}' }), { ok: true });
  const err = await ctrl.fetch(json, { status: 200, type: 'text/plain', text: 'not json' }).then(
    () => assert.fail('resolved'),
    (e) => e,
  );
  assert.equal(err.status, 400);
  assert.match(err.message, /content 'json': the body is not JSON/);
  const ext = new df.RestEndpoint({ urlPrefix: base, path: '/bad/body' }).extend({ content: 'text' });
  assert.equal(ext.content, 'text');
  assert.equal(await ctrl.fetch(ext, { status: 200, type: 'application/json', text: '[1]' }), '[1]', 'extend({content}) propagates');
});

test("content: 'blob', 'arrayBuffer' and 'stream': endpoint.fetch() gives the Blob, ArrayBuffer and body stream", async () => {
  const { df, base } = await env();
  const params = { status: 200, type: 'application/octet-stream', text: '\x01\x02\x03' };
  const blob = await new df.RestEndpoint({ urlPrefix: base, path: '/bad/body', content: 'blob' }).fetch(params);
  assert.ok(blob instanceof Blob);
  assert.deepEqual([...new Uint8Array(await blob.arrayBuffer())], [1, 2, 3]);
  const buf = await new df.RestEndpoint({ urlPrefix: base, path: '/bad/body', content: 'arrayBuffer' }).fetch(params);
  assert.ok(buf instanceof ArrayBuffer);
  assert.equal(buf.byteLength, 3);
  const stream = await new df.RestEndpoint({ urlPrefix: base, path: '/bad/body', content: 'stream' }).fetch(params);
  assert.ok(stream instanceof ReadableStream);
  class BlobEndpoint extends df.RestEndpoint {
    content = 'blob';
  }
  const sub = new BlobEndpoint({ urlPrefix: base, path: '/bad/body' });
  assert.equal(sub.content, 'blob');
  assert.ok((await sub.fetch(params)) instanceof Blob, 'a subclass field sets it');
  const none = await new df.RestEndpoint({ urlPrefix: base, path: '/bad/status/:code', content: 'blob' }).fetch({ code: 204 }).catch((e) => e);
  assert.ok(none instanceof df.NetworkError || none === null, 'a 204 is null, an error status an error');
});

test('content kinds JSON cannot carry: 400 with a schema, a clear error in the cache, a TypeError for an unknown kind', async () => {
  const { df, base } = await env();
  const params = { status: 200, type: 'application/octet-stream', text: 'abc' };
  const withSchema = new df.RestEndpoint({ urlPrefix: base, path: '/bad/body', content: 'blob', schema: Item });
  const err = await withSchema.fetch(params).then(
    () => assert.fail('resolved'),
    (e) => e,
  );
  assert.equal(err.status, 400);
  assert.match(err.message, /content 'blob' is incompatible with schema/);
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/body', content: 'blob', name: 'download' });
  await assert.rejects(new df.Controller().fetch(ep, params), /download: parseResponse: a Blob cannot be stored in the cache/);
  assert.throws(
    () => new df.RestEndpoint({ path: '/x', content: 'xml' }),
    /content must be one of json, text, blob, arrayBuffer, formData, stream, got 'xml'|got "xml"/,
  );
});

test('parseResponse with no content: a binary Content-Type is a Blob without a schema, an error with status 400 with one', async () => {
  const { df, base } = await env();
  for (const type of ['image/png', 'application/pdf', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']) {
    const ep = new df.RestEndpoint({ path: '/files/:id' });
    const v = await ep.parseResponse(await fetch(bodyURL(base, type, 'PNG')));
    assert.ok(v instanceof Blob, type);
  }
  const xml = new df.RestEndpoint({ path: '/files/:id' });
  assert.equal(await xml.parseResponse(await fetch(bodyURL(base, 'application/xml', '<r/>'))), '<r/>', 'xml is text');
  const typed = new df.RestEndpoint({ path: '/files/:id', schema: Item });
  const err = await typed.parseResponse(await fetch(bodyURL(base, 'image/png', 'PNG'))).then(
    () => assert.fail('resolved'),
    (e) => e,
  );
  assert.equal(err.status, 400);
  assert.match(err.message, /unexpected binary content-type "image\/png"/);
});

test('a content kind every fetch refuses (a schema, no process) is told at construction on console.error, as data-client', async () => {
  const { df } = await env();
  const said = [];
  const saved = console.error;
  console.error = (msg) => said.push(String(msg));
  try {
    new df.RestEndpoint({ path: '/files/:id', content: 'blob', schema: Item });
    new df.RestEndpoint({ path: '/files/:id', content: 'text', schema: Item, process: (v) => ({ id: 1, name: v }) });
    new df.RestEndpoint({ path: '/files/:id', content: 'json', schema: Item });
    new df.RestEndpoint({ path: '/files/:id', content: 'stream' });
  } finally {
    console.error = saved;
  }
  assert.equal(said.length, 1, said.join('\n'));
  assert.match(said[0], /\/files\/:id: content 'blob' is incompatible with schema/);
});

// ---------------------------------------------------------------- collection endpoints without a Collection

test('push, unshift, remove, move and assign of an endpoint with no Collection are requests with no schema; getPage throws', async () => {
  const { df, base } = await env();
  const page = new df.RestEndpoint({
    urlPrefix: base,
    path: '/articles',
    name: 'page',
    paginationField: 'cursor',
    schema: { nextPage: '', data: { results: [Item] } },
  });
  for (const [op, method] of [
    ['push', 'POST'],
    ['unshift', 'POST'],
    ['remove', 'PATCH'],
    ['move', 'PATCH'],
    ['assign', 'POST'],
  ]) {
    const ep = page[op];
    assert.equal(typeof ep, 'function', `${op} is an endpoint`);
    assert.equal(ep.schema, undefined, `${op}: no schema`);
    assert.equal(ep.method, method, op);
    assert.equal(ep.name, `page.${op}`);
    assert.equal(ep, page[op], `${op}: made once`);
  }
  assert.throws(() => page.getPage, /page\.getPage: the schema holds no Collection/);
  // It runs as an endpoint with no schema: the response as it is.
  const created = await new df.Controller().fetch(page.push, {}, { title: 'pushed' });
  assert.equal(created.title, 'pushed');
  assert.ok(!(created instanceof Item), 'not normalized: a plain object');
  // A Collection of a list has no assign: also a request with no schema.
  const list = new df.RestEndpoint({ urlPrefix: base, path: '/bad/body', schema: new df.schema.Collection([Item]) });
  assert.equal(list.assign.schema, undefined);
  assert.ok(list.push.schema !== undefined, 'push of a Collection keeps its schema');
  assert.equal(list.getPage, undefined, 'a Collection without paginationField has no getPage');
});

// ---------------------------------------------------------------- bodies that are not JSON

test('a schema refuses a 2xx body that is not JSON, saying what came as data-client does (an HTML page, text); status 400', async () => {
  const { df, base } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/body', name: 'item', schema: Item });
  const cases = [
    ['text/html', '<body>fallback</body>', /^item: .*400 unexpected html response for schema Item \(likely no API endpoint is configured/],
    ['none', 'plain words', /^item: .*400 unexpected text response for schema Item: invalid JSON/],
    ['text/plain', 'plain words', /^item: .*400 unexpected text\/plain response for schema Item: invalid JSON/],
  ];
  for (const [type, text, message] of cases) {
    const params = { status: 200, type, text };
    for (const [how, run] of [
      ['endpoint()', () => ep(params)],
      ['ctrl.fetch', () => new df.Controller().fetch(ep, params)],
    ]) {
      const err = await run().then(
        () => assert.fail(`${how} ${type}: resolved`),
        (e) => e,
      );
      assert.ok(err instanceof df.NetworkError, `${how} ${type}: ${err}`);
      assert.equal(err.status, 400, `${how} ${type}`);
      assert.match(err.message, message, `${how} ${type}`);
    }
  }
  // JSON is read whatever its Content-Type says (docs/js-api.md, Responses).
  for (const type of ['application/json', 'none', 'text/plain']) {
    const v = await new df.Controller().fetch(ep, { status: 200, type, text: '{"id":1,"name":"a"}' });
    assert.equal(v.name, 'a', type);
  }
  // Without a schema, or with a process of its own, text is text.
  const plain = new df.RestEndpoint({ urlPrefix: base, path: '/bad/body', name: 'plain' });
  assert.equal(await plain({ status: 200, type: 'text/html', text: '<p>hi</p>' }), '<p>hi</p>');
  const processed = ep.extend({ process: (text) => ({ id: 2, name: text }) });
  assert.equal((await new df.Controller().fetch(processed, { status: 200, type: 'text/plain', text: 'words' })).name, 'words');
});
