// The generic Endpoint (issue 22): new Endpoint(fetchFunction, options),
// data-client's endpoint of any async function. Its key is a function of
// the args (by default its name and the args' JSON), its fetch the
// function; the controller stores its results under that key, with the
// engine options (schema, expiry, sideEffect) of a RestEndpoint.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { DIST, assertMentions, env, failureOf, fakeClock, setup, test } from './harness.mjs';

setup();

const { AsyncBoundary, DataProvider, useSuspense } = await import(pathToFileURL(join(DIST, 'react.mjs')).href);

test('an Endpoint is callable, named by its function, keyed by its name and args', async () => {
  const { df } = await env();
  const calls = [];
  async function getUser(id) {
    calls.push([this, id]);
    return { id, name: `user ${id}` };
  }
  const ep = new df.Endpoint(getUser);
  assert.equal(typeof ep, 'function');
  assert.ok(ep instanceof df.Endpoint);
  assert.equal(ep.name, 'getUser');
  assert.deepEqual(await ep('5'), { id: '5', name: 'user 5' });
  assert.equal(calls[0][0], ep, 'this is the endpoint');
  assert.equal(ep.key('5'), 'getUser ["5"]');
  assert.equal(ep.key(), 'getUser []');
  assert.equal(ep.key({ a: 1 }, 2), 'getUser [{"a":1},2]');
  assert.ok(ep.testKey('getUser ["7"]'));
  assert.ok(!ep.testKey('other ["7"]'));
  assert.equal(ep.sideEffect, undefined);
  assert.equal(ep.schema, undefined);
});

test('options become properties; extend keeps them and the name; a new fetch names it; bind fixes the args', async () => {
  const { df } = await env();
  async function one(id) {
    return { id, root: this.root };
  }
  async function two() {
    return 'two';
  }
  const named = new df.Endpoint(one, { name: 'special', root: 'users', dataExpiryLength: 5 });
  assert.equal(named.name, 'special');
  assert.equal(named.root, 'users');
  const ext = named.extend({ extra: 5 }).extend({ sideEffect: true });
  assert.equal(ext.name, 'special');
  assert.equal(ext.root, 'users');
  assert.equal(ext.extra, 5);
  assert.equal(ext.sideEffect, true);
  assert.equal(named.sideEffect, undefined, 'the base is unchanged');
  assert.equal(ext.key('5'), 'special ["5"]');
  assert.equal(named.extend({ fetch: two }).name, 'two');
  assert.equal(named.extend({ name: 'renamed' }).name, 'renamed');
  assert.equal(new df.Endpoint(one, { fetch: two }).name, 'one', "the constructor's function names it");
  const keyed = named.extend({ key: (id) => `user ${id}` });
  assert.equal(keyed.key('9'), 'user 9');
  const bound = named.bind(undefined, '7');
  assert.deepEqual(await bound(), { id: '7', root: 'users' });
  // As data-client's: the bound fetch (a function named fetch) names it.
  assert.equal(bound.key(), 'fetch ["7"]');
});

test('a subclass sets options as class fields and overrides key and fetch', async () => {
  const { df } = await env();
  class UserEndpoint extends df.Endpoint {
    root = 'people';
    key(id) {
      return `${this.root}/${id}`;
    }
  }
  const ep = new UserEndpoint(async function load(id) {
    return { id, root: this.root };
  });
  assert.ok(ep instanceof UserEndpoint);
  assert.equal(ep.key('3'), 'people/3');
  assert.deepEqual(await ep('3'), { id: '3', root: 'people' });
  const ext = ep.extend({ root: 'staff' });
  assert.ok(ext instanceof UserEndpoint);
  assert.equal(ext.key('3'), 'people/3', "a class field is the class's, over what extend gives");
});

test('an anonymous function with the default key and no name tells on console.error', async () => {
  const { df } = await env();
  const seen = [];
  const original = console.error;
  console.error = (...a) => seen.push(a.join(' '));
  try {
    const ep = new df.Endpoint(() => {});
    assert.equal(ep.name, undefined);
    assert.equal(seen.length, 1);
    assertMentions(new Error(seen[0]), ['Endpoint', 'name']);
    const keyed = new df.Endpoint(() => {}, { key: () => 'k' });
    assert.equal(keyed.name, undefined);
    assert.equal(seen.length, 1, 'a key of its own needs no name');
  } finally {
    console.error = original;
  }
});

test('the controller fetches through the function and stores the result under key(args)', async () => {
  const { df } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  const calls = [];
  const ep = new df.Endpoint(
    async function profile(params) {
      calls.push(params);
      return { name: `user ${params?.id}` };
    },
    { dataExpiryLength: 1000 },
  );
  assert.deepEqual(await ctrl.fetch(ep, { id: '1' }), { name: 'user 1' });
  assert.deepEqual(calls, [{ id: '1' }]);
  const r = ctrl.getResponse(ep, { id: '1' });
  assert.deepEqual(r.data, { name: 'user 1' });
  assert.equal(r.expiryStatus, 'valid');
  assert.equal(ctrl.getResponse(ep, { id: '2' }).expiryStatus, 'missing');
  clock.advance(1001);
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'stale', 'dataExpiryLength is the endpoint option');
  // No args: the function gets none; the key is key().
  const list = new df.Endpoint(async function list(...args) {
    return { args: args.length };
  });
  assert.deepEqual(await ctrl.fetch(list), { args: 0 });
  assert.deepEqual(ctrl.getResponse(list).data, { args: 0 });
  // A string arg.
  const byId = new df.Endpoint(async function byId(id) {
    return `got ${id}`;
  });
  assert.equal(await ctrl.fetch(byId, '5'), 'got 5');
  assert.equal(ctrl.getResponse(byId, '5').data, 'got 5');
  // A side effect gets the body too.
  const send = new df.Endpoint(async (...args) => args, { name: 'send', sideEffect: true });
  assert.deepEqual(await ctrl.fetch(send, { to: 'a' }, { text: 'hi' }), [{ to: 'a' }, { text: 'hi' }]);
});

test('the key option decides what shares a result: setResponse, getResponse and invalidate go by it', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const ep = new df.Endpoint(async ({ id }) => ({ id }), { name: 'byId', key: ({ id }) => `one key ${id}` });
  ctrl.setResponse(ep, { id: '1', ignored: true }, { id: 'set' });
  assert.deepEqual(ctrl.getResponse(ep, { id: '1', other: 'x' }).data, { id: 'set' }, 'same key(args), same result');
  assert.equal(ctrl.getResponse(ep, { id: '2' }).expiryStatus, 'missing');
  assert.deepEqual(ctrl.getState().endpoints['one key 1'], { id: 'set' }, 'the store key is key(args)');
  // A state given to getResponse (data-client's shape) is read by key(args) too.
  const state = { entities: {}, indexes: {}, entitiesMeta: {}, endpoints: { 'one key 3': { id: 'from state' } }, meta: {}, optimistic: [], lastReset: 0 };
  assert.deepEqual(ctrl.getResponse(ep, { id: '3' }, state).data, { id: 'from state' });
  ctrl.invalidate(ep, { id: '1', other: 'y' });
  assert.equal(ctrl.getResponse(ep, { id: '1' }).expiryStatus, 'invalid');
});

test('a schema normalizes what the function returns; an Endpoint reads entities like a RestEndpoint', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const { User } = fx;
  const ep = new df.Endpoint(async ({ id }) => ({ id, name: `user ${id}` }), { name: 'user', schema: User });
  const list = new df.Endpoint(async () => [{ id: '1', name: 'renamed' }], { name: 'users', schema: [User] });
  await ctrl.fetch(ep, { id: '1' });
  assert.equal(ctrl.getResponse(ep, { id: '1' }).data.name, 'user 1');
  await ctrl.fetch(list);
  assert.equal(ctrl.getResponse(ep, { id: '1' }).data.name, 'renamed', 'one entity, shared');
});

test('bad input: a fetch that is not a function, a key that is not a string', async () => {
  const { df } = await env();
  assert.throws(() => new df.Endpoint(5), /Endpoint: the fetch function must be a function, got 5/);
  assert.throws(() => new df.Endpoint(async () => 1, 'options'), /Endpoint: options must be an object/);
  const ctrl = new df.Controller();
  const ep = new df.Endpoint(async () => 1, { name: 'badKey', key: () => 5 });
  const err = await failureOf(() => ctrl.fetch(ep));
  assertMentions(err, ['badKey', 'key must return a string']);
  assert.equal(ctrl.getResponse(new df.Endpoint(async () => 1, { name: 'fine' })).expiryStatus, 'missing', 'the controller still works');
});

test('useSuspense reads an Endpoint by key(args); a missing result suspends and calls the function', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const calls = [];
  const ep = new df.Endpoint(async function greeting({ who }) {
    calls.push(who);
    return { text: `hello ${who}` };
  });
  function Greeting({ who }) {
    return h('p', null, useSuspense(ep, { who }).text);
  }
  const page = (who) => h(DataProvider, { controller: ctrl }, h(AsyncBoundary, { fallback: h('i', null, 'loading') }, h(Greeting, { who })));
  await ctrl.fetch(ep, { who: 'ada' });
  assert.match(renderToString(page('ada')), /<p>hello ada<\/p>/);
  assert.match(renderToString(page('bob')), /<i>loading<\/i>/);
  assert.deepEqual(calls, ['ada', 'bob'], 'the suspension fetched through the function');
});

test('a side-effect Endpoint: getOptimisticResponse shows before the function resolves, update rewrites another result', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const { User } = fx;
  const list = new df.Endpoint(async () => [{ id: '1', name: 'one' }], { name: 'users', schema: [User] });
  await ctrl.fetch(list);
  let answer;
  const rename = new df.Endpoint(
    function rename({ id }, body) {
      return new Promise((resolve) => {
        answer = () => resolve({ id, name: `${body.name.split(' ')[0]} (saved)` });
      });
    },
    {
      sideEffect: true,
      schema: User,
      getOptimisticResponse: (snap, { id }, body) => ({ id, ...body }),
      update: (newId) => ({ [list.key()]: (ids) => [...ids, newId] }),
    },
  );
  const done = ctrl.fetch(rename, { id: '2' }, { name: 'two (optimistic)' });
  assert.deepEqual(
    ctrl.getResponse(list).data.map((u) => u.name),
    ['one', 'two (optimistic)'],
  );
  answer();
  await done;
  assert.deepEqual(
    ctrl.getResponse(list).data.map((u) => u.name),
    ['one', 'two (saved)'],
    'the answer replaces the optimistic record',
  );
});

test('ExpiryStatus names the expiryStatus strings', async () => {
  const { df } = await env();
  const mod = await import(pathToFileURL(join(DIST, 'datafetch.node.mjs')).href);
  assert.equal(mod.ExpiryStatus, df.ExpiryStatus);
  assert.deepEqual({ ...df.ExpiryStatus }, { Valid: 'valid', Stale: 'stale', Invalid: 'invalid', Missing: 'missing' });
  assert.ok(Object.isFrozen(df.ExpiryStatus));
  const ctrl = new df.Controller();
  const ep = new df.Endpoint(async () => 1, { name: 'one' });
  assert.equal(ctrl.getResponse(ep).expiryStatus, df.ExpiryStatus.Missing);
  await ctrl.fetch(ep);
  assert.equal(ctrl.getResponse(ep).expiryStatus, df.ExpiryStatus.Valid);
});
