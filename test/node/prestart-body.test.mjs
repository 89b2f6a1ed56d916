// The body of a pre-started request's answer (prestart.test.mjs) is read
// as soon as it arrives, while datafetch.wasm still loads, when it is a
// JSON success that the engine would read itself: the engine, once up,
// gets the bytes rather than reading them then (test/bench/README.md,
// "Start sooner"). An endpoint whose parseResponse reads the Response has
// its body left for it. Its own process, as prestart.test.mjs: load()
// runs once in it, under the test's control.
//
// Order, not time: the test's fetch answers with bodies that record when
// they are read (a stream with no read-ahead), and load() records when it
// resolves. The module's instantiation settles in a task of its own, after
// the microtasks in which an early read starts.

import assert from 'node:assert/strict';
import { heldWasm, importModule, setup, test } from './harness.mjs';

setup();

const { Controller, Entity, RestEndpoint, load } = await importModule();

class Article extends Entity {
  id = '';
  title = '';
}

const ORIGIN = 'http://127.0.0.1:9';

// recordedBody is a Response of text whose body logs `${name} body read`
// (into log) when it is first read: highWaterMark 0, so that nothing pulls
// it before a reader asks.
function recordedBody(log, name, text, contentType) {
  const bytes = new TextEncoder().encode(text);
  let read = false;
  const stream = new ReadableStream(
    {
      pull(c) {
        if (!read) log.push(`${name} body read`);
        read = true;
        c.enqueue(bytes);
        c.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { status: 200, headers: { 'Content-Type': contentType } });
}

test("a pre-started JSON answer is read while the module loads; a parseResponse endpoint's is left for it", async () => {
  const log = [];
  const requests = [];
  const real = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    requests.push(`${init?.method ?? 'GET'} ${url}`);
    const path = new URL(url).pathname;
    if (path === '/articles/1') return recordedBody(log, 'plain', JSON.stringify({ id: '1', title: 'one' }), 'application/json');
    if (path === '/articles/2') return recordedBody(log, 'parsed', 'two', 'text/plain');
    // Not a Response: what a replaced fetch may answer, which the transport
    // reads as it always has (no headers it can list: a body it parses).
    if (path === '/articles/3') {
      const answer = {
        status: 200,
        statusText: 'OK',
        headers: {},
        clone: () => answer,
        arrayBuffer: async () => {
          log.push('duck body read');
          return new TextEncoder().encode(JSON.stringify({ id: '3', title: 'three' })).buffer;
        },
      };
      return answer;
    }
    return new Response('not found', { status: 404 });
  };
  try {
    const plain = new RestEndpoint({ urlPrefix: ORIGIN, path: '/articles/:id', schema: Article });
    // Its parseResponse turns a text body into the record.
    const parsed = new RestEndpoint({
      urlPrefix: ORIGIN,
      path: '/articles/:id',
      schema: Article,
      async parseResponse(response) {
        return { id: '2', title: await response.text() };
      },
    });

    const wasm = heldWasm();
    const loading = load(wasm.response).then(() => log.push('module loaded'));
    const ctrl = new Controller();
    const one = ctrl.useSuspense(plain, { id: '1' });
    const two = ctrl.useSuspense(parsed, { id: '2' });
    const three = ctrl.useSuspense(plain, { id: '3' });
    assert.deepEqual(requests, [`GET ${ORIGIN}/articles/1`, `GET ${ORIGIN}/articles/2`, `GET ${ORIGIN}/articles/3`], 'the requests start at once');

    wasm.open();
    await loading;
    const [a, b, c] = await Promise.all([one, two, three]);
    assert.ok(a instanceof Article);
    assert.equal(a.title, 'one', 'the bytes read early are the data');
    assert.equal(b.title, 'two', 'parseResponse read its body');
    assert.equal(c.title, 'three', 'an answer that is not a Response is read by the transport');
    assert.deepEqual(
      log.filter((e) => e !== 'duck body read'),
      ['plain body read', 'module loaded', 'parsed body read'],
      'the JSON body was read before the module was in; the parsed one after',
    );
    assert.ok(log.indexOf('duck body read') > log.indexOf('module loaded'), 'the answer that is not a Response was read once the module was in');
    assert.equal(requests.length, 3, 'each request made once: the engine took them');
    ctrl.close();
  } finally {
    globalThis.fetch = real;
  }
});
