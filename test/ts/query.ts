// Types of schema.All, schema.Query, ctrl.get and useQuery (docs/js-api.md,
// "Collections and queries"): type-checked by `npx tsc --noEmit -p test/ts`, not run.
import { load } from 'datafetch';
import { useQuery } from 'datafetch/react';

const df = await load();
const Article = df.Entity({ key: 'Article', defaults: { id: '', title: '', published: false } });
const ctrl = new df.Controller();

const all = new df.schema.All(Article);
const everyArticle = ctrl.get(all);
const firstTitle: string | undefined = everyArticle?.[0]?.title;

const published = new df.schema.Query(all, (entries, minLength: number) => {
  const list = entries.filter((a) => a.published && a.title.length >= minLength);
  return { count: list.length, list };
});
const view = ctrl.get(published, 3);
const count: number | undefined = view?.count;
// @ts-expect-error: the args are process's
ctrl.get(published, 'three');

const one = ctrl.get(Article, { id: '1' });
const title: string | undefined = one?.title;

function Count() {
  const v = useQuery(published, 1);
  return v?.count;
}

export { firstTitle, count, title, Count };
