// Bodies typed from the schema (datafetch.d.ts, EntityBody): the bodies of
// a resource's create, update and partialUpdate name the entity's fields.
// Type-checked, not run, by `npx tsc --noEmit -p test/ts`: each line
// marked @ts-expect-error is a body the types must reject; the lines without
// a mark are bodies they must keep accepting (docs/js-api.md: an endpoint sends any
// plain object as JSON, and FormData, strings and binary as they are).

import type { BodyField, Controller, DataFetch, EndpointBody, EntityBody, RawBody } from 'datafetch';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export async function bodies(df: DataFetch, ctrl: Controller): Promise<void> {
  const User = df.Entity({ key: 'User', defaults: { id: 0, name: '' } });
  const Article = df.Entity({
    key: 'Article',
    defaults: { id: undefined as number | undefined, title: '', published: false, tags: [] as string[], author: null, createdAt: new Date(0) },
    schema: { author: User, createdAt: Date },
  });
  const articles = df.resource({ path: '/articles/:id', schema: Article });

  type Fields = {
    id?: number | undefined;
    title?: string;
    published?: boolean;
    tags?: string[];
    author?: { id: number; name: string } | null | undefined;
    createdAt?: Date | string | number;
  };
  type _b1 = Expect<Equal<EndpointBody<typeof articles.create>, Fields | RawBody>>;
  type _b2 = Expect<Equal<EndpointBody<typeof articles.update>, EndpointBody<typeof articles.create>>>;
  type _b3 = Expect<Equal<EndpointBody<typeof articles.partialUpdate>, EndpointBody<typeof articles.create>>>;
  type _b4 = Expect<Equal<EntityBody<{ n: number }>, { n?: number } | RawBody>>;
  type _b5 = Expect<Equal<BodyField<Date | null>, Date | string | number | null>>;

  // Accepted: any subset of the fields (the server fills the others with
  // their defaults; the node suite PUTs {title} alone), a date as a Date,
  // an ISO string or epoch ms, raw bodies, and no body (the body option).
  await ctrl.fetch(articles.create, {}, { title: 'New', tags: ['go'] });
  await ctrl.fetch(articles.create, {}, { title: 'Dated', createdAt: '2024-01-01T00:00:00Z' });
  await ctrl.fetch(articles.update, { id: 1 }, { title: 'Replaced', createdAt: new Date() });
  await ctrl.fetch(articles.partialUpdate, { id: 1 }, { published: true });
  await ctrl.fetch(articles.partialUpdate, { id: 1 }, { createdAt: 1_700_000_000_000 });
  await ctrl.fetch(articles.create, {}, new FormData());
  await ctrl.fetch(articles.create, {}, JSON.stringify({ title: 'As text' }));
  await ctrl.fetch(articles.partialUpdate, { id: 1 });

  // @ts-expect-error: a misspelled field in create's body
  await ctrl.fetch(articles.create, {}, { publishd: 123 });
  // @ts-expect-error: a misspelled field beside a right one
  await ctrl.fetch(articles.create, {}, { title: 'x', contnet: 'y' });
  // @ts-expect-error: a misspelled field in update's body
  await ctrl.fetch(articles.update, { id: 1 }, { titel: 'x' });
  // @ts-expect-error: a misspelled field in partialUpdate's body
  await ctrl.fetch(articles.partialUpdate, { id: 1 }, { publishd: true });
  // @ts-expect-error: a field of the wrong type (published is a boolean)
  await ctrl.fetch(articles.partialUpdate, { id: 1 }, { published: 'yes' });
  // @ts-expect-error: tags is a list of strings
  await ctrl.fetch(articles.update, { id: 1 }, { tags: [1, 2] });
  // @ts-expect-error: a date is a Date, an ISO string or epoch ms
  await ctrl.fetch(articles.create, {}, { createdAt: true });

  // Through resource.extend the mutations keep their bodies.
  const more = articles.extend({ partialUpdate: { dataExpiryLength: 0 } });
  await ctrl.fetch(more.partialUpdate, { id: 1 }, { title: 'x' });
  // @ts-expect-error: an extended partialUpdate keeps its body type
  await ctrl.fetch(more.partialUpdate, { id: 1 }, { titel: 'x' });

  // optimistic: true (data-client's resource option) keeps every type.
  const optimistic = df.resource({ path: '/articles/:id', schema: Article, optimistic: true });
  type _b6 = Expect<Equal<EndpointBody<typeof optimistic.partialUpdate>, EndpointBody<typeof articles.partialUpdate>>>;
  await ctrl.fetch(optimistic.create, {}, { title: 'New' });
  // @ts-expect-error: optimistic is a boolean
  df.resource({ path: '/articles/:id', schema: Article, optimistic: 'yes' });

  // A RestEndpoint's body is what its `body` option's type says, else any
  // body fetch can send.
  const publish = new df.RestEndpoint({ path: '/articles/:id/publish', method: 'POST', body: { published: true }, schema: Article });
  await ctrl.fetch(publish, { id: 1 }, { published: false });
  // @ts-expect-error: publish's body is {published: boolean}
  await ctrl.fetch(publish, { id: 1 }, { publishd: false });
}
