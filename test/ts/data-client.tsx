// A todo app written the way data-client's users write one (its resources,
// entity classes and components), with only the imports changed to
// 'datafetch' and 'datafetch/react': type-checked under `strict` by
// `npx tsc --noEmit -p test/ts`, not run. Lines marked @ts-expect-error
// prove the types reject misuse; the Expect<...> aliases prove what is
// inferred; the `// ^?` marks are checked by `node test/ts/hovers.mjs`.

import {
  Collection,
  Controller,
  createResource,
  type Denormalize,
  Entity,
  EntityMixin,
  type GetEndpoint,
  type MutateEndpoint,
  Query,
  type Resource,
  type ResourceGenerics,
  type ResourceOptions,
  RestEndpoint,
  type RestGenerics,
  resource,
  schema,
} from 'datafetch';
import {
  AsyncBoundary,
  actionTypes,
  DataProvider,
  getDefaultManagers,
  type ProviderProps,
  useController,
  useLoading,
  useQuery,
  useSuspense,
} from 'datafetch/react';
import { type ReactNode, useRef } from 'react';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// ------------------------------------------------------------ resources

/** A base class every entity of the API shares: abstract, with the id. */
export abstract class PlaceholderEntity extends Entity {
  id = 0;
}

/** A field type converted on read: a class with a static fromJSON. */
export class Money {
  constructor(readonly cents: number) {}
  static fromJSON(value: number) {
    return new Money(value);
  }
}

export class User extends PlaceholderEntity {
  name = '';
  username = '';
  address: Address = {} as Address;
  posts: Post[] = [];
  balance = new Money(0);

  get profileImage() {
    return `https://i.pravatar.cc/64?img=${this.id + 4}`;
  }

  static key = 'User';
}

export class Post extends PlaceholderEntity {
  title = '';
  author = User.fromJS();
  createdAt = new Date(0);

  pk() {
    return `${this.id}`;
  }

  static schema = { author: User, createdAt: Date };

  static process(input: any, parent: any, key: string | undefined, args: readonly unknown[]) {
    return { ...input, title: String(input.title ?? '') };
  }

  static validate(processed: { title?: unknown }) {
    if (typeof processed.title !== 'string') return 'title must be a string';
    return undefined;
  }

  static shouldReorder(existingMeta: { fetchedAt: number }, incomingMeta: { fetchedAt: number }, existing: any, incoming: any) {
    return incomingMeta.fetchedAt < existingMeta.fetchedAt;
  }
}
// Late, as a cycle needs (User.posts -> Post.author -> User).
User.schema = { posts: [Post], balance: Money };

export interface Address {
  readonly street: string;
  readonly city: string;
}

/** A RestEndpoint subclass kept generic, as data-client's docs write one. */
export class AuthdEndpoint<O extends RestGenerics = any> extends RestEndpoint<O> {
  urlPrefix = 'https://jsonplaceholder.typicode.com';
  dataExpiryLength = 60 * 60 * 1000;

  async getRequestInit(body: any): Promise<RequestInit> {
    const init = await super.getRequestInit(body);
    return { ...init, body: init.body as BodyInit | null | undefined, headers: { ...init.headers, 'Access-Token': 'secret' } };
  }

  async parseResponse(response: Response) {
    const parsed = await super.parseResponse(response);
    return parsed?.data ?? parsed;
  }

  process(value: any, ...args: any[]) {
    return super.process(value, ...args);
  }
}

/** Common patterns of the API, as a function that makes resources. */
export function placeholderResource<O extends ResourceGenerics = any>(options: Readonly<O> & ResourceOptions): Resource<O> {
  return resource({
    ...options,
    Endpoint: AuthdEndpoint,
    dataExpiryLength: 1000 * 60 * 60,
  } as O & ResourceOptions).extend({
    partialUpdate: {
      process(response: any, ...args: any[]) {
        return { ...response, id: args?.[0]?.id };
      },
    },
  }) as any;
}

export class Todo extends PlaceholderEntity {
  userId = 0;
  title = '';
  completed = false;

  get done() {
    return this.completed ? 'done' : 'open';
  }

  static key = 'Todo';
}

export const TodoResource = resource({
  path: '/todos/:id',
  schema: Todo,
  optimistic: true,
  searchParams: {} as { userId?: string | number } | undefined,
}).extend({
  partialUpdate: {
    process(value: any, ...args: any[]) {
      return { ...value, id: args[0]?.id };
    },
  },
});

export const UserResource = placeholderResource({ path: '/users/:id', schema: User });

export class Comment extends PlaceholderEntity {
  body = '';
  post = Post.fromJS();

  static get key() {
    return 'Comment';
  }

  static schema = { post: Post };
}

export const CommentResource = createResource({ path: '/posts/:postId/comments/:id', schema: Comment, Endpoint: AuthdEndpoint });

export const queryRemainingTodos = new Query(TodoResource.getList.schema, (entries) => entries.filter((todo) => !todo.completed).length);
// Over every stored Todo, with its own (unannotated) args, as data-client's
// older example writes it.
export const queryRemainingOf = new Query(new schema.All(Todo), (entries, { userId } = {}) =>
  entries.filter((todo) => (userId === undefined || todo.userId === userId) && !todo.completed),
);

// ------------------------------------------------------------ components

function TodoListItem({ todo }: { todo: Todo }) {
  const ctrl = useController();
  const toggle = (checked: boolean) => ctrl.fetch(TodoResource.partialUpdate, { id: todo.id }, { completed: checked });
  const remove = () => ctrl.fetch(TodoResource.delete, { id: todo.id });
  // @ts-expect-error: a misspelled field of the class
  todo.titel;
  // @ts-expect-error: a misspelled field of the body
  ctrl.fetch(TodoResource.partialUpdate, { id: todo.id }, { complete: true });
  return (
    <label>
      <input type="checkbox" checked={todo.completed} onChange={(e) => toggle(e.currentTarget.checked)} />
      {todo.title} ({todo.done})<button onClick={remove}>×</button>
    </label>
  );
}

function TodoList({ userId }: { userId?: number }) {
  const todos = useSuspense(TodoResource.getList, { userId });
  //    ^? const todos: Todo[]
  // @ts-expect-error: the list takes no param but its declared search params
  useSuspense(TodoResource.getList, { user: 1 });
  return (
    <>
      {todos.map((todo) => (
        <TodoListItem key={todo.pk()} todo={todo} />
      ))}
    </>
  );
}

function TodoDetail({ id }: { id: number }) {
  const todo = useSuspense(TodoResource.get, { id: 1 });
  //    ^? const todo: Todo
  type _instance = Expect<Equal<typeof todo, Denormalize<typeof Todo>>>;
  // @ts-expect-error: get's path needs id
  useSuspense(TodoResource.get, { idd: id });
  // @ts-expect-error: and takes it
  useSuspense(TodoResource.get);
  return <h1>{todo.title}</h1>;
}

function NewTodo({ userId }: { userId?: number }) {
  const ctrl = useController();
  const input = useRef<HTMLInputElement>(null);
  const [handleAdd, isLoading] = useLoading(async () => {
    const title = input.current?.value.trim() ?? '';
    if (!title) return;
    await ctrl.fetch(TodoResource.getList.unshift, { userId }, { title, userId, completed: false });
  }, [ctrl, userId]);
  // An unannotated handler argument is the event, as in data-client.
  const [handleSubmit] = useLoading(async (event) => {
    event.preventDefault();
    await handleAdd();
  }, [handleAdd]);
  return (
    <form onSubmit={handleSubmit}>
      <input ref={input} />
      <button type="button" onClick={handleAdd} disabled={isLoading}>
        Add
      </button>
    </form>
  );
}

function TodoStats({ userId }: { userId?: number }) {
  const remaining = useQuery(queryRemainingTodos, { userId });
  type _remaining = Expect<Equal<typeof remaining, number | undefined>>;
  const open = useQuery(queryRemainingOf, { userId });
  type _open = Expect<Equal<typeof open, Todo[] | undefined>>;
  return <span>{remaining ?? 0} remaining</span>;
}

function UserHeader({ id }: { id: number }) {
  const user = useSuspense(UserResource.get, { id });
  const users = useSuspense(UserResource.getList);
  type _users = Expect<Equal<typeof users, User[]>>;
  const author: User = user.posts[0].author;
  const when: Date = user.posts[0].createdAt;
  const cents: number = user.balance.cents;
  return (
    <img src={user.profileImage} alt={`${user.name} ${author.name} ${when.getTime()} ${cents} ${user.address.city}`} />
  );
}

function Comments({ postId }: { postId: number }) {
  const comments = useSuspense(CommentResource.getList, { postId });
  type _comments = Expect<Equal<typeof comments, Comment[]>>;
  // @ts-expect-error: the list path needs postId
  useSuspense(CommentResource.getList, {});
  return <ul>{comments.map((c) => <li key={c.pk()}>{`${c.body} on ${c.post.title}`}</li>)}</ul>;
}

function RootProvider({ children, ...rest }: { children: ReactNode } & ProviderProps) {
  return (
    <DataProvider {...rest}>
      <AsyncBoundary fallback="loading…">{children}</AsyncBoundary>
    </DataProvider>
  );
}

export function App() {
  return (
    <RootProvider controller={new Controller()}>
      <TodoDetail id={1} />
      <NewTodo userId={1} />
      <TodoList userId={1} />
      <TodoStats userId={1} />
      <UserHeader id={1} />
      <Comments postId={1} />
    </RootProvider>
  );
}

// ------------------------------------------------------------ types user code names

const listSchema = TodoResource.getList.schema;
//    ^? const listSchema: CollectionSchema<readonly [typeof Todo]>
const sameSchema: schema.Collection<[typeof Todo]> = listSchema;
const alsoSame: Collection<[typeof Todo]> = new Collection([Todo]);

// A typed endpoint of the generic subclass, and one of RestEndpoint itself.
const getPost = new AuthdEndpoint({ path: '/posts/:id', schema: Post });
//    ^? const getPost: AuthdEndpoint<{ path: "/posts/:id"; schema: typeof Post; }>
const postURL: string = getPost.url({ id: 1 });
// @ts-expect-error: the path's token is required
getPost.url({});
const searchPosts = new RestEndpoint({
  path: '/posts',
  searchParams: {} as { author?: number },
  schema: new Collection([Post]),
});
// @ts-expect-error: not a declared search param
searchPosts.url({ writer: 1 });

// data-client's type names.
const getUser: GetEndpoint<{ path: '/users/:id'; schema: typeof User }> = UserResource.get;
type _getUser = Expect<Equal<typeof UserResource.get, GetEndpoint<{ path: '/users/:id'; schema: typeof User }>>>;
// @ts-expect-error: its data is a User, not a Todo
const notTodos: GetEndpoint<{ path: '/users/:id'; schema: typeof Todo }> = UserResource.get;
const updateTodo: MutateEndpoint<{ path: '/todos/:id'; schema: typeof Todo; body: Partial<Todo> }> = new RestEndpoint({
  path: '/todos/:id',
  method: 'PUT',
  schema: Todo,
  body: {} as Partial<Todo>,
});
type _userRead = Expect<Equal<Denormalize<typeof User>, User>>;
type _listRead = Expect<Equal<Denormalize<typeof listSchema>, Todo[]>>;
type _money = Expect<Equal<Denormalize<{ balance: typeof Money; count: NumberConstructor }>, { balance: Money; count: number }>>;

// EntityMixin over a plain class; a record made with fromJS.
const Repo = EntityMixin(
  class {
    slug = '';
    stars = 0;
  },
  { pk: 'slug', key: 'Repo' },
);
const repo: Denormalize<typeof Repo> = Repo.fromJS({ slug: 'datafetch' });
const draft: Todo = Todo.fromJS({ title: 'draft' });

// The top-level Controller, before load() as after.
async function early() {
  const ctrl = new Controller();
  const loaded = await ctrl.ready;
  const todos = await ctrl.fetch(TodoResource.getList, { userId: 1 });
  type _fetched = Expect<Equal<typeof todos, Todo[]>>;
  return [loaded, ctrl.loaded, todos];
}

export { alsoSame, draft, early, getUser, notTodos, postURL, repo, sameSchema, updateTodo };

// Managers, as data-client apps pass them to the provider.
export function WithManagers({ children }: { children?: ReactNode }) {
  const logger: import('datafetch').Manager = {
    middleware: (controller) => (next) => async (action) => {
      if (action.type === actionTypes.FETCH) console.log(action.key, controller.dispatch !== undefined);
      return next(action);
    },
    cleanup() {},
  };
  return <DataProvider managers={[...getDefaultManagers(), logger]}>{children}</DataProvider>;
}
