// Collections as data-client 0.18 has them (issue 22, point 7): move
// (getList.move, endpoint.move with movePath), nonFilterArgumentKeys in its
// three forms, a Collection nested deeper than one member ({data:
// {results: Collection}}) giving push/unshift/remove/getPage, and
// paginated(removeCursor). Against the fixture server's /todos (filtered
// by userId; todos 1-4 are user 1's, 5-8 user 2's) and /posts (pages of 5).

import assert from 'node:assert/strict';
import { env, server, setup, test } from './harness.mjs';

setup();

const ids = (list) => list.map((t) => t.id);

function todoEntity(df) {
  return df.Entity({ key: 'Todo', defaults: { id: 0, userId: 0, title: '', completed: false } });
}

test('getList.move PATCHes the record path and moves the todo between the user lists', async () => {
  const { df, base } = await env();
  const Todo = todoEntity(df);
  const todos = df.resource({ urlPrefix: base, path: '/todos/:id', schema: Todo });
  const move = todos.getList.move;
  assert.equal(move.method, 'PATCH');
  assert.equal(move.path, '/todos/:id', 'the record path, as update');
  assert.equal(move.url({ id: 5 }), todos.update.url({ id: 5 }));
  assert.equal(move, todos.getList.move, 'made once');

  const ctrl = new df.Controller();
  const all = await ctrl.useSuspense(todos.getList, {});
  const user1 = await ctrl.useSuspense(todos.getList, { userId: 1 });
  const user2 = await ctrl.useSuspense(todos.getList, { userId: 2 });
  assert.deepEqual(ids(user1), [1, 2, 3, 4]);

  const moved = await ctrl.fetch(move, { id: 2 }, { userId: 2 });
  assert.deepEqual({ id: moved.id, userId: moved.userId }, { id: 2, userId: 2 }, 'resolves to the record');
  assert.equal(await server.count('PATCH /todos/2'), 1);
  assert.deepEqual(ids(ctrl.getResponse(todos.getList, { userId: 1 }).data), [1, 3, 4], 'left user 1');
  assert.deepEqual(ids(ctrl.getResponse(todos.getList, { userId: 2 }).data), [...ids(user2), 2], 'joined user 2');
  const allNow = ctrl.getResponse(todos.getList, {}).data;
  assert.deepEqual(ids(allNow), ids(all), 'the unfiltered list matched before and after: it keeps its order');
  assert.equal(allNow[0], all[0], 'an untouched todo keeps its identity');
  assert.equal(ctrl.get(Todo, { id: 2 }).userId, 2);
  assert.equal(await server.count('GET /todos?userId=1'), 1, 'no refetch');
});

test('an optimistic move shows at once and is rolled back when the server fails', async () => {
  const { df, base } = await env();
  const todos = df.resource({ urlPrefix: base, path: '/todos/:id', schema: todoEntity(df), optimistic: true });
  const ctrl = new df.Controller();
  await ctrl.useSuspense(todos.getList, { userId: 1 });
  const user2 = await ctrl.useSuspense(todos.getList, { userId: 2 });
  await server.failNext(1, 500);
  const failing = ctrl.fetch(todos.getList.move, { id: 1 }, { id: 1, userId: 2 });
  assert.deepEqual(ids(ctrl.getResponse(todos.getList, { userId: 1 }).data), [2, 3, 4], 'moved before the answer');
  assert.deepEqual(ids(ctrl.getResponse(todos.getList, { userId: 2 }).data), [...ids(user2), 1]);
  await assert.rejects(failing, (err) => err.status === 500);
  assert.deepEqual(ids(ctrl.getResponse(todos.getList, { userId: 1 }).data), [1, 2, 3, 4], 'rolled back');
  assert.deepEqual(ids(ctrl.getResponse(todos.getList, { userId: 2 }).data), ids(user2));
});

// A todo list nested two levels down, as {data: {results: Collection}}.
function nestedTodos(df, base, Todo, options = {}) {
  return new df.RestEndpoint({
    urlPrefix: base,
    path: '/todos',
    name: 'nestedTodos',
    schema: { count: 0, data: { results: new df.schema.Collection([Todo]) } },
    process: (list) => ({ count: list.length, data: { results: list } }),
    ...options,
  });
}

test('endpoint.move with movePath works on a Collection nested two levels down', async () => {
  const { df, base } = await env();
  const list = nestedTodos(df, base, todoEntity(df), { movePath: '/todos/:id' });
  assert.equal(list.move.path, '/todos/:id');
  const ctrl = new df.Controller();
  await ctrl.useSuspense(list, { userId: 1 });
  await ctrl.useSuspense(list, { userId: 2 });
  // The record's response is a todo, not the list's shape: no process.
  const move = list.move.extend({ process: undefined });
  await ctrl.fetch(move, { id: 6 }, { userId: 1 });
  assert.equal(await server.count('PATCH /todos/6'), 1);
  assert.deepEqual(ids(ctrl.getResponse(list, { userId: 1 }).data.data.results), [1, 2, 3, 4, 6]);
  assert.deepEqual(ids(ctrl.getResponse(list, { userId: 2 }).data.data.results), [5, 7, 8]);
  const plain = nestedTodos(df, base, todoEntity(df));
  assert.equal(plain.move.path, '/todos', 'without movePath: its own path');
});

test('push, unshift and remove on a Collection nested two levels down', async () => {
  const { df, base } = await env();
  const list = nestedTodos(df, base, todoEntity(df));
  for (const name of ['push', 'unshift', 'remove', 'move']) assert.ok(list[name], `${name} is defined`);
  assert.equal(list.assign.schema, undefined, "a list's assign has no schema");
  const ctrl = new df.Controller();
  await ctrl.useSuspense(list, { userId: 1 });
  const other = await ctrl.useSuspense(list, { userId: 2 });
  const created = await ctrl.fetch(list.push.extend({ process: undefined }), {}, { userId: 1, title: 'pushed' });
  const first = await ctrl.fetch(list.unshift.extend({ process: undefined }), {}, { userId: 1, title: 'first' });
  const results = () => ids(ctrl.getResponse(list, { userId: 1 }).data.data.results);
  assert.deepEqual(results(), [first.id, 1, 2, 3, 4, created.id]);
  await ctrl.fetch(list.remove.extend({ fetch: (_params, body) => body, process: undefined }), {}, { id: 3, userId: 1 });
  assert.deepEqual(results(), [first.id, 1, 2, 4, created.id]);
  assert.equal(ctrl.getResponse(list, { userId: 2 }).data, other, 'user 2 untouched: identical');
});

// Posts in pages of 5, as {nextPage, data: {results: Collection}}.
function nestedPosts(df, base, fx, options = {}) {
  return new df.RestEndpoint({
    urlPrefix: base,
    path: '/posts',
    name: 'nestedPosts',
    schema: { nextPage: '', data: { results: new df.schema.Collection([fx.Post]) } },
    process: (page) => ({ nextPage: page.nextPage, data: { results: page.results } }),
    ...options,
  });
}

test('getPage appends to a Collection nested two levels down', async () => {
  const { df, base, fx } = await env();
  const list = nestedPosts(df, base, fx, { paginationField: 'page' });
  const ctrl = new df.Controller();
  const first = await ctrl.useSuspense(list, {});
  assert.deepEqual(ids(first.data.results), [1, 2, 3, 4, 5]);
  await ctrl.fetch(list.getPage, { page: first.nextPage });
  const both = ctrl.getResponse(list, {}).data;
  assert.deepEqual(ids(both.data.results), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.equal(both.nextPage, '/posts?page=3', 'the newest page gives the other members');
});

test('paginated(removeCursor): the function strips the cursor, and each page appends', async () => {
  const { df, base, fx } = await env();
  const list = nestedPosts(df, base, fx);
  const nextPage = list.paginated(({ page, ...rest }) => [rest]);
  assert.equal(nextPage.key({ page: '/posts?page=2' }), list.key({}), 'a page has the key of the list');
  const ctrl = new df.Controller();
  const first = await ctrl.useSuspense(list, {});
  await ctrl.fetch(nextPage, { page: first.nextPage });
  assert.deepEqual(ids(ctrl.getResponse(list, {}).data.data.results), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.equal(await server.count(`GET /posts?page=${encodeURIComponent('/posts?page=2')}`), 1);

  const none = list.paginated(() => []);
  assert.equal(none.key({ page: 2, other: 'x' }), list.key({}), '[] leaves no params');
  const bad = list.paginated((params) => params);
  assert.throws(() => bad.key({ page: 2 }), /removeCursor must return the args as an array/);
  assert.throws(() => list.paginated(5), TypeError);
});

// The lists of user 1 with and without an ignoredMe arg, and of user 2.
async function ignoredLists(df, base, Todo, collection) {
  const list = new df.RestEndpoint({ urlPrefix: base, path: '/todos', name: 'todos', schema: collection });
  const ctrl = new df.Controller();
  for (const p of [{ userId: 1 }, { userId: 1, ignoredMe: '5' }, { userId: 2 }]) await ctrl.useSuspense(list, p);
  return { list, ctrl, read: (p) => ids(ctrl.getResponse(list, p).data) };
}

// pushAndMoveEachForm checks, for each [form, make(Todo) → collection],
// that a push of user 1's todo changes the lists of user 1 whatever their
// "ignored" args, and not user 2's; and that moving todo 1 to user 2
// leaves the first and joins the second.
async function pushAndMoveEachForm(df, base, forms) {
  for (const [form, make] of forms) {
    await server.reset();
    const Todo = todoEntity(df);
    const { list, ctrl, read } = await ignoredLists(df, base, Todo, make(Todo));
    const pushed = await ctrl.fetch(list.push, {}, { userId: 1, title: form });
    assert.deepEqual(read({ userId: 1 }), [1, 2, 3, 4, pushed.id], form);
    assert.deepEqual(read({ userId: 1, ignoredMe: '5' }), [1, 2, 3, 4, pushed.id], `${form}: ignoredMe does not filter`);
    assert.deepEqual(read({ userId: 2 }), [5, 6, 7, 8], `${form}: user 2's list is not changed`);
    await ctrl.fetch(list.move.extend({ path: '/todos/:id' }), { id: 1 }, { userId: 2 });
    assert.deepEqual(read({ userId: 1 }), [2, 3, 4, pushed.id], `${form}: move leaves it`);
    assert.deepEqual(read({ userId: 1, ignoredMe: '5' }), [2, 3, 4, pushed.id], `${form}: move leaves it (ignoredMe)`);
    assert.deepEqual(read({ userId: 2 }), [5, 6, 7, 8, 1], `${form}: move joins`);
  }
}

test('nonFilterArgumentKeys: a function, a RegExp, a list of keys or a subclass method', async () => {
  const { df, base } = await env();
  class MyCollection extends df.schema.Collection {
    nonFilterArgumentKeys(key) {
      return key.startsWith('ignored');
    }
  }
  const forms = [
    ['function', (Todo) => new df.schema.Collection([Todo], { nonFilterArgumentKeys: (key) => key.startsWith('ignored') })],
    ['RegExp', (Todo) => new df.schema.Collection([Todo], { nonFilterArgumentKeys: /ignored/ })],
    ['keys', (Todo) => new df.schema.Collection([Todo], { nonFilterArgumentKeys: ['ignoredMe'] })],
    ['subclass', (Todo) => new MyCollection([Todo])],
  ];
  await pushAndMoveEachForm(df, base, forms);
});

test('createCollectionFilter: an option or a subclass method decides alone which collections push and move change', async () => {
  const { df, base } = await env();
  // Keys starting with "ignored" do not filter; the rest compare as text
  // with the params or the body (data-client's default, written out).
  const create =
    (...args) =>
    (collectionKey) =>
      Object.entries(collectionKey).every(([key, value]) => key.startsWith('ignored') || `${args[0]?.[key]}` === value || `${args[1]?.[key]}` === value);
  class MyCollection extends df.schema.Collection {
    createCollectionFilter(...args) {
      return create(...args);
    }
  }
  const forms = [
    ['option', (Todo) => new df.schema.Collection([Todo], { createCollectionFilter: create, nonFilterArgumentKeys: () => true })],
    ['subclass', (Todo) => new MyCollection([Todo])],
  ];
  await pushAndMoveEachForm(df, base, forms);
});

test('createCollectionFilter that is not a function, or returns none, is an Error naming it', async () => {
  const { df, base } = await env();
  const Todo = todoEntity(df);
  assert.throws(() => new df.schema.Collection([Todo], { createCollectionFilter: 'userId' }), /createCollectionFilter must be a function/);
  const { list, ctrl, read } = await ignoredLists(df, base, Todo, new df.schema.Collection([Todo], { createCollectionFilter: () => true }));
  await assert.rejects(ctrl.fetch(list.push, {}, { userId: 1, title: 'x' }), /createCollectionFilter must return a function/);
  assert.deepEqual(read({ userId: 1 }), [1, 2, 3, 4], 'the lists keep their last good state');
});

test('without nonFilterArgumentKeys every arg filters (but order* and sort*); a bad option is a TypeError', async () => {
  const { df, base } = await env();
  const Todo = todoEntity(df);
  const { list, ctrl, read } = await ignoredLists(df, base, Todo, new df.schema.Collection([Todo]));
  const pushed = await ctrl.fetch(list.push, {}, { userId: 1, title: 'x' });
  assert.deepEqual(read({ userId: 1 }), [1, 2, 3, 4, pushed.id]);
  assert.deepEqual(read({ userId: 1, ignoredMe: '5' }), [1, 2, 3, 4], 'ignoredMe filters');
  assert.throws(
    () => new df.schema.Collection([Todo], { nonFilterArgumentKeys: 'ignoredMe' }),
    (err) => err instanceof TypeError && /nonFilterArgumentKeys must be a function, a RegExp or an array of keys/.test(err.message),
  );
});

test('moveWith(merge) joins by merge (unshift: at the start), for a list and a Values collection, set as a subclass move', async () => {
  const { df } = await env();
  const { unshift } = await import('./harness.mjs').then((h) => h.importModule());
  assert.deepEqual(unshift([1, 2], [3]), [3, 1, 2]);
  const Todo = todoEntity(df);
  class UnshiftCollection extends df.schema.Collection {
    constructor(schema, options) {
      super(schema, options);
      this.move = this.moveWith(unshift);
    }
  }
  const list = new UnshiftCollection([Todo]);
  let state = df.normalize(list, [{ id: 10, userId: 1 }], [{ userId: '1' }]);
  state = df.normalize(list, [{ id: 20, userId: 2 }], [{ userId: '2' }], state);
  state = df.normalize(list.move, { id: 10, userId: 2 }, [{ id: '10' }, { userId: '2' }], state);
  const read = (c, userId) => df.denormalize(c, c.pk(undefined, undefined, '', [{ userId }]), state.entities);
  assert.deepEqual(ids(read(list, '1')), []);
  assert.deepEqual(ids(read(list, '2')), [10, 20], 'the moved todo first');
  const listState = state;

  // Values: merge puts incoming first too.
  const values = new df.schema.Collection(new df.schema.Values(Todo));
  const first = values.moveWith((existing, incoming) => ({ ...incoming, ...existing }));
  state = df.normalize(values, { a: { id: 30, userId: 1 } }, [{ userId: '1' }]);
  state = df.normalize(values, { b: { id: 40, userId: 2 } }, [{ userId: '2' }], state);
  state = df.normalize(first, { id: 30, userId: 2 }, [{ id: '30' }, { userId: '2' }], state);
  assert.deepEqual(Object.keys(read(values, '1')), []);
  assert.deepEqual(
    Object.values(read(values, '2')).map((t) => t.id),
    [30, 40],
  );

  assert.throws(() => list.moveWith('unshift'), /moveWith\(merge\): merge must be a function/);
  const broken = list.moveWith(() => {
    throw new Error('merge broke');
  });
  assert.throws(() => df.normalize(broken, { id: 20, userId: 1 }, [{ id: '20' }, { userId: '1' }], listState), /merge broke/);
});

test('normalize of a move of several records: each moves by its own values, as the store moves them', async () => {
  const { df } = await env();
  const Todo = todoEntity(df);
  const list = new df.schema.Collection([Todo]);
  let state = df.normalize(
    list,
    [
      { id: 10, userId: 1 },
      { id: 11, userId: 1 },
    ],
    [{ userId: '1' }],
  );
  state = df.normalize(list, [{ id: 20, userId: 2 }], [{ userId: '2' }], state);
  state = df.normalize(list, [{ id: 30, userId: 3 }], [{ userId: '3' }], state);
  state = df.normalize(
    list.move,
    [
      { id: 10, userId: 2 },
      { id: 11, userId: 3 },
    ],
    [{ id: '10' }, { userId: '2' }],
    state,
  );
  const read = (userId) => ids(df.denormalize(list, list.pk(undefined, undefined, '', [{ userId }]), state.entities));
  assert.deepEqual(read('1'), [], 'both left');
  assert.deepEqual(read('2'), [20, 10]);
  assert.deepEqual(read('3'), [30, 11]);
});

test('remove takes a union member out by its schema and id', async () => {
  const { df } = await env();
  const User = df.Entity({ key: 'RUser', defaults: { id: '', type: 'users' } });
  const Group = df.Entity({ key: 'RGroup', defaults: { id: '', type: 'groups' } });
  const members = new df.schema.Collection([new df.schema.Union({ users: User, groups: Group }, 'type')]);
  let state = df.normalize(
    members,
    [
      { id: '1', type: 'users' },
      { id: '1', type: 'groups' },
      { id: '2', type: 'groups' },
    ],
    [{ completed: false }],
  );
  state = df.normalize(members.remove, { id: '1', type: 'users' }, [{ completed: false }], state);
  const pk = members.pk(undefined, undefined, '', [{ completed: false }]);
  assert.deepEqual(state.entities[members.key][pk], [
    { id: '1', schema: 'groups' },
    { id: '2', schema: 'groups' },
  ]);
});
