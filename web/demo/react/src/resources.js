// The app's data: entities and endpoints over the demo's REST API
// (web/sampleapi, mounted at /rest), declared once at module level as
// data-client's docs do. datafetch's constructors live on the loaded API,
// so this module loads it first (top-level await): every module that
// imports a resource runs after datafetch.wasm is ready.

import { load } from 'datafetch';

// The demo server mounts its REST API here.
export const API = '/rest';

// esbuild bundles the JavaScript but does not copy files that a module
// finds through new URL(..., import.meta.url): build.mjs copies
// datafetch.wasm beside the bundle, and this says where it is.
const WASM = new URL('./datafetch.wasm', import.meta.url);

export const df = await load(WASM).catch((err) => {
  const root = document.getElementById('root');
  if (root) root.textContent = `Could not load datafetch: ${err.message}`;
  throw err;
});

// ---------------------------------------------------------------- articles

export const Article = df.Entity({
  key: 'Article',
  defaults: { id: undefined, title: '', content: '', published: false, tags: [], author: null, createdAt: null },
  schema: { createdAt: Date },
});

const articles = df.resource({ urlPrefix: API, path: '/articles/:id', schema: Article });

/** Temporary ids of articles the server has not answered for yet. */
export const TEMP_PREFIX = 'tmp-';
export const isTemporary = (id) => String(id).startsWith(TEMP_PREFIX);
let temporaryIds = 0;
export const temporaryId = () => `${TEMP_PREFIX}${++temporaryIds}`;

/**
 * The article endpoints, their mutations optimistic: publish shows at
 * once, delete takes the article out; each is rolled back if the server
 * fails.
 */
export const ArticleResource = articles.extend({
  partialUpdate: {
    getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  },
  delete: {
    getOptimisticResponse: (snap, params) => params,
  },
});

/**
 * Create: getList's schema is a Collection, so its push endpoint POSTs
 * the article and appends it to the stored list, with no update
 * function. Optimistic: the body carries a temporary id, under which the
 * article is in the list at once; the server's answer replaces it (an
 * error takes it out).
 */
export const createArticle = ArticleResource.getList.push.extend({
  getOptimisticResponse: (snap, params, body) => body,
});

/**
 * A derived view, read from the cache with no request: the published
 * articles sorted by title, with their count. useQuery re-renders it
 * only when an article changes.
 */
export const publishedByTitle = new df.schema.Query(new df.schema.All(Article), (all) => {
  const list = all.filter((a) => a.published && !isTemporary(a.id)).sort((a, b) => a.title.localeCompare(b.title));
  return { count: list.length, list };
});

// ---------------------------------------------------------------- the counter

/**
 * The singleton counter. updatedAt orders the writes: an answer older than
 * the count shown is thrown away, so answers arriving out of order never
 * move the count back. updatedAt alone decides (shouldReorder is off):
 * the server may apply the requests in another order than they were sent,
 * so the answer to an earlier request can carry the newer count.
 */
export const Count = df.Entity({
  key: 'Count',
  pk: () => 'SINGLETON',
  defaults: { count: 0, updatedAt: 0 },
  schema: { updatedAt: Date },
  useIncoming: (existingMeta, incomingMeta, existing, incoming) => existing.updatedAt <= incoming.updatedAt,
  shouldReorder: () => false,
});

export const getCount = new df.RestEndpoint({ urlPrefix: API, path: '/api/count', name: 'getCount', schema: Count });

/**
 * +1, at once: the cached count plus one, stamped with the time of the
 * click. The request carries that time too, and the server answers with
 * it as the count's updatedAt, so answers and optimistic updates are
 * ordered on one clock.
 */
export const increment = new df.RestEndpoint({
  urlPrefix: API,
  path: '/api/count/increment',
  method: 'POST',
  name: 'increment',
  schema: Count,
  getRequestInit: (body) => ({ body: { ...body, updatedAt: Date.now() } }),
  getOptimisticResponse(snap) {
    const { data } = snap.getResponse(getCount);
    if (!data) throw new df.AbortOptimistic(); // nothing cached: no guess
    return { count: data.count + 1, updatedAt: snap.fetchedAt };
  },
});

// ---------------------------------------------------------------- posts

export const Post = df.Entity({ key: 'Post', defaults: { id: null, title: '', content: '', userId: null } });

/**
 * A page of posts: {results, nextPage, prevPage}, the tokens being URLs
 * such as "/rest/posts?page=2", or null on the first and last pages.
 * Params {page: token}; none for the first page.
 */
export const getPosts = new df.RestEndpoint({
  urlPrefix: API,
  path: '/posts',
  name: 'getPosts',
  schema: { results: [Post], nextPage: '', prevPage: '' },
});

/**
 * The same pages as one growing list: each page fetched through
 * getMorePosts is appended to the result of getPostFeed, {}. A refetch of
 * the first page would start the list over, so it stays fresh for an hour.
 */
export const getPostFeed = getPosts.extend({ name: 'getPostFeed', dataExpiryLength: 60 * 60 * 1000 });
export const getMorePosts = getPostFeed.paginated('page');

/** The page number a token names ("2" for "/rest/posts?page=2"); "1" for none. */
export function pageNumber(token) {
  if (!token) return '1';
  return new URL(token, location.origin).searchParams.get('page') ?? token;
}
