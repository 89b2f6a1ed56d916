// A small program using the names datafetch.d.ts exports, type-checked
// under `strict` by `npx tsc --noEmit -p test/ts` (it is not run). Lines
// marked @ts-expect-error prove the types reject misuse; the Expect<...>
// aliases prove what is inferred. By concept, params.ts (params from path
// templates), bodies.ts (bodies from the schema) and records.ts (defaults
// and flat records) hold the rest; together they use every exported name.

import { attach, load } from 'datafetch';
import type {
  AbortOptimistic,
  AbortOptimisticConstructor,
  ArraySchema,
  Controller,
  ControllerConstructor,
  ControllerOptions,
  DataFetch,
  Denormalize,
  DenormalizeObject,
  EndpointRequestInit,
  Entity,
  EntityFactory,
  EntityFieldSchemas,
  EntityMeta,
  EntityOptions,
  EntityRecord,
  EntityTables,
  EntityPath,
  ImmutableLike,
  MemoCacheConstructor,
  MemoResult,
  MemoState,
  ExpiryStatus,
  ExtendedEndpoint,
  FieldFromDefault,
  FieldFromSchema,
  HTTPMethod,
  InvalidateSchema,
  LegacyResource,
  LegacyResourceFactory,
  LegacyResourceOptions,
  LoadingState,
  LoadSource,
  MergeEndpoints,
  NetworkError,
  NetworkErrorConstructor,
  NormalizedData,
  ObjectSchema,
  Params,
  ParamValue,
  PK,
  RequestBody,
  Resource,
  ResourceEndpoints,
  ResourceExtensions,
  ResourceFactory,
  ResourceOptions,
  ResponseState,
  RestEndpoint,
  RestEndpointConstructor,
  RestEndpointOptions,
  Schema,
  SchemaClasses,
  SchemaDefault,
  SchemaObjectDefinition,
  Snapshot,
  StoreState,
  SubscribeOptions,
  SubscriptionState,
  UnionSchema,
  Unsubscribe,
  UpdateMap,
  UseLoading,
  ValuesSchema,
} from 'datafetch';

// Compile-time assertions.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const base = 'http://127.0.0.1:8080';

async function main(source: LoadSource): Promise<void> {
  // 1. Loading
  const df: DataFetch = await load(source);
  const again = await load();
  console.log(df === again, df.version.toUpperCase());
  // A Go program that links jsbridge itself shares its cache through attach.
  const bridge = (globalThis as { __datafetchGo?: object }).__datafetchGo;
  if (bridge) {
    const shared: DataFetch = attach(bridge);
    console.log(shared.version);
  }

  // 2. Schemas
  const entityFactory: EntityFactory = df.Entity;
  const User = entityFactory({ key: 'User', defaults: { id: 0, name: '' } });
  type UserT = Denormalize<typeof User>;
  type _u = Expect<Equal<UserT, { id: number; name: string }>>;
  const userPk: string | undefined = User.pk({ id: 1 });
  console.log(User.key, userPk);

  const articleFields: EntityFieldSchemas = { author: User, createdAt: Date };
  void articleFields;
  const Article = df.Entity({
    key: 'Article',
    pk: 'id',
    // `as` gives a default of undefined (or null, or []) its type; a bare
    // `id: undefined` would read as any (see records.ts).
    defaults: { id: undefined as string | undefined, title: '', content: '', published: false, author: null, tags: [] as string[], createdAt: new Date(0) },
    schema: { author: User, createdAt: Date },
    useIncoming(existingMeta, incomingMeta, existing, incoming) {
      return existingMeta.fetchedAt <= incomingMeta.fetchedAt || existing.title !== incoming.title;
    },
    shouldReorder: (a: EntityMeta, b: EntityMeta) => b.fetchedAt < a.fetchedAt,
    merge: (existing, incoming) => ({ ...existing, ...incoming }),
    process: (input) => ({ ...input, title: String(input.title ?? '') }),
  });
  type ArticleT = Denormalize<typeof Article>;
  type _a1 = Expect<Equal<ArticleT["title"], string>>;
  type _a2 = Expect<Equal<ArticleT['author'], { id: number; name: string } | null | undefined>>;
  type _a3 = Expect<Equal<ArticleT['createdAt'], Date>>;
  type _a4 = Expect<Equal<ArticleT['tags'], string[]>>;
  type _a5 = Expect<Equal<ArticleT['id'], string | undefined>>;
  // The record is one flat object type (hovers show its fields).
  type _a6 = Expect<
    Equal<
      ArticleT,
      {
        id: string | undefined;
        title: string;
        content: string;
        published: boolean;
        author: { id: number; name: string } | null | undefined;
        tags: string[];
        createdAt: Date;
      }
    >
  >;

  // Exact types through an explicit record type.
  interface CountFields {
    count: number;
    updatedAt: number;
  }
  const countOptions: EntityOptions<CountFields> = { key: 'Count', pk: () => 'SINGLETON', defaults: { count: 0, updatedAt: 0 } };
  const Count: Entity<EntityRecord<CountFields>> = df.Entity(countOptions);
  const Post = df.Entity({ key: 'Post', defaults: { id: null as number | null, title: '', content: '', userId: 0 } });
  const pkOf = (p: { id: PK }): string => String(p.id);
  const Profile = df.Entity({ key: 'Profile', pk: (value: { id: PK }) => pkOf(value), defaults: { id: '', fullName: '', bio: '' } });

  const fieldDefault: FieldFromDefault<undefined> = 'anything';
  const fieldDate: FieldFromSchema<DateConstructor, null> = null;
  void fieldDefault, fieldDate;

  const s: SchemaClasses = df.schema;
  const list: ArraySchema<typeof Article> = new s.Array(Article);
  const obj: ObjectSchema<{ results: [typeof Post]; nextPage: string }> = new df.schema.Object({ results: [Post] as [typeof Post], nextPage: '' });
  const values: ValuesSchema<typeof Profile> = new df.schema.Values(Profile);
  const union: UnionSchema<{ post: typeof Post; user: typeof User }> = new df.schema.Union({ post: Post, user: User }, 'type');
  const byFn = new df.schema.Union({ post: Post, user: User }, (value) => (value.title ? 'post' : 'user'));
  const gone: InvalidateSchema<typeof Article> = new df.schema.Invalidate(Article);
  const feed: ArraySchema<UnionSchema<{ post: typeof Post; user: typeof User }>> = new df.schema.Array({ post: Post, user: User }, 'type');
  const byKind = new df.schema.Values({ post: Post, user: User }, (value) => (value.title ? 'post' : 'user'));
  type _f = Expect<Equal<Denormalize<typeof feed>, (Denormalize<typeof Post> | UserT)[]>>;
  const users = new df.schema.Collection([User]);
  const tableKey: string = users.key;
  const collectionPK: string = users.pk(undefined, undefined, '', [{ group: 'a' }]);
  const pushed = df.normalize(users.push, [{ id: 8, name: 'Bo' }], [{ group: 'a' }], df.normalize(users, [], [{ group: 'a' }]));
  void tableKey, collectionPK, pushed;
  const shapes: Schema[] = [Article, [Article], list, obj, values, union, byFn, gone, feed, byKind, { data: [Article] }];
  type _l = Expect<Equal<Denormalize<typeof list>, ArticleT[]>>;
  type _v = Expect<Equal<Denormalize<typeof values>, { [key: string]: Denormalize<typeof Profile> }>>;
  type _un = Expect<Equal<Denormalize<typeof union>, Denormalize<typeof Post> | UserT>>;

  const pageDef = { results: [Post], nextPage: '', prevPage: '' } satisfies SchemaObjectDefinition;
  type Page = DenormalizeObject<typeof pageDef>;
  type _p = Expect<Equal<Page['nextPage'], string | null>>;
  const noPage: SchemaDefault = '';

  const normalized: NormalizedData = df.normalize([Article], [{ id: '1', title: 'x', author: { id: 7, name: 'Ada' } }]);
  const tables: EntityTables = normalized.entities;
  const back = df.denormalize([Article], normalized.result, tables);
  // INVALID when the data requires a deleted entity (data-client's symbol).
  if (back !== df.INVALID) console.log(shapes.length, noPage, back?.[0]?.author?.name);

  // MemoCache: denormalize with identity across calls, query over a state.
  const Memo: MemoCacheConstructor = df.MemoCache;
  const memo = new Memo();
  const memoed: MemoResult<ArticleT[] | undefined | typeof df.INVALID> = memo.denormalize([Article], normalized.result, tables);
  const firstPath: EntityPath | undefined = memoed.paths[0];
  const memoState: MemoState = { entities: tables, indexes: {} };
  const queried = memo.query(Article, [{ id: '1' }], memoState).data;
  if (queried !== df.INVALID) console.log(queried?.title, firstPath?.key, memo.buildQueryKey({ article: Article }, ['1'], memoState));
  const immutableTables: ImmutableLike = { toJS: () => tables, getIn: (path) => path };
  memo.denormalize(Article, '1', immutableTables);
  // @ts-expect-error query takes its args as an array
  memo.query(Article, { id: '1' }, memoState);

  // 3. Endpoints
  const method: HTTPMethod = 'GET';
  const getArticle = new df.RestEndpoint({ urlPrefix: base, path: '/articles/:id', method, name: 'getArticle', schema: Article });
  type _e = Expect<Equal<typeof getArticle, RestEndpoint<ArticleT, { readonly [name: string]: ParamValue; id: string | number }, RequestBody>>>;
  const idParam: ParamValue = '1';
  console.log(getArticle.url({ id: idParam }), getArticle.key({ id: 1, tag: ['a', 'b'] }));

  const getCount = new df.RestEndpoint({ urlPrefix: base, path: '/api/count', schema: Count });
  const Ctor: RestEndpointConstructor = df.RestEndpoint;
  const increment = new Ctor({
    urlPrefix: base,
    path: '/api/count/increment',
    method: 'POST',
    schema: Count,
    getRequestInit(body): EndpointRequestInit {
      const init: EndpointRequestInit = { method: 'POST', body: { ...(body as object), updatedAt: Date.now() } };
      return init;
    },
    getOptimisticResponse(snap: Snapshot) {
      const state: ResponseState<Denormalize<typeof Count>> = snap.getResponse(getCount);
      if (!state.data) throw new df.AbortOptimistic();
      return { count: state.data.count + 1, updatedAt: snap.fetchedAt };
    },
  });

  const articleOptions: RestEndpointOptions<{ id: string }, { title?: string }> = {
    urlPrefix: base,
    path: '/articles/:id',
    method: 'PATCH',
    async getHeaders(headers: HeadersInit) {
      return { ...(headers as Record<string, string>), Authorization: 'Bearer token' };
    },
    getOptimisticResponse: (_snap, params, body) => ({ id: params.id, ...body }),
    update: (newPk: string): UpdateMap => ({ [getArticle.key({ id: newPk })]: (pks: string[] = []) => [...pks, newPk] }),
    dataExpiryLength: 1000,
    errorExpiryLength: 500,
    invalidIfStale: true,
    pollFrequency: 5000,
    sideEffect: true,
    signal: new AbortController().signal,
    timeout: 2000,
  };
  const patchArticle = new df.RestEndpoint({ ...articleOptions, schema: Article });
  // @ts-expect-error: params must carry id as a string
  patchArticle.url({ id: 5 });

  interface Link {
    link: string | null;
    results: unknown[];
  }
  const linked = new df.RestEndpoint<Link>({
    urlPrefix: base,
    path: '/linked/posts',
    async fetch(params) {
      const response = await globalThis.fetch(this.url(params));
      return { link: response.headers.get('link'), results: await response.json() };
    },
  });
  const raw = new df.RestEndpoint<number>({
    urlPrefix: base,
    path: '/api/count',
    parseResponse: (response: Response) => response.json(),
    process: (value: { count: number }) => value.count,
  });
  const wrapped = getArticle.extend({ path: '/wrapped/comments/:id', schema: { data: Article } });
  type _w = Expect<Equal<Denormalize<{ data: typeof Article }>, { data: ArticleT }>>;
  const slower = getArticle.extend({ dataExpiryLength: 120_000 });
  const pages = new df.RestEndpoint({ urlPrefix: base, path: '/linked/posts', schema: [Post] }).paginated('page');

  // Resources
  const resourceOptions: ResourceOptions<typeof Article, { id: string }> = { urlPrefix: base, path: '/articles/:id', schema: Article };
  const makeResource: ResourceFactory = df.resource;
  const ArticleResource = makeResource(resourceOptions);
  const endpoints: ResourceEndpoints<ArticleT, { id: string }> = ArticleResource;
  const sameFactory: ResourceFactory = df.createResource;
  const extensions = {
    publish: { path: '/articles/:id', method: 'PATCH', body: { published: true } },
    getList: { schema: { data: [Article] } },
  } satisfies ResourceExtensions;
  const Extended = ArticleResource.extend(extensions);
  const merged: MergeEndpoints<ResourceEndpoints<ArticleT, { id: string }>, typeof extensions> = Extended;
  const listEp: ExtendedEndpoint<RestEndpoint<ArticleT[]>, (typeof extensions)['getList']> = Extended.getList;
  type _x = Expect<Equal<typeof listEp, RestEndpoint<{ data: ArticleT[] }, Params>>>;
  const resource: Resource<ResourceEndpoints<ArticleT, { id: string }>> = ArticleResource;
  console.log(endpoints.get.url({ id: '1' }), sameFactory === makeResource, merged.publish.key({}), resource.delete.key({ id: '2' }));

  // 4. Controller
  const options: ControllerOptions = { fetch: (url, init) => globalThis.fetch(url, init), dataExpiryLength: 60_000, errorExpiryLength: 1000 };
  let fakeTime = 1_700_000_000_000;
  const clocked: Controller = new df.Controller({ now: () => fakeTime, dataExpiryLength: Infinity, errorExpiryLength: Infinity });
  fakeTime += 1000;
  void clocked;
  // Retries and revalidation (cache lifecycle).
  const lively: Controller = new df.Controller({ retry: 3, retryDelay: (attempt, error) => (error.name === 'NetworkError' ? 100 * 2 ** attempt : 0), revalidateOnFocus: true, revalidateOnReconnect: true });
  const patient = getArticle.extend({ retry: 2, retryDelay: (attempt: number) => 50 * attempt });
  await lively.revalidateActive();
  lively.close();
  // @ts-expect-error revalidateOnFocus is a boolean
  new df.Controller({ revalidateOnFocus: 'yes' });
  void patient;
  const Controllers: ControllerConstructor = df.Controller;
  const ctrl: Controller = new Controllers(options);
  const shared: Controller = df.useController();

  const article = await ctrl.useSuspense(getArticle, { id: '1' });
  type _s = Expect<Equal<typeof article, ArticleT>>;
  console.log(article.title, article.createdAt.getTime(), article.author?.name);
  const nothing = await ctrl.useSuspense(getArticle, null);
  type _n = Expect<Equal<typeof nothing, undefined>>;
  const viaDefault = await df.useSuspense(getCount);
  const viaLegacy = await df.useResource(getCount);
  console.log(viaDefault.count + viaLegacy.count);

  const saved = await ctrl.fetch(patchArticle, { id: '1' }, { title: 'New' });
  // @ts-expect-error: the body of patchArticle has no field `nope`
  void ctrl.fetch(patchArticle, { id: '1' }, { nope: 1 });
  await ctrl.fetch(increment);
  const fresh = await ctrl.fetchIfStale(getArticle, { id: '1' });
  const state: ResponseState<ArticleT> = ctrl.getResponse(getArticle, { id: '1' });
  const status: ExpiryStatus = state.expiryStatus;
  console.log(saved.title, fresh.title, status, state.expiresAt);

  const unsubscribe: Unsubscribe = ctrl.subscribe(getArticle, { id: '1' }, (st: SubscriptionState<ArticleT>) => {
    if (st.error) console.error(st.error.message);
    else if (!st.loading) console.log(st.data?.title);
  });
  unsubscribe();
  const listenOnly: SubscribeOptions = { fetch: false };
  ctrl.subscribe(getArticle, { id: '1' }, () => {}, listenOnly)();
  ctrl.subscribe(getArticle, { id: '1' }, () => {}, { poll: false })();
  // @ts-expect-error: poll is a boolean
  ctrl.subscribe(getArticle, { id: '1' }, () => {}, { poll: 0 });

  await ctrl.invalidate(getArticle, { id: '1' });
  await ctrl.invalidateAll((key) => key.includes('/articles/'));
  await ctrl.expireAll((key) => key.startsWith('GET'));
  await ctrl.setResponse(getArticle, { id: '2' }, { id: '2', title: 'Set' });
  await ctrl.setError(getArticle, { id: '3' }, new Error('gone'));
  // @ts-expect-error: setError takes an Error
  await ctrl.setError(getArticle, { id: '3' }, 'gone');
  const snapshot: StoreState = shared.getState();
  console.log(Object.keys(snapshot.entities), snapshot.endpoints[getArticle.key({ id: '2' })], snapshot.optimistic.length);
  await ctrl.resetEntireStore();

  // 9.6 Inspector
  const stopInspecting: () => void = df.inspect(ctrl);
  stopInspecting();
  df.inspect(shared, document.createElement('div'))();

  const linkPage = await ctrl.useSuspense(linked, {});
  const n: number = await ctrl.fetch(raw);
  const w = await ctrl.useSuspense(wrapped, { id: '1' });
  const more = await ctrl.fetch(pages, { page: 2 });
  console.log(linkPage.link, n, w.data.title, more.length, slower.key({ id: '1' }));

  // 7. Other operations
  const use: UseLoading = df.useLoading;
  const [handler, loading, error]: LoadingState<[string], ArticleT> = use(
    (id: string) => ctrl.fetch(getArticle, { id }),
    ([, busy, err]) => console.log(busy, err?.message),
  );
  const maybe = await handler('1');
  console.log(loading, error, maybe?.title);

  const legacyOptions: LegacyResourceOptions<{ id: number | undefined; content: string; author: number | null; contributors: number[] }> = {
    urlRoot: `${base}/article/`,
    key: 'LegacyArticle',
    pk: (value: { id?: number }) => value.id?.toString(),
    defaults: { id: undefined, content: '', author: null, contributors: [] },
  };
  const makeLegacy: LegacyResourceFactory = df.Resource;
  const Legacy: LegacyResource<{ id: number | undefined; content: string; author: number | null; contributors: number[] }> = makeLegacy(legacyOptions);
  const legacyList = await df.useResource(Legacy.list(), {});
  const one = await df.useResource(Legacy.detail(), { id: 1 });
  await ctrl.fetch(Legacy.create(), {}, { content: 'new' });
  await ctrl.fetch(Legacy.update(), { id: 1 }, { content: 'replaced' });
  await ctrl.fetch(Legacy.partialUpdate(), { id: 1 }, { content: 'patched' });
  await ctrl.fetch(Legacy.delete(), { id: 1 });
  console.log(legacyList.length, one.content, Legacy.listShape().key({}));

  // Errors
  const Network: NetworkErrorConstructor = df.NetworkError;
  const Abort: AbortOptimisticConstructor = df.AbortOptimistic;
  try {
    await ctrl.useSuspense(getArticle, { id: '999' });
  } catch (e) {
    if (e instanceof Network) {
      const err: NetworkError = e;
      console.log(err.status, err.statusText, err.response?.status, err.body);
    }
  }
  const aborted: AbortOptimistic = new Abort('not cached');
  console.log(aborted instanceof Error, aborted.message);
}

void main(new Uint8Array(0));
