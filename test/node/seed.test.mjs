// The seed: the data-client 6.0 usage examples datafetch was first
// specified from (comments and their wrapped envelopes, a user's
// make_manager, the current user, birthdays, profiles, articles), each
// against the fixture server's routes of the same shape. The optimistic
// and pagination examples are in optimistic.test.mjs and
// pagination.test.mjs; the legacy resource in other.test.mjs.

import assert from 'node:assert/strict';
import { env, server, setup, test } from './harness.mjs';

setup();

test('comments: GET /comments/:id and /comments with the plain schema', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const c = await ctrl.useSuspense(fx.getComment, { id: 7 });
  assert.equal(c.id, 7);
  assert.equal(c.postId, 2);
  assert.match(c.email, /@/);
  assert.equal(c.body.split('\n').length, 3, 'line breaks in the body are kept');
  const list = new df.RestEndpoint({ urlPrefix: base, path: '/comments', schema: [fx.Comment] });
  const all = await ctrl.useSuspense(list, {});
  assert.equal(all.length, 30);
  assert.equal(all[6], c, 'the list member is the entity read by id');
});

test('comments: wrapped single {data: Comment} and wrapped list {data: [Comment]}', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const one = new df.RestEndpoint({ urlPrefix: base, path: '/wrapped/comments/:id', schema: { data: fx.Comment } });
  const many = new df.RestEndpoint({ urlPrefix: base, path: '/wrapped/comments', schema: { data: [fx.Comment] } });
  const w = await ctrl.useSuspense(one, { id: 12 });
  assert.equal(w.data.id, 12);
  const wl = await ctrl.useSuspense(many, { postId: 3 });
  assert.deepEqual(
    wl.data.map((c) => c.id),
    [11, 12, 13, 14, 15],
  );
  assert.equal(wl.data[1], w.data, 'both envelopes normalize to one entity');
  assert.ok(ctrl.getState().entities.Comment['12']);
});

test('POST /users/:id/make_manager: no body, numeric path param, the user schema', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const me = await ctrl.useSuspense(fx.getUser, { id: 1 });
  assert.equal(me.isManager, false);
  const makeManager = new df.RestEndpoint({ urlPrefix: base, path: '/users/:id/make_manager', method: 'POST', schema: fx.User });
  const promoted = await ctrl.fetch(makeManager, { id: 1 });
  assert.equal(promoted.isManager, true);
  assert.equal(ctrl.getResponse(fx.getUser, { id: 1 }).data.isManager, true, 'the user read elsewhere is updated');
  assert.equal(await server.count('POST /users/1/make_manager'), 1);
});

test('GET /current_user/: no params', async () => {
  const { df, base, fx } = await env();
  const current = new df.RestEndpoint({ urlPrefix: base, path: '/current_user/', schema: fx.User });
  const ctrl = new df.Controller();
  const u = await ctrl.useSuspense(current);
  assert.equal(u.id, 1);
  assert.equal(u.name, 'Ada Whitfield');
  assert.equal(await ctrl.useSuspense(current), u);
  assert.equal(await server.count('GET /current_user/'), 1);
});

test('birthdays: upcoming {withinSevenDays, withinThirtyDays} with Date fields and defaults', async () => {
  const { df, base } = await env();
  const before = Date.now();
  const Birthday = df.Entity({
    key: 'Birthday',
    defaults: { id: undefined, name: '', image: '', source: '', date: new Date() },
    schema: { date: Date },
  });
  const upcoming = new df.RestEndpoint({
    urlPrefix: base,
    path: '/api/birthdays/upcoming/',
    schema: { withinSevenDays: [Birthday], withinThirtyDays: [Birthday] },
  });
  const ctrl = new df.Controller();
  const u = await ctrl.useSuspense(upcoming);
  assert.deepEqual(
    u.withinSevenDays.map((b) => b.name),
    ['Marta Ruiz', 'Kwame Asante', 'Lena Fischer', 'Oskar Nilsen'],
  );
  assert.deepEqual(
    u.withinThirtyDays.map((b) => b.name),
    ['Priya Raman', 'Tomás Silva', 'Yuki Aoki', 'Zanele Dlamini'],
  );
  for (const b of [...u.withinSevenDays, ...u.withinThirtyDays]) {
    assert.ok(b.date instanceof Date, `${b.name}: date is a Date`);
    assert.ok(b.date.getTime() < before, 'a date of birth is in the past');
    assert.equal(b.date.getUTCHours(), 0);
  }
  const { result, entities } = df.normalize(Birthday, { id: 'x' });
  const bare = df.denormalize(Birthday, result, entities);
  assert.ok(bare.date instanceof Date, 'the default date is a Date');
  assert.equal(bare.name, '');
});

test('profiles: string ids, get and list', async () => {
  const { df, base } = await env();
  const Profile = df.Entity({ key: 'Profile', defaults: { id: '', fullName: '', bio: '' } });
  const r = df.resource({ urlPrefix: base, path: '/profiles/:id', schema: Profile });
  const ctrl = new df.Controller();
  const all = await ctrl.useSuspense(r.getList, {});
  assert.equal(all.length, 8);
  assert.equal(all[2].fullName, 'Chiara Lindqvist');
  const p = await ctrl.useSuspense(r.get, { id: '3' });
  assert.equal(p, all[2]);
});

test('articles: a partial update sends only the changed fields; the response (with id) updates the cache', async () => {
  const { df, base } = await env();
  const Article = df.Entity({ key: 'Article', defaults: { id: undefined, title: '', content: '', published: false } });
  const ArticleResource = df.createResource({ urlPrefix: base, path: '/articles/:id', schema: Article });
  const ctrl = new df.Controller();
  const a = await ctrl.useSuspense(ArticleResource.get, { id: '11' });
  assert.equal(a.published, true);
  const saved = await ctrl.fetch(ArticleResource.partialUpdate, { id: '11' }, { published: false });
  assert.equal(saved.id, '11');
  assert.equal(saved.published, false);
  assert.equal(saved.title, a.title);
  assert.equal(ctrl.getResponse(ArticleResource.get, { id: '11' }).data.published, false);
  const onServer = await (await fetch(`${base}/articles/11`)).json();
  assert.equal(onServer.published, false);
  assert.equal(onServer.content, a.content, 'fields not sent are unchanged on the server');
});

test('useController() and useSuspense(endpoint, null) as the seed uses them', async () => {
  const { df, fx } = await env();
  const controller = df.useController();
  await controller.resetEntireStore();
  assert.equal(await df.useSuspense(fx.getArticle, null), undefined);
  assert.equal(await server.total(), 0);
  const a = await df.useSuspense(fx.getArticle, { id: '1' });
  const saved = await controller.fetch(fx.patchArticle, { id: '1' }, { title: 'From the controller' });
  assert.equal(saved.title, 'From the controller');
  assert.equal(controller.getResponse(fx.getArticle, { id: '1' }).data.title, 'From the controller');
  assert.notEqual(controller.getResponse(fx.getArticle, { id: '1' }).data, a);
  await controller.resetEntireStore();
});
