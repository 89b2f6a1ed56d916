// schema.All, schema.Query and ctrl.get (docs/js-api.md, "Collections and
// queries"): derived data read from the cache with no request, memoized by
// the identity of what it read.

import assert from 'node:assert/strict';
import { loadDF, setup, test } from './harness.mjs';

setup();

const BASE = 'http://query.invalid';

async function rig() {
  const df = await loadDF();
  const User = df.Entity({ key: 'QUser', defaults: { id: undefined, name: '' } });
  const Article = df.Entity({
    key: 'QArticle',
    defaults: { id: undefined, title: '', published: false, author: null },
    schema: { author: User },
  });
  // Requests would fail: everything here is stored with setResponse.
  const fetch = () => Promise.reject(new Error('no request expected'));
  const ctrl = new df.Controller({ fetch });
  const list = new df.RestEndpoint({ urlPrefix: BASE, path: '/articles', schema: [Article] });
  const users = new df.RestEndpoint({ urlPrefix: BASE, path: '/users', schema: [User] });
  const remove = new df.RestEndpoint({ urlPrefix: BASE, path: '/articles/:id', method: 'DELETE', schema: new df.schema.Invalidate(Article) });
  let calls = 0;
  const published = new df.schema.Query(new df.schema.All(Article), (entries) => {
    calls++;
    const articles = entries.filter((a) => a.published).sort((a, b) => a.title.localeCompare(b.title));
    return { count: articles.length, articles };
  });
  return { df, ctrl, User, Article, list, users, remove, published, calls: () => calls };
}

test('ctrl.get of a Query: the same object, processed once, while unchanged; derived again after a change', async () => {
  const { ctrl, list, users, published, calls } = await rig();
  await ctrl.setResponse(list, {}, [
    { id: 1, title: 'b', published: true },
    { id: 2, title: 'a', published: true },
    { id: 3, title: 'c' },
  ]);
  const first = ctrl.get(published);
  assert.equal(first.count, 2);
  assert.deepEqual(
    first.articles.map((a) => a.id),
    ['2', '1'].map(Number),
  );
  assert.equal(ctrl.get(published), first, 'unchanged: the same object');
  assert.equal(calls(), 1, 'process ran once');

  await ctrl.setResponse(users, {}, [{ id: 'u1', name: 'Ann' }]);
  assert.equal(ctrl.get(published), first, 'another entity type changed: the same object');
  assert.equal(calls(), 1, 'and not processed again');

  await ctrl.setResponse(list, {}, [
    { id: 1, title: 'b', published: true },
    { id: 2, title: 'a', published: true },
    { id: 3, title: '0', published: true },
  ]);
  const second = ctrl.get(published);
  assert.notEqual(second, first);
  assert.equal(calls(), 2);
  assert.deepEqual(
    second.articles.map((a) => a.title),
    ['0', 'a', 'b'],
  );
  assert.equal(second.articles[1], first.articles[0], 'an unchanged article keeps its identity');
});

test('schema.All after create and delete; args reach process with a memo of their own', async () => {
  const { df, ctrl, Article, list, remove } = await rig();
  const all = new df.schema.All(Article);
  assert.equal(ctrl.get(all), undefined, "nothing of its type ever stored: nothing to list yet, as data-client's");
  await ctrl.setResponse(list, {}, [{ id: 10, title: 'x', author: { id: 'u1', name: 'Ann' } }, { id: 2 }]);
  const before = ctrl.get(all);
  assert.deepEqual(
    before.map((a) => a.id),
    [2, 10],
    'in pk order',
  );
  assert.equal(before[1].author.name, 'Ann', 'nested entities read');
  assert.equal(ctrl.get(all), before);

  await ctrl.setResponse(list, { page: 2 }, [{ id: 7, title: 'created' }]);
  const created = ctrl.get(all);
  assert.deepEqual(
    created.map((a) => a.id),
    [2, 7, 10],
  );
  assert.equal(created[0], before[0], 'unchanged entities keep their identity');

  await ctrl.setResponse(remove, { id: 2 }, { id: 2 });
  assert.deepEqual(
    ctrl.get(all).map((a) => a.id),
    [7, 10],
    'a deleted entity is left out',
  );

  const byAuthor = new df.schema.Query(all, (entries, { author }) => entries.filter((a) => a.author?.id === author));
  const ann = ctrl.get(byAuthor, { author: 'u1' });
  assert.deepEqual(
    ann.map((a) => a.id),
    [10],
  );
  assert.deepEqual(ctrl.get(byAuthor, { author: 'nobody' }), []);
  assert.equal(ctrl.get(byAuthor, { author: 'u1' }), ann, 'the same object for the same args');
});

test('ctrl.get of an Entity by pk, directly and through a Query', async () => {
  const { df, ctrl, Article, list } = await rig();
  let calls = 0;
  const title = new df.schema.Query(Article, (a) => {
    calls++;
    return a.title.toUpperCase();
  });
  assert.equal(ctrl.get(Article, { id: 1 }), undefined, 'not stored');
  assert.equal(ctrl.get(title, { id: 1 }), undefined);
  assert.equal(calls, 0, 'nothing to process');
  await ctrl.setResponse(list, {}, [
    { id: 1, title: 'one' },
    { id: 2, title: 'two' },
  ]);
  const one = ctrl.get(Article, { id: '1' });
  assert.equal(one.title, 'one');
  assert.equal(one, ctrl.getResponse(list, {}).data[0], 'the very object of the list');
  assert.equal(ctrl.get(title, { id: 1 }), 'ONE');
  await ctrl.setResponse(list, {}, [
    { id: 1, title: 'one' },
    { id: 2, title: 'TWO' },
  ]);
  assert.equal(ctrl.get(Article, { id: 1 }), one, 'another article changed: the same object');
  assert.equal(ctrl.get(title, { id: 1 }), 'ONE');
  assert.equal(calls, 1);
});

test('ctrl.get of a Collection: the list stored for the params given, and a Query over it', async () => {
  const { df, ctrl, Article } = await rig();
  const todos = new df.schema.Collection([Article]);
  const byUser = new df.RestEndpoint({ urlPrefix: BASE, path: '/by-user', schema: todos });
  await ctrl.setResponse(byUser, { userId: 1 }, [
    { id: 1, title: 'b' },
    { id: 2, title: 'a' },
  ]);
  const list = ctrl.get(todos, { userId: '1' });
  assert.deepEqual(
    list.map((a) => a.id),
    [1, 2],
    'the list stored for {userId: 1} (args compare as strings)',
  );
  assert.equal(list, ctrl.getResponse(byUser, { userId: 1 }).data, 'the very list the endpoint reads');
  assert.equal(ctrl.get(todos, { userId: 2 }), undefined, 'nothing stored for other args');
  let calls = 0;
  const sorted = new df.schema.Query(todos, (entries) => {
    calls++;
    return entries.map((a) => a.title).sort();
  });
  const first = ctrl.get(sorted, { userId: 1 });
  assert.deepEqual(first, ['a', 'b']);
  assert.equal(ctrl.get(sorted, { userId: 1 }), first, 'memoized');
  assert.equal(calls, 1);
});

test('bad input: a schema that is not queryable is a TypeError naming it; a bad process; an entity read without params', async () => {
  const { df, ctrl, Article, list } = await rig();
  assert.throws(() => ctrl.get([Article]), { name: 'TypeError', message: /get: .*is not queryable/ });
  assert.throws(() => ctrl.get(new df.schema.Values(Article)), { name: 'TypeError', message: /is not queryable/ });
  assert.throws(() => new df.schema.Query([Article], (x) => x), { name: 'TypeError', message: /schema.Query: .*is not queryable/ });
  assert.throws(() => new df.schema.Query(Article, 'sort'), { name: 'TypeError', message: /process must be a function/ });
  assert.throws(() => new df.schema.All({ key: 'x' }), { name: 'TypeError', message: /schema.All: .*is not an Entity/ });
  assert.throws(() => ctrl.get(Article), /needs params naming its pk/);
  const failing = new df.schema.Query(new df.schema.All(Article), () => {
    throw new RangeError('process failed');
  });
  assert.equal(ctrl.get(failing), undefined, 'nothing stored: process is not called');
  await ctrl.setResponse(list, {}, [{ id: 1 }]);
  assert.throws(() => ctrl.get(failing), RangeError);
  assert.equal(ctrl.get(new df.schema.All(Article)).length, 1, 'the controller still reads');
});

// describe writes v as a Query's process sees it, telling apart what JSON
// writes alike: NaN, ±Infinity and null, -0 and 0, undefined, holes, Dates
// and strings, class instances and plain objects.
function describe(v) {
  if (v === undefined) return 'undefined';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (v instanceof Date) return `Date(${v.getTime()})`;
  if (Array.isArray(v)) return `[${Array.from({ length: v.length }, (_, i) => (i in v ? describe(v[i]) : 'hole')).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    const tag = proto === Object.prototype ? '' : proto === null ? 'bare' : proto.constructor.name;
    return `${tag}{${Object.keys(v)
      .map((k) => `${k}:${describe(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

test('ctrl.get: args that JSON writes alike but process can tell apart each get a result of their own, memoized', async () => {
  const { df, ctrl, Article, list } = await rig();
  await ctrl.setResponse(list, {}, [{ id: 1, title: 'a' }]);
  let calls = 0;
  const seen = new df.schema.Query(new df.schema.All(Article), (entries, ...args) => {
    calls++;
    return { saw: describe(args) };
  });
  class Point {
    constructor() {
      this.x = 1;
    }
  }
  const bare = Object.assign(Object.create(null), { x: 1 });
  // Each group is written alike by JSON.
  const groups = [
    [{ max: Infinity }, { max: null }, { max: NaN }, { max: -Infinity }],
    [{ at: new Date(0) }, { at: '1970-01-01T00:00:00.000Z' }],
    [{ at: new Date(Number.NaN) }, { at: null }],
    [{ n: 0 }, { n: -0 }],
    [{}, { max: undefined }],
    [
      [null, 1],
      [undefined, 1],
      new Array(2).fill(1, 1), // [hole, 1]
    ],
    [{ x: 1 }, new Point(), bare],
  ];
  for (const group of groups) {
    const first = group.map((args) => ctrl.get(seen, args));
    for (const [i, args] of group.entries()) assert.equal(first[i].saw, describe([args]), `process saw ${describe([args])}`);
    const before = calls;
    // Again, in the other order: each the object made for it.
    for (let i = group.length - 1; i >= 0; i--) assert.equal(ctrl.get(seen, group[i]), first[i], `${describe([group[i]])}: memoized`);
    assert.equal(calls, before, 'process did not run again');
  }
  // No args, undefined and null are three reads.
  assert.deepEqual([ctrl.get(seen).saw, ctrl.get(seen, undefined).saw, ctrl.get(seen, null).saw], ['[]', '[undefined]', '[null]']);

  // Equal args share the memo: another Date of the same time, another
  // instance of the class.
  const date = ctrl.get(seen, { at: new Date(0) });
  assert.equal(ctrl.get(seen, { at: new Date(0) }), date);
  assert.equal(ctrl.get(seen, new Point()), ctrl.get(seen, new Point()));

  // Args changed in place between calls are read as they are at the call.
  const args = { max: NaN };
  assert.equal(ctrl.get(seen, args).saw, '[{max:NaN}]');
  args.max = null;
  assert.equal(ctrl.get(seen, args).saw, '[{max:null}]');
});

test('a schema.Query as an endpoint schema: stored by its schema, read through its process with the params', async () => {
  const df = await loadDF();
  const User = df.Entity({ key: 'QEUser', defaults: { id: undefined, name: '' } });
  let calls = 0;
  const sorted = new df.schema.Query(new df.schema.Collection([User]), (users, { asc } = {}) => {
    calls++;
    const out = [...users].sort((a, b) => a.name.localeCompare(b.name));
    return asc ? out : out.reverse();
  });
  const body = [
    { id: 1, name: 'Milo' },
    { id: 2, name: 'Alpha' },
    { id: 3, name: 'Zeta' },
  ];
  const ctrl = new df.Controller({ fetch: async () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }) });
  const getUsers = new df.RestEndpoint({ urlPrefix: BASE, path: '/users', searchParams: {}, schema: sorted });
  assert.equal(getUsers.schema, sorted, 'the endpoint keeps the Query as its schema');
  const fetched = await ctrl.fetch(getUsers, { asc: true });
  assert.deepEqual(
    fetched.map((u) => u.name),
    ['Alpha', 'Milo', 'Zeta'],
  );
  const read = ctrl.getResponse(getUsers, { asc: true });
  assert.equal(read.expiryStatus, 'valid');
  assert.deepEqual(
    read.data.map((u) => u.name),
    ['Alpha', 'Milo', 'Zeta'],
  );
  const before = calls;
  assert.equal(ctrl.getResponse(getUsers, { asc: true }).data, read.data, 'unchanged: the same derived value, not processed again');
  assert.equal(calls, before);
  // The hooks' read (useSuspense, useDLE, useCache) is derived too.
  const [hookRead] = ctrl[Symbol.for('datafetch.controller.response')](getUsers, { asc: true });
  assert.equal(hookRead.data, read.data, "the hooks' read: the same derived value");
  let heard;
  ctrl.subscribe(getUsers, { asc: true }, (state) => (heard = state), { fetch: false })();
  assert.equal(heard.data, read.data, 'a subscription hears the derived value');
  // Stored normalized: the entities are in the table, and a query of the
  // endpoint's schema reads them too.
  assert.deepEqual(
    ctrl.get(new df.schema.All(User)).map((u) => u.name),
    ['Milo', 'Alpha', 'Zeta'],
  );
  assert.deepEqual(
    (await ctrl.useSuspense(getUsers, { asc: true })).map((u) => u.name),
    ['Alpha', 'Milo', 'Zeta'],
  );
  await ctrl.fetch(getUsers, {});
  assert.deepEqual(
    ctrl.getResponse(getUsers, {}).data.map((u) => u.name),
    ['Zeta', 'Milo', 'Alpha'],
    'other params, processed with those',
  );
});

test('ctrl.get of a schema.Union: the member its params name (a field or a function), by pk; nothing for params naming none', async () => {
  const df = await loadDF();
  const User = df.Entity({ key: 'QUUser', defaults: { id: '', type: 'users', name: '' } });
  const Group = df.Entity({ key: 'QUGroup', defaults: { id: '', type: 'groups', size: 0 } });
  const byField = new df.schema.Union({ users: User, groups: Group }, 'type');
  const byFunc = new df.schema.Union({ users: User, groups: Group }, (v) => `${v.kind}s`);
  const ctrl = new df.Controller({ fetch: () => Promise.reject(new Error('no request expected')) });
  const people = new df.RestEndpoint({ urlPrefix: BASE, path: '/people', schema: [byField] });
  await ctrl.setResponse(people, {}, [
    { id: '1', type: 'users', name: 'bob' },
    { id: '2', type: 'groups', size: 3 },
  ]);
  const bob = ctrl.get(byField, { id: '1', type: 'users' });
  assert.equal(bob.name, 'bob');
  assert.equal(ctrl.get(byField, { id: '1', type: 'users' }), bob, 'unchanged: the same object');
  assert.equal(ctrl.get(byField, { id: '2', type: 'groups' }).size, 3);
  assert.equal(ctrl.get(byFunc, { id: '2', kind: 'group' }).size, 3);
  assert.equal(ctrl.get(byField, { id: '1', type: 'nope' }), undefined);
  assert.equal(ctrl.get(byField, { id: '9', type: 'users' }), undefined);
  assert.equal(ctrl.get(byField, 5), undefined);
  const count = new df.schema.Query(byField, (person) => person.name ?? `group of ${person.size}`);
  assert.equal(ctrl.get(count, { id: '2', type: 'groups' }), 'group of 3');
});
