// Types of schema.Lazy (docs/js-api.md, "Lazy relationships"): a Lazy field
// reads as its pks, its query as the relationship, by ctrl.get, useQuery
// and MemoCache.query. Type-checked by `npx tsc --noEmit -p test/ts`, not run.
import { Controller, Entity, Lazy, MemoCache, load, schema } from 'datafetch';
import { useQuery } from 'datafetch/react';

class Building extends Entity {
  id = '';
  name = '';
  static key = 'Building';
}
class Department extends Entity {
  id = '';
  buildings: string[] = [];
  mainBuilding = '';
  static key = 'Department';
  static schema = {
    buildings: new Lazy([Building]),
    mainBuilding: new schema.Lazy(Building),
    byWing: new Lazy(new schema.Values(Building)),
  };
}

const ctrl = new Controller();
declare const dept: Department;
const buildings = ctrl.get(Department.schema.buildings.query, dept.buildings);
const names: string[] | undefined = buildings?.map((b) => b.name);
const hq = ctrl.get(Department.schema.mainBuilding.query, { id: dept.mainBuilding });
const hqName: string | undefined = hq?.name;
const wings = ctrl.get(Department.schema.byWing.query, { north: 'b1' });
const north: Building | undefined = wings?.north;
// @ts-expect-error: a list query takes the list of pks
ctrl.get(Department.schema.buildings.query, 'b1');
// @ts-expect-error: an entity query takes its params
ctrl.get(Department.schema.mainBuilding.query, 5);
const notQueryable: undefined = Department.schema.buildings.queryKey();

const memo = new MemoCache();
const read = memo.query(Department.schema.buildings.query, [dept.buildings], { entities: {} });

function DepartmentBuildings({ d }: { d: Department }) {
  const list = useQuery(Department.schema.buildings.query, d.buildings);
  return list?.length;
}

// The factory form: the field's type is the normalized form.
const df = await load();
const Shelf = df.Entity({ key: 'Shelf', defaults: { id: '', books: [] as string[], main: '' }, schema: { books: new df.schema.Lazy([Building]), main: new df.schema.Lazy(Building) } });
declare const shelf: ReturnType<typeof df.denormalize<typeof Shelf>>;
const pks: string[] | undefined = shelf && typeof shelf !== 'symbol' ? shelf.books : undefined;
const mainPK: string | undefined = shelf && typeof shelf !== 'symbol' ? shelf.main : undefined;

export { names, hqName, north, notQueryable, read, DepartmentBuildings, pks, mainPK };
