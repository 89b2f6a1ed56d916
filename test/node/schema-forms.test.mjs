// data-client's forms of normalize's tables and of the list schemas
// (issue 22, item 5): a deleted record is data-client's INVALID symbol in
// the tables normalize returns and denormalize takes; new schema.Array and
// new schema.Values take a map of schemas and a schemaAttribute (a
// polymorphic list or map, as a Union's); the schema classes are named as
// data-client's (Invalidate, Query).

import assert from 'node:assert/strict';
import { env, importModule, setup, test } from './harness.mjs';

setup();

const { Entity } = await importModule();

test('normalize gives a deleted record as INVALID, and denormalize takes INVALID as deleted', async () => {
  const { df } = await env();
  class User extends Entity {
    id = '';
    name = '';
  }
  const del = df.normalize(new df.schema.Invalidate(User), { id: '1' });
  assert.equal(del.entities.User['1'], df.INVALID, 'the deleted record is INVALID');
  assert.equal(df.denormalize(User, '1', del.entities), df.INVALID, 'a deleted entity reads as INVALID');
  const tables = { User: { 1: df.INVALID, 2: { id: '2', name: 'b' } } };
  assert.deepEqual(
    df.denormalize([User], ['1', '2'], tables).map((u) => u.id),
    ['2'],
    'a list drops the deleted member',
  );
  assert.equal(df.denormalize({ user: User }, { user: '1' }, tables), df.INVALID, 'an object that requires it is INVALID');
  assert.deepEqual(Object.keys(tables.User), ['1', '2'], 'the caller’s tables are not changed');
  assert.equal(tables.User['1'], df.INVALID);
});

test('schema.Array and schema.Values of a map of schemas and a schemaAttribute are polymorphic', async () => {
  const { df } = await env();
  class Cat extends Entity {
    id = '';
    type = '';
  }
  class Dog extends Entity {
    id = '';
    type = '';
  }
  const list = new df.schema.Array({ cats: Cat, dogs: Dog }, (input) => `${input.type}s`);
  const { result, entities } = df.normalize(list, [
    { id: '1', type: 'cat' },
    { id: '1', type: 'dog' },
  ]);
  assert.deepEqual(result, [
    { id: '1', schema: 'cats' },
    { id: '1', schema: 'dogs' },
  ]);
  assert.deepEqual(Object.keys(entities).sort(), ['Cat', 'Dog']);
  assert.deepEqual(
    df.denormalize(list, result, entities).map((x) => x.constructor.name),
    ['Cat', 'Dog'],
  );

  const map = new df.schema.Values({ cats: Cat, dogs: Dog }, 'type');
  const byName = df.normalize(map, { fluffy: { id: '1', type: 'cats' }, fido: { id: '1', type: 'dogs' } });
  assert.deepEqual(byName.result, { fluffy: { id: '1', schema: 'cats' }, fido: { id: '1', schema: 'dogs' } });
  const back = df.denormalize(map, byName.result, byName.entities);
  assert.ok(back.fluffy instanceof Cat);
  assert.ok(back.fido instanceof Dog);

  assert.throws(() => new df.schema.Array({ cats: Cat }, 42), /schema\.Array: schemaAttribute must be a field name or a function/);
});

test("the schema classes' names are data-client's", async () => {
  const { df } = await env();
  assert.equal(df.schema.Invalidate.name, 'Invalidate');
  assert.equal(df.schema.Query.name, 'Query');
  assert.equal(df.schema.All.name, 'AllSchema');
  assert.equal(df.schema.Array.name, 'ArraySchema');
});

test('normalize and denormalize without a schema pass the data through; normalize refuses null for a schema that expects an object', async () => {
  const { df } = await env();
  class Taco extends Entity {
    id = '';
  }
  const input = { a: 1 };
  for (const none of [undefined, null]) {
    const out = df.normalize(none, input);
    assert.equal(out.result, input, `normalize(${none}) keeps the data as it is`);
    assert.deepEqual(out.entities, {});
    assert.equal(df.denormalize(none, input, {}), input, `denormalize(${none}) gives the data as it is`);
  }
  assert.equal(df.normalize('', 'bob').result, 'bob', 'a primitive schema keeps a value of its type');
  assert.equal(df.denormalize('', 'bob', {}), 'bob');
  for (const [schema, data] of [
    [Taco, null],
    [Taco, undefined],
    [{ data: Taco }, null],
    [[Taco], undefined],
  ]) {
    assert.throws(() => df.normalize(schema, data), /normalize: data: expected an object for the schema, got (null|undefined)/);
  }
  assert.equal(String(df.normalize(new df.schema.Invalidate(Taco), '5').result), '5', 'an Invalidate takes the pk as it is');
});

test('denormalize takes a Symbol that says INVALID in the tables as a deleted record', async () => {
  const { df } = await env();
  class Taco extends Entity {
    id = '';
  }
  assert.equal(df.denormalize(Taco, '1', { Taco: { 1: Symbol('ENTITY WAS INVALID') } }), df.INVALID);
});

test("a Collection's key and pk are data-client's, and name where normalize stores it", async () => {
  const { df } = await env();
  class User extends Entity {
    id = '';
    group = '';
  }
  class Group extends Entity {
    id = '';
  }
  const list = new df.schema.Collection([User]);
  assert.equal(list.key, '[User]');
  assert.equal(new df.schema.Collection(new df.schema.Values(User)).key, '{User}');
  assert.equal(new df.schema.Collection([new df.schema.Union({ users: User, groups: Group }, 'type')]).key, '[User;Group]');
  assert.equal(new df.schema.Collection([User], { key: 'mine' }).key, 'mine', 'a key given is kept');
  assert.equal(list.pk(undefined, undefined, '', []), '{}');
  assert.equal(list.pk(undefined, undefined, '', [{ userId: 5, b: true, a: 'x' }]), '{"a":"x","b":"true","userId":"5"}');
  const byArgs = new df.schema.Collection([User], { argsKey: ({ group }) => ({ group }) });
  assert.equal(byArgs.pk(undefined, undefined, '', [{ group: 'g', page: 2 }]), '{"group":"g"}');
  const nested = new df.schema.Collection([User], { nestKey: (parent) => ({ group: parent.id }) });
  assert.equal(nested.pk(undefined, { id: 'g1' }, 'users', [], true), '{"group":"g1"}', 'nestKey for a collection in an entity');

  // normalize stores each under that key and pk, and denormalize reads them back.
  for (const [c, args] of [
    [list, [{ userId: 5 }]],
    [new df.schema.Collection(new df.schema.Values(User)), [{ a: 'x' }]],
  ]) {
    const data = c === list ? [{ id: '1' }] : { one: { id: '1' } };
    const { result, entities } = df.normalize(c, data, args);
    const pk = c.pk(undefined, undefined, '', args);
    assert.equal(result, pk, `${c.key}: the result is the pk`);
    assert.ok(entities[c.key]?.[pk], `${c.key}: stored under its key and pk`);
  }
});

test("normalize by a Collection's push, unshift, remove, assign and move changes the store's matching collections", async () => {
  const { df } = await env();
  class Todo extends Entity {
    id = '';
    title = '';
    userId = '';
  }
  const todos = new df.schema.Collection([Todo]);
  const store = df.normalize(todos, [{ id: '5', userId: '1' }], [{ userId: '1' }]);
  const other = df.normalize(todos, [{ id: '7', userId: '2' }], [{ userId: '2' }], store);
  const one = todos.pk(undefined, undefined, '', [{ userId: '1' }]);
  const two = todos.pk(undefined, undefined, '', [{ userId: '2' }]);
  const lists = (s) => s.entities[todos.key];

  const pushed = df.normalize(todos.push, [{ id: '10', title: 'new', userId: '1' }], [{ userId: '1' }], other);
  assert.deepEqual(pushed.result, ['10']);
  assert.deepEqual(lists(pushed)[one], ['5', '10'], 'appended to the matching collection');
  assert.deepEqual(lists(pushed)[two], ['7'], 'the other is as it was');
  assert.equal(pushed.entities.Todo['10'].title, 'new');
  assert.deepEqual(lists(other)[one], ['5'], 'the store given is not changed');

  assert.deepEqual(lists(df.normalize(todos.unshift, { id: '11', userId: '1' }, [{ userId: '1' }], pushed))[one], ['11', '5', '10']);
  assert.deepEqual(lists(df.normalize(todos.remove, { id: '5' }, [{ userId: '1' }], pushed))[one], ['10']);
  const moved = df.normalize(todos.move, { id: '10', userId: '2' }, [{ id: '10' }, { userId: '2' }], pushed);
  assert.deepEqual([lists(moved)[one], lists(moved)[two]], [['5'], ['7', '10']], 'moved by its new values');

  const byName = new df.schema.Collection(new df.schema.Values(Todo));
  const map = df.normalize(byName, { a: { id: '1' } }, [{ userId: '1' }]);
  const assigned = df.normalize(byName.assign, { b: { id: '2' } }, [{ userId: '1' }], map);
  assert.deepEqual(assigned.entities[byName.key][byName.pk(undefined, undefined, '', [{ userId: '1' }])], { a: '1', b: '2' });
  assert.equal(todos.push, todos.push, 'each adder is made once');
});

test('ctrl.get over a data-client state skips records that are undefined or INVALID', async () => {
  const { df } = await env();
  class Cat extends Entity {
    id = '';
    name = '';
  }
  const ctrl = new df.Controller();
  const state = { entities: { Cat: { 1: { id: '1', name: 'Milo' }, 2: { id: '2' }, 3: undefined, 4: df.INVALID } }, indexes: {} };
  const cats = ctrl.get(new df.schema.All(Cat), state);
  assert.deepEqual(
    cats.map((c) => c.id),
    ['1', '2'],
  );
  ctrl.close?.();
});

test("EntityMixin takes the base class's static key unless options or the subclass give one", async () => {
  const { EntityMixin } = await importModule();
  class MyData {
    id = '';
    static key = 'MYKEY';
  }
  assert.equal(EntityMixin(MyData).key, 'MYKEY');
  assert.equal(EntityMixin(MyData, { key: 'OVERRIDE' }).key, 'OVERRIDE');
  class Sub extends EntityMixin(MyData, { key: 'OVERRIDE' }) {
    static key = 'SUB';
  }
  assert.equal(Sub.key, 'SUB');
  class Plain {
    id = '';
  }
  assert.equal(EntityMixin(Plain).key, 'Plain', 'no key: the class name');
});

test('ctrl.get of an object of queryables reads entity instances, as a top-level All does', async () => {
  const { df } = await env();
  class Cat extends Entity {
    id = '';
    name = '';
  }
  const ctrl = new df.Controller();
  const state = { entities: { Cat: { 1: { id: '1', name: 'Milo' } } }, indexes: {} };
  assert.ok(ctrl.get(new df.schema.All(Cat), state)[0] instanceof Cat);
  for (const s of [{ results: new df.schema.All(Cat) }, new df.schema.Object({ results: new df.schema.All(Cat) })]) {
    const got = ctrl.get(s, state);
    assert.ok(got.results[0] instanceof Cat, 'a member All reads instances');
    assert.equal(got.results[0].name, 'Milo');
  }
});
