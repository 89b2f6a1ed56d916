// MemoCache (docs/js-api.md, "MemoCache") and the forms of input state
// data-client hands in (issue 22): identity of denormalized data across
// separate reads, query and buildQueryKey over a state, a Symbol in a table
// as a deleted record, and ImmutableJS tables (a small Map-like fake here:
// the npm immutable package is not a dependency).

import assert from 'node:assert/strict';
import { importModule, loadDF, setup, test } from './harness.mjs';

setup();

const mod = await importModule();
const { Entity, MemoCache, schema } = mod;

class User extends Entity {
  id = '';
  name = '';
}
class Comment extends Entity {
  id = '';
  text = '';
  user = User.fromJS();
  static schema = { user: User };
}
class Article extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  comments = [];
  static schema = { author: User, comments: [Comment] };
}
class Cat extends Entity {
  id = '';
  name = '';
  username = '';
  static indexes = ['username'];
}

function tables() {
  return {
    Article: { 1: { id: '1', title: 'One', author: 'u1', comments: ['c1', 'c2'] } },
    Comment: { c1: { id: 'c1', text: 'first', user: 'u1' }, c2: { id: 'c2', text: 'second', user: 'u2' } },
    User: { u1: { id: 'u1', name: 'Ann' }, u2: { id: 'u2', name: 'Bob' } },
  };
}

// FakeImmutable stands for an ImmutableJS Map: get, getIn, toJS, entries
// and toObject, as MemoCache and the state encoder read one.
class FakeImmutable {
  #m;
  constructor(obj) {
    this.#m = new Map(Object.entries(obj));
  }
  get(k) {
    return this.#m.get(k);
  }
  getIn(path) {
    let v = this;
    for (const k of path) v = v instanceof FakeImmutable ? v.get(k) : v?.[k];
    return v;
  }
  entries() {
    return this.#m.entries();
  }
  toObject() {
    return Object.fromEntries(this.#m);
  }
  toJS() {
    const out = {};
    for (const [k, v] of this.#m) out[k] = v instanceof FakeImmutable ? v.toJS() : v;
    return out;
  }
}
const immutableTables = (t) => new FakeImmutable(Object.fromEntries(Object.entries(t).map(([k, table]) => [k, new FakeImmutable(table)])));
const deepImmutable = (o) =>
  o !== null && typeof o === 'object' && !Array.isArray(o)
    ? new FakeImmutable(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, deepImmutable(v)])))
    : o;

test('MemoCache: exported at top level and on the loaded API, the same class', async () => {
  const df = await loadDF();
  assert.equal(typeof MemoCache, 'function');
  assert.equal(df.MemoCache, MemoCache);
});

test('MemoCache.denormalize: the same input and entities give the very same data and paths', async () => {
  await loadDF();
  const memo = new MemoCache();
  const entities = tables();
  const input = { data: '1' };
  const first = memo.denormalize({ data: Article }, input, entities);
  const second = memo.denormalize({ data: Article }, input, entities);
  assert.equal(second.data, first.data);
  assert.deepEqual(second.paths, first.paths);
  assert.ok(first.data.data instanceof Article);
  assert.deepEqual(first.paths.map((p) => `${p.key}:${p.pk}`).sort(), ['Article:1', 'Comment:c1', 'Comment:c2', 'User:u1', 'User:u2']);
  // Another read of the entity (another schema, input) shares its object.
  assert.equal(memo.denormalize(Article, '1', entities).data, first.data.data);
  // Equal entities in a new tables object: the same objects still.
  assert.equal(memo.denormalize({ data: Article }, input, { ...entities }).data, first.data);
});

test('MemoCache.denormalize: a new input is a new result holding the same entities', async () => {
  await loadDF();
  const memo = new MemoCache();
  const entities = tables();
  const input = ['u1', 'u2'];
  const first = memo.denormalize([User], input, entities).data;
  const other = memo.denormalize([User], [...input], entities).data;
  assert.notEqual(other, first);
  assert.deepEqual(other, first);
  assert.equal(other[0], first[0]);
  assert.equal(other[1], first[1]);
});

test('MemoCache.denormalize: after one record changes only it and what holds it are new', async () => {
  await loadDF();
  const memo = new MemoCache();
  const entities = tables();
  const input = { data: '1' };
  const first = memo.denormalize({ data: Article }, input, entities).data.data;
  const next = { ...entities, Comment: { ...entities.Comment, c2: { ...entities.Comment.c2, text: 'edited' } } };
  const second = memo.denormalize({ data: Article }, input, next).data.data;
  assert.notEqual(second, first, 'the article holds the changed comment');
  assert.equal(second.comments[1].text, 'edited');
  assert.notEqual(second.comments[1], first.comments[1]);
  assert.equal(second.comments[0], first.comments[0], 'the sibling comment keeps its identity');
  assert.equal(second.author, first.author, 'the author keeps its identity');
  assert.equal(second.comments[1].user, first.comments[1].user, "the changed comment's user keeps its identity");
  // A record replaced by an equal new object is a change too (identity of
  // records decides, as data-client's).
  const third = memo.denormalize({ data: Article }, input, { ...next, User: { ...next.User, u1: { id: 'u1', name: 'Ann' } } }).data.data;
  assert.notEqual(third.author, second.author);
  assert.equal(third.comments[1], second.comments[1]);
});

test('MemoCache.denormalize: a nested entity missing, then present', async () => {
  await loadDF();
  const memo = new MemoCache();
  const empty = { ...tables(), User: {} };
  const input = { data: '1' };
  const first = memo.denormalize({ data: Article }, input, empty);
  assert.equal(first.data.data.author, undefined);
  assert.equal(memo.denormalize({ data: Article }, input, empty), first);
  const present = memo.denormalize({ data: Article }, input, tables());
  assert.notEqual(present.data, first.data);
  assert.equal(present.data.data.author.name, 'Ann');
});

test('MemoCache.denormalize: data without entities keeps its identity for the same input', async () => {
  await loadDF();
  const memo = new MemoCache();
  const input = { a: { n: 5 }, b: { s: 'x' } };
  const shape = { a: { n: 0 }, b: { s: '' } };
  const first = memo.denormalize(shape, input, {}).data;
  assert.deepEqual(first, input);
  assert.equal(memo.denormalize(shape, input, {}).data, first);
  assert.equal(memo.denormalize(null, input, {}).data, input, 'no schema: the input as it is');
  assert.equal(memo.denormalize({ data: Article }, undefined, {}).data, undefined);
});

test('MemoCache.query and buildQueryKey: by pk, by index, and undefined when the state lacks it', async () => {
  await loadDF();
  const state = {
    entities: { Cat: { 1: { id: '1', name: 'Milo', username: 'm' }, 2: { id: '2', name: 'Jake', username: 'j' } } },
    indexes: { Cat: { username: { m: '1', j: '2' } } },
  };
  const memo = new MemoCache();
  const byPK = memo.query(Cat, [{ id: '1' }], state);
  assert.ok(byPK.data instanceof Cat);
  assert.equal(byPK.data.name, 'Milo');
  assert.deepEqual(byPK.paths, [{ key: 'Cat', pk: '1' }]);
  assert.equal(memo.query(Cat, [{ username: 'j' }], state).data.name, 'Jake');
  assert.equal(memo.query(Cat, [{ username: 'nobody' }], state).data, undefined);
  assert.equal(memo.query(Cat, [{ id: '9' }], state).data, undefined);
  assert.equal(memo.query(Cat, ['2'], state).data, memo.query(Cat, [{ id: '2' }], state).data, 'one entity, one object');

  const shape = new schema.Object({ data: new schema.Object({ cat: Cat }), page: { next: '' }, list: [Cat] });
  assert.deepEqual(memo.buildQueryKey(shape, [{ id: '1' }], state), { data: { cat: '1' }, page: { next: '' }, list: undefined });
  assert.deepEqual(memo.buildQueryKey(shape, [{ id: '9' }], state), { data: { cat: undefined }, page: { next: '' }, list: undefined });
});

test('MemoCache.buildQueryKey: the same key object while what it looked up is unchanged', async () => {
  await loadDF();
  const memo = new MemoCache();
  const state = { entities: { Cat: {} }, indexes: {} };
  const shape = { cat: Cat };
  const first = memo.buildQueryKey(shape, ['5'], state);
  assert.deepEqual(first, { cat: undefined });
  assert.equal(memo.buildQueryKey(shape, ['5'], { ...state, indexes: { Cat: {} } }), first, 'indexes it did not read');
  assert.equal(memo.buildQueryKey(shape, ['5'], { ...state, entities: { Cat: { 6: { id: '6' } }, Other: {} } }), first, 'other entities');
  const found = memo.buildQueryKey(shape, ['5'], { ...state, entities: { Cat: { 5: { id: '5' } } } });
  assert.deepEqual(found, { cat: '5' });
  assert.equal(memo.buildQueryKey(shape, ['5'], state), first, 'back to the state it was built from');
});

test('deleted records: any Symbol in a table is a deleted record (data-client passes its own INVALID)', async () => {
  const df = await loadDF();
  class Food extends Entity {
    id = '';
  }
  class Menu extends Entity {
    id = '';
    food = Food.fromJS();
    static schema = { food: Food };
  }
  const theirINVALID = Symbol('INVALID');
  const entities = { Menu: { 1: { id: '1', food: '2' }, 2: theirINVALID }, Food: { 2: Symbol('ENTITY WAS DELETED') } };
  assert.equal(df.denormalize(Menu, '2', entities), df.INVALID, 'a deleted entity');
  assert.equal(df.denormalize(Menu, '1', entities), df.INVALID, 'an entity that requires a deleted one');
  assert.equal(new MemoCache().denormalize(Food, '2', entities).data, df.INVALID);
  // normalize replaces a deleted record of the store outright.
  const { entities: merged } = df.normalize(Food, { id: '2' }, [], { entities });
  assert.deepEqual({ ...merged.Food[2] }, { id: '2' });
});

test('ImmutableJS state: denormalize, MemoCache and ctrl.get read Maps of tables', async () => {
  const df = await loadDF();
  const plain = tables();
  const imm = immutableTables(plain);
  assert.deepEqual(df.denormalize(Article, '1', imm), df.denormalize(Article, '1', plain));
  const memo = new MemoCache();
  const first = memo.denormalize({ data: Article }, { data: '1' }, imm).data;
  assert.equal(first.data.author.name, 'Ann');
  const input = { data: '1' };
  const a = memo.denormalize({ data: Article }, input, imm).data;
  assert.equal(memo.denormalize({ data: Article }, input, imm).data, a, 'the same immutable tables: the same data');
  assert.equal(a.data, first.data, 'the same records: the same entity objects');
  // An immutable input reads as its plain form.
  assert.equal(memo.denormalize({ data: Article }, deepImmutable({ data: '1' }), imm).data.data, first.data);

  const state = {
    entities: immutableTables({ Cat: { 1: { id: '1', name: 'Milo', username: 'm' } } }),
    indexes: deepImmutable({ Cat: { username: { m: '1' } } }),
  };
  assert.equal(memo.query(Cat, [{ username: 'm' }], state).data.name, 'Milo');
  assert.equal(memo.query(Cat, [{ id: '1' }], state).data.name, 'Milo');
  assert.deepEqual(memo.buildQueryKey({ cat: Cat }, [{ id: '1' }], state), { cat: '1' });
  const ctrl = new df.Controller();
  assert.equal(ctrl.get(Cat, { id: '1' }, state)?.name, 'Milo');
  // normalize merges into an immutable store's tables, returning plain ones.
  const merged = df.normalize(Cat, { id: '1', name: 'Milo II' }, [], state);
  assert.equal(merged.entities.Cat[1].name, 'Milo II');
  assert.equal(merged.entities.Cat[1].username, 'm', 'merged with the stored record');
  ctrl.close?.();
});

test('MemoCache: a Collection read at the top and inside an entity is one array until it changes', async () => {
  await loadDF();
  class Todo extends Entity {
    id = '';
    title = '';
  }
  const userTodos = new schema.Collection([Todo], { argsKey: ({ userId }) => ({ userId }) });
  class Owner extends Entity {
    id = '';
    todos = [];
    static schema = { todos: new schema.Collection([Todo], { nestKey: (parent) => ({ userId: parent.id }) }) };
  }
  const pk = '{"userId":"1"}';
  const entities = {
    [userTodos.key]: { [pk]: ['5'] },
    Todo: { 5: { id: '5', title: 'five' } },
    Owner: { 1: { id: '1', todos: pk } },
  };
  const memo = new MemoCache();
  const top = memo.denormalize(userTodos, pk, entities, [{ userId: '1' }]).data;
  const owner = memo.denormalize(Owner, '1', entities).data;
  assert.equal(owner.todos, top);
  const state = { entities, indexes: {} };
  assert.equal(memo.buildQueryKey(userTodos, [{ userId: '1' }], state), pk);
  assert.equal(memo.buildQueryKey(userTodos, [{ userId: '2' }], state), undefined);
  assert.equal(memo.query(userTodos, [{ userId: '1' }], state).data, top);

  const pushed = { ...entities, [userTodos.key]: { [pk]: ['5', '6'] }, Todo: { ...entities.Todo, 6: { id: '6', title: 'six' } } };
  const after = memo.denormalize(userTodos, pk, pushed, [{ userId: '1' }]).data;
  assert.notEqual(after, top);
  assert.equal(after[0], top[0], 'the todo that did not change');
  assert.equal(memo.denormalize(Owner, '1', pushed).data.todos, after);
});

test('MemoCache.query of a schema.All: the same data while the state is the same, new entities only where added', async () => {
  await loadDF();
  const all = { results: new schema.All(Cat), nextPage: '' };
  const memo = new MemoCache();
  const state = { entities: { Cat: { 1: { id: '1', name: 'Milo' }, 2: { id: '2', name: 'Jake' } } }, indexes: {} };
  const first = memo.query(all, [], state).data;
  assert.equal(first.results.length, 2);
  assert.equal(memo.query(all, [], state).data, first);
  const more = { ...state, entities: { Cat: { ...state.entities.Cat, 3: { id: '3', name: 'Zeta' } } } };
  const second = memo.query(all, [], more).data;
  assert.notEqual(second, first);
  assert.equal(second.results.length, 3);
  assert.ok(second.results.includes(first.results[0]) && second.results.includes(first.results[1]), 'the cats already read keep their objects');
});

test('MemoCache.query of a schema.All (or a Query of one) of types never stored is INVALID (as data-client), of a stored type a list', async () => {
  const df = await loadDF();
  class Dog extends Entity {
    id = '';
  }
  const memo = new MemoCache();
  const state = { entities: { Other: { 1: { id: '1' } } }, indexes: {} };
  assert.equal(memo.query({ results: new schema.All(Cat) }, [], state).data, df.INVALID);
  assert.equal(memo.query(new schema.All({ cats: Cat, dogs: Dog }, 'type'), [], state).data, df.INVALID);
  const sorted = new schema.Query(new schema.All(Cat), (cats) => [...cats].reverse());
  assert.equal(memo.query(sorted, [], state).data, df.INVALID, 'a Query of it: process is not run');
  assert.equal(memo.query({ results: new schema.All(Cat) }, [], { entities: { Cat: { 1: { id: '1' } } }, indexes: {} }).data.results.length, 1);
});

test('MemoCache.buildQueryKey of a schema.Union: {id, schema} by the attribute in args, else the first member state holds', async () => {
  await loadDF();
  class Group extends Entity {
    id = '';
  }
  const state = { entities: { Cat: { 1: { id: '1' } }, Group: { 2: { id: '2' } } }, indexes: {} };
  const memo = new MemoCache();
  const byField = new schema.Union({ cats: Cat, groups: Group }, 'type');
  assert.deepEqual(memo.buildQueryKey(byField, [{ id: '2', type: 'groups' }], state), { id: '2', schema: 'groups' });
  assert.equal(memo.buildQueryKey(byField, [{ id: '2', type: 'cats' }], state), undefined, 'the named member does not hold it');
  assert.deepEqual(memo.buildQueryKey(byField, [{ id: '1' }], state), { id: '1', schema: 'cats' });
  assert.deepEqual(memo.buildQueryKey(byField, [{ id: '2' }], state), { id: '2', schema: 'groups' });
  const byFn = new schema.Union({ cats: Cat, groups: Group }, (input) => (input.groupname ? 'groups' : undefined));
  assert.deepEqual(memo.buildQueryKey(byFn, [{ id: '2' }], state), { id: '2', schema: 'groups' });
  assert.equal(memo.buildQueryKey(byFn, [{ id: '9' }], state), undefined);
  assert.equal(memo.buildQueryKey(byFn, [], state), undefined);
});

test("normalize: an entity's static indexes fill the indexes table, a changed value is INVALID, a missing field warns", async (t) => {
  const df = await loadDF();
  const first = df.normalize(
    [Cat],
    [
      { id: '1', name: 'Milo', username: 'm' },
      { id: '2', name: 'Jake', username: 'j' },
    ],
  );
  assert.deepEqual(first.indexes, { Cat: { username: { m: '1', j: '2' } } });
  const store = { ...first, indexes: { ...first.indexes, Other: { f: { a: '1' } } } };
  const second = df.normalize(Cat, { id: '2', name: 'Jake', username: 'jake' }, [], store);
  assert.deepEqual(second.indexes, { Cat: { username: { m: '1', j: df.INVALID, jake: '2' } }, Other: { f: { a: '1' } } });
  assert.deepEqual(store.indexes.Cat, { username: { m: '1', j: '2' } }, 'the store is not changed');

  class Taco extends Entity {
    id = '';
    static indexes = ['kind'];
  }
  const warn = t.mock.method(console, 'warn', () => {});
  assert.deepEqual(df.normalize(Taco, { id: '5' }).indexes, { Taco: { kind: {} } });
  assert.equal(warn.mock.callCount(), 1);
  assert.match(warn.mock.calls[0].arguments[0], /Index not found in entity[\s\S]*Index: kind[\s\S]*"id": "5"/);
});

test('MemoCache: bad arguments are a TypeError naming the method and what was given', async () => {
  await loadDF();
  const memo = new MemoCache();
  assert.throws(() => memo.query(Cat, { id: '1' }, { entities: {} }), /MemoCache\.query: args must be an array, got/);
  assert.throws(() => memo.query(Cat, [{ id: '1' }], null), /MemoCache\.query: state must be an object of \{entities, indexes\}.*got null/);
  assert.throws(() => memo.buildQueryKey({ cat: Cat }, ['1'], { indexes: {} }), /MemoCache\.buildQueryKey: state must be an object of \{entities, indexes\}/);
  // A read the engine refuses leaves the cache as it was.
  const entities = tables();
  const first = memo.denormalize(Article, '1', entities).data;
  assert.throws(() => memo.denormalize(new Map(), '1', entities), /denormalize: schema: a Map is not a schema/);
  assert.equal(memo.denormalize(Article, '1', entities).data, first);
});
