// Schemas (docs/js-api.md, Schemas): entities, schema shapes, normalize/denormalize, and the
// entity hooks (useIncoming, shouldReorder, merge, process).

import assert from 'node:assert/strict';
import { env, promiseState, recorder, server, setup, test, waitFor } from './harness.mjs';

setup();

const ISO_ARTICLE_1 = '2024-03-01T09:00:00.000Z'; // createdAt of seeded article 1

// ---------------------------------------------------------------- primary keys

test('pk: a field name; normalize stores the record under it', async () => {
  const { df } = await env();
  const Tag = df.Entity({ key: 'Tag', pk: 'slug', defaults: { slug: '', label: '' } });
  const { result, entities } = df.normalize(Tag, { slug: 'go', label: 'Go' });
  assert.equal(String(result), 'go');
  assert.deepEqual(Object.keys(entities.Tag), ['go']);
  assert.equal(entities.Tag.go.label, 'Go');
});

test("pk defaults to 'id'", async () => {
  const { df } = await env();
  const Thing = df.Entity({ key: 'Thing', defaults: { id: undefined, name: '' } });
  const { result, entities } = df.normalize(
    [Thing],
    [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' },
    ],
  );
  assert.deepEqual(result.map(String), ['a', 'b']);
  assert.equal(entities.Thing.b.name, 'B');
});

test('pk: a function called as pk(value, parent, key)', async () => {
  const { df } = await env();
  const calls = [];
  const Author = df.Entity({
    key: 'Author',
    pk(value, parent, key) {
      calls.push({ value, parent, key });
      return value.handle;
    },
    defaults: { handle: '', name: '' },
  });
  const Book = df.Entity({ key: 'Book', defaults: { id: undefined, title: '', writer: null }, schema: { writer: Author } });
  const { entities } = df.normalize(Book, { id: 'b1', title: 'T', writer: { handle: 'ada', name: 'Ada' } });
  assert.equal(entities.Author.ada.name, 'Ada');
  assert.equal(String(entities.Book.b1.writer), 'ada', 'the nested entity is replaced by its pk');
  const nested = calls.find((c) => c.value && c.value.handle === 'ada');
  assert.ok(nested, 'pk was called with the record');
  assert.equal(nested.key, 'writer', 'pk gets the field name as key');
  assert.equal(nested.parent?.id, 'b1', 'pk gets the containing record as parent');
});

test("pk: 5 and '5' are one entity", async () => {
  const { df } = await env();
  const Thing = df.Entity({ key: 'Thing', defaults: { id: undefined, name: '' } });
  const { result, entities } = df.normalize(
    [Thing],
    [
      { id: 5, name: 'number' },
      { id: '5', name: 'string' },
    ],
  );
  assert.deepEqual(Object.keys(entities.Thing), ['5']);
  assert.equal(entities.Thing['5'].name, 'string', 'the later record is merged over the earlier');
  assert.deepEqual(result.map(String), ['5', '5']);
  const back = df.denormalize([Thing], result, entities);
  assert.deepEqual(
    back.map((t) => t.name),
    ['string', 'string'],
  );
});

test('one entity twice in one result reads as one object (controller)', async () => {
  const { df, base } = await env();
  const Thing = df.Entity({ key: 'Thing', defaults: { id: undefined, name: '' } });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/things', schema: { a: Thing, list: [Thing] } });
  const ctrl = new df.Controller();
  await ctrl.setResponse(ep, {}, { a: { id: 5, name: 'x' }, list: [{ id: '5' }, { id: 6 }] });
  const d = ctrl.getResponse(ep, {}).data;
  assert.equal(d.a.name, 'x');
  assert.equal(d.list[0], d.a, 'entity 5 is one object in the result');
});

test('pk: a number-keyed result is read back by the string key and vice versa (controller)', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  assert.equal(fx.getArticle.key({ id: 5 }), fx.getArticle.key({ id: '5' }));
  await ctrl.setResponse(fx.getArticle, { id: 5 }, { id: 5, title: 'five' });
  const r = ctrl.getResponse(fx.getArticle, { id: '5' });
  assert.equal(r.expiryStatus, 'valid');
  assert.equal(r.data.title, 'five');
  await ctrl.setResponse(fx.listArticles, {}, [{ id: '5', content: 'c' }]);
  assert.equal(ctrl.getResponse(fx.getArticle, { id: 5 }).data.content, 'c', 'list and detail share entity 5');
});

test('pk: a constant pk makes a singleton', async () => {
  const { df } = await env();
  const Count = df.Entity({ key: 'Count', pk: () => 'SINGLETON', defaults: { count: 0 } });
  const a = df.normalize(Count, { count: 3 });
  assert.deepEqual(Object.keys(a.entities.Count), ['SINGLETON']);
  assert.equal(a.entities.Count.SINGLETON.count, 3);
  assert.equal(String(a.result), 'SINGLETON');
});

// ---------------------------------------------------------------- defaults and fields

test('defaults fill fields missing from a response; unknown fields are kept', async () => {
  const { df } = await env();
  const Thing = df.Entity({
    key: 'Thing',
    defaults: { id: undefined, title: 'untitled', tags: [], published: false, author: null },
  });
  const { result, entities } = df.normalize(Thing, { id: '1', extra: 42, nested: { a: [1, 2] } });
  const t = df.denormalize(Thing, result, entities);
  assert.equal(t.id, '1');
  assert.equal(t.title, 'untitled');
  assert.deepEqual(t.tags, []);
  assert.equal(t.published, false);
  assert.equal(t.author, null);
  assert.equal(t.extra, 42, 'an unknown field is kept');
  assert.deepEqual(t.nested, { a: [1, 2] });
});

test('defaults and unknown fields through a fetch from the server', async () => {
  const { df, base } = await env();
  const Slim = df.Entity({ key: 'Slim', defaults: { id: undefined, title: '', summary: 'no summary' } });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', schema: Slim });
  const a = await new df.Controller().useSuspense(ep, { id: '1' });
  assert.equal(a.title, 'Normalizing nested API responses');
  assert.equal(a.summary, 'no summary', 'default of a field the server does not send');
  assert.deepEqual(a.tags, ['caching', 'pagination'], 'unknown field tags is kept');
  assert.equal(a.published, true, 'unknown field published is kept');
});

test('Date fields: an ISO-8601 string reads as a Date', async () => {
  const { df, fx } = await env();
  const a = await new df.Controller().useSuspense(fx.getArticle, { id: '1' });
  assert.ok(a.createdAt instanceof Date, `createdAt should be a Date, got ${typeof a.createdAt}`);
  assert.equal(a.createdAt.getTime(), Date.parse(ISO_ARTICLE_1));
});

test('Date fields: epoch milliseconds read as a Date', async () => {
  const { df } = await env();
  const Ev = df.Entity({ key: 'Ev', defaults: { id: undefined, at: new Date(0) }, schema: { at: Date } });
  const { result, entities } = df.normalize(
    [Ev],
    [
      { id: 1, at: 1700000000000 },
      { id: 2, at: '2023-11-14T22:13:20.000Z' },
    ],
  );
  const [a, b] = df.denormalize([Ev], result, entities);
  assert.ok(a.at instanceof Date);
  assert.equal(a.at.getTime(), 1700000000000);
  assert.ok(b.at instanceof Date);
  assert.equal(b.at.getTime(), 1700000000000);
});

test('Date fields through setResponse and getResponse', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  await ctrl.setResponse(fx.getArticle, { id: '9' }, { id: '9', createdAt: 1700000000000 });
  const a = ctrl.getResponse(fx.getArticle, { id: '9' }).data;
  assert.ok(a.createdAt instanceof Date);
  assert.equal(a.createdAt.getTime(), 1700000000000);
});

test('a nested entity that is missing reads as undefined, and appears once stored', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const a = await ctrl.useSuspense(fx.getArticle, { id: '1' });
  assert.equal(a.author, undefined, 'author 1 is only an id until the user is fetched');
  const rec = recorder();
  const unsub = ctrl.subscribe(fx.getArticle, { id: '1' }, rec);
  try {
    const before = rec.calls.length;
    const user = await ctrl.useSuspense(fx.getUser, { id: 1 });
    assert.equal(user.name, 'Ada Whitfield');
    const again = ctrl.getResponse(fx.getArticle, { id: '1' }).data;
    assert.equal(again.author?.name, 'Ada Whitfield', 'the article now reads its author');
    assert.equal(again.author, user, 'the nested entity is the same object as the user read directly');
    await waitFor(() => rec.calls.length > before && rec.last().data?.author?.name === 'Ada Whitfield', {
      message: 'the article subscriber hears that its author arrived',
    });
  } finally {
    unsub();
  }
});

test('denormalize: a nested pk with no stored entity reads undefined', async () => {
  const { df, fx } = await env();
  const out = df.denormalize(fx.Article, '1', { Article: { 1: { id: '1', title: 't', author: '7' } } });
  assert.equal(out.title, 't');
  assert.equal(out.author, undefined);
});

// ---------------------------------------------------------------- schema shapes

test('[S] and new schema.Array(S) normalize alike', async () => {
  const { df, fx } = await env();
  const data = [
    { id: '1', title: 'a', author: { id: 1, name: 'A' } },
    { id: '2', title: 'b', author: { id: 2, name: 'B' } },
  ];
  const meta = { date: 1, fetchedAt: 0, expiresAt: Infinity };
  const short = df.normalize([fx.Article], data, [], undefined, meta);
  const long = df.normalize(new df.schema.Array(fx.Article), data, [], undefined, meta);
  assert.deepEqual(long, short);
  assert.deepEqual(short.result.map(String), ['1', '2']);
  assert.equal(short.entities.User['2'].name, 'B');
  const back = df.denormalize(new df.schema.Array(fx.Article), short.result, short.entities);
  assert.deepEqual(
    back.map((a) => a.author.name),
    ['A', 'B'],
  );
});

test('lists drop members that are missing when read', async () => {
  const { df, fx } = await env();
  const entities = { Article: { 1: { id: '1', title: 'one' }, 3: { id: '3', title: 'three' } } };
  const out = df.denormalize([fx.Article], ['1', '2', '3'], entities);
  assert.deepEqual(
    out.map((a) => a.title),
    ['one', 'three'],
  );
  const out2 = df.denormalize(new df.schema.Array(fx.Article), ['2'], entities);
  assert.deepEqual(out2, []);
});

test('lists drop members that are deleted (Invalidate) when read', async () => {
  const { df, base, fx } = await env();
  const ctrl = new df.Controller();
  const del = new df.RestEndpoint({
    urlPrefix: base,
    path: '/articles/:id',
    method: 'DELETE',
    schema: new df.schema.Invalidate(fx.Article),
  });
  await ctrl.setResponse(fx.listArticles, {}, [{ id: '1' }, { id: '2' }, { id: '3' }]);
  await ctrl.setResponse(del, { id: '2' }, { id: '2' });
  const list = ctrl.getResponse(fx.listArticles, {}).data;
  assert.deepEqual(
    list.map((a) => a.id),
    ['1', '3'],
  );
});

test('object schemas: members that are not schemas are defaults', async () => {
  const { df, fx } = await env();
  for (const schema of [{ results: [fx.Post], nextPage: '', prevPage: '' }, new df.schema.Object({ results: [fx.Post], nextPage: '', prevPage: '' })]) {
    const { result, entities } = df.normalize(schema, { results: [{ id: 1, title: 'p1' }], nextPage: '2', other: 'x' });
    assert.equal(entities.Post['1'].title, 'p1');
    const back = df.denormalize(schema, result, entities);
    assert.equal(back.results[0].title, 'p1');
    assert.equal(back.results[0].content, '', 'entity default');
    assert.equal(back.nextPage, '2');
    assert.equal(back.prevPage, '', 'missing member takes its default');
    assert.equal(back.other, 'x', 'unknown members of an object are kept');
  }
});

test('object schema defaults through a fetch: a missing token member reads its default', async () => {
  const { df, base, fx } = await env();
  const ep = new df.RestEndpoint({
    urlPrefix: base,
    path: '/post',
    schema: { results: [fx.Post], nextPage: '', lastPage: '', prevPage: 'none' },
  });
  const page = await new df.Controller().useSuspense(ep, { page: '5' });
  assert.equal(page.results.length, 3);
  assert.equal(page.prevPage, 'none', '/post sends no prevPage: the default is read');
  assert.equal(page.lastPage, '5');
});

test('schema.Values: a string-keyed map of entities', async () => {
  const { df, fx } = await env();
  const schema = new df.schema.Values(fx.Article);
  const { result, entities } = df.normalize(schema, { first: { id: '1', title: 'x' }, second: { id: '2' } });
  assert.deepEqual(Object.fromEntries(Object.entries(result).map(([k, v]) => [k, String(v)])), { first: '1', second: '2' });
  const back = df.denormalize(schema, result, entities);
  assert.deepEqual(Object.keys(back).sort(), ['first', 'second']);
  assert.equal(back.first.title, 'x');
  assert.equal(back.second.title, '', 'defaults apply to map members');
});

test('schema.Union chosen by a field', async () => {
  const { df, fx } = await env();
  const union = new df.schema.Union({ post: fx.Post, user: fx.User }, 'type');
  const data = [
    { type: 'post', id: 1, title: 'P' },
    { type: 'user', id: 1, name: 'U' },
  ];
  const { result, entities } = df.normalize([union], data);
  assert.equal(entities.Post['1'].title, 'P');
  assert.equal(entities.User['1'].name, 'U');
  const back = df.denormalize([union], result, entities);
  assert.equal(back.length, 2);
  assert.equal(back[0].title, 'P');
  assert.equal(back[1].name, 'U');
  assert.equal(back[1].email, '', 'user defaults apply');
});

test('schema.Union chosen by a function', async () => {
  const { df, fx } = await env();
  const union = new df.schema.Union({ post: fx.Post, user: fx.User }, (value) => (value.title !== undefined ? 'post' : 'user'));
  const { result, entities } = df.normalize(
    { items: [union] },
    {
      items: [
        { id: 3, title: 'T' },
        { id: 4, name: 'N' },
      ],
    },
  );
  assert.equal(entities.Post['3'].title, 'T');
  assert.equal(entities.User['4'].name, 'N');
  const back = df.denormalize({ items: [union] }, result, entities);
  assert.deepEqual(
    back.items.map((x) => x.title ?? x.name),
    ['T', 'N'],
  );
});

test('schema.Invalidate normalizes to the pk of the deleted record', async () => {
  const { df, fx } = await env();
  const { result } = df.normalize(new df.schema.Invalidate(fx.Article), { id: '3' });
  assert.equal(String(result), '3');
});

test('schema.Invalidate: queryKey is undefined (it is never read by args, as data-client)', async () => {
  const { df, fx } = await env();
  const invalidate = new df.schema.Invalidate(fx.Article);
  assert.equal(
    invalidate.queryKey([{ id: 5 }], () => '5', { getEntity: () => ({ id: '5' }), getIndex: () => undefined }),
    undefined,
  );
});

test('schema.All: normalize stores its entities and gives no result, as data-client (an All is read from the tables)', async () => {
  const { df, fx } = await env();
  const all = df.normalize(new df.schema.All(fx.Article), [{ id: '1' }, { id: '2' }]);
  assert.equal(all.result, undefined);
  assert.deepEqual(Object.keys(all.entities.Article).sort(), ['1', '2']);
  const nested = df.normalize({ list: new df.schema.All(fx.Article), page: '' }, { list: { a: { id: '3' } }, page: 'p2' });
  assert.deepEqual(nested.result, { page: 'p2' });
  assert.deepEqual(Object.keys(nested.entities.Article), ['3']);
});

test('nested structures keep their shape', async () => {
  const { df, fx } = await env();
  const schema = { data: { featured: fx.Article, list: [fx.Article] }, meta: { total: 0 } };
  const input = { data: { featured: { id: '1', title: 'f' }, list: [{ id: '2' }, { id: '1' }] }, meta: { total: 2 } };
  const { result, entities } = df.normalize(schema, input);
  const back = df.denormalize(schema, result, entities);
  assert.equal(back.data.featured.title, 'f');
  assert.deepEqual(
    back.data.list.map((a) => a.id),
    ['2', '1'],
  );
  assert.equal(back.data.list[1].title, 'f', 'a repeat of a record without title is merged, not replaced');
  assert.equal(back.meta.total, 2);
});

test('normalize: {result, entities, entitiesMeta, indexes} with nested entities replaced by pks', async () => {
  const { df, fx } = await env();
  const out = df.normalize(fx.Article, { id: '1', title: 'T', author: { id: 7, name: 'Seven' } });
  assert.deepEqual(Object.keys(out).sort(), ['entities', 'entitiesMeta', 'indexes', 'result']);
  assert.equal(String(out.result), '1');
  assert.equal(String(out.entities.Article['1'].author), '7');
  assert.equal(out.entities.User['7'].name, 'Seven');
  assert.equal(JSON.parse(JSON.stringify(out)).entities.Article['1'].title, 'T', 'the output is plain data');
});

// ---------------------------------------------------------------- entity hooks

function versioned(df, extra = {}) {
  return df.Entity({
    key: 'Doc',
    defaults: { id: undefined, version: 0, title: '', at: new Date(0) },
    schema: { at: Date },
    ...extra,
  });
}

test('useIncoming returning false keeps the stored entity; it gets metas and read-form entities', async () => {
  const { df, base } = await env();
  const calls = [];
  const Doc = versioned(df, {
    useIncoming(existingMeta, incomingMeta, existing, incoming) {
      calls.push({ existingMeta, incomingMeta, existing, incoming });
      return existing.version <= incoming.version;
    },
  });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/docs/:id', schema: Doc });
  const ctrl = new df.Controller();
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', version: 2, title: 'newer', at: 1700000000000 });
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', version: 1, title: 'older', at: 1600000000000 });
  assert.equal(ctrl.getResponse(ep, { id: '1' }).data.title, 'newer', 'older data is discarded');
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', version: 3, title: 'newest' });
  assert.equal(ctrl.getResponse(ep, { id: '1' }).data.title, 'newest');

  assert.ok(calls.length >= 2, 'useIncoming is called when an entity is stored over another');
  const c = calls[0];
  for (const m of [c.existingMeta, c.incomingMeta]) {
    for (const f of ['date', 'fetchedAt', 'expiresAt']) {
      assert.equal(typeof m[f], 'number', `meta.${f} is a number`);
    }
  }
  assert.ok(c.existing.at instanceof Date, 'existing is in read form (dates as Date)');
  assert.ok(c.incoming.at instanceof Date, 'incoming is in read form (dates as Date)');
  assert.equal(c.existing.version, 2);
  assert.equal(c.incoming.version, 1);
});

test('shouldUpdate is an alias of useIncoming', async () => {
  const { df, base } = await env();
  const Doc = versioned(df, { shouldUpdate: (em, im, existing, incoming) => existing.version <= incoming.version });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/docs/:id', schema: Doc });
  const ctrl = new df.Controller();
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', version: 5, title: 'five' });
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', version: 4, title: 'four' });
  assert.equal(ctrl.getResponse(ep, { id: '1' }).data.title, 'five');
});

test('shouldReorder returning true: existing fields win the merge, new fields still arrive', async () => {
  const { df, base } = await env();
  const Doc = versioned(df, { shouldReorder: () => true });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/docs/:id', schema: Doc });
  const ctrl = new df.Controller();
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', title: 'first' });
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', title: 'second', extra: 'e' });
  const d = ctrl.getResponse(ep, { id: '1' }).data;
  assert.equal(d.title, 'first');
  assert.equal(d.extra, 'e');
});

test('default merge is shallow and incoming wins', async () => {
  const { df, base } = await env();
  const Doc = versioned(df);
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/docs/:id', schema: Doc });
  const ctrl = new df.Controller();
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', title: 'a', version: 1, keep: 'k' });
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', title: 'b' });
  const d = ctrl.getResponse(ep, { id: '1' }).data;
  assert.equal(d.title, 'b');
  assert.equal(d.version, 1, 'fields absent from the incoming record are kept');
  assert.equal(d.keep, 'k');
});

test('merge(existing, incoming) replaces the default merge', async () => {
  const { df, base } = await env();
  const Doc = versioned(df, { merge: (existing, incoming) => ({ ...existing, ...incoming, title: `${existing.title}+${incoming.title}` }) });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/docs/:id', schema: Doc });
  const ctrl = new df.Controller();
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', title: 'a' });
  await ctrl.setResponse(ep, { id: '1' }, { id: '1', title: 'b' });
  assert.equal(ctrl.getResponse(ep, { id: '1' }).data.title, 'a+b');
});

test('process(input, parent, key) transforms records before they are stored', async () => {
  const { df, base } = await env();
  const seen = [];
  const Comment = df.Entity({
    key: 'Comment',
    defaults: { id: undefined, name: '', words: 0 },
    process(input, parent, key) {
      seen.push({ parent, key });
      return { ...input, name: input.name.toUpperCase(), words: input.body.split(/\s+/).length };
    },
  });
  const ep = new df.RestEndpoint({ urlPrefix: base, path: '/wrapped/comments/:id', schema: { data: Comment } });
  const ctrl = new df.Controller();
  const out = await ctrl.useSuspense(ep, { id: 1 });
  assert.equal(out.data.name, 'GREAT WRITE-UP, ONE QUESTION');
  assert.ok(out.data.words > 10);
  assert.equal(ctrl.getState().entities.Comment['1'].name, 'GREAT WRITE-UP, ONE QUESTION', 'stored processed');
  assert.equal(seen[0].key, 'data');
});

test('default shouldReorder: a response to an earlier request never overwrites a later one', async () => {
  const { df, fx } = await env();
  const ctrl = new df.Controller();
  const orig = await ctrl.fetch(fx.getArticle, { id: '1' });
  await server.hold('response');
  const read = ctrl.fetch(fx.getArticle, { id: '1' }); // runs first: the old title
  await server.held(1);
  const write = ctrl.fetch(fx.patchArticle, { id: '1' }, { title: 'Written later' });
  const held = await server.held(2);
  assert.deepEqual(
    held.map((h) => h.method),
    ['GET', 'PATCH'],
  );
  await server.release(held[1].seq); // the PATCH answer first
  await write;
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data.title, 'Written later');
  await server.release(held[0].seq); // then the older GET answer
  await read; // settled: the older answer has been handled
  assert.notEqual(orig.title, 'Written later');
  assert.equal(ctrl.getResponse(fx.getArticle, { id: '1' }).data.title, 'Written later', 'the GET started earlier must not overwrite the PATCH started later');
  assert.equal(await promiseState(read), 'resolved');
});
