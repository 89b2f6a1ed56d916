// Snapshots and persistence (docs/js-api.md, "Snapshots and persistence"):
// type-checked by `npx tsc --noEmit -p test/ts`, not run.

import { load } from 'datafetch';
import type { PersistOptions, PersistStorage, Persisted, StoreState } from 'datafetch';

const df = await load();
const server = new df.Controller();
const snapshot: StoreState = JSON.parse(JSON.stringify(server.getState()));
const version: number = snapshot.version;
const client = new df.Controller({ initialState: snapshot });
await client.hydrate(snapshot);
// @ts-expect-error a snapshot is an object
await client.hydrate('text');

// localStorage fits as it is; so does a storage of Promises.
const sync: PersistStorage = localStorage;
const async: PersistStorage = {
  getItem: async (key: string) => sessionStorage.getItem(key),
  setItem: async (key: string, value: string) => sessionStorage.setItem(key, value),
  removeItem: async (key: string) => sessionStorage.removeItem(key),
};
const options: PersistOptions = { storage: sync, key: 'app', throttle: 500, maxAge: 3_600_000, buster: 'v2' };
const persisted: Persisted = await df.persist(client, options);
await persisted.flush();
persisted.stop();
await df.persist(client, { storage: async, schedule: (fn, ms) => {
  const t = setTimeout(fn, ms);
  return () => clearTimeout(t);
} });
await df.persist(client, { storage: df.indexedDBStorage('my-app') });
// @ts-expect-error throttle is a number of ms
await df.persist(client, { throttle: '1s' });
export { version };
