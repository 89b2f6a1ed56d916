// Scalar (issue 22): data-client's schema of entity fields whose values
// depend on a lens the endpoint's args select (a portfolio here). The
// values are stored in cells of the table Scalar(<key>), one per record
// and lens; a read picks the cell of its own args' lens, so the same
// entity reads differently for different args.

import assert from 'node:assert/strict';
import { failureOf, fakeClock, importModule, loadDF, test } from './harness.mjs';

const df = await loadDF();
// The module's exports, as data-client's: Entity classes, Scalar.
const { Entity, Scalar } = await importModule();

class Company extends Entity {
  id = '';
  name = '';
  pct = 0;
  shares = 0;

  static key = 'Company';
}

const byPortfolio = (args) => args[0]?.portfolio;
// Bound to Company, so that it serves standalone (Values) too.
const PortfolioScalar = new Scalar({ lens: byPortfolio, key: 'portfolio', entity: Company });
Company.schema = { pct: PortfolioScalar, shares: PortfolioScalar };

const rows = {
  A: [
    { id: '1', name: 'Acme', pct: 0.5, shares: 10 },
    { id: '2', name: 'Bolt', pct: 0, shares: 0 },
  ],
  B: [
    { id: '1', name: 'Acme', pct: 0.3, shares: 3 },
    { id: '2', name: 'Bolt', pct: 0.7, shares: 7 },
  ],
};

// getCompanies keeps one result for every portfolio (its key leaves the
// portfolio out), so reads of it with other args read the same records.
const getCompanies = new df.Endpoint(async ({ portfolio }) => rows[portfolio], {
  name: 'getCompanies',
  key: () => 'companies',
  schema: [Company],
});
const columns = {};
const getColumns = new df.Endpoint(async ({ portfolio }) => columns[portfolio], {
  name: 'getColumns',
  schema: new df.schema.Values(PortfolioScalar),
});

const plain = (companies) => companies?.map((c) => ({ ...c }));

test('Scalar is exported at the top and as schema.Scalar, with data-client properties', () => {
  assert.equal(df.schema.Scalar, Scalar);
  assert.equal(Scalar.name, 'Scalar');
  assert.equal(PortfolioScalar.key, 'Scalar(portfolio)');
  assert.equal(PortfolioScalar.entityKey, 'Company');
  assert.equal(PortfolioScalar.lensSelector([{ portfolio: 'x' }]), 'x');
  assert.equal(new Scalar({ lens: byPortfolio, key: 'k' }).entityKey, undefined);
  const cell = { pct: 1 };
  assert.equal(PortfolioScalar.entityPk(cell, { 7: cell }, '7', []), '7');
  assert.equal(PortfolioScalar.entityPk({ id: 9 }, undefined, undefined, []), 9);
  // data-client's schema protocol, for code that walks schemas itself.
  const cells = { 'Company|1|A': { pct: 0.5 }, 'Company|2|B': { pct: 0.2 } };
  const delegate = { argsKey: (fn) => fn([{ portfolio: 'A' }]), unvisit: (_s, key) => cells[key] };
  assert.equal(PortfolioScalar.denormalize(['1', 'pct', 'Company'], delegate), 0.5);
  assert.equal(PortfolioScalar.denormalize(['2', 'pct', 'Company'], delegate), undefined);
  assert.deepEqual(PortfolioScalar.denormalize('Company|2|B', delegate), { pct: 0.2 });
  assert.equal(PortfolioScalar.denormalize(0.5, delegate), 0.5);
  const table = { getEntities: () => new Map(Object.entries(cells)) };
  assert.deepEqual(PortfolioScalar.queryKey([{ portfolio: 'B' }], undefined, table), ['Company|2|B']);
  assert.equal(PortfolioScalar.queryKey([{}], undefined, table), undefined);
  assert.deepEqual(PortfolioScalar.mergeWithStore({ fetchedAt: 2 }, { fetchedAt: 1 }, { a: 1, b: 1 }, { a: 2, c: 2 }), { a: 1, b: 1, c: 2 });
});

test('the same entity reads with the cells of each read args lens; no lens reads the fields undefined', async () => {
  const ctrl = new df.Controller({ now: fakeClock().now });
  await ctrl.fetch(getCompanies, { portfolio: 'A' });
  await ctrl.fetch(getCompanies, { portfolio: 'B' });
  const a = ctrl.getResponse(getCompanies, { portfolio: 'A' }).data;
  const b = ctrl.getResponse(getCompanies, { portfolio: 'B' }).data;
  assert.ok(a[0] instanceof Company);
  assert.deepEqual(plain(a), rows.A, 'falsy cell values are kept');
  assert.deepEqual(plain(b), rows.B);
  assert.deepEqual(plain(a), rows.A, "B's response left A's cells as they were");
  assert.equal(ctrl.getResponse(getCompanies, { portfolio: 'A' }).data, a, 'an unchanged read keeps its identity');
  const none = ctrl.getResponse(getCompanies, {}).data;
  assert.equal(none[0].name, 'Acme');
  assert.equal(none[0].pct, undefined);
  assert.equal(none[0].shares, undefined);

  const state = ctrl.getState();
  assert.deepEqual(state.entities.Company['1'].pct, ['1', 'pct', 'Company']);
  assert.deepEqual(state.entities['Scalar(portfolio)']['Company|1|A'], { pct: 0.5, shares: 10 });
  assert.deepEqual(state.entities['Scalar(portfolio)']['Company|1|B'], { pct: 0.3, shares: 3 });
});

test('a Values(Scalar) response stores cells that reads of the entity find; a later cell merges', async () => {
  const clock = fakeClock();
  const ctrl = new df.Controller({ now: clock.now });
  await ctrl.fetch(getCompanies, { portfolio: 'A' });
  columns.C = { 1: { pct: 0.9, shares: 90 }, 2: { pct: 0.1, shares: 1 } };
  const cells = await ctrl.fetch(getColumns, { portfolio: 'C' });
  assert.deepEqual(cells, { 1: { pct: 0.9, shares: 90 }, 2: { pct: 0.1, shares: 1 } });
  assert.deepEqual(plain(ctrl.getResponse(getCompanies, { portfolio: 'C' }).data), [
    { id: '1', name: 'Acme', pct: 0.9, shares: 90 },
    { id: '2', name: 'Bolt', pct: 0.1, shares: 1 },
  ]);

  clock.advance(1000);
  columns.A = { 1: { shares: 11 } };
  await ctrl.fetch(getColumns, { portfolio: 'A' });
  assert.deepEqual(
    plain(ctrl.getResponse(getCompanies, { portfolio: 'A' }).data)[0],
    { id: '1', name: 'Acme', pct: 0.5, shares: 11 },
    "the later cell's field wins, the others stay",
  );
});

test('normalize and denormalize take the args that select the lens', () => {
  const a = df.normalize([Company], rows.A, [{ portfolio: 'A' }]);
  const b = df.normalize([Company], rows.B, [{ portfolio: 'B' }], a);
  assert.deepEqual(b.entities['Scalar(portfolio)']['Company|1|A'], { pct: 0.5, shares: 10 });
  assert.equal(df.denormalize([Company], a.result, b.entities, [{ portfolio: 'B' }])[0].pct, 0.3);
  const memo = new df.MemoCache();
  assert.equal(memo.denormalize([Company], a.result, b.entities, [{ portfolio: 'A' }]).data[0].pct, 0.5);
  assert.equal(memo.denormalize([Company], a.result, b.entities, [{ portfolio: 'B' }]).data[0].pct, 0.3);
  const list = df.normalize([PortfolioScalar], [{ id: '2', pct: 0.7 }], [{ portfolio: 'D' }]);
  assert.deepEqual(list.result, ['Company|2|D']);
  // data-client's entityPk override, in a subclass.
  class CompanyIdScalar extends Scalar {
    entityPk(input) {
      return input.companyId;
    }
  }
  const custom = new CompanyIdScalar({ lens: byPortfolio, key: 'custom', entity: Company });
  const byCompanyId = df.normalize([custom], [{ companyId: '1', pct: 0.7 }], [{ portfolio: 'D' }]);
  assert.deepEqual(byCompanyId.result, ['Company|1|D']);
  assert.deepEqual(df.denormalize([custom], byCompanyId.result, byCompanyId.entities, []), [{ companyId: '1', pct: 0.7 }]);
});

test('a lens missing from the args, or a standalone Scalar without entity, is an Error naming it', async () => {
  const ctrl = new df.Controller({ now: fakeClock().now });
  const noLens = new df.Endpoint(async () => rows.A, { name: 'noLens', schema: [Company] });
  const missing = await failureOf(() => ctrl.fetch(noLens, {}));
  assert.match(missing.message, /Scalar\(portfolio\)/);
  assert.match(missing.message, /lens returned undefined/);
  const unbound = new Scalar({ lens: byPortfolio, key: 'unbound' });
  const standalone = await failureOf(() => df.normalize(new df.schema.Values(unbound), { 1: { pct: 1 } }, [{ portfolio: 'A' }]));
  assert.match(standalone.message, /Scalar\(unbound\)/);
  assert.match(standalone.message, /needs the entity option/);
  assert.throws(() => new Scalar({ key: 'x' }), /lens must be a function/);
  assert.throws(() => new Scalar({ lens: byPortfolio }), /key must be a non-empty string/);
  assert.deepEqual(ctrl.getState().entities, {}, 'the cache keeps its last good state');
});

test("a resource's list in a Collection whose argsKey leaves out the lens reads another lens without a request (data-client's Collection.queryKey)", async () => {
  const calls = { list: 0 };
  const { Collection, RestEndpoint } = await importModule();
  const list = new RestEndpoint({
    path: '/companies',
    searchParams: {},
    schema: new Collection([Company], { argsKey: () => ({}) }),
    fetch: async ({ portfolio }) => {
      calls.list++;
      return rows[portfolio];
    },
  });
  const ctrl = new df.Controller({ now: fakeClock().now });
  assert.deepEqual(plain(await ctrl.useSuspense(list, { portfolio: 'A' })), rows.A);
  const b = await ctrl.useSuspense(list, { portfolio: 'B' });
  assert.equal(calls.list, 1, 'the stored collection answers: no request');
  assert.equal(b[0].name, 'Acme');
  assert.equal(b[0].pct, undefined, "B's cells are not stored yet");
  columns.B = { 1: { pct: 0.3, shares: 3 }, 2: { pct: 0.7, shares: 7 } };
  await ctrl.fetch(getColumns, { portfolio: 'B' });
  assert.deepEqual(plain(ctrl.getResponse(list, { portfolio: 'B' }).data), rows.B, 'the lens-dependent columns alone were fetched');
  assert.equal(calls.list, 1);
});
