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
