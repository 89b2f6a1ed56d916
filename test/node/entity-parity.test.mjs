// Entity and Controller details as data-client's own tests look at them
// (issue 22, points 9 and 10): the errors its Entity tests expect, pk and
// process given the endpoint's args, validate's error, ctrl.set with an
// updater, through a Collection and a Query, and normalize(schema, input,
// args, store). ctrl.get(schema, ...args, state) is tested in
// schema-parity.test.mjs. No request is made: data goes in through set,
// setResponse and normalize.

import assert from 'node:assert/strict';
import { importModule, loadDF, test } from './harness.mjs';

const mod = await importModule();
const { Collection, Entity, EntityMixin, Query } = mod;

// A local endpoint no test fetches: data goes in with setResponse.
let seq = 0;
function local(df, schema) {
  return new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:9', path: `/parity/${++seq}/:id`, schema });
}

// ---------------------------------------------------------------- point 9: errors

// Every normalize that data-client's Entity.test.ts and EntityMixin.test.ts
// expect to throw, with what our message must name. "serializes pk" and
// "pk is an object" passed silently before (a record stored under
// "undefined" or "[object Object]").
const refused = [
  ['id missing with no pk', () => [class MyEntity extends Entity {}, { slug: '1' }], ['MyEntity', 'no primary key', '"id"']],
  [
    'data does not include pk',
    () => [
      class MyEntity extends Entity {
        name = '';
        pk() {
          return this.name;
        }
      },
      { secondthing: 'hi' },
    ],
    ['MyEntity', 'no primary key', '"name"'],
  ],
  [
    'data does not include pk (serializes pk)',
    () => [
      class MyEntity extends Entity {
        name = '';
        pk() {
          return `${this.name}`;
        }
      },
      { secondthing: 'hi' },
    ],
    ['MyEntity', 'no primary key', 'pk() returned none'],
  ],
  [
    'pk is an object',
    () => [
      class MyEntity extends Entity {
        id = '';
        pk() {
          return { id: this.id };
        }
      },
      { id: '1' },
    ],
    ['MyEntity', 'pk() returned', 'not a string or a number'],
  ],
  [
    'no matching props',
    () => [
      class MyEntity extends Entity {
        name = '';
        pk() {
          return this.name;
        }
      },
      {},
    ],
    ['MyEntity', 'no primary key'],
  ],
  ['loads with array', () => [EntityMixin(class MyData {}, { pk: 'name' }), [{ name: 'hi' }, { name: 'hi' }]], ['MyData', 'expected a record', 'array']],
  ['no id and pk unspecified (EntityMixin)', () => [EntityMixin(class MyData {}), { username: 'bob' }], ['MyData', 'no primary key', '"id"']],
  ['no matching keys (EntityMixin pk field)', () => [EntityMixin(class MyData {}, { pk: 'e' }), { name: 0 }], ['MyData', 'no primary key', '"e"']],
  [
    'loads with string',
    () => [
      {
        data: class MyEntity extends Entity {
          name = '';
        },
      },
      'hibho',
    ],
    ['expected an object', 'string'],
  ],
  [
    'custom validator',
    () => [
      class MyEntity extends Entity {
        name = '';
        pk() {
          return this.name;
        }
        static validate(v) {
          if (v.nonexistantthing) return 'should not contain getter';
        }
      },
      { name: 'hoho', nonexistantthing: 'hi' },
    ],
    ['MyEntity', 'validate', 'should not contain getter'],
  ],
];

// One test: each case names itself when it fails. Most were refused
// already; "serializes pk" and "pk is an object" were not.
test("normalize refuses every input data-client's Entity tests expect a throw for, naming the entity and the place", async () => {
  const df = await loadDF();
  for (const [name, make, words] of refused) {
    const [schema, input] = make();
    assert.throws(
      () => df.normalize(schema, input),
      (err) => {
        assert.ok(err instanceof Error, `${name}: an Error`);
        for (const w of words) assert.ok(err.message.includes(w), `${name}: ${JSON.stringify(err.message)} names ${w}`);
        return true;
      },
      name,
    );
  }
  // And a class with no name and no static key, when its key is read.
  assert.throws(() => EntityMixin(class {}).key, /static key/);
  assert.throws(() => class extends Entity {}.key, /static key/);
});

test("validate's message is the Error's, with data-client's status 400; the store keeps its last good state", async () => {
  const df = await loadDF();
  class Priced extends Entity {
    id = '';
    price = 0;
    static validate(processed) {
      if (processed.price < 0) return 'price must not be negative';
    }
  }
  assert.throws(
    () => df.normalize(Priced, { id: '1', price: -1 }),
    (err) => {
      assert.equal(err.status, 400);
      assert.match(err.message, /^normalize Priced at \$: process: validate: price must not be negative$/);
      return true;
    },
  );
  const ctrl = new df.Controller();
  const ep = local(df, Priced);
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', price: 5 });
  const err = await ctrl.setResponse(ep, { id: '1' }, { id: '1', price: -5 }).then(
    () => assert.fail('setResponse should reject'),
    (e) => e,
  );
  assert.equal(err.status, 400);
  assert.match(err.message, /Priced/);
  assert.equal(ctrl.get(Priced, { id: '1' }).price, 5);
  ctrl.close();
});

// ---------------------------------------------------------------- point 9: args

test('pk and process get the endpoint args: [params] and [params, body]', async () => {
  const df = await loadDF();
  const seen = [];
  class Member extends Entity {
    id = '';
    org = '';
    pk(parent, key, args) {
      return `${this.id}@${args?.[0]?.org}`;
    }
    static process(input, parent, key, args) {
      seen.push(args);
      return { ...input, org: args?.[0]?.org };
    }
  }
  const ctrl = new df.Controller();
  const ep = local(df, Member);
  await ctrl.setResponse(ep, { id: 'ann', org: 'acme' }, { id: 'ann' });
  assert.deepEqual(seen.at(-1), [{ id: 'ann', org: 'acme' }]);
  assert.deepEqual(Object.keys(ctrl.getState().entities.Member), ['ann@acme']);
  assert.equal(ctrl.getResponse(ep, { id: 'ann', org: 'acme' }).data.org, 'acme');

  await ctrl.set(Member, { org: 'beta' }, { body: 1 }, { id: 'bob' });
  assert.deepEqual(seen.at(-1), [{ org: 'beta' }, { body: 1 }], 'ctrl.set gives its args');

  const { result } = df.normalize(Member, { id: 'cy' }, [{ org: 'gamma' }]);
  assert.equal(result, 'cy@gamma', "normalize's args");
  assert.deepEqual(df.normalize(Member, { id: 'dee' }).result, 'dee@undefined', 'no args: []');
  assert.deepEqual(seen.at(-1), []);
  ctrl.close();
});

test('a df.Entity pk function that declares args gets them', async () => {
  const df = await loadDF();
  const Scoped = df.Entity({ key: 'Scoped', defaults: { id: '' }, pk: (value, parent, key, args) => `${args[0].scope}/${value.id}` });
  assert.equal(df.normalize(Scoped, { id: '7' }, [{ scope: 'x' }]).result, 'x/7');
});

// ---------------------------------------------------------------- point 10: ctrl.set

class Taco extends Entity {
  id = '';
  type = '';
}

test('ctrl.set with a function sets what it returns from what ctrl.get reads now; nothing stored, nothing set', async () => {
  const df = await loadDF();
  const ctrl = new df.Controller();
  await ctrl.set(Taco, { id: '1' }, { id: '1', type: 'foo' });
  let given;
  await ctrl.set(Taco, { id: '1' }, (previous) => {
    given = previous;
    return { ...previous, type: 'bar' };
  });
  assert.ok(given instanceof Taco, 'the updater gets the read, an instance');
  assert.equal(given.type, 'foo');
  assert.equal(ctrl.get(Taco, { id: '1' }).type, 'bar');

  let called = false;
  await ctrl.set(Taco, { id: '2' }, () => {
    called = true;
    return { id: '2', type: 'x' };
  });
  assert.equal(called, false, 'not called when nothing is stored');
  assert.equal(ctrl.get(Taco, { id: '2' }), undefined);
  ctrl.close();
});

test('ctrl.set of a Collection, with a value and with an updater, stores the list for its args', async () => {
  const df = await loadDF();
  const list = new Collection([Taco]);
  const ctrl = new df.Controller();
  await ctrl.set(list, { type: 'foo' }, [{ id: '1', type: 'foo' }]);
  await ctrl.set(list, { type: 'foo' }, (tacos) => [...tacos, { id: '2', type: 'foo' }]);
  assert.deepEqual(
    ctrl.get(list, { type: 'foo' }).map((t) => t.id),
    ['1', '2'],
  );
  assert.equal(ctrl.get(list, { type: 'bar' }), undefined, 'other args: another list');
  ctrl.close();
});

test('ctrl.set of a Query writes through the schema it reads; its updater gets the derived value', async () => {
  const df = await loadDF();
  const list = new Collection([Taco]);
  const count = new Query(list, (tacos) => tacos.length);
  const ctrl = new df.Controller();
  await ctrl.set(count, { type: 'x' }, [{ id: '3', type: 'x' }]);
  assert.equal(ctrl.get(count, { type: 'x' }), 1);
  let given;
  await ctrl.set(count, { type: 'x' }, (n) => {
    given = n;
    return [
      { id: '3', type: 'x' },
      { id: '4', type: 'x' },
    ];
  });
  assert.equal(given, 1);
  assert.equal(ctrl.get(count, { type: 'x' }), 2);
  ctrl.close();
});

// ---------------------------------------------------------------- point 10: normalize with a store

test('normalize(schema, input, args, store) merges into the store: new tables, a kept record the same object', async () => {
  const df = await loadDF();
  class Frozen extends Entity {
    id = '';
    title = '';
    static shouldUpdate() {
      return false;
    }
  }
  const first = df.normalize(Frozen, { id: '1', title: 'hi' });
  assert.deepEqual(first.entities, { Frozen: { 1: { id: '1', title: 'hi' } } });
  assert.equal(first.entitiesMeta.Frozen['1'].expiresAt, Infinity);
  assert.equal(first.entitiesMeta.Frozen['1'].fetchedAt, 0);
  assert.deepEqual(first.indexes, {});
  const second = df.normalize(Frozen, { id: '1', title: 'second' }, [], first);
  assert.equal(second.entities.Frozen['1'], first.entities.Frozen['1'], 'shouldUpdate false keeps the stored object');
  assert.notEqual(second.entities, first.entities, 'new tables: the store given is not changed');

  // The default merge: stored members stay, incoming ones win.
  const a = df.normalize(Taco, { id: '1', type: 'foo' });
  const b = df.normalize(Taco, [{ id: '2', type: 'bar' }].at(0), [], { entities: { ...a.entities, Other: { x: { id: 'x' } } } });
  assert.deepEqual(Object.keys(b.entities.Taco).sort(), ['1', '2']);
  assert.equal(b.entities.Taco['1'], a.entities.Taco['1']);
  assert.deepEqual(b.entities.Other, { x: { id: 'x' } }, 'tables the data does not touch are kept');
  const c = df.normalize(Taco, { id: '1', alias: 'f' }, [], b);
  assert.deepEqual(c.entities.Taco['1'], { id: '1', type: 'foo', alias: 'f' });

  // A df.Entity's merge rules apply as well.
  const Counter = df.Entity({ key: 'Counter', defaults: { id: '', n: 0 }, merge: (x, y) => ({ ...x, ...y, n: x.n + y.n }) });
  const one = df.normalize(Counter, { id: 'c', n: 1 });
  assert.equal(df.normalize(Counter, { id: 'c', n: 2 }, [], one).entities.Counter.c.n, 3);

  assert.throws(() => df.normalize(Taco, { id: '1' }, { id: '1' }), /normalize: args must be an array/);
  assert.throws(() => df.normalize(Taco, { id: '1' }, [], 'store'), /normalize: store must be an object/);
});

test("normalize's args store a Collection under them", async () => {
  const df = await loadDF();
  const list = new Collection([Taco]);
  const { entities } = df.normalize(list, [{ id: '1', type: 'foo' }], [{ type: 'foo' }]);
  const tables = Object.keys(entities).filter((k) => k !== 'Taco');
  assert.equal(tables.length, 1, 'one collection table');
  assert.deepEqual(Object.keys(entities[tables[0]]), ['{"type":"foo"}']);
});
