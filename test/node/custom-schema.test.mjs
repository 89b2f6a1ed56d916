// Custom schema classes (issue 22): data-client lets a schema be any
// object with normalize(input, parent, key, delegate) and
// denormalize(input, delegate) methods, and an entity class may normalize
// its own way (a static normalize). The engine calls them, with
// delegate.visit / mergeEntity / invalidate to normalize and store what
// they nest and delegate.unvisit to read it back.

import assert from 'node:assert/strict';
import { failureOf, fakeClock, importModule, loadDF, test } from './harness.mjs';

const df = await loadDF();
const { Entity } = await importModule();

class User extends Entity {
  id = '';
  name = '';
  static key = 'User';
}

// Pair reads a response's [label, record] lists as {label, record}, the
// record normalized by its schema.
class Pair {
  constructor(schema) {
    this.schema = schema;
  }
  normalize(input, parent, key, delegate) {
    if (!Array.isArray(input)) throw new TypeError(`expected a [label, record] pair, got ${typeof input}`);
    return [input[0], delegate.visit(this.schema, input[1], input, 1)];
  }
  denormalize(input, delegate) {
    return { label: input[0], record: delegate.unvisit(this.schema, input[1]) };
  }
}

const pairs = { pairs: [new Pair(User)] };

test('a custom schema nested in ordinary ones normalizes and reads through its methods', () => {
  const { result, entities } = df.normalize(pairs, {
    pairs: [
      ['a', { id: '1', name: 'Ann' }],
      ['b', { id: '2', name: 'Bob' }],
    ],
  });
  assert.deepEqual(result, {
    pairs: [
      ['a', '1'],
      ['b', '2'],
    ],
  });
  assert.deepEqual(entities.User['2'], { id: '2', name: 'Bob' });
  const read = df.denormalize(pairs, result, entities);
  assert.deepEqual(JSON.parse(JSON.stringify(read)), {
    pairs: [
      { label: 'a', record: { id: '1', name: 'Ann' } },
      { label: 'b', record: { id: '2', name: 'Bob' } },
    ],
  });
  const missing = df.denormalize(new Pair(User), ['c', '9'], entities);
  assert.equal(missing.label, 'c');
  assert.equal(missing.record, undefined, 'a record not stored reads undefined');
});

test('a fully custom entity class stores its records itself with mergeEntity', () => {
  class Food extends Entity {
    uuid = '';
    name = '';
    pk() {
      return this.uuid;
    }
    static schema = { children: [User] };
    static normalize(input, parent, key, delegate) {
      // It stores names in capitals, as an ordinary entity would not.
      const entity = { ...input, name: input.name.toUpperCase(), children: delegate.visit(Food.schema.children, input.children, input, 'children') };
      delegate.mergeEntity(Food, Food.pk(entity), entity);
      return entity.uuid;
    }
  }
  const { result, entities } = df.normalize(Food, { uuid: 'f1', name: 'tacos', children: [{ id: '4', name: 'lettuce' }] });
  assert.equal(result, 'f1');
  assert.deepEqual(entities.Food.f1, { uuid: 'f1', name: 'TACOS', children: ['4'] });
  assert.deepEqual(entities.User['4'], { id: '4', name: 'lettuce' });
  const read = df.denormalize(Food, result, entities);
  assert.equal(read.name, 'TACOS', 'it reads as the entity does');
  assert.equal(read.children[0].name, 'lettuce');
});

test('an endpoint whose schema is custom stores and reads through it', async () => {
  let rows = [['x', { id: '1', name: 'Ann' }]];
  const getPairs = new df.Endpoint(async () => rows, { name: 'getPairs', schema: [new Pair(User)] });
  const ctrl = new df.Controller({ now: fakeClock().now });
  await ctrl.fetch(getPairs);
  assert.deepEqual(
    ctrl.getResponse(getPairs).data.map((p) => ({ ...p, record: { ...p.record } })),
    [{ label: 'x', record: { id: '1', name: 'Ann' } }],
  );
  assert.deepEqual(ctrl.getState().entities.User['1'], { id: '1', name: 'Ann' });

  // A custom normalize that throws fails the request with an Error that
  // names the schema and where; the store keeps what it had.
  rows = [['y', { id: '2', name: 'Bob' }], 'oops'];
  const err = await failureOf(() => ctrl.fetch(getPairs));
  assert.ok(err instanceof Error);
  assert.match(err.message, /Pair/);
  assert.match(err.message, /\$\[1\]/);
  assert.match(err.message, /expected a \[label, record\] pair/);
  assert.equal(ctrl.getState().entities.User['2'], undefined);
  assert.equal(ctrl.getResponse(getPairs).data[0].label, 'x');
});

test('reads through a custom schema follow later changes to the records it unvisits', async () => {
  const getPairs = new df.Endpoint(async () => [['x', { id: '1', name: 'Ann' }]], { name: 'getPairs', schema: [new Pair(User)] });
  const getUser = new df.Endpoint(async () => ({ id: '1', name: 'Anna' }), { name: 'getUser', schema: User });
  const ctrl = new df.Controller({ now: fakeClock().now });
  await ctrl.fetch(getPairs);
  assert.equal(ctrl.getResponse(getPairs).data[0].record.name, 'Ann');
  await ctrl.fetch(getUser);
  assert.equal(ctrl.getResponse(getPairs).data[0].record.name, 'Anna');
});

test('a custom denormalize that throws fails the read with an Error naming the schema', () => {
  class Broken {
    normalize(input) {
      return input;
    }
    denormalize() {
      throw new RangeError('cannot read this');
    }
  }
  const err = (() => {
    try {
      df.denormalize({ b: new Broken() }, { b: 1 }, {});
    } catch (e) {
      return e;
    }
  })();
  assert.ok(err instanceof Error);
  assert.match(err.message, /Broken/);
  assert.match(err.message, /cannot read this/);
});
