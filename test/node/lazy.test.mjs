// schema.Lazy (issue 22, data-client 0.18's Lazy): a relationship field
// normalized by its inner schema (its entities are stored, the field keeps
// their pks) that a read leaves as those pks, so the entity holding it
// neither resolves them nor depends on them; `lazy.query` reads the
// relationship on demand (ctrl.get, useQuery, MemoCache.query) with the
// pks as args. Responses come from the endpoints' own fetch (no network);
// time from the controller's now option.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { DIST, env, fakeClock, importModule, server, setup, test } from './harness.mjs';

setup();

const { Entity, Lazy, MemoCache, schema } = await importModule();
const { DataProvider, useQuery, useSuspense } = await import(pathToFileURL(join(DIST, 'react.mjs')).href);

const HOLD = Symbol.for('datafetch.controller.hold');
const LISTEN = Symbol.for('datafetch.controller.listen');
const MINUTE = 60_000;

class Building extends Entity {
  id = '';
  name = '';
  floors = 1;
}
class Manager extends Entity {
  id = '';
  name = '';
}
class Department extends Entity {
  id = '';
  name = '';
  buildings = [];
  mainBuilding = '';
  manager = null;
  static schema = {
    buildings: new Lazy([Building]),
    mainBuilding: new schema.Lazy(Building),
    byWing: new Lazy(new schema.Values(Building)),
    manager: Manager,
  };
}

const ENGINEERING = {
  id: 'd1',
  name: 'Engineering',
  manager: { id: 'm1', name: 'Alice' },
  mainBuilding: { id: 'b1', name: 'HQ', floors: 10 },
  buildings: [
    { id: 'b1', name: 'HQ', floors: 10 },
    { id: 'b2', name: 'Annex', floors: 2 },
  ],
  byWing: { north: 'b1', south: { id: 'b2', name: 'Annex', floors: 2 } },
};

// endpoint returns an endpoint whose fetch answers body (no network).
let seq = 0;
function endpoint(df, schemaOf, body) {
  return new df.RestEndpoint({
    urlPrefix: 'http://127.0.0.1:9',
    path: `/lazy/${++seq}/:id`,
    schema: schemaOf,
    fetch: async () => structuredClone(body),
  });
}

test('Lazy is schema.Lazy; its query is one object; it refuses what is not a schema', () => {
  assert.equal(Lazy, schema.Lazy);
  assert.equal(Lazy.name, 'Lazy');
  const lazy = Department.schema.buildings;
  assert.equal(lazy.query, lazy.query, 'the same query each time');
  assert.equal(lazy.query.schema, lazy.schema);
  assert.equal(
    lazy.queryKey([], () => {}, {}),
    undefined,
    'a Lazy itself is not read by args',
  );
  assert.throws(
    () => new Lazy(42),
    (err) => err instanceof TypeError && /schema\.Lazy/.test(err.message),
  );
});

test('a Lazy field reads as its pks, its entities stored; eager fields resolve', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const getDept = endpoint(df, Department, ENGINEERING);
  const dept = await ctrl.fetch(getDept, { id: 'd1' });
  assert.ok(dept instanceof Department);
  assert.deepEqual(dept.buildings, ['b1', 'b2']);
  assert.equal(dept.mainBuilding, 'b1');
  assert.deepEqual({ ...dept.byWing }, { north: 'b1', south: 'b2' });
  assert.ok(dept.manager instanceof Manager, 'an eager field is an entity');
  const { entities } = ctrl.getState();
  assert.deepEqual(Object.keys(entities.Building).sort(), ['b1', 'b2'], 'the buildings are stored');
  assert.deepEqual(
    { ...entities.Department.d1 },
    { ...ENGINEERING, mainBuilding: 'b1', buildings: ['b1', 'b2'], byWing: { north: 'b1', south: 'b2' }, manager: 'm1' },
  );
  assert.equal(await server.total(), 0);
  ctrl.close();
});

test('lazy.query reads the relationship with the pks (ctrl.get, MemoCache.query)', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const dept = await ctrl.fetch(endpoint(df, Department, ENGINEERING), { id: 'd1' });
  const { buildings, mainBuilding, byWing } = Department.schema;

  const list = ctrl.get(buildings.query, dept.buildings);
  assert.ok(list.every((b) => b instanceof Building));
  assert.deepEqual(
    list.map((b) => b.name),
    ['HQ', 'Annex'],
  );
  assert.equal(ctrl.get(buildings.query, dept.buildings), list, 'memoized: the same list');
  assert.deepEqual(
    ctrl.get(buildings.query, ['b2', 'missing']).map((b) => b.id),
    ['b2'],
    'a pk not stored is left out',
  );
  assert.deepEqual(ctrl.get(buildings.query, []), []);
  assert.equal(ctrl.get(buildings.query), undefined, 'no pks: nothing');

  const hq = ctrl.get(mainBuilding.query, { id: dept.mainBuilding });
  assert.ok(hq instanceof Building);
  assert.equal(hq, list[0], 'one object per entity');
  assert.equal(ctrl.get(mainBuilding.query, { id: 'b9' }), undefined);
  class Person extends Entity {
    id = '';
    username = '';
    static indexes = ['username'];
  }
  await ctrl.set(Person, { id: 'p1' }, { id: 'p1', username: 'bob' });
  const person = new Lazy(Person).query;
  assert.equal(ctrl.get(person, { username: 'bob' })?.id, 'p1', "by a static index, as the Entity's own read");
  assert.deepEqual(Object.keys(ctrl.get(byWing.query, dept.byWing)), ['north', 'south']);
  assert.equal(ctrl.get(byWing.query, dept.byWing).south.name, 'Annex');

  const state = ctrl.getState();
  const memo = new MemoCache();
  const r = memo.query(buildings.query, [dept.buildings], state);
  assert.deepEqual(
    r.data.map((b) => b.id),
    ['b1', 'b2'],
  );
  assert.deepEqual(
    r.paths.map((p) => `${p.key}/${p.pk}`),
    ['Building/b1', 'Building/b2'],
  );
  assert.equal(memo.query(buildings.query, [['b1', 'b2']], state), r, 'the same read again');
  const one = memo.query(mainBuilding.query, [{ id: 'b1' }], state);
  assert.ok(one.data instanceof Building);
  assert.equal(memo.query(mainBuilding.query, [{ id: 'b9' }], state).data, undefined);
  const parent = memo.denormalize(Department, 'd1', state.entities);
  assert.deepEqual(parent.paths.map((p) => p.key).sort(), ['Department', 'Manager'], "the parent's paths have no lazily named entity");
  ctrl.close();
});

test('a change to a lazily named entity keeps the parent; the query sees it', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const getDept = endpoint(df, Department, ENGINEERING);
  const dept = await ctrl.fetch(getDept, { id: 'd1' });
  const query = Department.schema.buildings.query;
  const before = ctrl.get(query, dept.buildings);
  let told = 0;
  const stop = ctrl[LISTEN](() => told++);

  await ctrl.set(Building, { id: 'b1' }, { id: 'b1', name: 'HQ renamed', floors: 11 });
  assert.equal(ctrl.getResponse(getDept, { id: 'd1' }).data, dept, 'the department keeps its identity');
  const after = ctrl.get(query, dept.buildings);
  assert.notEqual(after, before, 'the query reads a new list');
  assert.equal(after[0].name, 'HQ renamed');
  assert.equal(after[1], before[1], 'the unchanged building is the same object');
  assert.ok(told > 0, 'listeners (useQuery) are told');

  await ctrl.set(Manager, { id: 'm1' }, { id: 'm1', name: 'Bob' });
  const changed = ctrl.getResponse(getDept, { id: 'd1' }).data;
  assert.notEqual(changed, dept, 'an eager field still counts');
  assert.equal(changed.manager.name, 'Bob');
  stop();
  ctrl.close();
});

test('Lazy fields in a cycle: each side reads as pks, the chain by queries', async () => {
  const { df } = await env();
  class Dept extends Entity {
    id = '';
    buildings = [];
  }
  class Bldg extends Entity {
    id = '';
    departments = [];
  }
  // Assigned after both classes exist, as a late static schema is.
  Dept.schema = { buildings: new Lazy([Bldg]) };
  Bldg.schema = { departments: new Lazy([Dept]) };
  const ctrl = new df.Controller();
  const body = { id: 'd0', buildings: [{ id: 'b0', departments: [{ id: 'd1', buildings: [{ id: 'b0' }] }, 'd0'] }] };
  const d0 = await ctrl.fetch(endpoint(df, Dept, body), { id: 'd0' });
  assert.deepEqual({ ...d0 }, { id: 'd0', buildings: ['b0'] });
  const [b0] = ctrl.get(Dept.schema.buildings.query, d0.buildings);
  assert.ok(b0 instanceof Bldg);
  assert.deepEqual(b0.departments, ['d1', 'd0'], "the building's own Lazy field is pks");
  const depts = ctrl.get(Bldg.schema.departments.query, b0.departments);
  assert.deepEqual(
    depts.map((d) => d.id),
    ['d1', 'd0'],
  );
  assert.equal(depts[1].id, d0.id);

  // A chain far longer than a read's depth limit: one record each.
  const chain = 1500;
  const entities = { Dept: {}, Bldg: {} };
  for (let i = 0; i < chain; i++) {
    entities.Dept[`d${i}`] = { id: `d${i}`, buildings: [`b${i}`] };
    entities.Bldg[`b${i}`] = { id: `b${i}`, departments: i < chain - 1 ? [`d${i + 1}`] : [] };
  }
  assert.deepEqual({ ...df.denormalize(Dept, 'd0', entities) }, { id: 'd0', buildings: ['b0'] });
  ctrl.close();
});

test('useQuery(lazy.query, pks) renders the relationship', async () => {
  const { df } = await env();
  const ctrl = new df.Controller();
  const getDept = endpoint(df, Department, ENGINEERING);
  await ctrl.fetch(getDept, { id: 'd1' });
  function Buildings() {
    const dept = useSuspense(getDept, { id: 'd1' });
    const list = useQuery(Department.schema.buildings.query, dept.buildings);
    return h('ul', null, ...list.map((b) => h('li', { key: b.id }, `${b.name} (${b.floors})`)));
  }
  const html = renderToString(h(DataProvider, { controller: ctrl }, h(Buildings)));
  assert.equal(html, '<ul><li>HQ (10)</li><li>Annex (2)</li></ul>');
  ctrl.close();
});

test("gc keeps what a held result's Lazy field names, and what a held query reads", async () => {
  const { df } = await env();
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now, dataExpiryLength: MINUTE });
  const getDept = endpoint(df, Department, ENGINEERING);
  await ctrl.fetch(getDept, { id: 'd1' });
  const unsubscribe = ctrl.subscribe(getDept, { id: 'd1' }, () => {});
  clock.advance(60 * MINUTE);
  ctrl.gc();
  assert.deepEqual(Object.keys(ctrl.getState().entities.Building).sort(), ['b1', 'b2'], 'named by the held department');
  const release = ctrl[HOLD](Department.schema.buildings.query, ['b2']);
  unsubscribe();
  clock.advance(60 * MINUTE);
  ctrl.gc();
  assert.deepEqual(Object.keys(ctrl.getState().entities.Building ?? {}), ['b2'], 'only what the held query reads stays');
  release();
  ctrl.close();
});
