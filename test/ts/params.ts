// Params typed from path templates (datafetch.d.ts, "Path templates"):
// type-checked, not run, by `npx tsc --noEmit -p test/ts`. Each line
// marked @ts-expect-error is a call the types must reject; the lines without
// a mark are calls they must keep accepting (the runtime and docs/js-api.md
// allow them).

import { load } from 'datafetch';
import type {
  AnyEndpoint,
  Controller,
  DataFetch,
  EndpointBody,
  EndpointData,
  EndpointParams,
  ExtendedData,
  ExtendedParams,
  FetchArgs,
  KnownParams,
  ListPath,
  NullableParamsArg,
  Params,
  ParamsArg,
  PathArgs,
  PathParams,
  PathTokens,
  PathValue,
  RestEndpoint,
  SetParams,
  SubscribeParams,
} from 'datafetch';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// The token syntax of core/rest/url.go (path-to-regexp 8's, as data-client
// writes paths): ':name' and '*name' tokens, '{...}' optional groups.
type _t1 = Expect<Equal<PathTokens<'/articles/:id'>, 'id'>>;
type _t2 = Expect<Equal<PathTokens<'/users/:userId/posts/:id'>, 'userId' | 'id'>>;
type _t3 = Expect<Equal<PathTokens<'/files/:name.json'>, 'name'>>; // a token ends at the first other character
type _t4 = Expect<Equal<PathTokens<'/a::b/:9/:_c1'>, 'b' | '_c1'>>; // ':' before a digit or ':' is literal text
type _t5 = Expect<Equal<PathTokens<'http://user:secret@host:8080/items/:id'>, 'id'>>; // no token before a full URL's path
type _t5b = Expect<Equal<PathTokens<'/a/:b/go?to=http://host/:c'>, 'b' | 'c'>>; // not a full URL: '/a/' is no scheme
type _t5c = Expect<Equal<PathTokens<'http\\://test.com/user/:id'>, 'id'>>; // an escaped colon
type _t6 = Expect<Equal<PathTokens<'/search?q=:q'>, 'q'>>; // tokens in the query part are tokens too
type _t7 = Expect<Equal<PathTokens<'/api/count'>, never>>;
type _t8 = Expect<Equal<PathTokens<string>, string>>;
type _t9 = Expect<Equal<PathTokens<'/users{/:id}{/:group}/*rest'>, 'id' | 'group' | 'rest'>>;
type _a1 = Expect<Equal<PathArgs<'/users/:userId/posts/:id'>, { userId: PathValue; id: PathValue }>>;
type _a2 = Expect<Equal<PathArgs<'/users{/:id}{/:group}'>, { id?: PathValue; group?: PathValue }>>;
type _a3 = Expect<Equal<PathArgs<'/users/:id/*rest'>, { id: PathValue; rest: readonly PathValue[] }>>;
type _a4 = Expect<Equal<PathArgs<'/users/:id{/*rest}'>, { id: PathValue; rest?: readonly PathValue[] }>>;
type _p1 = Expect<Equal<PathParams<'/api/count'>, Params>>;
type _p2 = Expect<Equal<PathParams<'/articles/:id', { fields?: string }>, { id: string | number; fields?: string }>>;
type _p3 = Expect<Equal<PathParams<string>, Params>>;
type _k1 = Expect<Equal<KnownParams<PathParams<'/articles/:id'>>, { id: string | number }>>;
// The list path of a resource: data-client's (core/rest/resource.go listPath).
type _l1 = Expect<Equal<ListPath<'/articles/:id'>, '/articles'>>;
type _l2 = Expect<Equal<ListPath<'/users/:userId/posts/:id'>, '/users/:userId/posts'>>;
type _l3 = Expect<Equal<ListPath<'/articles/:id/'>, '/articles'>>;
type _l4 = Expect<Equal<ListPath<'/:id'>, ''>>;
type _l5 = Expect<Equal<ListPath<'/files/:name.json'>, '/files'>>;
type _l6 = Expect<Equal<ListPath<'/api/count'>, '/api/count'>>;
type _l7 = Expect<Equal<ListPath<'http://host:8080/articles/:id'>, 'http://host:8080/articles'>>;
type _l8 = Expect<Equal<ListPath<'/repos/:owner/*path'>, '/repos/:owner'>>;
type _l9 = Expect<Equal<ListPath<'/users{/:id}'>, '/users'>>;
type _l10 = Expect<Equal<ListPath<'/users/:id{/*rest}'>, '/users/:id'>>;
type _l11 = Expect<Equal<ListPath<'http\\://test.com/user/:id'>, 'http\\://test.com/user'>>;
// The argument lists: optional without a required member.
type _g1 = Expect<Equal<ParamsArg<Params>, [params?: Params]>>;
type _g2 = Expect<Equal<ParamsArg<{ id: PathValue }>, [params: { id: PathValue }]>>;
type _g3 = Expect<Equal<NullableParamsArg<{ id: PathValue }>, [params: { id: PathValue } | null]>>;
type _g4 = Expect<Equal<FetchArgs<{ id: PathValue }, string>, [params: { id: PathValue }, body?: string]>>;
type _g5 = Expect<Equal<SubscribeParams<{ id: PathValue }>, { id: PathValue } | null>>;
type _g6 = Expect<Equal<SetParams<Params>, Params | undefined>>;
// What resource.extend makes of an endpoint's options.
type _x1 = Expect<Equal<ExtendedParams<Params, { path: '/a/:x' }>, PathParams<'/a/:x'>>>;
type _x2 = Expect<Equal<ExtendedParams<PathParams<'/a/:x'>, { searchParams: { q?: string } }>, { x: string | number; q?: string }>>;
type _x3 = Expect<Equal<ExtendedParams<PathParams<'/a/:x'>, { method: 'POST' }>, PathParams<'/a/:x'>>>;
type _x4 = Expect<Equal<ExtendedData<number, { schema: { n: 0 } }>, { n: number | null }>>;
type _x5 = Expect<Equal<ExtendedData<number, { name: 'x' }>, number>>;

export async function params(df: DataFetch, ctrl: Controller): Promise<void> {
  const Article = df.Entity({ key: 'Article', defaults: { id: '', title: '', published: false } });
  type ArticleT = { id: string; title: string; published: boolean };

  // RestEndpoint: the params come from the path.
  const getArticle = new df.RestEndpoint({ path: '/articles/:id', schema: Article });
  type _e1 = Expect<Equal<EndpointParams<typeof getArticle>, { readonly [name: string]: Params[string]; id: string | number }>>;
  type _e2 = Expect<Equal<EndpointData<typeof getArticle>, ArticleT>>;
  getArticle.url({ id: 1 });
  // data-client's path syntax: optional groups make optional params,
  // wildcards take arrays.
  const users = new df.RestEndpoint({ path: '/users{/:id}{/:group}' });
  users.url();
  users.url({ id: 5 });
  users.url({ group: 'a', id: 5 });
  const files = new df.RestEndpoint({ path: '/users/:id/*rest' });
  files.url({ id: '5', rest: ['docs', 'file'] });
  // @ts-expect-error a wildcard takes an array
  files.url({ id: '5', rest: 'docs/file' });
  // @ts-expect-error the wildcard is required
  files.url({ id: '5' });
  getArticle.url({ id: '1', fields: 'title' }); // other members are search params (docs/js-api.md, endpoints)
  getArticle.key({ id: '1', tag: ['a', 'b'] });
  // @ts-expect-error: '/articles/:id' requires id
  getArticle.url({});
  // @ts-expect-error: a misspelled id is not the id (and id is missing)
  getArticle.url({ idd: '1' });
  // @ts-expect-error: a path token is a string or a number
  getArticle.url({ id: { nested: 1 } });
  // @ts-expect-error: params are required when the path has tokens
  getArticle.key();

  // Two tokens: both required.
  const getPost = new df.RestEndpoint({ path: '/users/:userId/posts/:id', schema: Article });
  await ctrl.useSuspense(getPost, { userId: 7, id: '1' });
  // @ts-expect-error: userId is required as well
  await ctrl.useSuspense(getPost, { id: '1' });

  // A path without tokens: params stay optional and open.
  const getCount = new df.RestEndpoint<{ count: number }>({ path: '/api/count' });
  await ctrl.useSuspense(getCount);
  await ctrl.useSuspense(getCount, { anything: 'goes' });

  // Declared search params: other members are errors.
  const search = new df.RestEndpoint({ path: '/articles/:id/comments', searchParams: {} as { page?: number; sort?: 'asc' | 'desc' }, schema: [Article] });
  type _e3 = Expect<Equal<EndpointParams<typeof search>, { id: string | number; page?: number; sort?: 'asc' | 'desc' }>>;
  await ctrl.useSuspense(search, { id: 1, page: 2, sort: 'asc' });
  await ctrl.useSuspense(search, { id: 1 });
  // @ts-expect-error: `limit` is not a declared search param
  await ctrl.useSuspense(search, { id: 1, limit: 10 });
  // @ts-expect-error: `sort` is 'asc' | 'desc'
  await ctrl.useSuspense(search, { id: 1, sort: 'up' });
  const list = new df.RestEndpoint({ path: '/articles', searchParams: {} as { author?: number }, schema: [Article] });
  await ctrl.useSuspense(list);
  await ctrl.useSuspense(list, { author: 3 });
  // @ts-expect-error: declared search params close the set, also without tokens
  await ctrl.useSuspense(list, { autor: 3 });

  // extend: a new path gives new params; searchParams alone keep the tokens.
  const comments = getArticle.extend({ path: '/articles/:articleId/comments/:id' });
  await ctrl.useSuspense(comments, { articleId: 1, id: 2 });
  // @ts-expect-error: the extended path needs articleId
  await ctrl.useSuspense(comments, { id: 2 });
  const narrowed = getArticle.extend({ searchParams: {} as { fields?: string } });
  await ctrl.useSuspense(narrowed, { id: 1, fields: 'title' });
  // @ts-expect-error: `narrowed` declares its search params: `expand` is not one
  await ctrl.useSuspense(narrowed, { id: 1, expand: 'author' });
  const slower = getArticle.extend({ dataExpiryLength: 1000 });
  type _e4 = Expect<Equal<EndpointParams<typeof slower>, EndpointParams<typeof getArticle>>>;

  // Every controller method checks the params.
  const article = await ctrl.useSuspense(getArticle, { id: '1' });
  const fetched = await ctrl.fetch(getArticle, { id: '1' });
  type _s0 = Expect<Equal<typeof fetched, ArticleT>>;
  type _s1 = Expect<Equal<typeof article, ArticleT>>;
  const none = await ctrl.useSuspense(getArticle, null);
  type _s2 = Expect<Equal<typeof none, undefined>>;
  const maybe = await ctrl.useSuspense(getArticle, Math.random() > 0.5 ? { id: '1' } : null);
  type _s3 = Expect<Equal<typeof maybe, ArticleT | undefined>>;
  // @ts-expect-error: useSuspense(articles.get, {}) misses id
  await ctrl.useSuspense(getArticle, {});
  // @ts-expect-error: and without params at all
  await ctrl.useSuspense(getArticle);
  // @ts-expect-error: df.useSuspense checks the same
  await df.useSuspense(getArticle, { idd: '1' });
  // @ts-expect-error: so does the legacy name
  await df.useResource(getArticle, {});
  // @ts-expect-error: fetch
  await ctrl.fetch(getArticle, {});
  // @ts-expect-error: fetchIfStale
  await ctrl.fetchIfStale(getArticle, { idd: 1 });
  // @ts-expect-error: getResponse
  ctrl.getResponse(getArticle, {});
  ctrl.getResponse(getArticle, null);
  // @ts-expect-error: subscribe
  ctrl.subscribe(getArticle, { idd: '1' }, () => {});
  // @ts-expect-error: subscribe needs params (or null) when the path has tokens
  ctrl.subscribe(getArticle, undefined, () => {});
  ctrl.subscribe(getArticle, null, () => {})();
  ctrl.subscribe(getCount, undefined, (st) => console.log(st.data?.count))();
  // @ts-expect-error: invalidate
  await ctrl.invalidate(getArticle, {});
  // @ts-expect-error: setResponse
  await ctrl.setResponse(getArticle, {}, { id: '1', title: 'x' });
  await ctrl.setResponse(getCount, undefined, { count: 1 });

  // resource(): get, update, partialUpdate and delete take the path's
  // params; getList and create the list path's.
  const articles = df.resource({ path: '/articles/:id', schema: Article });
  await ctrl.useSuspense(articles.get, { id: 1 });
  await ctrl.useSuspense(articles.getList);
  await ctrl.useSuspense(articles.getList, { author: 3 }); // a search param
  await ctrl.fetch(articles.create, {}, { title: 'New' });
  await ctrl.fetch(articles.update, { id: 1 }, { title: 'Replaced' });
  await ctrl.fetch(articles.partialUpdate, { id: 1 }, { published: true });
  await ctrl.fetch(articles.delete, { id: 1 });
  // @ts-expect-error: resource get needs id
  await ctrl.useSuspense(articles.get, {});
  // @ts-expect-error: update needs id
  await ctrl.fetch(articles.update, { idd: 1 }, { title: 'x' });
  // @ts-expect-error: partialUpdate needs id
  await ctrl.fetch(articles.partialUpdate, {}, { title: 'x' });
  // @ts-expect-error: delete needs id
  await ctrl.fetch(articles.delete, {});

  // Nested resource: the list keeps the parent's token, with declared search params.
  const posts = df.createResource({ path: '/users/:userId/posts/:id', schema: Article, searchParams: {} as { page?: number } });
  await ctrl.useSuspense(posts.getList, { userId: 1, page: 2 });
  await ctrl.fetch(posts.create, { userId: 1 }, { title: 'x' });
  await ctrl.useSuspense(posts.get, { userId: 1, id: 2 });
  // @ts-expect-error: the list path '/users/:userId/posts' needs userId
  await ctrl.useSuspense(posts.getList, { page: 2 });
  // @ts-expect-error: `pag` is not a declared search param of getList
  await ctrl.useSuspense(posts.getList, { userId: 1, pag: 2 });
  // @ts-expect-error: create posts to the list path, which needs userId
  await ctrl.fetch(posts.create, {}, { title: 'x' });

  // resource.extend: an added endpoint starts from get, with its own path's params.
  const more = articles.extend({
    publish: { path: '/articles/:id/publish', method: 'POST' },
    byAuthor: { path: '/authors/:authorId/articles', schema: [Article] },
  });
  const published = await ctrl.fetch(more.publish, { id: 1 });
  type _r1 = Expect<Equal<typeof published, ArticleT>>;
  const byAuthor = await ctrl.useSuspense(more.byAuthor, { authorId: 5 });
  type _r2 = Expect<Equal<typeof byAuthor, ArticleT[]>>;
  // @ts-expect-error: publish's path needs id
  await ctrl.fetch(more.publish, {});
  // @ts-expect-error: byAuthor's path needs authorId
  await ctrl.useSuspense(more.byAuthor, { id: 5 });

  // Helpers for code that takes any endpoint (as datafetch/react does).
  function keyOf<E extends AnyEndpoint>(endpoint: E, ...p: ParamsArg<EndpointParams<E>>): string {
    return endpoint.key(...p);
  }
  keyOf(getArticle, { id: 1 });
  keyOf(getCount);
  // @ts-expect-error: the helper checks params as the controller does
  keyOf(getArticle, {});
  type _b1 = Expect<Equal<EndpointBody<RestEndpoint<unknown, Params, string>>, string>>;
}

// An endpoint is callable (data-client's form): endpoint(params, body) is
// endpoint.fetch(params, body); one argument to a body-taking endpoint is
// the body.
export async function callable(ctrl: Controller, getArticle: RestEndpoint<{ id: string }, { id: string }>, create: RestEndpoint<{ id: string }, {}, { title: string }>) {
  await getArticle({ id: '1' });
  await getArticle.call(null, { id: '1' });
  // @ts-expect-error: a required param is missing
  await getArticle();
  await create({ title: 'x' });
  await create({}, { title: 'x' });
  void ctrl;
}

// data-client's forms of get and getResponse: a state to read in place of
// the controller's store, last (a getState() snapshot or data-client's
// state, which has entities and endpoints).
export async function readState(ctrl: Controller) {
  const df = await load();
  const Article = df.Entity({ key: 'Article', defaults: { id: '', title: '', published: false } });
  const all = new df.schema.All(Article);
  const published = new df.schema.Query(all, (entries, minLength: number) => entries.filter((a) => a.title.length >= minLength).length);
  const dcState = { entities: { Article: { '1': { id: '1', title: 't', published: true } } }, endpoints: {}, meta: {}, entitiesMeta: {}, indexes: {} };
  const fromState: string | undefined = ctrl.get(Article, { id: '1' }, dcState)?.title;
  const allFromState: number = ctrl.get(all, ctrl.getState())?.length ?? 0;
  const viewFromState: number | undefined = ctrl.get(published, 3, dcState);
  // @ts-expect-error: the args are process's, the state last
  ctrl.get(published, 'three', dcState);
  // @ts-expect-error: a state has endpoints too
  ctrl.get(Article, { id: '1' }, { entities: {} });
  const getOne = new df.RestEndpoint({ path: '/articles/:id', schema: Article });
  const getAll = new df.RestEndpoint({ path: '/articles', schema: [Article] });
  const responseFromState: string | undefined = ctrl.getResponse(getOne, { id: '1' }, dcState).data?.title;
  const listFromState: number | undefined = ctrl.getResponse(getAll, dcState).data?.length;
  // @ts-expect-error: getOne needs its params before the state
  ctrl.getResponse(getOne, dcState);
  return [fromState, allFromState, viewFromState, responseFromState, listFromState];
}

// fetchResponse: an option (typed), and a method of every endpoint.
export async function fetchResponse() {
  const df = await load();
  const canned = new df.RestEndpoint({
    path: '/x',
    fetchResponse: (input: string, init: RequestInit) => Promise.resolve(new Response(`${init.method} ${input}`)),
  });
  const sent: Promise<Response> = canned.fetchResponse('/x', { method: 'GET' });
  // @ts-expect-error: fetchResponse resolves to a Response
  new df.RestEndpoint({ path: '/x', fetchResponse: () => Promise.resolve('text') });
  return sent;
}

// A schema.Query as an endpoint's schema: the endpoint's data is what its
// process returns for the endpoint's params.
export async function querySchemaEndpoint(ctrl: Controller): Promise<string[]> {
  const df = await load();
  const Article = df.Entity({ key: 'Article', defaults: { id: '', title: '', published: false } });
  const byTitle = new df.schema.Query(new df.schema.All(Article), (articles, params?: { asc?: boolean }) =>
    [...articles].sort((a, b) => (params?.asc ? 1 : -1) * a.title.localeCompare(b.title)),
  );
  const sorted = new df.RestEndpoint({ path: '/articles', searchParams: {} as { asc?: boolean }, schema: byTitle });
  const list = await ctrl.fetch(sorted, { asc: true });
  return list.map((a) => a.title);
}

// ctrl.get of a union: the member its params name.
export async function unionRead(ctrl: Controller): Promise<string | undefined> {
  const df = await load();
  const User = df.Entity({ key: 'User', defaults: { id: '', type: 'users', name: '' } });
  const Group = df.Entity({ key: 'Group', defaults: { id: '', type: 'groups', size: 0 } });
  const person = new df.schema.Union({ users: User, groups: Group }, 'type');
  const p = ctrl.get(person, { id: '1', type: 'users' });
  return p && 'name' in p ? p.name : undefined;
}

// data-client's Snapshot of a state, and the Meta names of the reads.
export async function snapshotReads(ctrl: Controller): Promise<string | undefined> {
  const df = await load();
  const Article = df.Entity({ key: 'Article', defaults: { id: '', title: '', published: false } });
  const getOne = new df.RestEndpoint({ path: '/articles/:id', schema: Article });
  const snap = ctrl.snapshot(ctrl.getState(), 0);
  const fromSnap: string | undefined = snap.getQueryMeta(Article, { id: '1' }).data?.title;
  const meta: string | undefined = ctrl.getResponseMeta(getOne, { id: '1' }).data?.title;
  const t: number = snap.fetchedAt;
  void t;
  return fromSnap ?? meta ?? snap.getResponseMeta(getOne, { id: '1' }).data?.title;
}
