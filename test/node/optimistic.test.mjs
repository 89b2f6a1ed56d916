// Optimistic updates (docs/js-api.md, Optimistic updates): partial update,
// create with a temporary id, delete, the counter. The fixture server holds
// requests (/_control/hold) so the test decides when and in which order the
// network answers, and fails mutations on demand (/_control/fail-next).

import assert from 'node:assert/strict';
import { env, failureOf, importModule, promiseState, quiet, recorder, server, setup, test, waitFor } from './harness.mjs';

setup();

const TEMP = 'tmp-3f9a';

function endpoints(df, base, fx) {
  const r = df.resource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article });
  const listKey = r.getList.key({});
  const partialUpdate = r.partialUpdate.extend({
    getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  });
  const create = r.create.extend({
    getRequestInit(body) {
      return { method: 'POST', body: { ...body, id: TEMP } };
    },
    getOptimisticResponse: (snap, params, body) => ({ ...body, id: TEMP }),
    update: (newId) => ({ [listKey]: (ids = []) => [...ids, newId] }),
  });
  const del = r.delete.extend({
    getOptimisticResponse: (snap, params) => params,
  });
  return { r, partialUpdate, create, del };
}

function counter(df, base, entityOptions = {}, snaps = []) {
  const Count = df.Entity({
    key: 'Count',
    pk: () => 'SINGLETON',
    defaults: { count: 0, updatedAt: 0 },
    schema: { updatedAt: Date },
    ...entityOptions,
  });
  const getCount = new df.RestEndpoint({ urlPrefix: base, path: '/api/count', name: 'getCount', schema: Count });
  const increment = new df.RestEndpoint({
    urlPrefix: base,
    path: '/api/count/increment',
    method: 'POST',
    name: 'increment',
    schema: Count,
    getRequestInit(body) {
      return { method: 'POST', body: { ...body, updatedAt: Date.now() } };
    },
    getOptimisticResponse(snap) {
      const { data } = snap.getResponse(getCount);
      snaps.push({ count: data?.count, fetchedAt: snap.fetchedAt });
      if (!data) throw new df.AbortOptimistic();
      return { count: data.count + 1, updatedAt: snap.fetchedAt };
    },
  });
  return { Count, getCount, increment };
}

const optimisticCount = (ctrl) => ctrl.getState().optimistic.length;

// ---------------------------------------------------------------- partial update

test('partial update: applied before fetch returns, visible to getResponse and subscribers; server data replaces it', async () => {
  const { df, base, fx } = await env();
  const { r, partialUpdate } = endpoints(df, base, fx);
  const ctrl = new df.Controller();
  const before = await ctrl.useSuspense(r.get, { id: '1' });
  const rec = recorder();
  const unsub = ctrl.subscribe(r.get, { id: '1' }, rec);
  try {
    await server.hold();
    const p = ctrl.fetch(partialUpdate, { id: '1' }, { title: 'Optimistic title' });
    const now = ctrl.getResponse(r.get, { id: '1' });
    assert.equal(now.data.title, 'Optimistic title', 'applied before fetch returned its Promise');
    assert.equal(now.data.content, before.content, 'a partial update keeps the other fields');
    assert.equal(now.data.createdAt.getTime(), before.createdAt.getTime());
    assert.equal(rec.last().data.title, 'Optimistic title', 'the subscriber saw it at once');
    assert.equal(optimisticCount(ctrl), 1, 'getState().optimistic holds the pending update');
    await server.held(1); // the request is at the server, held: pending
    assert.equal(ctrl.getResponse(r.get, { id: '1' }).data.title, 'Optimistic title', 'still applied while pending');
    await server.unhold();
    const saved = await p;
    assert.equal(saved.title, 'Optimistic title');
    assert.equal(ctrl.getResponse(r.get, { id: '1' }).data, saved);
    assert.equal(optimisticCount(ctrl), 0, 'the optimistic update is gone once the server answered');
    assert.equal(await server.count('PATCH /articles/1'), 1);
  } finally {
    unsub();
  }
});

test('an optimistic update leaves unrelated entities untouched (===)', async () => {
  const { df, base, fx } = await env();
  const { r, partialUpdate } = endpoints(df, base, fx);
  const ctrl = new df.Controller();
  const list = await ctrl.useSuspense(r.getList, {});
  await server.hold();
  const p = ctrl.fetch(partialUpdate, { id: '2' }, { title: 'Two' });
  const now = ctrl.getResponse(r.getList, {}).data;
  assert.notEqual(now, list);
  assert.equal(now[1].title, 'Two');
  assert.equal(now[0], list[0]);
  assert.equal(now[2], list[2]);
  await server.unhold();
  await p;
  const after = ctrl.getResponse(r.getList, {}).data;
  assert.equal(after[0], list[0], 'still the same object after the server answered');
});

// ---------------------------------------------------------------- create with a temporary id

test('create: temporary id appended by update, then replaced by the server id', async () => {
  const { df, base, fx } = await env();
  const { r, create } = endpoints(df, base, fx);
  const ctrl = new df.Controller();
  const list = await ctrl.useSuspense(r.getList, {});
  assert.equal(list.length, 24);
  await server.hold();
  const p = ctrl.fetch(create, {}, { title: 'Draft', content: 'body' });

  const during = ctrl.getResponse(r.getList, {}).data;
  assert.equal(during.length, 25, 'update appended the optimistic record to the list');
  assert.equal(during[24].id, TEMP);
  assert.equal(during[24].title, 'Draft');
  assert.equal(during[24].published, false, 'defaults apply to optimistic records');
  assert.equal(during[0], list[0]);
  assert.ok(ctrl.getState().entities.Article?.[TEMP] || optimisticCount(ctrl) === 1, 'the temporary entity exists');

  await server.held(1);
  await server.unhold();
  const created = await p;
  assert.equal(created.id, '101', 'the server assigned the real id');
  assert.equal(created.title, 'Draft');

  const after = ctrl.getResponse(r.getList, {}).data;
  assert.equal(after.length, 25, 'the real pk replaced the temporary one, not added to it');
  assert.deepEqual(
    after.slice(-1).map((a) => a.id),
    ['101'],
  );
  assert.ok(!after.some((a) => a.id === TEMP), 'no temporary record left in the list');
  const s = ctrl.getState();
  assert.equal(s.entities.Article[TEMP], undefined, 'no entity under the temporary id');
  assert.equal(s.entities.Article['101'].title, 'Draft');
  assert.equal(s.optimistic.length, 0);
  assert.equal(await server.count('POST /articles'), 1);
});

// ---------------------------------------------------------------- delete

test('delete: the optimistic response (the params) removes the record at once', async () => {
  const { df, base, fx } = await env();
  const { r, del } = endpoints(df, base, fx);
  const ctrl = new df.Controller();
  await ctrl.useSuspense(r.getList, {});
  await server.hold();
  const p = ctrl.fetch(del, { id: '3' });
  const during = ctrl.getResponse(r.getList, {}).data;
  assert.equal(during.length, 23);
  assert.ok(!during.some((a) => a.id === '3'));
  await server.held(1);
  await server.unhold();
  await p;
  const after = ctrl.getResponse(r.getList, {}).data;
  assert.equal(after.length, 23);
  assert.ok(!after.some((a) => a.id === '3'));
  assert.equal(await server.count('DELETE /articles/3'), 1);
});

test('delete: a failed delete brings the record back', async () => {
  const { df, base, fx } = await env();
  const { r, del } = endpoints(df, base, fx);
  const ctrl = new df.Controller();
  const list = await ctrl.useSuspense(r.getList, {});
  await server.hold();
  await server.failNext(1, 500);
  const p = quiet(ctrl.fetch(del, { id: '3' }));
  assert.equal(ctrl.getResponse(r.getList, {}).data.length, 23);
  await server.held(1);
  await server.unhold();
  const err = await failureOf(() => p);
  assert.equal(err.status, 500);
  const after = ctrl.getResponse(r.getList, {}).data;
  assert.deepEqual(
    after.map((a) => a.id),
    list.map((a) => a.id),
  );
  assert.equal(optimisticCount(ctrl), 0);
});

// ---------------------------------------------------------------- increment, snap.getResponse

test('increment: snap.getResponse includes earlier pending optimistic updates (+2 for two quick increments)', async () => {
  const { df, base } = await env();
  const snaps = [];
  const { getCount, increment } = counter(df, base, {}, snaps);
  const ctrl = new df.Controller();
  assert.equal((await ctrl.useSuspense(getCount)).count, 0);
  await server.hold();
  const t0 = Date.now();
  const p1 = ctrl.fetch(increment);
  // The second request is sent once the first has reached the server, so
  // held[0] is p1's: two requests on two connections arrive in either order.
  await server.held(1);
  const p2 = ctrl.fetch(increment);
  const t1 = Date.now();
  assert.equal(ctrl.getResponse(getCount).data.count, 2, 'two optimistic increments show +2');
  assert.deepEqual(
    snaps.map((s) => s.count),
    [0, 1],
    'the second snapshot sees the first optimistic increment',
  );
  for (const s of snaps) {
    assert.equal(typeof s.fetchedAt, 'number');
    assert.ok(s.fetchedAt >= t0 - 1 && s.fetchedAt <= t1 + 1, 'snap.fetchedAt is when the fetch was triggered');
  }
  assert.ok(snaps[1].fetchedAt >= snaps[0].fetchedAt);

  const held = await server.held(2);
  await server.release(held[0].seq);
  await p1;
  assert.equal(ctrl.getResponse(getCount).data.count, 2, 'the second optimistic increment is still applied');
  await server.release(held[1].seq);
  await p2;
  assert.equal(ctrl.getResponse(getCount).data.count, 2);
  assert.equal(optimisticCount(ctrl), 0);
  assert.equal(await server.count('POST /api/count/increment'), 2);
});

test('increment ordering variant: useIncoming on updatedAt keeps out-of-order responses from overwriting newer data', async () => {
  const { df, base } = await env();
  const { getCount, increment } = counter(df, base, {
    useIncoming: (existingMeta, incomingMeta, existing, incoming) => +existing.updatedAt <= +incoming.updatedAt,
  });
  const ctrl = new df.Controller();
  await ctrl.useSuspense(getCount);
  await server.hold('response'); // both run on the server in order; answers wait
  const p1 = ctrl.fetch(increment);
  await server.held(1); // p1 reaches the server first, so held[0] is p1's
  const p2 = ctrl.fetch(increment);
  assert.equal(ctrl.getResponse(getCount).data.count, 2);
  const held = await server.held(2);
  assert.deepEqual(
    held.map((h) => h.stage),
    ['response', 'response'],
  );
  await server.release(held[1].seq); // the newer answer (count 2) first
  await p2;
  assert.equal(ctrl.getResponse(getCount).data.count, 2);
  await server.release(held[0].seq); // then the older answer (count 1)
  await p1; // settled: the older answer has been handled
  assert.equal(ctrl.getResponse(getCount).data.count, 2, 'the late, older answer must not overwrite count 2');
  assert.ok(ctrl.getResponse(getCount).data.updatedAt instanceof Date);
});

test('AbortOptimistic: nothing is applied when the value is not cached, and the request still runs', async () => {
  const { df, base } = await env();
  const snaps = [];
  const { getCount, increment } = counter(df, base, {}, snaps);
  const ctrl = new df.Controller();
  const rec = recorder();
  await server.hold();
  const p = ctrl.fetch(increment);
  assert.equal(snaps.length, 1, 'getOptimisticResponse was called');
  assert.equal(snaps[0].count, undefined);
  assert.equal(optimisticCount(ctrl), 0, 'no optimistic update applied');
  assert.equal(ctrl.getResponse(getCount).expiryStatus, 'missing');
  assert.deepEqual(ctrl.getState().entities, {}, 'nothing stored yet');
  await server.held(1);
  await server.unhold();
  const out = await p;
  assert.equal(out.count, 1, 'the request ran and its response is returned');
  assert.equal(await server.count('POST /api/count/increment'), 1);
  void rec;
});

test('a non-AbortOptimistic error thrown by getOptimisticResponse fails the fetch, and the instance still works', async () => {
  const { df, base, fx } = await env();
  const r = df.resource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article });
  const bad = r.partialUpdate.extend({
    getOptimisticResponse() {
      throw new Error('optimistic bug');
    },
  });
  const ctrl = new df.Controller();
  const err = await failureOf(() => ctrl.fetch(bad, { id: '1' }, { title: 'x' }));
  assert.ok(String(err.message).includes('optimistic bug'));
  assert.equal((await ctrl.useSuspense(r.get, { id: '1' })).id, '1');
});

// ---------------------------------------------------------------- rollback

test('error: the failed update is rolled back, later optimistic updates and responses in between are kept', async () => {
  const { df, base, fx } = await env();
  const { r, partialUpdate } = endpoints(df, base, fx);
  const plainPatch = r.partialUpdate; // no optimistic response
  const ctrl = new df.Controller();
  const orig = await ctrl.useSuspense(r.get, { id: '1' });
  assert.equal(orig.published, true);
  const rec = recorder();
  const unsub = ctrl.subscribe(r.get, { id: '1' }, rec);
  try {
    await server.hold();
    // C (no optimistic response) starts first, so that by the default
    // shouldReorder its answer never outranks the later B's.
    const c = ctrl.fetch(plainPatch, { id: '1' }, { content: 'C from the server' });
    await server.held(1);
    const a = quiet(ctrl.fetch(partialUpdate, { id: '1' }, { title: 'A (will fail)' }));
    await server.held(2);
    const b = ctrl.fetch(partialUpdate, { id: '1' }, { published: false });
    const held = await server.held(3);
    assert.deepEqual(
      held.map((h) => `${h.method} ${h.path}`),
      ['PATCH /articles/1', 'PATCH /articles/1', 'PATCH /articles/1'],
    );
    let view = ctrl.getResponse(r.get, { id: '1' }).data;
    assert.equal(view.title, 'A (will fail)');
    assert.equal(view.published, false);
    assert.equal(view.content, orig.content);

    await server.release(held[0].seq); // C lands: a real response in between
    await c;
    view = ctrl.getResponse(r.get, { id: '1' }).data;
    assert.equal(view.content, 'C from the server');
    assert.equal(view.title, 'A (will fail)', 'optimistic A is still layered over the real data');
    assert.equal(view.published, false, 'optimistic B is still layered over the real data');

    await server.failNext(1, 500);
    await server.release(held[1].seq); // A fails
    const err = await failureOf(() => a);
    assert.equal(err.status, 500);
    view = ctrl.getResponse(r.get, { id: '1' }).data;
    assert.equal(view.title, orig.title, "A's change is rolled back");
    assert.equal(view.published, false, 'the later optimistic update B is kept');
    assert.equal(view.content, 'C from the server', 'the response that arrived in between is kept');
    assert.equal(rec.last().data.title, orig.title, 'subscribers hear the rollback');

    await server.release(held[2].seq); // B succeeds
    await b;
    view = ctrl.getResponse(r.get, { id: '1' }).data;
    assert.equal(view.title, orig.title);
    assert.equal(view.published, false);
    assert.equal(view.content, 'C from the server');
    assert.equal(optimisticCount(ctrl), 0);
  } finally {
    unsub();
  }
});

test('error: a single failed optimistic update restores the original value', async () => {
  const { df, base, fx } = await env();
  const { r, partialUpdate } = endpoints(df, base, fx);
  const ctrl = new df.Controller();
  const orig = await ctrl.useSuspense(r.get, { id: '2' });
  await server.failNext(1, 422);
  const p = quiet(ctrl.fetch(partialUpdate, { id: '2' }, { title: 'Never saved' }));
  assert.equal(ctrl.getResponse(r.get, { id: '2' }).data.title, 'Never saved');
  const err = await failureOf(() => p);
  assert.ok(err instanceof df.NetworkError);
  assert.equal(err.status, 422);
  assert.equal(ctrl.getResponse(r.get, { id: '2' }).data.title, orig.title);
  assert.equal(optimisticCount(ctrl), 0);
});

test("signal: aborting removes that request's optimistic update", async () => {
  const { df, base, fx } = await env();
  const { r } = endpoints(df, base, fx);
  const ac = new AbortController();
  const pu = r.partialUpdate.extend({
    signal: ac.signal,
    getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  });
  const ctrl = new df.Controller();
  const orig = await ctrl.useSuspense(r.get, { id: '1' });
  await server.hold();
  const p = quiet(ctrl.fetch(pu, { id: '1' }, { title: 'Aborted' }));
  assert.equal(ctrl.getResponse(r.get, { id: '1' }).data.title, 'Aborted');
  await server.held(1);
  ac.abort();
  const err = await failureOf(() => p);
  assert.equal(err.name, 'AbortError');
  await waitFor(() => ctrl.getResponse(r.get, { id: '1' }).data.title === orig.title, {
    message: 'the aborted optimistic update is removed',
  });
  assert.equal(optimisticCount(ctrl), 0);
});

test('optimistic data reaches getResponse of the mutation endpoint itself', async () => {
  const { df, base, fx } = await env();
  const { partialUpdate } = endpoints(df, base, fx);
  const ctrl = new df.Controller();
  await server.hold();
  const p = ctrl.fetch(partialUpdate, { id: '5' }, { title: 'Five' });
  await server.held(1);
  assert.equal(await promiseState(p), 'pending');
  const r = ctrl.getResponse(partialUpdate, { id: '5' });
  assert.equal(r.data?.title, 'Five');
  await server.unhold();
  await p;
});

// ---------------------------------------------------------------- resource({optimistic: true})

// sentWhileHeld waits until n requests are held at the server and returns
// them; it fails at once when `p`, the call that should send the last of
// them, ends first (its request never went out).
async function sentWhileHeld(p, n = 1) {
  const ended = p.then(
    () => ({ ended: 'resolved' }),
    (err) => ({ ended: `rejected: ${err?.message ?? err}` }),
  );
  const first = await Promise.race([server.held(n).then((held) => ({ held })), ended]);
  if (first.ended) assert.fail(`the call ended before its request reached the server (${first.ended})`);
  return first.held;
}

// What a reader sees of the articles: the list (getList, a Collection)
// and every stored article (schema.All), which shows a create no list
// holds.
function articleViews(df, ctrl, r, fx) {
  return { list: ctrl.getResponse(r.getList, {}).data, all: ctrl.get(new df.schema.All(fx.Article)) };
}

const brief = (articles) => articles.map((a) => `${a.id ?? '?'}:${a.title}`);

// The mutations of resource({optimistic: true}), with what data-client's
// resource applies for each: `shows` checks the views while the request is
// held at the server, `saved` once the server answered.
const OPTIMISTIC_RESOURCE = [
  {
    name: 'partialUpdate applies the stored record with the params and body over it',
    ep: (r) => r.partialUpdate,
    params: { id: '1' },
    body: { title: 'Patched' },
    request: 'PATCH /articles/1',
    shows: ({ list }, before) => {
      assert.equal(list[0].title, 'Patched');
      assert.equal(list[0].content, before.list[0].content, 'the stored fields stay');
      assert.equal(list[0].createdAt.getTime(), before.list[0].createdAt.getTime());
      assert.equal(list[1], before.list[1], 'the other records are the same objects');
    },
    saved: ({ list }) => assert.equal(list[0].title, 'Patched'),
  },
  {
    name: 'update applies the params and body',
    ep: (r) => r.update,
    params: { id: '2' },
    body: { title: 'Put' },
    request: 'PUT /articles/2',
    shows: ({ list }) => assert.equal(list[1].title, 'Put'),
    saved: ({ list }) => assert.equal(list[1].title, 'Put'),
  },
  {
    name: 'delete applies the params',
    ep: (r) => r.delete,
    params: { id: '3' },
    request: 'DELETE /articles/3',
    shows: ({ list, all }) => {
      assert.equal(list.length, 23);
      assert.ok(!list.some((a) => a.id === '3') && !all.some((a) => a.id === '3'), 'gone at once');
    },
    saved: ({ list }) => assert.ok(!list.some((a) => a.id === '3')),
  },
  {
    name: 'create applies the body, under a temporary pk while it has no id',
    ep: (r) => r.create,
    params: {},
    body: { title: 'Draft' },
    request: 'POST /articles',
    shows: ({ list, all }, before) => {
      assert.equal(list, before.list, 'create is in no list');
      assert.deepEqual(brief(all).slice(24), ['?:Draft']);
      assert.equal(all[24].published, false, 'with the defaults');
    },
    saved: ({ all }) => assert.deepEqual(brief(all).slice(24), ['101:Draft']),
  },
  {
    name: 'getList.push appends the body',
    ep: (r) => r.getList.push,
    params: {},
    body: { title: 'Pushed' },
    request: 'POST /articles',
    shows: ({ list }, before) => {
      assert.deepEqual(brief(list).slice(23), [brief(before.list)[23], '?:Pushed']);
      assert.equal(list[0], before.list[0]);
    },
    saved: ({ list }) => assert.deepEqual(brief(list).slice(24), ['101:Pushed']),
  },
  {
    name: 'getList.unshift prepends the body',
    ep: (r) => r.getList.unshift,
    params: {},
    body: { title: 'First' },
    request: 'POST /articles',
    shows: ({ list }) => assert.deepEqual(brief(list).slice(0, 2), ['?:First', '1:' + list[1].title]),
    saved: ({ list }) => assert.deepEqual(brief(list)[0], '101:First'),
  },
];

for (const m of OPTIMISTIC_RESOURCE) {
  for (const fails of [false, true]) {
    test(`resource({optimistic: true}): ${m.name}, before the server answers; ${fails ? 'a failure takes it back' : 'the answer replaces it'}`, async () => {
      const { df, base, fx } = await env();
      const r = df.resource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article, optimistic: true });
      const ctrl = new df.Controller();
      await ctrl.useSuspense(r.getList, {});
      const before = articleViews(df, ctrl, r, fx);
      assert.equal(before.list.length, 24);

      await server.hold();
      if (fails) await server.failNext(1, 500);
      const p = quiet(ctrl.fetch(m.ep(r), m.params, m.body));
      m.shows(articleViews(df, ctrl, r, fx), before); // applied before fetch returned its Promise
      const held = await sentWhileHeld(p);
      assert.equal(`${held[0].method} ${held[0].path}`, m.request, 'the request went out');
      m.shows(articleViews(df, ctrl, r, fx), before);
      assert.equal(optimisticCount(ctrl), 1);

      await server.unhold();
      if (fails) {
        const err = await failureOf(() => p);
        assert.equal(err.status, 500);
        const after = articleViews(df, ctrl, r, fx);
        assert.deepEqual(brief(after.list), brief(before.list), 'the list is as it was');
        assert.deepEqual(brief(after.all), brief(before.all), 'every article is as it was');
      } else {
        await p;
        m.saved(articleViews(df, ctrl, r, fx));
      }
      assert.equal(optimisticCount(ctrl), 0);
      assert.equal(await server.count('GET /articles'), 1, 'nothing refetched');
    });
  }
}

test('resource({optimistic: true}): partialUpdate of a record not in the cache applies nothing; its request still goes', async () => {
  const { df, base, fx } = await env();
  const r = df.resource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article, optimistic: true });
  const ctrl = new df.Controller();
  await server.hold();
  const p = ctrl.fetch(r.partialUpdate, { id: '4' }, { title: 'Four' });
  assert.equal(optimisticCount(ctrl), 0);
  assert.deepEqual(ctrl.getState().entities, {});
  await sentWhileHeld(p);
  await server.unhold();
  assert.equal((await p).title, 'Four');
});

test('getOptimisticResponse given to a whole resource never runs for a GET: lists and records read as usual', async () => {
  const { df, base, fx } = await env();
  const calls = [];
  const r = df.resource({
    urlPrefix: base,
    path: '/articles/:id',
    schema: fx.Article,
    getOptimisticResponse: (snap, params, body) => {
      calls.push(params);
      return { id: params.id, ...body };
    },
  });
  const ctrl = new df.Controller();
  const list = await ctrl.useSuspense(r.getList, {});
  assert.equal(list.length, 24);
  assert.equal((await ctrl.fetch(r.getList, {})).length, 24);
  assert.equal((await ctrl.useSuspense(r.get, { id: '2' })).id, '2');
  const extended = r.extend({ getList: { dataExpiryLength: 5000 } });
  assert.equal((await ctrl.fetch(extended.getList, {})).length, 24);
  assert.deepEqual(calls, [], 'no GET ran it');

  await server.hold();
  const p = ctrl.fetch(r.partialUpdate, { id: '1' }, { title: 'Mutated' });
  assert.deepEqual(calls, [{ id: '1' }], 'the mutation ran it');
  assert.equal(ctrl.getResponse(r.get, { id: '1' }).data.title, 'Mutated');
  await sentWhileHeld(p);
  await server.unhold();
  await p;
});

test('an optimistic record without an id is applied under a temporary pk, and its request goes out', async () => {
  const { df, base, fx } = await env();
  const r = df.resource({ urlPrefix: base, path: '/articles/:id', schema: fx.Article });
  const push = r.getList.push.extend({ getOptimisticResponse: (snap, params, body) => body });
  const ctrl = new df.Controller();
  await ctrl.useSuspense(r.getList, {});
  await server.hold();
  const p = ctrl.fetch(push, {}, { title: 'No id yet' });
  const during = ctrl.getResponse(r.getList, {}).data;
  assert.deepEqual(brief(during.slice(24)), ['?:No id yet']);
  const temp = Object.keys(ctrl.getState().entities.Article).filter((pk) => !/^\d+$/.test(pk));
  assert.equal(temp.length, 1, 'stored under one temporary pk');
  const held = await sentWhileHeld(p);
  assert.equal(`${held[0].method} ${held[0].path}`, 'POST /articles');
  await server.unhold();
  assert.equal((await p).id, '101');
  assert.deepEqual(brief(ctrl.getResponse(r.getList, {}).data.slice(24)), ['101:No id yet']);
  assert.equal(ctrl.getState().entities.Article[temp[0]], undefined, 'the temporary record is gone');
});

test('snap.get in getOptimisticResponse reads the cache as ctrl.get does: an entity by pk (an instance of its class), a Query', async () => {
  const { df, base } = await env();
  const mod = await importModule();
  class Article extends mod.Entity {
    id = '';
    title = '';
    published = false;
    get status() {
      return this.published ? 'live' : 'draft';
    }
  }
  const drafts = new mod.Query(new mod.All(Article), (all) => all.filter((a) => !a.published).length);
  const seen = [];
  const articles = mod.resource({ urlPrefix: base, path: '/articles/:id', schema: Article }).extend({
    partialUpdate: {
      getOptimisticResponse(snap, params, body) {
        const stored = snap.get(Article, { id: params.id });
        seen.push({ isInstance: stored instanceof Article, status: stored?.status, drafts: snap.get(drafts) });
        return { ...stored, ...body };
      },
    },
  });
  const ctrl = new df.Controller();
  const four = await ctrl.useSuspense(articles.get, { id: '4' });
  assert.equal(four.published, false);
  await server.hold();
  const done = ctrl.fetch(articles.partialUpdate, { id: '4' }, { published: true });
  assert.equal(ctrl.getResponse(articles.get, { id: '4' }).data.status, 'live', 'applied before the server answers');
  assert.deepEqual(seen, [{ isInstance: true, status: 'draft', drafts: 1 }]);
  await server.unhold();
  await done;
});
