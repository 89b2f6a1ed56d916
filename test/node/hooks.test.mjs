// Issue 10, item 8: hooks that must be synchronous. A Promise (or any
// thenable) returned from an Entity's merge, useIncoming/shouldUpdate,
// shouldReorder, process or pk, or from an endpoint's process, update, an
// update function or getOptimisticResponse, is an Error naming the hook and the entity or endpoint;
// the store is unchanged (JSON would have turned the Promise into {} and
// stored that).

import assert from 'node:assert/strict';
import { env, failureOf, setup, test } from './harness.mjs';

setup();

const DEFAULTS = { id: undefined, name: '' };
// A thenable that is not a Promise: hooks must refuse it too.
// biome-ignore lint/suspicious/noThenProperty: the point of the value is its then method
const thenable = () => ({ then() {} });

/**
 * The cases: {hook, entity?: entity options, endpoint?: (list) → endpoint
 * options}. entity options make the entity
 * the changed record is stored by; endpoint options go on the endpoint
 * that stores it.
 */
const CASES = [
  { hook: 'merge', entity: { merge: async (a, b) => ({ ...a, ...b }) } },
  { hook: 'useIncoming', entity: { useIncoming: async () => true } },
  { hook: 'shouldUpdate', entity: { shouldUpdate: async () => true } },
  { hook: 'shouldReorder', entity: { shouldReorder: async () => false } },
  { hook: 'useIncoming', what: 'a thenable', entity: { useIncoming: thenable } },
  { hook: 'process', entity: { process: async (v) => v } },
  { hook: 'pk', entity: { pk: async (v) => v.id } },
  { hook: 'pk', what: 'a thenable', entity: { pk: thenable } },
  // An endpoint's process runs on what the network answered (a custom fetch's
  // result is used as it is): this one reads comment 1 from the fixture server.
  { hook: 'process', endpoint: (list, base) => ({ urlPrefix: base, path: '/comments/:id', method: 'GET', fetch: undefined, process: async (v) => v }) },
  { hook: 'getOptimisticResponse', endpoint: () => ({ getOptimisticResponse: async (snap, params, body) => ({ id: '1', ...body }) }) },
  { hook: 'update', endpoint: (list) => ({ update: async () => ({ [list.key({})]: (pks) => [...pks, '1'] }) }) },
  {
    hook: 'update',
    what: 'an update function returning a Promise',
    endpoint: (list) => ({ update: () => ({ [list.key({})]: async (pks) => [...pks, '1'] }) }),
  },
  { hook: 'update', what: 'an update function returning a thenable', endpoint: (list) => ({ update: () => ({ [list.key({})]: thenable }) }) },
];

CASES.forEach((c, i) => {
  const title = `${c.entity ? 'Entity' : 'endpoint'} ${c.hook} returning ${c.what ?? 'a Promise'}: an Error naming ${c.hook} and the ${c.entity ? 'entity' : 'endpoint'}, store unchanged`;
  test(title, async () => {
    const { df, base } = await env();
    const key = `SyncHook${i}`;
    // Records stored by a plain entity of the same key, so that the hooked
    // one meets an existing record (merge, useIncoming, shouldReorder).
    const Plain = df.Entity({ key, defaults: DEFAULTS });
    const Hooked = df.Entity({ key, defaults: DEFAULTS, ...(c.entity ?? {}) });
    const list = new df.RestEndpoint({
      path: '/items',
      name: `items${i}`,
      schema: [Plain],
      fetch: async () => [
        { id: '1', name: 'one' },
        { id: '2', name: 'two' },
      ],
    });
    const ctrl = new df.Controller();
    const items = await ctrl.fetch(list, {});
    const before = ctrl.getState();
    const epName = `change${i}`;
    const change = new df.RestEndpoint({
      path: '/items/:id',
      method: 'PATCH',
      name: epName,
      schema: c.entity ? Hooked : Plain,
      fetch: async () => ({ id: '1', name: 'changed' }),
      ...(c.endpoint ? c.endpoint(list, base) : {}),
    });
    const err = await failureOf(() => ctrl.fetch(change, { id: '1' }, { name: 'changed' }), title);
    assert.ok(err instanceof Error, `want an Error, got ${String(err)}`);
    assert.ok(err.message.includes(c.hook), `${JSON.stringify(err.message)} should name the hook ${c.hook}`);
    const owner = c.entity ? key : epName;
    assert.ok(err.message.includes(owner), `${JSON.stringify(err.message)} should name ${owner}`);
    assert.match(err.message, /Promise|synchronous/, 'the message says why');
    const after = ctrl.getState();
    assert.deepEqual(after.entities, before.entities, 'entities unchanged');
    assert.deepEqual(after.endpoints, before.endpoints, 'endpoint results unchanged');
    assert.equal(ctrl.getResponse(list, {}).data, items, 'the list reads as before (===)');
  });
});

test('a pk hook that throws during setResponse runs once: the error is reported, the call not made again', async () => {
  const { df } = await env();
  let calls = 0;
  const Thing = df.Entity({
    key: 'OnceThing',
    defaults: DEFAULTS,
    pk: () => {
      calls++;
      throw new Error('no pk today');
    },
  });
  const ep = new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:1', path: '/things/:id', name: 'getThing', schema: Thing });
  const ctrl = new df.Controller();
  const err = await failureOf(() => ctrl.setResponse(ep, { id: '1' }, { id: '1', name: 'x' }), 'setResponse');
  assert.match(err.message, /no pk today/);
  assert.equal(calls, 1, 'the pk hook ran once');
  assert.equal(ctrl.getResponse(ep, { id: '1' }).data, undefined, 'nothing stored');
});
