// Strings, deep data and URLs through the public API (issue 10, items 1, 2
// and 5): lone surrogates in keys and values read back exactly as JSON.parse
// gives them; JSON nested deeper than the library follows is an Error, never
// its text; a path token cannot leave its template.
//
// No fixture server: every response comes from a `fetch` option that builds
// a Response, and every request is recorded there, so the tests count what
// was sent without a network.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadDF } from './harness.mjs';

// A hang guard only: nothing here waits on time.
const opts = { timeout: 5 * 60_000 };

const BASE = 'http://strings.test';

/**
 * A fetch option that answers every request with `respond(url)` (JSON text,
 * or a Response) and records the URLs it was called with.
 */
function fakeFetch(respond) {
  const calls = [];
  const fetch = async (url) => {
    calls.push(String(url));
    const out = await respond(String(url));
    if (out instanceof Response) return out;
    return new Response(out, { headers: { 'content-type': 'application/json' } });
  };
  return { fetch, calls };
}

const LONE = ['\ud800', '\udbff', '\ufffd'];

// ------------------------------------------------------------ 1. lone surrogates

test('pks "\\ud800", "\\udbff", "\\ufffd" from a response are three entities, read back exactly', opts, async () => {
  const df = await loadDF();
  const Item = df.Entity({ key: 'SItem', defaults: { id: undefined, name: '', tags: {} } });
  // The response text spells them as escapes, as JSON.stringify writes them.
  const text = JSON.stringify(LONE.map((id, i) => ({ id, name: `name ${id} ${i}`, tags: { [id]: i } })));
  assert.ok(text.includes('\\ud800') && text.includes('\\udbff'), text);
  const expected = JSON.parse(text);
  const { fetch } = fakeFetch(() => text);
  const ctrl = new df.Controller({ fetch });
  const list = new df.RestEndpoint({ urlPrefix: BASE, path: '/items', name: 'listItems', schema: [Item] });

  const got = await ctrl.fetch(list);
  assert.equal(got.length, 3);
  for (let i = 0; i < 3; i++) {
    assert.equal(got[i].id, expected[i].id, `record ${i}: the pk is JSON.parse's string (===)`);
    assert.equal(got[i].name, expected[i].name, `record ${i} keeps its own values`);
    assert.deepEqual(Object.keys(got[i].tags), Object.keys(expected[i].tags), `record ${i}: keys are exact`);
    assert.equal(got[i].tags[LONE[i]], i);
  }
  const entities = ctrl.getState().entities.SItem;
  assert.deepEqual(Object.keys(entities).sort(), [...LONE].sort(), 'one entity per pk, none overwritten');
  for (const id of LONE) assert.equal(entities[id].id, id);

  // The same records read synchronously, and again memoized.
  const { data } = ctrl.getResponse(list);
  assert.deepEqual(
    data.map((r) => r.id),
    LONE,
  );
  assert.equal(ctrl.getResponse(list).data, data);
});

test('strings from JavaScript keep their lone surrogates: setResponse data, params, pk functions', opts, async () => {
  const df = await loadDF();
  const { fetch, calls } = fakeFetch((url) => {
    // Echo the pk function's input: records whose pk is computed.
    if (url.includes('/codes')) return JSON.stringify(LONE.map((code, i) => ({ code, n: i })));
    return 'null';
  });
  const ctrl = new df.Controller({ fetch });

  // setResponse: data given as JavaScript strings.
  const Item = df.Entity({ key: 'SItem2', defaults: { id: undefined, name: '' } });
  const list = new df.RestEndpoint({ urlPrefix: BASE, path: '/items2', name: 'listItems2', schema: [Item] });
  await ctrl.setResponse(
    list,
    {},
    LONE.map((id) => ({ id, name: `is ${id}` })),
  );
  const stored = ctrl.getResponse(list, {}).data;
  assert.deepEqual(
    stored.map((r) => r.id),
    LONE,
  );
  assert.deepEqual(
    stored.map((r) => r.name),
    LONE.map((id) => `is ${id}`),
  );
  assert.equal(Object.keys(ctrl.getState().entities.SItem2).length, 3);

  // A pk function that returns them.
  const Code = df.Entity({ key: 'SCode', pk: (r) => r.code, defaults: { code: '', n: 0 } });
  const codes = new df.RestEndpoint({ urlPrefix: BASE, path: '/codes', name: 'listCodes', schema: [Code] });
  const got = await ctrl.fetch(codes);
  assert.deepEqual(
    got.map((r) => r.code),
    LONE,
  );
  assert.deepEqual(
    got.map((r) => r.n),
    [0, 1, 2],
    'no record overwrote another',
  );
  assert.deepEqual(Object.keys(ctrl.getState().entities.SCode).sort(), [...LONE].sort());

  // Params: a value that is not a path token is a query member, which
  // URLSearchParams writes as U+FFFD; as a path token, encodeURIComponent
  // refuses it, and so does the library: an Error naming the token.
  const one = new df.RestEndpoint({ urlPrefix: BASE, path: '/items2/:id', name: 'getItem2', schema: Item });
  assert.equal(one.url({ id: 'a', q: '\ud800' }), `${BASE}/items2/a?q=%EF%BF%BD`);
  const before = calls.length;
  assert.throws(
    () => one.url({ id: '\ud800' }),
    (err) => err instanceof Error && /getItem2/.test(err.message) && /:id/.test(err.message) && /lone surrogate/.test(err.message),
  );
  await assert.rejects(ctrl.fetch(one, { id: '\udbff' }), /getItem2.*:id.*lone surrogate/);
  assert.equal(calls.length, before, 'nothing was sent');
});

// ------------------------------------------------------------ 2. deep JSON

const deepText = (n) => '['.repeat(n) + ']'.repeat(n);

test('10,000 levels of valid JSON are an Error naming the endpoint and the depth, never the text', opts, async () => {
  const df = await loadDF();
  const Item = df.Entity({ key: 'SDeep', defaults: { id: undefined, nested: null } });
  const { fetch } = fakeFetch((url) => (url.includes('/record') ? `{"id":1,"nested":${deepText(10_000)}}` : deepText(10_000)));
  const ctrl = new df.Controller({ fetch });
  const cases = [
    new df.RestEndpoint({ urlPrefix: BASE, path: '/deep', name: 'getDeepNoSchema' }),
    new df.RestEndpoint({ urlPrefix: BASE, path: '/record', name: 'getDeepRecordNoSchema' }),
    new df.RestEndpoint({ urlPrefix: BASE, path: '/record', name: 'getDeepRecord', schema: Item }),
  ];
  for (const ep of cases) {
    let result;
    const err = await ctrl.fetch(ep).then(
      (v) => {
        result = v;
      },
      (e) => e,
    );
    assert.ok(err instanceof Error, `${ep.name}: want an Error, got a ${typeof result}: ${String(result).slice(0, 40)}`);
    assert.match(err.message, new RegExp(`^${ep.name}: `), 'the message names the endpoint');
    assert.match(err.message, /nesting deeper than 1000 levels/, 'and the depth');
    assert.equal(err.status, 400);
    assert.equal(ctrl.getResponse(ep).data, undefined, 'nothing stored');
  }

  // Up to the limit it is data, and the instance kept working.
  const { fetch: fetch2 } = fakeFetch(() => deepText(1000));
  const ok = await new df.Controller({ fetch: fetch2 }).fetch(cases[0]);
  let depth = 0;
  for (let v = ok; Array.isArray(v); v = v[0]) depth++;
  assert.equal(depth, 1000);
});

test('deep data given to setResponse is an Error naming the endpoint; the cache keeps its last good state', opts, async () => {
  const df = await loadDF();
  const { fetch } = fakeFetch(() => 'null');
  const ctrl = new df.Controller({ fetch });
  const ep = new df.RestEndpoint({ urlPrefix: BASE, path: '/deep-set', name: 'setDeep' });
  await ctrl.setResponse(ep, {}, { ok: 1 });
  // 2,000 levels: JSON.stringify still writes them (10,000 exceed its own
  // stack in Node), and the library refuses them.
  let deep = [];
  for (let i = 1; i < 2_000; i++) deep = [deep];
  const err = await ctrl.setResponse(ep, {}, deep).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(err instanceof Error, `want an Error, got ${err}`);
  assert.match(err.message, /^setDeep: setResponse data: /, 'names the endpoint and the call');
  assert.match(err.message, /nesting deeper than 1000 levels/, 'names the depth');
  assert.deepEqual(ctrl.getResponse(ep, {}).data, { ok: 1 }, 'the last good data stays');
  // 100,000 levels exceed JavaScript's own stack before Go sees them: still
  // an Error naming the call, the endpoint and why.
  for (let i = 2_000; i < 100_000; i++) deep = [deep];
  const err2 = await ctrl.setResponse(ep, {}, deep).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(err2 instanceof Error, `want an Error, got ${err2}`);
  assert.match(err2.message, /^setResponse setDeep: data: nested too deep to be sent as JSON/);
  assert.deepEqual(ctrl.getResponse(ep, {}).data, { ok: 1 }, 'the last good data stays');
  await ctrl.setResponse(ep, {}, { ok: 2 });
  assert.deepEqual(ctrl.getResponse(ep, {}).data, { ok: 2 }, 'the instance keeps working');
});

// ------------------------------------------------------------ 5. path tokens

test('a path token that is "." or ".." is an Error naming the token and endpoint; nothing is sent; "%2e%2e" is a name', opts, async () => {
  const df = await loadDF();
  const { fetch, calls } = fakeFetch(() => '{"ok":true}');
  const ctrl = new df.Controller({ fetch });
  const raw = new df.RestEndpoint({ urlPrefix: BASE, path: '/files/:name/raw', name: 'getRaw' });
  for (const name of ['..', '.']) {
    const check = (err) => {
      assert.ok(err instanceof Error, `${name}: want an Error, got ${err}`);
      assert.match(err.message, /getRaw/, `${name}: the message names the endpoint`);
      assert.ok(
        err.message.includes(`:name`) && err.message.includes(JSON.stringify(name)),
        `${name}: the message names the token and its value: ${err.message}`,
      );
      return true;
    };
    assert.throws(() => raw.url({ name }), check);
    assert.throws(() => raw.key({ name }), check);
    await assert.rejects(ctrl.fetch(raw, { name }), check);
  }
  // Two tokens that make a dot segment together.
  const ext = new df.RestEndpoint({ urlPrefix: BASE, path: '/files/:base:ext/raw', name: 'getExt' });
  assert.throws(() => ext.url({ base: '.', ext: '.' }), /getExt.*dot segment/);
  assert.equal(calls.length, 0, 'no request was sent');

  // Names that stay inside the template still work. A token's "%" is
  // escaped, so "%2e%2e" is the segment %252e%252e: a name, not a dot segment.
  assert.equal(raw.url({ name: '...' }), `${BASE}/files/.../raw`);
  assert.equal(raw.url({ name: '%2e%2E' }), `${BASE}/files/%252e%252E/raw`);
  assert.equal(raw.url({ name: '.%2e' }), `${BASE}/files/.%252e/raw`);
  assert.equal(raw.url({ name: '%2E' }), `${BASE}/files/%252E/raw`);
  assert.deepEqual(await ctrl.fetch(raw, { name: 'a.txt' }), { ok: true });
  assert.deepEqual(calls, [`${BASE}/files/a.txt/raw`]);
});
