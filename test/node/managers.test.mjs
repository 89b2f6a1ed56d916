// Managers (docs/js-api.md, "Managers"): data-client's middleware seam on a
// controller, and StreamManager, which writes pushed messages into the
// cache.

import assert from 'node:assert/strict';
import { env, server, setup, test } from './harness.mjs';

setup();

// recorder is a manager that records the actions it sees (type and key),
// and its init and cleanup calls.
function recorder(rewrite = (action, next) => next(action)) {
  const seen = [];
  const m = {
    seen,
    init: (state) => seen.push(['init', typeof state === 'object' && 'entities' in state]),
    cleanup: () => seen.push(['cleanup']),
    middleware: (controller) => (next) => (action) => {
      seen.push([action.type, action.key ?? null, controller === m.controller]);
      return rewrite(action, next);
    },
  };
  return m;
}

test('a manager sees the controller writes as data-client actions, init at start and cleanup at close', async () => {
  const { df, fx } = await env();
  await server.reset();
  const m = recorder();
  const ctrl = new df.Controller({ managers: [...df.getDefaultManagers(), m] });
  m.controller = ctrl;
  assert.deepEqual(m.seen, [['init', true]]);
  const T = df.actionTypes;
  const key = fx.getArticle.key({ id: '1' });

  const article = await ctrl.fetch(fx.getArticle, { id: '1' });
  assert.equal(article.id, '1', 'fetch resolves with the data, through the chain');
  await ctrl.setResponse(fx.getArticle, { id: '2' }, { id: '2', title: 'set' });
  await ctrl.set(fx.Article, { id: '3' }, { id: '3', title: 'direct' });
  await ctrl.invalidate(fx.getArticle, { id: '2' });
  await ctrl.expireAll((k) => k === key);
  await ctrl.invalidateAll(() => false);
  const stop = ctrl.subscribe(fx.getArticle, { id: '1' }, () => {}, { fetch: false });
  stop();
  stop();
  await ctrl.gc();
  await ctrl.resetEntireStore();
  // The subscription's actions are dispatched without waiting for them.
  await Promise.resolve();
  ctrl.close();
  assert.deepEqual(
    m.seen.map(([type, k]) => [type, k]),
    [
      ['init', true],
      [T.FETCH, key],
      [T.SET_RESPONSE, fx.getArticle.key({ id: '2' })],
      [T.SET, null],
      [T.INVALIDATE, fx.getArticle.key({ id: '2' })],
      [T.EXPIREALL, null],
      [T.INVALIDATEALL, null],
      [T.SUBSCRIBE, key],
      [T.UNSUBSCRIBE, key],
      [T.GC, null],
      [T.RESET, null],
      ['cleanup', undefined],
    ],
  );
  assert.ok(
    m.seen.slice(1, -1).every(([, , same]) => same),
    'the middleware gets the controller',
  );
});

test('middleware decides: an action it drops does nothing, one it changes does what it says, and it may dispatch others', async () => {
  const { df, fx } = await env();
  const T = df.actionTypes;
  const dropInvalidate = recorder((action, next) => (action.type === T.INVALIDATE ? Promise.resolve() : next(action)));
  const upper = recorder((action, next) =>
    action.type === T.SET_RESPONSE && !action.error
      ? next({ ...action, response: { ...action.response, title: action.response.title.toUpperCase() } })
      : next(action),
  );
  const ctrl = new df.Controller({ managers: [dropInvalidate, upper] });
  await ctrl.setResponse(fx.getArticle, { id: '5' }, { id: '5', title: 'quiet' });
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '5' }).data.title, 'QUIET', 'the second manager changed the response');
  await ctrl.invalidate(fx.getArticle, { id: '5' });
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '5' }).expiryStatus, 'valid', 'the first manager dropped the invalidate');
  assert.deepEqual(
    upper.seen.map(([t]) => t),
    ['init', T.SET_RESPONSE],
    'a dropped action goes no further down the chain',
  );
  // controller.dispatch sends an action through the whole chain.
  await ctrl.dispatch({
    type: T.SET_RESPONSE,
    endpoint: fx.getArticle,
    args: [{ id: '6' }],
    key: fx.getArticle.key({ id: '6' }),
    response: { id: '6', title: 'sent' },
    meta: {},
  });
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '6' }).data.title, 'SENT');
  await assert.rejects(ctrl.dispatch({ type: 'rdc/nope' }), /dispatch: .* is not an action this controller knows/);
  ctrl.close();
});

test('a fetch through managers rejects as a fetch would', async () => {
  const { df, fx } = await env();
  await server.reset();
  const ctrl = new df.Controller({ managers: [recorder()] });
  const err = await ctrl.fetch(fx.getArticle, { id: '999999' }).catch((e) => e);
  assert.ok(err instanceof df.NetworkError);
  assert.equal(err.status, 404);
  await assert.rejects(ctrl.fetch(fx.getArticle, {}), /params missing path token :id/);
  ctrl.close();
});

test('the managers option is checked', async () => {
  const { df } = await env();
  assert.throws(() => new df.Controller({ managers: {} }), /Controller: managers must be an array of managers, got/);
  assert.throws(() => new df.Controller({ managers: [null] }), /managers\[0\] must be a manager/);
  assert.throws(() => new df.Controller({ managers: [{}] }), /managers\[0\]: cleanup must be a function/);
  assert.throws(() => new df.Controller({ managers: [{ cleanup() {}, middleware: 1 }] }), /managers\[0\]: middleware must be a function/);
  assert.deepEqual(df.getDefaultManagers(), []);
});

// messages is a message source driven by the test: what an EventSource or
// a WebSocket gives a StreamManager.
function messages() {
  const target = new EventTarget();
  target.closed = false;
  target.close = () => {
    target.closed = true;
  };
  target.push = (data) => target.dispatchEvent(new MessageEvent('message', { data: typeof data === 'string' ? data : JSON.stringify(data) }));
  return target;
}

test('StreamManager writes pushed messages into the cache: what reads the entity changes', async () => {
  const { df, fx } = await env();
  await server.reset();
  const source = messages();
  const errors = [];
  const stream = new df.StreamManager(source, { Article: fx.Article }, { onError: (e) => errors.push(e.message) });
  const ctrl = new df.Controller({ managers: [stream] });
  const before = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  const seen = [];
  const stop = ctrl.subscribe(fx.getArticle, { id: '1' }, ({ data }) => seen.push(data?.title), { fetch: false });

  source.push({ type: 'Article', args: [{ id: '1' }], data: { id: '1', title: 'pushed' } });
  await Promise.resolve();
  const after = ctrl.getResponse(fx.getArticle, { id: '1' }).data;
  assert.equal(after.title, 'pushed');
  assert.equal(after.content, before.content, 'the other fields stay');
  assert.ok(seen.includes('pushed'), 'a subscriber was told');

  source.push('not json');
  source.push({ type: 'Nope', data: {} });
  source.push({ type: 'Article', data: { title: 'no pk' } });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(errors.length, 3, errors.join('\n'));
  assert.match(errors[0], /not JSON/);
  assert.match(errors[1], /no known type \(Article\)/);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data.title, 'pushed', 'bad messages change nothing');

  stop();
  ctrl.close();
  assert.equal(source.closed, true, 'cleanup closes the source');
  source.push({ type: 'Article', args: [{ id: '1' }], data: { id: '1', title: 'after close' } });
  await Promise.resolve();
  assert.equal(errors.length, 3, 'a closed manager no longer listens');
});

test('StreamManager opens a source given as a function when the controller starts', async () => {
  const { df, fx } = await env();
  let opened = 0;
  const source = messages();
  const stream = new df.StreamManager(
    () => {
      opened++;
      return source;
    },
    { Article: fx.Article },
  );
  assert.equal(opened, 0);
  const ctrl = new df.Controller({ managers: [stream] });
  assert.equal(opened, 1);
  source.push({ type: 'Article', args: [{ id: '7' }], data: { id: '7', title: 'seven' } });
  await Promise.resolve();
  assert.equal(ctrl.get(fx.Article, { id: '7' })?.title, 'seven');
  ctrl.close();
  assert.throws(() => new df.StreamManager(null, {}), /StreamManager: source must be/);
});
