// data-client's reads of a state given last (issue 22 item 10): the forms
// beside schema-parity's get/getResponse test; an endpoint without params
// reads a state as getResponse(endpoint, state).

import assert from 'node:assert/strict';
import { env, importModule, setup, test } from './harness.mjs';

setup();

const { Controller, Entity, RestEndpoint } = await importModule();

class Taco extends Entity {
  id = '';
  type = '';
}

test('ctrl.getResponse(endpoint, state) reads the state for an endpoint with no params', async () => {
  await env();
  const list = new RestEndpoint({ path: 'http://h.test/tacos', schema: [Taco] });
  const source = new Controller();
  await source.setResponse(list, undefined, [{ id: '1', type: 'foo' }]);
  const state = source.getState();
  const ctrl = new Controller();
  const got = ctrl.getResponse(list, state);
  assert.equal(got.expiryStatus, 'valid');
  assert.deepEqual(
    got.data.map((t) => t.type),
    ['foo'],
  );
  assert.equal(ctrl.getResponse(list, undefined, state).data[0].type, 'foo', 'params undefined, then the state');
  assert.equal(ctrl.getResponse(list).expiryStatus, 'missing', "the controller's own store is another");
  ctrl.close();
  source.close();
});

test('ctrl.snapshot(state, fetchedAt), getQueryMeta and getResponseMeta read a given state, as data-client names them', async () => {
  await env();
  const one = new RestEndpoint({ path: 'http://h.test/tacos/:id', schema: Taco });
  const source = new Controller();
  await source.setResponse(one, { id: '1' }, { id: '1', type: 'foo' });
  await source.setResponse(one, { id: '2' }, { id: '2', type: 'bar' });
  const state = source.getState();
  const ctrl = new Controller();
  const snap = ctrl.snapshot(state, 1234);
  assert.equal(snap.fetchedAt, 1234);
  assert.equal(ctrl.snapshot(state).fetchedAt, 0, 'fetchedAt defaults to 0');
  const taco = snap.getQueryMeta(Taco, { id: '1' }).data;
  assert.ok(taco instanceof Taco);
  assert.equal(taco.type, 'foo');
  assert.equal(snap.getQueryMeta(Taco, { id: '1' }).data, taco, 'the same read while the state is the same');
  assert.equal(snap.get(Taco, { id: '2' }).type, 'bar');
  assert.equal(snap.getQueryMeta(Taco, { id: '9' }).data, undefined);
  const meta = snap.getResponseMeta(one, { id: '2' });
  assert.equal(meta.expiryStatus, 'valid');
  assert.equal(meta.data.type, 'bar');
  assert.equal(snap.getResponse(one, { id: '1' }).data, taco);
  assert.ok(snap.abort instanceof Error, 'abort: thrown from getOptimisticResponse');
  assert.equal(ctrl.getQueryMeta(Taco, { id: '1' }, state).data, taco, 'on the controller, the state last');
  assert.equal(ctrl.getResponseMeta(one, { id: '2' }, state).data.type, 'bar');
  assert.equal(ctrl.getQueryMeta(Taco, { id: '1' }).data, undefined, "the controller's own store is another");
  assert.throws(() => ctrl.snapshot({}), { name: 'TypeError', message: /snapshot: expected a store state/ });
  assert.throws(() => ctrl.snapshot(state, 'now'), { name: 'TypeError', message: /fetchedAt/ });
  ctrl.close();
  source.close();
});

test('static indexes: ctrl.get by an index field reads the record that has it, the same object as by pk; in a given state too', async () => {
  await env();
  class Member extends Entity {
    id = '';
    username = '';
    staff = false;
    static indexes = ['username'];
  }
  const list = new RestEndpoint({ path: 'http://h.test/members', schema: [Member] });
  const ctrl = new Controller();
  assert.equal(ctrl.get(Member, { username: 'bob' }), undefined, 'nothing stored');
  await ctrl.setResponse(list, undefined, [
    { id: '1', username: 'bob' },
    { id: '2', username: 'george' },
  ]);
  const bob = ctrl.get(Member, { username: 'bob' });
  assert.ok(bob instanceof Member);
  assert.equal(bob.id, '1');
  assert.equal(ctrl.get(Member, { id: '1' }), bob, 'the same object as by pk');
  assert.equal(ctrl.get(Member, { username: 'nobody' }), undefined);
  await ctrl.setResponse(list, undefined, [
    { id: '1', username: 'george' },
    { id: '2', username: 'bob' },
  ]);
  assert.equal(ctrl.get(Member, { username: 'bob' }).id, '2', 'follows the field');
  const state = { entities: { Member: { 7: { id: '7', username: 'ann' } } }, endpoints: {}, indexes: { Member: { username: { ann: '7' } } } };
  assert.equal(ctrl.get(Member, { username: 'ann' }, state).id, '7', 'a given state');
  class Bad extends Entity {
    id = '';
    static indexes = 'username';
  }
  const bad = new RestEndpoint({ path: 'http://h.test/bad', schema: Bad });
  await assert.rejects(ctrl.setResponse(bad, undefined, { id: '1' }), { name: 'TypeError', message: /static indexes must be a list of field names/ });
  ctrl.close();
});
