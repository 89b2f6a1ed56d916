// One side of tabsync.test.mjs: a datafetch instance of its own in a
// worker thread, loaded through the package's Node entry, with a Controller
// the test drives by messages. workerData: {module (file URL of
// datafetch.node.mjs), base (the fixture server's URL)}.
//
// Commands (from the test): {id, op, ...args}; answers {id, ok, value} or
// {id, ok: false, error}. Events (to the test): {event: 'change', name,
// data, loading, expiryStatus} for every listener call of a watch, and
// {event: 'debug', text} for every console.debug call.

import { parentPort, workerData } from 'node:worker_threads';

const { load } = await import(workerData.module);
const df = await load();
const { base } = workerData;

console.debug = (...args) => parentPort.postMessage({ event: 'debug', text: args.map(String).join(' ') });

const User = df.Entity({ key: 'User', defaults: { id: undefined, name: '', email: '', isManager: false } });
const Article = df.Entity({
  key: 'Article',
  defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
  schema: { author: User, createdAt: Date },
});
const articles = df.resource({ urlPrefix: base, path: '/articles/:id', schema: Article });
const endpoints = {
  getList: articles.getList,
  get: articles.get,
  partialUpdate: articles.partialUpdate.extend({
    getOptimisticResponse: (snap, params, body) => ({ id: params.id, ...body }),
  }),
};

const ctrl = new df.Controller();
let stop;
const watches = new Map();

// plain makes a read cloneable (Dates survive structured cloning).
const plain = (r) => ({ data: r.data, expiryStatus: r.expiryStatus, expiresAt: r.expiresAt });

const ops = {
  sync: ({ channel }) => {
    stop = df.syncTabs(ctrl, channel === undefined ? undefined : { channel });
  },
  stop: () => stop(),
  fetch: ({ endpoint, params, body }) => ctrl.fetch(endpoints[endpoint], params, body).then(() => undefined),
  // fetchOptimistic starts a mutation and answers once its optimistic
  // update is in the store, without waiting for the server.
  fetchOptimistic: ({ endpoint, params, body }) => {
    const done = ctrl.fetch(endpoints[endpoint], params, body);
    done.then(
      () => parentPort.postMessage({ event: 'settled', endpoint }),
      (err) => parentPort.postMessage({ event: 'settled', endpoint, error: err.message }),
    );
  },
  useSuspense: ({ endpoint, params }) => ctrl.useSuspense(endpoints[endpoint], params),
  read: ({ endpoint, params }) => plain(ctrl.getResponse(endpoints[endpoint], params)),
  key: ({ endpoint, params }) => endpoints[endpoint].key(params),
  state: () => ctrl.getState(),
  invalidate: ({ endpoint, params }) => ctrl.invalidate(endpoints[endpoint], params),
  invalidateAll: ({ prefix }) => ctrl.invalidateAll((k) => k.startsWith(prefix)),
  expireAll: ({ prefix }) => ctrl.expireAll((k) => k.startsWith(prefix)),
  reset: () => ctrl.resetEntireStore(),
  setResponse: ({ endpoint, params, data }) => ctrl.setResponse(endpoints[endpoint], params, data),
  // watch reports every change of a result, without fetching it.
  watch: ({ name, endpoint, params }) => {
    const unsubscribe = ctrl.subscribe(
      endpoints[endpoint],
      params,
      ({ data, loading }) => {
        const { expiryStatus } = ctrl.getResponse(endpoints[endpoint], params);
        parentPort.postMessage({ event: 'change', name, data, loading, expiryStatus });
      },
      { fetch: false },
    );
    watches.set(name, unsubscribe);
  },
  unwatch: ({ name }) => watches.get(name)?.(),
};

parentPort.on('message', async ({ id, op, ...args }) => {
  try {
    const value = await ops[op](args);
    parentPort.postMessage({ id, ok: true, value });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, error: err?.stack ?? String(err) });
  }
});
parentPort.postMessage({ event: 'ready' });
