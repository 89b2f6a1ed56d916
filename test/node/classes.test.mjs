// Entity classes (docs/js-api.md, "Entity classes"): data-client's
// declarations (class X extends Entity, EntityMixin), declared at module
// top level before load(), read as instances of their class with the
// identity rules of plain reads.

import assert from 'node:assert/strict';
import { env, fakeClock, importModule, setup, test } from './harness.mjs';

setup();

// The module's exports, imported without load(): declaring needs no engine.
const mod = await importModule();
const { Entity, EntityMixin, schema, Collection, Query, All, Union, Values, Invalidate } = mod;

// A local endpoint no test fetches: data goes in with setResponse.
let seq = 0;
function local(df, s, path = `/local/${++seq}/:id`) {
  return new df.RestEndpoint({ urlPrefix: 'http://127.0.0.1:9', path, schema: s });
}

// ---------------------------------------------------------------- declaring

test('the module exports data-client names at top level, usable before load()', () => {
  for (const [name, v] of Object.entries({ Entity, EntityMixin, Collection, Query, All, Union, Values, Invalidate })) {
    assert.equal(typeof v, 'function', `${name} is exported`);
  }
  assert.equal(schema.Entity, EntityMixin, 'schema.Entity is EntityMixin, as in data-client');
  for (const name of ['Array', 'Object', 'Values', 'Union', 'Invalidate', 'All', 'Query', 'Collection']) {
    assert.equal(typeof schema[name], 'function', `schema.${name}`);
  }
  // Declared before any load() has resolved in this file's test: no engine call.
  class Early extends Entity {
    id = 0;
    name = '';
  }
  const list = new Collection([Early]);
  const q = new Query(new All(Early), (rows) => rows.length);
  assert.equal(Early.key, 'Early', 'static key defaults to the class name');
  assert.ok(list instanceof Collection && q instanceof Query);
});

test('static key: the class name unless set; a subclass has its own', () => {
  class Base extends Entity {
    id = 0;
  }
  class Named extends Base {
    static key = 'Other';
  }
  class Child extends Base {}
  assert.equal(Base.key, 'Base');
  assert.equal(Named.key, 'Other');
  assert.equal(Child.key, 'Child');
  assert.equal(String(Named), 'Other', 'toString is the key');
});

test('field initializers are the defaults; a missing field reads its default', async () => {
  const { df } = await env();
  class Todo extends Entity {
    id = 0;
    title = '';
    completed = false;
    tags = [];
  }
  assert.deepEqual({ ...Todo.defaults }, { id: 0, title: '', completed: false, tags: [] });
  const ctrl = new df.Controller();
  const ep = local(df, Todo);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, title: 'write' });
  const todo = ctrl.getResponse(ep, { id: 1 }).data;
  assert.equal(todo.completed, false);
  assert.deepEqual(todo.tags, []);
  assert.equal(todo.title, 'write');
});

// ---------------------------------------------------------------- reads are instances

test('reads are instances of the class: instanceof, pk(), getters, methods', async () => {
  const { df } = await env();
  class User extends Entity {
    id = 0;
    first = '';
    last = '';
    get fullName() {
      return `${this.first} ${this.last}`;
    }
    initials() {
      return this.first[0] + this.last[0];
    }
  }
  const ctrl = new df.Controller();
  const ep = local(df, [User], '/local/users');
  await ctrl.setResponse(ep, {}, [
    { id: 1, first: 'Ada', last: 'Lovelace' },
    { id: 2, first: 'Alan', last: 'Turing' },
  ]);
  const [ada, alan] = ctrl.getResponse(ep, {}).data;
  assert.ok(ada instanceof User && ada instanceof Entity);
  assert.equal(ada.pk(), 1);
  assert.equal(ada.fullName, 'Ada Lovelace');
  assert.equal(alan.initials(), 'AT');
  assert.deepEqual(Object.keys(ada), ['id', 'first', 'last'], 'members are own data properties, in the defaults order');
  assert.equal(JSON.stringify(ada), '{"id":1,"first":"Ada","last":"Lovelace"}');
});

test('identity: an unchanged re-read is ===; one change rebuilds only what holds it', async () => {
  const { df } = await env();
  class Author extends Entity {
    id = 0;
    name = '';
  }
  class Book extends Entity {
    id = 0;
    title = '';
    author = null;
    static schema = { author: Author };
  }
  const ctrl = new df.Controller();
  const list = local(df, [Book], '/local/books');
  const oneAuthor = local(df, Author);
  await ctrl.setResponse(list, {}, [
    { id: 1, title: 'A', author: { id: 10, name: 'x' } },
    { id: 2, title: 'B', author: { id: 11, name: 'y' } },
    { id: 3, title: 'C', author: { id: 11, name: 'y' } },
  ]);
  const first = ctrl.getResponse(list, {}).data;
  assert.equal(ctrl.getResponse(list, {}).data, first);
  await ctrl.setResponse(oneAuthor, { id: 11 }, { id: 11, name: 'Y' });
  const second = ctrl.getResponse(list, {}).data;
  assert.notEqual(second, first);
  assert.equal(second[0], first[0], 'a book whose author did not change is the same object');
  assert.notEqual(second[1], first[1]);
  assert.ok(second[1] instanceof Book, 'a rebuilt entity is still an instance');
  assert.ok(second[1].author instanceof Author);
  assert.equal(second[1].author, second[2].author, 'one author, one object');
  assert.equal(second[1].author.name, 'Y');
});

test('a changed entity in a long list keeps its class (copied over the object held)', async () => {
  const { df } = await env();
  class Row extends Entity {
    id = 0;
    a = '';
    b = '';
    c = '';
    d = '';
    get label() {
      return `${this.id}:${this.a}`;
    }
  }
  const ctrl = new df.Controller();
  const list = local(df, [Row], '/local/rows');
  const rows = Array.from({ length: 50 }, (_, i) => ({ id: i, a: 'a', b: 'b', c: 'c', d: 'd' }));
  await ctrl.setResponse(list, {}, rows);
  const before = ctrl.getResponse(list, {}).data;
  await ctrl.setResponse(
    list,
    {},
    rows.map((r) => (r.id === 7 ? { ...r, a: 'changed' } : r)),
  );
  const after = ctrl.getResponse(list, {}).data;
  assert.equal(after[6], before[6]);
  assert.notEqual(after[7], before[7]);
  assert.ok(after[7] instanceof Row);
  assert.equal(after[7].label, '7:changed');
});

test('a record wider than a shape (over 64 fields) is an instance too', async () => {
  const { df } = await env();
  class Wide extends Entity {
    id = 0;
    get count() {
      return Object.keys(this).length;
    }
  }
  const ctrl = new df.Controller();
  const ep = local(df, Wide);
  const rec = { id: 1 };
  for (let i = 0; i < 80; i++) rec[`f${i}`] = i;
  await ctrl.setResponse(ep, { id: 1 }, rec);
  const w = ctrl.getResponse(ep, { id: 1 }).data;
  assert.ok(w instanceof Wide);
  assert.equal(w.count, 81);
  assert.equal(w.f79, 79);
});

test('data under a getter name is an own property that shadows the getter', async () => {
  const { df } = await env();
  class Shadow extends Entity {
    id = 0;
    get title() {
      return 'from the getter';
    }
  }
  const ctrl = new df.Controller();
  const ep = local(df, Shadow);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, title: 'from the data' });
  const s = ctrl.getResponse(ep, { id: 1 }).data;
  assert.ok(s instanceof Shadow);
  assert.equal(s.title, 'from the data');
});

test('a Date field reads as a Date inside an instance', async () => {
  const { df } = await env();
  class Event extends Entity {
    id = 0;
    at = null;
    static schema = { at: Date };
  }
  const ctrl = new df.Controller();
  const ep = local(df, Event);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, at: '2024-03-01T09:00:00.000Z' });
  const e = ctrl.getResponse(ep, { id: 1 }).data;
  assert.ok(e instanceof Event);
  assert.ok(e.at instanceof Date);
  assert.equal(e.at.toISOString(), '2024-03-01T09:00:00.000Z');
});

// ---------------------------------------------------------------- schemas: late, cyclic, inherited

test('static schema is read when first used: assigned after the class, cyclic', async () => {
  const { df } = await env();
  class Person extends Entity {
    id = 0;
    name = '';
    posts = [];
  }
  class Note extends Entity {
    id = 0;
    text = '';
    author = null;
    static schema = { author: Person };
  }
  Person.schema = { posts: [Note] };
  const ctrl = new df.Controller();
  const ep = local(df, [Note], '/local/notes');
  await ctrl.setResponse(ep, {}, [{ id: 1, text: 'hi', author: { id: 5, name: 'Pat', posts: [{ id: 2, text: 'inner' }] } }]);
  const { entities } = ctrl.getState();
  assert.deepEqual(Object.keys(entities.Note).sort(), ['1', '2'], 'the nested note was normalized through Person.posts');
  assert.deepEqual(entities.Person['5'].posts.map(String), ['2']);
  const [note] = ctrl.getResponse(ep, {}).data;
  assert.ok(note.author instanceof Person);
  assert.ok(note.author.posts[0] instanceof Note);
  assert.equal(note.author.posts[0].text, 'inner');
});

test('class hierarchies: an abstract base with shared fields, super.schema spread', async () => {
  const { df } = await env();
  class Tag extends Entity {
    id = 0;
    label = '';
  }
  class Base extends Entity {
    id = 0;
    createdAt = null;
    static schema = { createdAt: Date };
  }
  class Article extends Base {
    title = '';
    tags = [];
    static schema = { ...super.schema, tags: [Tag] };
  }
  const ctrl = new df.Controller();
  const ep = local(df, Article);
  await ctrl.setResponse(ep, { id: 3 }, { id: 3, title: 't', createdAt: 0, tags: [{ id: 1, label: 'go' }] });
  const a = ctrl.getResponse(ep, { id: 3 }).data;
  assert.ok(a instanceof Article && a instanceof Base);
  assert.ok(a.createdAt instanceof Date);
  assert.ok(a.tags[0] instanceof Tag);
  assert.deepEqual(Object.keys(a), ['id', 'createdAt', 'title', 'tags']);
});

// ---------------------------------------------------------------- primary keys and hooks

test('pk(): a method returning a field, or computing one', async () => {
  const { df } = await env();
  class Handle extends Entity {
    username = '';
    pk() {
      return this.username;
    }
  }
  class Pair extends Entity {
    a = '';
    b = '';
    pk() {
      return `${this.a}-${this.b}`;
    }
  }
  const h = df.normalize([Handle], [{ username: 'ada' }]);
  assert.deepEqual(Object.keys(h.entities.Handle), ['ada']);
  const p = df.normalize([Pair], [{ a: 'x', b: 'y' }]);
  assert.deepEqual(Object.keys(p.entities.Pair), ['x-y']);
  assert.equal(Pair.pk({ a: '1', b: '2' }), '1-2', 'static pk calls the method on a record');
});

test('static process, validate, merge, shouldUpdate, shouldReorder are called', async () => {
  const { df } = await env();
  const calls = [];
  class Item extends Entity {
    id = 0;
    name = '';
    seen = 0;
    static process(input, parent, key) {
      calls.push('process');
      return { ...input, name: String(input.name).trim() };
    }
    static validate(processed) {
      if (processed.name === 'bad') return 'name must not be bad';
    }
    static merge(existing, incoming) {
      calls.push('merge');
      return { ...existing, ...incoming, seen: (existing.seen ?? 0) + 1 };
    }
    static shouldUpdate(existingMeta, incomingMeta, existing, incoming) {
      calls.push('shouldUpdate');
      return incoming.name !== 'ignored';
    }
    static shouldReorder() {
      calls.push('shouldReorder');
      return false;
    }
  }
  const ctrl = new df.Controller();
  const ep = local(df, Item);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, name: '  spaced ' });
  assert.equal(ctrl.getResponse(ep, { id: 1 }).data.name, 'spaced');
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, name: 'again' });
  assert.equal(ctrl.getResponse(ep, { id: 1 }).data.seen, 1);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, name: 'ignored' });
  assert.equal(ctrl.getResponse(ep, { id: 1 }).data.name, 'again', 'shouldUpdate false keeps the stored entity');
  for (const name of ['process', 'merge', 'shouldUpdate', 'shouldReorder']) assert.ok(calls.includes(name), `${name} was called`);
  await assert.rejects(ctrl.setResponse(ep, { id: 1 }, { id: 1, name: 'bad' }), (err) => {
    assert.match(err.message, /Item/);
    assert.match(err.message, /name must not be bad/);
    return true;
  });
  assert.equal(ctrl.getResponse(ep, { id: 1 }).data.name, 'again', 'a refused record leaves the store as it was');
});

// ---------------------------------------------------------------- other forms

test('EntityMixin: any class with pk, key and schema options', async () => {
  const { df } = await env();
  class Plain {
    slug = '';
    owner = null;
    get upper() {
      return this.slug.toUpperCase();
    }
  }
  class Owner extends Entity {
    id = 0;
  }
  const Repo = EntityMixin(Plain, { pk: 'slug', key: 'Repo', schema: { owner: Owner } });
  const ctrl = new df.Controller();
  const ep = local(df, Repo, '/local/repos/:slug');
  await ctrl.setResponse(ep, { slug: 'go' }, { slug: 'go', owner: { id: 1 } });
  const r = ctrl.getResponse(ep, { slug: 'go' }).data;
  assert.ok(r instanceof Repo && r instanceof Plain);
  assert.equal(r.upper, 'GO');
  assert.equal(r.pk(), 'go');
  assert.ok(r.owner instanceof Owner);
  assert.equal(Repo.key, 'Repo');
});

test('df.Entity(class) makes the class an entity class; the options form stays', async () => {
  const { df } = await env();
  const Thing = df.Entity(
    class Thing {
      id = 0;
      name = '';
    },
  );
  const ctrl = new df.Controller();
  const ep = local(df, Thing);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, name: 'x' });
  assert.ok(ctrl.getResponse(ep, { id: 1 }).data instanceof Thing);
  const Plain = df.Entity({ key: 'PlainThing', defaults: { id: 0 } });
  const ep2 = local(df, Plain);
  await ctrl.setResponse(ep2, { id: 1 }, { id: 1 });
  assert.equal(Object.getPrototypeOf(ctrl.getResponse(ep2, { id: 1 }).data), Object.prototype, 'factory entities read as plain objects');
});

test('entity classes in Union, All, Query, Collection and resource()', async () => {
  const { df } = await env();
  class Cat extends Entity {
    id = 0;
    type = 'cat';
    meow() {
      return 'meow';
    }
  }
  class Dog extends Entity {
    id = 0;
    type = 'dog';
  }
  const pets = local(df, [new Union({ cat: Cat, dog: Dog }, 'type')], '/local/pets');
  const ctrl = new df.Controller();
  await ctrl.setResponse(pets, {}, [
    { id: 1, type: 'cat' },
    { id: 1, type: 'dog' },
  ]);
  const [cat, dog] = ctrl.getResponse(pets, {}).data;
  assert.ok(cat instanceof Cat && dog instanceof Dog);
  assert.equal(cat.meow(), 'meow');
  const all = ctrl.get(new All(Cat));
  assert.ok(all[0] instanceof Cat);
  const count = new Query(new All(Dog), (dogs) => dogs.length);
  assert.equal(ctrl.get(count), 1);
  const res = df.resource({ urlPrefix: 'http://127.0.0.1:9', path: '/cats/:id', schema: Cat });
  assert.ok(res.getList.schema instanceof Collection);
  await ctrl.setResponse(res.getList, {}, [{ id: 4 }]);
  assert.ok(ctrl.getResponse(res.getList, {}).data[0] instanceof Cat);
});

// ---------------------------------------------------------------- bad declarations

test('bad declarations are clear errors that name the class where first used, and the instance keeps working', async () => {
  const { df } = await env();
  class Broken extends Entity {
    id = 0;
    constructor() {
      super();
      throw new Error('no defaults here');
    }
  }
  const ctrl = new df.Controller();
  const broken = local(df, Broken);
  assert.throws(() => ctrl.getResponse(broken, { id: 1 }), /Broken.*no defaults here/);
  await assert.rejects(ctrl.fetch(broken, { id: 1 }), /Broken.*no defaults here/);
  class BadSchema extends Entity {
    id = 0;
    static schema = { child: 42 };
  }
  const bad = local(df, BadSchema);
  await assert.rejects(ctrl.setResponse(bad, { id: 1 }, { id: 1 }), /BadSchema: schema\.child: 42 is not a schema/);
  // Corrected, it registers afresh.
  BadSchema.schema = {};
  await ctrl.setResponse(bad, { id: 1 }, { id: 1 });
  assert.ok(ctrl.getResponse(bad, { id: 1 }).data instanceof BadSchema);
  const Anonymous = (() => class extends Entity {})();
  assert.throws(() => ctrl.getResponse(local(df, Anonymous), { id: 1 }), {
    name: 'TypeError',
    message: 'Entity classes without a name must define `static key`\nSee: https://dataclient.io/rest/api/Entity#key',
  });
});

// ---------------------------------------------------------------- field conversions

test('field schemas that are classes or functions convert the value when read', async () => {
  const { df } = await env();
  class Money {
    constructor(cents) {
      this.cents = cents;
    }
    static fromJSON(text) {
      return new Money(Math.round(Number(text) * 100));
    }
  }
  class Tag {
    constructor(name) {
      this.name = name;
    }
  }
  const parseDay = (s) => ({ day: s.slice(8, 10) });
  class Order extends Entity {
    id = 0;
    total = null;
    count = null;
    tag = null;
    day = null;
    scores = [];
    static schema = { total: Money, count: Number, tag: Tag, day: parseDay, scores: [Number] };
  }
  const ctrl = new df.Controller();
  const ep = local(df, Order);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, total: '12.50', count: '3', tag: 'rush', day: '2024-03-07', scores: ['1', '2'] });
  const o = ctrl.getResponse(ep, { id: 1 }).data;
  assert.ok(o.total instanceof Money, 'fromJSON');
  assert.equal(o.total.cents, 1250);
  assert.equal(o.count, 3, 'Number(value)');
  assert.ok(o.tag instanceof Tag, 'new Class(value) for a class without fromJSON');
  assert.equal(o.tag.name, 'rush');
  assert.deepEqual(o.day, { day: '07' }, 'a function is called with the value');
  assert.deepEqual(o.scores, [1, 2], 'each element of a list');
  assert.equal(ctrl.getResponse(ep, { id: 1 }).data.total, o.total, 'unchanged, the same converted object');
  assert.deepEqual(ctrl.getState().entities.Order['1'].total, '12.50', 'the store keeps the value as it came');

  await ctrl.setResponse(ep, { id: 2 }, { id: 2, total: null });
  const empty = ctrl.getResponse(ep, { id: 2 }).data;
  assert.equal(empty.total, null, 'null is not converted');
  assert.equal(empty.tag, null, 'nor a default of null');
});

test('a conversion that throws fails the read with its error; the instance keeps working', async () => {
  const { df } = await env();
  class Strict extends Entity {
    id = 0;
    code = null;
    static schema = {
      code: (v) => {
        if (typeof v !== 'string') throw new TypeError(`code must be a string, got ${typeof v}`);
        return v.toUpperCase();
      },
    };
  }
  const ctrl = new df.Controller();
  const ep = local(df, Strict);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, code: 5 });
  assert.throws(() => ctrl.getResponse(ep, { id: 1 }), /code must be a string/);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, code: 'ok' });
  assert.equal(ctrl.getResponse(ep, { id: 1 }).data.code, 'OK');
});

test("EntityMixin keeps the base class's static schema unless options give one", async () => {
  const { df } = await env();
  class Author extends Entity {
    id = 0;
  }
  class Plain {
    id = 0;
    author = null;
    static schema = { author: Author };
  }
  const Book = EntityMixin(Plain, { key: 'MixedBook' });
  assert.equal(Book.schema.author, Author);
  const ctrl = new df.Controller();
  const ep = local(df, Book);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, author: { id: 2 } });
  assert.ok(ctrl.getResponse(ep, { id: 1 }).data.author instanceof Author);
});

test('static mergeWithStore and mergeMetaWithStore decide what is stored when a class overrides them', async () => {
  const { df } = await env();
  const clock = fakeClock();
  class Tally extends Entity {
    id = 0;
    n = 0;
    static mergeWithStore(existingMeta, incomingMeta, existing, incoming) {
      return { ...incoming, n: existing.n + incoming.n };
    }
    static mergeMetaWithStore(existingMeta, incomingMeta) {
      return { ...incomingMeta, expiresAt: existingMeta.expiresAt };
    }
  }
  const ctrl = new df.Controller({ now: clock.now });
  const ep = local(df, Tally);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, n: 2 });
  const firstExpiry = ctrl.getState().entitiesMeta.Tally['1'].expiresAt;
  clock.advance(10);
  await ctrl.setResponse(ep, { id: 1 }, { id: 1, n: 3 });
  assert.equal(ctrl.getState().entities.Tally['1'].n, 5, 'mergeWithStore summed them');
  assert.equal(ctrl.getState().entitiesMeta.Tally['1'].expiresAt, firstExpiry, 'mergeMetaWithStore kept the stored expiry');
});

test('ctrl.set(Entity, value) writes an entity with no request; what reads it sees the change', async () => {
  const { df } = await env();
  class Price extends Entity {
    id = '';
    amount = 0;
    get cents() {
      return Math.round(this.amount * 100);
    }
  }
  const ctrl = new df.Controller();
  const list = local(df, [Price], '/local/prices');
  await ctrl.setResponse(list, {}, [{ id: 'BTC', amount: 1 }]);
  const seen = [];
  const stop = ctrl.subscribe(list, {}, ({ data }) => seen.push(data), { fetch: false });
  await ctrl.set(Price, { id: 'BTC', amount: 2.5 });
  const [btc] = ctrl.getResponse(list, {}).data;
  assert.ok(btc instanceof Price);
  assert.equal(btc.cents, 250);
  assert.equal(seen.at(-1)[0].amount, 2.5, 'the subscriber was told');
  assert.equal(ctrl.get(Price, { id: 'BTC' }).amount, 2.5);
  assert.deepEqual(Object.keys(ctrl.getState().endpoints).length, 1, 'no result stored for the set');
  await assert.rejects(ctrl.set(Price, { amount: 3 }), /primary key/);
  await assert.rejects(ctrl.set(Price), /expected set\(schema, \.\.\.args, value\)/);
  stop();
});
