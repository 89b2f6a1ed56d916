// Errors (docs/js-api.md, Errors): every failure is a thrown Error or a rejected Promise whose
// message says what was wrong and where, and the instance keeps working
// after it (no input may crash the module).

import assert from 'node:assert/strict';
import { assertError, assertMentions, deadURL, env, failureOf, linkFetch, setup, test } from './harness.mjs';

setup();

/** The instance still works: a fresh controller reads a comment from the server. */
async function assertAlive(df, fx) {
  const c = await new df.Controller().useSuspense(fx.getComment, { id: 1 });
  assert.equal(c.id, 1, 'the instance still works after the error');
  const { entities } = df.normalize([fx.Comment], [{ id: 9, name: 'n' }]);
  assert.equal(entities.Comment['9'].name, 'n');
}

test('a schema that is not a schema: normalize throws a clear Error', async () => {
  const { df, fx } = await env();
  for (const bad of [42, 'Article', true, () => {}, Symbol('s')]) {
    const err = await failureOf(() => df.normalize(bad, { id: 1 }), `normalize(${String(bad)})`);
    assertError(err);
    assertMentions(err, ['schema', 'Schema']);
  }
  await assertAlive(df, fx);
});

test('a schema that is not a schema in an endpoint: an Error at construction or at fetch', async () => {
  const { df, base, fx } = await env();
  const err = await failureOf(async () => {
    const ep = new df.RestEndpoint({ urlPrefix: base, path: '/comments/:id', name: 'badSchema', schema: 42 });
    return new df.Controller().fetch(ep, { id: 1 });
  }, 'an endpoint with schema 42');
  assertError(err);
  assertMentions(err, ['schema', 'Schema']);
  assertMentions(err, ['badSchema', '/comments/', '42'], 'the message says where');
  await assertAlive(df, fx);
});

test('a nested non-schema in an entity schema map is an Error', async () => {
  const { df, fx } = await env();
  const err = await failureOf(() => {
    const E = df.Entity({ key: 'Broken', defaults: { id: undefined, child: null }, schema: { child: 42 } });
    return df.normalize(E, { id: 1, child: 2 });
  });
  assertError(err);
  assertMentions(err, ['Broken', 'child']);
  await assertAlive(df, fx);
});

test('an Entity without key throws', async () => {
  const { df, fx } = await env();
  const err = await failureOf(() => df.Entity({ defaults: { id: undefined } }));
  assertError(err);
  assertMentions(err, ['key']);
  await assertAlive(df, fx);
});

test('an Entity without defaults throws, naming the entity', async () => {
  const { df, fx } = await env();
  const err = await failureOf(() => df.Entity({ key: 'NoDefaults' }));
  assertError(err);
  assertMentions(err, ['defaults']);
  assertMentions(err, ['NoDefaults']);
  await assertAlive(df, fx);
});

test('Entity with options that are not an object throws', async () => {
  const { df, fx } = await env();
  for (const bad of [undefined, null, 'User', 5]) {
    const err = await failureOf(() => df.Entity(bad), `Entity(${String(bad)})`);
    assertError(err);
  }
  await assertAlive(df, fx);
});

test('a response record without a pk where an entity is expected: a clear rejection', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/nopk', name: 'noPk', schema: fx.Comment });
  const err = await failureOf(() => new df.Controller().fetch(ep));
  assertError(err);
  assertMentions(err, ['Comment', 'noPk', '/bad/nopk'], 'the message says where');
  assertMentions(err, ['pk', 'primary key', 'id'], 'the message says what');
  await assertAlive(df, fx);
});

test('normalize of a record without pk throws, naming the schema key', async () => {
  const { df, fx } = await env();
  const err = await failureOf(() => df.normalize([fx.Comment], [{ name: 'no id' }]));
  assertError(err);
  assertMentions(err, ['Comment']);
  await assertAlive(df, fx);
});

test('params missing a path token: url() throws and fetch fails, naming the token', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/users/:userId/posts/:id', name: 'userPost' });
  const e1 = await failureOf(() => ep.url({ id: 1 }));
  assertError(e1);
  assertMentions(e1, ['userId']);
  const e2 = await failureOf(() => new df.Controller().fetch(ep, { id: 1 }));
  assertError(e2);
  assertMentions(e2, ['userId']);
  assertMentions(e2, ['userPost', '/users/:userId/posts/:id'], 'names the endpoint or path');
  const e3 = await failureOf(() => new df.Controller().useSuspense(ep, {}));
  assertError(e3);
  await assertAlive(df, fx);
});

test('a non-JSON body: status 400, and the instance still works', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/html', name: 'htmlPage', schema: [fx.Comment] });
  const err = await failureOf(() => new df.Controller().useSuspense(ep, {}));
  assertError(err);
  assert.equal(err.status, 400);
  assertMentions(err, ['htmlPage', '/bad/html']);
  await assertAlive(df, fx);
});

test('a network failure: status 0 or absent, and the instance still works', async () => {
  const { df, fx } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: await deadURL(), path: '/comments/:id', name: 'unreachable', schema: fx.Comment });
  const err = await failureOf(() => new df.Controller().useSuspense(ep, { id: 1 }));
  assertError(err);
  assert.ok(!err.status, `status ${err.status}`);
  assertMentions(err, ['unreachable', '/comments/1']);
  await assertAlive(df, fx);
});

test('garbage arguments to the controller are errors, not crashes', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const cases = [
    ['useSuspense(undefined)', () => ctrl.useSuspense(undefined, {})],
    ['useSuspense({})', () => ctrl.useSuspense({}, {})],
    ['fetch(null)', () => ctrl.fetch(null)],
    ['getResponse("x")', () => ctrl.getResponse('x', {})],
    ['subscribe(endpoint, params, not a function)', () => ctrl.subscribe(fx.getArticle, { id: '1' }, 42)],
    ['setResponse(42)', () => ctrl.setResponse(42, {}, {})],
    ['invalidateAll(not a function)', () => ctrl.invalidateAll('nope')],
  ];
  for (const [what, fn] of cases) {
    const err = await failureOf(fn, what);
    assertError(err, what);
  }
  await assertAlive(df, fx);
});

test('bad endpoint options are errors: unknown method, path not starting with /', async () => {
  const { df, base, fx } = await env();
  for (const [what, opts] of [
    ['unknown method', { urlPrefix: base, path: '/x', method: 'FETCH' }],
    ['relative path', { urlPrefix: base, path: 'x/y' }],
    ['no path', { urlPrefix: base }],
  ]) {
    const err = await failureOf(async () => {
      const ep = new df.RestEndpoint(opts);
      return new df.Controller().fetch(ep, {});
    }, what);
    assertError(err, what);
  }
  await assertAlive(df, fx);
});

test('params that cannot go in a URL are an error', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', name: 'objParam' });
  const err = await failureOf(() => ep.url({ id: '1', filter: { nested: true } }));
  assertError(err);
  assertMentions(err, ['filter']);
  await assertAlive(df, fx);
});

test('errors thrown by user callbacks reject with that error and leave the instance working', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const throwing = {
    getHeaders: () => {
      throw new Error('headers boom');
    },
    getRequestInit: () => {
      throw new Error('init boom');
    },
    parseResponse: () => {
      throw new Error('parse boom');
    },
    process: () => {
      throw new Error('process boom');
    },
  };
  for (const [name, fn] of Object.entries(throwing)) {
    const ep = new df.RestEndpoint({ urlPrefix: base, path: '/comments/:id', schema: fx.Comment, name: `cb-${name}`, [name]: fn });
    const err = await failureOf(() => ctrl.fetch(ep, { id: 1 }), name);
    assert.ok(String(err.message).includes('boom'), `${name}: ${err.message}`);
  }
  const E = df.Entity({
    key: 'Thrower',
    defaults: { id: undefined },
    pk() {
      throw new Error('pk boom');
    },
  });
  const err = await failureOf(() => df.normalize(E, { id: 1 }));
  assert.ok(String(err.message).includes('pk boom'));
  await assertAlive(df, fx);
});

test('many errors in a row do not wear the instance down', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/bad/status/:code', schema: fx.Comment, errorExpiryLength: 1 });
  for (let i = 0; i < 30; i++) {
    await failureOf(() => ctrl.fetch(ep, { code: 500 }));
    await failureOf(() => df.normalize(i, {}));
  }
  await assertAlive(df, fx);
});

// Issue 10, item 10: the header-token list's custom fetch (docs/js-api.md,
// Pagination) rethrows the error of a body that is not JSON with status 400
// for the caller to see. Whatever the caller's own code
// throws reaches the caller with its name, status and other members (and
// as the cause); the message still names the endpoint.
class TokenError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TokenError';
    this.status = 401;
    this.code = 'TOKEN_EXPIRED';
  }
}

test('an error thrown by a custom fetch, parseResponse, getRequestInit or getHeaders keeps its name, status and members', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  for (const option of ['fetch', 'parseResponse', 'getRequestInit', 'getHeaders']) {
    const thrown = new TokenError(`${option} says no`);
    const ep = new df.RestEndpoint({
      urlPrefix: base,
      path: '/comments/:id',
      schema: fx.Comment,
      name: `own-${option}`,
      errorExpiryLength: 60_000,
      [option]: async () => {
        throw thrown;
      },
    });
    const err = await failureOf(() => ctrl.useSuspense(ep, { id: 1 }), option);
    assert.ok(err instanceof Error, option);
    assert.equal(err.name, 'TokenError', `${option}: name`);
    assert.equal(err.status, 401, `${option}: status`);
    assert.equal(err.code, 'TOKEN_EXPIRED', `${option}: other members`);
    assert.equal(err.cause, thrown, `${option}: the thrown error is the cause`);
    assertMentions(err, [`own-${option}`], `${option}: the message names the endpoint`);
    // The kept error (a read inside errorExpiryLength) is the same.
    const again = await failureOf(() => ctrl.useSuspense(ep, { id: 1 }), `${option}, kept`);
    assert.equal(again.status, 401, `${option}: status of the kept error`);
    assert.equal(again.name, 'TokenError');
  }
  await assertAlive(df, fx);
});

test('a header-token list whose body is not JSON rejects with status 400, rethrown by its custom fetch', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/bad/body',
    name: 'linkedNotJSON',
    schema: { results: [fx.Post], link: '' },
    fetch: linkFetch,
  });
  const ctrl = new df.Controller();
  const err = await failureOf(() => ctrl.useSuspense(ep, { text: '<html>not JSON</html>' }));
  assert.equal(err.status, 400);
  assert.equal(err.name, 'SyntaxError', "the error's own name");
  assertMentions(err, ['linkedNotJSON']);
  // A subscriber is shown the same members.
  const errors = [];
  const unsub = ctrl.subscribe(ep, { text: '<html>not JSON</html>' }, (s) => s.error && errors.push(s.error));
  try {
    assert.equal(errors.at(-1)?.status, 400, 'the kept error, given to the listener at once');
  } finally {
    unsub();
  }
  await assertAlive(df, fx);
});
