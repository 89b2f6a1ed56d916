// Record types: defaults that say their type, and flat shapes in hovers.
// Type-checked, not run, by `npx tsc --noEmit -p test/ts`. The `//   ^? text`
// lines say what an editor shows on hover over the name above the caret;
// `node test/ts/hovers.mjs` checks them (tsc cannot: type equality ignores
// how a type is written, so Expect<Equal<...>> below checks the types and
// hovers.mjs their display).

import type { Controller, DataFetch, Denormalize, EndpointData, Simplify } from 'datafetch';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export async function records(df: DataFetch, ctrl: Controller): Promise<void> {
  const User = df.Entity({ key: 'User', defaults: { id: 0, name: '' } });
  type UserT = { id: number; name: string };

  // README-style defaults say nothing about the type of `undefined`, `null`
  // or `[]`: those fields are `any`, and mistakes with them compile.
  const Loose = df.Entity({ key: 'Loose', defaults: { id: undefined, title: '', tags: [], note: null } });
  type LooseT = Denormalize<typeof Loose>;
  type _l1 = Expect<Equal<LooseT['id'], any>>;
  type _l2 = Expect<Equal<LooseT['tags'], any[]>>;
  type _l3 = Expect<Equal<LooseT['note'], any>>;

  // The pattern (datafetch.d.ts, "Types from defaults"): give such a
  // default its type with `as`. A nested entity's field is typed by its
  // schema; `null` there means "no author", so it stays in the type.
  const Article = df.Entity({
    key: 'Article',
    defaults: {
      id: undefined as number | undefined,
      title: '',
      tags: [] as string[],
      note: null as string | null,
      author: null,
      createdAt: new Date(0),
    },
    schema: { author: User, createdAt: Date },
  });
  type ArticleT = {
    id: number | undefined;
    title: string;
    tags: string[];
    note: string | null;
    author: UserT | null | undefined;
    createdAt: Date;
  };
  type _a1 = Expect<Equal<Denormalize<typeof Article>, ArticleT>>;

  // Or the whole defaults object as a declared type: one `as`.
  interface CommentFields {
    id: number | undefined;
    body: string;
    likedBy: number[];
  }
  const Comment = df.Entity({ key: 'Comment', defaults: { id: undefined, body: '', likedBy: [] } as CommentFields });
  type _c1 = Expect<Equal<Denormalize<typeof Comment>, { id: number | undefined; body: string; likedBy: number[] }>>;

  const articles = df.resource({ path: '/articles/:id', schema: Article });
  const article = await ctrl.useSuspense(articles.get, { id: 1 });
  //    ^? const article: { id: number | undefined; title: string; tags: string[]; note: string | null; author: { id: number; name: string; } | null | undefined; createdAt: Date; }
  type _r1 = Expect<Equal<typeof article, ArticleT>>;

  // With the pattern, mistakes with those fields are errors.
  // @ts-expect-error: tags holds strings
  article.tags.push(1);
  // @ts-expect-error: id may be undefined (and is a number, not a string)
  article.id.toUpperCase();
  // @ts-expect-error: note is a string or null
  const n: number = article.note;
  // @ts-expect-error: the author may be missing
  article.author.name;
  // @ts-expect-error: likedBy holds numbers
  const liked: string[] = (await ctrl.fetch(new df.RestEndpoint({ path: '/comments/:id', schema: Comment }), { id: 1 })).likedBy;
  void n, liked;

  // Flat shapes: what users see is an object type, not the name of the
  // type that computed it (EntityRecord<...>).
  const list = await ctrl.fetch(articles.getList);
  //    ^? const list: { id: number | undefined; title: string; tags: string[]; note: string | null; author: { id: number; name: string; } | null | undefined; createdAt: Date; }[]
  const user = await ctrl.useSuspense(new df.RestEndpoint({ path: '/users/:id', schema: User }), { id: 1 });
  //    ^? const user: { id: number; name: string; }
  type _u1 = Expect<Equal<typeof user, UserT>>;
  const page = await ctrl.useSuspense(new df.RestEndpoint({ path: '/users', schema: { results: [User], nextPage: '' } }));
  //    ^? const page: { results: { id: number; name: string; }[]; nextPage: string | null; }
  type _p1 = Expect<Equal<typeof page, { results: UserT[]; nextPage: string | null }>>;
  const state = ctrl.getResponse(articles.get, { id: 1 });
  type _s1 = Expect<Equal<typeof state.data, ArticleT | undefined>>;
  ctrl.subscribe(articles.get, { id: 1 }, ({ data }) => {
    //                                       ^? (parameter) data: { id: number | undefined; title: string; tags: string[]; note: string | null; author: { id: number; name: string; } | null | undefined; createdAt: Date; } | undefined
    type _d1 = Expect<Equal<typeof data, ArticleT | undefined>>;
  })();
  const getArticle = articles.get;
  //    ^? const getArticle: RestEndpoint<{ id: number | undefined; title: string; tags: string[]; note: string | null; author: { id: number; name: string; } | null | undefined; createdAt: Date; }, { readonly [x: string]: ParamValue; id: string | number; }, RequestBody>
  type _e1 = Expect<Equal<EndpointData<typeof getArticle>, ArticleT>>;
  type _f1 = Expect<Equal<Simplify<{ a: 1 } & { b: 2 }>, { a: 1; b: 2 }>>;
}
