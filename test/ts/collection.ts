// Types of Collections: schema.Collection, push and getPage.
import { load } from 'datafetch';

const df = await load();
const Todo = df.Entity({ key: 'Todo', defaults: { id: '', userId: 0, title: '' } });
const todos = new df.schema.Collection([Todo], { argsKey: (params: { userId?: number }) => ({ userId: params.userId }) });
const list = new df.RestEndpoint({ path: '/todos', name: 'todos', schema: todos, paginationField: 'cursor' });
const ctrl = new df.Controller();
const read: { id: string; userId: number; title: string }[] = await ctrl.useSuspense(list, {});
void read;
if (list.push) await ctrl.fetch(list.push, {}, { title: 'x' });
if (list.getPage) await ctrl.fetch(list.getPage, { cursor: '2' });
// @ts-expect-error a Collection holds a list or a map, not an entity
new df.schema.Collection(Todo);

// nonFilterArgumentKeys: a test, a RegExp or the keys.
new df.schema.Collection([Todo], { nonFilterArgumentKeys: (key: string) => key.startsWith('ignored') });
new df.schema.Collection([Todo], { nonFilterArgumentKeys: /ignored/ });
new df.schema.Collection([Todo], { nonFilterArgumentKeys: ['ignoredMe'] });
// @ts-expect-error neither a test, a RegExp nor keys
new df.schema.Collection([Todo], { nonFilterArgumentKeys: 5 });

// move: on any endpoint with a Collection (movePath), and on getList.
const grouped = new df.RestEndpoint({ path: '/todos', movePath: '/todos/:id', schema: { data: { results: todos } } });
if (grouped.move) await ctrl.fetch(grouped.move, { id: '1' }, { userId: 2 });
const todoResource = df.resource({ path: '/todos/:id', schema: Todo });
const moved: { id: string; userId: number } = await ctrl.fetch(todoResource.getList.move, { id: '1' }, { userId: 2 });
void moved;
// @ts-expect-error the record's params: id is required
() => ctrl.fetch(todoResource.getList.move, {}, { userId: 2 });

// paginated(removeCursor): the function strips the cursor from the params.
const nextPage = list.paginated(({ cursor, ...rest }: { cursor: string; userId?: number }) => [rest]);
await ctrl.fetch(nextPage, { cursor: '2', userId: 1 });
