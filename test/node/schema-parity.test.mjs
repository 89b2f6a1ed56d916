// Shapes data-client reads without an error (issue 22, item 5): a union
// value no member takes is kept, a list given as an object is its values,
// null and booleans in a list of entities are kept, and an endpoint whose
// schema is null passes its data through.

import assert from 'node:assert/strict';
import { env, importModule, setup, test } from './harness.mjs';

setup();

const { Entity, RestEndpoint, Controller, schema } = await importModule();

class User extends Entity {
  id = '';
  type = 'users';
}
class Group extends Entity {
  id = '';
  type = 'groups';
}

test('data-client shapes: union without a match, a list as an object, non-records in lists, a null schema', async () => {
  await env();
  const ctrl = new Controller();
  const read = async (name, s, data) => {
    const ep = new RestEndpoint({ path: `http://h.test/${name}`, schema: s });
    await ctrl.setResponse(ep, {}, data);
    return ctrl.getResponse(ep, {}).data;
  };
  const union = new schema.Union({ users: User, groups: Group }, 'type');
  assert.deepEqual(await read('u', union, { id: '1', type: 'other' }), { id: '1', type: 'other' });
  const mixed = await read(
    'ul',
    [union],
    [
      { id: '1', type: 'users' },
      { id: '2', type: 'robots' },
      { id: '3', type: 'groups' },
    ],
  );
  assert.deepEqual(
    mixed.map((m) => [m.constructor.name, m.id]),
    [
      ['User', '1'],
      ['Object', '2'],
      ['Group', '3'],
    ],
  );
  assert.deepEqual(
    (await read('obj', [User], { a: { id: '1' }, b: { id: '2' } })).map((u) => u.id),
    ['1', '2'],
  );
  const list = await read('nr', [User], [{ id: '1' }, null, true, false]);
  assert.equal(list.length, 4);
  assert.deepEqual(list.slice(1), [null, true, false]);
  assert.deepEqual(await read('none', null, { a: 1 }), { a: 1 });
  ctrl.close();
});

test("ctrl.get and ctrl.getResponse read the state given as their last argument, as data-client's do", async () => {
  await env();
  class Tacos extends Entity {
    type = '';
    id = '';
  }
  // A state as data-client's tests make it: entities only, no metas.
  const state = {
    entities: { Tacos: { 1: { id: '1', type: 'foo' }, 2: { id: '2', type: 'bar' } } },
    endpoints: {},
    indexes: {},
    meta: {},
    entitiesMeta: {},
    optimistic: [],
    lastReset: 0,
  };
  const ctrl = new Controller();
  const taco = ctrl.get(Tacos, { id: '1' }, state);
  assert.ok(taco instanceof Tacos);
  assert.equal(taco.type, 'foo');
  assert.equal(ctrl.get(Tacos, { id: '1' }, state), taco, 'the same object for the same state');
  assert.equal(ctrl.get(Tacos, { id: '2' }, state).type, 'bar');
  assert.equal(ctrl.get(Tacos, { id: '1' }), undefined, "the controller's own store is another");
  assert.deepEqual(
    ctrl.get(new schema.All(Tacos), state).map((t) => t.id),
    ['1', '2'],
  );

  // A state from getState, with results: getResponse reads them.
  const ep = new RestEndpoint({ path: 'http://h.test/tacos/:id', schema: Tacos });
  const other = new Controller();
  await other.setResponse(ep, { id: '9' }, { id: '9', type: 'baz' });
  const got = ctrl.getResponse(ep, { id: '9' }, other.getState());
  assert.equal(got.data.type, 'baz');
  assert.equal(got.expiryStatus, 'valid');
  assert.equal(ctrl.getResponse(ep, { id: '9' }).expiryStatus, 'missing');
  ctrl.close();
  other.close();
});

test("normalize's output lists its keys in data-client's order (result, entities, indexes, entitiesMeta; a meta's fetchedAt, date, expiresAt), as JSON of it shows", async () => {
  const { df } = await env();
  class Item extends Entity {
    id = '';
  }
  const out = df.normalize({ item: Item, n: 0 }, { item: { id: '1' }, n: 5 }, [], undefined, { date: 7 });
  assert.deepEqual(Object.keys(out), ['result', 'entities', 'indexes', 'entitiesMeta']);
  assert.deepEqual(Object.keys(out.entitiesMeta.Item['1']), ['fetchedAt', 'date', 'expiresAt']);
  assert.deepEqual(Object.keys(df.normalize(undefined, 5)), ['result', 'entities', 'indexes', 'entitiesMeta']);
});
