// Types of data-client's forms (docs/js-api.md, "Entity classes" and
// "Endpoint classes"): entity classes with getters and a late static
// schema, resource({optimistic, searchParams}) extended, a Query over
// getList.schema, the hooks. Type-checked by `npx tsc --noEmit -p test/ts`,
// not run.
import { Controller, Entity, EntityMixin, type GetEndpoint, Query, type Denormalize, RestEndpoint, resource, Scalar, schema } from 'datafetch';
import { Controller as ReactController, useController, useLoading, useQuery, useSuspense } from 'datafetch/react';

export class User extends Entity {
  id = 0;
  name = '';
  get initials() {
    return this.name.slice(0, 2);
  }
  static key = 'User';
}

export class Todo extends Entity {
  id = 0;
  userId = 0;
  title = '';
  completed = false;
  author: User | null = null;
  static key = 'Todo';
}
Todo.schema = { author: User }; // late, as a cycle would need

const TodoResource = resource({
  path: '/todos/:id',
  schema: Todo,
  optimistic: true,
  searchParams: {} as { userId?: string | number } | undefined,
}).extend({
  partialUpdate: {
    process(value: any, params: any) {
      return { ...value, id: params?.id };
    },
  },
});

const remaining = new Query(TodoResource.getList.schema, (todos) => todos.filter((t) => !t.completed).length);

// A read is the class's instance type.
const oneTodo: Denormalize<typeof Todo> = new Todo();
const pk = oneTodo.pk();

function TodoItem({ id }: { id: number }) {
  const todo = useSuspense(TodoResource.get, { id });
  //    ^? const todo: Todo
  const title: string = todo.title;
  const who: string | undefined = todo.author?.initials;
  // @ts-expect-error: a misspelled field of the class
  todo.titel;
  const ctrl = useController();
  const [toggle, loading] = useLoading(() => ctrl.fetch(TodoResource.partialUpdate, { id }, { completed: !todo.completed }), [todo]);
  const left = useQuery(remaining, { userId: 1 });
  // @ts-expect-error: the list path takes no id
  useSuspense(TodoResource.getList, { id: 'x', userId: 1 });
  return [title, who, toggle, loading, left];
}

const list = TodoResource.getList.schema;
//    ^? const list: CollectionSchema<readonly [typeof Todo]>

const Mixed = EntityMixin(
  class Repo {
    slug = '';
  },
  { pk: 'slug', key: 'Repo' },
);
const repo = new (class extends Mixed {})();
const slug: string = repo.slug;

const getUser: GetEndpoint<User, { id: number }> = resource({ path: '/users/:id', schema: User }).get as any;
const early = new Controller();
const sameClass: typeof Controller = ReactController;
const ready: Promise<unknown> | undefined = early.ready;

export { TodoItem, pk, slug, getUser, ready, list, sameClass };

// A RestEndpoint subclass: class fields are options, methods override them.
class AuthedEndpoint extends RestEndpoint {
  urlPrefix = 'https://api.example.com';
  async getRequestInit(body: unknown) {
    const init = await super.getRequestInit(body);
    return { ...init, headers: { Authorization: 'Bearer token' } };
  }
}
const authed = new AuthedEndpoint({ path: '/todos/:id', schema: Todo });
const todoURL: string = authed.url({ id: 1 });
const typed = new RestEndpoint({ path: '/todos/:id', schema: Todo });
async function readTyped(ctrl: InstanceType<typeof Controller>) {
  const t = await ctrl.fetch(typed, { id: 1 });
  const done: boolean = t.completed;
  return done;
}
export { todoURL, readTyped };

async function pushPrice(ctrl: InstanceType<typeof Controller>) {
  await ctrl.set(Todo, { id: 1, title: 'from a socket' });
  await ctrl.set(TodoResource.getList.schema, { userId: 1 }, [{ id: 2, title: 'listed' }]);
}
export { pushPrice };

// Scalar: lens-dependent fields of an entity class, and standalone cells
// of a bound one (schema.Values, a list, a subclass's entityPk).
const PortfolioScalar = new Scalar({ lens: (args) => args[0]?.portfolio, key: 'portfolio' });
export class Company extends Entity {
  id = '';
  price = 0;
  pct = 0;
  static key = 'Company';
  static schema = { pct: PortfolioScalar };
}
const BoundScalar = new schema.Scalar({ lens: (args) => args[0]?.portfolio, key: 'portfolio', entity: Company });
class CompanyIdScalar extends Scalar {
  entityPk(input: { companyId: string }) {
    return input.companyId;
  }
}
const companies = new RestEndpoint({ path: '/companies', searchParams: {} as { portfolio: string }, schema: [Company] });
const columns = new RestEndpoint({ path: '/companies/columns', searchParams: {} as { portfolio: string }, schema: new schema.Values(BoundScalar) });
const byCompanyId = new RestEndpoint({
  path: '/companies/cells',
  schema: [new CompanyIdScalar({ lens: (args) => args[0]?.portfolio, key: 'c', entity: Company })],
});
async function readPortfolio(ctrl: InstanceType<typeof Controller>) {
  const list = await ctrl.fetch(companies, { portfolio: 'A' });
  const pct: number = list[0].pct;
  const cells = await ctrl.fetch(columns, { portfolio: 'A' });
  const cell: { [field: string]: any } | undefined = cells['1'];
  const key: string = BoundScalar.key;
  const lens: string | undefined = BoundScalar.lensSelector([{ portfolio: 'A' }]);
  void byCompanyId;
  return [pct, cell, key, lens];
}
export { readPortfolio };
// @ts-expect-error the lens is a function of the args
new Scalar({ lens: 'portfolio', key: 'portfolio' });
// @ts-expect-error key is required
new Scalar({ lens: () => 'A' });
