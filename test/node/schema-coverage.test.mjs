// Schema coverage and read shape as data-client has them (issue 22, items
// 5 and 6): Invalidate of a union, a polymorphic All, union members that
// are not entities, a Query over an object of schemas, and members read as
// undefined kept as keys.

import assert from 'node:assert/strict';
import { env, importModule, setup, test } from './harness.mjs';

setup();

const { Entity, RestEndpoint, Controller, schema } = await importModule();

class User extends Entity {
  id = '';
  name = '';
  type = 'users';
}
class Group extends Entity {
  id = '';
  name = '';
  type = 'groups';
}

// rig returns a controller with read(name, schema, data), which stores
// data as the response of an endpoint of schema and reads it back.
function rig() {
  const ctrl = new Controller();
  const endpoints = new Map();
  const endpoint = (name, s) => {
    if (!endpoints.has(name)) endpoints.set(name, new RestEndpoint({ path: `http://h.test/${name}`, schema: s }));
    return endpoints.get(name);
  };
  const read = async (name, s, data) => {
    const ep = endpoint(name, s);
    await ctrl.setResponse(ep, {}, data);
    return ctrl.getResponse(ep, {}).data;
  };
  return { ctrl, read };
}

const kinds = (list) => list.map((m) => [m.constructor.name, m.id]);

test('schema.Invalidate of a union deletes the entity its attribute names', async () => {
  await env();
  const { ctrl, read } = rig();
  await read(
    'all',
    [new schema.Union({ users: User, groups: Group }, 'type')],
    [
      { id: '1', type: 'users', name: 'Ann' },
      { id: '1', type: 'groups', name: 'Admins' },
      { id: '2', type: 'users', name: 'Bob' },
    ],
  );
  const byObject = new schema.Invalidate({ users: User, groups: Group }, 'type');
  const byUnion = new schema.Invalidate(new schema.Union({ users: User, groups: Group }, (v) => v.type));
  await read('del1', byObject, { id: '1', type: 'groups' });
  assert.equal(ctrl.get(Group, { id: '1' }), undefined, 'the group is deleted');
  assert.equal(ctrl.get(User, { id: '1' })?.name, 'Ann', 'the user of the same id is not');
  await read('del2', [byUnion], [{ id: '2', type: 'users' }]);
  assert.equal(ctrl.get(User, { id: '2' }), undefined);
  // A record no member takes is kept as it is, and deletes nothing.
  assert.deepEqual(await read('del3', byObject, { id: '1', type: 'robots' }), { id: '1', type: 'robots' });
  assert.equal(ctrl.get(User, { id: '1' })?.name, 'Ann');
  assert.throws(() => new schema.Invalidate({ notes: new schema.Object({}) }, 'type'), /schema\.Invalidate: member notes: .* is not an Entity/);
  ctrl.close();
});

test('a polymorphic schema.All lists each member entity table in member order', async () => {
  await env();
  const { ctrl, read } = rig();
  const union = new schema.Union({ groups: Group, users: User }, 'type');
  await read(
    'mixed',
    [union],
    [
      { id: '2', type: 'users' },
      { id: '1', type: 'groups' },
      { id: '1', type: 'users' },
    ],
  );
  assert.deepEqual(kinds(ctrl.get(new schema.All({ groups: Group, users: User }, 'type'))), [
    ['Group', '1'],
    ['User', '1'],
    ['User', '2'],
  ]);
  const sorted = new schema.Query(new schema.All(union), (all) => all.map((m) => `${m.type}:${m.id}`).sort());
  assert.deepEqual(ctrl.get(sorted), ['groups:1', 'users:1', 'users:2']);
  // As an endpoint's schema it normalizes as a list of the union.
  await read('more', new schema.All(union), [{ id: '3', type: 'users' }]);
  assert.equal(ctrl.get(User, { id: '3' })?.id, '3');
  assert.throws(() => new schema.All({ notes: new schema.Object({}) }, 'type'), /schema\.All: member notes: .* is not an Entity/);
  ctrl.close();
});

test('a union member may be a schema that is not an entity', async () => {
  await env();
  const { ctrl, read } = rig();
  const union = new schema.Union({ users: User, other: new schema.Object({ owner: User }) }, (v) => (v.type === 'users' ? 'users' : 'other'));
  const list = await read(
    'pets',
    [union],
    [
      { id: '1', type: 'users', name: 'Ann' },
      { name: 'fido', owner: { id: '2', type: 'users', name: 'Bob' } },
    ],
  );
  assert.equal(list[0] instanceof User, true);
  assert.equal(list[1] instanceof User, false);
  assert.equal(list[1].name, 'fido');
  assert.equal(list[1].owner instanceof User, true, 'its own schema is read');
  assert.equal(ctrl.get(User, { id: '2' })?.name, 'Bob', 'and normalized');
  ctrl.close();
});

test('ctrl.get and schema.Query read an object of queryable schemas', async () => {
  await env();
  const { ctrl, read } = rig();
  await read(
    'users',
    [User],
    [
      { id: '2', name: 'b' },
      { id: '1', name: 'a' },
    ],
  );
  const page = new schema.Object({ results: new schema.All(User), nextPage: '' });
  const got = ctrl.get(page);
  assert.deepEqual(
    got.results.map((u) => u.id),
    ['1', '2'],
  );
  assert.equal(got.nextPage, '');
  assert.equal(ctrl.get(page), got, 'memoized');
  const names = new schema.Query({ results: new schema.All(User), user: User }, ({ results, user }) => [results.length, user.name]);
  assert.deepEqual(ctrl.get(names, { id: '2' }), [2, 'b']);
  assert.equal(ctrl.get(names, { id: '9' }), undefined, 'a member that finds nothing: nothing');
  ctrl.close();
});

test('a member read as undefined is kept as a key (data-client reads {data: undefined})', async () => {
  await env();
  const { ctrl, read } = rig();
  class Post extends Entity {
    id = '';
    author = null;
    static schema = { author: User };
  }
  await read('post', Post, { id: 'p', author: { id: '7', name: 'Ann' } });
  await read('gone', new schema.Invalidate(User), { id: '7' });
  const post = await read('post2', { post: Post, extra: User }, { post: 'p', extra: null });
  assert.ok(Object.hasOwn(post.post, 'author'), 'the key is there');
  assert.equal(post.post.author, undefined);
  ctrl.close();
});

// spyWarn replaces console.warn while fn runs and returns what it was
// called with (first arguments).
function spyWarn(fn) {
  const calls = [];
  const original = console.warn;
  console.warn = (msg) => calls.push(msg);
  try {
    fn();
  } finally {
    console.warn = original;
  }
  return calls;
}

test('a union warns of a value no member takes: a record on a normalize, a value it cannot place on a read', async () => {
  const { df } = await env();
  const union = new schema.Union({ users: User, groups: Group }, 'type');
  let out;
  const normalizing = spyWarn(() => {
    out = df.normalize(
      [union],
      [
        { id: '1', type: 'users' },
        { type: 'robot', id: '9' },
      ],
    );
  });
  assert.deepEqual(
    out.result,
    [
      { id: '1', schema: 'users' },
      { type: 'robot', id: '9' },
    ],
    'kept as it is',
  );
  assert.deepEqual(normalizing, [
    `Schema attribute "robot" is not expected.\nExpected one of: "users", "groups"\n\nValue: {\n  "type": "robot",\n  "id": "9"\n}`,
  ]);

  const byFn = new schema.Union({ users: User, groups: Group }, (input) => (input.name ? 'users' : undefined));
  const nulls = new schema.Union({ users: User, groups: Group }, (input) => (input.name ? 'users' : null));
  assert.match(
    spyWarn(() => df.normalize([nulls], [{ id: '2' }]))[0] ?? '',
    /^Schema attribute null is not expected\./,
    'a non-string attribute shown as it was',
  );
  assert.match(spyWarn(() => df.normalize([byFn], [{ id: '2' }]))[0] ?? '', /^Schema attribute undefined is not expected\./);
  const entities = out.entities;
  assert.deepEqual(
    spyWarn(() => assert.deepEqual(df.denormalize(byFn, { id: '1' }, entities), { id: '1' })),
    ['TypeError: Unable to determine schema for UnionSchema\nValue: {\n  "id": "1"\n}.'],
  );
  assert.deepEqual(
    spyWarn(() => assert.equal(df.denormalize(byFn, '1', entities), '1')),
    ['TypeError: Unable to determine schema for UnionSchema\nValue: "1".'],
  );
  // A record never normalized is read by the member its attribute names,
  // with no warning; a normalized one as before.
  assert.deepEqual(
    spyWarn(() => {
      const read = df.denormalize(byFn, { id: '5', name: 'Ann' }, entities);
      assert.ok(read instanceof User);
      assert.equal(read.name, 'Ann');
      assert.ok(df.denormalize(union, { id: '1', schema: 'users' }, entities) instanceof User);
    }),
    [],
  );
  // A polymorphic schema.Array names itself.
  const list = new schema.Array({ users: User }, 'type');
  assert.deepEqual(
    spyWarn(() => df.denormalize(list, ['x'], entities)),
    ['TypeError: Unable to determine schema for ArraySchema\nValue: "x".'],
  );
});
