// The data-client app of the first-request benchmark (firstrequest.mjs):
// @data-client/core 0.10 with @data-client/rest 0.9.9, the store set up as
// @data-client/react's CacheProvider does (a Controller, its reducer, the
// NetworkManager), without React, as page.mjs's DCStore.

import { Controller, NetworkManager, applyManager, createReducer, initialState } from '@data-client/core';
import { Entity, RestEndpoint } from '@data-client/rest';
import { fail, show } from './first-show.mjs';

class Author extends Entity {
  id = 0;
  name = '';
  pk() {
    return this.id;
  }
  static key = 'Author';
}

class Article extends Entity {
  id = 0;
  title = '';
  content = '';
  published = false;
  author = null;
  tags = [];
  pk() {
    return this.id;
  }
  static key = 'Article';
  static schema = { author: Author };
}

const list = new RestEndpoint({ urlPrefix: '/api', path: '/articles', schema: [Article] });

const controller = new Controller();
const reducer = createReducer(controller);
let state = initialState;
let dispatch;
const store = { getState: () => state, dispatch: (action) => dispatch(action) };
const chain = applyManager([new NetworkManager()], controller).map((mw) => mw(store));
dispatch = chain.reduceRight(
  (next, mw) => mw(next),
  (action) => {
    state = reducer(state, action);
    return Promise.resolve();
  },
);

controller.fetch(list).then(() => show(controller.getResponse(list, state).data), fail);
