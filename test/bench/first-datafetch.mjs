// The datafetch app of the first-request benchmark (firstrequest.mjs):
// written as a data-client user writes it, with nothing to await before
// the first read. The package comes from dist/ (esbuild resolves
// 'datafetch' there); datafetch.wasm is fetched from beside the bundle's
// folder (load()'s default source), while the read's request goes out at
// once.

import { Controller, Entity, RestEndpoint } from 'datafetch';
import { fail, show } from './first-show.mjs';

class Author extends Entity {
  id = 0;
  name = '';
}

class Article extends Entity {
  id = 0;
  title = '';
  content = '';
  published = false;
  author = null;
  tags = [];
  static schema = { author: Author };
}

const list = new RestEndpoint({ urlPrefix: '/api', path: '/articles', schema: [Article] });

const ctrl = new Controller();
ctrl.useSuspense(list, {}).then(show, fail);
