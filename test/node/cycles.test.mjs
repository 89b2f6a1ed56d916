// Cyclic entity graphs (issue 22 point 1), as data-client's tests have
// them ('denormalizes recursive entities with referential equality',
// 'normalizes self-referential entities'): schemas that name each other,
// assigned after both classes exist, normalize a nested cyclic response,
// and a read is an object graph: report === report.draftedBy.reports[0],
// report.publishedBy === report.draftedBy. A re-read with nothing changed
// is the same graph; a change to any entity of the cycle is a new one.

import assert from 'node:assert/strict';
import { env, importModule, setup, test } from './harness.mjs';

setup();

const { Entity, EntityMixin } = await importModule();

// data-client's User ⇄ Report (Entity.test.ts), the schemas assigned after
// both classes.
class User extends Entity {
  id = '';
  role = '';
  reports = [];
}
class Report extends Entity {
  id = '';
  title = '';
  draftedBy = null;
  publishedBy = null;
  static schema = { draftedBy: User, publishedBy: User };
}
User.schema = { reports: [Report] };

// A self-referential tree: the class names itself in its static schema.
class Node extends Entity {
  id = 0;
  name = '';
  parent = null;
  children = [];
  static schema = { children: [Node], parent: Node };
}

const WEEKLY = {
  id: '123',
  title: 'Weekly report',
  draftedBy: { id: '456', role: 'manager', reports: [{ id: '123', title: 'Weekly report', draftedBy: '456', publishedBy: '456' }] },
  publishedBy: '456',
};

// endpoint returns an endpoint whose fetch answers body (no network): a
// response as a server would send it.
let seq = 0;
function endpoint(df, schema, body) {
  return new df.RestEndpoint({
    urlPrefix: 'http://127.0.0.1:9',
    path: `/cycles/${++seq}/:id`,
    schema,
    fetch: async () => structuredClone(typeof body === 'function' ? body() : body),
  });
}

// assertReportGraph checks data-client's referential equalities.
function assertReportGraph(report, what) {
  assert.ok(report instanceof Report, `${what}: a Report`);
  assert.ok(report.draftedBy instanceof User, `${what}: draftedBy is a User`);
  assert.equal(report.draftedBy.reports[0], report, `${what}: report === report.draftedBy.reports[0]`);
  assert.equal(report.publishedBy, report.draftedBy, `${what}: report.publishedBy === report.draftedBy`);
  assert.equal(report.draftedBy.reports[0].draftedBy, report.draftedBy, `${what}: the user's report is drafted by that user`);
}

test('a cycle declared with late static schemas reads as an object graph (useSuspense, getResponse)', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const getReport = endpoint(df, Report, WEEKLY);
  const suspended = await ctrl.useSuspense(getReport, { id: '123' });
  assertReportGraph(suspended, 'useSuspense');
  const { entities } = ctrl.getState();
  assert.deepEqual({ ...entities.User['456'] }, { id: '456', role: 'manager', reports: ['123'] }, 'normalized: keys in place of the cycle');
  assert.deepEqual({ ...entities.Report['123'] }, { id: '123', title: 'Weekly report', draftedBy: '456', publishedBy: '456' });
  const read = ctrl.getResponse(getReport, { id: '123' }).data;
  assertReportGraph(read, 'getResponse');
  assert.equal(read, suspended, 'getResponse gives the graph useSuspense gave');
  assert.equal(read.draftedBy.role, 'manager');
  assert.equal(read.title, 'Weekly report');
});

test('ctrl.get of an entity in a cycle is a graph from that entity', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  await ctrl.fetch(endpoint(df, Report, WEEKLY), { id: '123' });
  const user = ctrl.get(User, { id: '456' });
  assert.ok(user instanceof User);
  assert.equal(user.reports[0].draftedBy, user, 'user === user.reports[0].draftedBy');
  assert.equal(user.reports[0].publishedBy, user);
  assert.equal(ctrl.get(User, { id: '456' }), user, 'the same graph again');
});

test('a re-read with nothing changed is the same graph, also after an unrelated write', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const getReport = endpoint(df, Report, WEEKLY);
  await ctrl.fetch(getReport, { id: '123' });
  const first = ctrl.getResponse(getReport, { id: '123' }).data;
  assert.equal(ctrl.getResponse(getReport, { id: '123' }).data, first, 'a second read');
  // A write the graph does not reach.
  await ctrl.setResponse(endpoint(df, User, null), { id: '999' }, { id: '999', role: 'other' });
  const again = ctrl.getResponse(getReport, { id: '123' }).data;
  assert.equal(again, first, 'after an unrelated write');
  assert.equal(again.draftedBy, first.draftedBy);
  assertReportGraph(again, 'the re-read');
});

test('a change to one entity of the cycle is a new graph; the old one stays as it was', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const getReport = endpoint(df, Report, WEEKLY);
  await ctrl.fetch(getReport, { id: '123' });
  const before = ctrl.getResponse(getReport, { id: '123' }).data;
  await ctrl.setResponse(endpoint(df, User, null), { id: '456' }, { id: '456', role: 'director' });
  const after = ctrl.getResponse(getReport, { id: '123' }).data;
  assert.notEqual(after, before, 'the report reaches the changed user: a new object');
  assert.notEqual(after.draftedBy, before.draftedBy, 'the changed user is a new object');
  assert.equal(after.draftedBy.role, 'director');
  assertReportGraph(after, 'after the change');
  assert.equal(before.draftedBy.role, 'manager', 'the old graph is untouched');
  assertReportGraph(before, 'the old graph');
  // The report itself changes: again a new graph, whose user is new too.
  await ctrl.setResponse(endpoint(df, Report, null), { id: '123' }, { id: '123', title: 'Monthly report' });
  const third = ctrl.getResponse(getReport, { id: '123' }).data;
  assert.equal(third.title, 'Monthly report');
  assert.equal(third.draftedBy.reports[0].title, 'Monthly report', 'the user lists the changed report');
  assert.notEqual(third.draftedBy, after.draftedBy);
  assertReportGraph(third, 'after the report changed');
});

test('a self-referential tree (static schema = { children: [Node], parent: Node }) links back to its parents', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const getNode = endpoint(df, Node, {
    id: 1,
    name: 'root',
    parent: null,
    children: [
      { id: 2, name: 'a', parent: 1, children: [{ id: 4, name: 'a1', parent: 2, children: [] }] },
      { id: 3, name: 'b', parent: 1, children: [] },
    ],
  });
  const root = await ctrl.useSuspense(getNode, { id: 1 });
  assert.ok(root instanceof Node);
  assert.equal(root.parent, null);
  assert.deepEqual(
    root.children.map((c) => c.name),
    ['a', 'b'],
  );
  for (const child of root.children) assert.equal(child.parent, root, `${child.name}.parent === root`);
  const [a] = root.children;
  assert.equal(a.children[0].parent, a, 'a1.parent === a');
  assert.equal(a.children[0].parent.parent, root);
  // Read from a leaf: up to the root and back down.
  const leaf = ctrl.get(Node, { id: 4 });
  assert.equal(leaf.parent.children[0], leaf, 'a1 === a1.parent.children[0]');
  assert.equal(leaf.parent.parent.children[0], leaf.parent);
  assert.equal(ctrl.getResponse(getNode, { id: 1 }).data, root, 'an unchanged re-read');
});

test('a list whose entities share a cycle: one user object, and a change to one report keeps the graph', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const user = { id: '456', role: 'manager', reports: ['1', '2'] };
  const listReports = endpoint(
    df,
    [Report],
    [
      { id: '1', title: 'one', draftedBy: user, publishedBy: '456' },
      { id: '2', title: 'two', draftedBy: '456', publishedBy: '456' },
    ],
  );
  const [r1, r2] = await ctrl.useSuspense(listReports, { id: 'all' });
  assert.equal(r1.draftedBy, r2.draftedBy, 'one user for both reports');
  assert.equal(r1.draftedBy.reports[0], r1);
  assert.equal(r1.draftedBy.reports[1], r2);
  await ctrl.setResponse(endpoint(df, Report, null), { id: '2' }, { id: '2', title: 'two, edited' });
  const [n1, n2] = ctrl.getResponse(listReports, { id: 'all' }).data;
  assert.equal(n2.title, 'two, edited');
  assert.equal(n1.draftedBy, n2.draftedBy);
  assert.equal(n1.draftedBy.reports[1], n2, 'the user lists the changed report object');
  assert.equal(n1.draftedBy.reports[0], n1);
  assert.equal(n2.publishedBy.reports[1], n2);
  assert.equal(r2.title, 'two', 'the old graph is untouched');
  assert.equal(r1.draftedBy.reports[1], r2);
});

test('members of an object schema are read in the order the response has them', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  // The schema names users first; the response has the reports first.
  const getBoth = endpoint(df, { users: [User], reports: [Report] }, { reports: [WEEKLY], users: [WEEKLY.draftedBy] });
  const { reports, users } = await ctrl.useSuspense(getBoth, { id: 'x' });
  assertReportGraph(reports[0], 'the report');
  assert.equal(users[0], reports[0].draftedBy, 'the listed user is the drafter');
});

test("an entity's nested fields are read in the order of its fields, whatever their names", async () => {
  const { df } = await env();
  // report before author: not the order of the names.
  class Comment extends Entity {
    id = '';
    body = '';
    report = null;
    author = null;
    static schema = { report: Report, author: User };
  }
  const ctrl = new df.Controller();
  const getComment = endpoint(df, Comment, { id: '9', body: 'Good morning', report: WEEKLY, author: '456' });
  const comment = await ctrl.useSuspense(getComment, { id: '9' });
  assertReportGraph(comment.report, "the comment's report");
  assert.equal(comment.author, comment.report.draftedBy, "the comment's author is the report's drafter");
  assert.equal(comment.author.reports[0], comment.report);
});

test('df.denormalize and a snapshot of getOptimisticResponse read cycles as graphs too', async () => {
  const { df } = await env();
  // data-client's tables ('denormalizes recursive entities with referential equality').
  const entities = {
    Report: { 123: { id: '123', title: 'Weekly report', draftedBy: '456', publishedBy: '456' } },
    User: { 456: { id: '456', role: 'manager', reports: ['123'] } },
  };
  const report = df.denormalize(Report, '123', entities);
  assertReportGraph(report, 'denormalize');
  const user = df.denormalize(User, '456', entities);
  assert.equal(user.reports[0].draftedBy, user, 'from the user');
  const normalized = df.normalize(Report, WEEKLY);
  assertReportGraph(df.denormalize(Report, normalized.result, normalized.entities), 'denormalize of normalize');

  const ctrl = new df.Controller();
  const getReport = endpoint(df, Report, WEEKLY);
  await ctrl.fetch(getReport, { id: '123' });
  let seen;
  const rename = new df.RestEndpoint({
    urlPrefix: 'http://127.0.0.1:9',
    path: '/cycles/rename/:id',
    method: 'PATCH',
    schema: Report,
    fetch: async (params, body) => ({ id: params.id, ...body }),
    getOptimisticResponse(snap, params, body) {
      seen = snap.getResponse(getReport, { id: params.id }).data;
      return { id: params.id, ...body };
    },
  });
  await ctrl.fetch(rename, { id: '123' }, { title: 'Renamed' });
  assertReportGraph(seen, 'snap.getResponse');
  assertReportGraph(ctrl.getResponse(getReport, { id: '123' }).data, 'after the update');
  assert.equal(ctrl.getResponse(getReport, { id: '123' }).data.draftedBy.reports[0].title, 'Renamed');
});

test('EntityMixin classes with a computed pk: a schema assigned later closes the cycle', async () => {
  const { df } = await env();
  class PersonData {
    first = '';
    last = '';
    manager = null;
    reports = [];
  }
  // pk computed from two fields: the engine calls it for each record.
  const Person = EntityMixin(PersonData, { key: 'Person', pk: (p) => `${p.first} ${p.last}` });
  Person.schema = { manager: Person, reports: [Person] };
  const ctrl = new df.Controller();
  const getPerson = endpoint(df, Person, {
    first: 'Ada',
    last: 'L',
    manager: null,
    reports: [{ first: 'Bo', last: 'K', manager: 'Ada L', reports: [] }],
  });
  const ada = await ctrl.useSuspense(getPerson, { id: 'Ada L' });
  assert.ok(ada instanceof Person);
  assert.equal(ada.reports[0].manager, ada, "the report's manager is the person read");
  assert.equal(ctrl.get(Person, { first: 'Bo', last: 'K' })?.manager?.reports[0]?.first, 'Bo');
});

test('an entity that contains itself normalizes, its inner occurrence a reference (data-client process.test)', async () => {
  const { df } = await env();
  class Friend extends Entity {
    id = '';
    friends = [];
    static schema = { friends: [Friend] };
  }
  const input = { id: '123', friends: [] };
  input.friends.push(input);
  const { result, entities } = df.normalize(Friend, input);
  assert.equal(result, '123');
  assert.deepEqual(entities.Friend['123'].friends, ['123']);
  assert.deepEqual(input.friends, [input], 'the input is left as it was');

  const ctrl = new df.Controller();
  const ep = endpoint(df, Friend, null);
  await ctrl.setResponse(ep, { id: '123' }, input);
  const friend = ctrl.getResponse(ep, { id: '123' }).data;
  assert.equal(friend.friends[0], friend, 'friend.friends[0] === friend');
  // A cycle where no entity is refers to nothing: still refused.
  const loose = { id: '1', extra: {} };
  loose.extra.self = loose.extra;
  await assert.rejects(ctrl.setResponse(ep, { id: '1' }, loose), /circular object/);
});
