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
