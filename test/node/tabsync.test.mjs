// df.syncTabs (docs/js-api.md, "Sync between tabs"): two datafetch
// instances, each in a worker thread of its own (tabsync-worker.mjs, which
// loads the package's Node entry), sync over a BroadcastChannel. Requests
// are counted at the fixture server. Nothing sleeps: the test waits for the
// receiver's events (a subscription that does not fetch reports every
// change), with HANG_GUARD as the bound. The test thread also listens on
// the channel (an observer) and posts bad messages on it.

import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HANG_GUARD, MODULE_PATH, fixtureURL, server, setup, test } from './harness.mjs';

setup();

const WORKER = new URL('./tabsync-worker.mjs', import.meta.url);
const LIST = 'GET /articles';
let channels = 0;

// tab starts a worker and returns its driver: call(op, args) runs a
// command; next(pred) resolves with the first event from now (or already
// queued and not yet taken) that pred accepts.
async function tab(base) {
  const worker = new Worker(WORKER, { workerData: { module: pathToFileURL(MODULE_PATH).href, base } });
  const pending = new Map();
  const events = [];
  const waiters = [];
  let seq = 0;
  const offer = () => {
    for (const w of [...waiters]) {
      const i = events.findIndex(w.pred);
      if (i >= 0) {
        const [e] = events.splice(i, 1);
        waiters.splice(waiters.indexOf(w), 1);
        clearTimeout(w.timer);
        w.resolve(e);
      }
    }
  };
  worker.on('message', (m) => {
    if (m.id !== undefined) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(m.error));
      return;
    }
    events.push(m);
    offer();
  });
  const failAll = (err) => {
    for (const p of pending.values()) p.reject(err);
    for (const w of waiters) w.reject(err);
  };
  worker.on('error', failAll);
  const t = {
    worker,
    call(op, args = {}) {
      const id = ++seq;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, op, ...args });
      });
    },
    next(pred, what = 'an event') {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${what} within ${HANG_GUARD} ms; events: ${JSON.stringify(events)}`)), HANG_GUARD);
        waiters.push({ pred, resolve, reject, timer });
        offer();
      });
    },
    // change waits for a change of the watch name that pred accepts.
    change(name, pred = () => true) {
      return t.next((e) => e.event === 'change' && e.name === name && pred(e), `change of ${name}`);
    },
    // drain drops the events received so far.
    drain() {
      events.length = 0;
    },
  };
  await t.next((e) => e.event === 'ready', 'ready');
  return t;
}

// observer listens on the channel from the test thread: texts of the
// messages, in the order they were posted.
function observer(name) {
  const ch = new BroadcastChannel(name);
  const seen = [];
  const waiters = [];
  ch.onmessage = (e) => {
    seen.push(e.data);
    for (const w of waiters.splice(0)) w();
  };
  return {
    ch,
    seen,
    // count waits until n messages were seen.
    async count(n) {
      const deadline = Date.now() + HANG_GUARD;
      while (seen.length < n) {
        assert.ok(Date.now() < deadline, `only ${seen.length} of ${n} messages seen: ${seen.join('\n')}`);
        await new Promise((r) => {
          waiters.push(r);
          setTimeout(r, HANG_GUARD).unref();
        });
      }
      return seen.slice(0, n);
    },
    close: () => ch.close(),
  };
}

// pair starts two synced tabs on a fresh channel, and an observer.
async function pair() {
  const base = await fixtureURL();
  const channel = `datafetch-test-${process.pid}-${++channels}`;
  const [a, b] = await Promise.all([tab(base), tab(base)]);
  const obs = observer(channel);
  await a.call('sync', { channel });
  await b.call('sync', { channel });
  return {
    a,
    b,
    obs,
    channel,
    async close() {
      obs.close();
      await Promise.all([a.worker.terminate(), b.worker.terminate()]);
    },
  };
}

const LIST_ARGS = { endpoint: 'getList', params: {} };
const ONE = { endpoint: 'get', params: { id: 1 } };

test('a response fetched in one tab is read in the other with its metadata and no request; nothing echoes', async () => {
  const { a, b, obs, close } = await pair();
  try {
    await b.call('watch', { name: 'list', ...LIST_ARGS });
    await a.call('fetch', LIST_ARGS);
    const seen = await b.change('list', (e) => e.data !== undefined);
    assert.ok(seen.data.length > 1, 'the list arrived');
    assert.ok(seen.data[0].createdAt instanceof Date, 'a Date field reads as a Date');
    assert.equal(seen.expiryStatus, 'valid');

    const data = await b.call('useSuspense', LIST_ARGS);
    assert.deepEqual(data, seen.data);
    const one = await b.call('useSuspense', ONE);
    assert.equal(one.title, seen.data[0].title, 'the entities came too: an entity read is inferred from them');
    assert.equal(await server.count(LIST), 1, 'one request, the first tab’s');
    assert.equal(await server.total(), 1);

    const [sa, sb] = await Promise.all([a.call('state'), b.call('state')]);
    const key = await a.call('key', LIST_ARGS);
    assert.deepEqual(sb.meta[key], sa.meta[key], 'fetchedAt, expiresAt and date as the sender stored them');
    assert.deepEqual(sb.entitiesMeta, sa.entitiesMeta);
    assert.deepEqual(sb.entities, sa.entities);

    // No echo: b's next message (a marker) is the second one on the
    // channel, right after a's response.
    await b.call('invalidate', { endpoint: 'get', params: { id: 999 } });
    const msgs = (await obs.count(2)).map((t) => JSON.parse(t));
    assert.deepEqual(
      msgs.map((m) => m.op),
      ['store', 'invalidate'],
    );
    assert.equal(msgs[0].datafetch, 'sync');
    assert.equal(msgs[0].version, 1);
  } finally {
    await close();
  }
});

test('invalidate, invalidateAll, expireAll, setResponse and resetEntireStore reach the other tab', async () => {
  const { a, b, close } = await pair();
  try {
    await b.call('watch', { name: 'list', ...LIST_ARGS });
    await a.call('fetch', LIST_ARGS);
    await b.change('list', (e) => e.data !== undefined);
    const key = await a.call('key', LIST_ARGS);
    const cases = [
      ['invalidate', LIST_ARGS, 'invalid'],
      ['fetch', LIST_ARGS, 'valid'],
      ['expireAll', { prefix: key }, 'stale'],
      ['fetch', LIST_ARGS, 'valid'],
      ['invalidateAll', { prefix: key }, 'invalid'],
      ['setResponse', { ...LIST_ARGS, data: [{ id: 77, title: 'set by a' }] }, 'valid'],
      ['reset', {}, 'missing'],
    ];
    for (const [op, args, status] of cases) {
      const changed = b.change('list', (e) => e.expiryStatus === status);
      await a.call(op, args);
      const e = await changed;
      assert.equal((await a.call('read', LIST_ARGS)).expiryStatus, status, `${op} in a`);
      if (op === 'setResponse')
        assert.deepEqual(
          e.data.map((x) => x.title),
          ['set by a'],
        );
      if (op === 'reset') assert.equal(e.data, undefined);
    }
    assert.equal(await server.count(LIST), 3, 'only a fetched; b never did');
  } finally {
    await close();
  }
});

test('an optimistic update stays in its tab; the server’s answer is sent', async () => {
  const { a, b, close } = await pair();
  try {
    await b.call('watch', { name: 'one', ...ONE });
    await a.call('fetch', ONE);
    const first = await b.change('one', (e) => e.data !== undefined);
    await server.hold('request');
    await a.call('fetchOptimistic', { endpoint: 'partialUpdate', params: { id: 1 }, body: { title: 'optimistic' } });
    assert.equal((await a.call('read', ONE)).data.title, 'optimistic', 'a shows its optimistic update');
    // A marker sent after the optimistic update: when b has it, b would
    // have had anything sent before it.
    await b.call('watch', { name: 'marker', endpoint: 'get', params: { id: 2 } });
    const marker = b.change('marker', (e) => e.data?.title === 'marker');
    await a.call('setResponse', { endpoint: 'get', params: { id: 2 }, data: { id: 2, title: 'marker' } });
    await marker;
    assert.equal((await b.call('read', ONE)).data.title, first.data.title, 'b did not see the optimistic update');

    const answered = b.change('one', (e) => e.data?.title === 'optimistic');
    const settled = a.next((e) => e.event === 'settled', 'the mutation settled');
    await server.unhold();
    assert.equal((await settled).error, undefined);
    await answered;
    assert.equal(await server.count('PATCH /articles/1'), 1);
  } finally {
    await close();
  }
});

test('malformed messages and messages of an unknown version are ignored, and the receiver keeps working', async () => {
  const { a, b, obs, close } = await pair();
  try {
    await b.call('watch', { name: 'list', ...LIST_ARGS });
    const bad = [
      { not: 'text' },
      'not JSON',
      JSON.stringify({ datafetch: 'sync', version: 1, op: 'explode' }),
      JSON.stringify({ datafetch: 'sync', version: 1, op: 'store', state: { version: 1, endpoints: { k: [1] } } }),
      JSON.stringify({ datafetch: 'sync', version: 2, op: 'reset', future: true }),
    ];
    for (const m of bad) obs.ch.postMessage(m);
    const debug = [];
    for (let i = 0; i < bad.length; i++) debug.push((await b.next((e) => e.event === 'debug', 'a console.debug report')).text);
    assert.match(debug[0], /not a datafetch sync message/);
    assert.match(debug[1], /malformed.*JSON/i);
    assert.match(debug[2], /op "explode" is not known/);
    assert.match(debug[3], /meta\["k"\]: missing/);
    assert.match(debug[4], /another version/);
    assert.equal(Object.keys((await b.call('state')).endpoints).length, 0, 'nothing taken');

    await a.call('fetch', LIST_ARGS);
    await b.change('list', (e) => e.data !== undefined);
    assert.equal(await server.count(LIST), 1);
  } finally {
    await close();
  }
});

test('a message with a time out of range (as near 2^63 ms) is ignored, naming it; later messages and fetches win', async () => {
  const { a, b, obs, close } = await pair();
  try {
    await b.call('watch', { name: 'one', ...ONE });
    await a.call('fetch', ONE);
    const first = await b.change('one', (e) => e.data !== undefined);
    const [text] = await obs.count(1);
    const key = await a.call('key', ONE);
    // Replayed from a buggy tab with a poisoned title and fetchedAt: such a
    // time used to be taken, and no later fetch could replace the record.
    const msg = JSON.parse(text);
    msg.state.entities.Article['1'].title = 'poisoned';
    for (const at of [1e300, 9.3e18]) {
      msg.state.meta[key].fetchedAt = at;
      msg.state.entitiesMeta.Article['1'].fetchedAt = at;
      obs.ch.postMessage(JSON.stringify(msg));
      // Reported in any case, after it: were the poisoned message taken,
      // this would be the first report.
      obs.ch.postMessage({ not: 'text' });
      const { text: report } = await b.next((e) => e.event === 'debug', 'a console.debug report');
      const want = `ignored a malformed message: sync message: state: entitiesMeta.Article["1"].fetchedAt: ${at} is out of range`;
      assert.ok(report.includes(want), `${report} says ${want}`);
      assert.match((await b.next((e) => e.event === 'debug', 'the second report')).text, /not a datafetch sync message/);
    }
    assert.equal((await b.call('read', ONE)).data.title, first.data.title, 'nothing taken');

    await b.call('fetch', ONE);
    assert.equal((await b.call('read', ONE)).data.title, first.data.title, 'b fetched the server’s data');
    assert.notEqual(first.data.title, 'poisoned');
    await a.call('setResponse', { ...ONE, data: { id: 1, title: 'set by a' } });
    await b.change('one', (e) => e.data?.title === 'set by a');
  } finally {
    await close();
  }
});

test('a store message posted again after an invalidate or expireAll revives nothing, in either tab; a newer fetch does', async () => {
  const { a, b, obs, close } = await pair();
  try {
    await a.call('watch', { name: 'list', ...LIST_ARGS });
    await b.call('watch', { name: 'list', ...LIST_ARGS });
    await a.call('fetch', LIST_ARGS);
    await b.change('list', (e) => e.expiryStatus === 'valid');
    const key = await a.call('key', LIST_ARGS);
    // The store message of the fetch each round starts from.
    let [stored] = await obs.count(1);
    for (const [op, args, status] of [
      ['invalidate', LIST_ARGS, 'invalid'],
      ['expireAll', { prefix: key }, 'stale'],
    ]) {
      const marked = b.change('list', (e) => e.expiryStatus === status);
      await a.call(op, args);
      await marked;
      // That store message, posted again (as a buggy tab would), then a
      // marker that both tabs report: each has read the replay before it.
      a.drain();
      b.drain();
      const seen = (await obs.count(obs.seen.length)).length;
      obs.ch.postMessage(stored);
      obs.ch.postMessage({ not: 'text' });
      for (const [name, t] of [
        ['a', a],
        ['b', b],
      ]) {
        assert.match((await t.next((e) => e.event === 'debug', `the marker in ${name}`)).text, /not a datafetch sync message/);
        assert.equal((await t.call('read', LIST_ARGS)).expiryStatus, status, `${op}: the replay revived the result in ${name}`);
      }

      // A fetch after it, in b, is newer: valid in both.
      const revalidated = a.change('list', (e) => e.expiryStatus === 'valid');
      await b.call('fetch', LIST_ARGS);
      await revalidated;
      // Its store message is the first after the replay. (The observer
      // does not see what it posted itself, and may see a's invalidate or
      // expire message only now: channels deliver to each receiver in
      // order, but not in step with the other receivers.)
      let n = seen + 1;
      while (!/"op":"store"/.test((await obs.count(n))[n - 1])) n++;
      stored = obs.seen[n - 1];
      assert.match(stored, /"op":"store"/);
    }
  } finally {
    await close();
  }
});

test('stop() stops sending and receiving', async () => {
  const { a, b, obs, close } = await pair();
  try {
    await b.call('stop');
    await b.call('stop'); // twice is harmless
    // b sends nothing: its fetch is not on the channel, a's marker after
    // it is the first message.
    await b.call('fetch', ONE);
    await a.call('invalidate', { endpoint: 'get', params: { id: 999 } });
    const [first] = await obs.count(1);
    assert.equal(JSON.parse(first).op, 'invalidate', 'b’s response was not sent');
    assert.equal((await a.call('read', ONE)).expiryStatus, 'missing', 'a never got b’s article');
    // b receives nothing: a's response is on the channel, b does not take it.
    await a.call('fetch', LIST_ARGS);
    await obs.count(2);
    assert.equal((await b.call('read', LIST_ARGS)).expiryStatus, 'missing');
  } finally {
    await close();
  }
});
