// undefined crossing between JavaScript and the engine (issue 22, item 6):
// data-client keeps an undefined member or list element where JSON would
// drop it or make it null, on normalize, on denormalize and through
// setResponse into the store.

import assert from 'node:assert/strict';
import { env, importModule, setup, test } from './harness.mjs';

setup();

const { Entity, RestEndpoint, Controller, schema } = await importModule();

class Cat extends Entity {
  id = '';
  name = '';
}

test('normalize keeps undefined list members and undefined members no schema reads, leaves out an entity member that is undefined', async () => {
  const { df } = await env();
  const list = df.normalize([Cat], [undefined, { id: '1' }, null]);
  assert.equal(list.result.length, 3);
  assert.ok(0 in list.result, 'the undefined element is there');
  assert.deepEqual(list.result, [undefined, '1', null]);

  const obj = df.normalize(new schema.Object({ foo: Cat, bar: Cat }), { foo: undefined, bar: { id: '2' }, note: undefined });
  assert.deepEqual(Object.keys(obj.result), ['bar', 'note']);
  assert.equal(obj.result.note, undefined);

  const rec = df.normalize(Cat, { id: '3', name: undefined });
  assert.ok(Object.hasOwn(rec.entities.Cat['3'], 'name'), 'a record keeps its undefined member');
  assert.equal(rec.entities.Cat['3'].name, undefined);
});

test('denormalize keeps an undefined member and leaves out undefined list elements (null kept)', async () => {
  const { df } = await env();
  const entities = { Cat: { 1: { id: '1', name: 'Milo' }, 2: { id: '2', name: 'Jake' } } };
  const s = new schema.Object({ results: [Cat] });
  const absent = df.denormalize(s, { results: undefined }, entities);
  assert.ok(Object.hasOwn(absent, 'results'));
  assert.equal(absent.results, undefined);
  const read = df.denormalize(s, { results: ['1', undefined, '2', null] }, entities);
  assert.deepEqual(
    read.results.map((c) => c?.name ?? c),
    ['Milo', 'Jake', null],
  );
  // Data shared in two places has its marks in each; a key with a quote survives.
  const shared = { 'a"b': undefined };
  const twice = df.denormalize(new schema.Object({}), { x: shared, y: [shared, 1] }, {});
  assert.ok(Object.hasOwn(twice.x, 'a"b') && Object.hasOwn(twice.y[0], 'a"b'));
  // A class instance goes the careful way (checked for what JSON cannot carry) and keeps its marks too.
  class Box {
    a = undefined;
    b = 1;
  }
  const boxed = df.denormalize(new schema.Object({}), { box: new Box() }, {});
  assert.deepEqual(Object.entries(boxed.box), [
    ['a', undefined],
    ['b', 1],
  ]);
  assert.throws(() => df.denormalize(new schema.Object({}), { box: new Box(), f: () => 1 }, {}), /f: function.*cannot be sent as JSON/);
});

test('setResponse stores an undefined member, and a read returns it', async () => {
  await env();
  const ctrl = new Controller();
  const ep = new RestEndpoint({ path: 'http://h.test/undef', schema: { cat: Cat, extra: undefined } });
  await ctrl.setResponse(ep, {}, { cat: { id: '5', name: 'Tom' }, missing: undefined, list: [1, undefined] });
  const data = ctrl.getResponse(ep, {}).data;
  assert.ok(Object.hasOwn(data, 'missing'));
  assert.equal(data.missing, undefined);
  assert.equal(data.list.length, 2);
  assert.equal(data.list[1], undefined);
  assert.equal(data.cat.name, 'Tom');
  ctrl.close();
});

test('ctrl.set stores an entity with an undefined member, and ctrl.get reads it back', async () => {
  await env();
  const ctrl = new Controller();
  await ctrl.set(Cat, { id: '7' }, { id: '7', name: undefined });
  const cat = ctrl.get(Cat, { id: '7' });
  assert.ok(Object.hasOwn(cat, 'name'), 'the undefined member is kept, not the default');
  assert.equal(cat.name, undefined);
  ctrl.close();
});
