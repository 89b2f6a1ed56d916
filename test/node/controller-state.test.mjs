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
