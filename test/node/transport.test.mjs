// The fetch path's crossings (jsbridge/js/internal/transport.mjs,
// jsbridge/wake.go): a request is done in JavaScript in one exchange and
// reported to Go through the module's exports and a resume, with no
// js.FuncOf call when it completes; aborting it still aborts the request
// the server sees. These tests load a datafetch.wasm whose bridge and
// exports count the calls JavaScript makes into Go.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { countingInstance, fixtureURL, fixtures, setup, test } from './harness.mjs';

setup();

let counted;

// countedInstance loads datafetch.wasm as load() does, attached with the Go
// instance (so it can be resumed), its bridge and exports wrapped in
// counters of the calls into Go.
async function countedInstance() {
  if (counted) return counted;
  const { mod, go, bridge, exports, calls, funcCalls } = await countingInstance();
  let resumes = 0;
  const resumable = {
    _resume: () => {
      resumes++;
      go._resume();
    },
  };
  const df = mod.attach(bridge(), exports, resumable);
  const base = await fixtureURL();
  counted = {
    df,
    fx: fixtures(df, base),
    // snapshot returns the counts so far: js.FuncOf entries by name, all
    // of them (func), the exported entries (named datafetch...) and resumes.
    snapshot: () => ({
      ...calls,
      func: funcCalls(),
      resumes,
    }),
  };
  return counted;
}

// registered has ctrl's instance register endpoint (and its schema) with
// its engine, as the first use of a declaration does, so that a delta
// counts the fetch path alone. The read's exported call queues a resume of
// Go (bridge.mjs) in a zero timer: a timer queued after it runs after it.
async function registered(ctrl, endpoint, params) {
  assert.equal(ctrl.getResponse(endpoint, params).expiryStatus, 'missing');
  await new Promise((resolve) => setTimeout(resolve, 0));
}

// delta runs fn and returns how many calls of each kind it made.
async function delta(snapshot, fn) {
  const before = snapshot();
  const result = await fn();
  const after = snapshot();
  const d = {};
  for (const [k, v] of Object.entries(after)) d[k] = v - (before[k] ?? 0);
  // A release comes from a FinalizationRegistry, when the collector ran:
  // not a call of the path measured, and at no predictable time.
  d.func -= d.release ?? 0;
  return { result, d };
}

test('transport: a cold fetch makes no js.FuncOf call: started and reported through the exports, two resumes', async () => {
  const { df, fx, snapshot } = await countedInstance();
  const ctrl = new df.Controller();
  await registered(ctrl, fx.listArticles);
  const { result, d } = await delta(snapshot, () => ctrl.fetch(fx.listArticles));
  assert.ok(Array.isArray(result) && result.length > 0 && result[0] instanceof Object, 'the list was read');
  assert.equal(d.datafetchWake, 1, 'the response was reported once');
  assert.equal(d.datafetchReserve, 1, 'its bytes went into Go once');
  assert.equal(d.settle ?? 0, 0, 'no await through the js.FuncOf settle');
  // Started through datafetchStart, completed through datafetchWake.
  assert.equal(d.datafetchStart, 1, JSON.stringify(d));
  assert.equal(d.func, 0, `js.FuncOf calls for one cold fetch: ${JSON.stringify(d)}`);
  assert.equal(d.resumes, 2, 'one resume to start it, one when the response is in');
});

test('transport: the fetch option returning a Response, and an error status, are reported the same way', async () => {
  const { df, fx, snapshot } = await countedInstance();
  const body = JSON.stringify({ id: 7, title: 'from the option' });
  const ctrl = new df.Controller({
    fetch: (url) =>
      url.endsWith('/articles/404')
        ? new Response(JSON.stringify({ message: 'nope' }), { status: 404, statusText: 'Not Here', headers: { 'Content-Type': 'application/json' } })
        : new Response(body, { headers: { 'Content-Type': 'application/json' } }),
  });
  await registered(ctrl, fx.getArticle, { id: '7' });
  const { result, d } = await delta(snapshot, () => ctrl.fetch(fx.getArticle, { id: '7' }));
  assert.equal(result.title, 'from the option');
  assert.equal(d.func, 0, JSON.stringify(d));

  const failed = await delta(snapshot, () => ctrl.fetch(fx.getArticle, { id: '404' }).catch((e) => e));
  const err = failed.result;
  assert.equal(err.name, 'NetworkError');
  assert.equal(err.status, 404);
  assert.equal(err.statusText, 'Not Here');
  assert.ok(err.response instanceof Response, 'NetworkError.response is the Response');
  assert.deepEqual(await err.response.json(), { message: 'nope' }, 'whose body is still readable');
  assert.equal(failed.d.datafetchWake, 1);
});

test('transport: a cold fetch whose fetch option answers at once settles in the task that started it: no timer or macrotask between', async () => {
  // Every step from fetch to the caller's await (start, the option's
  // Response, its body, the report to Go, Go's resume, the result) is a
  // synchronous call or a promise job. A timer hop anywhere (a Go timer, a
  // setTimeout(0) to let JavaScript run first) would cost the caller a
  // macrotask, a millisecond or more in a browser when nested: then the
  // immediate and the timer queued below run first.
  const { df, snapshot } = await countedInstance();
  const User = new df.Entity({ key: 'HopUser', defaults: { id: undefined, name: '' } });
  const users = new df.RestEndpoint({ urlPrefix: 'http://hop.invalid', path: '/users', name: 'hopUsers', schema: [User] });
  const text = JSON.stringify([
    { id: 1, name: 'Ada' },
    { id: 2, name: 'Grace' },
  ]);
  for (let i = 0; i < 3; i++) {
    const ctrl = new df.Controller({ fetch: () => Promise.resolve(new Response(text, { headers: { 'Content-Type': 'application/json' } })) });
    await registered(ctrl, users);
    const ran = [];
    const timer = setTimeout(() => ran.push('setTimeout(0)'), 0);
    setImmediate(() => ran.push('setImmediate'));
    const { result, d } = await delta(snapshot, () => ctrl.fetch(users));
    clearTimeout(timer);
    assert.deepEqual(
      result.map((u) => u.name),
      ['Ada', 'Grace'],
    );
    assert.deepEqual(ran, [], `macrotasks that ran before fetch #${i} settled`);
    assert.equal(d.resumes, 2, JSON.stringify(d));
    assert.equal(d.func, 0, JSON.stringify(d));
  }
});

test('transport: the promise of parseResponse is awaited without the js.FuncOf settle', async () => {
  const { df, fx, snapshot } = await countedInstance();
  const parsed = fx.getArticle.extend({ parseResponse: async (response) => ({ ...(await response.json()), title: 'parsed here' }) });
  const ctrl = new df.Controller();
  const { result, d } = await delta(snapshot, () => ctrl.fetch(parsed, { id: '1' }));
  assert.equal(result.title, 'parsed here');
  assert.equal(d.settle ?? 0, 0, JSON.stringify(d));
  // The request, then parseResponse's promise.
  assert.equal(d.datafetchWake, 2, JSON.stringify(d));
});

test('transport: useSuspense and fetchIfStale start through the export; a raw body takes the js.FuncOf entry', async () => {
  const { df, fx, snapshot } = await countedInstance();
  const ctrl = new df.Controller();
  const read = await delta(snapshot, () => ctrl.useSuspense(fx.getArticle, { id: '2' }));
  assert.equal(String(read.result.id), '2');
  assert.equal(read.d.func, 0, JSON.stringify(read.d));
  assert.equal(read.d.datafetchStart, 1);
  ctrl.invalidate(fx.getArticle, { id: '2' });
  const stale = await delta(snapshot, () => ctrl.fetchIfStale(fx.getArticle, { id: '2' }));
  assert.equal(String(stale.result.id), '2');
  assert.equal(stale.d.func, 0, JSON.stringify(stale.d));
  // A FormData body is a JavaScript value Go must hold: the js.FuncOf entry.
  const form = new FormData();
  form.append('title', 'multipart');
  const raw = await delta(snapshot, () => ctrl.fetch(fx.patchArticle, { id: '2' }, form).catch((e) => e));
  assert.equal(raw.d.ctrlFetch, 1, JSON.stringify(raw.d));
  assert.equal(raw.d.datafetchStart ?? 0, 0);
});

test('transport: aborting a request aborts it at the server', async () => {
  const { df, snapshot } = await countedInstance();
  // A server that never answers and records each request's arrival and
  // its connection closing before an answer.
  let arrived;
  const arrival = new Promise((r) => {
    arrived = r;
  });
  let closed;
  const closing = new Promise((r) => {
    closed = r;
  });
  let aborted = 0;
  const srv = createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableEnded) {
        aborted++;
        closed();
      }
    });
    arrived();
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  try {
    const ac = new AbortController();
    const ep = new df.RestEndpoint({ urlPrefix: `http://127.0.0.1:${srv.address().port}`, path: '/slow', name: 'slow', signal: ac.signal });
    const ctrl = new df.Controller();
    const before = snapshot();
    const pending = ctrl.fetch(ep).catch((e) => e);
    await arrival;
    ac.abort();
    const err = await pending;
    assert.equal(err.name, 'AbortError', String(err));
    await closing;
    assert.equal(aborted, 1, 'the server saw the request aborted');
    assert.equal((snapshot().settle ?? 0) - (before.settle ?? 0), 0);
  } finally {
    srv.closeAllConnections();
    await new Promise((r) => srv.close(r));
  }
});

test('transport: data a fetch function returns goes into Go as UTF-8 written in place, multi-byte text in a second room', async () => {
  // The fetch option of an endpoint (data already JavaScript, as a GraphQL
  // client or a worker returns it) crosses as JSON text that JavaScript
  // encodes straight into room Go reserves (transport.mjs awaitText):
  // one room for text that is mostly ASCII, a second one when it holds
  // more multi-byte characters than the first room's slack.
  const { df, snapshot } = await countedInstance();
  const Note = new df.Entity({ key: 'WrittenNote', defaults: { id: undefined, text: '' } });
  const ascii = 'plain text, "quoted" and \\ escaped\n'.repeat(40);
  const cases = [
    { name: 'ASCII', text: ascii, rooms: 1 },
    { name: 'a little non-ASCII within the slack', text: `${ascii}é`, rooms: 1 },
    { name: 'CJK (three bytes a unit)', text: 'データの読み込み'.repeat(200), rooms: 2 },
    // Surrogate pairs past the first room's end: encodeInto stops before
    // a pair it cannot finish; the rest starts with it.
    { name: 'ASCII, then emoji', text: `${'x'.repeat(500)}${'😀'.repeat(300)}`, rooms: 2 },
    { name: 'emoji only', text: '🌍🌎🌏'.repeat(100), rooms: 2 },
    // A second room more than 1 KB and an eighth longer than the text
    // (each emoji is reserved 6 bytes and takes 4): Go copies the text
    // out of it.
    { name: 'ASCII, then many emoji', text: `${'x'.repeat(8000)}${'😀'.repeat(3000)}`, rooms: 2 },
  ];
  for (const [i, c] of cases.entries()) {
    const records = [
      { id: 1, text: c.text },
      { id: 2, text: `#${i}` },
    ];
    const notes = new df.RestEndpoint({
      urlPrefix: 'http://written.invalid',
      path: `/notes/${i}`,
      name: `writtenNotes${i}`,
      schema: [Note],
      fetch: () => Promise.resolve(structuredClone(records)),
    });
    const ctrl = new df.Controller();
    await registered(ctrl, notes);
    const { result, d } = await delta(snapshot, () => ctrl.fetch(notes));
    assert.deepEqual(
      result.map((n) => ({ ...n })),
      records,
      c.name,
    );
    assert.equal(d.datafetchReserve, c.rooms, `${c.name}: rooms reserved (${JSON.stringify(d)})`);
    assert.equal(d.func, 0, `${c.name}: ${JSON.stringify(d)}`);
  }
});

test('transport: a fetch function resolving to nothing, or throwing, is reported as before', async () => {
  const { df } = await countedInstance();
  const Note = new df.Entity({ key: 'EmptyNote', defaults: { id: undefined } });
  const nothing = new df.RestEndpoint({ urlPrefix: 'http://written.invalid', path: '/nothing', name: 'nothing', schema: [Note], fetch: async () => undefined });
  const thrown = Object.assign(new Error('gone'), { status: 410 });
  const failing = new df.RestEndpoint({
    urlPrefix: 'http://written.invalid',
    path: '/gone',
    name: 'gone',
    schema: [Note],
    fetch: async () => {
      throw thrown;
    },
  });
  const ctrl = new df.Controller();
  await assert.rejects(ctrl.fetch(nothing), /nothing GET http:\/\/written\.invalid\/nothing: the response is undefined, where the schema expects data/);
  await assert.rejects(ctrl.fetch(failing), (err) => err.message === 'gone: fetch: gone' && err.status === 410);
});

test('transport: data a fetch function returns after its fetch was aborted is dropped, not written into Go', async () => {
  // Go stops waiting when the endpoint's signal aborts; the text that
  // comes later finds no wait (awaitText) and reserves no room.
  const { df, snapshot } = await countedInstance();
  const Note = new df.Entity({ key: 'LateNote', defaults: { id: undefined, text: '' } });
  const ac = new AbortController();
  let answer;
  const late = new df.RestEndpoint({
    urlPrefix: 'http://written.invalid',
    path: '/late',
    name: 'late',
    schema: [Note],
    signal: ac.signal,
    fetch: () =>
      new Promise((resolve) => {
        answer = resolve;
      }),
  });
  const ctrl = new df.Controller();
  await registered(ctrl, late);
  const fetched = ctrl.fetch(late).catch((err) => err);
  assert.equal(typeof answer, 'function', 'the fetch function was called');
  ac.abort();
  assert.equal((await fetched).name, 'AbortError');
  const { d } = await delta(snapshot, async () => {
    answer([{ id: 1, text: 'too late' }]);
    // The adapter's continuation and awaitText's are promise jobs: all
    // of them run before a setImmediate callback.
    await new Promise((resolve) => setImmediate(resolve));
  });
  assert.equal(d.datafetchReserve ?? 0, 0, JSON.stringify(d));
  assert.equal(d.datafetchWake ?? 0, 0, JSON.stringify(d));
  assert.equal(ctrl.getResponse(late).data, undefined, 'nothing was stored');
});
