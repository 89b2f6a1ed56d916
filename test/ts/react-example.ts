// A small program using every name react.d.ts (datafetch/react) exports,
// type-checked under `strict` by `npx tsc --noEmit -p test/ts` (it is not
// run). Lines marked @ts-expect-error prove the types reject misuse; the
// Expect<...> aliases prove what is inferred.

import { createElement, type ReactElement } from 'react';
import type { Controller, DataFetch } from 'datafetch';
import {
  AsyncBoundary,
  type AsyncBoundaryProps,
  DataProvider,
  type DataLoadingError,
  type DataProviderProps,
  type ErrorComponentProps,
  useCache,
  useController,
  useDLE,
  useLive,
  useLoading,
  useSubscription,
  useSuspense,
} from 'datafetch/react';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export function app(df: DataFetch, ctrl: Controller): ReactElement {
  const Article = df.Entity({ key: 'Article', defaults: { id: '', title: '', published: false } });
  const articles = df.resource({ urlPrefix: 'http://127.0.0.1:8080', path: '/articles/:id', schema: Article });

  function Detail({ id }: { id: string | null }): ReactElement {
    const article = useSuspense(articles.get, id === null ? null : { id });
    type _a = Expect<Equal<typeof article, { id: string; title: string; published: boolean } | undefined>>;
    const live = useLive(articles.get, { id: '1' });
    type _l = Expect<Equal<typeof live.title, string>>;
    const none = useSuspense(articles.get, null);
    type _n = Expect<Equal<typeof none, undefined>>;
    const list = useSuspense(articles.getList);
    const dle: DataLoadingError<typeof list> = useDLE(articles.getList, {});
    type _d = Expect<Equal<typeof dle.loading, boolean>>;
    const cached = useCache(articles.get, { id: '2' });
    type _c = Expect<Equal<typeof cached, typeof live | undefined>>;
    useSubscription(articles.getList, {});
    const controller: Controller = useController();
    const [publish, publishing, error] = useLoading(async (n: number) => controller.fetch(articles.partialUpdate, { id: '1' }, { published: n > 0 }), []);
    void publish(1);
    // @ts-expect-error: publish takes a number
    void publish('1');
    type _e = Expect<Equal<typeof error, Error | undefined>>;
    // @ts-expect-error: useSuspense needs an endpoint
    useSuspense('/articles/1', {});
    // @ts-expect-error: '/articles/:id' needs params with id
    useSuspense(articles.get);
    // @ts-expect-error: idd is not id
    useLive(articles.get, { idd: '1' });
    // @ts-expect-error: useDLE checks params as useSuspense does
    useDLE(articles.get, {});
    // @ts-expect-error: so does useCache
    useCache(articles.get, { idd: '2' });
    return createElement('p', null, article?.title, live.title, list.length, String(publishing), dle.data?.length);
  }

  function Failed({ error, resetErrorBoundary }: ErrorComponentProps): ReactElement {
    return createElement('button', { onClick: resetErrorBoundary }, error.message);
  }
  const boundary: AsyncBoundaryProps = { fallback: 'loading', errorComponent: Failed };
  const provider: DataProviderProps = { controller: ctrl };
  // @ts-expect-error: errorComponent gets {error, resetErrorBoundary}
  const wrong: AsyncBoundaryProps = { errorComponent: (p: { nope: number }) => null };
  void wrong;
  return createElement(DataProvider, provider, createElement(AsyncBoundary, boundary, createElement(Detail, { id: '1' })));
}
