// Reads kept on the JavaScript side: getResponse answers a re-read of an
// unchanged result without calling into Go, and still sees every change and
// the passing of time. These tests load a second datafetch.wasm whose bridge
// counts the calls JavaScript makes into Go.

import assert from 'node:assert/strict';
import { countingInstance, fakeClock, fixtureURL, fixtures, server, setup, test, waitFor } from './harness.mjs';

setup();

let counted;

// countedInstance loads datafetch.wasm as load() does, but attaches the API
// to a bridge that counts calls per Go entry. It returns the API with the
// instance's exports (kept reads and exported entries on) and one without
// them (every read calls Go through its js.FuncOf entry).
async function countedInstance() {
  if (counted) return counted;
  const { mod, instance, bridge, exports, calls, funcCalls } = await countingInstance();
  const base = await fixtureURL();
  const kept = mod.attach(bridge(), exports);
  const plain = mod.attach(bridge());
  counted = {
    kept,
    plain,
    memory: instance.exports.mem,
    base,
    calls: (name) => calls[name] ?? 0,
    funcCalls,
    // reads counts the calls into Go a getResponse can make.
    reads: () => (calls.ctrlGetResponse ?? 0) + (calls.datafetchGetResponse ?? 0),
    fx: fixtures(kept, base),
    plainFx: fixtures(plain, base),
  };
  return counted;
}

test('reads: an unchanged re-read is the same object, without a call into Go', async () => {
  const { kept, fx, calls, reads } = await countedInstance();
  const ctrl = new kept.Controller();
  const article = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const first = ctrl.getResponse(fx.getArticle, { id: '1' });
  assert.equal(first.data, article);
  assert.equal(first.expiryStatus, 'valid');
  const n = reads();
  for (let i = 0; i < 50; i++) {
    const again = ctrl.getResponse(fx.getArticle, { id: '1' });
    assert.equal(again.data, article);
    assert.equal(again.expiryStatus, 'valid');
    assert.equal(again.expiresAt, first.expiresAt);
  }
  assert.equal(reads(), n, 'no re-read called Go');

  // A change anywhere makes the next read ask Go again, once, through the
  // exported entry.
  const viaFunc = calls('ctrlGetResponse');
  await ctrl.fetch(fx.patchArticle, { id: '1' }, { title: 'changed' });
  const after = ctrl.getResponse(fx.getArticle, { id: '1' });
  assert.equal(after.data.title, 'changed');
  assert.notEqual(after.data, article);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, after.data);
  assert.equal(reads(), n + 1);
  assert.equal(calls('ctrlGetResponse'), viaFunc, 'the js.FuncOf entry was not needed');

  // An error is reported by the exported entry (exchangeError throws it),
  // not by making the call again through the js.FuncOf entry.
  const reported = calls('exchangeError');
  assert.throws(() => ctrl.getResponse(fx.getArticle, {}), /getArticle.*id/);
  assert.equal(calls('exchangeError'), reported + 1);
  assert.equal(calls('ctrlGetResponse'), viaFunc);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, after.data, 'still working');
});

test('reads: every kind of change is seen at once', async () => {
  const { kept, fx, base } = await countedInstance();
  const ctrl = new kept.Controller();
  const p = { id: '2' };
  const read = () => ctrl.getResponse(fx.getArticle, p);
  assert.equal(read().expiryStatus, 'missing');
  const original = await ctrl.useSuspense(fx.getArticle, p);
  assert.equal(read().data, original);

  await ctrl.invalidate(fx.getArticle, p);
  assert.equal(read().expiryStatus, 'invalid');
  await ctrl.useSuspense(fx.getArticle, p);
  assert.equal(read().expiryStatus, 'valid');

  await ctrl.expireAll(() => true);
  assert.equal(read().expiryStatus, 'stale');

  await ctrl.setResponse(fx.getArticle, p, { id: '2', title: 'set by hand' });
  assert.equal(read().data.title, 'set by hand');
  const set = read().data;

  // Optimistic data shows before the server answers; a failure rolls it
  // back to the very object it was.
  const optimistic = new kept.RestEndpoint({
    urlPrefix: base,
    path: '/articles/:id',
    method: 'PATCH',
    name: 'optimisticPatch',
    schema: fx.Article,
    getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  });
  await server.hold();
  const pending = ctrl.fetch(optimistic, p, { title: 'optimistic' });
  assert.equal(read().data.title, 'optimistic');
  const failed = assert.rejects(pending);
  await server.held(1);
  await server.failNext(1, 500);
  await server.unhold();
  await failed;
  assert.equal(read().data, set, 'rolled back to the kept object');

  await ctrl.resetEntireStore();
  assert.equal(read().expiryStatus, 'missing');
  assert.equal(read().data, undefined);
});

test('reads: a kept valid read turns stale, or invalid, as time passes', async () => {
  const { kept, base, fx, reads } = await countedInstance();
  // The controller's clock (its now option) decides, for kept reads too.
  const clock = fakeClock();
  const ctrl = new kept.Controller({ now: clock.now });
  const short = new kept.RestEndpoint({ urlPrefix: base, path: '/comments/:id', name: 'shortComment', schema: fx.Comment, dataExpiryLength: 500 });
  const strict = short.extend({ name: 'strictComment', invalidIfStale: true });
  await ctrl.useSuspense(short, { id: 1 });
  await ctrl.useSuspense(strict, { id: 2 });
  const s = ctrl.getResponse(short, { id: 1 });
  const i = ctrl.getResponse(strict, { id: 2 });
  assert.equal(s.expiryStatus, 'valid');
  assert.equal(i.expiryStatus, 'valid');
  const n = reads();
  clock.advance(499);
  assert.equal(ctrl.getResponse(short, { id: 1 }).expiryStatus, 'valid', 'a ms before expiresAt');
  clock.t = Math.max(s.expiresAt, i.expiresAt);
  const s2 = ctrl.getResponse(short, { id: 1 });
  const i2 = ctrl.getResponse(strict, { id: 2 });
  assert.equal(s2.expiryStatus, 'stale');
  assert.equal(i2.expiryStatus, 'invalid', 'invalidIfStale');
  assert.equal(s2.data, s.data);
  assert.equal(reads(), n, 'the status came from the kept read');
});

test('reads: kept reads survive the module memory growing', async () => {
  const { kept, plain, plainFx, fx, memory, reads } = await countedInstance();
  const ctrl = new kept.Controller();
  const article = await ctrl.useSuspense(fx.getArticle, { id: '3' });
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '3' }).data, article);
  const n = reads();
  // Another controller of the same instance stores a large value: Go grows
  // the memory, which detaches the buffer the counter was read through,
  // while nothing this controller holds changes.
  const buffer = memory.buffer;
  const other = new plain.Controller();
  const big = 'x'.repeat(8 << 20);
  for (let i = 0; i < 4 && memory.buffer === buffer; i++) {
    await other.setResponse(plainFx.getComment, { id: i }, { id: i, body: big + i });
  }
  assert.notEqual(memory.buffer, buffer, 'the memory grew');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '3' }).data, article);
  assert.equal(reads(), n);
  await ctrl.fetch(fx.patchArticle, { id: '3' }, { title: 'after growing' });
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '3' }).data.title, 'after growing');
});

test('reads: without the memory, every read calls Go and answers the same', async () => {
  const { plain, plainFx: fx, calls } = await countedInstance();
  const ctrl = new plain.Controller();
  const article = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const n = calls('ctrlGetResponse');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, article);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data, article);
  assert.equal(calls('ctrlGetResponse'), n + 2);
  await ctrl.invalidate(fx.getArticle, { id: '1' });
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'invalid');
});

test('reads: useSuspense answers fresh data without its asynchronous entry', async () => {
  const { kept, base, fx, calls } = await countedInstance();
  const clock = fakeClock();
  const ctrl = new kept.Controller({ now: clock.now });
  const first = await ctrl.useSuspense(fx.getArticle, { id: '5' });
  const n = calls('ctrlSuspense');
  const requests = await server.count('GET /articles/5');
  assert.equal(await ctrl.useSuspense(fx.getArticle, { id: '5' }), first);
  assert.equal(await ctrl.useSuspense(fx.getArticle, { id: '5' }), first);
  assert.equal(calls('ctrlSuspense'), n, 'fresh data: no asynchronous call');
  assert.equal(await server.count('GET /articles/5'), requests, 'and no request');

  // Stale data still goes through Go, which revalidates in the background.
  const short = new kept.RestEndpoint({ urlPrefix: base, path: '/comments/:id', name: 'shortLived', schema: fx.Comment, dataExpiryLength: 20 });
  const c = await ctrl.useSuspense(short, { id: 2 });
  clock.t = ctrl.getResponse(short, { id: 2 }).expiresAt;
  const before = calls('ctrlSuspense');
  assert.equal(await ctrl.useSuspense(short, { id: 2 }), c, 'stale data at once');
  assert.equal(calls('ctrlSuspense'), before + 1);
  await waitFor(async () => (await server.count('GET /comments/2')) === 2, { message: 'the revalidation request' });

  // A kept error of the last fetch is reported, as Go's Suspense does. The
  // fixture's /bad/flaky fails every first, third... request.
  const flaky = new kept.RestEndpoint({ urlPrefix: base, path: '/bad/flaky', name: 'flaky', schema: fx.Comment });
  await assert.rejects(ctrl.fetch(flaky, { id: 4 }));
  const good = await ctrl.fetch(flaky, { id: 4 });
  assert.equal(await ctrl.useSuspense(flaky, { id: 4 }), good, 'valid, no error kept: at once');
  await assert.rejects(ctrl.fetch(flaky, { id: 4 }));
  assert.equal(ctrl.getResponse(flaky, { id: 4 }).expiryStatus, 'valid', 'the data is still valid');
  await assert.rejects(ctrl.useSuspense(flaky, { id: 4 }), (err) => err.status === 503);
});

test('reads: setResponse, invalidate, resetEntireStore, key and url call no js.FuncOf entry', async () => {
  const { kept, fx, base, calls, funcCalls } = await countedInstance();
  const ctrl = new kept.Controller();
  // Text beyond ASCII, in the params and in the data that follows them in
  // Go's input buffer.
  const p = { id: 'ä7' };
  const title = 'set by hand ✓ ü';
  const entries = ['datafetchSetResponse', 'datafetchInvalidate', 'datafetchResetEntireStore', 'datafetchKey', 'datafetchURL'];
  const before = Object.fromEntries(entries.map((e) => [e, calls(e)]));
  const n = funcCalls();

  await ctrl.setResponse(fx.getArticle, p, { id: 'ä7', title, author: { id: 9, name: 'Ö' } });
  const set = ctrl.getResponse(fx.getArticle, p);
  assert.equal(set.expiryStatus, 'valid');
  assert.equal(set.data.title, title);
  assert.equal(set.data.author.name, 'Ö');
  await ctrl.invalidate(fx.getArticle, p);
  assert.equal(ctrl.getResponse(fx.getArticle, p).expiryStatus, 'invalid');
  assert.equal(fx.getArticle.key(p), `getArticle GET ${base}/articles/%C3%A47`);
  assert.equal(fx.getArticle.url(p), `${base}/articles/%C3%A47`);
  await ctrl.resetEntireStore();
  assert.equal(ctrl.getResponse(fx.getArticle, p).expiryStatus, 'missing');
  // Both halves of the identity table start afresh: a new value reads back whole.
  await ctrl.setResponse(fx.getArticle, p, { id: 'ä7', title: 'after reset', author: { id: 9, name: 'Ö' } });
  assert.equal(ctrl.getResponse(fx.getArticle, p).data.author.name, 'Ö');

  assert.equal(funcCalls(), n, 'no js.FuncOf entry was called');
  for (const e of entries) assert.ok(calls(e) > before[e], `${e} was used`);
});

test("reads: errors of the exported entries are the js.FuncOf entries' errors", async () => {
  const { kept, plain, plainFx, fx, calls } = await countedInstance();
  const ctrl = new kept.Controller();
  const other = new plain.Controller();
  // The same call on the instance without exports (js.FuncOf entries only)
  // gives the Error expected. An exported entry that ran and failed
  // reports its error through exchangeError, and the js.FuncOf entry
  // (entry) is not called: making the call again would run the caller's
  // hooks twice.
  const same = async (viaExports, viaFuncOf, entry) => {
    const want = await viaFuncOf().then(
      () => assert.fail('the js.FuncOf entry accepted it'),
      (err) => err,
    );
    assert.ok(want instanceof Error);
    const reported = calls('exchangeError');
    const k = calls(entry);
    await assert.rejects(viaExports(), (err) => {
      assert.equal(err.constructor, want.constructor);
      assert.equal(err.message, want.message);
      return true;
    });
    assert.equal(calls('exchangeError'), reported + 1, 'reported by exchangeError');
    assert.equal(calls(entry), k, `${entry} not called`);
  };
  const sync = (fn) => async () => fn();

  await same(
    () => ctrl.setResponse(fx.getArticle, {}, { id: '1' }),
    () => other.setResponse(plainFx.getArticle, {}, { id: '1' }),
    'ctrlSetResponse',
  );
  await same(
    () => ctrl.setResponse(fx.getArticle, { id: '1' }, undefined),
    () => other.setResponse(plainFx.getArticle, { id: '1' }, undefined),
    'ctrlSetResponse',
  );
  await same(
    () => ctrl.setResponse(fx.getArticle, { id: '1' }, { id: '1', createdAt: { not: 'a date' } }),
    () => other.setResponse(plainFx.getArticle, { id: '1' }, { id: '1', createdAt: { not: 'a date' } }),
    'ctrlSetResponse',
  );
  await same(
    () => ctrl.invalidate(fx.getArticle, { title: 'no id' }),
    () => other.invalidate(plainFx.getArticle, { title: 'no id' }),
    'ctrlInvalidate',
  );
  await same(
    sync(() => ctrl.getResponse(fx.getArticle, { title: 'no id' })),
    sync(() => other.getResponse(plainFx.getArticle, { title: 'no id' })),
    'ctrlGetResponse',
  );
  await same(
    sync(() => fx.getArticle.key({})),
    sync(() => plainFx.getArticle.key({})),
    'endpointKey',
  );
  await same(
    sync(() => fx.getArticle.url({})),
    sync(() => plainFx.getArticle.url({})),
    'endpointURL',
  );

  // The instance keeps working, and nothing was stored.
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).expiryStatus, 'missing');
  await ctrl.setResponse(fx.getArticle, { id: '1' }, { id: '1', title: 'good' });
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data.title, 'good');
});

test('reads: with a subscription open, a change still tells its listener at once', async () => {
  const { kept, fx, calls, funcCalls } = await countedInstance();
  const ctrl = new kept.Controller();
  const p = { id: '8' };
  // Valid data first, so that the subscription starts no request.
  await ctrl.setResponse(fx.getArticle, p, { id: '8', title: 'first' });
  const seen = [];
  const unsubscribe = ctrl.subscribe(fx.getArticle, p, ({ data }) => seen.push(data?.title));
  await waitFor(() => seen.includes('first'), { message: 'the first delivery' });
  const k = seen.length;
  const viaFunc = calls('ctrlSetResponse');
  // Declined by the exported entry (a listener is JavaScript to call): the
  // js.FuncOf entry stores it and tells the listener before it returns, as
  // it always has.
  const done = ctrl.setResponse(fx.getArticle, p, { id: '8', title: 'told' });
  assert.equal(seen.at(-1), 'told');
  assert.ok(seen.length > k);
  assert.equal(calls('ctrlSetResponse'), viaFunc + 1);
  await done;
  unsubscribe();
  // Without subscriptions the exported entry is used again.
  const n = funcCalls();
  await ctrl.setResponse(fx.getArticle, p, { id: '8', title: 'quiet' });
  assert.equal(ctrl.getResponse(fx.getArticle, p).data.title, 'quiet');
  assert.equal(funcCalls(), n);
});

test('reads: invalidateAll and expireAll run testKey on this side and call no js.FuncOf entry', async () => {
  const { kept, plain, plainFx, fx, calls, funcCalls } = await countedInstance();
  const ctrl = new kept.Controller();
  const p1 = { id: '11' };
  const p2 = { id: '12' };
  await ctrl.setResponse(fx.getArticle, p1, { id: '11', title: 'one' });
  await ctrl.setResponse(fx.getArticle, p2, { id: '12', title: 'two' });
  const k1 = fx.getArticle.key(p1);
  const k2 = fx.getArticle.key(p2);
  const updates = calls('datafetchUpdateKeys');
  const n = funcCalls();

  const seen = [];
  await ctrl.invalidateAll((key) => {
    seen.push(key);
    return key === k1;
  });
  assert.deepEqual(seen.sort(), [k1, k2].sort(), 'testKey saw every stored key once');
  assert.equal(ctrl.getResponse(fx.getArticle, p1).expiryStatus, 'invalid');
  assert.equal(ctrl.getResponse(fx.getArticle, p2).expiryStatus, 'valid');
  await ctrl.expireAll((key) => key === k2);
  assert.equal(ctrl.getResponse(fx.getArticle, p2).expiryStatus, 'stale');
  assert.equal(ctrl.getResponse(fx.getArticle, p1).expiryStatus, 'invalid', 'expireAll left the other key');
  assert.equal(funcCalls(), n, 'no js.FuncOf entry was called');
  assert.equal(calls('datafetchUpdateKeys'), updates + 2);

  // A testKey that throws: the same Error as the js.FuncOf entry's, with
  // the exception as its cause; testKey ran once; nothing changed.
  const other = new plain.Controller();
  await other.setResponse(plainFx.getArticle, p1, { id: '11', title: 'one' });
  for (const method of ['invalidateAll', 'expireAll']) {
    const boom = new Error('testKey exploded');
    const want = await other[method](() => {
      throw boom;
    }).then(
      () => assert.fail('the js.FuncOf entry accepted it'),
      (err) => err,
    );
    assert.equal(want.cause, boom);
    const state = ctrl.getState();
    let runs = 0;
    await assert.rejects(
      ctrl[method](() => {
        runs++;
        throw boom;
      }),
      (err) => {
        assert.equal(err.constructor, want.constructor);
        assert.equal(err.message, want.message);
        assert.equal(err.cause, want.cause);
        return true;
      },
    );
    assert.equal(runs, 1, `${method}: testKey ran once`);
    assert.deepEqual(ctrl.getState(), state, `${method}: the store is as it was`);
  }
});

test('reads: a schema hook may call the library during an exported setResponse', async () => {
  const { kept, base, calls } = await countedInstance();
  const seen = [];
  const Other = kept.Entity({ key: 'HookOther', defaults: { id: undefined } });
  const Item = kept.Entity({
    key: 'HookItem',
    defaults: { id: undefined, name: '' },
    process(rec) {
      // js.FuncOf entries, called while Go runs the exported entry.
      seen.push(kept.normalize(Other, { id: rec.id }).result);
      seen.push(typeof new kept.Controller().getState());
      return { ...rec, name: `${rec.name}!` };
    },
  });
  const ep = new kept.RestEndpoint({ urlPrefix: base, path: '/items/:id', name: 'hookItem', schema: Item });
  const ctrl = new kept.Controller();
  const viaExport = calls('datafetchSetResponse');
  const viaFunc = calls('ctrlSetResponse');
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, name: 'a' });
  await ctrl.setResponse(ep, { id: 2 }, { id: 2, name: 'b' });
  assert.equal(calls('datafetchSetResponse'), viaExport + 2);
  assert.equal(calls('ctrlSetResponse'), viaFunc, 'the exported entry did it');
  assert.equal(ctrl.getResponse(ep, { id: 1 }).data.name, 'a!');
  assert.equal(ctrl.getResponse(ep, { id: 2 }).data.name, 'b!');
  assert.ok(seen.includes('object') && seen.length >= 4, JSON.stringify(seen));
});

test('reads: long text goes through the js.FuncOf entry, so Go keeps no large input buffer', async () => {
  const { kept, fx, calls } = await countedInstance();
  const ctrl = new kept.Controller();
  const viaFunc = calls('ctrlSetResponse');
  const viaExport = calls('datafetchSetResponse');
  const body = 'x'.repeat(1 << 20);
  await ctrl.setResponse(fx.getComment, { id: 1 }, { id: 1, body });
  assert.equal(ctrl.getResponse(fx.getComment, { id: 1 }).data.body, body);
  assert.equal(calls('ctrlSetResponse'), viaFunc + 1, 'the js.FuncOf entry stored it');
  assert.equal(calls('datafetchSetResponse'), viaExport, 'no exported call');
  // Short text still goes through the exported entry.
  await ctrl.setResponse(fx.getComment, { id: 2 }, { id: 2, body: 'short' });
  assert.equal(calls('datafetchSetResponse'), viaExport + 1);
  assert.equal(calls('ctrlSetResponse'), viaFunc + 1);
});

test('reads: a synchronous call through the exported entries reads the now option once, and Go takes that time', async () => {
  const { kept, base, fx, calls } = await countedInstance();
  const clock = fakeClock();
  let nows = 0;
  const ctrl = new kept.Controller({
    now: () => {
      nows++;
      return clock.now();
    },
  });
  const short = new kept.RestEndpoint({ urlPrefix: base, path: '/comments/:id', name: 'timedComment', schema: fx.Comment, dataExpiryLength: 500 });
  const viaFunc = calls('ctrlSetResponse') + calls('ctrlGetResponse');
  nows = 0;
  await ctrl.setResponse(short, { id: 1 }, { id: 1, body: 'one' });
  assert.equal(nows, 1, 'setResponse called now once');
  nows = 0;
  const r = ctrl.getResponse(short, { id: 1 });
  assert.equal(nows, 1, 'getResponse called now once');
  assert.equal(r.expiryStatus, 'valid');
  assert.equal(r.expiresAt, clock.t + 500, 'stored at the time given');
  assert.equal(calls('ctrlSetResponse') + calls('ctrlGetResponse'), viaFunc, 'both through the exported entries');

  // Later calls take their own time, not the last one given: a change
  // (another record) makes the read ask Go, which must see the clock moved.
  clock.advance(500);
  await ctrl.setResponse(short, { id: 2 }, { id: 2, body: 'two' });
  assert.equal(ctrl.getResponse(short, { id: 1 }).expiryStatus, 'stale', 'Go read the time of this call');
  assert.equal(ctrl.getResponse(short, { id: 2 }).expiresAt, clock.t + 500);
});

test('reads: after exported calls, Go is resumed once, in a later task, so the collector can finish', async () => {
  // Goroutines an exported call makes runnable (the collector's mark
  // workers) run only when Go next gets control; a page that only reads and
  // sets through the exports would never give it any, and the module's
  // memory would grow with every call.
  const { mod, go, bridge, exports, calls } = await countingInstance();
  let resumes = 0;
  const countedGo = {
    _resume: () => {
      resumes++;
      go._resume();
    },
  };
  const df = mod.attach(bridge(), exports, countedGo);
  const fx = fixtures(df, await fixtureURL());
  const ctrl = new df.Controller();
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  await tick();
  resumes = 0;
  const before = calls.datafetchSetResponse ?? 0;
  for (let i = 0; i < 3; i++) {
    await ctrl.setResponse(fx.getComment, { id: i }, { id: i, body: `c${i}` });
    assert.equal(ctrl.getResponse(fx.getComment, { id: i }).data.body, `c${i}`);
  }
  assert.equal(calls.datafetchSetResponse - before, 3, 'through the exported entry');
  assert.equal(resumes, 0, 'not during the caller’s task');
  await tick();
  assert.equal(resumes, 1, 'once after it');
  await tick();
  assert.equal(resumes, 1, 'and not again without a call');
  await ctrl.setResponse(fx.getComment, { id: 9 }, { id: 9, body: 'again' });
  await tick();
  assert.equal(resumes, 2);
});
