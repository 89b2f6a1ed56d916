// The app's one use of datafetch, shared by the page and its worker: an
// endpoint whose fetch option answers from memory, read through a
// Controller, so the whole path (schema, normalize, store, denormalize, the
// wasm module itself) runs wherever the bundler put the package.
import { load } from 'datafetch';

const ARTICLES = [
  { id: 1, title: 'Hello', author: { id: 7, name: 'Ada' } },
  { id: 2, title: 'Again', author: { id: 7, name: 'Ada' } },
];

/** readArticles loads datafetch and returns a line describing what it read. */
export async function readArticles() {
  const df = await load();
  const User = df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
  const Article = df.Entity({ key: 'Article', defaults: { id: undefined, title: '', author: null }, schema: { author: User } });
  const list = new df.RestEndpoint({ urlPrefix: 'https://api.invalid', path: '/articles', name: 'articles', schema: [Article] });
  const ctrl = new df.Controller({
    fetch: async () => new Response(JSON.stringify(ARTICLES), { headers: { 'Content-Type': 'application/json' } }),
  });
  const data = await ctrl.fetch(list);
  const shared = data[0].author === data[1].author;
  return `${data.map((a) => `${a.title} by ${a.author.name}`).join(', ')}; author shared: ${shared}`;
}
