// How entity classes are read (issue 22, point 9; data-client's Entity.test
// "denormalizes to undefined when validate() returns string" and "large
// cross-type bidirectional entity graphs"): validate applies to stored
// records on a read too, and static maxEntityDepth lowers the depth at
// which a read leaves nested entities as keys, which a read reports once
// with console.error. No request is made.

import assert from 'node:assert/strict';
import { importModule, loadDF, test } from './harness.mjs';

const { Entity, schema } = await importModule();

test('validate refuses a stored record on a read: INVALID, left out of a list, what requires it INVALID', async () => {
  const df = await loadDF();
  class Taco extends Entity {
    id = '';
    name = '';
    static validate(record) {
      if (!Object.hasOwn(record, 'name')) return 'no name';
    }
  }
  class Menu extends Entity {
    id = '';
    taco = Taco.fromJS();
    side = null;
    static schema = { taco: Taco, side: Taco };
  }
  const entities = {
    Taco: { 1: { id: '1' }, 2: { id: '2', name: 'al pastor' } },
    Menu: { a: { id: 'a', taco: '1' }, b: { id: 'b', taco: '2', side: '1' } },
  };
  assert.equal(df.denormalize(Taco, '1', entities), df.INVALID);
  const two = df.denormalize(Taco, '2', entities);
  assert.ok(two instanceof Taco);
  assert.equal(two.name, 'al pastor');
  assert.deepEqual(
    df.denormalize([Taco], ['1', '2'], entities).map((t) => t.id),
    ['2'],
  );
  assert.equal(df.denormalize(Menu, 'a', entities), df.INVALID, 'a required (truthy default) field refused');
  const b = df.denormalize(Menu, 'b', entities);
  assert.equal(b.side, undefined, 'an optional field refused reads as undefined');
  assert.equal(b.taco.name, 'al pastor');
});

test('a record validate refuses on a read is asked again once it changes; a throw is the read’s error', async () => {
  const df = await loadDF();
  const asked = [];
  class Note extends Entity {
    id = '';
    body = '';
    static validate(record) {
      asked.push(record.id);
      if (record.body === 'throw') throw new Error('validate failed here');
      if (!record.body) return 'no body';
    }
  }
  const entities = { Note: { 1: { id: '1' }, 2: { id: '2', body: 'throw' } } };
  assert.equal(df.denormalize(Note, '1', entities), df.INVALID);
  assert.equal(df.denormalize(Note, '1', { Note: { 1: { id: '1', body: 'hello' } } }).body, 'hello');
  assert.throws(() => df.denormalize(Note, '2', entities), /Note.*validate failed here/s);
  assert.ok(asked.includes('2'));
});

// chain returns the tables of a department → building → department chain
// of n of each.
function chain(n, dept = 'Dept', bldg = 'Bldg') {
  const tables = { [dept]: {}, [bldg]: {} };
  for (let i = 0; i < n; i++) {
    tables[dept][`d${i}`] = { id: `d${i}`, buildings: [`b${i}`] };
    tables[bldg][`b${i}`] = { id: `b${i}`, departments: i < n - 1 ? [`d${i + 1}`] : [] };
  }
  return tables;
}

// spyError replaces console.error while fn runs and returns its calls.
function spyError(fn) {
  const calls = [];
  const original = console.error;
  console.error = (...args) => calls.push(args);
  try {
    fn();
  } finally {
    console.error = original;
  }
  return calls;
}

test('static maxEntityDepth cuts a read at that depth, nested entities left as keys, reported once', async () => {
  const df = await loadDF();
  class Dept extends Entity {
    id = '';
    buildings = [];
    static maxEntityDepth = 10;
  }
  class Bldg extends Entity {
    id = '';
    departments = [];
    static maxEntityDepth = 10;
    static schema = { departments: [Dept] };
  }
  Dept.schema = { buildings: new schema.Array(Bldg) };
  let read;
  const calls = spyError(() => {
    read = df.denormalize(Dept, 'd0', chain(50));
  });
  let node = read;
  for (let i = 0; i < 5; i++) {
    assert.ok(node instanceof Dept, `hop ${i}`);
    node = node.buildings[0].departments[0];
  }
  // d5 is the tenth entity from the top: its record, buildings as keys.
  assert.ok(node instanceof Dept);
  assert.deepEqual(node.buildings, ['b5']);
  assert.equal(calls.length, 1);
  assert.match(String(calls[0][0]), /^Entity depth limit of 10 reached for "Dept" entity\./);
});

test('without maxEntityDepth a deep chain is cut at 128 and the report says how to set it', async () => {
  const df = await loadDF();
  class Department extends Entity {
    id = '';
    buildings = [];
  }
  class Building extends Entity {
    id = '';
    departments = [];
    static schema = { departments: [Department] };
  }
  Department.schema = { buildings: [Building] };
  let read;
  const calls = spyError(() => {
    read = df.denormalize(Department, 'd0', chain(1500, 'Department', 'Building'));
  });
  let node = read;
  for (let i = 0; i < 64; i++) node = node.buildings[0].departments[0];
  assert.deepEqual(node.buildings, ['b64']);
  assert.equal(calls.length, 1);
  assert.match(String(calls[0][0]), /Entity depth limit of 128 reached for "Department" entity\..*maxEntityDepth/s);
  // A chain within the limit reads whole, with no report.
  assert.deepEqual(
    spyError(() => df.denormalize(Department, 'd0', chain(5, 'Department', 'Building'))),
    [],
  );
});

test('static maxEntityDepth must be a positive integer', async () => {
  const df = await loadDF();
  for (const bad of [0, -1, 2.5, '10', null]) {
    class Bad extends Entity {
      id = '';
      static maxEntityDepth = bad;
    }
    assert.throws(() => df.denormalize(Bad, '1', { Bad: { 1: { id: '1' } } }), /Bad: static maxEntityDepth must be a positive integer/);
  }
});

test('a field whose default is undefined is read as undefined, an own member as in an instance', async () => {
  const df = await loadDF();
  class Taco extends Entity {
    id = '';
    name = '';
    alias = undefined;
  }
  const read = df.denormalize(Taco, '1', { Taco: { 1: { id: '1', name: 'foo' } } });
  assert.deepEqual(Object.keys(read), ['id', 'name', 'alias'], 'in the order of the defaults');
  assert.ok(Object.hasOwn(read, 'alias'));
  assert.equal(read.alias, undefined);
  assert.equal(df.denormalize(Taco, '2', { Taco: { 2: { id: '2', name: 'bar', alias: 'baz' } } }).alias, 'baz');
  // Through a controller, and in JSON as before.
  const ctrl = new df.Controller();
  ctrl.set(Taco, { id: '3' }, { id: '3', name: 'qux' });
  const got = ctrl.get(Taco, { id: '3' });
  assert.ok(Object.hasOwn(got, 'alias'));
  assert.equal(JSON.stringify(got), '{"id":"3","name":"qux"}');
  ctrl.close();
});

test('validateRequired: a record lacking a required field is refused on normalize and read as INVALID', async () => {
  const df = await loadDF();
  const { validateRequired } = await importModule();
  assert.equal(validateRequired({ a: 1, b: undefined }, { a: 0, b: '' }), undefined, 'own members count, even undefined');
  assert.equal(validateRequired({ a: 1 }, { a: 0, b: '' }), 'missing required field "b"');
  class Article extends Entity {
    id = '';
    title = '';
    body = '';
    static validate(record) {
      return validateRequired(record, Article.defaults);
    }
  }
  // A list gave a partial record: the detail read is INVALID (fetch it).
  const entities = { Article: { 1: { id: '1', title: 'x' }, 2: { id: '2', title: 'y', body: 'z' } } };
  assert.equal(df.denormalize(Article, '1', entities), df.INVALID);
  assert.equal(df.denormalize(Article, '2', entities).body, 'z');
  assert.throws(() => df.normalize(Article, { id: '3', title: 'no body' }), /validate: missing required field "body"/);
});
